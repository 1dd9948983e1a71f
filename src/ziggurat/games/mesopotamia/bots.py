"""Mesopotamia's heuristic bot: purposeful, fast play from a seat's view only.

Strategy, in the game's terms:

- **Offerings** (M6): pick up own offerings, carry them to the temple and wait next to it until
  Mana covers the value; the cheapest go first because Mana arrives a little at a time, and the
  7 last, once the limit has reached 7.
- **Huts** (M9): fetch wood and bring it, with a second own tribe, to a plains with room; each
  hut brings the smallest offering still in hand onto the map.
- **Stone** (M5.5, M10): carry stone to the temple while the limit is below the highest
  offering left, and to empty plains for holy places: up to three (two with four players),
  never more than the limit minus three (more would pay into a full Mana scale), and none
  beyond the first when plains run short for everyone's huts; keep a tribe on each own holy
  place so it pays every turn (M13).
- **Population** (M11): grow on own hut tiles while fewer than seven tribes are out, and
  never let fewer than two stay on the map (two are needed to grow again), so the last
  carrier waits while a delivery would strand the people.
- **Land** (M7): discover when plains, wood or stone are short; volcanoes go far from the
  temple, shared resources next to own tribes.
- **Cards** (M15): Endurance at once, Holy Stone at once, Mana Theft on the richest opponent,
  Priest when income is not capped, Teleport an offering carrier onto the temple when Mana
  suffices (or a carrier across the map), Expulsion to bring an own offering hut next to the
  temple, Land before a discovery. Draw a card when no build or growth is worth more.

Each decision is taken on its own (turns are atomic decisions, docs/architecture.md): the bot rebuilds
its picture from the view (:mod:`.bots_model`), simulates every legal action on a light copy
and keeps the one that raises the evaluation (:mod:`.bots_eval`) most. When no single action
helps, Phase I looks two actions ahead for the same tribe (a step, then a pickup), then
judges moves by the position as it will stand when the phase ends, and finally ends it.
Card plays are rules of thumb checked before that. The bot never reads the true state; it
uses the injected RNG only to break exact ties, so a seed gives the same game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ziggurat.bots.compiled import mypyc_attr
from ziggurat.games.mesopotamia.bots_eval import DEFAULT_WEIGHTS, Ctx, Weights, evaluate
from ziggurat.games.mesopotamia.bots_model import (
    FAR,
    Board,
    Coord,
    Distances,
    Mine,
    enter_temple,
    followups,
    simulate,
)
from ziggurat.games.mesopotamia.data import (
    COLOUR_LETTERS,
    EMPTY,
    FOREST,
    OFFERING,
    PLAINS,
    QUARRY,
    STONE,
    TEMPLE,
    VOLCANO,
    WOOD,
)
from ziggurat.games.mesopotamia.notation import decode

EPS = 0.01
TELEPORT_MIN_GAIN = 60.0
EXPULSION_MIN_GAIN = 20.0
MAX_FREE_ACTIONS = 40  # safety net: free actions (pickups, hand-offs ...) per turn
_FREE = frozenset(("pickup", "drop", "exchange", "handoff", "steal", "offering"))
TWO_STEP_LOSS = 8.0  # the most a first step may lose when a follow-up gains more


def hex_distance(a: Coord, b: Coord) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


class Decisions:
    """Decisions remembered for the playouts of one search (shared by their bots).

    The playouts of a search meet the same decisions again and again: a paired root plays
    each candidate out in world after world, and the searching seat's own Board reads
    nothing those worlds differ in (other seats' offering values and hands). A decision
    is a function of the board (:meth:`~.bots_model.Board.key`), the legal list and the
    little the bot keeps from one decision to the next in a turn, so it is worked out once
    and looked up afterwards. Ties are kept unbroken: the rng breaks them at every lookup
    with the same draw it would have made, so a playout is the same decision for decision
    and draw for draw of its luck. At most :data:`DECISIONS` are kept (then it starts
    afresh)."""

    __slots__ = ("known", "capacity", "found", "values")

    def __init__(self, capacity: int = 0) -> None:
        self.known: dict[tuple[object, ...], Decision] = {}
        # the evaluations of positions, per context (bots_eval.Ctx.key): the decisions of
        # one turn value many of the same positions
        self.values: dict[tuple[object, ...], dict[tuple[object, ...], float]] = {}
        self.capacity = capacity if capacity > 0 else DECISIONS
        self.found = 0
        """Decisions answered from memory so far."""

    def __len__(self) -> int:
        return len(self.known)

    def keep(self, key: tuple[object, ...], decision: Decision) -> None:
        if len(self.known) >= self.capacity:
            self.known.clear()
        self.known[key] = decision


DECISIONS = 4096
"""Decisions a :class:`Decisions` keeps at most (a second of search meets a few hundred;
each holds its board's key). The search's end does not reach this memory, so a bot kept
between decisions holds at most this many; none is stale (a decision depends on its key
alone)."""


class Decision(NamedTuple):
    """What one decision comes to: the best options (the rng picks one when they tie), and
    what the bot keeps for the next decisions of its turn (see :meth:`HeuristicBot.choose`)."""

    options: tuple[str, ...]
    counted: bool  # a free action chosen by the greedy pick counts towards MAX_FREE_ACTIONS
    target: str | None  # the Teleport or Expulsion destination planned
    closing: bool  # Phase I is closing from now on


@mypyc_attr(allow_interpreted_subclasses=True)
class HeuristicBot:
    """Greedy one-decision lookahead over a hand-made evaluation (see the module docstring)."""

    name = "heuristic"
    needs_view = True

    def __init__(
        self, game: Any, seat: int, weights: Weights | None = None, decisions: Decisions | None = None
    ) -> None:
        """``decisions``: a memory shared by the playout bots of one search (:class:`Decisions`)."""
        self.game = game
        self.seat = seat
        self.weights = weights if weights is not None else DEFAULT_WEIGHTS
        self.dist = Distances()
        self.decisions = decisions
        self._target: str | None = None  # destination chosen with a Teleport or Expulsion
        self._closing: tuple[int, int] | None = None  # (round, seat): Phase I is closing
        self._free: tuple[int, int, int] = (0, 0, 0)  # (round, seat, free actions taken)
        self._counted = False  # the options come from the greedy pick (_pick)

    # --- entry point ----------------------------------------------------------------------
    def choose(self, view: Any, legal: Sequence[str], rng: Any) -> str:
        """The choice from ``view`` and ``legal``; ``rng`` breaks exact ties. Typed ``Any``:
        the compiled build checks arguments against their declared types, and playouts pass
        stand-ins (a :class:`~.bots_model.WorldView`, an rng that notes its draws)."""
        if len(legal) == 1:
            return legal[0]
        if view is None:
            raise ValueError("the heuristic bot decides from the view (needs_view = True)")
        b = Board(view, self.seat)
        turn = (b.round, b.seat)
        memory = self.decisions
        if memory is None:
            got = self._decision(b, legal, turn)
        else:
            # all a decision reads: the board, the legal list, whether Phase I is closing,
            # whether free actions are still allowed and the destination planned
            free_ok = self._free[:2] != turn or self._free[2] < MAX_FREE_ACTIONS
            target = self._target if b.pending is not None else None
            key = (b.key(), tuple(legal), self._closing == turn, free_ok, target)
            known = memory.known.get(key)
            if known is None:
                got = self._decision(b, legal, turn)
                memory.keep(key, got)
            else:
                memory.found += 1
                got = known
        options = got.options
        choice = options[0] if len(options) == 1 else options[rng.randrange(len(options))]
        self._target = got.target
        if got.closing:
            self._closing = turn
        if got.counted and choice.split(" ", 1)[0] in _FREE:
            count = self._free[2] + 1 if self._free[:2] == turn else 1
            self._free = (*turn, count)
        return choice

    def _decision(self, b: Board, legal: Sequence[str], turn: tuple[int, int]) -> Decision:
        """The decision on board ``b`` (leaves the bot's memory of the turn as it found it:
        :meth:`choose` applies what the decision says)."""
        self.dist.update(b)
        memory = self.decisions
        ctx = Ctx(b, self.dist, self.weights, memory.values if memory is not None else None)
        self._counted = False
        target, closing = self._target, self._closing
        if b.pending is not None:
            options = self._pending(ctx, legal)
        else:
            self._target = None
            play = self._card_play(ctx, legal)
            if play is not None:
                options = (play,)
            elif b.phase == "mana":
                options = ("income" if "income" in legal else "end",)
            else:
                options = self._best(ctx, legal)
        got = Decision(options, self._counted, self._target, self._closing == turn and closing != turn)
        self._target, self._closing = target, closing
        return got

    # --- the greedy choice ----------------------------------------------------------------
    def _best(self, ctx: Ctx, legal: Sequence[str]) -> tuple[str, ...]:
        """The legal actions whose simulated results evaluate best (ties: :meth:`choose`
        breaks them with the rng).

        An action must improve the evaluation, so the bot never cycles; when none does, it
        closes the phase (``end``, ``stop`` or ``pass``). Phase I has a second stage: the
        evaluation counts a holy place as occupied while some tribe can still reach it with
        the MP left, so once nothing improves it the bot switches, for the rest of the
        phase, to judging the position as it will stand when the phase ends (M2.7, M13.2).
        A step the second stage would take back is not taken in the first (:meth:`_taken_back`).
        """
        b = ctx.b
        m0 = Mine(b)
        close = next((a for a in ("end", "stop", "pass") if a in legal), legal[-1])
        turn = (b.round, b.seat)
        if close == "end" and self._closing == turn:
            return self._pick(ctx, m0, legal, close, ending=True)
        options = self._pick(ctx, m0, legal, close, ending=False)
        if options == (close,) and close == "end":
            two = self._two_steps(ctx, m0, legal)
            if two is not None:
                return (two,)
            self._closing = turn
            return self._pick(ctx, m0, legal, close, ending=True)
        return options

    def _two_steps(self, ctx: Ctx, m0: Mine, legal: Sequence[str]) -> str | None:
        """A step that gains little or nothing but opens a clear gain for the same tribe.

        For example, walking onto a forest next door is worth nothing by itself, and picking
        up the wood there is. The follow-up must gain more than undoing the step would, so
        the next decision takes it and the bot does not walk to and fro.
        """
        b = ctx.b
        if b.mp < 2:
            return None
        base = evaluate(ctx, m0)
        best, best_total = None, EPS
        for a in legal:
            if not a.startswith("move "):
                continue
            d = decode(a)
            if d[2] not in b.tiles or d[2] == b.temple:
                continue
            m = simulate(b, m0, d)
            if m is None:
                continue
            g1 = evaluate(ctx, m) - base
            if g1 < -TWO_STEP_LOSS:
                continue
            t = (d[2], d[1][2], d[1][3])
            for d2 in followups(b, m, t):
                m2 = simulate(b, m, d2)
                if m2 is None:
                    continue
                g2 = evaluate(ctx, m2) - base - g1
                if g2 > max(EPS, -g1 + EPS) and g1 + g2 > best_total:
                    best, best_total = a, g1 + g2
        return best

    def _pick(self, ctx: Ctx, m0: Mine, legal: Sequence[str], close: str, ending: bool) -> tuple[str, ...]:
        """Best improving actions (tied); ``ending``: value positions as if Phase I ended
        after them. ``(close,)`` when none improves."""
        b = ctx.b
        base = self._value(ctx, m0, ending)
        gains: list[tuple[float, str, tuple, Mine | None]] = []  # type: ignore[type-arg]
        turn = (b.round, b.seat)
        free_ok = self._free[:2] != turn or self._free[2] < MAX_FREE_ACTIONS
        for a in legal:
            if a.startswith("play") or a == close:
                continue
            d = decode(a)
            kind = d[0]
            if kind in _FREE and not free_ok:
                continue
            m: Mine | None = None
            if kind == "draw":
                gain = ctx.draw_value
            else:
                explore = 0.0
                if kind == "move" and d[2] not in b.tiles:
                    explore = ctx.explore - 0.25 * self.dist.d(d[2], b.temple, False)
                m = simulate(b, m0, d, explore)
                if m is None:
                    continue
                gain = self._value(ctx, m, ending) - base
            if gain >= EPS - 1e-9:
                gains.append((gain, a, d, m))
        # the best first, in the order of the legal list among equals; a step the bot would
        # take back before the phase ends is passed over (see _taken_back)
        gains.sort(key=lambda g: -g[0])
        best: list[str] = []
        top = 0.0
        for gain, a, d, m in gains:
            if best and gain < top - 1e-9:
                break
            if not ending and m is not None and self._taken_back(ctx, d, m):
                continue
            if not best:
                top = gain
            best.append(a)
        if not best:
            return (close,)
        self._counted = True  # a free action chosen here counts (choose)
        return tuple(best)

    def _taken_back(self, ctx: Ctx, d: tuple, m: Mine) -> bool:  # type: ignore[type-arg]
        """Whether step ``d`` (giving ``m``) only looks good while the phase goes on: its
        tribe, unchanged, would be better back where it came from when Phase I ends.

        The evaluation counts a holy place as occupied while its tribe can still walk back
        to it (M13.2), so a tribe sitting there may step towards a job it cannot reach this
        turn; once nothing else improves, the bot judges the position as it will stand when
        the phase ends and walks the tribe back: two steps spent for nothing. Such a step is
        not taken (a step that opens a pickup is still found by :meth:`_two_steps`)."""
        b = ctx.b
        if d[0] != "move" or d[2] not in b.tiles or d[2] == b.temple:
            return False
        seat, origin, cargo, spent = d[1]
        back = simulate(b, m, ("move", (seat, d[2], cargo, spent), origin))
        if back is None:
            return False
        return self._value(ctx, back, True) > self._value(ctx, m, True) + EPS

    def _value(self, ctx: Ctx, m: Mine, ending: bool) -> float:
        """:func:`evaluate` of ``m`` for :meth:`_pick` (``ending``: after Phase I ends; a
        method rather than a closure, which compiled code would call as an object)."""
        if ending:
            ended = simulate(ctx.b, m, ("end",))
            assert ended is not None
            return evaluate(ctx, ended)
        return evaluate(ctx, m)

    # --- sub-decisions --------------------------------------------------------------------
    def _pending(self, ctx: Ctx, legal: Sequence[str]) -> tuple[str, ...]:
        """A sub-decision's choice (all of ``legal`` when the rng is to pick one)."""
        b = ctx.b
        assert b.pending is not None
        kind = b.pending[0]
        if kind == "offer":
            return (min(legal, key=lambda a: int(a.split()[1])),)
        if kind == "pile":
            return (self._pile(ctx, legal),)
        if kind == "volcano":
            return (self._volcano(ctx, legal),)
        if kind == "shares":
            return (self._share(ctx, legal),)
        if kind == "order":
            want = self._tile_wants(ctx)
            return (max(legal, key=lambda a: [want.get(t, 0.0) for t in a.split()[1].split(",")]),)
        if kind in ("teleport", "expel"):
            if self._target is not None and self._target in legal:
                return (self._target,)
            return (self._destination(ctx, legal),)
        return tuple(legal)

    def _tile_wants(self, ctx: Ctx) -> dict[str, float]:
        b = ctx.b
        wood = sum(b.wood.values())
        stone = sum(b.stone.values())
        return {
            PLAINS: 3.0 if len(ctx.hut_sites) < 2 else 1.0,
            FOREST: 4.0 if wood < ctx.huts_left0 + 1 else 0.5,
            QUARRY: 3.5 if stone < max(0, ctx.need_lim - b.limit[b.seat]) + 2 else 0.5,
            VOLCANO: -1.0,
        }

    def _pile(self, ctx: Ctx, legal: Sequence[str]) -> str:
        b = ctx.b
        want = self._tile_wants(ctx)

        def score(a: str) -> tuple[float, int]:
            k = int(a.split()[1]) - 1
            top = b.pile_tops[k]
            return (want.get(top, 0.0) if top is not None else 0.9, b.piles[k])

        return max(legal, key=score)

    def _volcano(self, ctx: Ctx, legal: Sequence[str]) -> str:
        """D14: far from the temple and from own tribes, so no route of ours is cut."""
        b = ctx.b
        mine = [t[0] for t in b.tribes]

        def score(a: str) -> tuple[int, int, str]:
            c = decode(a)[1]
            near = min((hex_distance(c, t) for t in mine), default=9)
            return (hex_distance(c, b.temple), near, a)

        return max(legal, key=score)

    def _share(self, ctx: Ctx, legal: Sequence[str]) -> str:
        """D15: resources go to the tile nearest own tribes, away from opponents."""
        b = ctx.b
        mine = [t[0] for t in b.tribes]
        others = [t[0] for tribes in b.opp_tribes for t in tribes]

        def score(a: str) -> tuple[float, str]:
            c = decode(a)[1]
            dm = self.dist.to(c, False)
            own = min((dm.get(t, FAR) for t in mine), default=FAR)
            opp = min((dm.get(t, FAR) for t in others), default=FAR)
            return (-own + 0.5 * min(opp, 40), a)

        return max(legal, key=score)

    def _destination(self, ctx: Ctx, legal: Sequence[str]) -> str:
        """A Teleport or Expulsion destination when none was planned: the best for us."""
        b = ctx.b
        assert b.pending is not None
        if b.pending[0] == "teleport" and b.pending[1] == self.seat:
            origin = (b.pending[2][0], b.pending[2][1])
            t = (self.seat, origin, b.pending[3], b.pending[4])
            m0 = Mine(b)
            best, best_v = legal[0], -1e18
            for a in legal:
                dest = decode(a)[1]
                m = self._teleported(b, m0, t, dest)
                val = evaluate(ctx, m) if m is not None else -1e17
                if val > best_v:
                    best, best_v = a, val
            return best
        return max(legal, key=lambda a: (hex_distance(decode(a)[1], b.temple), a))

    # --- cards (M15) ----------------------------------------------------------------------
    def _card_play(self, ctx: Ctx, legal: Sequence[str]) -> str | None:
        plays = [a for a in legal if a.startswith("play ")]
        if not plays:
            return None
        b = ctx.b
        me = self.seat
        if "play endurance" in plays and b.mp > 0:
            return "play endurance"
        if "play holy_stone" in plays and (b.limit[me] < 8 or b.mana[me] < b.limit[me]):
            return "play holy_stone"
        thefts = [a for a in plays if a.startswith("play mana_theft")]
        if thefts:
            play = self._mana_theft(ctx, thefts)
            if play is not None:
                return play
        priests = [a for a in plays if a.startswith("play priest")]
        if priests and b.phase == "mana" and not b.income_done:
            if b.mana[me] + self._income(ctx) < b.limit[me]:
                return priests[0]
        teleports = [a for a in plays if a.startswith("play teleport")]
        if teleports:
            play = self._teleport(ctx, teleports)
            if play is not None:
                return play
        expulsions = [a for a in plays if a.startswith("play expulsion")]
        if expulsions:
            play = self._expulsion(ctx, expulsions)
            if play is not None:
                return play
        lands = [a for a in plays if a.startswith("play land")]
        if lands and b.phase == "movement" and b.mp > 0 and b.disc < 3 and ctx.explore > 12:
            if all(top is None for top in b.pile_tops):
                return max(lands, key=lambda a: b.piles[int(a.split()[2]) - 1])
        return None

    def _income(self, ctx: Ctx) -> int:
        """M13.2-M13.3: what this seat's Phase III income would be now."""
        b = ctx.b
        at: dict[Coord, int] = {}
        for c, _, _ in b.tribes:
            at[c] = at.get(c, 0) + 1
        return sum(1 for c, o in b.holy.items() if at.get(c, 0) >= (1 if o == self.seat else 2)) + b.priests

    def _mana_theft(self, ctx: Ctx, plays: list[str]) -> str | None:
        b = ctx.b
        me = self.seat

        def threat(a: str) -> tuple[int, int]:
            q = COLOUR_LETTERS.index(a.split()[2])
            return (min(2, b.mana[q]) * (1 + b.delivered[q]), b.mana[q])

        play = max(plays, key=threat)
        q = COLOUR_LETTERS.index(play.split()[2])
        gain = min(b.limit[me] - b.mana[me], min(2, b.mana[q]))
        if gain >= 1 or b.delivered[q] >= 2 or b.n == 2:
            return play
        return None

    def _teleported(self, b: Board, m0: Mine, t: tuple, dest: Coord) -> Mine | None:  # type: ignore[type-arg]
        """Own tribe ``t`` (seat, tile, cargo, spent) teleported to ``dest`` (M15.7)."""
        m = m0.copy()
        try:
            i = m.tribes.index((t[1], t[2], t[3]))
        except ValueError:
            return None
        if b.tiles.get(dest) == TEMPLE:
            if t[2] == WOOD:
                return None
            enter_temple(b, m, i, t[1])
        else:
            m.tribes[i] = (dest, t[2], t[3])
        return m

    def _teleport(self, ctx: Ctx, plays: list[str]) -> str | None:
        """Teleport (M15.7): deliver an offering, or move a carrier where it is needed.

        Only a few destinations are tried: the temple for an offering Mana covers or a stone
        while the limit is short, and hut sites where another own tribe already waits.
        """
        b = ctx.b
        me = self.seat
        at: dict[Coord, int] = {}
        for c, _, _ in b.tribes:
            at[c] = at.get(c, 0) + 1
        m0: Mine | None = None
        base = 0.0
        best, best_gain, best_dest = None, TELEPORT_MIN_GAIN, None
        for a in plays:
            t = decode(a)[2]
            if t[0] != me or t[2] == EMPTY:
                continue
            if t[2] >= OFFERING:
                if b.mana[me] < b.values[t[2] - OFFERING]:
                    continue
                dests = [b.temple]
            elif t[2] == STONE:
                if b.limit[me] >= ctx.need_lim:
                    continue
                dests = [b.temple]
            else:
                dests = [s for s in ctx.hut_sites if at.get(s, 0) >= 1 and s != t[1]]
            if m0 is None:
                m0 = Mine(b)
                base = evaluate(ctx, m0)
            for dest in dests:
                m = self._teleported(b, m0, t, dest)
                if m is None:
                    continue
                gain = evaluate(ctx, m) - base
                if gain > best_gain:
                    best, best_gain, best_dest = a, gain, dest
        if best is None:
            best, best_dest = self._teleport_threat(ctx, plays)
        if best is not None and best_dest is not None:
            self._target = f"to {best_dest[0]},{best_dest[1]}"
        return best

    def _teleport_threat(self, ctx: Ctx, plays: list[str]) -> tuple[str | None, Coord | None]:
        """Send a threatening opponent's offering carrier (last offering) far from the temple."""
        b = ctx.b
        far = max(
            (c for c, kind in b.tiles.items() if kind not in (VOLCANO, TEMPLE)),
            key=lambda c: (hex_distance(c, b.temple), c),
        )
        for a in plays:
            t = decode(a)[2]
            q = t[0]
            if q == self.seat or t[2] < OFFERING or b.delivered[q] < 3:
                continue
            if hex_distance(t[1], b.temple) <= 2 and b.mana[q] >= 2 and t[1] != far:
                return a, far
        return None, None

    def _expulsion(self, ctx: Ctx, plays: list[str]) -> str | None:
        """Expulsion (M15.8): bring an own offering hut next to the temple."""
        b = ctx.b
        dests = [
            c for c, kind in b.tiles.items()
            if kind == PLAINS and ctx.hut_count.get(c, 0) < 2 and c not in b.holy
        ]  # fmt: skip
        if not dests:
            return None
        best, best_gain, best_dest = None, EXPULSION_MIN_GAIN, None
        for a in plays:
            owner, num = decode(a)[2]
            if owner != self.seat:
                continue
            hut = next(h for h in b.huts if (h[0], h[1]) == (owner, num))
            if not hut[3]:
                continue
            here = self.dist.d(hut[2], b.temple, True)
            for c in dests:
                if c == hut[2]:
                    continue
                gain = 1.5 * (here - self.dist.d(c, b.temple, True))
                if gain > best_gain:
                    best, best_gain, best_dest = a, gain, c
        if best is not None and best_dest is not None:
            self._target = f"to {best_dest[0]},{best_dest[1]}"
        return best


__all__ = ["DECISIONS", "Decision", "Decisions", "HeuristicBot"]
