"""A from-scratch listing of Mesopotamia's top-level legal actions, for the listing tests.

The engine lists legal actions from memos kept across decisions (the tiles', each seat's
tribes'). This module lists them again the plain way, straight from the position and the
rules' own site and target checks (the ``*_refusal`` functions, which explain refusals), in
the same canonical order: tribes sorted, per tribe its steps then what it may do where it
stands, then steals, ``end``, then card plays (rules spec ``docs/rules/mesopotamia.md``,
M2-M4, M8-M10, M13-M15). Imported as ``meso_reference_listing``, a name unique in the suite.
"""

from __future__ import annotations

from typing import Any

import ziggurat.games.mesopotamia.game  # noqa: F401  (the game module imports the rules modules in working order)
from ziggurat.games.mesopotamia import actions as act
from ziggurat.games.mesopotamia import cards
from ziggurat.games.mesopotamia import movement as mv
from ziggurat.games.mesopotamia.data import (
    ANY_TIME_CARDS,
    COLOUR_LETTERS,
    DIRECTIONS,
    EMPTY,
    ENDURANCE,
    EXPULSION,
    FERTILITY,
    HOLY_STONE,
    LAND,
    MANA_THEFT,
    OFFERING,
    PRIEST,
    STONE,
    TELEPORT,
    TEMPLE,
    VOLCANO,
    WOOD,
)
from ziggurat.games.mesopotamia.notation import fmt_hut, fmt_tribe


def classes(s: Any, seat: int) -> dict[tuple[Any, int, bool], int]:
    """Distinct tribes of ``seat`` on the map, sorted, with how many of each."""
    found: dict[tuple[Any, int, bool], int] = {}
    for t in sorted(t for t in s.tribes[seat] if t[0] is not None):
        found[t] = found.get(t, 0) + 1
    return found


def top_level_legal(s: Any) -> list[str]:
    """The legal actions of a decision with no sub-decision pending, computed afresh."""
    p = s.turn_order[s.turn_idx]
    out: list[str] = []
    if s.phase == "movement":
        movement_actions(s, p, out)
    elif s.phase == "action":
        action_actions(s, p, out)
    elif s.phase == "mana":
        out.append("end" if s.income_done else "income")
    card_actions(s, p, out)
    return out


def movement_actions(s: Any, p: int, out: list[str]) -> None:
    """M2-M6: steps, pickups, offerings, drops, exchanges, hand-offs, donations, steals."""
    opts = s.opts
    mine = classes(s, p)
    can_step = s.mp >= 1
    can_discover = can_step and s.disc < s.game.max_discoveries and any(s.pile_sizes)
    receivers: dict[Any, list[str]] = {}
    offering_huts = sorted(h for h in s.huts if h[0] == p and h[3])
    for c, cargo, spent in mine:
        sel = fmt_tribe(p, c, cargo, spent)
        here = s.tiles[c]
        if can_step and not (here == TEMPLE and cargo == STONE):
            for dq, dr in DIRECTIONS:
                n = (c[0] + dq, c[1] + dr)
                kind = s.tiles.get(n)
                if kind == VOLCANO:
                    continue
                if (kind is None and can_discover) or (
                    kind is not None and (kind != TEMPLE or mv.temple_refusal(s, cargo, True) is None)
                ):
                    out.append(f"move {sel} {n[0]},{n[1]}")
        if cargo == EMPTY:
            for resource, loose in (("wood", s.wood), ("stone", s.stone)):
                if c in loose:
                    out.append(f"pickup {sel} {resource}")
            out.extend(f"offering {sel} {fmt_hut(p, h[1])}" for h in offering_huts if h[2] == c)
            if not (spent and opts["tribe_steals_once_per_turn"]):
                receivers.setdefault(c, []).append(sel)
        elif cargo < OFFERING:
            if here != TEMPLE or opts["drop_on_temple_allowed"]:
                out.append(f"drop {sel}")
                other = "stone" if cargo == WOOD else "wood"
                if c in (s.stone if cargo == WOOD else s.wood):
                    out.append(f"exchange {sel} {other}")
            if opts["hand_off_between_own_tribes"]:
                for c2, cargo2, spent2 in mine:
                    if c2 == c and cargo2 == EMPTY:
                        out.append(f"handoff {sel} {fmt_tribe(p, c2, cargo2, spent2)}")
            if cargo == STONE and here == TEMPLE and not opts["stone_donated_on_temple_entry"]:
                out.append(f"donate {sel}")
    # steals tile by tile, in the order their loot is first found (seat by seat, each seat's
    # tribes in their own order), the victims of a tile sorted
    victims: dict[Any, set[tuple[int, int, bool]]] = {}
    for q in range(s.n):
        for t in s.tribes[q] if q != p else ():
            if t[0] in receivers and t[1] in (WOOD, STONE):
                victims.setdefault(t[0], set()).add((q, t[1], t[2]))
    for c, found in victims.items():
        counts = mv.majority_counts(s, c)
        for q, cargo, spent in sorted(found):
            if counts[p] > counts[q]:
                out.extend(f"steal {fmt_tribe(q, c, cargo, spent)} {sel}" for sel in receivers[c])
    out.append("end")


