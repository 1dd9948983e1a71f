"""The round (N0-N6): who is to move, the legal actions and their effects.

The state is a JSON dict ``d``. ``legal(d)`` lists the actions (or chance outcomes) and
``play(d, action)`` applies one and then runs everything automatic until the next decision or
chance node. A queue (``d["queue"]``) holds interrupting items resolved first: legendary draws
(chance), the legendary-city choice (D3), Colossus (D4), conquests (D23) and hit removals (D22).
"""

from __future__ import annotations

import itertools
from typing import Any

from ziggurat.engine.contract import CHANCE, TERMINAL
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P

State = dict[str, Any]
LETTERS = "abc"


# ---------------------------------------------------------------- set-up (section 4)


def new_position(n: int, opts: dict[str, Any]) -> State:
    b = D.board(n)
    d: State = {
        "n": n,
        "opts": opts,
        "limits": opts["unit_limits"],
        "round": 0,
        "stage": "assign",
        "empires": [None] * n,
        "res": [{} for _ in range(n)],
        "tiles": [[] for _ in range(n)],
        "copy": [None] * n,
        "pool": {g: 1 for g in D.GOODS},
        "legendary_out": {},
        "markers": {},
        "buildings": {},
        "legions": {},
        "triremes": {},
        "fortresses": {},
        "occupy": {},
        "on_marker": {},
        "pending": {},
        "conqueror": {},
        "titles": {"trade": None, "culture": None, "military": None},
        "tokens_used": [False, False, False],
        "display": [None] * int(opts["face_up_tiles"]),
        "facedown": sorted(t for t in b.tiles if D.TILES[t]["purchasable"]),
        "pyramids": None,
        "queue": [],
        "trade": None,
        "buy": None,
        "mil": None,
        "battle": None,
        "claim": None,
        "winner": None,
        "after_reveal": "round",
        "zeus": [],
    }
    return d


def _setup_empires(d: State) -> None:
    """S3-S5: pieces, resources, starting heroes and titles (4.1, 4.2, R31)."""
    for seat, emp_id in enumerate(d["empires"]):
        emp = D.EMPIRES[emp_id]
        for prov in emp["influence_markers"]:
            d["markers"][prov] = seat
        for prov, slots in emp["buildings"].items():
            d["buildings"][prov] = sorted(slots)
        for prov, k in emp["legions"].items():
            B.move_unit(d, "legions", prov, seat, int(k))
        for sea, k in emp["triremes"].items():
            B.move_unit(d, "triremes", sea, seat, int(k))
        for tok, k in emp["resources"].items():
            B.add_res(d, seat, tok, int(k))
        d["tiles"][seat] = [emp["starting_hero"]]
    b = D.board(d["n"])
    for track in D.TRACKS:
        holder = b.starting_titles.get(track)
        if holder in d["empires"]:
            d["titles"][track] = d["empires"].index(holder)
            continue
        levels = [B.tracks(d, s)[track] for s in range(d["n"])]
        top = [s for s in range(d["n"]) if levels[s] == max(levels)]
        young = int(d["opts"]["youngest_player_seat"])
        d["titles"][track] = young if young in top else top[0]
    d["stage"] = "reveal"
    d["after_reveal"] = "round"


# ---------------------------------------------------------------- who moves


def to_move(d: State) -> int:
    if d["stage"] == "over":
        return TERMINAL
    if d["queue"]:
        head = d["queue"][0]
        return CHANCE if head[0] == "draw" else int(head[1])
    if d["battle"] is not None:
        return CHANCE
    st = d["stage"]
    if st == "assign":
        if d["opts"]["empire_assignment"] == "random":
            return CHANCE
        return d["empires"].index(None)
    if st == "reveal":
        return CHANCE
    if st == "castor":
        return int(d["castor"][0])
    if st == "trade_token":
        return int(d["titles"]["trade"])
    if st == "trade_size":
        return int(d["trade"]["sizing"][0])
    if st == "trade_offer":
        return _next_offerer(d)
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


def _next_offerer(d: State) -> int:
    t = d["trade"]
    for seat in sorted(t["parts"], key=int):
        if len(t["offers"][int(seat)]) < t["parts"][seat]:
            return int(seat)
    raise AssertionError("no offerer")


# ---------------------------------------------------------------- chance


def _dice_dist(n: int, faces: list[int]) -> dict[int, float]:
    dist = {0: 1.0}
    for _ in range(n):
        nxt: dict[int, float] = {}
        for tot, p in dist.items():
            for f in faces:
                nxt[tot + f] = nxt.get(tot + f, 0.0) + p / len(faces)
        dist = nxt
    return dist


def chance(d: State) -> list[tuple[str, float]]:
    if to_move(d) != CHANCE:
        return []
    if d["queue"]:
        total = sum(d["pool"].values())
        return [(f"draw {g}", c / total) for g, c in sorted(d["pool"].items()) if c]
    if d["battle"] is not None:
        bt = d["battle"]
        side = "att" if bt["att_total"] is None else "def"
        dist = _dice_dist(_dice(d, side), list(d["opts"]["die_faces"]))
        return [(f"roll {t}", p) for t, p in sorted(dist.items())]
    if d["stage"] == "assign":
        emps = D.board(d["n"]).empires
        perms = list(itertools.permutations(emps))
        return [("empires " + ",".join(p), 1 / len(perms)) for p in perms]
    down = d["facedown"]
    return [(f"reveal {t}", 1 / len(down)) for t in down]


# ---------------------------------------------------------------- legal actions


def legal(d: State) -> list[str]:
    who = to_move(d)
    if who == TERMINAL:
        return []
    if who == CHANCE:
        return [a for a, _ in chance(d)]
    if d["queue"]:
        return _queue_legal(d)
    st = d["stage"]
    fn = _LEGAL[st]
    return fn(d)


def _queue_legal(d: State) -> list[str]:
    head = d["queue"][0]
    kind, seat = head[0], int(head[1])
    if kind == "lc":
        return ["extra draw", "extra tax"]
    if kind == "colossus":
        return [f"colossus {g}" for g in D.GOODS]
    if kind == "lose":
        prov = head[2]
        out = []
        if B.free_legions(d, prov, seat) > 0:
            out.append("lose free")
        for slot, s in sorted(d["occupy"].get(prov, {}).items()):
            if s == seat:
                out.append(f"lose {slot}")
        if d["on_marker"].get(prov) == seat:
            out.append("lose marker")
        return out
    if kind == "conquest":
        return _conquest_legal(d, seat, head[2], head[3] if len(head) > 3 else [])
    raise AssertionError(kind)


