"""The searching seat's own playout policy (``own=NAME``, docs/bots.md, "Own-seat policy"), and
2-player Epochs' successor policy, the default there (``bots.SuccessorBot``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from bot_helpers import mid_game

import ziggurat
from ziggurat.bots import ISMCTSConfig, make_bot
from ziggurat.bots.search import Searcher
from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.games.mesopotamia_epochs import bots as epochs_bots
from ziggurat.games.mesopotamia_epochs.bots import HeuristicBot, SuccessorBot
from ziggurat.games.mesopotamia_epochs.bots_cards import card_worth
from ziggurat.games.mesopotamia_epochs.bots_model import HEURISTIC, SUCCESSOR, Picture

GAME = "mesopotamia-epochs"


def _older_own(pic: Picture, move: str) -> int | None:
    """The People whose area the placement ``move`` goes into if it is another People of the
    mover's own player (an attack on its own older People, R20); else ``None``."""
    q = pic.occ[pic.map.index[move[6:]]] if move.startswith("place ") else -1
    return q if q >= 0 and q != pic.active and pic.owner[q] == pic.seat else None


def _retake(state: State) -> str | None:
    """The successor's move where it places into an area held by another of the mover's own
    Peoples (a combat, E8.5) and the heuristic does not; else ``None``."""
    seat = state.current_player()
    view = state.view(seat)
    if view["pending"] is not None or view["round"] is None:
        return None
    legal = state.legal_actions()
    move = SuccessorBot(state.game, seat).choose(view, legal, random.Random(0))  # type: ignore[attr-defined]
    if _older_own(Picture(state.game, view, seat), move) is None:  # type: ignore[attr-defined]
        return None
    if HeuristicBot(state.game, seat).choose(view, legal, random.Random(0)) == move:  # type: ignore[attr-defined]
        return None
    return move


@pytest.fixture(scope="module")
def retake() -> tuple[ziggurat.Game, State, str]:
    """A seeded 2-player position where the successor retakes an area (:func:`_retake`)."""
    game, state = mid_game(GAME, 2, 0, seed=3, where=lambda s: _retake(s) is not None)
    move = _retake(state)
    assert move is not None
    return game, state, move


def test_successor_retakes_an_area_its_older_people_has_scored(
    retake: tuple[ziggurat.Game, State, str],
) -> None:
    """R20 lets a People attack its own player's other Peoples. Only the active People scores,
    at the end of its round (E14.1), so an area taken from an older People that has had its
    round this Epoch scores again: the successor policy takes such areas, the heuristic never
    does."""
    game, state, move = retake
    seat = state.current_player()
    pic = Picture(game, state.view(seat), seat)
    holder = _older_own(pic, move)
    assert holder is not None and pic.owner[holder] == seat and holder != pic.active
    assert not pic.acts_later(holder)  # its round this Epoch is over: the area scores again
    # the move is a combat against the player's own tribes (E8.5, E12)
    after = state.clone()
    after.apply(move)
    assert after.is_chance_node()


def test_the_heuristic_never_attacks_its_own_peoples() -> None:
    """Over a seeded 2-player game, no placement of the heuristic goes into an area held by
    another People of the same player (the successor's does, above)."""
    game = ziggurat.load(GAME, players=2)
    state = game.new_initial_state()
    rng = random.Random(8)
    bots = [HeuristicBot(game, s) for s in range(2)]
    placements = 0
    while not state.is_terminal():
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        view = state.view(who)
        move = bots[who].choose(view, state.legal_actions(), rng)
        if move.startswith("place ") and view["pending"] is None:
            assert _older_own(Picture(game, view, who), move) is None
            placements += 1
        state.apply(move)
    assert placements > 50


