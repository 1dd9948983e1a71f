"""Military judgement for Mare Nostrum's heuristic bot (``bots.py``): battle odds, threats,
what a province is worth and the purchases a military plan needs.

Battle odds follow the combat rules exactly (N4.7, ``battle.py``): one die per unit (Caesar
+1 to the attacker, Pericles +2 to the defender, Ramses II +1, ``dice_per_side_cap``), each
side's total with the fortress bonus and Nebuchadnezzar, one hit per ``hit_divisor`` points,
a fortress cancelling ``fortress_cancels_hits``. A land attack is judged over two battles
(the attacker's turn and the defender's, N4.8), a sea battle over one (N4.5). The exact
distribution of a side's hits is a convolution of its dice, cached by its parameters, so a
decision costs a few dictionary lookups once the cache is warm (the bot is also the playout
policy of the search).

The plan (:func:`plan`) is worked out once per buy decision: legions where an own province
is threatened beyond what its garrison holds (land neighbours and landings along the enemy's
trireme chains, N4.6), triremes in the seas where an enemy fleet carries a landing onto an
own coast (to sink it, N4.5), and for the best attack (a capital or legendary city first, then
production) the legions and at most one trireme to close the chain it needs, when the odds
and the gain outweigh the expected losses and the budget covers it this turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum.buy_place import allowance
from ziggurat.games.mare_nostrum.payment import good_of

State = dict[str, Any]

# What a province's buildings are worth to whoever holds or takes it, in legions (a legion
# and a building both cost 3 resources): capitals and legendary cities count towards N6.3,
# caravans and markets produce, cities and temples only help.
GAIN = {"capital": 3.0, "legendary_city": 3.0, "caravan": 1.0, "market": 1.0, "city": 0.5, "temple": 0.5}
WIN_TO_ATTACK = 0.6  # least odds of clearing a province for a legion to march in
DEFEND_RISK = 0.35  # a province is defended once an attack on it would win less often
LANDING_RISK = 0.2  # a fleet carrying a landing that would win this often is worth sinking


@lru_cache(maxsize=4096)
def _hit_dist(n_dice: int, faces: tuple[int, ...], bonus: int, div: int, cancel: int) -> tuple[float, ...]:
    """P(hits = k) for one side rolling ``n_dice`` (N4.7.3-N4.7.5)."""
    sums = {0: 1.0}
    p = 1.0 / len(faces)
    for _ in range(n_dice):
        nxt: dict[int, float] = {}
        for total, q in sums.items():
            qp = q * p  # the same product for every face
            for f in faces:
                nxt[total + f] = nxt.get(total + f, 0.0) + qp
        sums = nxt
    hits: dict[int, float] = {}
    for total, q in sums.items():
        h = max(0, (total + bonus) // div - cancel)
        hits[h] = hits.get(h, 0.0) + q
    return tuple(hits.get(k, 0.0) for k in range(max(hits) + 1))


@lru_cache(maxsize=65536)
def odds(
    att: int,
    dfn: int,
    att_extra: int,
    dfn_extra: int,
    att_bonus: int,
    dfn_bonus: int,
    att_cancel: int,
    dfn_cancel: int,
    faces: tuple[int, ...],
    div: int,
    cap: int,
    rounds: int,
) -> tuple[float, float, float]:
    """(odds the attacker clears the defender and keeps a unit, expected attacker losses,
    expected defender losses) over ``rounds`` battles between ``att`` and ``dfn`` units."""
    states = {(att, dfn): 1.0}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (a, b), q in states.items():
            if a == 0 or b == 0:
                nxt[(a, b)] = nxt.get((a, b), 0.0) + q
                continue
            on_b = _hit_dist(min(a + att_extra, cap), faces, att_bonus, div, dfn_cancel)
            on_a = _hit_dist(min(b + dfn_extra, cap), faces, dfn_bonus, div, att_cancel)
            # the same sums in the same order as q * pa * pb over (hb, ha), with each
            # q * pa and the survivors worked out once rather than once per hb
            left_a = [a - ha if ha < a else 0 for ha in range(len(on_a))]
            q_a = [q * pa for pa in on_a]
            for hb, pb in enumerate(on_b):
                left_b = b - hb if hb < b else 0
                for ha, qa in enumerate(q_a):
                    key = (left_a[ha], left_b)
                    nxt[key] = nxt.get(key, 0.0) + qa * pb
        states = nxt
    win = sum(q for (a, b), q in states.items() if b == 0 and a > 0)
    lost = sum(q * (att - a) for (a, _b), q in states.items())
    killed = sum(q * (dfn - b) for (_a, b), q in states.items())
    return win, lost, killed


def _rules(d: State) -> tuple[tuple[int, ...], int, int]:
    opts = d["opts"]
    cap = opts["dice_per_side_cap"]
    return tuple(opts["die_faces"]), int(opts["hit_divisor"]), 1 << 20 if cap is None else int(cap)


def land_odds(
    d: State, att_seat: int, att: int, dfn_seat: int, dfn: int, prov: str
) -> tuple[float, float, float]:
    """:func:`odds` of ``att`` legions of ``att_seat`` attacking ``dfn`` of ``dfn_seat`` in
    ``prov``, with the heroes, fortress and Nebuchadnezzar of ``battle.py``."""
    return odds(att, dfn, *_land_terms(d, att_seat, dfn_seat, prov))


def _land_terms(
    d: State, att_seat: int, dfn_seat: int, prov: str
) -> tuple[int, int, int, int, int, int, tuple[int, ...], int, int, int]:
    """The arguments of :func:`odds` after the unit counts, for a land battle in ``prov``
    (:func:`land_odds`): the same for every force, so a scan over forces reads them once."""
    faces, div, cap = _rules(d)
    opts = d["opts"]
    tiles = d["tiles"]
    copy = d["copy"]
    fort = d["fortresses"].get(prov)
    owner = d["markers"].get(prov)
    att, dfn = tiles[att_seat], tiles[dfn_seat]
    att_copy, dfn_copy = copy[att_seat], copy[dfn_seat]
    # B.has, read inline: this is asked for every battle a plan or a march weighs
    att_extra = (1 if "ramses_ii" in att or att_copy == "ramses_ii" else 0) + (
        1 if "caesar" in att or att_copy == "caesar" else 0
    )
    dfn_extra = (1 if "ramses_ii" in dfn or dfn_copy == "ramses_ii" else 0) + (
        2 if "pericles" in dfn or dfn_copy == "pericles" else 0
    )
    att_bonus = dfn_bonus = att_cancel = dfn_cancel = 0
    if fort is not None:
        if fort == att_seat:
            att_bonus, att_cancel = int(opts["fortress_bonus"]), int(opts["fortress_cancels_hits"])
        if fort == dfn_seat:
            dfn_bonus, dfn_cancel = int(opts["fortress_bonus"]), int(opts["fortress_cancels_hits"])
    if owner == att_seat and ("nebuchadnezzar" in att or att_copy == "nebuchadnezzar"):
        att_bonus += 5
    if owner == dfn_seat and ("nebuchadnezzar" in dfn or dfn_copy == "nebuchadnezzar"):
        dfn_bonus += 5
    return att_extra, dfn_extra, att_bonus, dfn_bonus, att_cancel, dfn_cancel, faces, div, cap, 2


def sea_odds(d: State, att_seat: int, att: int, dfn_seat: int, dfn: int) -> tuple[float, float, float]:
    """:func:`odds` of one sea battle (N4.5): triremes and Ramses II only."""
    faces, div, cap = _rules(d)
    extra = [1 if B.has(d, s, "ramses_ii") else 0 for s in (att_seat, dfn_seat)]
    return odds(att, dfn, extra[0], extra[1], 0, 0, 0, 0, faces, div, cap, 1)


def worth(d: State, prov: str) -> float:
    """A province's worth in legions: 1 for the province, plus its buildings (:data:`GAIN`)."""
    got = worths(d).get(prov)
    return 1.0 if got is None else got