def _castor_legal(d: State) -> list[str]:
    seat = int(d["castor"][0])
    tiles = sorted({t for s in range(d["n"]) if s != seat for t in d["tiles"][s]} - {"castor_pollux"})
    return ["copy none"] + [f"copy {t}" for t in tiles]


def _assign_legal(d: State) -> list[str]:
    emps = D.board(d["n"]).empires
    return sorted(f"empire {e}" for e in emps if e not in d["empires"])


def _trade_token_legal(d: State) -> list[str]:
    faces = d["opts"]["trade_token_faces"]
    out: list[str] = []
    for i, used in enumerate(d["tokens_used"]):
        if not used:
            for f in sorted(set(faces[i])):
                out.append(f"token {LETTERS[i]} {f}")
    return out


def _trade_size_legal(d: State) -> list[str]:
    t = d["trade"]
    seat = int(t["sizing"][0])
    top = min(t["v"], B.n_tokens(d, seat))
    return [f"offer size {k}" for k in range(top + 1)]


def _trade_offer_legal(d: State) -> list[str]:
    seat = _next_offerer(d)
    return [f"offer {tok}" for tok in sorted(d["res"][seat])]


def _trade_starter_legal(d: State) -> list[str]:
    return [f"starter {s}" for s in sorted(int(x) for x in d["trade"]["parts"])]


def _takes(d: State) -> list[str]:
    t = d["trade"]
    c = int(t["chooser"])
    out: list[str] = []
    for x in sorted(int(s) for s in t["parts"]):
        if x == c or not t["offers"][x]:
            continue
        if len(t["takes"]) >= 2 and t["takes"][-2] == [c, x] and t["takes"][-1] == [x, c]:
            continue
        for tok in sorted(set(t["offers"][x])):
            out.append(f"take {tok} from {x}")
    return out


def _trade_give_legal(d: State) -> list[str]:
    seat = int(d["trade"]["starter"])
    return [f"give {tok}" for tok in sorted(d["res"][seat])]


def _perseus_legal(d: State) -> list[str]:
    return ["first no", "first yes"]


def _buy_order_legal(d: State) -> list[str]:
    return [f"next {s}" for s in range(d["n"]) if s not in d["buy"]["done"]]


def _cost_tile(d: State, seat: int) -> int:
    opts = d["opts"]
    if opts["hero_cost_mode"] == "by_round":
        table = {int(k): int(v) for k, v in opts["hero_cost_by_round"].items()}
        keys = [k for k in sorted(table) if k <= d["round"]]
        return table[keys[-1]] if keys else table[min(table)]
    table = {int(k): int(v) for k, v in opts["hero_cost_by_tiles_owned"].items()}
    owned = max(len(d["tiles"][seat]), min(table))  # starting hero included (2.8)
    return table.get(owned, table[max(table)])


def _pay_flags(d: State, seat: int) -> tuple[bool, bool, int | None]:
    lim = d["opts"]["hannibal_identical_goods_limit"]
    return B.has(d, seat, "cleopatra"), B.has(d, seat, "hannibal"), lim


def _affordable(d: State, seat: int, cost: int, kind: str = "normal") -> bool:
    cleo, hanni, lim = _pay_flags(d, seat)
    return P.can_finish([], d["res"][seat], 1 if kind != "normal" else cost, kind, cleo, hanni, lim)


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


def _buy_turn_legal(d: State) -> list[str]:
    bu = d["buy"]
    seat = int(bu["active"])
    if bu["paying"] is not None:
        return _pay_legal(d, seat)
    b = D.board(d["n"])
    out: list[str] = ["end"]
    can3 = _affordable(d, seat, 3)
    can6 = _affordable(d, seat, 6)
    if B.supply(d, seat, "influence_marker") > 0:
        for prov in b.province_ids:
            if marker_ok(d, seat, prov):
                if can3:
                    out.append(f"buy marker {prov}")
                if B.has(d, seat, "hammurabi") and "hammurabi" not in bu["free_used"]:
                    out.append(f"free marker {prov}")
    for prov in B.own_provinces(d, seat):
        for slot in b.slots(prov):
            kind = D.building_kind(slot)
            if (can6 if kind in ("market", "temple") else can3) and build_ok(d, seat, prov, slot):
                out.append(f"build {slot} {prov}")
    for piece in ("legion", "trireme", "fortress"):
        if B.supply(d, seat, piece) <= 0:
            continue
        places = _piece_places(d, seat, piece)
        alt_tile, alt_good = D.ALT_COST[piece]
        alt = B.has(d, seat, alt_tile) and _affordable(d, seat, 1, f"alt:{alt_good}")
        for place in places:
            if can3:
                out.append(f"buy {piece} {place}")
            if alt:
                out.append(f"buy {piece} {place} cheap")
    if (
        B.has(d, seat, "penthesilea")
        and "penthesilea" not in bu["free_used"]
        and B.supply(d, seat, "legion") > 0
    ):
        for prov in b.province_ids:
            if b.coastal(prov) and penthesilea_ok(d, seat, prov):
                out.append(f"free legion {prov}")
    cost = _cost_tile(d, seat)
    if _affordable(d, seat, cost):
        for tile in sorted(t for t in d["display"] if t is not None):
            out.append(f"buy tile {tile}")
    if d["pyramids"] is None and _affordable(d, seat, int(d["opts"]["pyramids_cost"])):
        out.append("buy pyramids")
    return sorted(out)


def _piece_places(d: State, seat: int, piece: str) -> list[str]:
    b = D.board(d["n"])
    mine = B.own_provinces(d, seat)
    if piece == "legion":
        return [p for p in mine if legion_ok(d, seat, p)]
    if piece == "fortress":
        return [p for p in mine if fortress_ok(d, seat, p)]
    return sorted({s for p in mine for s in b.provinces[p]["seas"]})


