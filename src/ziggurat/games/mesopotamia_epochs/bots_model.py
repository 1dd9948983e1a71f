"""The heuristic bot's picture of a Mesopotamia: Epochs position, built from a seat's view only.

- :func:`roll_odds` and :func:`capture`: exact combat odds (E12.2-E12.5: the attacker keeps
  the higher of two dice, +1 for Military; the defender one die, two across difficult terrain;
  Urbanisation wins ties unless both sides have it) and the chance of taking an area with a
  given number of tribes, committed one at a time (E12.6, E12.8), with the tribes it costs.
- :class:`Picture`: the map, the Peoples' owners and VP as the view shows them, the active
  round, and a simple **threat model**: every other player's People that borders an area (or
  reaches it by Seafaring) is one attack before our next scoring round, as strong as its next
  pool; not-yet-entered Peoples threaten their start area (displacement, E7.2) and its
  neighbours with the probability that their card is in an opponent's hand. The survival of
  an area held with ``s`` tribes is ``1 - threat * loss(s)``.

Nothing here reads hidden information: card identities come from the view, where whatever
the seat may not know is null (§6).
"""

from __future__ import annotations

from functools import cache
from typing import Any

# loss(s): the chance that an area defended by s tribes falls when it is attacked once
LOSS = (1.0, 0.8, 0.55, 0.4)
URBAN_LOSS = 0.85  # an Urbanisation defender wins ties (E12.5)
THREAT = (0.2, 0.12)  # chance that a People attacks a neighbour: base + per tribe of its pool
FUTURE_KEEP = 0.7  # generic survival per Epoch of an opponent's area (denial values)
CAP = 14  # tribes considered for capture odds (more change nothing measurable)
DENIAL = (2.0, 1.0)  # weight of what an opponent loses, two players / more (measured)
OTHER_WEIGHT = 0.7  # with three or more players: weight of an opponent other than the strongest


@cache
def roll_odds(sides: int, bonus: int, dice: int, urb_att: bool, urb_def: bool) -> tuple[float, float, float]:
    """One roll (E12.2-E12.5, R16-R18): (attacker wins, defender wins, both lose one)."""
    win = lose = tie = 0.0
    n2 = sides * sides
    for x in range(1, sides + 1):
        px = (2 * x - 1) / n2  # the higher of two dice (E12.10)
        for y in range(1, sides + 1):
            py = (2 * y - 1) / n2 if dice == 2 else 1 / sides
            a = x + bonus
            if a > y:
                win += px * py
            elif a < y:
                lose += px * py
            elif urb_att and not urb_def:
                win += px * py
            elif urb_def and not urb_att:
                lose += px * py
            else:
                tie += px * py
    return win, lose, tie


@cache
def capture(defenders: int, tribes: int, odds: tuple[float, float, float]) -> tuple[float, float]:
    """(chance to hold the area, expected tribes spent) committing up to ``tribes`` tribes one
    after another into an area with ``defenders`` (E12.6-E12.8)."""
    tribes = min(tribes, CAP)
    if tribes <= 0:
        return 0.0, 0.0
    if defenders <= 0:
        return 1.0, 1.0
    p, e = _fight(defenders, tribes - 1, odds)
    return p, e + 1.0