_WORTHS: list[tuple[Any, dict[str, float]]] = [(None, {})]
"""The last :func:`worths` answer, one pair stored at once: the ``buildings`` table read."""


def worths(d: State) -> dict[str, float]:
    """:func:`worth` of every province with a building (read only; the rest are worth 1),
    worked out once per ``buildings`` table: play replaces it whole whenever it changes
    (``board.put``), and a playout's views share the state's."""
    buildings = d["buildings"]
    seen, got = _WORTHS[0]
    if seen is not buildings:
        got = {
            p: 1.0 + sum(GAIN.get(D.building_kind(slot), 0.0) for slot in slots)
            for p, slots in buildings.items()
        }
        _WORTHS[0] = (buildings, got)
    return got


class Reach:
    """Per decision: each seat's trireme reach from its coasts (N4.6.2), computed on demand."""

    __slots__ = ("d", "seas", "shipped", "garrisons", "carried", "others")

    def __init__(self, d: State) -> None:
        self.d = d
        self.seas: dict[int, set[str]] = {}
        self.shipped: dict[int, list[tuple[str, int]]] = {}
        self.garrisons: dict[tuple[int, str], int] = {}  # memo of :func:`garrison`
        self.carried: dict[int, tuple[int, dict[str, int]]] = {}  # memo of :meth:`carries`
        self.others: dict[int, list[tuple[int, set[str], int, dict[str, int]]]] = {}  # :meth:`fleets`

    def of(self, seat: int) -> set[str]:
        got = self.seas.get(seat)
        if got is None:
            provinces = D.board(self.d["n"]).provinces
            coasts = [p for p, s in self.d["legions"].items() if s[seat] > 0 and provinces[p]["seas"]]
            got = self.seas[seat] = B.sea_reach(self.d, seat, coasts)
        return got

    def afloat(self, seat: int) -> list[tuple[str, int]]:
        """(province, legions) of ``seat`` that its trireme chains could carry (N4.6.2)."""
        got = self.shipped.get(seat)
        if got is None:
            b = D.board(self.d["n"])
            seas = self.of(seat)
            got = self.shipped[seat] = [
                (p, row[seat])
                for p, row in sorted(self.d["legions"].items())
                if row[seat] > 0 and any(x in seas for x in b.provinces[p]["seas"])
            ]
        return got

    def carries(self, seat: int) -> tuple[int, dict[str, int]]:
        """:meth:`afloat` as the legions in all and per province: a threat counts them all
        but those of a few provinces (subtracted)."""
        got = self.carried.get(seat)
        if got is None:
            seas = self.of(seat)
            where: dict[str, int] = {}
            if seas:  # no chain carries anything
                provinces = D.board(self.d["n"]).provinces
                for p, row in self.d["legions"].items():
                    if row[seat] > 0:
                        for x in provinces[p]["seas"]:
                            if x in seas:
                                where[p] = row[seat]
                                break
            got = self.carried[seat] = (sum(where.values()), where)
        return got

    def fleets(self, seat: int) -> list[tuple[int, set[str], int, dict[str, int]]]:
        """The other seats whose trireme chains carry legions: (seat, the seas reached,
        :meth:`carries`), once per decision (every own coast's threat reads them)."""
        got = self.others.get(seat)
        if got is None:
            got = []
            for s in range(self.d["n"]):
                if s != seat:
                    seas = self.of(s)
                    if seas:
                        total, where = self.carries(s)
                        if total:
                            got.append((s, seas, total, where))
            self.others[seat] = got
        return got