def _pay_legal(d: State, seat: int) -> list[str]:
    pay = d["buy"]["paying"]
    cleo, hanni, lim = _pay_flags(d, seat)
    need = int(pay["cost"]) - len(pay["paid"])
    out: list[str] = []
    for tok in sorted(d["res"][seat]):
        left = dict(d["res"][seat])
        left[tok] -= 1
        if P.can_finish(pay["paid"] + [tok], left, need - 1, pay["kind"], cleo, hanni, lim):
            out.append(f"pay {tok}")
    return out


def _buy_keep_legal(d: State) -> list[str]:
    seat = int(d["buy"]["active"])
    goods = sorted(t for t in d["res"][seat] if t != "tax")
    out = ["keep none"]
    for a in goods:
        out.append(f"keep {a}")
    for a, b in itertools.combinations(goods, 2):
        if P.good_of(a) != P.good_of(b):
            out.append(f"keep {a},{b}")
    return out


def _zeus_legal(d: State) -> list[str]:
    seat = int(d["mil"]["zeus_q"][0])
    return ["zeus none"] + [f"zeus {s}" for s in range(d["n"]) if s != seat]


def _mil_order_legal(d: State) -> list[str]:
    return [f"next {s}" for s in range(d["n"]) if s not in d["mil"]["done"]]


def conversion_ok(d: State, seat: int, prov: str) -> bool:
    """N4.3 (1)-(4), and the Convert was chosen in an earlier Military phase."""
    pend = d["pending"].get(prov)
    if pend is None or pend[0] != seat or pend[1] >= d["round"]:
        return False
    return (
        d["on_marker"].get(prov) == seat
        and d["conqueror"].get(prov) == seat
        and B.connected(d, seat, prov, bool(d["opts"]["conversion_connection_by_trireme_chain"]))
        and B.supply(d, seat, "influence_marker") > 0
    )


def _mil_conv_legal(d: State) -> list[str]:
    seat = int(d["mil"]["active"])
    return ["done"] + [f"convert {p}" for p in sorted(d["pending"]) if conversion_ok(d, seat, p)]


def _mil_row_legal(d: State) -> list[str]:
    m = d["mil"]
    seat = int(m["active"])
    b = D.board(d["n"])
    out = ["done"]
    for sea in b.sea_ids:
        if B.triremes(d, sea)[seat] - m["arrived"].get(sea, 0) > 0:
            out.extend(f"row {sea} {to}" for to in sorted(b.seas[sea]["seas"]))
    return out


def _mil_sea_legal(d: State) -> list[str]:
    m = d["mil"]
    seat = int(m["active"])
    out = ["done"]
    for sea in D.board(d["n"]).sea_ids:
        row = B.triremes(d, sea)
        if row[seat] == 0 or sea in m["fought"]:
            continue
        out.extend(f"seabattle {sea} {x}" for x in range(d["n"]) if x != seat and row[x] > 0)
    return out


def _zeus_barred(d: State, seat: int, prov: str) -> bool:
    """N4.1.3: a named player may not move by trireme chain into the owner's province."""
    return any(named == seat and d["markers"].get(prov) == owner for owner, named in d["zeus"])


def _mil_march_legal(d: State) -> list[str]:
    m = d["mil"]
    seat = int(m["active"])
    b = D.board(d["n"])
    out = ["done"]
    for prov in b.province_ids:
        if B.legions(d, prov)[seat] == 0:
            continue
        movers = []
        if B.free_legions(d, prov, seat) - m["arrived"].get(prov, 0) > 0:
            movers.append("")
        for slot, s in sorted(d["occupy"].get(prov, {}).items()):
            if s == seat:
                movers.append(f" @{slot}")
        if d["on_marker"].get(prov) == seat:
            movers.append(" @marker")
        if not movers:
            continue
        land = sorted(b.provinces[prov]["land"])
        reach = B.sea_reach(d, seat, [prov]) if b.coastal(prov) else set()
        sail = sorted(
            q
            for q in b.province_ids
            if q != prov and any(s in reach for s in b.provinces[q]["seas"]) and not _zeus_barred(d, seat, q)
        )
        for who in movers:
            out.extend(f"march {prov} {q}{who}" for q in land)
            out.extend(f"sail {prov} {q}{who}" for q in sail)
    return out


def _fights(d: State, seat: int) -> list[str]:
    """N4.8: one battle per province and opponent present, each turn (R11)."""
    out: list[str] = []
    done = d["mil"]["fought"] if d["mil"] else []
    for prov in D.board(d["n"]).province_ids:
        row = B.legions(d, prov)
        if row[seat] > 0:
            out.extend(
                f"fight {prov} {x}"
                for x in range(d["n"])
                if x != seat and row[x] > 0 and f"{prov}:{x}" not in done
            )
    return out


def _mil_fight_legal(d: State) -> list[str]:
    return _fights(d, int(d["mil"]["active"]))


def _circe_options(d: State, seat: int) -> list[str]:
    out: list[str] = []
    for prov in B.own_provinces(d, seat):
        if B.at_war(d, prov) or prov in d["conqueror"] or B.free_legions(d, prov, seat) == 0:
            continue
        for slot in D.board(d["n"]).slots(prov):
            if slot.startswith("caravan:") and slot not in B.built(d, prov):
                out.append(f"circe {prov} {slot}")
    return out


def _mil_circe_legal(d: State) -> list[str]:
    return ["done"] + _circe_options(d, int(d["mil"]["active"]))


def _tie_win_legal(d: State) -> list[str]:
    return [f"winner {s}" for s in d["tie"]]


def _claim_tie_legal(d: State) -> list[str]:
    return [f"title {d['claim']['track']} {s}" for s in d["claim"]["tied"]]


def _conquest_legal(d: State, seat: int, prov: str, used: list[str] | None = None) -> list[str]:
    """N4.11: Pillage, Occupy or Convert (D23); with ``conquest_options_per_conquest`` above 1,
    further different options may follow, or ``pass``."""
    used = used or []
    out = [a for a in _conquest_options(d, seat, prov) if a.split()[0] not in used]
    if used:
        out.append("pass")
    return out or ["pass"]


