"""The Buy & place phase (N3.1-N3.14): Perseus (D11), the Culture leader's order (D12), the buy
turn with its purchases, token-by-token payments (N0.8) and placements (D13, N3.4-N3.12, N0.9),
the free placements of Hammurabi and Penthesilea (N3.12) and the end-of-turn discard with
Hanging Gardens (N3.13, D14). A fifth tile or the Pyramids win at once (N6.1, N6.2)."""

from __future__ import annotations

import itertools
from typing import Any, Final

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import conquest, victory
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P

State = dict[str, Any]


# ---- order (N3.1)


def buy_start(d: State) -> None:
    d["buy"] = {"done": [], "active": None, "first": [], "paying": None, "free_used": [], "perseus": []}
    owners = [s for s in range(d["n"]) if B.owns(d, s, "perseus")]
    copiers = [s for s in range(d["n"]) if d["copy"][s] == "perseus" and s not in owners]
    d["buy"]["perseus"] = owners + copiers
    d["stage"] = "buy_perseus" if d["buy"]["perseus"] else "buy_order"


def perseus_legal(d: State) -> list[str]:
    """D11 / N3.1.2."""
    return ["first no", "first yes"]


def perseus_effect(d: State, w: list[str]) -> None:
    bu = d["buy"]
    seat = int(bu["perseus"].pop(0))
    if w[1] == "yes":
        bu["first"].append(seat)  # N0.12: Perseus's owner first, then the copier
    if not bu["perseus"]:
        d["stage"] = "buy_order"


def order_legal(d: State) -> list[str]:
    """D12 / N3.1.1, N0.10."""
    return [f"next {s}" for s in range(d["n"]) if s not in d["buy"]["done"]]


def order_effect(d: State, w: list[str]) -> None:
    begin_buy_turn(d, int(w[1]))


def begin_buy_turn(d: State, seat: int) -> None:
    bu = d["buy"]
    bu["active"] = seat
    bu["free_used"] = []
    d["stage"] = "buy_turn"


# ---- costs and where things may go (N3.3-N3.12)


_COST_TABLES: Final[dict[int, tuple[Any, dict[int, int]]]] = {}


def _cost_table(table: dict[str, Any]) -> dict[int, int]:
    """An option's cost table with whole-number keys, worked out once per options object (they
    are never changed once resolved; the object is kept so that its id is not reused)."""
    found = _COST_TABLES.get(id(table))
    if found is None or found[0] is not table:
        if len(_COST_TABLES) >= 64:
            _COST_TABLES.clear()
        found = _COST_TABLES[id(table)] = (table, {int(k): int(v) for k, v in table.items()})
    return found[1]


_ROUND_COSTS: Final[list[tuple[Any, dict[int, int]]]] = [(None, {})]
"""The hero costs by round (:func:`cost_tile`) worked out for the last options object read."""


def cost_tile(d: State, seat: int) -> int:
    """2.8 / R25: a hero or wonder's cost, by tiles owned or by round."""
    opts = d["opts"]
    if opts["hero_cost_mode"] == "by_round":
        seen, costs = _ROUND_COSTS[0]
        if seen is not opts:
            costs = {}
            _ROUND_COSTS[0] = (opts, costs)
        rnd = d["round"]
        cost = costs.get(rnd)
        if cost is None:
            table = _cost_table(opts["hero_cost_by_round"])
            keys = [k for k in sorted(table) if k <= rnd]
            cost = costs[rnd] = table[keys[-1]] if keys else table[min(table)]
        return cost
    table = _cost_table(opts["hero_cost_by_tiles_owned"])
    owned = max(len(d["tiles"][seat]), min(table))  # starting hero included (2.8)
    return table.get(owned, table[max(table)])


_ALLOWANCES: Final[list[tuple[Any, Any, Any, list[P.Allowance]]]] = [(None, None, None, [])]
"""The last allowances worked out (one tuple stored at once): the ``tiles``, ``copy`` and
options read, and every seat's :func:`allowance` for anything but the Pyramids."""


def allowance(d: State, seat: int, item: str = "") -> P.Allowance:
    """What Hannibal and Cleopatra (owned or copied) let ``seat`` pay with for ``item``
    (N0.8.3, R28): the readings in force, and nothing for the Pyramids unless option
    ``hero_payments_for_pyramids`` says so (2.9).

    Asked for every legal list of a buy turn: it reads the seats' tiles and copies, replaced
    whole whenever they change (``board.put``), so every seat's answer is worked out once per
    pair of tables."""
    if item != "pyramids":
        tiles, copies, opts, found = _ALLOWANCES[0]
        if tiles is not d["tiles"] or copies is not d["copy"] or opts is not d["opts"]:
            found = [_allowance(d, s, "") for s in range(d["n"])]
            _ALLOWANCES[0] = (d["tiles"], d["copy"], d["opts"], found)
        return found[seat]
    return _allowance(d, seat, item)


