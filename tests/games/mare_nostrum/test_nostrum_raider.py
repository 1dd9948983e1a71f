"""The raider (``bots.RaiderBot``), the plan the search may follow in Mare Nostrum (docs/bots.md,
"Plans"): where it lands, what it buys for the raid, how it rows and sails (N3.6-N3.7, N4.4,
N4.6.2), and whole games with it."""

from __future__ import annotations

import random

import pytest
from nostrum_helpers import CARTHAGE, GREECE, ROME, buy_turn, mil_turn, new, pos

from ziggurat.bots import play_game
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum.bots import PLANS, HeuristicBot, RaiderBot


def _choices(state, seat):  # type: ignore[no-untyped-def]
    legal = state.legal_actions()
    raider = RaiderBot(state.game, seat)
    ours = raider.choose(state.view(seat), legal, random.Random(0))
    theirs = HeuristicBot(state.game, seat).choose(state.view(seat), legal, random.Random(0))
    return raider, ours, theirs


def _carthage_leads(state):  # type: ignore[no-untyped-def]
    p = pos(state)
    p["tiles"][CARTHAGE].append("hercules")
    p["display"] = [t if t != "hercules" else None for t in p["display"]]
    return state.game.state_from_position(p)


def test_the_raid_goes_by_trireme_chain_to_the_strongest_opponents_capital() -> None:
    """Carthage leads (two tiles): Rome's raid lands in Africa (capital, market, two caravans)
    from Latium (its legions), over Mare Tyrrhenum, where its trireme is, and Mare Sardum; the
    first purchase is the missing trireme (N3.7), where the heuristic garrisons Italia, its
    capital, open to Greece's legion landing from Achea by its trireme in Mare Ionium (N3.6)."""
    state = buy_turn(_carthage_leads(new(3)), ROME)
    raider, ours, theirs = _choices(state, ROME)
    assert raider.raid is not None
    assert (raider.raid.landing, raider.raid.staging) == ("africa", "latium")
    assert raider.raid.chain == ["mare_tyrrhenum", "mare_sardum"]
    assert (raider.raid.defenders, raider.raid.fortress) == (1, False)
    assert ours == "buy trireme mare_tyrrhenum"
    assert theirs == "buy legion italia"


def test_with_the_triremes_bought_the_raider_buys_legions_in_the_staging_province() -> None:
    state = _carthage_leads(new(3))
    p = pos(state)
    p["triremes"]["mare_tyrrhenum"] = [3, 0, 0]
    state = buy_turn(state.game.state_from_position(p), ROME)
    _, ours, _ = _choices(state, ROME)
    assert ours == "buy legion latium"  # 2 there; one defender needs 2 + 1 (margin) and one more


def test_triremes_row_forward_along_the_chain_and_legions_sail_when_enough() -> None:
    state = _carthage_leads(new(3))
    p = pos(state)
    p["triremes"]["mare_tyrrhenum"] = [2, 0, 0]
    p["legions"]["latium"] = [4, 0, 0]
    state = mil_turn(state.game.state_from_position(p), ROME, stage="mil_row")
    _, ours, theirs = _choices(state, ROME)
    assert ours == "row mare_tyrrhenum mare_sardum"  # one stays: no gap in the chain
    assert theirs == "row mare_tyrrhenum mare_ionium"  # to meet the fleet off Italia (N4.4)
    state.apply(ours)
    state.apply("done")  # trireme moves
    assert state.d["stage"] in ("mil_sea", "mil_march")
    if state.d["stage"] == "mil_sea":  # Carthage's trireme in Mare Sardum: no sea battle
        state.apply("done")
    _, ours, _ = _choices(state, ROME)
    assert ours == "sail latium africa"  # 4 legions against 1 defender (N4.6.2)
    for _ in range(3):
        state.apply("sail latium africa")
    _, ours, _ = _choices(state, ROME)
    assert ours == "sail latium africa"  # the raid is on: the last one follows


def test_no_raid_without_a_coastal_target() -> None:
    """A raider whose empire has no coastal province (here Rome holds only landlocked
    Germania) has no raid and plays as the heuristic."""
    state = new(3)
    p = pos(state)
    for prov in ("latium", "gallia", "italia"):
        p["markers"].pop(prov, None)
        p["buildings"].pop(prov, None)
    p["legions"].pop("latium", None)
    p["triremes"].pop("mare_tyrrhenum", None)
    p["markers"]["germania"] = ROME
    state = buy_turn(state.game.state_from_position(p), ROME)
    raider, ours, theirs = _choices(state, ROME)
    assert raider.raid is None
    assert ours == theirs


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.slow
def test_games_with_raiders_finish_and_keep_every_piece(n: int) -> None:
    game = MareNostrumGame(n, {})
    for seed in range(2):
        bots = [RaiderBot(game, s) if s % 2 == seed % 2 else HeuristicBot(game, s) for s in range(n)]
        res = play_game(game, bots, seed=seed)
        assert not res.truncated and res.state.is_terminal()
        assert game.invariants(res.state) == []
        again = play_game(game, [type(b)(game, b.seat) for b in bots], seed=seed)
        assert again.state.history() == res.state.history()


def test_raider_is_the_games_plan() -> None:
    assert {"raid": RaiderBot} == PLANS
    assert RaiderBot(MareNostrumGame(3, {}), GREECE).name == "raider"