def _conquest_options(d: State, seat: int, prov: str) -> list[str]:
    out: list[str] = []
    double = B.has(d, seat, "hamilcar")
    for slot in B.built(d, prov):
        if D.building_kind(slot) == "legendary_city":
            picks = ["tax", "draw"]
            combos = (
                sorted({",".join(sorted(c)) for c in itertools.product(picks, repeat=2)}) if double else picks
            )
            out.extend(f"pillage {slot} {c}" for c in combos)
        else:
            out.append(f"pillage {slot}")
    free = B.free_legions(d, prov, seat)
    slots = [s for s in B.built(d, prov) if s not in d["occupy"].get(prov, {})]
    for k in range(1, min(free, len(slots)) + 1):
        out.extend("occupy " + "+".join(c) for c in itertools.combinations(slots, k))
    if free > 0 and d["on_marker"].get(prov) is None:
        out.append("convert")
    return out


_LEGAL: dict[str, Any] = {
    "assign": _assign_legal,
    "castor": _castor_legal,
    "trade_token": _trade_token_legal,
    "trade_size": _trade_size_legal,
    "trade_offer": _trade_offer_legal,
    "trade_starter": _trade_starter_legal,
    "trade_draft": _takes,
    "trade_give": _trade_give_legal,
    "buy_perseus": _perseus_legal,
    "buy_order": _buy_order_legal,
    "buy_turn": _buy_turn_legal,
    "buy_keep": _buy_keep_legal,
    "mil_zeus": _zeus_legal,
    "mil_order": _mil_order_legal,
    "mil_conv": _mil_conv_legal,
    "mil_row": _mil_row_legal,
    "mil_sea": _mil_sea_legal,
    "mil_march": _mil_march_legal,
    "mil_fight": _mil_fight_legal,
    "mil_circe": _mil_circe_legal,
    "tie_win": _tie_win_legal,
    "claim_tie": _claim_tie_legal,
}


# ---------------------------------------------------------------- applying


def play(d: State, action: str) -> None:
    """Apply a legal ``action`` (checked by the caller), then run what is automatic."""
    words = action.split()
    if to_move(d) == CHANCE:
        _chance_effect(d, words)
    elif d["queue"]:
        _queue_effect(d, words)
    else:
        _EFFECT[d["stage"]](d, words)
    advance(d)


def _chance_effect(d: State, w: list[str]) -> None:
    if d["queue"]:
        seat = int(d["queue"].pop(0)[1])
        d["pool"][w[1]] -= 1
        B.add_res(d, seat, "leg:" + w[1])
        return
    if d["battle"] is not None:
        bt = d["battle"]
        if bt["att_total"] is None:
            bt["att_total"] = int(w[1])
        else:
            bt["def_total"] = int(w[1])
            _resolve_battle(d)
        return
    if d["stage"] == "assign":
        d["empires"] = w[1].split(",")
        _setup_empires(d)
        return
    tile = w[1]
    d["facedown"].remove(tile)
    d["display"][d["display"].index(None)] = tile


def _queue_effect(d: State, w: list[str]) -> None:
    head = d["queue"].pop(0)
    kind, seat = head[0], int(head[1])
    if kind == "lc":
        if w[1] == "draw":
            d["queue"].insert(0, ["draw", seat])
        else:
            B.add_res(d, seat, "tax")
    elif kind == "colossus":
        B.add_res(d, seat, w[1])
    elif kind == "lose":
        prov, k = head[2], int(head[3])
        _remove_legion(d, prov, seat, w[1])
        if k > 1:
            d["queue"].insert(0, ["lose", seat, prov, k - 1])
    elif kind == "conquest":
        _conquest_effect(d, seat, head[2], w)
        used = (head[3] if len(head) > 3 else []) + [w[0]]
        limit = int(d["opts"]["conquest_options_per_conquest"])
        if w[0] != "pass" and len(used) < limit and d["conqueror"].get(head[2]) == seat:
            d["queue"].insert(0, ["conquest", seat, head[2], used])


def _remove_legion(d: State, prov: str, seat: int, which: str) -> None:
    """A hit removes one legion of ``seat``: a free one, the one on ``which`` or on the marker."""
    if which == "marker":
        del d["on_marker"][prov]
        d["pending"].pop(prov, None)
    elif which != "free":
        del d["occupy"][prov][which]
        if not d["occupy"][prov]:
            del d["occupy"][prov]
    B.move_unit(d, "legions", prov, seat, -1)
    _after_leave(d, prov, seat)


def _after_leave(d: State, prov: str, seat: int) -> None:
    """N4.10.3: the conqueror with no legion left loses the mark."""
    if d["conqueror"].get(prov) == seat and B.legions(d, prov)[seat] == 0:
        _lose_mark(d, prov)


def _lose_mark(d: State, prov: str) -> None:
    """N4.10.4: the pending conversion ends and the legion steps off the marker."""
    d["conqueror"].pop(prov, None)
    d["pending"].pop(prov, None)
    d["on_marker"].pop(prov, None)


def _enter(d: State, prov: str, seat: int) -> None:
    """N4.10.3: another player's legion entering or placed ends the mark."""
    con = d["conqueror"].get(prov)
    if con is not None and con != seat:
        _lose_mark(d, prov)


def _conquest_effect(d: State, seat: int, prov: str, w: list[str]) -> None:
    if w[0] == "pillage":
        slot = w[1]
        d["buildings"][prov].remove(slot)
        if not d["buildings"][prov]:
            del d["buildings"][prov]
        occ = d["occupy"].get(prov, {})
        if slot in occ:
            del occ[slot]
            if not occ:
                del d["occupy"][prov]
        times = 2 if B.has(d, seat, "hamilcar") else 1
        kind = D.building_kind(slot)
        if kind == "caravan":
            B.add_res(d, seat, slot.split(":")[1], times)
        elif kind in ("city", "capital"):
            B.add_res(d, seat, "tax", times)
        elif kind == "legendary_city":
            for pick in w[2].split(","):  # one pick, two with Hamilcar (legal list)
                if pick == "tax":
                    B.add_res(d, seat, "tax")
                else:
                    d["queue"].insert(0, ["draw", seat])
    elif w[0] == "occupy":
        for slot in w[1].split("+"):
            d["occupy"].setdefault(prov, {})[slot] = seat
    elif w[0] == "convert":
        d["on_marker"][prov] = seat
        d["pending"][prov] = [seat, d["round"]]
        if (
            B.has(d, seat, "queen_of_sheba")
            and B.connected(d, seat, prov, bool(d["opts"]["conversion_connection_by_trireme_chain"]))
            and B.supply(d, seat, "influence_marker") > 0
        ):
            _convert(d, seat, prov)


