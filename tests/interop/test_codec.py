"""Action codecs: fixed sizes, bijective id spaces, and every legal action and chance
outcome of seeded random and heuristic games encodes in range, distinctly, and round-trips."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

import ziggurat  # noqa: E402
from ziggurat.bots.base import make_bot  # noqa: E402
from ziggurat.engine.registry import game_class  # noqa: E402
from ziggurat.interop.codec import CodecError, codec_for  # noqa: E402

CONFIGS = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


def check_state(codec, state) -> int:
    """Every legal action / chance outcome of ``state`` encodes in range, distinctly, and decodes
    back; returns how many were checked."""
    if state.current_player() == ziggurat.CHANCE:
        outcomes = [a for a, _ in state.chance_outcomes()]
        ids = [codec.encode_chance(a, state) for a in outcomes]
        assert all(0 <= i < codec.num_chance_outcomes for i in ids)
        assert len(set(ids)) == len(ids), "two chance outcomes share an index"
        assert [codec.decode_chance(i, state) for i in ids] == outcomes
        assert codec.legal_indices(state) == []
        return len(ids)
    legal = list(state.legal_actions())
    ids = [codec.encode(a, state) for a in legal]
    assert all(0 <= i < codec.num_actions for i in ids)
    assert len(set(ids)) == len(ids), "two legal actions share an index"
    assert [codec.decode(i, state) for i in ids] == legal
    assert codec.legal_indices(state) == sorted(ids)
    mask = codec.legal_mask(state)
    assert mask.dtype == np.int8 and mask.shape == (codec.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(ids)
    return len(ids)


def play(game, seed: int, plies: int, kind: str = "random") -> int:
    """A seeded game (``plies`` decisions at most) checked at every node."""
    codec = codec_for(game)
    rng = random.Random(seed)
    bots = [make_bot(kind, game, s) for s in range(game.num_players)]
    state = game.new_initial_state()
    checked = 0
    for _ in range(plies):
        if state.is_terminal():
            break
        checked += check_state(codec, state)
        who = state.current_player()
        if who == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            bot = bots[who]
            state.apply(bot.choose(state.view(who) if bot.needs_view else None, state.legal_actions(), rng))
    if state.is_terminal():
        assert codec.legal_indices(state) == [] and not codec.legal_mask(state).any()
    return checked


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_sizes_fixed_and_cached(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    codec = codec_for(game)
    assert codec_for(ziggurat.load(game_id, players=players)) is codec  # cached per configuration
    assert 0 < codec.num_actions <= 50_000
    assert 0 < codec.num_chance_outcomes <= 50_000
    for layout in (codec.blocks(), codec.chance_blocks()):
        assert layout[0].start == 0
        for a, b in zip(layout, layout[1:], strict=False):
            assert a.stop == b.start, "blocks are laid end to end"
    assert codec.blocks()[-1].stop == codec.num_actions
    assert codec.chance_blocks()[-1].stop == codec.num_chance_outcomes


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_random_games_round_trip(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    checked = sum(play(game, seed, 250) for seed in range(3))
    assert checked > 200


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_heuristic_game_round_trips(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    assert play(game, 11 + players, 200, "heuristic") > 100


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        (
            "mesopotamia",
            {
                "first_player": "chosen",
                "variant_start_with_one_card": True,
                "stone_donated_on_temple_entry": False,
            },
        ),
        (
            "mesopotamia",
            {
                "growth_requires_own_hut": False,
                "neutral_hut_allows_growth": True,
                "expulsion_moves_offering": False,
            },
        ),
        (
            "mare-nostrum",
            {
                "empire_assignment": "choice",
                "starting_title_tie_break": "random",
                "conquest_options_per_conquest": 2,
            },
        ),
        ("mesopotamia-epochs", {"die_sides": 4}),
    ],
)
def test_options_round_trip(game_id: str, options: dict) -> None:
    """Options that add decisions (first player, dealt cards, donations, Empire choice ...) or
    change the id space (die sides) are covered."""
    game = ziggurat.load(game_id, players=3, **options)
    assert sum(play(game, seed, 300) for seed in range(2)) > 100


@pytest.mark.parametrize("game_id", ["mesopotamia-epochs", "mare-nostrum"])
@pytest.mark.parametrize("players", [3, 5])
def test_state_independent_spaces_are_bijections(game_id: str, players: int) -> None:
    """Every index decodes to a distinct text that encodes back to it, without a state."""
    codec = codec_for(ziggurat.load(game_id, players=players))
    assert not codec.state_dependent
    texts = [codec.decode(i) for i in range(codec.num_actions)]
    assert len(set(texts)) == len(texts)
    assert [codec.encode(t) for t in texts] == list(range(codec.num_actions))
    outcomes = [codec.decode_chance(i) for i in range(codec.num_chance_outcomes)]
    assert len(set(outcomes)) == len(outcomes)
    assert [codec.encode_chance(t) for t in outcomes] == list(range(codec.num_chance_outcomes))


def test_mesopotamia_space_is_a_bijection_within_a_state() -> None:
    """Mesopotamia numbers tiles by their slot on the current map: within one state, every
    index that names an existing tile decodes to a text that encodes back to it."""
    game = ziggurat.load("mesopotamia", players=4)
    codec = codec_for(game)
    assert codec.state_dependent
    rng = random.Random(5)
    state = game.new_initial_state()
    for _ in range(400):  # a few discoveries in
        state.apply(
            ziggurat.sample_chance(state, rng)
            if state.is_chance_node()
            else rng.choice(state.legal_actions())
        )
    while state.current_player() < 0:
        state.apply(ziggurat.sample_chance(state, rng))
    decoded = {}
    for i in range(codec.num_actions):
        try:
            decoded[i] = codec.decode(i, state)
        except CodecError:
            continue  # a slot beyond the current map, or a hut not placed yet
    assert len(decoded) > codec.num_actions // 3
    assert len(set(decoded.values())) == len(decoded)
    assert all(codec.encode(t, state) == i for i, t in decoded.items())
    texts = [codec.decode_chance(i) for i in range(codec.num_chance_outcomes)]
    assert [codec.encode_chance(t) for t in texts] == list(range(codec.num_chance_outcomes))


def test_mesopotamia_slots_follow_the_map() -> None:
    """The seven start tiles are slots 0-6 in every game; a move names slot and direction."""
    game = ziggurat.load("mesopotamia", players=2)
    codec = codec_for(game)
    state = game.new_initial_state()
    while state.current_player() < 0:
        state.apply(ziggurat.sample_chance(state, random.Random(0)))
    move = next(a for a in state.legal_actions() if a.startswith("move"))
    block, coords = codec.actions.locate(codec.encode(move, state))
    assert block.kind == "move" and coords[0] < 7
    with pytest.raises(CodecError, match="pass the state"):
        codec.encode(move)


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_unknown_texts_and_indices_are_refused(game_id: str) -> None:
    game = ziggurat.load(game_id, players=3)
    codec = codec_for(game)
    state = game.new_initial_state()
    for bad in ("fly to the moon", "move", "place atlantis", "buy spaceship here"):
        with pytest.raises(CodecError):
            codec.encode(bad, state)
    for index in (-1, codec.num_actions, 10**9):
        with pytest.raises(CodecError):
            codec.decode(index, state)
    with pytest.raises(CodecError):
        codec.decode_chance(codec.num_chance_outcomes)
    with pytest.raises(CodecError):
        codec.encode_chance("roll 99,99,99", state)


def test_import_ziggurat_does_not_import_numpy() -> None:
    """NumPy and PettingZoo come in only with ``ziggurat.interop``; the codec needs no PettingZoo."""
    import subprocess
    import sys

    code = (
        "import sys, ziggurat\n"
        "for g in ziggurat.games(): ziggurat.load(g).new_initial_state().view(0)\n"
        "assert 'numpy' not in sys.modules and 'pettingzoo' not in sys.modules\n"
        "import ziggurat.interop.codec, ziggurat.interop.observe\n"
        "assert 'pettingzoo' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
