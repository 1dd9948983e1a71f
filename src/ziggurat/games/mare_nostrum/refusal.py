"""Why an action is refused: the message names the rule (legality itself is ``flow.legal``)."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D


def explain(state: Any, text: str) -> str:
    d = state.d
    w = text.split()
    st = d["stage"]
    if state.current_player() < 0:
        return f"{text!r}: not a possible chance outcome now (N0.13)"
    if d["queue"]:
        return f"{text!r}: the pending decision is {d['queue'][0][0]} (N1.6, N1.9, N4.7.6, N4.11)"
    if st == "buy_turn":
        return _buy(d, w, text)
    if st == "mil_march" and w[0] in ("march", "sail"):
        return f"{text!r}: not a legal legion move (N4.6: one land step or one trireme chain)"
    if st == "mil_fight":
        return f"{text!r}: land battles are compulsory and fought first (N4.8, R11)"
    if st == "trade_draft" and w[0] == "take":
        return f"{text!r}: not a legal take (N2.5, N2.6 one back-and-forth)"
    if st == "trade_token":
        return f"{text!r}: not an available Trade token face (N2.1)"
    rule = _STAGE_RULE.get(st, "N0.1")
    return f"{text!r} is not legal now ({rule}: the decision under way is {st})"


_STAGE_RULE = {
    "castor": "N0.12",
    "trade_size": "N2.2.3",
    "trade_offer": "N2.3",
    "trade_starter": "N2.4",
    "trade_give": "N2.9",
    "buy_perseus": "N3.1.2",
    "buy_order": "N3.1.1",
    "buy_keep": "N3.13",
    "mil_zeus": "N4.1.3",
    "mil_order": "N4.1.1",
    "mil_conv": "N4.3",
    "mil_row": "N4.4",
    "mil_sea": "N4.5",
    "mil_circe": "N4.13",
    "claim_tie": "N5.2",
    "tie_win": "N6.5.2",
    "assign": "S2",
}


def _buy(d: Any, w: list[str], text: str) -> str:
    seat = int(d["buy"]["active"])
    if d["buy"]["paying"] is not None:
        return f"{text!r}: the payment under way needs other tokens (N0.8.1-N0.8.3)"
    if w[-1] == "cheap" and len(w) == 4 and w[1] in D.ALT_COST:
        tile, good = D.ALT_COST[w[1]]
        if not B.has(d, seat, tile):
            return f"{text!r}: paying 1 {good} or 1 tax for a {w[1]} needs {tile} (N3.3, N0.8.4)"
    if w[:2] == ["buy", "marker"] and len(w) > 2:
        if w[2] in d["markers"]:
            return f"{text!r}: an influence marker goes on a neutral province (N3.4)"
        return f"{text!r}: the province must be free of other legions and connected (N3.4, N0.6)"
    if w[0] == "build" and len(w) > 2:
        prov = w[2]
        if d["markers"].get(prov) != seat:
            return f"{text!r}: buildings go in the buyer's own provinces (N3.5)"
        if B.at_war(d, prov) or prov in d["conqueror"]:
            return f"{text!r}: no building in a province at war or conquered (N3.5.1, N3.5.2)"
        kind = D.building_kind(w[1])
        return f"{text!r}: needs an empty slot and a payment of {D.COST.get(kind, 3)} (N3.5, N0.8.1)"
    if w[:2] in (["buy", "legion"], ["buy", "fortress"]) and len(w) > 2:
        prov = w[2]
        if d["markers"].get(prov) == seat and B.at_war(d, prov) and not B.has_capital(d, prov):
            return f"{text!r}: no placing in a province at war without a capital (N3.6, N3.8, R21)"
        return f"{text!r}: not a legal placement or not affordable (N3.6, N3.8, N0.8, N0.9)"
    if w[:2] == ["buy", "tile"]:
        return f"{text!r}: the tile must be face up and affordable (N3.10, N0.8)"
    return f"{text!r}: not a legal purchase now (N3.2, N3.3)"