def _convert(d: State, seat: int, prov: str) -> None:
    """N4.12."""
    old = d["markers"][prov]
    d["markers"][prov] = seat
    d["occupy"].pop(prov, None)
    if d["fortresses"].get(prov) == old:
        del d["fortresses"][prov]
    d["conqueror"].pop(prov, None)
    d["pending"].pop(prov, None)
    d["on_marker"].pop(prov, None)


# ---- set-up and round start


def _assign_effect(d: State, w: list[str]) -> None:
    d["empires"][d["empires"].index(None)] = w[1]
    if None not in d["empires"]:
        _setup_empires(d)


def _castor_effect(d: State, w: list[str]) -> None:
    seat = int(d["castor"].pop(0))
    d["copy"][seat] = None if w[1] == "none" else w[1]
    if not d["castor"]:
        _production(d)


def _start_round(d: State) -> None:
    """N0.1, N0.12."""
    d["round"] += 1
    d["copy"] = [None] * d["n"]
    q = [s for s in range(d["n"]) if B.owns(d, s, "castor_pollux")]
    if q:
        d["castor"] = q
        d["stage"] = "castor"
    else:
        _production(d)


def _production(d: State) -> None:
    """N1 (skipped in round 1, S9)."""
    d.pop("castor", None)
    d["stage"] = "production"
    if d["round"] == 1:
        _trade_start(d)
        return
    gains: list[dict[str, int]] = [{} for _ in range(d["n"])]

    def gain(seat: int, tok: str, k: int = 1) -> None:
        gains[seat][tok] = gains[seat].get(tok, 0) + k

    queue: list[list[Any]] = []
    for prov in sorted(d["buildings"]):
        slots = d["buildings"][prov]
        ctl = {s: B.control(d, prov, s) for s in slots}
        for slot in slots:
            who = ctl[slot]
            if who is None:
                continue
            kind = D.building_kind(slot)
            if kind == "caravan":
                double = any(D.building_kind(x) == "market" and ctl[x] == who for x in slots)
                gain(who, slot.split(":")[1], 2 if double else 1)
            elif kind in ("city", "capital"):
                double = any(D.building_kind(x) == "temple" and ctl[x] == who for x in slots)
                gain(who, "tax", 2 if double else 1)
    lc_items: list[list[Any]] = []
    for prov in sorted(d["buildings"]):
        slots = d["buildings"][prov]
        for slot in slots:
            if D.building_kind(slot) != "legendary_city":
                continue
            who = B.control(d, prov, slot)
            if who is None:
                continue
            gain(who, "tax")
            lc_items.append(
                [who, any(D.building_kind(x) == "temple" and B.control(d, prov, x) == who for x in slots)]
            )
    for s in range(d["n"]):
        if B.has(d, s, "temple_of_artemis"):
            gain(s, "tax")
        for tok, k in sorted(gains[s].items()):
            B.add_res(d, s, tok, k)
    for who, temple in sorted(lc_items, key=lambda x: int(x[0])):
        queue.append(["draw", who])
        if temple:
            queue.append(["lc", who])
    queue.extend(["colossus", s] for s in range(d["n"]) if B.has(d, s, "colossus"))
    d["queue"] = queue
    d["stage"] = "trade_start"


# ---- trade (N2)


def _trade_start(d: State) -> None:
    d["stage"] = "trade_token"


def _trade_token_effect(d: State, w: list[str]) -> None:
    i = LETTERS.index(w[1])
    v = int(w[2])
    d["tokens_used"][i] = True
    if all(d["tokens_used"]):
        d["tokens_used"] = [False, False, False]
    t: dict[str, Any] = {
        "v": v,
        "token": [i, v],
        "parts": {},
        "offers": [[] for _ in range(d["n"])],
        "received": [[] for _ in range(d["n"])],
        "takes": [],
        "starter": None,
        "chooser": None,
        "revealed": False,
        "sizing": [],
    }
    d["trade"] = t
    for s in range(d["n"]):
        if B.has(d, s, "antigone") and v > 0 and B.n_tokens(d, s) > 0:
            t["sizing"].append(s)
        elif v > 0 and B.n_tokens(d, s) >= v:
            t["parts"][str(s)] = v
    d["stage"] = "trade_size" if t["sizing"] else "trade_offer"
    if not t["sizing"]:
        _trade_offers_ready(d)


def _trade_size_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    seat = int(t["sizing"].pop(0))
    if int(w[2]) > 0:
        t["parts"][str(seat)] = int(w[2])
    if not t["sizing"]:
        _trade_offers_ready(d)


def _trade_offers_ready(d: State) -> None:
    """N2.2.4: no trade if v = 0 or fewer than two take part."""
    t = d["trade"]
    if t["v"] == 0 or len(t["parts"]) < 2:
        _trade_close(d)
        return
    d["stage"] = "trade_offer"


def _trade_offer_effect(d: State, w: list[str]) -> None:
    seat = _next_offerer(d)
    t = d["trade"]
    B.add_res(d, seat, w[1], -1)
    t["offers"][seat].append(w[1])
    t["offers"][seat].sort()
    if all(len(t["offers"][int(s)]) == k for s, k in t["parts"].items()):
        t["revealed"] = True
        leader = d["titles"]["trade"]
        if str(leader) in t["parts"]:
            _trade_begin(d, int(leader))
        else:
            d["stage"] = "trade_starter"


def _trade_begin(d: State, starter: int) -> None:
    t = d["trade"]
    t["starter"] = starter
    t["chooser"] = starter
    d["stage"] = "trade_draft"


def _trade_starter_effect(d: State, w: list[str]) -> None:
    _trade_begin(d, int(w[1]))


def _take_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    c, x, tok = int(t["chooser"]), int(w[3]), w[1]
    t["offers"][x].remove(tok)
    t["received"][c].append(tok)
    t["received"][c].sort()
    t["takes"].append([c, x])
    t["chooser"] = x