def test_each_bot_judges_with_its_own_constants() -> None:
    """The successor's tuned constants (``bots_model.SUCCESSOR``) reach only the Pictures made
    with them: a heuristic judging in the same process, before and after, judges as before
    (the search plays both policies in one process)."""
    game, state = mid_game(GAME, 2, 40, seed=4)
    assert HeuristicBot(game, 0).judgement is HEURISTIC and SuccessorBot(game, 0).judgement is SUCCESSOR
    assert SUCCESSOR.denial == (4.0, 1.0) and SUCCESSOR.keep_per_epoch != HEURISTIC.keep_per_epoch
    seat = state.current_player()
    view = state.view(seat)
    before = Picture(game, view, seat)
    tuned = Picture(game, view, seat, replace(SUCCESSOR, future_keep=0.5))
    after = Picture(game, view, seat)
    assert before.epoch < before.epochs  # later Epochs: the constants weigh them
    theirs = [a for a in range(before.map.size) if before.occ[a] >= 0 and before.owner[before.occ[a]] != seat]
    assert theirs
    assert [after.denial(a) for a in theirs] == [before.denial(a) for a in theirs]
    assert all(tuned.denial(a) != before.denial(a) for a in theirs)
    card = before.peoples.epoch_cards[before.epochs][0]  # a People of the last Epoch's deck
    assert card_worth(after, card, seat) == card_worth(before, card, seat) != card_worth(tuned, card, seat)


def test_the_search_follows_its_own_policy_for_its_seat_only(
    retake: tuple[ziggurat.Game, State, str],
) -> None:
    """With ``own=successor`` the root's prior (the playout policy's own move) is the
    successor's; with ``own=heuristic`` the heuristic's. 2-player Epochs defaults to it."""
    game, state, _ = retake
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    successor = SuccessorBot(game, seat).choose(view, legal, random.Random(0))
    heuristic = HeuristicBot(game, seat).choose(view, legal, random.Random(0))
    assert successor != heuristic
    priors = {}
    for own in ("successor", "heuristic", None):
        config = ISMCTSConfig(seconds=None, iterations=6, plies=2, own=own)
        stats = Searcher(game, seat, config).search(view, 5, config.iterations, None)
        priors[own] = stats.prior
    assert priors == {"successor": successor, "heuristic": heuristic, None: successor}
    four = ziggurat.load(GAME, players=4)
    assert Searcher(four, 0, ISMCTSConfig()).own is None  # 4 players: the heuristic (unmeasured)


class _Counting(HeuristicBot):
    """The heuristic, counting its decisions per seat."""

    calls: dict[int, int] = {}

    def choose(self, view: dict[str, object] | None, legal: list[str], rng: random.Random) -> str:  # type: ignore[override]
        _Counting.calls[self.seat] = _Counting.calls.get(self.seat, 0) + 1
        return super().choose(view, legal, rng)  # type: ignore[arg-type]


def test_only_the_searching_seat_plays_its_own_policy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(epochs_bots, "POLICIES", {"count": _Counting})
    game, state = mid_game(GAME, 2, 30, seed=2)
    seat = state.current_player()
    config = ISMCTSConfig(seconds=None, iterations=8, plies=6, own="count")
    _Counting.calls = {}
    Searcher(game, seat, config).search(state.view(seat), 1, config.iterations, None)
    assert set(_Counting.calls) == {seat} and _Counting.calls[seat] > 8
    _Counting.calls = {}
    plain = ISMCTSConfig(seconds=None, iterations=8, plies=6, own="heuristic")
    Searcher(game, seat, plain).search(state.view(seat), 1, plain.iterations, None)
    assert _Counting.calls == {}


def test_a_policy_the_game_lacks_is_refused_when_the_bot_is_made() -> None:
    game = ziggurat.load(GAME, players=2)
    with pytest.raises(ValueError, match="no playout policy 'raid' for own=; choose heuristic, successor"):
        make_bot("ismcts:10:own=raid", game, 0)
    nostrum = ziggurat.load("mare-nostrum", players=3)
    raider = make_bot("ismcts:10:own=raid", nostrum, 0)
    # the raid is then every playout's own follow-up, no longer a plan candidate beside it
    assert raider.searcher.own == "raid" and raider.searcher.plans == {}  # type: ignore[attr-defined]
    # with random playouts there is no own policy to follow
    assert make_bot("ismcts:10:own=successor:rollout=random", game, 0).searcher.own is None  # type: ignore[attr-defined]
