"""A heuristic bot for Mare Nostrum: Empires (spec ``docs/rules/mare-nostrum.md``).

Decisions use only the seat's view. The plan is the economic one: heroes and wonders (N6.2)
and the Pyramids (N6.1) as soon as they are affordable, capitals and legendary cities (N6.3)
when conquest offers them, otherwise production buildings and expansion. Resources are spent
every buy turn (they are discarded at its end, N3.13); trade offers give away duplicates first
and takes favour new good types and taxes. The military game is ``bots_military``'s: legions
bought where an own province is threatened beyond its garrison, triremes where an enemy fleet
carries a landing onto an own coast, legions (and a trireme to close a chain) for an attack
whose odds and gain pay for its expected losses; attacks only when they pay, sea battles when
they sink more than they lose, triremes rowed to meet a landing fleet. Every choice is a
deterministic function of the view and the legal list (ties by text).

:class:`RaiderBot` is the same bot with one plan more: it ships legions by trireme chain
into the richest coastal province of the strongest opponent. It is one of the game's
:data:`PLANS`, which the search may follow for its own seat (docs/bots.md, "Plans").
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import bots_military as M
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.bots_facts import (
    CAP_FLOOR,
    FORTRESS_CAP,
    PLANNED,
    built_slots,
    marker_worth,
    military_plan,
    planned_cap,
    res_counts,
    tax_drain_of,
    victory_city_provinces,
)
from ziggurat.games.mare_nostrum.buy_place import allowance
from ziggurat.games.mare_nostrum.payment import good_of

# Ability value of a tile beyond its track bonus (rough, for choosing among affordable tiles).
_TILE_VALUE = {
    "hercules": 6,
    "temple_of_artemis": 5,
    "hanging_gardens": 4,
    "colossus": 4,
    "perseus": 4,
    "antigone": 4,
    "hamilcar": 3,
    "penthesilea": 3,
    "circe": 3,
    "queen_of_sheba": 2,
    "ramses_ii": 2,
    "nebuchadnezzar": 2,
    "spartacus": 2,
    "lighthouse": 2,
    "gilgamesh": 2,
    "statue_of_zeus": 1,
    "castor_pollux": 2,
}
_COPY_PREF = ("temple_of_artemis", "colossus", "cleopatra", "hannibal", "hammurabi", "spartacus")


_TOKEN_VERBS = frozenset(("pay", "take", "offer", "give"))
"""Actions on one token, scored from the goods held (:meth:`HeuristicBot._choose_token`)."""


_PLAIN_TOKENS: list[tuple[Any, bool]] = [(None, False)]
"""The last :func:`_plain_tokens` answer, one pair stored at once (the scorers read)."""


def _plain_tokens(scorers: dict[str, Any]) -> bool:
    """True when ``scorers`` score tokens as :class:`HeuristicBot` does (a subclass may not)."""
    seen, got = _PLAIN_TOKENS[0]
    if seen is not scorers:
        got = all(scorers.get(v) is _SCORERS.get(v) for v in _TOKEN_VERBS)
        _PLAIN_TOKENS[0] = (scorers, got)
    return got


class HeuristicBot:
    """Greedy economy with heroes/wonders, Pyramids and capitals as targets, and a military
    plan (``bots_military``)."""

    name = "heuristic"
    needs_view = True
    scorers: ClassVar[dict[str, Any]] = {}  # verb -> scoring method; filled below the class

    def __init__(self, game: Any, seat: int) -> None:
        self.game = game
        self.seat = seat
        self._military: M.Plan | None = None  # the military purchases wanted (a buy turn)
        self._plan_ready = True  # False until a buy decision's plan is worked out
        self._buying = False  # a buy decision (not a payment)
        self._decision: dict[str, Any] | None = None  # the last decision's copy of the view
        self.reach: M.Reach | None = None  # trireme reaches (the Military phase)
        self.threatened: set[str] = set()  # seas where a fleet carries a landing (ditto)

    # ------------------------------------------------------------------ entry
    def choose(self, view: dict[str, Any] | None, legal: Sequence[str], rng: random.Random) -> str:
        if len(legal) == 1 or view is None:
            return legal[0]
        d = dict(view)
        d["opts"] = self.game.opts
        d["limits"] = self.game.opts["unit_limits"]
        self._prepare(d)
        if legal[0].split(" ", 1)[0] in _TOKEN_VERBS and _plain_tokens(self.scorers):
            return self._choose_token(d, legal)
        # the highest score, ties to the first text in sorted order. In a buy decision the
        # purchases of legions and triremes (which read the military plan) and fortresses
        # come last, each left out when the best so far is above any score it can have: then
        # a tile, the Pyramids or a free piece spares working out the plan (planned_cap), a
        # legion the plan wants or a city spares the fortresses' threats
        scorers = self.scorers
        choice = ""
        best = 0.0
        buying = self._buying
        planned: list[tuple[str, list[str]]] = []
        forts: list[tuple[str, list[str]]] = []
        for a in legal:
            w = a.split()
            if buying and w[0] == "buy":
                if w[1] in PLANNED:
                    planned.append((a, w))
                    continue
                if w[1] == "fortress":
                    forts.append((a, w))
                    continue
            fn = scorers.get(w[0])
            score = 0.0 if fn is None else float(fn(self, d, w))
            if not choice or score > best or (score == best and a < choice):
                choice, best = a, score
        if planned and (not choice or best <= CAP_FLOOR or best <= planned_cap(d)):
            for a, w in planned:
                score = float(scorers["buy"](self, d, w))
                if not choice or score > best or (score == best and a < choice):
                    choice, best = a, score
        for a, w in forts:
            if choice and best > (FORTRESS_CAP + 15.0 if w[-1] == "cheap" else FORTRESS_CAP):
                continue
            score = float(scorers["buy"](self, d, w))
            if not choice or score > best or (score == best and a < choice):
                choice, best = a, score
        return choice

    def _choose_token(self, d: dict[str, Any], legal: Sequence[str]) -> str:
        """:meth:`choose` for a decision on tokens (a payment, a trade offer, take or gift):
        the scores of ``s_pay``, ``s_take``, ``s_offer`` and ``s_give`` worked out inline
        from the counts of goods held, which every candidate reads (many such decisions
        come in a row: one per token)."""
        held = self._good_counts(d)
        scorers = self.scorers
        choice = ""
        best = 0.0
        for a in legal:
            w = a.split()
            verb = w[0]
            if verb in _TOKEN_VERBS and len(w) > 1:  # each scorer reads the token alone
                tok = w[1]
                if verb == "offer" and tok == "size":  # "offer size K": how many to offer (D6)
                    score = float(int(w[2]))
                    if not choice or score > best or (score == best and a < choice):
                        choice, best = a, score
                    continue
                key = good_of(tok) or "tax"
                if verb == "pay":
                    score = (
                        -50.0 if key == "tax" else held.get(key, 0) + (0.5 if tok.startswith("leg:") else 0.0)
                    )
                else:
                    # _token_value, with the token itself among the counts but for a take
                    have = held.get(key, 0) if verb == "take" else held[key] - 1
                    value = 4.0 - 0.1 * have if key == "tax" else (5.0 if have == 0 else 1.0 / (1 + have))
                    score = value if verb == "take" else -value
            else:
                fn = scorers.get(verb)
                score = 0.0 if fn is None else float(fn(self, d, w))
            if not choice or score > best or (score == best and a < choice):
                choice, best = a, score
        return choice

    @property
    def plan(self) -> M.Plan | None:
        """The military plan of the last decision (a buy decision, not a payment; None
        elsewhere), worked out when first read."""
        if not self._plan_ready:
            d = self._decision
            assert d is not None
            self._military = military_plan(d, self.seat)
            self._plan_ready = True
        return self._military

    # ------------------------------------------------------------------ scoring
    def _prepare(self, d: dict[str, Any]) -> None:
        """Work out, once per decision, what scoring every action will read: the military
        plan in a buy turn (not while paying), the reaches and threatened seas in the
        Military phase."""
        stage = d["stage"]
        buy = d.get("buy")
        paying = buy is not None and buy.get("paying") is not None
        self._decision = d
        self._military = None
        self._buying = stage == "buy_turn" and not paying
        self._plan_ready = not self._buying
        if stage.startswith("mil_"):
            self.reach = M.Reach(d)
            if stage in ("mil_row", "mil_sea"):
                self.threatened = set(M.sea_threats(d, self.seat, self.reach))
        else:
            self.reach = None

    def _score(self, d: dict[str, Any], action: str) -> float:
        w = action.split()
        verb = w[0]
        fn = self.scorers.get(verb)
        if fn is None:
            return 0.0
        return float(fn(self, d, w))

    def _res(self, d: dict[str, Any]) -> dict[str, int]:
        res: dict[str, int] = d["res"][self.seat] or {}
        return res

    def _good_counts(self, d: dict[str, Any]) -> dict[str, int]:
        """Tokens held by good type (``tax`` for taxes), trade receipts included (read only:
        counted once per decision, ``d`` being the bot's copy)."""
        memo: dict[str, int] | None = d.get("_good_counts")
        if memo is not None:
            return memo
        counts: dict[str, int] = {}
        for tok, c in self._res(d).items():
            if c > 0:
                key = (tok[4:] if tok[:4] == "leg:" else tok) or "tax"  # good_of, inline
                counts[key] = counts.get(key, 0) + c
        trade = d.get("trade")
        if trade:
            for tok in trade["received"][self.seat]:
                key = good_of(tok) or "tax"
                counts[key] = counts.get(key, 0) + 1
        d["_good_counts"] = counts
        return counts

    def _token_value(self, d: dict[str, Any], tok: str, held: dict[str, int], less: int = 0) -> float:
        """Worth of one more (or one kept) token given ``held`` counts less ``less`` of its
        own kind (1: the counts hold the token itself)."""
        key = good_of(tok) or "tax"
        have = held[key] - less if less else held.get(key, 0)
        if key == "tax":
            return 4.0 - 0.1 * have
        return 5.0 if have == 0 else 1.0 / (1 + have)

    # --- set-up / round start / production
    def s_copy(self, d: dict[str, Any], w: list[str]) -> float:
        return 0.0 if w[1] == "none" else 10 - _COPY_PREF.index(w[1]) if w[1] in _COPY_PREF else -1

    def s_extra(self, d: dict[str, Any], w: list[str]) -> float:
        return 1.0 if w[1] == "draw" else 0.0

    def s_colossus(self, d: dict[str, Any], w: list[str]) -> float:
        return -self._good_counts(d).get(w[1], 0) - 0.01 * D.GOODS.index(w[1])

    # --- trade
    def s_token(self, d: dict[str, Any], w: list[str]) -> float:
        return int(w[2])

    def s_offer(self, d: dict[str, Any], w: list[str]) -> float:
        if w[1] == "size":
            return int(w[2])
        return -self._token_value(d, w[1], self._good_counts(d), 1)

    def s_starter(self, d: dict[str, Any], w: list[str]) -> float:
        return 1.0 if int(w[1]) == self.seat else 0.0

    def s_take(self, d: dict[str, Any], w: list[str]) -> float:
        return self._token_value(d, w[1], self._good_counts(d))

    def s_give(self, d: dict[str, Any], w: list[str]) -> float:
        return -self._token_value(d, w[1], self._good_counts(d), 1)

    # --- buy
    def s_first(self, d: dict[str, Any], w: list[str]) -> float:
        return 1.0 if w[1] == "yes" else 0.0

    def s_next(self, d: dict[str, Any], w: list[str]) -> float:
        s = int(w[1])
        if s == self.seat:
            return 100.0
        # others: the weakest first (the strongest buys last, with a fuller display gone)
        return -len(d["tiles"][s]) - 0.1 * res_counts(d)[s]

    def s_end(self, d: dict[str, Any], w: list[str]) -> float:
        return 0.0

    def s_pay(self, d: dict[str, Any], w: list[str]) -> float:
        tok = w[1]
        counts = self._good_counts(d)
        key = good_of(tok) or "tax"
        if key == "tax":
            return -50.0
        leg = 0.5 if tok.startswith("leg:") else 0.0
        return counts.get(key, 0) + leg

    def s_buy(self, d: dict[str, Any], w: list[str]) -> float:
        what = w[1]
        cheap = w[-1] == "cheap"
        if what == "pyramids":
            return 1000.0
        if what == "tile":
            tile = w[2]
            bonus = sum(D.TILES[tile]["track_bonus"].values()) if tile in D.TILES else 0
            return 500.0 + bonus + _TILE_VALUE.get(tile, 0)
        if what == "marker":
            return self._marker_value(d, w[2])
        if what == "legion":
            value = self._legion_value(d, w[2])
        elif what == "trireme":
            value = self._trireme_value(d, w[2])
        elif what == "fortress":
            value = self._fortress_value(d, w[2])
        else:
            return 0.0
        return value + 15 if cheap else value - self._tax_drain(d, 3)

    def s_free(self, d: dict[str, Any], w: list[str]) -> float:
        if w[1] == "marker":
            return 200.0 + self._marker_value(d, w[2])
        return 150.0 + len(B.built(d, w[2]))

    def _tax_drain(self, d: dict[str, Any], cost: int) -> float:
        """Penalty for a purchase that eats into the taxes kept at the end of the buy turn
        (N3.13): no payment of ``cost`` leaves them, by the payment rules and the readings of
        Hannibal and Cleopatra in force (N0.8.1, N0.8.3, R28). Worked out once per decision
        (``d`` is the bot's copy)."""
        key = f"_tax_drain{cost}"
        memo = d.get(key)
        if memo is None:
            left = dict(self._res(d))
            left["tax"] = max(0, left.get("tax", 0) - int(d["opts"]["taxes_kept_end_of_turn"]))
            memo = d[key] = tax_drain_of(tuple(sorted(left.items())), cost, allowance(d, self.seat))
        return float(memo)

    def s_build(self, d: dict[str, Any], w: list[str]) -> float:
        slot, prov = w[1], w[2]
        kind = D.building_kind(slot)
        if kind in ("capital", "legendary_city"):
            return 90.0
        if kind == "city":
            return 60.0
        if kind == "caravan":
            good = slot.split(":")[1]
            fresh = slot not in built_slots(d)  # no caravan of this good on the board yet
            return 58.0 + (3 if fresh else 0) - 0.01 * D.GOODS.index(good)
        built = d["buildings"].get(prov, ())
        n_car = sum(1 for s in built if s.startswith("caravan:"))
        n_city = sum(1 for s in built if D.building_kind(s) in ("city", "capital", "legendary_city"))
        if kind == "market":
            return 55.0 + 8 * n_car if n_car else 30.0
        if kind == "temple":
            return 55.0 + 8 * n_city if n_city else 30.0
        return 20.0

    def _threat(self, d: dict[str, Any], prov: str) -> int:
        """Enemy legions in ``prov`` and land-adjacent provinces (once per province and
        decision: a legion and a fortress there both ask)."""
        memo: dict[str, int] | None = d.get("_threats")
        if memo is None:
            memo = d["_threats"] = {}
        got = memo.get(prov)
        if got is None:
            table = d["legions"]
            seat = self.seat
            got = 0
            for p in (prov, *D.board(d["n"]).provinces[prov]["land"]):
                row = table.get(p)
                if row is not None:
                    got += sum(row) - row[seat]
            memo[prov] = got
        return got

    def _marker_value(self, d: dict[str, Any], prov: str) -> float:
        return marker_worth(d["n"], prov)

    def _legion_value(self, d: dict[str, Any], prov: str) -> float:
        wanted = self.plan.legions.get(prov) if self.plan is not None else None
        if wanted is not None:
            return wanted[1]
        mine = B.legions(d, prov)[self.seat]
        threat = self._threat(d, prov)
        vc = prov in victory_city_provinces(d)
        if threat > mine:
            return 70.0 + (10 if vc else 0) - mine
        return 35.0 - 3 * mine + (5 if vc else 0)

    def _trireme_value(self, d: dict[str, Any], sea: str) -> float:
        wanted = self.plan.triremes.get(sea) if self.plan is not None else None
        if wanted is not None:
            return wanted[1]
        mine = B.triremes(d, sea)[self.seat]
        return 25.0 - 5 * mine

    def _fortress_value(self, d: dict[str, Any], prov: str) -> float:
        threat = self._threat(d, prov)
        vc = prov in victory_city_provinces(d)
        return (50.0 if threat else 15.0) + (10 if vc else 0)

    def s_keep(self, d: dict[str, Any], w: list[str]) -> float:
        return 0.0 if w[1] == "none" else float(len(w[1].split(",")))

    # --- military
    def s_zeus(self, d: dict[str, Any], w: list[str]) -> float:
        if w[1] == "none":
            return -1.0
        return B.tracks(d, int(w[1]))["military"]

    def s_convert(self, d: dict[str, Any], w: list[str]) -> float:
        return 10.0 if len(w) == 1 else 5.0

    def s_done(self, d: dict[str, Any], w: list[str]) -> float:
        return 0.0

    def s_row(self, d: dict[str, Any], w: list[str]) -> float:
        """Row into a sea where an enemy fleet carries a landing onto an own coast, from a
        sea that is not, when the battle there would pay (N4.4, N4.5)."""
        src, dst = w[1], w[2]
        if dst not in self.threatened or src in self.threatened:
            return -1.0
        row = B.triremes(d, dst)
        enemy = max(range(d["n"]), key=lambda s: (row[s] if s != self.seat else -1, -s))
        win, lost, killed = M.sea_odds(d, self.seat, row[self.seat] + 1, enemy, row[enemy])
        return 2.0 + killed - lost if 2 * killed > lost else -1.0

    def s_seabattle(self, d: dict[str, Any], w: list[str]) -> float:
        """A sea battle when what it sinks outweighs what it loses (N4.5)."""
        value = M.sea_fight_value(d, self.seat, w[1], int(w[2]), self.threatened)
        return 1.0 + value if value > 0 else -1.0

    def s_march(self, d: dict[str, Any], w: list[str]) -> float:
        """Move a legion (N4.6) to attack when the odds and the gain pay for the expected
        losses (:func:`bots_military.attack_value`), or to reinforce an own province under
        threat; never off a building or marker, never below the garrison a threatened own
        province needs."""
        src, dst = w[1], w[2]
        if len(w) > 3:  # never leave an occupied building or a marker
            return -5.0
        seat = self.seat
        moving = self._movable(d, src)
        if moving < 1:
            return -5.0
        markers = d["markers"]
        target_owner = markers.get(dst)
        row = d["legions"].get(dst)
        if row is None:
            row = [0] * d["n"]
        enemy = sum(row) - row[seat]
        if target_owner == seat:
            reach = self.reach if self.reach is not None else M.Reach(d)
            need = self._garrisons(d, reach)[dst]
            return 2.0 if row[seat] < need and markers.get(src) == seat else -5.0
        if target_owner is None and enemy == 0:
            return -5.0
        there = row[self.seat]
        terms = self._attack_terms(d, dst)
        if there and enemy:  # already enough there: keep the rest home
            if M.attack_value_of(terms, there)[1] >= 0.9:
                return -5.0
        value, win = M.attack_value_of(terms, there + moving)
        if win < M.WIN_TO_ATTACK or value <= 0.25:
            return -5.0
        return 2.0 + value + (0.5 if w[0] == "march" else 0.0)

    def _movable(self, d: dict[str, Any], src: str) -> int:
        """Legions that may leave ``src`` this march (N4.6): the free ones that have not
        arrived this phase, never below the garrison of an own province; once per province
        and decision (0: none)."""
        memo: dict[str, int] | None = d.get("_movable")
        if memo is None:
            memo = d["_movable"] = {}
        got = memo.get(src)
        if got is None:
            seat = self.seat
            mil = d.get("mil") or {}
            got = B.free_legions(d, src, seat) - mil.get("arrived", {}).get(src, 0)
            if got >= 1 and d["markers"].get(src) == seat:
                reach = self.reach if self.reach is not None else M.Reach(d)
                need = self._garrisons(d, reach)[src]
                here = B.legions(d, src)[seat]
                got = 0 if here - 1 < need else min(got, here - need)
            memo[src] = got
        return got

    def _garrisons(self, d: dict[str, Any], reach: M.Reach) -> dict[str, int]:
        """The garrison each own province needs (``bots_military.garrisons``), read once
        per decision."""
        got: dict[str, int] | None = d.get("_garrisons")
        if got is None:
            got = d["_garrisons"] = M.garrisons(d, self.seat, reach)
        return got

    def _attack_terms(self, d: dict[str, Any], target: str) -> Any:
        """What an attack on ``target`` reads of the position (``bots_military``), once per
        target and decision: every legion that could march or sail there asks."""
        memo: dict[str, Any] | None = d.get("_attack_terms")
        if memo is None:
            memo = d["_attack_terms"] = {}
        got = memo.get(target)
        if got is None:
            got = memo[target] = M.attack_terms(d, self.seat, target)
        return got

    def s_sail(self, d: dict[str, Any], w: list[str]) -> float:
        return self.s_march(d, w) - 1.0

    def s_fight(self, d: dict[str, Any], w: list[str]) -> float:
        row = B.legions(d, w[1])
        return row[self.seat] - row[int(w[2])]

    def s_lose(self, d: dict[str, Any], w: list[str]) -> float:
        if w[1] == "free":
            return 10.0
        if w[1] == "marker":
            return 0.0
        kind = D.building_kind(w[1])
        return -10.0 if kind in ("capital", "legendary_city") else 5.0

    def s_pillage(self, d: dict[str, Any], w: list[str]) -> float:
        kind = D.building_kind(w[1])
        return 3.0 + (1 if kind in ("temple", "market") else 0) + (0.1 * len(w) if len(w) > 2 else 0)

    def s_occupy(self, d: dict[str, Any], w: list[str]) -> float:
        slots = w[1].split("+")
        vc = sum(1 for s in slots if D.building_kind(s) in ("capital", "legendary_city"))
        return 20.0 * vc + len(slots)

    def s_pass(self, d: dict[str, Any], w: list[str]) -> float:
        return -10.0

    def s_circe(self, d: dict[str, Any], w: list[str]) -> float:
        prov = w[1]
        return 1.0 if self._threat(d, prov) == 0 and B.legions(d, prov)[self.seat] >= 2 else -1.0

    # --- claim / victory ties
    def s_title(self, d: dict[str, Any], w: list[str]) -> float:
        s = int(w[2])
        if s == self.seat:
            return 100.0
        return -sum(1 for t in d["titles"].values() if t == s)

    def s_winner(self, d: dict[str, Any], w: list[str]) -> float:
        return 100.0 if int(w[1]) == self.seat else -int(w[1])


_SCORERS: dict[str, Any] = {
    "copy": HeuristicBot.s_copy,
    "extra": HeuristicBot.s_extra,
    "colossus": HeuristicBot.s_colossus,
    "token": HeuristicBot.s_token,
    "offer": HeuristicBot.s_offer,
    "starter": HeuristicBot.s_starter,
    "take": HeuristicBot.s_take,
    "give": HeuristicBot.s_give,
    "first": HeuristicBot.s_first,
    "next": HeuristicBot.s_next,
    "end": HeuristicBot.s_end,
    "pay": HeuristicBot.s_pay,
    "buy": HeuristicBot.s_buy,
    "free": HeuristicBot.s_free,
    "build": HeuristicBot.s_build,
    "keep": HeuristicBot.s_keep,
    "zeus": HeuristicBot.s_zeus,
    "convert": HeuristicBot.s_convert,
    "done": HeuristicBot.s_done,
    "row": HeuristicBot.s_row,
    "seabattle": HeuristicBot.s_seabattle,
    "march": HeuristicBot.s_march,
    "sail": HeuristicBot.s_sail,
    "fight": HeuristicBot.s_fight,
    "lose": HeuristicBot.s_lose,
    "pillage": HeuristicBot.s_pillage,
    "occupy": HeuristicBot.s_occupy,
    "pass": HeuristicBot.s_pass,
    "circe": HeuristicBot.s_circe,
    "title": HeuristicBot.s_title,
    "winner": HeuristicBot.s_winner,
}
HeuristicBot.scorers = _SCORERS

# Worth of a building to the raider when it picks where to land (capitals and legendary
# cities count towards N6.3; caravans and markets are production).
_RAID_WORTH = {"capital": 4, "legendary_city": 4, "caravan": 2, "market": 2, "city": 1, "temple": 1}


class Raid:
    """Where a raid goes: ``landing`` (an opponent's coastal province), ``staging`` (the
    raider's coastal province the legions sail from), ``chain`` (the seas between them,
    ``staging``'s first, one trireme needed in each: N4.6.2), the ``defenders`` there and
    whether a fortress of theirs stands there."""

    __slots__ = ("landing", "staging", "chain", "defenders", "fortress")

    def __init__(self, landing: str, staging: str, chain: list[str], defenders: int, fortress: bool) -> None:
        self.landing = landing
        self.staging = staging
        self.chain = chain
        self.defenders = defenders
        self.fortress = fortress


class RaiderBot(HeuristicBot):
    """The heuristic bot with a raid on the strongest opponent (a plan: :data:`PLANS`).

    The strongest opponent is scored on his hero/wonder tiles (above all), titles, resources
    and Trade level. The raid lands in his coastal province with the most production and
    victory cities for the fewest defenders and missing triremes (:class:`Raid`). In the Buy
    phase, after tiles and the Pyramids, the raider buys triremes into the first sea of the
    chain until there are enough to span it (one more for a chain of two seas or more: a
    trireme rows one sea a turn, and the first sea must keep one) and legions in the staging
    province until they outnumber the defenders (two per defender, ``margin`` more, three more
    against a fortress); in the Military phase his triremes row forward along the chain and
    the legions sail once they are enough. Conquest choices are the heuristic's (Occupy a
    capital, else Convert). The rest of the time it plays as :class:`HeuristicBot`."""

    name = "raider"

    def __init__(self, game: Any, seat: int, margin: int = 1) -> None:
        super().__init__(game, seat)
        self.margin = margin
        self._raid: Raid | None = None
        self._raid_ready = False

    def _prepare(self, d: dict[str, Any]) -> None:
        super()._prepare(d)
        self._raid_ready = False

    @property
    def raid(self) -> Raid | None:
        """The raid of the last decision (the Buy and Military phases; None elsewhere),
        worked out when first read: most of those decisions (payments, the order of play)
        never read it."""
        if not self._raid_ready:
            d = self._decision
            self._raid = self._plan(d) if d is not None and d["stage"].startswith(("buy_", "mil_")) else None
            self._raid_ready = True
        return self._raid

    def target(self, d: dict[str, Any]) -> int:
        """The strongest opponent (ties: the lowest seat)."""
        best, who = -1.0, -1
        counts = res_counts(d)
        levels = B.all_tracks(d)  # every seat's levels in one pass over the board
        for s in range(d["n"]):
            if s == self.seat:
                continue
            titles = sum(1 for h in d["titles"].values() if h == s)
            t = 3 * B.tiles_counted(d, s) + titles + 0.2 * counts[s] + 0.3 * levels[s]["trade"]
            if t > best:
                best, who = t, s
        return who

    def _plan(self, d: dict[str, Any]) -> Raid | None:
        b = D.board(d["n"])
        mine = [p for p in B.own_provinces(d, self.seat) if b.coastal(p)]
        if not mine:
            return None
        # cheapest chains from the raider's coasts: fewest seas still without his trireme,
        # then fewest seas, then by name (Dijkstra over at most nine seas)
        first = sorted({sea for p in mine for sea in b.provinces[p]["seas"]})
        cost: dict[str, tuple[int, int, list[str]]] = {}
        heap = [(self._missing(d, sea), 1, [sea]) for sea in first]
        heapq.heapify(heap)
        while heap:
            gaps, length, chain = heapq.heappop(heap)
            sea = chain[-1]
            if sea in cost:
                continue
            cost[sea] = (gaps, length, chain)
            for nxt in b.seas[sea]["seas"]:
                if nxt not in cost:
                    heapq.heappush(heap, (gaps + self._missing(d, nxt), length + 1, [*chain, nxt]))
        best: tuple[float, Raid] | None = None
        for p in B.own_provinces(d, self.target(d)):
            ends = [cost[s] for s in b.provinces[p]["seas"] if s in cost]
            if not ends:
                continue
            gaps, length, chain = min(ends)
            worth = sum(_RAID_WORTH.get(D.building_kind(slot), 0) for slot in B.built(d, p))
            defenders = sum(c for s, c in enumerate(B.legions(d, p)) if s != self.seat)
            fort = d["fortresses"].get(p)
            fortress = fort is not None and fort != self.seat
            score = worth - 1.5 * defenders - 3 * fortress - 0.5 * gaps - 0.25 * length
            if best is None or score > best[0]:
                staging = max(
                    (q for q in mine if chain[0] in b.provinces[q]["seas"]),
                    key=lambda q: (B.legions(d, q)[self.seat], q),
                )
                best = (score, Raid(p, staging, chain, defenders, fortress))
        return best[1] if best is not None else None

    def _missing(self, d: dict[str, Any], sea: str) -> int:
        return 0 if B.triremes(d, sea)[self.seat] > 0 else 1

    def _needed(self, raid: Raid) -> int:
        return 2 * raid.defenders + self.margin + (3 if raid.fortress else 0)

    def s_buy(self, d: dict[str, Any], w: list[str]) -> float:
        base = HeuristicBot.s_buy(self, d, w)
        if w[1] not in ("legion", "trireme"):
            return base
        raid = self.raid
        if raid is None or w[1] not in ("legion", "trireme"):
            return base
        if w[2] not in (raid.chain[0], raid.staging):
            return min(base, 63.0)  # the raid's units come before the rest of the military
        bonus = 15.0 if w[-1] == "cheap" else 0.0
        if w[1] == "trireme":
            have = sum(B.triremes(d, sea)[self.seat] for sea in raid.chain)
            if have < len(raid.chain) + (1 if len(raid.chain) > 1 else 0):
                return max(base, 66.0 + bonus)
            return base
        force = B.legions(d, raid.staging)[self.seat] + B.legions(d, raid.landing)[self.seat]
        if force <= self._needed(raid):
            return max(base, 64.0 + bonus)
        return base

    def s_row(self, d: dict[str, Any], w: list[str]) -> float:
        raid = self.raid
        if raid is None:
            return -1.0
        chain = raid.chain
        src, dst = w[1], w[2]
        if dst not in chain or B.triremes(d, dst)[self.seat] > 0:
            return -1.0
        if src in chain and (B.triremes(d, src)[self.seat] < 2 or chain.index(dst) < chain.index(src)):
            return -1.0  # never open a gap in the chain, never row backwards
        return 5.0

    def s_sail(self, d: dict[str, Any], w: list[str]) -> float:
        base = HeuristicBot.s_sail(self, d, w)
        raid = self.raid
        if raid is None or len(w) > 3 or w[2] != raid.landing or not d.get("mil"):
            return base
        there = B.legions(d, raid.landing)[self.seat]
        moving = B.free_legions(d, w[1], self.seat) - d["mil"]["arrived"].get(w[1], 0)
        if there > 0 or there + moving >= self._needed(raid):
            return max(base, 8.0)
        return base


RaiderBot.scorers = {**_SCORERS, "buy": RaiderBot.s_buy, "row": RaiderBot.s_row, "sail": RaiderBot.s_sail}

PLANS: dict[str, Any] = {"raid": RaiderBot}
"""Plans the search may follow for its own seat in a candidate's playouts (docs/bots.md)."""


def victory_condition(position: dict[str, Any], opts: dict[str, Any]) -> str | None:
    """How the winner of a finished game won, read from its final position (N6)."""
    w = position.get("winner")
    if w is None:
        return None
    d = dict(position)
    d["opts"] = opts
    d["limits"] = opts["unit_limits"]
    if d.get("pyramids") == w:
        return "pyramids"
    if B.tiles_counted(d, w) >= int(opts["tiles_to_win"]):
        return "heroes_wonders"
    if B.victory_cities(d, w) >= int(opts["capitals_to_win"]):
        return "capitals"
    if all(t == w for t in d["titles"].values()):
        return "titles"
    return "other"