def _allowance(d: State, seat: int, item: str) -> P.Allowance:
    opts = d["opts"]
    if item == "pyramids" and not opts["hero_payments_for_pyramids"]:
        return P.PLAIN
    hanni = opts["hannibal_reading"] if B.has(d, seat, "hannibal") else None
    cleo = opts["cleopatra_reading"] if B.has(d, seat, "cleopatra") else None
    if hanni is None and cleo is None:
        return P.PLAIN
    lim = opts["hannibal_identical_goods_limit"]
    return P.Allowance(hanni, cleo, None if lim is None else int(lim))


def affordable(d: State, seat: int, cost: int, kind: str = "normal", item: str = "") -> bool:
    allow = allowance(d, seat, item)
    return P.can_finish([], d["res"][seat], 1 if kind != "normal" else cost, kind, allow)


def marker_ok(d: State, seat: int, prov: str) -> bool:
    """N3.4 (R2): in play, neutral, no other player's legions, connected."""
    if prov in d["markers"]:
        return False
    if any(c for s, c in enumerate(B.legions(d, prov)) if s != seat):
        return False
    return B.connected(d, seat, prov, bool(d["opts"]["influence_connection_by_trireme_chain"]))


def build_ok(d: State, seat: int, prov: str, slot: str) -> bool:
    """N3.5: own province, empty slot, not at war unless a capital is built, no conqueror."""
    if d["markers"].get(prov) != seat or slot in B.built(d, prov):
        return False
    if slot not in D.board(d["n"]).slots(prov):
        return False
    return (not B.at_war(d, prov) or B.has_capital(d, prov)) and prov not in d["conqueror"]


def legion_ok(d: State, seat: int, prov: str) -> bool:
    """N3.6 (R20, R21)."""
    if d["markers"].get(prov) != seat:
        return False
    return not B.at_war(d, prov) or B.has_capital(d, prov)


def fortress_ok(d: State, seat: int, prov: str) -> bool:
    """N3.8."""
    return (
        d["markers"].get(prov) == seat
        and prov not in d["fortresses"]
        and (not B.at_war(d, prov) or B.has_capital(d, prov))
        and prov not in d["conqueror"]
    )


def penthesilea_ok(d: State, seat: int, prov: str) -> bool:
    """N3.12.2."""
    owner = d["markers"].get(prov)
    if owner is None or owner == seat:
        return False
    if any(c for s, c in enumerate(B.legions(d, prov)) if s != seat):
        return False
    seas = D.board(d["n"]).provinces[prov]["seas"]
    return any(B.triremes(d, s)[seat] > 0 for s in seas)


def piece_places(d: State, seat: int, piece: str) -> list[str]:
    b = D.board(d["n"])
    mine = B.own_provinces(d, seat)
    if piece == "legion":
        return [p for p in mine if legion_ok(d, seat, p)]
    if piece == "fortress":
        return [p for p in mine if fortress_ok(d, seat, p)]
    return sorted({s for p in mine for s in b.provinces[p]["seas"]})


# ---- the buy turn (D13)


class _Texts:
    """A board's buy-turn action texts, made once per player count: the legal list is asked
    after every action of a buy turn, and looking a text up is cheaper than formatting it."""

    def __init__(self, players: int) -> None:
        b = D.board(players)
        ids = b.province_ids
        self.buy_marker = {p: f"buy marker {p}" for p in ids}
        self.free_marker = {p: f"free marker {p}" for p in ids}
        self.free_legion = {p: f"free legion {p}" for p in ids}
        self.builds = {
            p: tuple(
                (slot, kind, kind in ("market", "temple"), f"build {slot} {p}")
                for slot, kind in b.slot_kinds[p]
            )
            for p in ids
        }
        self.pieces = {
            piece: {
                place: (f"buy {piece} {place}", f"buy {piece} {place} cheap") for place in (*ids, *b.sea_ids)
            }
            for piece in ("legion", "trireme", "fortress")
        }
        self.seas = {p: tuple(b.provinces[p]["seas"]) for p in ids}
        self.coastal = tuple(p for p in ids if b.coastal(p))