def threat(d: State, seat: int, prov: str, reach: Reach) -> tuple[int, int]:
    """(the opponent, his legions) that could attack ``prov`` next Military phase: legions
    already there, on land neighbours and, for a coastal province, in coastal provinces
    along his trireme chains (N4.6); the strongest single opponent (a battle is against
    one, N4.8). (-1, 0) when none."""
    n = d["n"]
    area = D.board(n).provinces[prov]
    land = area["land"]
    table = d["legions"]
    per = [0] * n
    row = table.get(prov)
    if row is not None:
        per = list(row)
    for p in land:
        row = table.get(p)
        if row is not None:
            for s in range(n):
                per[s] += row[s]
    seas = area["seas"]
    if seas:
        for s, mine, total, where in reach.fleets(seat):
            for sea in seas:
                if sea in mine:
                    break
            else:
                continue
            # his carried legions but those already counted (here and next door)
            total -= where.get(prov, 0)
            for p in land:
                total -= where.get(p, 0)
            per[s] += total
    per[seat] = 0
    who, most = 0, per[0]
    for s in range(1, n):
        if per[s] > most:  # ties: the lowest seat
            who, most = s, per[s]
    return (who, most) if most else (-1, 0)


def garrison(d: State, seat: int, prov: str, reach: Reach) -> int:
    """Legions ``prov`` (an own province) needs against its threat: the fewest with which an
    attack wins less than :data:`DEFEND_RISK` of the time (at most what the threat has)."""
    got = reach.garrisons.get((seat, prov))
    if got is None:
        got = 0
        enemy, n = threat(d, seat, prov, reach)
        if n:
            got = _hold(n, _land_terms(d, enemy, seat, prov))
        reach.garrisons[(seat, prov)] = got
    return got