def _draft_end(d: State) -> None:
    """N2.7-N2.9."""
    t = d["trade"]
    for s in range(d["n"]):
        for tok in t["offers"][s]:
            B.add_res(d, s, tok)
        t["offers"][s] = []
    starter = int(t["starter"])
    if int(t["chooser"]) != starter:
        for tok in t["received"][starter]:
            B.add_res(d, starter, tok)
        t["received"][starter] = []
        d["stage"] = "trade_give"
    else:
        _trade_close(d)


def _trade_give_effect(d: State, w: list[str]) -> None:
    t = d["trade"]
    B.add_res(d, int(t["starter"]), w[1], -1)
    t["received"][int(t["chooser"])].append(w[1])
    _trade_close(d)


def _trade_close(d: State) -> None:
    """N2.10, then the Buy phase."""
    t = d["trade"]
    for s in range(d["n"]):
        for tok in t["offers"][s] + t["received"][s]:
            B.add_res(d, s, tok)
    d["last_trade"] = {"v": t["v"], "token": t["token"]}
    d["trade"] = None
    _buy_start(d)


# ---- buy and place (N3)


def _buy_start(d: State) -> None:
    d["buy"] = {"done": [], "active": None, "first": [], "paying": None, "free_used": [], "perseus": []}
    owners = [s for s in range(d["n"]) if B.owns(d, s, "perseus")]
    copiers = [s for s in range(d["n"]) if d["copy"][s] == "perseus" and s not in owners]
    d["buy"]["perseus"] = owners + copiers
    d["stage"] = "buy_perseus" if d["buy"]["perseus"] else "buy_order"


def _perseus_effect(d: State, w: list[str]) -> None:
    bu = d["buy"]
    seat = int(bu["perseus"].pop(0))
    if w[1] == "yes":
        bu["first"].append(seat)  # N0.12: Perseus's owner first, then the copier
    if not bu["perseus"]:
        d["stage"] = "buy_order"


def _buy_order_effect(d: State, w: list[str]) -> None:
    _begin_buy_turn(d, int(w[1]))


def _begin_buy_turn(d: State, seat: int) -> None:
    bu = d["buy"]
    bu["active"] = seat
    bu["free_used"] = []
    d["stage"] = "buy_turn"


def _buy_turn_effect(d: State, w: list[str]) -> None:
    bu = d["buy"]
    seat = int(bu["active"])
    if w[0] == "pay":
        pay = bu["paying"]
        B.add_res(d, seat, w[1], -1)
        pay["paid"].append(w[1])
        if len(pay["paid"]) == int(pay["cost"]):
            for tok in pay["paid"]:
                if tok.startswith("leg:"):
                    _legendary_back(d, tok)
            item = pay["item"]
            d["last_payment"] = {"seat": seat, "item": item, "paid": sorted(pay["paid"])}
            bu["paying"] = None
            _place(d, seat, item.split())
        return
    if w[0] == "end":
        goods = [t for t in d["res"][seat] if t != "tax"]
        if B.has(d, seat, "hanging_gardens") and goods:
            d["stage"] = "buy_keep"
        else:
            _end_buy_turn(d, seat, [])
        return
    if w[0] == "free":
        bu["free_used"].append("hammurabi" if w[1] == "marker" else "penthesilea")
        _place(d, seat, w[1:])
        return
    item = " ".join(w[1:])
    if w[0] == "build":
        kind = D.building_kind(w[1])
        cost, pkind = D.COST[kind], "normal"
    elif w[1] == "tile":
        cost, pkind = _cost_tile(d, seat), "normal"
    elif w[1] == "pyramids":
        cost, pkind = int(d["opts"]["pyramids_cost"]), "normal"
    elif w[-1] == "cheap":
        cost, pkind = 1, "alt:" + D.ALT_COST[w[1]][1]
        item = " ".join(w[1:-1])
    else:
        cost, pkind = 3, "normal"
    bu["paying"] = {
        "item": ("build " if w[0] == "build" else "") + item,
        "cost": cost,
        "kind": pkind,
        "paid": [],
    }


def _legendary_back(d: State, tok: str) -> None:
    """N0.8.5 / R24: a spent or discarded legendary good returns to the pool (or leaves play)."""
    g = tok[4:]
    if d["opts"]["legendary_goods_recycle"]:
        d["pool"][g] = d["pool"].get(g, 0) + 1
    else:
        d["legendary_out"][g] = d["legendary_out"].get(g, 0) + 1


def _place(d: State, seat: int, w: list[str]) -> None:
    """Placement of a paid purchase or a free placement (N3.4-N3.12)."""
    if w[0] == "build":
        d["buildings"].setdefault(w[2], []).append(w[1])
        d["buildings"][w[2]].sort()
    elif w[0] == "marker":
        d["markers"][w[1]] = seat
    elif w[0] == "legion":
        _enter(d, w[1], seat)
        B.move_unit(d, "legions", w[1], seat, 1)
    elif w[0] == "trireme":
        B.move_unit(d, "triremes", w[1], seat, 1)
    elif w[0] == "fortress":
        d["fortresses"][w[1]] = seat
    elif w[0] == "tile":
        d["tiles"][seat].append(w[1])
        d["display"][d["display"].index(w[1])] = None
        if B.tiles_counted(d, seat) >= int(d["opts"]["tiles_to_win"]):
            _win(d, seat)
    elif w[0] == "pyramids":
        d["pyramids"] = seat
        _win(d, seat)


def _buy_keep_effect(d: State, w: list[str]) -> None:
    seat = int(d["buy"]["active"])
    _end_buy_turn(d, seat, [] if w[1] == "none" else w[1].split(","))


def _end_buy_turn(d: State, seat: int, keep: list[str]) -> None:
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
                _legendary_back(d, tok)
    if res.get("tax", 0) > int(d["opts"]["taxes_kept_end_of_turn"]):
        res["tax"] = int(d["opts"]["taxes_kept_end_of_turn"])
        if res["tax"] == 0:
            del res["tax"]
    bu = d["buy"]
    bu["done"].append(seat)
    bu["active"] = None
    d["stage"] = "buy_order"


# ---- military (N4)


def _mil_start(d: State) -> None:
    d["mil"] = {"done": [], "active": None, "arrived": {}, "fought": [], "zeus_q": [], "circe_used": []}
    d["zeus"] = []
    _checkpoint(d, None)
    d["mil"]["zeus_q"] = [s for s in range(d["n"]) if B.has(d, s, "statue_of_zeus")]
    d["stage"] = "mil_zeus" if d["mil"]["zeus_q"] else "mil_order"


