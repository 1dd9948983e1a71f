"""The Military phase (N4.1-N4.6, N4.8, N4.13, N4.14; R9-R11, R19, R39, R40): the Statue of
Zeus (D15), the Military leader's order (D16) and each Military turn in its steps: conversions
(D17), trireme moves (D18), sea battles (D19), legion moves (D20), land battles (D21), the
conquest checkpoint and Circe (D24). Battles are in ``battle``, conquests in ``conquest``."""

from __future__ import annotations

from typing import Any, Final

from ziggurat.games.mare_nostrum import battle, claim, conquest, victory
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

State = dict[str, Any]


def mil_start(d: State) -> None:
    """N4.1.2-N4.1.3: the checkpoint, then Zeus, then the order."""
    d["mil"] = {"done": [], "active": None, "arrived": {}, "fought": [], "zeus_q": [], "circe_used": []}
    d["zeus"] = []
    d.pop("last_battle", None)  # battles shown are this phase's
    conquest.checkpoint(d, None)
    d["mil"]["zeus_q"] = [s for s in range(d["n"]) if B.has(d, s, "statue_of_zeus")]
    d["stage"] = "mil_zeus" if d["mil"]["zeus_q"] else "mil_order"


def zeus_legal(d: State) -> list[str]:
    """D15 / N4.1.3."""
    seat = int(d["mil"]["zeus_q"][0])
    return ["zeus none"] + [f"zeus {s}" for s in range(d["n"]) if s != seat]


def zeus_effect(d: State, w: list[str]) -> None:
    seat = int(d["mil"]["zeus_q"].pop(0))
    if w[1] != "none":
        d["zeus"] = [*d["zeus"], [seat, int(w[1])]]  # a new list: clones share it
    if not d["mil"]["zeus_q"]:
        d["stage"] = "mil_order"


def order_legal(d: State) -> list[str]:
    """D16 / N4.1.1, N0.10."""
    return [f"next {s}" for s in range(d["n"]) if s not in d["mil"]["done"]]


def order_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    m.update(active=int(w[1]), arrived={}, fought=[])
    d["stage"] = "mil_conv"


# ---- step (a): conversions (N4.3)


def conv_legal(d: State) -> list[str]:
    seat = int(d["mil"]["active"])
    return ["done"] + [f"convert {p}" for p in sorted(d["pending"]) if conquest.conversion_ok(d, seat, p)]


def conv_effect(d: State, w: list[str]) -> None:
    if w[0] == "done":
        d["stage"] = "mil_row"
    else:
        conquest.convert(d, int(d["mil"]["active"]), w[1])


# ---- steps (b) and (c): triremes and sea battles (N4.4, N4.5)


def row_legal(d: State) -> list[str]:
    """D18: each trireme moves at most once, to an adjacent sea."""
    m: dict[str, Any] = d["mil"]
    seat: int = m["active"]  # typed reads, not calls of int()
    b = D.board(d["n"])
    out = ["done"]
    triremes: dict[str, list[int]] = d["triremes"]
    arrived: dict[str, int] = m["arrived"]
    rows = _row_texts(d["n"])
    for sea in b.sea_ids:
        fleet = triremes.get(sea)  # B.triremes: no row, no triremes
        if fleet is not None and fleet[seat] - arrived.get(sea, 0) > 0:
            out.extend(rows[sea])
    return out


_ROW_TEXTS: Final[dict[int, dict[str, tuple[str, ...]]]] = {}


def _row_texts(n: int) -> dict[str, tuple[str, ...]]:
    """Each sea's ``row`` actions to its neighbours in name order (D18), made once per board."""
    found = _ROW_TEXTS.get(n)
    if found is None:
        b = D.board(n)
        found = _ROW_TEXTS[n] = {
            sea: tuple(f"row {sea} {to}" for to in sorted(b.seas[sea]["seas"])) for sea in b.sea_ids
        }
    return found


def row_effect(d: State, w: list[str]) -> None:
    m: dict[str, Any] = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_sea"
        return
    seat: int = m["active"]  # a typed read, not a call of int()
    B.move_unit(d, "triremes", w[1], seat, -1)
    B.move_unit(d, "triremes", w[2], seat, 1)
    m["arrived"][w[2]] = m["arrived"].get(w[2], 0) + 1


def sea_legal(d: State) -> list[str]:
    """D19 / R10: one optional battle per sea, against one opponent there."""
    m: dict[str, Any] = d["mil"]
    seat: int = m["active"]
    out = ["done"]
    for sea in D.board(d["n"]).sea_ids:
        row = B.triremes(d, sea)
        if row[seat] == 0 or sea in m["fought"]:
            continue
        out.extend(f"seabattle {sea} {x}" for x in range(d["n"]) if x != seat and row[x] > 0)
    return out