@cache
def _fight(defenders: int, rest: int, odds: tuple[float, float, float]) -> tuple[float, float]:
    """An attacking tribe is in the area with ``defenders`` left and ``rest`` in the pool."""
    win, lose, tie = odds
    if defenders == 1:
        pw, ew = 1.0, 0.0
    else:
        pw, ew = _fight(defenders - 1, rest, odds)
    pl, el = capture(defenders, rest, odds)
    pt, et = capture(defenders - 1, rest, odds)
    return win * pw + lose * pl + tie * pt, win * ew + lose * el + tie * et


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Picture:
    """What ``seat`` knows, from its view, in the index form of the rules' data."""

    __slots__ = (
        "game", "rules", "map", "peoples", "seat", "n", "epoch", "epochs", "phase", "vp", "occ",
        "cnt", "held", "owner", "active", "order", "pool", "sea_round", "coast_held", "pending",
        "weights", "entries", "alpha", "reach", "_threat",
    )  # fmt: skip

    def __init__(self, game: Any, view: dict[str, Any], seat: int) -> None:
        rules = game.rules
        m = rules.map
        peoples = rules.peoples
        self.game = game
        self.rules = rules
        self.map = m
        self.peoples = peoples
        self.seat = seat
        self.n = int(view["num_players"])
        self.epoch = int(view["epoch"])
        self.epochs = peoples.epochs
        self.phase = view["phase"]
        self.vp = [int(pl["vp"]) for pl in view["players"]]
        self.occ = [-1] * m.size
        self.cnt = [0] * m.size
        self.held = [0] * peoples.size
        for area, pid, count in view["areas"]:
            a, p = m.index[area], peoples.index[pid]
            self.occ[a] = p
            self.cnt[a] = int(count)
            self.held[p] |= 1 << a
        self.owner = [-1] * peoples.size
        for s, pl in enumerate(view["players"]):
            for card in pl["cards"]:
                if card["people"] is not None:
                    self.owner[peoples.index[card["people"]]] = s
        rnd = view["round"]
        if rnd is None:
            self.active, self.order, self.pool = -1, 0, 0
            self.sea_round = self.coast_held = False
        else:
            self.active = peoples.index[rnd["people"]]
            self.order = int(rnd["order"])
            self.pool = int(rnd["pool"])
            self.sea_round = bool(rnd["sea_start"])
            self.coast_held = bool(rnd["coast_held"])
        self.pending = view["pending"]
        self.weights = self._weights()
        self.entries = self._entries(view)
        self.alpha = [self._alpha(q) for q in range(peoples.size)]
        self.reach = [self._reach(q) for q in range(peoples.size)]
        self._threat: dict[tuple[int, int], float] = {}

    # --- whom to hurt -----------------------------------------------------------------
    def _weights(self) -> list[float]:
        """How much a VP of each seat counts against us: 1 for the strongest opponent (by VP
        plus what its Peoples score per round times the rounds left), less for the others."""
        if self.n == 2:
            return [0.0 if s == self.seat else 1.0 for s in range(2)]
        proj = [float(v) for v in self.vp]
        left = self.epochs - self.epoch + 1
        for q, s in enumerate(self.owner):
            if s >= 0 and self.held[q]:
                proj[s] += self.round_score(q) * left * 0.6
        others = sorted((s for s in range(self.n) if s != self.seat), key=lambda s: -proj[s])
        w = [OTHER_WEIGHT] * self.n
        w[self.seat] = 0.0
        w[others[0]] = 1.0
        return w

    def value(self, p: int, a: int) -> int:
        """E14.2: what area ``a`` scores for People ``p`` each round."""
        m = self.map
        v = 2 if m.double[a] else 1
        return 2 * v if self.peoples.bonus[p] == a else v

    def round_score(self, p: int) -> int:
        return sum(self.value(p, a) for a in bits(self.held[p]))

    def order_of(self, p: int) -> int:
        return int(self.peoples.order(p, self.epoch))

    def acts_later(self, p: int) -> bool:
        """True if ``p`` still has its round (and scoring) later this Epoch."""
        if self.phase == "allocation":
            return True
        return self.order_of(p) > self.order or (p == self.active and self.pending is not None)

    def future_rounds(self) -> int:
        """Epochs after this one (each a further scoring round of every People in play)."""
        return self.epochs - self.epoch

    # --- threats ----------------------------------------------------------------------
    def _entries(self, view: dict[str, Any]) -> list[tuple[int, float]]:
        """Peoples not on the map yet that may enter against us: (People, probability that it
        enters in an opponent's hands; the next Epoch's count half, being further away)."""
        peoples = self.peoples
        seen: set[int] = set()
        hidden = 0  # this Epoch's opponent cards the view does not show
        for s, pl in enumerate(view["players"]):
            for card in pl["cards"]:
                if card["people"] is not None:
                    seen.add(peoples.index[card["people"]])
                elif s != self.seat and card["epoch"] == self.epoch:
                    hidden += 1
        for card in view["set_aside"]:
            if card["people"] is not None:
                seen.add(peoples.index[card["people"]])
        out: list[tuple[int, float]] = []
        cards = peoples.epoch_cards[self.epoch]
        if self.phase == "allocation":
            known_opp = sum(1 for p in cards if p in seen and self.owner[p] not in (-1, self.seat))
            hidden = self.n - 1 - known_opp
            unknown = [p for p in cards if p not in seen]
        elif self.phase == "strategy":
            unknown = [p for p in cards if p not in seen and self.order_of(p) > self.order]
        else:
            return out
        prob = min(1.0, hidden / len(unknown)) if unknown else 0.0
        for p in cards:
            if p in seen:
                s = self.owner[p]
                if s >= 0 and s != self.seat and not self.held[p] and self.acts_later(p) and p != self.active:
                    out.append((p, 1.0))
            elif p in unknown and prob > 0:
                out.append((p, prob))
        if self.epoch < self.epochs:
            nxt = peoples.epoch_cards[self.epoch + 1]
            prob = 0.5 * min(1.0, (self.n - 1) / len(nxt))
            out.extend((p, prob) for p in nxt)
        return out

    def next_pool(self, q: int) -> int:
        """A guess of People ``q``'s next pool: its pool if active, else growth (E6)."""
        if q == self.active:
            return self.pool
        e = self.epoch + (0 if self.acts_later(q) else 1)
        reinf = self.peoples.reinforcements[q].get(e, 0)
        return int(self.rules.growth(q, self.held[q].bit_count())) + reinf

    def _alpha(self, q: int) -> float:
        """The chance that People ``q`` attacks a neighbouring area before our next round."""
        if not self.held[q] or self.owner[q] == self.seat or self.owner[q] < 0:
            return 0.0
        if self.epoch >= self.epochs and not self.acts_later(q):
            return 0.0  # its last round is over
        pool = self.next_pool(q)
        if pool <= 0:
            return 0.0
        a = THREAT[0] + THREAT[1] * pool
        if self.peoples.military[q]:
            a *= 1.25
        return min(0.9, a)

    def _reach(self, q: int) -> int:
        """Areas People ``q`` could place into next (E8.2 b, c), deserts excluded (E11.2)."""
        m = self.map
        held = self.held[q]
        if not held:
            return 0
        reach = 0
        for a in bits(held):
            reach |= m.adj_mask[a]
        if self.peoples.seafaring[q] and held & m.coastal_mask:
            reach |= m.coastal_mask
        return reach & ~m.desert_mask & ~held

    def threat(self, a: int, p: int) -> float:
        """The chance that area ``a``, held by People ``p``, is attacked (or its People
        displaced) before ``p`` scores again."""
        key = (a, p)
        hit = self._threat.get(key)
        if hit is not None:
            return hit
        m = self.map
        me = self.owner[p]
        bit = 1 << a
        safe = 1.0
        if not m.desert[a]:  # E11.5: nothing attacks into a desert
            for q in range(self.peoples.size):
                al = self.alpha[q]
                if al <= 0 or q == p or self.owner[q] == me or not self.reach[q] & bit:
                    continue
                src = self.held[q] & m.adj_mask[a]
                if src and not src & ~m.difficult_into[a]:
                    if not (m.coastal[a] and self.peoples.seafaring[q] and self.held[q] & m.coastal_mask):
                        al *= 0.6  # only difficult routes (E12.4)
                safe *= 1.0 - al
        for q, prob in self.entries:
            if self.owner[q] == me and me >= 0:
                continue
            start = self.peoples.start[q]
            if start == a:
                safe *= 1.0 - prob * 0.9
            elif self.peoples.sea_start[q]:
                if m.coastal[a] and not m.desert[a]:
                    safe *= 1.0 - prob * 0.25
            elif m.adj_mask[start] & bit and not m.desert[a]:
                safe *= 1.0 - prob * 0.5
        out = 1.0 - safe
        self._threat[key] = out
        return out

    def survival(self, a: int, p: int, tribes: int) -> float:
        """Chance that ``p`` still holds ``a`` (with ``tribes``) at its next round."""
        loss = LOSS[min(tribes, 3)]
        if self.peoples.urbanisation[p]:
            loss *= URBAN_LOSS
        return max(0.0, 1.0 - self.threat(a, p) * loss)

    def hold_value(self, p: int, a: int, tribes: int) -> float:
        """VP expected from holding ``a`` in the rounds after this one (future Epochs)."""
        f = self.future_rounds()
        if f <= 0:
            return 0.0
        s = self.survival(a, p, tribes)
        total, keep = 0.0, 1.0
        for _ in range(f):
            keep *= s * (0.85 if keep < 1.0 else 1.0)
            total += keep
        return self.value(p, a) * total

    def denial(self, a: int) -> float:
        """What taking ``a`` from its holder costs that holder's player, weighted by how much
        that player counts against us (negative: it is one of our own Peoples)."""
        q = self.occ[a]
        if q < 0:
            return 0.0
        s = self.owner[q]
        lost = self.value(q, a) * (
            (1.0 if self.acts_later(q) else 0.0)
            + sum(FUTURE_KEEP**j for j in range(1, self.future_rounds() + 1))
        )
        if s == self.seat:
            return -lost
        scale = DENIAL[0] if self.n == 2 else DENIAL[1]
        return scale * lost * (self.weights[s] if s >= 0 else 0.5)