_GARRISONS: dict[tuple[Any, ...], tuple[Any, dict[str, int]]] = {}
GARRISON_MEMORY = 4096
"""Garrisons remembered (:func:`garrisons`; at most this many, then it starts afresh)."""


def garrisons(d: State, seat: int, reach: Reach) -> dict[str, int]:
    """:func:`garrison` of every own province (read only), also kept in ``reach``.

    A garrison reads the other seats' units (their legions, and the triremes that carry them),
    the seat's provinces, the fortresses and the heroes, never the seat's own legions or
    triremes (a threat is the strongest opponent's, N4.8): the seat's purchases and marches
    leave them as they are, so they are remembered by what they read (the game's options by
    identity, kept alive with them) and found again at the seat's next decision."""
    opts = d["opts"]
    own = B.owned(d, seat)
    key = (
        seat,
        d["n"],
        id(opts),
        tuple(own),
        _others(d["legions"], seat),
        _others(d["triremes"], seat),
        tuple(d["fortresses"].items()),
        tuple([tuple(t) for t in d["tiles"]]),
        tuple(d["copy"]),
    )
    got = _GARRISONS.get(key)
    if got is None:
        found = {prov: garrison(d, seat, prov, reach) for prov in own}
        if len(_GARRISONS) >= GARRISON_MEMORY:
            _GARRISONS.clear()
        got = _GARRISONS[key] = (opts, found)
    else:
        for prov, need in got[1].items():
            reach.garrisons[(seat, prov)] = need
    return got[1]


def _others(table: dict[str, list[int]], seat: int) -> tuple[tuple[Any, ...], ...]:
    """A unit table's rows without ``seat``'s column, where another seat has units."""
    return tuple([(p, *row[:seat], *row[seat + 1 :]) for p, row in table.items() if sum(row) != row[seat]])


@lru_cache(maxsize=16384)
def _hold(n: int, terms: tuple[Any, ...]) -> int:
    """The fewest defenders (at most ``n``) that ``n`` attackers beat less than
    :data:`DEFEND_RISK` of the time, the battle's other terms (:func:`_land_terms`) given."""
    got = 0
    while got < n and odds(n, got, *terms)[0] >= DEFEND_RISK:
        got += 1
    return got


def budget(d: State, seat: int) -> int:
    """Purchases of 3 the seat's screen can still pay one after another, by the payment rules
    and the readings of Hannibal and Cleopatra in force (N0.8.1, N0.8.3, R28)."""
    res: dict[str, int] = d["res"][seat] or {}
    return payments(res, 3, allowance(d, seat))


def payments(tokens: dict[str, int], cost: int, allow: P.Allowance) -> int:
    """:func:`_payments`, remembered by the tokens held (the same screens recur from one buy
    decision and one playout to the next)."""
    return _payments(tuple(sorted(tokens.items())), cost, allow)


@lru_cache(maxsize=8192)
def _payments(screen: tuple[tuple[str, int], ...], cost: int, allow: P.Allowance) -> int:
    """How many payments of ``cost`` the ``tokens`` (token -> count) make one after another,
    each built the way the bot pays (``HeuristicBot.s_pay``): goods of the most-held type
    first, taxes last, every token one the engine's payment rules (``payment.can_finish``)
    still let complete. Without a hero this is the best split (the most-held types first),
    counted directly: the most payments ``m`` of distinct goods, where each type gives at most
    ``m`` goods, plus the payments in taxes (the bot's plan is worked out every buy decision)."""
    tokens = dict(screen)
    if allow == P.PLAIN:
        types: dict[str | None, int] = {}
        for t, c in tokens.items():
            types[good_of(t)] = types.get(good_of(t), 0) + c
        taxes = types.pop(None, 0)
        most = sum(types.values()) // cost
        while most and sum(min(c, most) for c in types.values()) < cost * most:
            most -= 1
        return most + taxes // cost
    left = {t: c for t, c in tokens.items() if c > 0}
    count = 0
    while sum(left.values()) >= cost and P.can_finish([], left, cost, "normal", allow):
        paid: list[str] = []
        while len(paid) < cost:
            held: dict[str | None, int] = {}
            for t, c in left.items():
                held[good_of(t)] = held.get(good_of(t), 0) + c
            for tok in sorted(left, key=lambda t: (t == "tax", -held[good_of(t)], t)):
                if left[tok] == 0:
                    continue
                left[tok] -= 1
                if P.can_finish([*paid, tok], left, cost - len(paid) - 1, "normal", allow):
                    paid.append(tok)
                    break
                left[tok] += 1
        count += 1
    return count