def _checkpoint(d: State, active: int | None) -> None:
    """N4.10.2: conquests, the active player's first, then seat order."""
    seats = list(range(d["n"]))
    if active is not None:
        seats = [active] + [s for s in seats if s != active]
    for s in seats:
        for prov in D.board(d["n"]).province_ids:
            owner = d["markers"].get(prov)
            if owner is None or owner == s or d["conqueror"].get(prov) == s:
                continue
            if B.present(d, prov) == [s]:
                d["conqueror"][prov] = s
                d["queue"].append(["conquest", s, prov])


def _zeus_effect(d: State, w: list[str]) -> None:
    seat = int(d["mil"]["zeus_q"].pop(0))
    if w[1] != "none":
        d["zeus"].append([seat, int(w[1])])
    if not d["mil"]["zeus_q"]:
        d["stage"] = "mil_order"


def _mil_order_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    m.update(active=int(w[1]), arrived={}, fought=[])
    d["stage"] = "mil_conv"


def _mil_conv_effect(d: State, w: list[str]) -> None:
    if w[0] == "done":
        d["stage"] = "mil_row"
    else:
        _convert(d, int(d["mil"]["active"]), w[1])


def _mil_row_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_sea"
        return
    seat = int(m["active"])
    B.move_unit(d, "triremes", w[1], seat, -1)
    B.move_unit(d, "triremes", w[2], seat, 1)
    m["arrived"][w[2]] = m["arrived"].get(w[2], 0) + 1


def _mil_sea_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_march"
        m["arrived"] = {}
        return
    m["fought"].append(w[1])
    d["battle"] = {
        "kind": "sea",
        "where": w[1],
        "att": int(m["active"]),
        "def": int(w[2]),
        "att_total": None,
        "def_total": None,
    }


def _mil_march_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_fight"
        return
    seat = int(m["active"])
    src, dst = w[1], w[2]
    which = w[3][1:] if len(w) > 3 else "free"
    if which == "marker":
        del d["on_marker"][src]
        d["pending"].pop(src, None)
    elif which != "free":
        del d["occupy"][src][which]
        if not d["occupy"][src]:
            del d["occupy"][src]
    B.move_unit(d, "legions", src, seat, -1)
    _after_leave(d, src, seat)
    _enter(d, dst, seat)
    B.move_unit(d, "legions", dst, seat, 1)
    m["arrived"][dst] = m["arrived"].get(dst, 0) + 1


def _mil_fight_effect(d: State, w: list[str]) -> None:
    d["mil"]["fought"].append(f"{w[1]}:{w[2]}")
    d["battle"] = {
        "kind": "land",
        "where": w[1],
        "att": int(d["mil"]["active"]),
        "def": int(w[2]),
        "att_total": None,
        "def_total": None,
    }


def _dice(d: State, side: str) -> int:
    """N4.7.1-N4.7.2: one die per unit plus hero dice, capped by ``dice_per_side_cap``."""
    bt = d["battle"]
    seat = int(bt[side])
    if bt["kind"] == "sea":
        n = B.triremes(d, bt["where"])[seat]
    else:
        n = B.legions(d, bt["where"])[seat]
        if side == "att" and B.has(d, seat, "caesar"):
            n += 1
        if side == "def" and B.has(d, seat, "pericles"):
            n += 2
    if B.has(d, seat, "ramses_ii"):
        n += 1
    cap = d["opts"]["dice_per_side_cap"]
    return n if cap is None else min(n, int(cap))


def battle_hits(d: State) -> tuple[int, int]:
    """N4.7.3-N4.7.5: hits suffered by (attacker, defender) after fortress cancels."""
    bt = d["battle"]
    opts = d["opts"]
    totals = {"att": int(bt["att_total"]), "def": int(bt["def_total"])}
    fort = {"att": False, "def": False}
    if bt["kind"] == "land":
        prov = bt["where"]
        for side in ("att", "def"):
            seat = int(bt[side])
            if d["fortresses"].get(prov) == seat:
                totals[side] += int(opts["fortress_bonus"])
                fort[side] = True
            if B.has(d, seat, "nebuchadnezzar") and d["markers"].get(prov) == seat:
                totals[side] += 5
    div = int(opts["hit_divisor"])
    on_att = totals["def"] // div
    on_def = totals["att"] // div
    if fort["att"]:
        on_att = max(0, on_att - int(opts["fortress_cancels_hits"]))
    if fort["def"]:
        on_def = max(0, on_def - int(opts["fortress_cancels_hits"]))
    return on_att, on_def


def _resolve_battle(d: State) -> None:
    """N4.7.6-N4.7.7, N4.9."""
    bt = d["battle"]
    on_att, on_def = battle_hits(d)
    d["last_battle"] = dict(bt, hits=[on_att, on_def])
    d["battle"] = None
    where = bt["where"]
    for seat, hits in ((int(bt["att"]), on_att), (int(bt["def"]), on_def)):
        if bt["kind"] == "sea":
            k = min(hits, B.triremes(d, where)[seat])
            B.move_unit(d, "triremes", where, seat, -k)
            continue
        have = B.legions(d, where)[seat]
        k = min(hits, have)
        if hits > have and d["opts"]["fortress_removed_by_hits"] and d["fortresses"].get(where) == seat:
            del d["fortresses"][where]
        if k == 0:
            continue
        if k == have or placed_count(d, where, seat) == 0:
            _remove_all_or_free(d, where, seat, k)
        else:
            d["queue"].append(["lose", seat, where, k])


def placed_count(d: State, prov: str, seat: int) -> int:
    return B.placed(d, prov, seat)


def _remove_all_or_free(d: State, prov: str, seat: int, k: int) -> None:
    """Removal with no choice (R14 only matters when the units differ): free legions first,
    then, when every legion goes, the placed ones too."""
    for _ in range(k):
        if B.free_legions(d, prov, seat) > 0:
            _remove_legion(d, prov, seat, "free")
        elif d["on_marker"].get(prov) == seat:
            _remove_legion(d, prov, seat, "marker")
        else:
            slot = next(s for s, x in sorted(d["occupy"][prov].items()) if x == seat)
            _remove_legion(d, prov, seat, slot)


