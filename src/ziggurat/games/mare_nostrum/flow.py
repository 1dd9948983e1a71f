"""The round (N0-N6): who is to move, the legal actions and their effects, dispatched to the
phase modules (``setup``, ``production``, ``trade``, ``buy_place``, ``military``, ``battle``,
``conquest``, ``claim``, ``victory``).

The state is a JSON dict ``d``. ``legal(d)`` lists the actions (or chance outcomes) and
``play(d, action)`` applies one and then runs everything automatic until the next decision or
chance node. A queue (``d["queue"]``) holds interrupting items resolved first: legendary draws
(chance), the legendary-city choice (D3), Colossus (D4), conquests (D23) and hit removals (D22).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, Final

from ziggurat.engine.contract import CHANCE, TERMINAL
from ziggurat.games.mare_nostrum import (
    battle,
    buy_place,
    claim,
    conquest,
    military,
    production,
    setup,
    trade,
    victory,
)
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

# Names other modules and tools have used from this module.
from ziggurat.games.mare_nostrum.battle import battle_hits
from ziggurat.games.mare_nostrum.buy_place import build_ok, fortress_ok, legion_ok, marker_ok, penthesilea_ok
from ziggurat.games.mare_nostrum.conquest import conversion_ok
from ziggurat.games.mare_nostrum.setup import new_position

State = dict[str, Any]

__all__ = [
    "advance",
    "battle_hits",
    "build_ok",
    "chance",
    "conversion_ok",
    "fortress_ok",
    "legal",
    "legion_ok",
    "marker_ok",
    "new_position",
    "penthesilea_ok",
    "play",
    "to_move",
]


# ---------------------------------------------------------------- who moves


def _active_in_military(d: State) -> int:
    mil: dict[str, Any] = d["mil"]
    seat: int = mil["active"]  # a typed read, not a call of int()
    return seat


def _active_buyer(d: State) -> int:
    buy: dict[str, Any] = d["buy"]
    seat: int = buy["active"]
    return seat


def _chance(d: State) -> int:
    return CHANCE


def _drafting(d: State) -> int:
    trade_: dict[str, Any] = d["trade"]
    seat: int = trade_["chooser"]
    return seat


_MOVER: Final[dict[str, Callable[[State], int]]] = {
    "buy_turn": _active_buyer,
    "buy_keep": _active_buyer,
    "mil_conv": _active_in_military,
    "mil_row": _active_in_military,
    "mil_sea": _active_in_military,
    "mil_march": _active_in_military,
    "mil_fight": _active_in_military,
    "mil_circe": _active_in_military,
    "reveal": _chance,
    "start_title": _chance,
    "trade_offer": trade.next_offerer,
    "trade_draft": _drafting,
}
"""Who decides in the stages most often under way (the rest: :func:`_stage_mover`)."""


def to_move(d: State) -> int:
    st: str = d["stage"]  # typed locals: the compiled build compares and indexes them directly
    if st == "over":
        return TERMINAL
    queue: list[list[Any]] = d["queue"]
    if queue:
        head = queue[0]
        if head[0] == "draw":
            return CHANCE
        seat: int = head[1]  # typed reads, not calls of int(): seats are whole numbers
        return seat
    if d["battle"] is not None:
        return CHANCE
    if st == "buy_turn":
        buy: dict[str, Any] = d["buy"]
        active: int = buy["active"]
        return active  # a third of all decisions: no table, no call
    mover = _MOVER.get(st)
    return _stage_mover(d, st) if mover is None else mover(d)


def _stage_mover(d: State, st: str) -> int:
    if st == "assign":
        if d["opts"]["empire_assignment"] == "random":
            return CHANCE
        return d["empires"].index(None)
    if st in ("reveal", "start_title"):
        return CHANCE
    if st == "castor":
        return int(d["castor"][0])
    if st == "trade_token":
        return int(d["titles"]["trade"])
    if st == "trade_size":
        return int(d["trade"]["sizing"][0])
    if st == "trade_offer":
        return trade.next_offerer(d)
    if st == "trade_starter":
        return int(d["titles"]["trade"])
    if st == "trade_draft":
        return int(d["trade"]["chooser"])
    if st == "trade_give":
        return int(d["trade"]["starter"])
    if st == "buy_perseus":
        return int(d["buy"]["perseus"][0])
    if st == "buy_order":
        return int(d["titles"]["culture"])
    if st in ("buy_turn", "buy_keep"):
        return int(d["buy"]["active"])
    if st == "mil_zeus":
        return int(d["mil"]["zeus_q"][0])
    if st in ("mil_order", "tie_win"):
        return int(d["titles"]["military"])
    if st.startswith("mil_"):
        return int(d["mil"]["active"])
    if st == "claim_tie":
        return int(d["titles"][d["claim"]["track"]])
    raise AssertionError(st)


# ---------------------------------------------------------------- chance (N0.13)


def chance(d: State) -> list[tuple[str, float]]:
    if to_move(d) != CHANCE:
        return []
    if d["queue"]:
        return production.draw_outcomes(d)
    if d["battle"] is not None:
        return battle.roll_outcomes(d)
    if d["stage"] == "start_title":
        return setup.title_lot_outcomes(d)
    if d["stage"] == "assign":
        emps = D.board(d["n"]).empires
        perms = list(itertools.permutations(emps))
        return [("empires " + ",".join(p), 1 / len(perms)) for p in perms]
    down = d["facedown"]
    return [(f"reveal {t}", 1 / len(down)) for t in down]


def _chance_effect(d: State, w: list[str]) -> None:
    if d["queue"]:
        production.draw_effect(d, w)
        return
    if d["battle"] is not None:
        battle.roll_effect(d, w)
        return
    if d["stage"] == "start_title":
        setup.title_lot_effect(d, w)
        return
    if d["stage"] == "assign":
        d["empires"] = w[1].split(",")
        setup.setup_empires(d)
        return
    tile = w[1]  # S7, N3.14: a face-down tile is turned face up
    d["facedown"] = [t for t in d["facedown"] if t != tile]  # a new list: clones share it
    B.put(d, "display", d["display"].index(None), tile)


# ---------------------------------------------------------------- legal actions


def legal(d: State, who: int | None = None) -> list[str]:
    """The legal actions (or chance outcomes) now; ``who`` is ``to_move(d)`` when known."""
    if who is None:
        who = to_move(d)
    if who == TERMINAL:
        return []
    if who == CHANCE:
        if d["battle"] is not None and not d["queue"]:
            return list(battle.roll_table(d)[0])
        return [a for a, _ in chance(d)]
    if d["queue"]:
        return _queue_legal(d)
    return stage_legal(d, d["stage"])


def stage_legal(d: State, stage: str) -> list[str]:
    """``_LEGAL[stage](d)``: the legal list of ``stage`` with no queue item nor battle under
    way, the stages most often under way called directly (no generic call through the table)."""
    if stage == "buy_turn":
        return buy_place.turn_legal(d)
    if stage == "mil_march":
        return military.march_legal(d)
    if stage == "trade_offer":
        return trade.offer_legal(d)
    if stage == "mil_row":
        return military.row_legal(d)
    return _LEGAL[stage](d)


def _queue_legal(d: State) -> list[str]:
    head = d["queue"][0]
    kind = head[0]
    if kind == "lc":
        return production.lc_legal()
    if kind == "colossus":
        return production.colossus_legal()
    if kind == "lose":
        return battle.lose_legal(d, head)
    if kind == "conquest":
        return conquest.conquest_legal(d, int(head[1]), head[2], head[3] if len(head) > 3 else [])
    raise AssertionError(kind)


def _queue_effect(d: State, w: list[str]) -> None:
    head = d["queue"].pop(0)
    kind, seat = head[0], int(head[1])
    if kind == "lc":
        production.lc_effect(d, seat, w)
    elif kind == "colossus":
        production.colossus_effect(d, seat, w)
    elif kind == "lose":
        battle.lose_effect(d, head, w)
    elif kind == "conquest":
        conquest.conquest_step(d, head, w)


# ---------------------------------------------------------------- applying


def play(d: State, action: str, who: int | None = None) -> list[str] | None:
    """Apply a legal ``action`` (checked by the caller), then run what is automatic; ``who``
    is ``to_move(d)`` when known. Returns the legal list of the decision now pending when the
    automatic steps worked it out on the way (the fights left, D21; the takes, D9), else None."""
    words = _WORDS.get(action)
    if words is None:
        if len(_WORDS) >= _WORDS_KEPT:
            _WORDS.clear()
        words = _WORDS[action] = action.split()
    if who is None:
        who = to_move(d)
    if who == CHANCE:
        _chance_effect(d, words)
    elif d["queue"]:
        _queue_effect(d, words)
    else:
        stage: str = d["stage"]
        # the stages most often under way are called directly (no generic call through the table)
        if stage == "buy_turn":
            buy_place.turn_effect(d, words)
        elif stage == "mil_march":
            military.march_effect(d, words)
        elif stage == "trade_offer":
            trade.offer_effect(d, words)
        elif stage == "mil_row":
            military.row_effect(d, words)
        else:
            _EFFECT[stage](d, words)
    victory.capitals_at_once(d)  # N6: the game ends the moment a victory condition holds
    # _step runs something only for a queue item or, with no battle under way, in a stage
    # that may be automatic: most actions leave neither, and skip the call
    queue: list[Any] = d["queue"]
    after: str = d["stage"]
    if queue or (d["battle"] is None and after in _AUTOMATIC):
        found: list[tuple[str, list[str]]] = []
        ran = False
        while d["stage"] != "over" and _step(d, found):
            ran = True
        if ran:
            victory.capitals_at_once(d)  # when nothing automatic ran, the check above still holds
        if found and found[0][0] == d["stage"]:  # the capitals check did not end the stage
            return found[0][1]
    return None


_WORDS: Final[dict[str, list[str]]] = {}
"""Each action text's words (``action.split()``), split once: the effects read them and never
change or keep them, and the same texts come back game after game."""

_WORDS_KEPT: Final = 8192
"""The most texts :data:`_WORDS` holds before it starts again (battle rolls alone have thousands)."""


def advance(d: State) -> bool:
    """Run automatic steps until a decision or a chance node is pending; True if any ran."""
    ran = False
    while d["stage"] != "over" and _step(d):
        ran = True
    return ran


def _step(d: State, found: list[tuple[str, list[str]]] | None = None) -> bool:
    """Run the automatic step due now, if any (True), or say that a decision or a chance
    node is pending (False). A legal list worked out to tell goes into ``found`` with its
    stage, when given."""
    if d["queue"]:
        head = d["queue"][0]
        if head[0] in ("draw", "lc") and sum(d["pool"].values()) == 0:
            d["queue"].pop(0)  # N1.7: an empty pool gives nothing; the temple extra is a tax
            if head[0] == "lc":
                B.add_res(d, int(head[1]), "tax")
            return True
        return False
    if d["battle"] is not None:
        return False
    st = d["stage"]
    if st not in _AUTOMATIC:
        return False
    if st == "reveal":
        if None in d["display"] and d["facedown"]:
            return False
        if d["after_reveal"] == "round":
            production.start_round(d)
        else:
            military.mil_start(d)
        return True
    if st == "trade_start":
        trade.trade_start(d)
        return True
    if st == "trade_draft":
        takes = trade.takes(d)
        if takes:
            if found is not None:
                found.append((st, takes))
            return False
        trade.draft_end(d)
        return True
    if st == "buy_order":
        bu = d["buy"]
        left = [s for s in range(d["n"]) if s not in bu["done"]]
        if not left:
            d["buy"] = None
            d["stage"] = "reveal"
            d["after_reveal"] = "military"
            return True
        firsts = [s for s in bu["first"] if s not in bu["done"]]
        if firsts:
            buy_place.begin_buy_turn(d, int(firsts[0]))
            return True
        if len(left) == 1:
            buy_place.begin_buy_turn(d, left[0])
            return True
        return False
    if st == "mil_order":
        m = d["mil"]
        left = [s for s in range(d["n"]) if s not in m["done"]]
        if not left:
            military.end_military(d)
            return True
        if len(left) == 1:
            military.order_effect(d, ["next", str(left[0])])
            return True
        return False
    if st == "mil_fight":
        fights = military.fight_legal(d)
        if fights:
            if found is not None:
                found.append((st, fights))
            return False
        m = d["mil"]
        conquest.checkpoint(d, int(m["active"]))
        d["stage"] = "mil_circe"
        return True
    if st == "mil_circe":
        seat = int(d["mil"]["active"])
        if (
            not B.has(d, seat, "circe")
            or seat in d["mil"]["circe_used"]
            or not military.circe_options(d, seat)
        ):
            military.circe_effect(d, ["done"])
            return True
        return False
    return False


_AUTOMATIC: Final = frozenset(
    ("reveal", "trade_start", "trade_draft", "buy_order", "mil_order", "mil_fight", "mil_circe")
)
"""The stages :func:`_step` may run something automatic in (the others always wait)."""

_LEGAL: Final[dict[str, Callable[[State], list[str]]]] = {
    "assign": setup.assign_legal,
    "castor": production.castor_legal,
    "trade_token": trade.token_legal,
    "trade_size": trade.size_legal,
    "trade_offer": trade.offer_legal,
    "trade_starter": trade.starter_legal,
    "trade_draft": trade.takes,
    "trade_give": trade.give_legal,
    "buy_perseus": buy_place.perseus_legal,
    "buy_order": buy_place.order_legal,
    "buy_turn": buy_place.turn_legal,
    "buy_keep": buy_place.keep_legal,
    "mil_zeus": military.zeus_legal,
    "mil_order": military.order_legal,
    "mil_conv": military.conv_legal,
    "mil_row": military.row_legal,
    "mil_sea": military.sea_legal,
    "mil_march": military.march_legal,
    "mil_fight": military.fight_legal,
    "mil_circe": military.circe_legal,
    "tie_win": victory.tie_win_legal,
    "claim_tie": claim.tie_legal,
}

_EFFECT: Final[dict[str, Callable[[State, list[str]], None]]] = {
    "assign": setup.assign_effect,
    "castor": production.castor_effect,
    "trade_token": trade.token_effect,
    "trade_size": trade.size_effect,
    "trade_offer": trade.offer_effect,
    "trade_starter": trade.starter_effect,
    "trade_draft": trade.take_effect,
    "trade_give": trade.give_effect,
    "buy_perseus": buy_place.perseus_effect,
    "buy_order": buy_place.order_effect,
    "buy_turn": buy_place.turn_effect,
    "buy_keep": buy_place.keep_effect,
    "mil_zeus": military.zeus_effect,
    "mil_order": military.order_effect,
    "mil_conv": military.conv_effect,
    "mil_row": military.row_effect,
    "mil_sea": military.sea_effect,
    "mil_march": military.march_effect,
    "mil_fight": military.fight_effect,
    "mil_circe": military.circe_effect,
    "tie_win": victory.tie_win_effect,
    "claim_tie": claim.tie_effect,
}
