"""Why an action is refused, in a player's words, naming the most precise rule that applies
(N3.5.1 rather than N3.5, N3.4 (c) rather than N3.4). Legality itself is only ``flow.legal``:
these functions run after an action was found illegal and only explain it."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum.buy_place import cost_tile
from ziggurat.games.mare_nostrum.describe import area_name, slot_name, tile_name, token_name
from ziggurat.games.mare_nostrum.military import zeus_barred

State = dict[str, Any]


def explain(state: Any, text: str) -> str:
    d = state.d
    w = text.split()
    st = d["stage"]
    if state.current_player() < 0:
        return f"{text!r}: not a possible chance outcome now (N0.13)"
    if d["queue"]:
        return f"{text!r}: {_queue(d, w)}"
    reason: str | None = None
    if st == "buy_turn":
        reason = _buy(d, w)
    elif st == "mil_march" and w[0] in ("march", "sail"):
        reason = _march(d, w) or "not a legal legion move (N4.6: one land step or one trireme chain)"
    elif st == "mil_fight":
        reason = _fight(d, w)
    elif st == "mil_conv" and w[0] == "convert" and len(w) == 2:
        reason = _conversion(d, w[1])
    elif st == "mil_row" and w[0] == "row":
        reason = "each trireme moves once, from a sea holding one of yours to an adjacent sea (N4.4)"
    elif st == "mil_sea" and w[0] == "seabattle":
        reason = _sea_battle(d, w)
    elif st == "mil_circe" and w[0] == "circe":
        reason = _circe(d, w)
    elif st == "trade_draft" and w[0] == "take":
        reason = _take(d, w)
    elif st == "trade_offer" and w[0] == "offer":
        reason = "an offer is made of tokens you hold, one at a time (N2.3, N2.2.1)"
    elif st == "trade_token" and w[0] == "token":
        reason = "not an available Trade token face (N2.1)"
    elif st == "claim_tie" and w[0] == "title":
        reason = "the previous holder chooses among the tied players only (N5.2, R30)"
    elif st == "tie_win" and w[0] == "winner":
        reason = "the Military leader chooses among the tied players only (N6.5.2)"
    if reason is not None:
        return f"{text!r}: {reason}"
    rule = _STAGE_RULE.get(st, "N0.1")
    return f"{text!r} is not legal now ({rule}: the decision under way is {st})"


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


def _queue(d: State, w: list[str]) -> str:
    head = d["queue"][0]
    kind, seat = head[0], int(head[1])
    if kind == "lc":
        return "first choose the legendary city's extra: 'extra tax' or 'extra draw' (N1.6, D3)"
    if kind == "colossus":
        return "first choose the good the Colossus gives: 'colossus <good>' (N1.9, D4)"
    if kind == "lose":
        prov, k = head[2], int(head[3])
        where = area_name(prov)
        if w[0] == "lose" and len(w) == 2:
            if w[1] == "free":
                return f"seat {seat} has no free legion left in {where} (N4.7.6, R14)"
            if w[1] == "marker":
                return f"no legion of seat {seat} stands on the marker in {where} (N4.7.6, R14)"
            return f"no legion of seat {seat} stands on a {slot_name(w[1])} in {where} (N4.7.6, R14)"
        return f"seat {seat} first removes {k} hit legion{'s' if k > 1 else ''} in {where} (N4.7.6, D22)"
    return _conquest(d, seat, head, w)


def _conquest(d: State, seat: int, head: list[Any], w: list[str]) -> str:
    prov = head[2]
    where = area_name(prov)
    used: list[str] = head[3] if len(head) > 3 else []
    if w[0] not in ("pillage", "occupy", "convert", "pass"):
        return f"the conqueror of {where} first chooses Pillage, Occupy or Convert (N4.11.1, D23)"
    if w[0] in used:
        return "each conquest option is chosen at most once per conquest (N4.11.1, R16)"
    if w[0] == "pass":
        return f"the conqueror of {where} must choose one option (N4.11.1)"
    built = B.built(d, prov)
    if w[0] == "pillage":
        if len(w) < 2 or w[1] not in built:
            return f"only a building of {where} can be pillaged (N4.11.2)"
        return "a legendary city's pillage is 'tax' or 'draw' (two picks with Hamilcar) (N4.11.2)"
    free = B.free_legions(d, prov, seat)
    if w[0] == "occupy":
        return (
            f"each occupied building of {where} needs one of your legions standing on no building "
            f"and no marker ({free} free) (N4.11.3)"
        )
    return f"converting needs a free legion of yours in {where} and no legion on its marker (N4.11.4)"


# ---- Buy & place (N3)


def _cost(d: State, seat: int, what: str, cost: int) -> str:
    """Why ``seat`` cannot pay ``cost`` (N0.8.1, or N0.8.3 with Cleopatra or Hannibal)."""
    costs = "cost" if what == "the Pyramids" else "costs"
    if B.has(d, seat, "cleopatra") or B.has(d, seat, "hannibal"):
        return f"{what} {costs} {cost} tokens and your tokens cannot make that payment (N0.8.3)"
    return f"{what} {costs} {cost}: {cost} goods of {cost} different types or {cost} taxes (N0.8.1)"


def _item(item: str) -> str:
    """A purchase under way in words: ``tile hercules`` -> ``Hercules``."""
    w = item.split()
    if w[0] == "build":
        return f"a {slot_name(w[1])} in {area_name(w[2])}"
    if w[0] == "tile":
        return tile_name(w[1])
    if w[0] == "pyramids":
        return "the Pyramids"
    what = "an influence marker" if w[0] == "marker" else f"a {w[0]}"
    return f"{what} in {area_name(w[1])}" if len(w) > 1 else what


def _buy(d: State, w: list[str]) -> str | None:  # noqa: PLR0911, PLR0912
    seat = int(d["buy"]["active"])
    bu = d["buy"]
    if bu["paying"] is not None:
        return _pay(d, seat, w)
    if w[0] == "pay":
        return "no payment is under way: choose a purchase first (N3.2)"
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
            return "only a legion, a trireme or a fortress has a fixed alternative cost (N0.8.4)"
        tile, good = D.ALT_COST[item]
        if not B.has(d, seat, tile):
            return f"paying 1 {good} or 1 tax for a {item} needs {tile_name(tile)} (N3.3, N0.8.4)"
    if item in ("marker", "legion", "fortress", "trireme") and len(w) >= 3:
        piece = "influence_marker" if item == "marker" else item
        if B.supply(d, seat, piece) <= 0:
            return f"no {piece.replace('_', ' ')} is left in your supply (N0.9, 2.5)"
        place = w[2]
        why = {"marker": _marker, "legion": _legion, "fortress": _fortress, "trireme": _trireme}[item](
            d, seat, place
        )
        if why:
            return why
        if cheap:
            return f"paying 1 {D.ALT_COST[item][1]} or 1 tax: you hold neither (N0.8.4)"
        return _cost(d, seat, f"{'an influence marker' if item == 'marker' else 'a ' + item}", cost)
    if item == "tile" and len(w) == 3:
        if w[2] not in d["display"]:
            if any(w[2] in tiles for tiles in d["tiles"]):
                return f"{tile_name(w[2])} is already owned (N3.10.1)"
            return f"{tile_name(w[2])} is not face up in the display; bought spaces refill after the phase (N3.10.1, N3.10.2)"  # fmt: skip
        return _cost(
            d, seat, f"{tile_name(w[2])} (tile {len(d['tiles'][seat]) + 1} for you, 2.8)", cost_tile(d, seat)
        )
    if item == "pyramids":
        if d["pyramids"] is not None:
            return "the Pyramids are already built (N3.11, R42)"
        return _cost(d, seat, "the Pyramids", int(d["opts"]["pyramids_cost"]))
    return "not a legal purchase now (N3.2, N3.3)"


def _marker(d: State, seat: int, prov: str) -> str | None:
    """N3.4 (a)-(d)."""
    b = D.board(d["n"])
    if prov not in b.provinces:
        return f"{area_name(prov)} is not a province in play (N3.4 (a), R34)"
    owner = d["markers"].get(prov)
    if owner == seat:
        return f"{area_name(prov)} is already in your empire (N3.4 (b))"
    if owner is not None:
        return f"{area_name(prov)} is not neutral: it holds another player's influence marker (N3.4 (b))"
    if any(c for s, c in enumerate(B.legions(d, prov)) if s != seat):
        return f"{area_name(prov)} holds another player's legions (N3.4 (c))"
    if not B.connected(d, seat, prov, bool(d["opts"]["influence_connection_by_trireme_chain"])):
        how = (
            "by land or by a chain of your triremes"
            if d["opts"]["influence_connection_by_trireme_chain"]
            else "by land"
        )
        return f"{area_name(prov)} is not connected to your empire {how} (N3.4 (d), N0.6)"
    return None


def _own_province(d: State, seat: int, prov: str, rule: str) -> str | None:
    if prov not in D.board(d["n"]).provinces:
        return f"{area_name(prov)} is not a province in play (R34)"
    if d["markers"].get(prov) != seat:
        return f"{area_name(prov)} is not one of your provinces ({rule})"
    return None


def _at_war(d: State, prov: str, rule: str) -> str | None:
    if B.at_war(d, prov) and not B.has_capital(d, prov):
        return f"{area_name(prov)} is at war and holds no capital ({rule}, R21)"
    return None


def _legion(d: State, seat: int, prov: str) -> str | None:
    """N3.6 (R20, R21)."""
    return _own_province(d, seat, prov, "N3.6") or _at_war(d, prov, "N3.6")


def _fortress(d: State, seat: int, prov: str) -> str | None:
    """N3.8."""
    why = _own_province(d, seat, prov, "N3.8")
    if why:
        return why
    if prov in d["fortresses"]:
        return f"{area_name(prov)} already holds a fortress: one per province (N3.8)"
    if prov in d["conqueror"]:
        return f"{area_name(prov)} has a conqueror: no fortress under conquest (N3.8, R20)"
    return _at_war(d, prov, "N3.8")


def _trireme(d: State, seat: int, sea: str) -> str | None:
    """N3.7."""
    b = D.board(d["n"])
    if sea not in b.seas:
        return f"{area_name(sea)} is not a sea (N3.7)"
    if not any(p in B.own_provinces(d, seat) for p in b.seas[sea]["land"]):
        return f"{area_name(sea)} touches none of your provinces (N3.7)"
    return None


def _build(d: State, seat: int, slot: str, prov: str) -> str:
    """N3.5, N0.9 (building supply), N0.8."""
    why = _own_province(d, seat, prov, "N3.5")
    if why:
        return why
    kind = D.building_kind(slot)
    if slot not in D.board(d["n"]).slots(prov):
        return f"{area_name(prov)} has no {slot_name(slot)} slot (N3.5)"
    if slot in B.built(d, prov):
        return f"the {slot_name(slot)} slot of {area_name(prov)} is already built (N3.5)"
    if kind in D.BUILDING_KINDS and not B.building_left(d, kind):
        return (
            f"no {kind.replace('_', ' ')} is left in the building supply "
            "(N0.9, R35; option building_supply_limit)"
        )
    war = _at_war(d, prov, "N3.5.1")
    if war:
        return war
    if prov in d["conqueror"]:
        return f"{area_name(prov)} has a conqueror: no building under conquest (N3.5.2, R20)"
    return _cost(d, seat, f"a {slot_name(slot)}", D.COST.get(kind, 3))


def _free(d: State, seat: int, what: str, place: str) -> str:
    """N3.12.1 (Hammurabi), N3.12.2 (Penthesilea)."""
    bu = d["buy"]
    if what == "marker":
        if not B.has(d, seat, "hammurabi"):
            return "a free influence marker needs Hammurabi (N3.12.1)"
        if "hammurabi" in bu["free_used"]:
            return "Hammurabi's free influence marker is once per buy turn (N3.12.1)"
        if B.supply(d, seat, "influence_marker") <= 0:
            return "no influence marker is left in your supply (N0.9, 2.5)"
        return _marker(d, seat, place) or "not a legal free marker (N3.12.1)"
    if what == "legion":
        if not B.has(d, seat, "penthesilea"):
            return "a free legion needs Penthesilea (N3.12.2)"
        if "penthesilea" in bu["free_used"]:
            return "Penthesilea's free legion is once per buy turn (N3.12.2)"
        if B.supply(d, seat, "legion") <= 0:
            return "no legion is left in your supply (N0.9, 2.5)"
        return (
            f"{area_name(place)} must be a coastal province under another player's influence, with no "
            "other player's legion, next to a sea holding one of your triremes (N3.12.2)"
        )
    return "not a legal free placement (N3.12)"


def _pay(d: State, seat: int, w: list[str]) -> str:
    """N0.8.1-N0.8.4: why this token cannot go into the payment under way."""
    pay = d["buy"]["paying"]
    if w[0] != "pay" or len(w) != 2:
        return f"the payment for {_item(pay['item'])} is under way: add its tokens with 'pay <token>' (N3.2, N0.8)"
    tok = w[1]
    if d["res"][seat].get(tok, 0) <= 0:
        return f"you hold no {token_name(tok)} (N0.8.1)"
    if pay["kind"].startswith("alt:"):
        return f"this reduced cost is paid with 1 {pay['kind'][4:]} or 1 tax (N0.8.4)"
    cleo, hanni = B.has(d, seat, "cleopatra"), B.has(d, seat, "hannibal")
    paid = list(pay["paid"])
    goods = [P.good_of(t) for t in paid if t != "tax"]
    good = P.good_of(tok)
    if not cleo and ((tok == "tax" and goods) or (tok != "tax" and "tax" in paid)):
        return "goods and taxes are not mixed in one payment (N0.8.1)"
    if good is not None and good in goods and not hanni:
        same = [t for t in paid if P.good_of(t) == good]
        if tok.startswith("leg:") or any(t.startswith("leg:") for t in same):
            return f"a legendary {good} counts as a {good}: not twice the same type in one payment (N0.8.2)"
        rule = "N0.8.3" if cleo else "N0.8.1"
        return f"a payment in goods takes goods of different types: {good} is already in it ({rule})"
    if hanni and good is not None:
        lim = d["opts"]["hannibal_identical_goods_limit"]
        if lim is not None and goods.count(good) >= int(lim):
            return f"Hannibal's payments take at most {lim} goods of one type (N0.8.3)"
    left = int(pay["cost"]) - len(paid) - 1
    return f"with {token_name(tok)} your other tokens could not complete the {left} still due (N0.8.1)"


# ---- Military (N4)


def _march(d: State, w: list[str]) -> str | None:
    """N4.6.1, N4.6.2, N4.1.3."""
    if len(w) < 3:
        return None
    seat = int(d["mil"]["active"])
    b = D.board(d["n"])
    src, dst = w[1], w[2]
    for prov in (src, dst):
        if prov not in b.provinces:
            return f"{area_name(prov)} is not a province in play (N4.6, R34)"
    which = w[3] if len(w) > 3 else ""
    if B.legions(d, src)[seat] == 0:
        return f"you have no legion in {area_name(src)} (N4.6)"
    if which == "@marker" and d["on_marker"].get(src) != seat:
        return f"no legion of yours stands on the marker in {area_name(src)} (N4.6, N4.11.4)"
    if which.startswith("@") and which != "@marker" and d["occupy"].get(src, {}).get(which[1:]) != seat:
        return f"no legion of yours stands on the {slot_name(which[1:])} in {area_name(src)} (N4.6, N4.11.3)"
    if not which and B.free_legions(d, src, seat) - d["mil"]["arrived"].get(src, 0) <= 0:
        return f"every free legion of yours in {area_name(src)} has moved this turn: each moves once (N4.6)"
    if w[0] == "march":
        if dst not in b.provinces[src]["land"]:
            return f"{area_name(dst)} does not border {area_name(src)} by land (N4.6.1)"
        return None
    if not b.coastal(src) or not b.coastal(dst):
        return "a trireme chain goes from a coastal province to another coastal province (N4.6.2)"
    if zeus_barred(d, seat, dst):
        return f"the Statue of Zeus bars your trireme-chain moves into {area_name(dst)} this phase (N4.1.3)"
    return f"no chain of seas holding your triremes links {area_name(src)} to {area_name(dst)} (N4.6.2)"


def _fight(d: State, w: list[str]) -> str:
    if w[0] == "fight" and len(w) == 3 and f"{w[1]}:{w[2]}" in d["mil"]["fought"]:
        return "one battle per province and opponent in a turn (N4.8)"
    return "land battles are compulsory: fight one where your legions meet another player's (N4.8, R11)"


def _sea_battle(d: State, w: list[str]) -> str:
    if len(w) == 3 and w[1] in d["mil"]["fought"]:
        return "one sea battle per sea in a turn (N4.5, R10)"
    return "a sea battle is fought where your triremes meet that player's (N4.5)"


def _conversion(d: State, prov: str) -> str:
    """N4.3 (1)-(4)."""
    seat = int(d["mil"]["active"])
    where = area_name(prov)
    pend = d["pending"].get(prov)
    if pend is None or pend[0] != seat:
        return f"no conversion of yours is pending in {where} (N4.3, N4.11.4)"
    if pend[1] >= d["round"]:
        return f"Convert was chosen in {where} this round: it completes in a later Military phase (N4.3, R19)"
    if d["on_marker"].get(prov) != seat:
        return f"your legion no longer stands on the marker in {where} (N4.3 (1))"
    if d["conqueror"].get(prov) != seat:
        return f"you are no longer the conqueror of {where} (N4.3 (2))"
    if B.supply(d, seat, "influence_marker") <= 0:
        return "no influence marker is left in your supply (N4.3 (4))"
    return f"{where} is not connected to your empire (N4.3 (3), N0.6)"


def _circe(d: State, w: list[str]) -> str:
    """N4.13."""
    seat = int(d["mil"]["active"])
    if not B.building_left(d, "caravan"):
        return "no caravan is left in the building supply (N4.13, N0.9; option building_supply_limit)"
    if len(w) != 3:
        return "Circe names a province and an empty caravan slot there (N4.13)"
    prov, slot = w[1], w[2]
    if d["markers"].get(prov) != seat or B.at_war(d, prov) or prov in d["conqueror"]:
        return f"{area_name(prov)} must be one of your provinces, neither at war nor conquered (N4.13)"
    if B.free_legions(d, prov, seat) == 0:
        return f"you have no free legion in {area_name(prov)} (N4.13)"
    return f"{area_name(prov)} has no empty {slot_name(slot)} slot (N4.13)"


# ---- Trade (N2)


def _take(d: State, w: list[str]) -> str:
    """N2.5, N2.6."""
    t = d["trade"]
    c = int(t["chooser"])
    if len(w) != 4 or w[2] != "from" or not w[3].isdigit():
        return "a take is 'take <token> from <seat>' (N2.5)"
    x = int(w[3])
    if x == c:
        return "you take from another player's offer, not your own (N2.5)"
    if str(x) not in t["parts"]:
        return f"seat {x} takes no part in this trade (N2.2, N2.5)"
    if w[1] not in t["offers"][x]:
        return f"seat {x}'s offer holds no {token_name(w[1])} (N2.5)"
    return f"seat {x} just took back from you after you took from him: one back-and-forth only (N2.6, R3)"