_TEXTS: Final[dict[int, _Texts]] = {}
"""The buy-turn texts made so far, by player count."""


def _texts(players: int) -> _Texts:
    found = _TEXTS.get(players)
    if found is None:
        found = _TEXTS[players] = _Texts(players)
    return found


_COASTS: Final[list[tuple[Any, list[str]]]] = [(None, [])]
"""The last :func:`_coasts` answer, one pair stored at once: the list of provinces it was
asked for, and the seas."""


def _coasts(mine: list[str], seas: dict[str, tuple[str, ...]]) -> list[str]:
    """The seas on the coasts of provinces ``mine``, in name order (where triremes are placed,
    N3.7). ``mine`` is a list ``board.owned`` keeps per ``markers`` table: the same list
    object has the same provinces, so the answer for it is kept."""
    seen, found = _COASTS[0]
    if seen is not mine:
        found = sorted({s for p in mine for s in seas[p]})
        _COASTS[0] = (mine, found)
    return found


_NEAR: Final[dict[int, tuple[Any, Any, bool, frozenset[str]]]] = {}
"""The last :func:`_near` answer per seat, with the ``markers`` and ``triremes`` tables it read."""


def _near(d: State, seat: int, mine: list[str], by_chain: bool) -> frozenset[str]:
    """The provinces connected to ``seat``'s (N0.6: land links go both ways on the map; a
    trireme chain reaches the coasts of its seas), his own among them. They depend on the
    ``markers`` and ``triremes`` tables only, which are replaced whole whenever they change
    (``board.put``, ``board.move_unit``), so the answer for the same two tables is kept."""
    markers = d["markers"]
    triremes = d["triremes"]
    seen = _NEAR.get(seat)
    if seen is not None and seen[0] is markers and seen[1] is triremes and seen[2] == by_chain:
        return seen[3]
    b = D.board(d["n"])
    provinces = b.provinces
    near: set[str] = set()
    for p in mine:
        near.update(provinces[p]["land"])
    if by_chain:
        shore = b.shore
        for sea in B.sea_reach(d, seat, mine):
            near.update(shore[sea])
    found = frozenset(near)
    _NEAR[seat] = (markers, triremes, by_chain, found)
    return found


