"""What the action codec remembers (legal texts' indices, the last legal list it encoded,
chance outcomes) never changes an answer: states of one game asked in any order get the
indices and texts that plain encoding gives."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

import ziggurat  # noqa: E402
from ziggurat.engine.contract import sample_chance  # noqa: E402
from ziggurat.interop.codec import MASK_LOOP_UP_TO, CodecError, codec_for  # noqa: E402

GAMES = [("mesopotamia", 3), ("mesopotamia-epochs", 3), ("mare-nostrum", 4)]


def seeded_states(game_id: str, players: int, seed: int, plies: int) -> list[ziggurat.State]:
    """Clones of every state of a seeded random game, in play order."""
    game = ziggurat.load(game_id, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    kept = []
    while not state.is_terminal() and len(kept) < plies:
        kept.append(state.clone())
        if state.is_chance_node():
            state.apply(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return kept


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_states_asked_out_of_order_get_plain_encodings(game_id: str, players: int) -> None:
    states = seeded_states(game_id, players, seed=3, plies=400)
    game = states[0].game
    codec = codec_for(game)
    plain = type(codec)(game)  # a codec of its own, nothing remembered yet
    random.Random(0).shuffle(states)  # Mesopotamia's maps differ from one state to the next
    players_checked = chance_checked = 0
    for earlier, state in zip([states[-1], *states], states, strict=False):
        legal = list(state.legal_actions())
        if state.current_player() >= 0:
            want = [plain.encode(a, state) for a in legal]
            if earlier.current_player() >= 0:
                codec.legal_indices(earlier)  # the codec last encoded another state's list
            assert codec.legal_indices(state) == sorted(want)
            assert [codec.decode(i, state) for i in want] == legal
            assert list(codec.legal_mask(state).nonzero()[0]) == sorted(want)
            players_checked += 1
        elif state.is_chance_node():
            want_chance = sorted((plain.encode_chance(a, state), p) for a, p in state.chance_outcomes())
            assert codec.chance_outcomes(state) == want_chance
            assert codec.chance_outcomes(state) == want_chance  # asked again: the same
            assert [codec.decode_chance(i, state) for i, _ in want_chance] == [
                plain.decode_chance(i, state) for i, _ in want_chance
            ]
            chance_checked += 1
    assert players_checked > 50 and chance_checked > 5


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_remembered_indices_keep_the_refusals(game_id: str, players: int) -> None:
    """An index or a text the codec cannot map is refused the same after the memos fill."""
    states = seeded_states(game_id, players, seed=4, plies=120)
    codec = codec_for(states[0].game)
    state = next(s for s in reversed(states) if s.current_player() >= 0)
    codec.legal_indices(state)
    first = codec.legal_table(state).indices[0]
    assert codec.decode(first, state) in state.legal_actions()
    for bad in (-1, codec.num_actions, float(first)):
        with pytest.raises(CodecError):
            codec.decode(bad, state)  # type: ignore[arg-type]
    for bad in (-1, codec.num_chance_outcomes, float(0)):
        with pytest.raises(CodecError):
            codec.decode_chance(bad, state)  # type: ignore[arg-type]
    with pytest.raises(CodecError):
        codec.encode_chance("no such outcome", state)


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_chance_lists_kept_by_contents_answer_as_plain_encoding(game_id: str, players: int) -> None:
    """A chance list made afresh with contents met before (a copy, here) gets the plain
    encoding, and every answer is the caller's own list: changing one changes no later one."""
    states = [s for s in seeded_states(game_id, players, seed=5, plies=300) if s.is_chance_node()]
    game = states[0].game
    codec = codec_for(game)
    plain = type(codec)(game)
    for state in states:
        outcomes = state.chance_outcomes()
        want = sorted((plain.encode_chance(a, state), p) for a, p in outcomes)
        first = codec.encode_outcomes(list(outcomes), state)
        assert first == want
        first.reverse()  # the caller's own list
        assert codec.encode_outcomes(list(outcomes), state) == want  # the same contents, another list
        assert codec.encode_outcomes(outcomes, state) == want
        assert codec.chance_outcomes(state) == want
    assert len(states) > 5


@pytest.mark.parametrize(("game_id", "players"), GAMES, ids=[g for g, _ in GAMES])
def test_masks_of_short_and_long_legal_lists(game_id: str, players: int) -> None:
    """A mask has its ones at the legal indices and nowhere else, whether they are set one by
    one (a short list) or through an array of the indices kept with the table (a long one)."""
    states = [s for s in seeded_states(game_id, players, seed=6, plies=400) if s.current_player() >= 0]
    codec = codec_for(states[0].game)
    lengths = set()
    for state in states:
        table = codec.legal_table(state)
        for _ in range(2):  # the second mask of a table reuses what the first made
            mask = codec.table_mask(table)
            assert mask.flags.writeable
            assert mask.nonzero()[0].tolist() == table.indices
            mask[:] = 1
        lengths.add(len(table.indices) > MASK_LOOP_UP_TO)
    assert lengths == {False, True}
