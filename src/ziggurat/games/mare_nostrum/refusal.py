"""Why an action is refused, in a player's words, naming the most precise rule that applies
(N3.5.1 rather than N3.5, N3.4 (c) rather than N3.4). Legality itself is only ``flow.legal``:
these functions run after an action was found illegal and only explain it. Every reason is a
message (``mn.refusal.*``, :mod:`ziggurat.engine.messages`): its English text, readable in
any language."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ziggurat.engine.messages import Message, message
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import nouns as N
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum.buy_place import allowance, cost_tile
from ziggurat.games.mare_nostrum.conquest import conversion_ok
from ziggurat.games.mare_nostrum.military import zeus_barred

State = dict[str, Any]


def explain(state: Any, text: str) -> str:
    d = state.d
    w = text.split()
    st = d["stage"]
    if state.current_player() < 0:
        return message("mn.refusal.notChance", action=repr(text))
    if d["queue"]:
        return message("mn.refusal.because", action=repr(text), reason=_queue(d, w))
    reason: Message | None = None
    if st == "buy_turn":
        reason = _buy(d, w)
    elif st == "mil_march" and w[0] in ("march", "sail"):
        reason = _march(d, w) or message("mn.refusal.legionMove")
    elif st == "mil_fight":
        reason = _fight(d, w)
    elif st.startswith("mil_") and st not in ("mil_zeus", "mil_order") and w[0] == "convert" and len(w) == 2:
        reason = _conversion(d, w[1], st != "mil_conv")
    elif st == "mil_row" and w[0] == "row":
        reason = message("mn.refusal.row")
    elif st == "mil_sea" and w[0] == "seabattle":
        reason = _sea_battle(d, w)
    elif st == "mil_circe" and w[0] == "circe":
        reason = _circe(d, w)
    elif st == "trade_draft" and w[0] == "take":
        reason = _take(d, w)
    elif st == "trade_offer" and w[0] == "offer":
        reason = message("mn.refusal.offer")
    elif st == "trade_token" and w[0] == "token":
        reason = message("mn.refusal.tradeToken")
    elif st == "claim_tie" and w[0] == "title":
        reason = message("mn.refusal.titleTie")
    elif st == "tie_win" and w[0] == "winner":
        reason = message("mn.refusal.winnerTie")
    if reason is not None:
        return message("mn.refusal.because", action=repr(text), reason=reason)
    rule = _STAGE_RULE.get(st, "N0.1")
    return message("mn.refusal.notNow", action=repr(text), rule=rule, stage=N.stage(st))


_STAGE_RULE = {
    "start_title": "4.2",
    "trade_token": "N2.1",
    "trade_draft": "N2.5",
    "buy_turn": "N3.2",
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
    "mil_march": "N4.6",
    "mil_circe": "N4.13",
    "claim_tie": "N5.2",
    "tie_win": "N6.5.2",
    "assign": "S2",
}


# ---- interrupting decisions (the queue)


def _queue(d: State, w: list[str]) -> Message:
    head = d["queue"][0]
    kind, seat = head[0], int(head[1])
    if kind == "lc":
        return message("mn.refusal.firstExtra")
    if kind == "colossus":
        return message("mn.refusal.firstColossus")
    if kind == "lose":
        prov, k = head[2], int(head[3])
        where, who = N.area(prov), N.whom(d, seat)
        if w[0] == "lose" and len(w) == 2:
            if w[1] == "free":
                return message("mn.refusal.loseNoFree", who=who, area=where)
            if w[1] == "marker":
                return message("mn.refusal.loseNoMarker", who=who, area=where)
            return message("mn.refusal.loseNoSlot", who=who, slot=N.a_slot(w[1]), area=where)
        return message("mn.refusal.loseFirst", who=who, n=k, area=where)
    return _conquest(d, seat, head, w)


def _conquest(d: State, seat: int, head: list[Any], w: list[str]) -> Message:
    prov = head[2]
    where = N.area(prov)
    used: list[str] = head[3] if len(head) > 3 else []
    if w[0] not in ("pillage", "occupy", "convert", "pass"):
        return message("mn.refusal.conquestFirst", area=where)
    if w[0] in used:
        return message("mn.refusal.conquestOnce")
    if w[0] == "pass":
        return message("mn.refusal.conquestMust", area=where)
    built = B.built(d, prov)
    if w[0] == "pillage":
        if len(w) < 2 or w[1] not in built:
            return message("mn.refusal.pillageBuilding", area=where)
        return message("mn.refusal.pillagePick")
    free = B.free_legions(d, prov, seat)
    if w[0] == "occupy":
        return message("mn.refusal.occupy", area=where, free=free)
    return message("mn.refusal.convertNeeds", area=where)


# ---- Buy & place (N3)


def _cost(d: State, seat: int, what: Message, cost: int) -> Message:
    """Why ``seat`` cannot pay ``cost`` (N0.8.1, or N0.8.3 with Cleopatra or Hannibal); ``what``
    is the purchase, and ``the Pyramids`` takes a plural verb."""
    plural = "yes" if what.key == "mn.refusal.pyramids" else "no"
    allow = allowance(d, seat, "pyramids" if plural == "yes" else "")
    if allow.hannibal or allow.cleopatra:
        return message("mn.refusal.costTokens", what=what, plural=plural, cost=cost)
    return message("mn.refusal.cost", what=what, plural=plural, cost=cost)


def _item(item: str) -> Message:
    """A purchase under way in words: ``tile hercules`` -> ``Hercules``."""
    w = item.split()
    if w[0] == "build":
        return message("mn.refusal.itemIn", what=N.a_slot(w[1]), where=N.in_area(w[2]))
    if w[0] == "tile":
        return N.tile(w[1])
    if w[0] == "pyramids":
        return message("mn.refusal.pyramids")
    what = N.a_unit(w[0])
    return message("mn.refusal.itemIn", what=what, where=N.in_area(w[1])) if len(w) > 1 else what


def _buy(d: State, w: list[str]) -> Message | None:  # noqa: PLR0911, PLR0912
    seat = int(d["buy"]["active"])
    bu = d["buy"]
    if bu["paying"] is not None:
        return _pay(d, seat, w)
    if w[0] == "pay":
        return message("mn.refusal.noPayment")
    if w[0] == "free" and len(w) == 3:
        return _free(d, seat, w[1], w[2])
    if w[0] == "build" and len(w) == 3:
        return _build(d, seat, w[1], w[2])
    if w[0] != "buy" or len(w) < 2:
        return None
    item = w[1]
    cheap = w[-1] == "cheap" and len(w) == 4
    cost = 3
    if cheap:
        if item not in D.ALT_COST:
            return message("mn.refusal.noAltCost")
        tile, good = D.ALT_COST[item]
        if not B.has(d, seat, tile):
            return message("mn.refusal.altNeeds", good=N.good(good), unit=N.a_unit(item), tile=N.tile(tile))
    if item in ("marker", "legion", "fortress", "trireme") and len(w) >= 3:
        piece = "influence_marker" if item == "marker" else item
        if B.supply(d, seat, piece) <= 0:
            return message("mn.refusal.noSupply", piece=N.piece(piece))
        place = w[2]
        why = {"marker": _marker, "legion": _legion, "fortress": _fortress, "trireme": _trireme}[item](
            d, seat, place
        )
        if why:
            return why
        if cheap:
            return message("mn.refusal.altNeither", good=N.good(D.ALT_COST[item][1]))
        return _cost(d, seat, N.a_unit(item), cost)
    if item == "tile" and len(w) == 3:
        if w[2] not in d["display"]:
            if any(w[2] in tiles for tiles in d["tiles"]):
                return message("mn.refusal.tileOwned", tile=N.tile(w[2]))
            return message("mn.refusal.tileNotShown", tile=N.tile(w[2]))
        nth = message("mn.refusal.nthTile", tile=N.tile(w[2]), n=len(d["tiles"][seat]) + 1)
        return _cost(d, seat, nth, cost_tile(d, seat))
    if item == "pyramids":
        if d["pyramids"] is not None:
            return message("mn.refusal.pyramidsBuilt")
        return _cost(d, seat, message("mn.refusal.pyramids"), int(d["opts"]["pyramids_cost"]))
    return message("mn.refusal.notPurchase")


def _marker(d: State, seat: int, prov: str) -> Message | None:
    """N3.4 (a)-(d)."""
    b = D.board(d["n"])
    where = N.area(prov)
    if prov not in b.provinces:
        return message("mn.refusal.notInPlay", area=where, rule="N3.4 (a), R34")
    owner = d["markers"].get(prov)
    if owner == seat:
        return message("mn.refusal.markerOwn", area=where)
    if owner is not None:
        return message("mn.refusal.markerOther", area=where)
    if any(c for s, c in enumerate(B.legions(d, prov)) if s != seat):
        return message("mn.refusal.markerLegions", area=where)
    chain = bool(d["opts"]["influence_connection_by_trireme_chain"])
    if not B.connected(d, seat, prov, chain):
        return message("mn.refusal.markerConnected", area=where, chain="yes" if chain else "no")
    return None


def _own_province(d: State, seat: int, prov: str, rule: str) -> Message | None:
    if prov not in D.board(d["n"]).provinces:
        return message("mn.refusal.notInPlay", area=N.area(prov), rule="R34")
    if d["markers"].get(prov) != seat:
        return message("mn.refusal.notYours", area=N.area(prov), rule=rule)
    return None


def _at_war(d: State, prov: str, rule: str) -> Message | None:
    if B.at_war(d, prov) and not B.has_capital(d, prov):
        return message("mn.refusal.atWar", area=N.area(prov), rule=rule)
    return None


def _legion(d: State, seat: int, prov: str) -> Message | None:
    """N3.6 (R20, R21)."""
    return _own_province(d, seat, prov, "N3.6") or _at_war(d, prov, "N3.6")


def _fortress(d: State, seat: int, prov: str) -> Message | None:
    """N3.8."""
    why = _own_province(d, seat, prov, "N3.8")
    if why:
        return why
    if prov in d["fortresses"]:
        return message("mn.refusal.fortressOne", area=N.area(prov))
    if prov in d["conqueror"]:
        return message("mn.refusal.fortressConquest", area=N.area(prov))
    return _at_war(d, prov, "N3.8")


def _trireme(d: State, seat: int, sea: str) -> Message | None:
    """N3.7."""
    b = D.board(d["n"])
    if sea not in b.seas:
        return message("mn.refusal.notSea", area=N.area(sea))
    if not any(p in B.own_provinces(d, seat) for p in b.seas[sea]["land"]):
        return message("mn.refusal.seaAway", area=N.area(sea))
    return None


def _build(d: State, seat: int, slot: str, prov: str) -> Message:
    """N3.5, N0.9 (building supply), N0.8."""
    why = _own_province(d, seat, prov, "N3.5")
    if why:
        return why
    kind = D.building_kind(slot)
    if slot not in D.board(d["n"]).slots(prov):
        return message("mn.refusal.noSlot", area=N.area(prov), slot=N.slot(slot))
    if slot in B.built(d, prov):
        return message("mn.refusal.slotBuilt", area=N.area(prov), slot=N.slot(slot))
    if kind in D.BUILDING_KINDS and not B.building_left(d, kind):
        return message("mn.refusal.noBuilding", piece=N.piece(kind))
    war = _at_war(d, prov, "N3.5.1")
    if war:
        return war
    if prov in d["conqueror"]:
        return message("mn.refusal.buildConquest", area=N.area(prov))
    return _cost(d, seat, N.a_slot(slot), D.COST.get(kind, 3))


def _free(d: State, seat: int, what: str, place: str) -> Message:
    """N3.12.1 (Hammurabi), N3.12.2 (Penthesilea)."""
    bu = d["buy"]
    if what == "marker":
        if not B.has(d, seat, "hammurabi"):
            return message("mn.refusal.hammurabi")
        if "hammurabi" in bu["free_used"]:
            return message("mn.refusal.hammurabiOnce")
        if B.supply(d, seat, "influence_marker") <= 0:
            return message("mn.refusal.noSupply", piece=N.piece("influence_marker"))
        return _marker(d, seat, place) or message("mn.refusal.freeMarker")
    if what == "legion":
        if not B.has(d, seat, "penthesilea"):
            return message("mn.refusal.penthesilea")
        if "penthesilea" in bu["free_used"]:
            return message("mn.refusal.penthesileaOnce")
        if B.supply(d, seat, "legion") <= 0:
            return message("mn.refusal.noSupply", piece=N.piece("legion"))
        return message("mn.refusal.freeLegion", area=N.area(place))
    return message("mn.refusal.freePlacement")


def _pay(d: State, seat: int, w: list[str]) -> Message:
    """N0.8.1-N0.8.4: why this token cannot go into the payment under way."""
    pay = d["buy"]["paying"]
    if w[0] != "pay" or len(w) != 2:
        return message("mn.refusal.paying", item=_item(pay["item"]))
    tok = w[1]
    if d["res"][seat].get(tok, 0) <= 0:
        return message("mn.refusal.holdNo", tok=N.of_token(tok))
    if pay["kind"].startswith("alt:"):
        return message("mn.refusal.altPaid", good=N.good(pay["kind"][4:]))
    allow = allowance(d, seat, pay["item"])
    heroes = B.has(d, seat, "cleopatra") or B.has(d, seat, "hannibal")
    paid = list(pay["paid"])
    after = paid + [tok]
    goods = [P.good_of(t) for t in paid if t != "tax"]
    good = P.good_of(tok)
    counts = Counter(g for g in (P.good_of(t) for t in after) if g is not None)
    taxes = len(after) - sum(counts.values())
    if good is not None and not P.goods_ok(counts, allow):
        if allow.hannibal is None:
            if heroes and pay["item"] == "pyramids":
                return message("mn.refusal.pyramidsPlain")
            same = [t for t in paid if P.good_of(t) == good]
            if tok.startswith("leg:") or any(t.startswith("leg:") for t in same):
                return message("mn.refusal.legendaryCounts", good=N.good(good))
            rule = "N0.8.3" if allow.cleopatra else "N0.8.1"
            return message("mn.refusal.sameType", good=N.good(good), rule=rule)
        if allow.hannibal == "one_pair":
            return message("mn.refusal.hannibalPair", good=N.good(good))
        return message("mn.refusal.hannibal", n=int(allow.limit or 0))
    if (tok == "tax" and goods) or (tok != "tax" and "tax" in paid):
        if not P.mix_ok(sum(counts.values()), taxes, allow):
            if allow.cleopatra is not None:
                return message("mn.refusal.cleopatraOne")
            if heroes and pay["item"] == "pyramids":
                return message("mn.refusal.pyramidsPlain")
            return message("mn.refusal.notMixed")
    left = int(pay["cost"]) - len(paid) - 1
    rule = "N0.8.3" if allow.hannibal or allow.cleopatra else "N0.8.1"
    return message("mn.refusal.cannotComplete", tok=N.token(tok), n=left, rule=rule)


# ---- Military (N4)


def _march(d: State, w: list[str]) -> Message | None:  # noqa: PLR0911
    """N4.6.1, N4.6.2, N4.1.3."""
    if len(w) < 3:
        return None
    seat = int(d["mil"]["active"])
    b = D.board(d["n"])
    src, dst = w[1], w[2]
    for prov in (src, dst):
        if prov not in b.provinces:
            return message("mn.refusal.notInPlay", area=N.area(prov), rule="N4.6, R34")
    which = w[3] if len(w) > 3 else ""
    here, there = N.area(src), N.area(dst)
    if B.legions(d, src)[seat] == 0:
        return message("mn.refusal.noLegion", area=here)
    if which == "@marker" and d["on_marker"].get(src) != seat:
        return message("mn.refusal.noneOnMarker", area=here)
    if which.startswith("@") and which != "@marker" and d["occupy"].get(src, {}).get(which[1:]) != seat:
        return message("mn.refusal.noneOnSlot", slot=N.the_slot(which[1:]), area=here)
    if not which and B.free_legions(d, src, seat) - d["mil"]["arrived"].get(src, 0) <= 0:
        return message("mn.refusal.movedOnce", area=here)
    if w[0] == "march":
        if dst not in b.provinces[src]["land"]:
            return message("mn.refusal.noBorder", dst=there, src=here)
        return None
    if not b.coastal(src) or not b.coastal(dst):
        return message("mn.refusal.chainCoastal")
    if zeus_barred(d, seat, dst):
        return message("mn.refusal.zeusBars", area=there)
    return message("mn.refusal.noChain", src=here, dst=there)


def _fight(d: State, w: list[str]) -> Message:
    if w[0] == "fight" and len(w) == 3 and f"{w[1]}:{w[2]}" in d["mil"]["fought"]:
        return message("mn.refusal.fightOnce")
    return message("mn.refusal.fightCompulsory")


def _sea_battle(d: State, w: list[str]) -> Message:
    if len(w) == 3 and w[1] in d["mil"]["fought"]:
        return message("mn.refusal.seaBattleOnce")
    return message("mn.refusal.seaBattleWhere")


def _conversion(d: State, prov: str, step_over: bool) -> Message:
    """N4.3 (1)-(4); after step (a) of the turn (N4.2), a conversion that could complete is
    refused because its step is over."""
    seat = int(d["mil"]["active"])
    where = N.area(prov)
    pend = d["pending"].get(prov)
    if pend is None or pend[0] != seat:
        return message("mn.refusal.noConversion", area=where)
    if pend[1] >= d["round"]:
        return message("mn.refusal.convertLater", area=where)
    if d["on_marker"].get(prov) != seat:
        return message("mn.refusal.convertMarker", area=where)
    if d["conqueror"].get(prov) != seat:
        return message("mn.refusal.convertConqueror", area=where)
    if B.supply(d, seat, "influence_marker") <= 0:
        return message("mn.refusal.convertSupply")
    if step_over and conversion_ok(d, seat, prov):
        return message("mn.refusal.convertStep")
    return message("mn.refusal.convertConnected", area=where)


def _circe(d: State, w: list[str]) -> Message:
    """N4.13."""
    seat = int(d["mil"]["active"])
    if not B.building_left(d, "caravan"):
        return message("mn.refusal.circeSupply")
    if len(w) != 3:
        return message("mn.refusal.circeNames")
    prov, slot = w[1], w[2]
    if d["markers"].get(prov) != seat or B.at_war(d, prov) or prov in d["conqueror"]:
        return message("mn.refusal.circeProvince", area=N.area(prov))
    if B.free_legions(d, prov, seat) == 0:
        return message("mn.refusal.circeLegion", area=N.area(prov))
    return message("mn.refusal.circeSlot", area=N.area(prov), slot=N.slot(slot))


# ---- Trade (N2)


def _take(d: State, w: list[str]) -> Message:
    """N2.5, N2.6."""
    t = d["trade"]
    c = int(t["chooser"])
    if len(w) != 4 or w[2] != "from" or not w[3].isdigit():
        return message("mn.refusal.takeForm")
    x = int(w[3])
    if x == c:
        return message("mn.refusal.takeOwn")
    if str(x) not in t["parts"]:
        return message("mn.refusal.takeNoPart", who=N.whom(d, x))
    if w[1] not in t["offers"][x]:
        return message("mn.refusal.takeNotOffered", who=N.whom(d, x), tok=N.of_token(w[1]))
    return message("mn.refusal.takeBack", who=N.whom(d, x))