def turn_legal(d: State) -> list[str]:
    """D13: the purchases and placements open to the active player (N3.3-N3.12), or the tokens
    he may pay with next (N0.8).

    The rule predicates (``marker_ok``, ``build_ok``, ``legion_ok``, ``fortress_ok``,
    ``penthesilea_ok``) say the same one place at a time; this list is asked after every
    action of a buy turn, so it works out once what they share (the player's provinces, his
    trireme chains, which provinces are at war, the building supply), reads its texts from a
    table made once per board (:class:`_Texts`) and skips every loop whose purchases he
    cannot pay for.
    """
    bu: dict[str, Any] = d["buy"]
    seat: int = bu["active"]  # typed reads, not calls of int()
    paying = bu["paying"]
    if paying is not None:
        return _pay_legal(d, seat, paying)
    n: int = d["n"]
    texts = _texts(n)
    markers: dict[str, int] = d["markers"]
    legions: dict[str, list[int]] = d["legions"]
    opts: dict[str, Any] = d["opts"]
    out: list[str] = ["end"]
    res: dict[str, int] = d["res"][seat]
    tiles: list[str] = d["tiles"][seat]
    copied: str | None = d["copy"][seat]
    allow = allowance(d, seat)
    top = P.most_payable(res, allow)  # affordable(d, seat, k) is k <= top
    can3 = top >= 3
    free_used = bu["free_used"]
    free_marker = ("hammurabi" in tiles or copied == "hammurabi") and "hammurabi" not in free_used
    mine = B.owned(d, seat)  # B.own_provinces, kept per markers table
    # B.supply(d, seat, "influence_marker"): the markers on the board are his provinces
    limits: dict[str, int] = d["limits"]
    if (can3 or free_marker) and limits["influence_marker"] - len(mine) > 0:
        # marker_ok (N3.4): the provinces connected to the player's (N0.6: land links go both
        # ways on the map; a trireme chain reaches the coasts of its seas), neutral, and
        # without another player's legions
        near = _near(d, seat, mine, bool(opts["influence_connection_by_trireme_chain"]))
        buy_marker = texts.buy_marker
        free_text = texts.free_marker
        for prov in near:
            if prov in markers:
                continue
            row = legions.get(prov)
            # another seat's legions there (counts are never negative)
            if row is not None and n - row.count(0) - (1 if row[seat] else 0) > 0:
                continue
            if can3:
                out.append(buy_marker[prov])
            if free_marker:
                out.append(free_text[prov])
    # per own province: may pieces be placed there (not at war, or a capital: N3.5-N3.8)
    buildings: dict[str, list[str]] = d["buildings"]
    conqueror: dict[str, Any] = d["conqueror"]
    calm = [
        prov
        for prov in mine
        if (row := legions.get(prov)) is None
        or n - row.count(0) < 2  # fewer than two seats with legions (counts are never negative)
        or "capital" in buildings.get(prov, ())
    ]
    if can3:
        can6 = top >= 6
        left: dict[str, bool] = {}
        unlimited = opts["building_supply_limit"] is None  # B.building_left always holds (R35)
        builds = texts.builds
        for prov in calm:  # build_ok (N3.5)
            if prov in conqueror:
                continue
            built = buildings.get(prov, ())
            for slot, kind, dear, text in builds[prov]:
                if slot in built or (dear and not can6):
                    continue
                if unlimited:
                    out.append(text)
                    continue
                ok = left.get(kind)
                if ok is None:
                    ok = left[kind] = B.building_left(d, kind)
                if ok:
                    out.append(text)
    fortresses = d["fortresses"]
    for piece, (alt_tile, alt_good) in D.ALT_COST.items():
        alt = (alt_tile in tiles or copied == alt_tile) and affordable(d, seat, 1, f"alt:{alt_good}")
        if not (can3 or alt) or B.supply(d, seat, piece) <= 0:
            continue
        if piece == "legion":
            places = calm
        elif piece == "fortress":
            places = [p for p in calm if p not in fortresses and p not in conqueror]
        else:
            places = _coasts(mine, texts.seas)
        piece_texts = texts.pieces[piece]
        for place in places:
            full, cheap = piece_texts[place]
            if can3:
                out.append(full)
            if alt:
                out.append(cheap)
    if (
        ("penthesilea" in tiles or copied == "penthesilea")
        and "penthesilea" not in free_used
        and B.supply(d, seat, "legion") > 0
    ):
        for prov in texts.coastal:
            if penthesilea_ok(d, seat, prov):
                out.append(texts.free_legion[prov])
    display: list[str | None] = d["display"]
    if display.count(None) < len(display) and top >= cost_tile(d, seat):  # a tile on display
        for tile in display:
            if tile is not None:
                out.append(f"buy tile {tile}")
    if d["pyramids"] is None:
        for_pyramids = allowance(d, seat, "pyramids")
        most = top if for_pyramids == allow else P.most_payable(res, for_pyramids)
        cost: int = opts["pyramids_cost"]
        if cost <= most:
            out.append("buy pyramids")
    out.sort()
    return out


def _pay_legal(d: State, seat: int, pay: dict[str, Any]) -> list[str]:
    """N0.8: a token is legal while the payment ``pay`` under way can still be completed."""
    allow = allowance(d, seat, pay["item"])
    paid: list[str] = pay["paid"]
    cost: int = pay["cost"]
    need = cost - len(paid)
    res: dict[str, int] = d["res"][seat]
    texts = _PAY_TEXTS
    out = []
    for tok in P.next_tokens(paid, res, need, pay["kind"], allow):
        text = texts.get(tok)
        if text is None:
            text = texts[tok] = "pay " + tok
        out.append(text)
    return out


_PAY_TEXTS: Final[dict[str, str]] = {}
"""The ``pay`` action of each token, made once: a payment's legal list is asked after every
token paid."""


def keep_legal(d: State) -> list[str]:
    """D14 / N3.13: Hanging Gardens keeps up to 2 goods of different types."""
    seat = int(d["buy"]["active"])
    goods = sorted(t for t in d["res"][seat] if t != "tax")
    out = ["keep none"]
    for a in goods:
        out.append(f"keep {a}")
    for a, b in itertools.combinations(goods, 2):
        if P.good_of(a) != P.good_of(b):
            out.append(f"keep {a},{b}")
    return out