class Attack:
    """An attack the plan prepares: from ``staging`` (own, or a chain's start) into
    ``target`` against ``defenders`` of ``enemy``, needing ``legions`` more bought in
    ``staging`` and a trireme in ``sea`` (None: the way is open), for ``value`` legions."""

    __slots__ = ("target", "staging", "enemy", "defenders", "legions", "sea", "value")

    def __init__(
        self,
        target: str,
        staging: str,
        enemy: int,
        defenders: int,
        legions: int,
        sea: str | None,
        value: float,
    ) -> None:
        self.target = target
        self.staging = staging
        self.enemy = enemy
        self.defenders = defenders
        self.legions = legions
        self.sea = sea
        self.value = value


def attack_value(d: State, seat: int, force: int, target: str) -> tuple[float, float]:
    """(value in legions, odds of clearing) of attacking ``target`` with ``force`` legions:
    the odds times the province's worth, plus the enemy legions killed, less the own
    legions expected lost. An undefended enemy province is taken for its worth."""
    return _attack_value(_attack_terms(d, seat, target), force)


_AttackTerms = tuple[float, int, tuple[Any, ...] | None]
"""What :func:`attack_value` reads of the position for one target: the province's worth to
the attacker, the defenders, and the rest of :func:`odds`'s arguments (None: undefended)."""


def _attack_terms(d: State, seat: int, target: str) -> _AttackTerms:
    owner = d["markers"].get(target)
    row = B.legions(d, target)
    enemies = [(c, s) for s, c in enumerate(row) if s != seat and c > 0]
    gain = worth(d, target) if owner is not None and owner != seat else 0.0
    if not enemies:
        return gain, 0, None
    dfn, enemy = max(enemies)
    dfn += sum(c for c, _s in enemies) - dfn  # every enemy there must go before a conquest
    return gain, dfn, _land_terms(d, seat, enemy, target)


def attack_terms(d: State, seat: int, target: str) -> _AttackTerms:
    """What :func:`attack_value` reads of the position for ``target`` (see
    :func:`attack_value_of`)."""
    return _attack_terms(d, seat, target)


def attack_value_of(terms: _AttackTerms, force: int) -> tuple[float, float]:
    """:func:`attack_value` from the target's :func:`attack_terms`: a scorer weighing several
    forces against one target reads its terms once."""
    return _attack_value(terms, force)


def _attack_value(terms: _AttackTerms, force: int) -> tuple[float, float]:
    """:func:`attack_value` from the target's :func:`_attack_terms` (read once per target)."""
    gain, dfn, rest = terms
    if rest is None:
        return (gain, 1.0) if force > 0 else (0.0, 0.0)
    win, lost, killed = odds(force, dfn, *rest)
    return win * gain + 0.5 * killed - lost, win


def _chains(d: State, seat: int) -> dict[str, frozenset[str]]:
    """For each sea holding ``seat``'s triremes, the coasts along his trireme chain through
    it (N0.6.2): every chain worked out once, not once per province it starts from."""
    b = D.board(d["n"])
    table = d["triremes"]
    out: dict[str, frozenset[str]] = {}
    for start, row in table.items():
        if row[seat] > 0 and start not in out:
            chain = B.sea_reach_from(d, seat, start)
            coasts = frozenset().union(*[b.shore[sea] for sea in chain])
            for sea in chain:
                out[sea] = coasts
    return out