def _pairs(
    p: int, c: Any, mine: dict[tuple[Any, int, bool], int], first: int | None
) -> list[tuple[str, str]]:
    here = sorted((k for k in mine if k[0] == c and not k[2]), key=lambda k: (k[1], k[2]))
    found = []
    for i, a in enumerate(here):
        if first is not None and a[1] != first:
            continue
        for b in here[0 if first is not None else i :]:
            if b != a or mine[a] >= 2:
                found.append((fmt_tribe(p, *a), fmt_tribe(p, *b)))
    return found


def action_actions(s: Any, p: int, out: list[str]) -> None:
    """M8-M12: the group actions the site rules allow, draw, pass or stop."""
    chosen = s.action
    mine = classes(s, p)
    tiles = sorted({k[0] for k in mine if not k[2]})
    carried = s.opts["build_resource_must_be_carried"]
    if chosen in (None, "huts") and s.huts_in_supply(p) and s.unplaced[p]:
        for c in tiles:
            if act.hut_site_refusal(s, c) is None:
                out.extend(f"hut {c[0]},{c[1]} {a} {b}" for a, b in _pairs(p, c, mine, WOOD))
                if not carried and s.wood.get(c):
                    out.extend(
                        f"hut {c[0]},{c[1]} {a} {b}"
                        for a, b in _pairs(p, c, mine, None)
                        if not a[1:].startswith("w@")
                    )
    if chosen in (None, "holy") and s.holy_in_supply(p):
        for c in tiles:
            if act.holy_site_refusal(s, p, c) is None:
                out.extend(f"holy {c[0]},{c[1]} {a} {b}" for a, b in _pairs(p, c, mine, STONE))
                if not carried and s.stone.get(c):
                    out.extend(
                        f"holy {c[0]},{c[1]} {a} {b}"
                        for a, b in _pairs(p, c, mine, None)
                        if not a[1:].startswith("s@")
                    )
    if chosen in (None, "grow") and s.supply_tribes(p):
        fertility = s.playable(p, FERTILITY)
        for c in tiles:
            if act.growth_site_refusal(s, p, c) is not None:
                continue
            huts = [
                h
                for h in sorted(s.huts_on(c))
                if act.growth_hut_ok(s, p, h)
                and not (s.opts["growth_one_hut_per_group"] and (h[0], h[1]) in s.used_huts)
            ]
            pairs = _pairs(p, c, mine, None) if huts else []
            for h in huts:
                for a, b in pairs:
                    text = f"grow {c[0]},{c[1]} {fmt_hut(h[0], h[1])} {a} {b}"
                    out.append(text)
                    if fertility:
                        out.append(f"{text} fertility")
    if chosen is None:
        if act.can_draw(s):
            out.append("draw")
        if s.opts["phase_two_may_be_passed"] or not out:
            out.append("pass")
    else:
        out.append("stop")


def card_actions(s: Any, p: int, out: list[str]) -> None:
    """M14, M15: the plays of cards held since before this turn."""
    if not any(s.hand[p]):
        return
    if s.phase == "movement" and s.playable(p, ENDURANCE):
        out.append("play endurance")
    if s.phase == "mana" and not s.income_done and s.playable(p, PRIEST):
        out.extend(f"play priest {c[0]},{c[1]}" for c in act.paying_holy_places(s, p))
    for card in ANY_TIME_CARDS:
        if not s.playable(p, card):
            continue
        if card == HOLY_STONE:
            out.append("play holy_stone")
        elif card == LAND:
            out.extend(f"play land {k}" for k, size in enumerate(s.pile_sizes, start=1) if size)
        elif card == MANA_THEFT:
            out.extend(f"play mana_theft {COLOUR_LETTERS[q]}" for q in range(s.n) if q != p and s.mana[q] > 0)
        elif card == TELEPORT:
            for seat in range(s.n):
                for t in sorted({t for t in s.tribes[seat] if t[0] is not None}):
                    if cards.teleport_destinations(s, p, seat, t):
                        out.append(f"play teleport {fmt_tribe(seat, *t)}")
        elif card == EXPULSION:
            for h in sorted(s.huts):
                if cards.expulsion_hut_ok(s, p, h) and cards.expulsion_destinations(s, h):
                    out.append(f"play expulsion {fmt_hut(h[0], h[1])}")
