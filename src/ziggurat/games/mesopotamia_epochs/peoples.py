"""People cards and the turn order (rules spec §2.1, §2.2, §9.2; E4.2, E4.3), validated once.

The default cards are ``peoples.json``; a replacement (game option ``peoples``) is checked
against the map it is used with (§3.6 5 and 6). Peoples are integer indices in file order.
For each Epoch the compiled :attr:`Peoples.schedule` lists ``(order number, people)`` of every
card that can be in play by then, in round order, with the re-scheduled turns (rows 12, 26,
27 of the seed's table) already at their new number (E4.2).
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mesopotamia_epochs.geography import Map

ABILITIES = ("military", "urbanisation", "seafaring", "fast_growth", "slow_growth")


class Peoples:
    """The validated People cards with their order tables."""

    __slots__ = (
        "data", "peoples_id", "ids", "index", "names", "card_epoch", "base_order", "overrides",
        "start", "sea_start", "initial", "reinforcements", "bonus", "abilities", "military",
        "urbanisation", "seafaring", "fast", "slow", "epochs", "schedule", "epoch_cards", "size",
    )  # fmt: skip

    def __init__(self, data: dict[str, Any], board: Map) -> None:
        """:raises ValueError: naming the card and the broken rule."""
        try:
            self._load(data, board)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed peoples data: {exc!r}") from exc

    def _load(self, data: dict[str, Any], board: Map) -> None:
        self.data = data
        self.peoples_id = str(data.get("peoples_id", "custom"))
        cards = data["peoples"]
        if not isinstance(cards, list) or not cards:
            raise ValueError("peoples: 'peoples' must be a non-empty list")
        self.ids = [c["id"] for c in cards]
        self.index = {p: i for i, p in enumerate(self.ids)}
        if len(self.index) != len(self.ids):
            raise ValueError("peoples: a People id is used twice")
        for p in self.ids:
            if not isinstance(p, str) or not p or p != p.lower() or " " in p:
                raise ValueError(f"peoples: id {p!r} must be lower-case snake case")
            if p in board.index:
                raise ValueError(f"peoples: id {p!r} is also an area id; ids must not be ambiguous")
        self.size = len(cards)
        self.names = [str(c.get("name", c["id"])) for c in cards]
        self.card_epoch = [_int(c, "card_epoch", 1) for c in cards]
        self.epochs = max(self.card_epoch)
        for e in range(1, self.epochs + 1):
            if e not in self.card_epoch:
                raise ValueError(f"peoples: no card for Epoch {e}; Epochs must run 1 to {self.epochs}")
        self.base_order = [_int(c, "base_order", 1) for c in cards]
        self.overrides: list[dict[int, int]] = []
        self.reinforcements: list[dict[int, int]] = []
        for c, e0 in zip(cards, self.card_epoch, strict=True):
            over = {
                _epoch(c, k, e0, self.epochs, "order_overrides"): v for k, v in c["order_overrides"].items()
            }
            for v in over.values():
                if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                    raise ValueError(f"peoples: {c['id']}: order override {v!r} must be a positive integer")
            self.overrides.append(over)
            reinf = {}
            for k, v in c["reinforcements"].items():
                e = _epoch(c, k, e0 + 1, self.epochs, "reinforcements")
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise ValueError(f"peoples: {c['id']}: reinforcements {v!r} must be a whole number >= 0")
                reinf[e] = v
            self.reinforcements.append(reinf)
        self.initial = [_int(c, "initial_tribes", 1) for c in cards]
        self.start = []
        self.sea_start = []
        self.bonus = []
        for c in cards:
            start = c["start_area"]
            if start not in board.index:  # §3.6 (5)
                raise ValueError(f"peoples: {c['id']}: start area {start!r} is not on the map (§3.6 5)")
            s = board.index[start]
            if not board.placeable[s] and not board.sea[s]:
                raise ValueError(
                    f"peoples: {c['id']}: start area {start!r} must be land, island, desert or a sea start (§3.6 5)"
                )
            self.start.append(s)
            self.sea_start.append(board.sea[s])
            bonus = c["bonus_area"]
            if bonus not in board.index or not board.placeable[board.index[bonus]]:  # §3.6 (6)
                raise ValueError(
                    f"peoples: {c['id']}: bonus area {bonus!r} must be a land, island or desert area (§3.6 6)"
                )
            self.bonus.append(board.index[bonus])
        self.abilities = []
        for c in cards:
            abil = list(c["abilities"])
            for a in abil:
                if a not in ABILITIES:
                    raise ValueError(
                        f"peoples: {c['id']}: unknown ability {a!r} (one of {', '.join(ABILITIES)})"
                    )
            if "fast_growth" in abil and "slow_growth" in abil:
                raise ValueError(f"peoples: {c['id']}: Fast Growth and Slow Growth exclude each other")
            for a in c.get("seed_abilities", []):
                if a not in abil:
                    raise ValueError(f"peoples: {c['id']}: seed ability {a!r} is missing from abilities")
            self.abilities.append(tuple(abil))
        self.military = ["military" in a for a in self.abilities]
        self.urbanisation = ["urbanisation" in a for a in self.abilities]
        self.seafaring = ["seafaring" in a for a in self.abilities]
        self.fast = ["fast_growth" in a for a in self.abilities]
        self.slow = ["slow_growth" in a for a in self.abilities]
        # E4.2, E4.3: one round per People in play per Epoch, in ascending order number
        self.schedule: list[tuple[tuple[int, int], ...]] = [()]
        self.epoch_cards: list[tuple[int, ...]] = [()]
        for e in range(1, self.epochs + 1):
            rows = sorted((self.order(p, e), p) for p in range(self.size) if self.card_epoch[p] <= e)
            orders = [o for o, _ in rows]
            if len(set(orders)) != len(orders):
                dup = next(o for o in orders if orders.count(o) > 1)
                raise ValueError(f"peoples: two Peoples have order number {dup} in Epoch {e} (E4.2)")
            self.schedule.append(tuple(rows))
            self.epoch_cards.append(tuple(p for p in range(self.size) if self.card_epoch[p] == e))
        self._check_rows(data.get("turn_order_rows"))

    def _check_rows(self, rows: Any) -> None:
        """The optional ``turn_order_rows`` must agree with the cards (the seed's table)."""
        if rows is None:
            return
        want: set[tuple[int, int, str, int | None]] = set()
        for p in range(self.size):
            want.add((self.base_order[p], p, "card", None))
            for e, o in self.overrides[p].items():
                want.add((o, p, "rescheduled", e))
        got: set[tuple[int, int, str, int | None]] = set()
        for r in rows:
            if r["people"] not in self.index:
                raise ValueError(f"peoples: turn_order_rows names unknown People {r['people']!r}")
            got.add((r["row"], self.index[r["people"]], r["type"], r.get("epoch")))
        if got != want:
            bad = sorted(got ^ want, key=lambda t: t[0])[0]
            raise ValueError(f"peoples: turn_order_rows disagree with the cards at row {bad[0]} (E4.2)")

    def order(self, p: int, epoch: int) -> int:
        """E4.2: the People's order number in ``epoch``."""
        return self.overrides[p].get(epoch, self.base_order[p])

    def rescheduled(self, p: int, epoch: int) -> bool:
        """True if ``p`` acts at a re-scheduled number in ``epoch`` (rows 12, 26, 27; R6)."""
        return epoch in self.overrides[p] and self.overrides[p][epoch] != self.base_order[p]


def _int(card: dict[str, Any], key: str, least: int) -> int:
    v = card[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < least:
        raise ValueError(f"peoples: {card.get('id')}: {key} must be an integer >= {least}, not {v!r}")
    return v


def _epoch(card: dict[str, Any], key: str, least: int, most: int, field: str) -> int:
    try:
        e = int(key)
    except ValueError:
        raise ValueError(f"peoples: {card.get('id')}: {field} key {key!r} is not an Epoch number") from None
    if not least <= e <= most:
        raise ValueError(f"peoples: {card.get('id')}: {field} for Epoch {e} is outside {least} to {most}")
    return e