def _value_cap(gain: float, dfn: int) -> float:
    """Above any :func:`attack_value` against ``dfn`` defenders in a province worth ``gain``:
    the odds are at most 1, the defenders killed at most ``dfn`` and the losses no less
    than none (with room for the rounding of sums of probabilities)."""
    return (gain + 0.5 * dfn) * (1.0 + 1e-9) + 1e-9


_WAYS: dict[tuple[int, bool], tuple[Any, Any, list[str], dict[str, list[tuple[int, str | None]]]]] = {}
"""Per seat and whether a trireme may be bought besides a legion, the last :func:`_ways`
answer with the ``markers`` and ``triremes`` tables it read, stored at once."""


def _ways(
    d: State, seat: int, money: int, spare: dict[str, int]
) -> tuple[list[str], dict[str, list[tuple[int, str | None]]]]:
    """The sources of :func:`plan_attack` (own provinces that can send or receive a legion)
    and for each enemy province the sources it is open to, in the sources' order: by land
    or along the source's trireme chain (None), else across one sea both touch, the first by
    name (a trireme bought there, when ``money`` buys two units). With money every own
    province is a source, and the ways read only the markers and the seat's triremes: they
    are kept per table (play replaces them whole) and found again while a seat buys legions,
    pays or marches."""
    wide = money >= 2
    key = (seat, wide)
    markers, triremes = d["markers"], d["triremes"]
    if money > 0:
        got = _WAYS.get(key)
        if got is not None and got[0] is markers and got[1] is triremes:
            return got[2], got[3]
    b = D.board(d["n"])
    provinces = b.provinces
    shore = b.shore
    chains = _chains(d, seat)
    sources: list[str] = []
    reached: dict[str, list[tuple[int, str | None]]] = {}
    for src in B.owned(d, seat):
        if spare.get(src, 0) + money <= 0:
            continue
        i = len(sources)
        sources.append(src)
        area = provinces[src]
        # B.sea_reach(d, seat, [src]): the chains through the source's seas
        open_to = set(area["land"]).union(*{chains[sea] for sea in area["seas"] if sea in chains})
        for target in open_to:
            owner = markers.get(target)
            if owner is not None and owner != seat:
                reached.setdefault(target, []).append((i, None))
        if wide:
            across: dict[str, str] = {}
            for sea in area["seas"]:
                for target in shore[sea]:
                    if target not in open_to and (target not in across or sea < across[target]):
                        across[target] = sea
            for target, sea in across.items():
                owner = markers.get(target)
                if owner is not None and owner != seat:
                    reached.setdefault(target, []).append((i, sea))
    if money > 0:
        _WAYS[key] = (markers, triremes, sources, reached)
    return sources, reached


def plan_attack(d: State, seat: int, reach: Reach, spare: dict[str, int], money: int) -> Attack | None:
    """The best attack the seat can mount this round buying at most ``money`` units: from an
    own province into an enemy province by land or along own triremes, or across one sea
    without one (a trireme bought there too). ``spare``: legions each own province can send."""
    sources, reached = _ways(d, seat, money, spare)
    best: Attack | None = None
    table = d["legions"]
    n = d["n"]
    for target, owner in d["markers"].items():
        if owner == seat:
            continue
        ways = reached.get(target)
        if ways is None:
            continue
        row = table.get(target)
        if row is None:
            row = [0] * n
        dfn = sum(row) - row[seat]
        if dfn > 6:
            continue
        if best is not None and best.value >= _value_cap(worth(d, target), dfn):
            continue  # no force can beat the best attack so far here
        terms: _AttackTerms | None = None  # read once per target, when a source needs them
        values: dict[int, tuple[float, float]] = {}  # force -> _attack_value, for this target
        for i, sea in ways:
            src = sources[i]
            have = spare.get(src, 0) + row[seat]
            room = money - (1 if sea else 0)
            if have + room == 0:
                continue
            if terms is None:
                terms = _attack_terms(d, seat, target)
            top = values.get(have + room)
            if top is None:
                top = values[have + room] = _attack_value(terms, have + room)
            if top[1] < WIN_TO_ATTACK:
                continue  # hopeless even with every purchase
            for extra in range(room + 1):
                force = have + extra
                if force == 0:
                    continue
                got = values.get(force)
                if got is None:
                    got = values[force] = _attack_value(terms, force)
                value, win = got
                value -= extra + (1 if sea else 0)  # what the purchases cost, in legions
                if win >= WIN_TO_ATTACK and value > 0.25:
                    if best is None or value > best.value:
                        best = Attack(target, src, owner, dfn, extra, sea, value)
                    break
    return best