def sea_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_march"
        m["arrived"] = {}
        return
    m["fought"].append(w[1])
    battle.start(d, "sea", w[1], int(m["active"]), int(w[2]))


# ---- steps (d) and (e): legion moves and land battles (N4.6, N4.8)


def zeus_barred(d: State, seat: int, prov: str) -> bool:
    """N4.1.3: a named player may not move by trireme chain into the owner's province."""
    return any(named == seat and d["markers"].get(prov) == owner for owner, named in d["zeus"])


_MARCH_TEXTS: Final[dict[tuple[int, str, str], tuple[str, ...]]] = {}
"""The ``march`` actions of a legion of ``prov`` (``who``: ``""``, `` @<slot>`` or `` @marker``)
to each land neighbour, in name order, by player count: the same on every call, made once."""


def _march_texts(n: int, prov: str, who: str) -> tuple[str, ...]:
    key = (n, prov, who)
    found = _MARCH_TEXTS.get(key)
    if found is None:
        found = _MARCH_TEXTS[key] = tuple(f"march {prov} {q}{who}" for q in D.board(n).land_sorted[prov])
    return found


class _Sailing:
    """Where ``seat``'s legions may sail to from each province (N4.6.2, N4.1.3), and those
    actions' texts, for one ``triremes``, ``markers`` and ``zeus`` table: none of them changes
    while legions march, and each is replaced whole when it changes (``board.move_unit``,
    ``board.put``), so the answers for the same three tables are kept."""

    __slots__ = ("tables", "targets", "chains", "texts", "segments")

    def __init__(self, tables: tuple[Any, Any, Any]) -> None:
        self.tables = tables
        self.targets: dict[str, list[str]] = {}
        self.chains: dict[str, frozenset[str]] = {}
        self.texts: dict[tuple[str, str], list[str]] = {}
        self.segments: dict[tuple[str, bool, tuple[str, ...], bool], list[str]] = {}
        """A province's moves (:func:`_march_segment`) by the legions there that may move: the
        march step changes those of two provinces, the rest are read again."""


_SAILING: Final[dict[int, _Sailing]] = {}
"""The last :class:`_Sailing` of each seat."""


def _sail_targets(d: State, seat: int, prov: str, sailing: _Sailing) -> list[str]:
    """The coasts ``seat``'s trireme chains from ``prov``'s seas reach (N4.6.2), ``prov`` and
    the provinces of owners who named him with Zeus (N4.1.3) left out, in name order."""
    found = sailing.targets.get(prov)
    if found is not None:
        return found
    b = D.board(d["n"])
    triremes = d["triremes"]
    shore = b.shore
    chain = sailing.chains
    shores: set[str] = set()
    for start in b.provinces[prov]["seas"]:
        fleet = triremes.get(start)
        if fleet is None or fleet[seat] <= 0:
            continue
        seas = chain.get(start)
        if seas is None:
            seas = frozenset(B.sea_reach_from(d, seat, start))
            for sea in seas:
                chain[sea] = seas
        for sea in seas:
            shores.update(shore[sea])
    shores.discard(prov)
    barred = {owner for owner, named in d["zeus"] if named == seat}  # N4.1.3
    markers = d["markers"]
    found = sailing.targets[prov] = sorted([q for q in shores if not barred or markers.get(q) not in barred])
    return found


def march_legal(d: State) -> list[str]:
    """D20: each legion moves at most once, a land step or a trireme chain (R39).

    Asked after every move: the land steps' texts are made once per board
    (:func:`_march_texts`), and where legions may sail, with those texts, once per trireme
    fleet, map of markers and Zeus pairs (:class:`_Sailing`); so is each province's share of
    the list, by which of its legions may move (a move changes two provinces' shares).
    """
    m: dict[str, Any] = d["mil"]
    seat: int = m["active"]
    out = ["done"]
    legions: dict[str, list[int]] = d["legions"]
    occupy: dict[str, dict[str, int]] = d["occupy"]
    on_marker: dict[str, int] = d["on_marker"]
    arrived: dict[str, int] = m["arrived"]
    triremes, markers, zeus = d["triremes"], d["markers"], d["zeus"]
    sailing = _SAILING.get(seat)
    if sailing is None or (
        sailing.tables[0] is not triremes or sailing.tables[1] is not markers or sailing.tables[2] is not zeus
    ):
        sailing = _SAILING[seat] = _Sailing((triremes, markers, zeus))
    segments = sailing.segments
    for prov in sorted([p for p, row in legions.items() if row[seat]]):  # his provinces, in name order
        occ = occupy.get(prov)
        mine: tuple[str, ...] = tuple([slot for slot, s in sorted(occ.items()) if s == seat]) if occ else ()
        on = on_marker.get(prov) == seat
        # free legions (B.free_legions) not arrived this turn: those on buildings or the marker are placed
        free = legions[prov][seat] - len(mine) - int(on) - arrived.get(prov, 0) > 0
        key = (prov, free, mine, on)
        segment = segments.get(key)
        if segment is None:
            segment = segments[key] = _march_segment(d, seat, prov, free, mine, on, sailing)
        out.extend(segment)
    return out