def _mil_circe_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    seat = int(m["active"])
    if w[0] == "circe":
        m["circe_used"].append(seat)
        B.move_unit(d, "legions", w[1], seat, -1)
        d["buildings"].setdefault(w[1], []).append(w[2])
        d["buildings"][w[1]].sort()
    m["done"].append(seat)
    m["active"] = None
    d["stage"] = "mil_order"


def _end_military(d: State) -> None:
    """N4.14 / N6.3 with N6.5.2."""
    d["mil"] = None
    d["zeus"] = []
    need = int(d["opts"]["capitals_to_win"])
    counts = [B.victory_cities(d, s) for s in range(d["n"])]
    best = max(counts)
    if best >= need:
        tied = [s for s in range(d["n"]) if counts[s] == best]
        if len(tied) == 1:
            _win(d, tied[0])
        else:
            d["tie"] = tied
            d["stage"] = "tie_win"
        return
    _claim_start(d)


def _tie_win_effect(d: State, w: list[str]) -> None:
    _win(d, int(w[1]))


# ---- claim (N5)


def _claim_start(d: State) -> None:
    d["claim"] = {"track": "trade", "tied": []}
    _claim_run(d)


def _claim_run(d: State) -> None:
    cl = d["claim"]
    order = list(D.TRACKS)
    while True:
        track = cl["track"]
        levels = [B.tracks(d, s)[track] for s in range(d["n"])]
        top = [s for s in range(d["n"]) if levels[s] == max(levels)]
        if len(top) == 1 or d["titles"][track] is None:
            _give_title(d, track, top[0])
        else:
            cl["tied"] = top
            d["stage"] = "claim_tie"
            return
        i = order.index(track)
        if i == len(order) - 1:
            break
        cl["track"] = order[i + 1]
    _claim_end(d)


def _give_title(d: State, track: str, seat: int) -> None:
    if track == "trade" and d["titles"]["trade"] != seat:
        d["tokens_used"] = [False, False, False]  # N5.3
    d["titles"][track] = seat


def _claim_tie_effect(d: State, w: list[str]) -> None:
    cl = d["claim"]
    _give_title(d, w[1], int(w[2]))
    order = list(D.TRACKS)
    i = order.index(w[1])
    if i == len(order) - 1:
        _claim_end(d)
        return
    cl["track"] = order[i + 1]
    cl["tied"] = []
    _claim_run(d)


def _claim_end(d: State) -> None:
    """N5.4 / N6.4, then the next round (or ``max_rounds``)."""
    d["claim"] = None
    holders = set(d["titles"].values())
    if len(holders) == 1 and None not in holders:
        _win(d, int(next(iter(holders))))
        return
    cap = d["opts"]["max_rounds"]
    if cap is not None and d["round"] >= int(cap):
        d["stage"] = "over"
        return
    _start_round(d)


def _win(d: State, seat: int) -> None:
    """N6: the game ends at once."""
    d["winner"] = seat
    d["stage"] = "over"
    d["queue"] = []
    d["battle"] = None


# ---------------------------------------------------------------- automatic progress


def advance(d: State) -> None:
    """Run automatic steps until a decision or a chance node is pending."""
    while d["stage"] != "over":
        if d["queue"]:
            head = d["queue"][0]
            if head[0] in ("draw", "lc") and sum(d["pool"].values()) == 0:
                d["queue"].pop(0)  # N1.7: an empty pool gives nothing; the temple extra is a tax
                if head[0] == "lc":
                    B.add_res(d, int(head[1]), "tax")
                continue
            return
        if d["battle"] is not None:
            return
        st = d["stage"]
        if st == "reveal":
            if None in d["display"] and d["facedown"]:
                return
            if d["after_reveal"] == "round":
                _start_round(d)
            else:
                _mil_start(d)
            continue
        if st == "trade_start":
            _trade_start(d)
            continue
        if st == "trade_draft" and not _takes(d):
            _draft_end(d)
            continue
        if st == "buy_order":
            bu = d["buy"]
            left = [s for s in range(d["n"]) if s not in bu["done"]]
            if not left:
                d["buy"] = None
                d["stage"] = "reveal"
                d["after_reveal"] = "military"
                continue
            firsts = [s for s in bu["first"] if s not in bu["done"]]
            if firsts:
                _begin_buy_turn(d, int(firsts[0]))
                continue
            if len(left) == 1:
                _begin_buy_turn(d, left[0])
                continue
            return
        if st == "mil_order":
            m = d["mil"]
            left = [s for s in range(d["n"]) if s not in m["done"]]
            if not left:
                _end_military(d)
                continue
            if len(left) == 1:
                _mil_order_effect(d, ["next", str(left[0])])
                continue
            return
        if st == "mil_fight" and not _mil_fight_legal(d):
            m = d["mil"]
            _checkpoint(d, int(m["active"]))
            d["stage"] = "mil_circe"
            continue
        if st == "mil_circe":
            seat = int(d["mil"]["active"])
            if not B.has(d, seat, "circe") or seat in d["mil"]["circe_used"] or not _circe_options(d, seat):
                _mil_circe_effect(d, ["done"])
                continue
            return
        return


def _draft_effect(d: State, w: list[str]) -> None:
    _take_effect(d, w)


_EFFECT: dict[str, Any] = {
    "assign": _assign_effect,
    "castor": _castor_effect,
    "trade_token": _trade_token_effect,
    "trade_size": _trade_size_effect,
    "trade_offer": _trade_offer_effect,
    "trade_starter": _trade_starter_effect,
    "trade_draft": _draft_effect,
    "trade_give": _trade_give_effect,
    "buy_perseus": _perseus_effect,
    "buy_order": _buy_order_effect,
    "buy_turn": _buy_turn_effect,
    "buy_keep": _buy_keep_effect,
    "mil_zeus": _zeus_effect,
    "mil_order": _mil_order_effect,
    "mil_conv": _mil_conv_effect,
    "mil_row": _mil_row_effect,
    "mil_sea": _mil_sea_effect,
    "mil_march": _mil_march_effect,
    "mil_fight": _mil_fight_effect,
    "mil_circe": _mil_circe_effect,
    "tie_win": _tie_win_effect,
    "claim_tie": _claim_tie_effect,
}
