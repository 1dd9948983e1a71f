"""The terminal's buy list shows each purchase's cost as the engine computes it now (N3.3-N3.12;
a hero or wonder's cost by round or by tiles owned, 2.8, R25), and players by empire."""

from __future__ import annotations

from typing import Any

from nostrum_helpers import ROME, buy_turn, new, pos
from rich.console import Console

from ziggurat.engine.messages import render
from ziggurat.games.mare_nostrum import render_text as rt

GOODS = ("grain", "wine", "metal", "oil", "sheep", "marble", "timber", "gems", "perfume", "gold")
RICH = {good: 2 for good in GOODS}  # ten different goods: a hero is affordable (N0.8)


def _rome_buys(round_no: int, **options: Any) -> Any:
    state = new(3, **options)
    p = pos(state)
    p["res"][ROME] = dict(RICH)
    return buy_turn(state, ROME, round=round_no, res=p["res"])


def _cost_paid(state: Any, action: str) -> int:
    """What the engine asks to be paid once ``action`` is chosen."""
    after = state.clone()
    after.apply(action)
    return int(after.to_position()["buy"]["paying"]["cost"])


def test_every_purchase_lists_the_cost_the_engine_asks_N3_3() -> None:
    state = _rome_buys(1)
    legal = state.legal_actions()
    notes = rt.action_notes(state, legal)
    buys = [a for a in legal if a.split()[0] in ("buy", "build")]
    assert "buy tile antigone" in buys and "buy legion latium" in buys
    for action in buys:
        assert notes[action].key == "mn.board.cost"
        assert notes[action].params["n"] == _cost_paid(state, action), action
    assert notes["buy legion latium"] == "costs 3 tokens"
    assert render(notes["buy legion latium"], "fr") == "coûte 3 jetons"
    assert "end" not in notes


def test_a_hero_costs_what_the_round_says_2_8_R25() -> None:
    by_round = {"hero_cost_mode": "by_round", "hero_cost_by_round": {"1": 5, "3": 9}}
    early, late = _rome_buys(1, **by_round), _rome_buys(3, **by_round)
    assert rt.action_notes(early, early.legal_actions())["buy tile antigone"] == "costs 5 tokens"
    assert rt.action_notes(late, late.legal_actions())["buy tile antigone"] == "costs 9 tokens"
    assert _cost_paid(late, "buy tile antigone") == 9


def test_the_board_names_players_by_empire() -> None:
    state = _rome_buys(1)
    con = Console(width=100, record=True, color_system=None)
    con.print(rt.render_board(state.view(ROME), ["human", "random", "random"], 100))
    out = con.export_text()
    assert "Rome     " in out and "Greece" in out and "Carthage" in out
    assert "0 human" not in out and "human " in out  # the player column: a role, not a seat number
    assert "[Rome]" in out or "Rome 1" in out  # units and occupied slots by empire
    assert max(len(line) for line in out.splitlines()) <= 100
    assert render(rt.seat_player(state.view(None), 1), "fr") == "la Grèce"
    assert render(rt.seat_player(state.view(None), 1, alone=True), "fr") == "Grèce"


def test_an_action_naming_a_seat_by_number_is_noted_with_its_empire_N4_1_N4_5_N2_5() -> None:
    """Actions name seats by number, counted from 0 (``next 1``, ``seabattle mare_sardum 2``,
    ``take metal from 0``): the terminal notes the empire beside each, in the reader's language."""
    from nostrum_helpers import CARTHAGE, load, mil_turn, steps

    order = mil_turn(new(), ROME, "mil_order", done=[])
    notes = rt.action_notes(order, order.legal_actions())
    assert {a: str(n) for a, n in notes.items()} == {
        "next 0": "Rome",
        "next 1": "Greece",
        "next 2": "Carthage",
    }
    assert render(notes["next 1"], "fr") == "Grèce"
    p = pos(new())
    p["triremes"]["mare_sardum"] = [2, 1, 1]
    sea = mil_turn(load(new(), p), ROME, "mil_sea")
    notes = rt.action_notes(sea, sea.legal_actions())
    assert notes["seabattle mare_sardum 1"] == "Greece" and notes["seabattle mare_sardum 2"] == "Carthage"
    assert "done" not in notes
    draft = new()
    steps(
        draft, "token c 2", "offer metal", "offer wine", "offer oil", "offer tax", "offer sheep", "offer gold"
    )
    assert draft.current_player() == CARTHAGE
    notes = rt.action_notes(draft, draft.legal_actions())
    assert notes["take metal from 0"] == "Rome" and notes["take oil from 1"] == "Greece"