def sea_threats(d: State, seat: int, reach: Reach) -> dict[str, tuple[int, int]]:
    """Seas next to own coasts where an enemy fleet carries a landing: sea -> (the enemy,
    his triremes there), for the enemy whose chain through that sea carries legions of his
    that would beat the garrison of an own coastal province on it :data:`LANDING_RISK` of
    the time or more."""
    b = D.board(d["n"])
    out: dict[str, tuple[int, int]] = {}
    for prov in B.owned(d, seat):
        area = b.provinces[prov]
        for sea in area["seas"]:
            row = B.triremes(d, sea)
            for s in range(d["n"]):
                if s == seat or row[s] == 0 or sea in out:
                    continue
                if sea not in reach.of(s):
                    continue
                total, where = reach.carries(s)
                landing = total - where.get(prov, 0)
                if land_odds(d, s, landing, seat, B.legions(d, prov)[seat], prov)[0] >= LANDING_RISK:
                    out[sea] = (s, row[s])
    return out


def triremes_to_win(d: State, seat: int, enemy: int, theirs: int) -> int:
    """The fewest triremes whose sea battle sinks ``theirs`` of ``enemy`` at least half the time
    (at most one more than the limit allows; the caller checks the supply)."""
    top = int(d["limits"]["trireme"])
    for k in range(1, top + 1):
        if sea_odds(d, seat, k, enemy, theirs)[0] >= 0.5:
            return k
    return top


class Plan:
    """What the seat wants bought this buy turn: legions per province and triremes per sea,
    each with the score of one more (``bots.HeuristicBot.s_buy`` reads it)."""

    __slots__ = ("legions", "triremes", "attack")

    def __init__(self) -> None:
        self.legions: dict[str, tuple[int, float]] = {}
        self.triremes: dict[str, tuple[int, float]] = {}
        self.attack: Attack | None = None

    def want(self, kind: str, where: str, count: int, score: float) -> None:
        table = self.legions if kind == "legion" else self.triremes
        have, best = table.get(where, (0, 0.0))
        table[where] = (have + count, max(best, score))


def plan(d: State, seat: int, money: int | None = None) -> Plan:
    """The purchases the seat's military needs (see the module docstring); ``money``: its
    :func:`budget`, when the caller has it."""
    out = Plan()
    reach = Reach(d)
    if money is None:
        money = budget(d, seat)
    spare: dict[str, int] = {}
    for prov, need in garrisons(d, seat, reach).items():
        mine = B.legions(d, prov)[seat]
        spare[prov] = max(0, B.free_legions(d, prov, seat) - need)
        if need > mine:
            out.want("legion", prov, need - mine, 68.0 + 4.0 * worth(d, prov))
    for sea, (enemy, theirs) in sea_threats(d, seat, reach).items():
        k = triremes_to_win(d, seat, enemy, theirs) - B.triremes(d, sea)[seat]
        if k > 0:
            out.want("trireme", sea, k, 64.0 + 2.0 * theirs)
    if money > 0:
        attack = plan_attack(d, seat, reach, spare, money)
        if attack is not None:
            out.attack = attack
            score = 50.0 + min(30.0, 6.0 * attack.value)
            if attack.legions:
                out.want("legion", attack.staging, attack.legions, score)
            if attack.sea is not None and B.triremes(d, attack.sea)[seat] == 0:
                out.want("trireme", attack.sea, 1, score + 1)
    return out


def sea_fight_value(d: State, seat: int, sea: str, enemy: int, threatened: set[str]) -> float:
    """Worth of a sea battle against ``enemy`` in ``sea`` (N4.5): triremes sunk less triremes
    lost, sinking counting double where his fleet carries a landing onto an own coast."""
    row = B.triremes(d, sea)
    win, lost, killed = sea_odds(d, seat, row[seat], enemy, row[enemy])
    return (2.0 if sea in threatened else 1.0) * killed - lost + (0.5 * win if sea in threatened else 0.0)