def turn_effect(d: State, w: list[str]) -> None:
    bu: dict[str, Any] = d["buy"]
    seat: int = bu["active"]
    if w[0] == "pay":
        pay: dict[str, Any] = bu["paying"]
        B.add_res(d, seat, w[1], -1)
        paid: list[str] = pay["paid"]
        paid.append(w[1])
        cost: int = pay["cost"]
        if len(paid) == cost:
            for tok in pay["paid"]:
                if tok.startswith("leg:"):
                    legendary_back(d, tok)
            item = pay["item"]
            d["last_payment"] = {"seat": seat, "item": item, "paid": sorted(pay["paid"])}
            bu["paying"] = None
            _place(d, seat, item.split())
        return
    if w[0] == "end":
        # 7.8: the keep is asked whenever the screen holds a token, so that whether it is
        # asked never tells the others that the screen holds goods
        if B.has(d, seat, "hanging_gardens") and sum(d["res"][seat].values()) > 0:
            d["stage"] = "buy_keep"
        else:
            _end_turn(d, seat, [])
        return
    if w[0] == "free":
        bu["free_used"].append("hammurabi" if w[1] == "marker" else "penthesilea")
        _place(d, seat, w[1:])
        return
    item, cost, pkind = purchase(d, seat, w)
    bu["paying"] = {"item": item, "cost": cost, "kind": pkind, "paid": []}


def purchase(d: State, seat: int, w: list[str]) -> tuple[str, int, str]:
    """What the ``buy ...`` or ``build ...`` action ``w`` (its words) buys for ``seat`` now: the
    item, its cost in tokens and the kind of payment (N3.3-N3.12; a hero or wonder by 2.8)."""
    item = " ".join(w[1:])
    if w[0] == "build":
        return "build " + item, D.COST[D.building_kind(w[1])], "normal"
    if w[1] == "tile":
        return item, cost_tile(d, seat), "normal"
    if w[1] == "pyramids":
        return item, int(d["opts"]["pyramids_cost"]), "normal"
    if w[-1] == "cheap":
        return " ".join(w[1:-1]), 1, "alt:" + D.ALT_COST[w[1]][1]
    return item, 3, "normal"


def legendary_back(d: State, tok: str) -> None:
    """N0.8.5 / R24: a spent or discarded legendary good returns to the pool (or leaves play)."""
    g = tok[4:]
    if d["opts"]["legendary_goods_recycle"]:
        B.put(d, "pool", g, d["pool"].get(g, 0) + 1)
    else:
        B.put(d, "legendary_out", g, d["legendary_out"].get(g, 0) + 1)


def _place(d: State, seat: int, w: list[str]) -> None:
    """Placement of a paid purchase or a free placement (N3.4-N3.12)."""
    if w[0] == "build":
        B.put(d, "buildings", w[2], sorted([*d["buildings"].get(w[2], ()), w[1]]))
    elif w[0] == "marker":
        B.put(d, "markers", w[1], seat)
    elif w[0] == "legion":
        conquest.enter(d, w[1], seat)
        B.move_unit(d, "legions", w[1], seat, 1)
    elif w[0] == "trireme":
        B.move_unit(d, "triremes", w[1], seat, 1)
    elif w[0] == "fortress":
        B.put(d, "fortresses", w[1], seat)
    elif w[0] == "tile":
        B.put(d, "tiles", seat, [*d["tiles"][seat], w[1]])
        B.put(d, "display", d["display"].index(w[1]), None)
        if B.tiles_counted(d, seat) >= int(d["opts"]["tiles_to_win"]):
            victory.win(d, seat)
    elif w[0] == "pyramids":
        d["pyramids"] = seat
        victory.win(d, seat)


def keep_effect(d: State, w: list[str]) -> None:
    seat = int(d["buy"]["active"])
    _end_turn(d, seat, [] if w[1] == "none" else w[1].split(","))


def _end_turn(d: State, seat: int, keep: list[str]) -> None:
    """N3.13."""
    res = d["res"][seat]
    kept_leg = bool(d["opts"]["legendary_goods_kept_end_of_turn"])
    for tok in sorted(res):
        if tok == "tax":
            continue
        k = res[tok] - (1 if tok in keep else 0)
        if tok.startswith("leg:") and kept_leg:
            continue
        for _ in range(k):
            B.add_res(d, seat, tok, -1)
            if tok.startswith("leg:"):
                legendary_back(d, tok)
    if res.get("tax", 0) > int(d["opts"]["taxes_kept_end_of_turn"]):
        res["tax"] = int(d["opts"]["taxes_kept_end_of_turn"])
        if res["tax"] == 0:
            del res["tax"]
    bu = d["buy"]
    bu["done"].append(seat)
    bu["active"] = None
    d["stage"] = "buy_order"
