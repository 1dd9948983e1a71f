"""Phase II, the action (M8-M12), and Phase III, Mana (M13)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import (
    EMPTY,
    FERTILITY,
    OFFERING,
    PLAINS,
    STONE,
    WOOD,
    sum_of,
)
from ziggurat.games.mesopotamia.movement import tribe_classes, tribe_selector
from ziggurat.games.mesopotamia.notation import Coord, fmt_hut
from ziggurat.games.mesopotamia.state import HutT, MesoState

ACTION_OF = {"hut": "huts", "holy": "holy", "grow": "grow"}


def start_action_phase(s: MesoState) -> None:
    """M2.7 -> M8: unused MP are lost; Phase I flags (loot received) are cleared."""
    s.mp = 0
    s.phase = "action"
    s.action = None
    s.used_huts = ()
    _clear_spent(s)


def start_mana_phase(s: MesoState) -> None:
    s.phase = "mana"
    s.action = None
    s.used_huts = ()
    s.income_done = False
    s.priests = ()
    _clear_spent(s)


def _clear_spent(s: MesoState) -> None:
    for seat, tribes in enumerate(s.tribes):
        for t in tribes:
            if t[2]:
                s.tribes[seat] = [(t[0], t[1], False) if t[2] else t for t in tribes]
                break


def _pairs(s: MesoState, p: int, c: Coord, classes: dict, first_cargo: int | None) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    """Groups of two different own tribes on ``c`` not yet in a group (M8.2, M8.3).

    ``first_cargo``: the first tribe must carry it (wood for huts, stone for holy places);
    None: an unordered pair (growth).
    """
    here = sorted((k for k in classes if k[0] == c and not k[2]), key=lambda k: (k[1], k[2]))
    out = []
    for a_i, a in enumerate(here):
        if first_cargo is not None and a[1] != first_cargo:
            continue
        start = 0 if first_cargo is not None else a_i
        for b in here[start:]:
            if b == a and classes[a] < 2:
                continue
            out.append((tribe_selector(p, *a), tribe_selector(p, *b)))
    return out


# Legal-action listing asks the site refusals below about every tile, so their reasons are
# built once, not at every call (a message costs a pattern lookup and a formatting).
_HUT_ON_PLAINS = message("meso.refusal.hutOnPlains")
_HUT_PLAINS_FULL = message("meso.refusal.hutPlainsFull")
_HUT_HOLY_PLACE = message("meso.refusal.hutHolyPlace")
_HOLY_ON_PLAINS = message("meso.refusal.holyOnPlains")
_HOLY_HUT = message("meso.refusal.holyHut")
_HOLY_TWICE = message("meso.refusal.holyTwice")
_HOLY_TRIBE = message("meso.refusal.holyTribe")
_GROWTH_OFFERING = message("meso.refusal.growthOffering")
_GROWTH_NO_SUPPLY = message("meso.refusal.growthNoSupply")


def hut_site_refusal(s: MesoState, c: Coord) -> str | None:
    if s.tiles.get(c) != PLAINS:
        return _HUT_ON_PLAINS
    if len(s.huts_on(c)) >= 2:
        return _HUT_PLAINS_FULL
    if c in s.holy:
        return _HUT_HOLY_PLACE
    return None


def holy_site_refusal(s: MesoState, p: int, c: Coord) -> str | None:
    if s.tiles.get(c) != PLAINS:
        return _HOLY_ON_PLAINS
    if s.huts_on(c):
        return _HOLY_HUT
    if c in s.holy:
        return _HOLY_TWICE
    for q in range(s.n):
        if q != p and s.tribes_on(q, c):
            return _HOLY_TRIBE
    return None


def growth_hut_ok(s: MesoState, p: int, hut: tuple) -> bool:  # type: ignore[type-arg]
    owner = hut[0]
    if owner < 0:
        return bool(s.opts["neutral_hut_allows_growth"])
    return owner == p or not s.opts["growth_requires_own_hut"]


def growth_site_refusal(s: MesoState, p: int, c: Coord) -> str | None:
    if any(h[3] for h in s.huts_on(c)):
        return _GROWTH_OFFERING
    if not s.supply_tribes(p):
        return _GROWTH_NO_SUPPLY
    return None


def action_actions(s: MesoState, p: int, out: list[str]) -> None:
    """Legal Phase II group actions for the current action (or all, before one is chosen)."""
    chosen = s.action
    # a group is two of p's tribes on one tile, neither in a group yet (M8.2, M8.3): the tiles
    # with two such tribes are found first, and most often there is none
    free: dict[Coord, int] = {}
    for c, _, spent in s.tribes[p]:
        if c is not None and not spent:
            free[c] = free.get(c, 0) + 1
    tiles_with_groups = sorted(c for c, k in free.items() if k > 1)
    if tiles_with_groups:
        _group_actions(s, p, chosen, tiles_with_groups, out)
    if chosen is None:
        if can_draw(s):
            out.append("draw")
        if s.opts["phase_two_may_be_passed"] or not out:
            out.append("pass")
    else:
        out.append("stop")


def _group_actions(
    s: MesoState, p: int, chosen: str | None, tiles_with_mine: list[Coord], out: list[str]
) -> None:
    """:func:`action_actions`' groups, on ``tiles_with_mine`` (tiles with two of p's tribes
    not yet in a group, sorted)."""
    classes = tribe_classes(s, p)
    carried = s.opts["build_resource_must_be_carried"]
    # the site rules (hut_site_refusal, holy_site_refusal, growth_site_refusal) asked of every
    # tile at once: huts per tile and the tiles of other seats' tribes are found once
    huts_at: dict[Coord, list[HutT]] = {}
    for h in s.huts:
        if h[2] in huts_at:
            huts_at[h[2]].append(h)
        else:
            huts_at[h[2]] = [h]
    tiles, holy = s.tiles, s.holy
    plains = [c for c in tiles_with_mine if tiles[c] == PLAINS and c not in holy]
    if chosen in (None, "huts") and plains and s.huts_in_supply(p) and s.unplaced[p]:
        for c in plains:
            if len(huts_at.get(c, ())) < 2:
                for a, b in _pairs(s, p, c, classes, WOOD):
                    out.append(f"hut {c[0]},{c[1]} {a} {b}")
                if not carried and s.wood.get(c):
                    for a, b in _pairs(s, p, c, classes, None):
                        if not a[1:].startswith("w@"):
                            out.append(f"hut {c[0]},{c[1]} {a} {b}")
    if chosen in (None, "holy") and plains and s.holy_in_supply(p):
        others = {t[0] for q, tribes in enumerate(s.tribes) if q != p for t in tribes}
        for c in plains:
            if c not in huts_at and c not in others:
                for a, b in _pairs(s, p, c, classes, STONE):
                    out.append(f"holy {c[0]},{c[1]} {a} {b}")
                if not carried and s.stone.get(c):
                    for a, b in _pairs(s, p, c, classes, None):
                        if not a[1:].startswith("s@"):
                            out.append(f"holy {c[0]},{c[1]} {a} {b}")
    if chosen in (None, "grow") and s.supply_tribes(p):
        fertility = s.playable(p, FERTILITY)
        one_per_hut = s.opts["growth_one_hut_per_group"]
        for c in tiles_with_mine:
            here = huts_at.get(c)
            if not here or any(h[3] for h in here):  # no hut, or an offering under one (M10)
                continue
            huts = [
                h for h in sorted(here)
                if growth_hut_ok(s, p, h) and not (one_per_hut and (h[0], h[1]) in s.used_huts)
            ]  # fmt: skip
            pairs = _pairs(s, p, c, classes, None) if huts else []
            for h in huts:
                hid = fmt_hut(h[0], h[1])
                for a, b in pairs:
                    out.append(f"grow {c[0]},{c[1]} {hid} {a} {b}")
                    if fertility:
                        out.append(f"grow {c[0]},{c[1]} {hid} {a} {b} fertility")


def can_draw(s: MesoState) -> bool:
    return sum_of(s.deck) > 0 or (sum_of(s.discard) > 0 and not s.opts["variant_no_reshuffle"])


def action_refusal(s: MesoState, p: int, d: tuple) -> str | None:  # type: ignore[type-arg]
    kind = d[0]
    if kind in ACTION_OF and s.action is not None and ACTION_OF[kind] != s.action:
        return message("meso.refusal.oneActionKind", action=V.action(s.action))
    if kind == "draw" and s.action is not None:
        return message("meso.refusal.actionChosen")
    if kind == "draw" and not can_draw(s):
        return message("meso.refusal.noCardLeft")
    if kind == "stop" and s.action is None:
        return message("meso.refusal.noActionStarted")
    if kind == "pass" and s.action is not None:
        return message("meso.refusal.actionUnderWay")
    if kind == "pass" and not s.opts["phase_two_may_be_passed"]:
        return message("meso.refusal.passForbidden")
    if kind not in ("hut", "holy", "grow"):
        return None
    c = d[1]
    tribes = [d[3], d[4]] if kind == "grow" else [d[2], d[3]]
    for seat, tc, cargo, spent in tribes:
        if seat != p:
            return message("meso.refusal.groupOwn")
        if tc != c:
            return message("meso.refusal.groupTile")
        if spent:
            return message("meso.refusal.groupSpent")
        if (tc, cargo, spent) not in s.tribes[p]:
            return message("meso.refusal.groupNoSuchTribe", at=V.coord(c))
    if tribes[0] == tribes[1] and s.tribes[p].count(tribes[0][1:]) < 2:  # type: ignore[arg-type]
        return message("meso.refusal.groupTwoTribes")
    if kind == "hut":
        if not s.huts_in_supply(p):
            return message("meso.refusal.noHutLeft")
        if tribes[0][2] != WOOD:
            return message("meso.refusal.hutWood")
        return hut_site_refusal(s, c)
    if kind == "holy":
        if not s.holy_in_supply(p):
            return message("meso.refusal.noHolyLeft")
        if tribes[0][2] != STONE:
            return message("meso.refusal.holyStone")
        return holy_site_refusal(s, p, c)
    if d[5] and not s.playable(p, FERTILITY):
        return message("meso.refusal.noFertility")
    hut = next((h for h in s.huts_on(c) if (h[0], h[1]) == d[2]), None)
    if hut is None:
        return message("meso.refusal.growthHutElsewhere", hut=V.hut(*d[2]), at=V.coord(c))
    if not growth_hut_ok(s, p, hut):
        return message("meso.refusal.growthOwnHut")
    if d[2] in s.used_huts and s.opts["growth_one_hut_per_group"]:
        return message("meso.refusal.growthHutUsed")
    return growth_site_refusal(s, p, c)


def apply_action_phase(s: MesoState, p: int, d: tuple) -> None:  # type: ignore[type-arg]
    kind = d[0]
    if kind in ("pass", "stop"):
        start_mana_phase(s)
        return
    if kind == "draw":
        s.action = "draw"
        if sum(s.deck) == 0:  # R51: reshuffle only when a draw is needed
            s.deck = s.discard
            s.discard = [0] * len(s.deck)
        s.pending = ("card_draw",)
        return
    s.action = ACTION_OF[kind]
    c = d[1]
    spend = s.opts["tribe_in_one_group_per_action"]
    tribes = s.tribes[p]
    members = [d[3], d[4]] if kind == "grow" else [d[2], d[3]]
    idx: list[int] = []
    for _, tc, cargo, spent in members:
        i = tribes.index(
            (tc, cargo, spent), idx[0] + 1 if idx and tribes[idx[0]] == (tc, cargo, spent) else 0
        )
        idx.append(i)
    if kind in ("hut", "holy"):
        res = WOOD if kind == "hut" else STONE
        first = tribes[idx[0]]
        if first[1] == res:
            tribes[idx[0]] = (c, EMPTY, first[2])
        else:  # build_resource_must_be_carried off: the loose resource on the tile is used
            loose = s.wood if res == WOOD else s.stone
            loose[c] -= 1
            if not loose[c]:
                del loose[c]
        if res == WOOD:
            s.supply_wood += 1
        else:
            s.supply_stone += 1
    if spend:
        for i in idx:
            t = tribes[i]
            tribes[i] = (t[0], t[1], True)
    if kind == "hut":
        num = max([h[1] for h in s.huts if h[0] == p], default=0) + 1
        s.huts.append((p, num, c, 0))
        s.pending = ("offer", num)
    elif kind == "holy":
        s.holy = {**s.holy, c: p}  # replaced, never changed in place: clones share it
    else:
        s.used_huts = (*s.used_huts, d[2])
        extra = s.opts["fertility_extra_tribes"] if d[5] else 0
        if d[5]:
            _cards.discard_card(s, p, FERTILITY)
        for _ in range(1 + extra):
            try:
                j = tribes.index((None, EMPTY, False))
            except ValueError:
                break
            tribes[j] = (c, EMPTY, True)  # R40: new tribes cannot join a group this action


def offer_actions(s: MesoState, p: int, out: list[str]) -> None:
    for v in sorted(set(s.unplaced[p])):
        out.append(f"offer {v}")


def apply_offer(s: MesoState, p: int, value: int) -> None:
    """M9.4 step 3 (D18): the chosen offering goes face down under the new hut."""
    num = s.pending[1]  # type: ignore[index]
    s.pending = None
    # offerings are replaced, never changed in place: clones share them
    unplaced = s.unplaced[p] = list(s.unplaced[p])
    unplaced.remove(value)
    pub = s.next_pub[p]
    s.next_pub = [*s.next_pub[:p], pub + 1, *s.next_pub[p + 1 :]]
    s.offer_val[p] = {**s.offer_val[p], pub: value}
    for k, h in enumerate(s.huts):
        if h[0] == p and h[1] == num:
            s.huts[k] = (p, num, h[2], pub)


# --- Phase III (M13) --------------------------------------------------------------------
def holy_places_paying(
    holy: Iterable[tuple[Coord, int]], tribes_on: Callable[[Coord], int], p: int, inc: Mapping[str, Any]
) -> list[Coord]:
    """Of the holy places ``holy`` (place, owner's seat), those that pay ``p`` this phase, where
    ``tribes_on(place)`` counts ``p``'s tribes (M13.2, M13.3, M13.5)."""
    out = []
    for c, owner in holy:
        need = inc["ownHolyPlaceMinTribes"] if owner == p else inc["otherHolyPlaceMinTribes"]
        if tribes_on(c) >= need:
            out.append(c)
    return sorted(out)


def holy_income(paying: Sequence[Coord], priests: Iterable[Coord], inc: Mapping[str, Any]) -> int:
    """The Mana the holy places ``paying`` pay, with the Priests played on them (M13.2, M15.2:
    a Priest adds to a holy place that pays; one that stopped paying since gets nothing)."""
    return len(paying) * int(inc["manaPerHolyPlace"]) + sum(1 for c in priests if c in paying)


def paying_holy_places(s: MesoState, p: int) -> list[Coord]:
    """Holy places that pay ``p`` this phase (M13.2, M13.3, M13.5)."""
    return holy_places_paying(s.holy.items(), lambda c: s.tribes_on(p, c), p, s.game.data["income"])


def income(s: MesoState, p: int) -> int:
    gain = holy_income(paying_holy_places(s, p), s.priests, s.game.data["income"])
    if s.opts["temple_gives_mana"]:
        temple = next(c for c, t in s.tiles.items() if t == "temple")
        if s.tribes_on(p, temple):
            gain += 1
    return gain


def collect_income(s: MesoState, p: int) -> None:
    s.mana[p] = min(s.limit[p], s.mana[p] + income(s, p))
    s.income_done = True
    s.priests = ()


# cards imports this module: bound once both are complete
from ziggurat.games.mesopotamia import cards as _cards  # noqa: E402

__all__ = ["OFFERING", "action_actions", "apply_action_phase", "collect_income"]