def _march_segment(
    d: State, seat: int, prov: str, free: bool, mine: tuple[str, ...], on: bool, sailing: _Sailing
) -> list[str]:
    """The moves of ``seat``'s legions in ``prov`` (D20): a free one (``free``), the ones on the
    buildings ``mine`` and the one on the marker (``on``), each a land step or a sail."""
    n = d["n"]
    movers = [""] if free else []
    movers.extend([f" @{slot}" for slot in mine])
    if on:
        movers.append(" @marker")
    out: list[str] = []
    texts = sailing.texts
    for who in movers:
        out.extend(_march_texts(n, prov, who))
        sail = texts.get((prov, who))
        if sail is None:
            head = f"sail {prov} "
            sail = texts[prov, who] = [f"{head}{q}{who}" for q in _sail_targets(d, seat, prov, sailing)]
        out.extend(sail)
    return out


def march_effect(d: State, w: list[str]) -> None:
    m: dict[str, Any] = d["mil"]
    if w[0] == "done":
        d["stage"] = "mil_fight"
        return
    seat: int = m["active"]
    src, dst = w[1], w[2]
    which = w[3][1:] if len(w) > 3 else "free"
    if which == "marker":
        B.drop(d, "on_marker", src)
        B.drop(d, "pending", src)
    elif which != "free":
        B.unoccupy(d, src, which)
    B.move_unit(d, "legions", src, seat, -1)
    conquest.after_leave(d, src, seat)
    conquest.enter(d, dst, seat)
    B.move_unit(d, "legions", dst, seat, 1)
    m["arrived"][dst] = m["arrived"].get(dst, 0) + 1


def fights(d: State, seat: int) -> list[str]:
    """N4.8: one battle per province and opponent present, each turn (R11)."""
    out: list[str] = []
    done: list[str] = d["mil"]["fought"] if d["mil"] else []
    legions: dict[str, list[int]] = d["legions"]
    n: int = d["n"]
    # the provinces where the seat's legions meet another seat's (counts are never negative)
    contested: list[str] = []
    for prov, row in legions.items():
        if row[seat] > 0 and row.count(0) < n - 1:
            contested.append(prov)
    if not contested:
        return out
    contested.sort()  # in name order
    for prov in contested:
        row = legions[prov]
        for x in range(n):
            if x != seat and row[x] > 0:
                fought = f"{prov}:{x}"
                if fought not in done:
                    out.append(f"fight {prov} {x}")
    return out


def fight_legal(d: State) -> list[str]:
    """D21: the order of the compulsory land battles."""
    return fights(d, int(d["mil"]["active"]))


def fight_effect(d: State, w: list[str]) -> None:
    d["mil"]["fought"].append(f"{w[1]}:{w[2]}")
    battle.start(d, "land", w[1], int(d["mil"]["active"]), int(w[2]))


# ---- step (g): Circe (N4.13), and the end of the phase (N4.14)


def circe_options(d: State, seat: int) -> list[str]:
    """N4.13: a legion of a clear own province becomes a caravan there (one must be left in
    the building supply, N0.9)."""
    out: list[str] = []
    if not B.building_left(d, "caravan"):
        return out
    for prov in B.own_provinces(d, seat):
        if B.at_war(d, prov) or prov in d["conqueror"] or B.free_legions(d, prov, seat) == 0:
            continue
        for slot in D.board(d["n"]).slots(prov):
            if slot.startswith("caravan:") and slot not in B.built(d, prov):
                out.append(f"circe {prov} {slot}")
    return out


def circe_legal(d: State) -> list[str]:
    return ["done"] + circe_options(d, int(d["mil"]["active"]))


def circe_effect(d: State, w: list[str]) -> None:
    m = d["mil"]
    seat = int(m["active"])
    if w[0] == "circe":
        m["circe_used"].append(seat)
        B.move_unit(d, "legions", w[1], seat, -1)
        B.put(d, "buildings", w[1], sorted([*d["buildings"].get(w[1], ()), w[2]]))
    m["done"].append(seat)
    m["active"] = None
    d["stage"] = "mil_order"


def end_military(d: State) -> None:
    """N4.14 / N6.3 with N6.5.2, then the Claim phase. With ``capitals_victory_check:
    "at_once"`` N6.3 was checked after every action already (a tie under
    ``most_capitals_then_play_on`` is checked again here, and wins nothing)."""
    d["mil"] = None
    d["zeus"] = []
    if not victory.capitals_check(d):
        claim.claim_start(d)
