"""Helpers for the Mesopotamia: Epochs rules tests (spec ``docs/rules/mesopotamia-epochs.md``).

Situations are positions: :class:`Board` writes one (cards, tribes, VP, the round under way
and any pending decision) and loads it with ``state_from_position``. It keeps the declared
invariants true (tribe ledger, one card per player per Epoch, VP = the Peoples' scores), so
tests can also check them with :func:`conserved`. Seats are the symbols: 0 brooch, 1 head,
2 mask, 3 statue, 4 urn ("Ann", "Ben", "Cal" of the worked examples are seats 0, 1, 2).
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_PEOPLES, SYMBOLS

GAME = "mesopotamia-epochs"
ANN, BEN, CAL = 0, 1, 2
PEOPLES = DEFAULT_PEOPLES


def load(players: int = 3, **options: Any) -> Any:
    return ziggurat.load(GAME, players=players, **options)


def conserved(state: Any) -> None:
    """The game's declared invariants hold."""
    assert state.game.invariants(state) == []


def refuse(state: Any, action: str, *rules: str, exc: type[Exception] = ziggurat.IllegalAction) -> str:
    """``action`` is refused with ``exc``, the message names every rule, and nothing changes."""
    assert rules or exc is not ziggurat.IllegalAction, "a rules refusal must name its rule"
    before = state.fingerprint()
    legal = list(state.legal_actions())
    history = state.history()
    assert action not in legal
    with pytest.raises(exc) as info:
        state.apply(action)
    message = str(info.value)
    for rule in rules:
        assert re.search(re.escape(rule) + r"(?![\d.]*\d)", message), f"{rule} not named in {message!r}"
    assert state.fingerprint() == before
    assert list(state.legal_actions()) == legal
    assert state.history() == history
    return message


def areas(state: Any) -> dict[str, tuple[str, int]]:
    """Area id -> (People id, tribes) for every occupied area."""
    return {a: (p, n) for a, p, n in state.to_position()["areas"]}


def vp(state: Any) -> list[int]:
    return [pl["vp"] for pl in state.to_position()["players"]]


def pool(state: Any) -> int:
    return int(state.to_position()["round"]["pool"])


def targets(state: Any) -> list[str]:
    """The areas of the D4 targets now legal."""
    return sorted(a.split(" ", 1)[1] for a in state.legal_actions() if a.startswith("place "))


def order_of(people: str, epoch: int) -> int:
    return PEOPLES.order(PEOPLES.index[people], epoch)


class Board:
    """Writes a position: ``Board(3, epoch=2).deal(ANN, "akkadians", "minoans").tribes(...)``.

    Cards not dealt explicitly go, Epoch by Epoch, to the seats still without one, in the data
    file's order; the rest of each dealt Epoch is set aside. In the Strategy segment, cards of
    this Epoch whose round has begun (order <= the round's order) are face up.
    """

    def __init__(self, players: int = 3, epoch: int = 1, phase: str = "strategy", **options: Any) -> None:
        self.game = load(players, **options)
        self.n = players
        self.epoch = epoch
        self.phase = phase
        self.cards: dict[int, dict[int, str]] = {q: {} for q in range(players)}
        self.area_rows: dict[str, tuple[str, int]] = {}
        self.vps = [0] * players
        self.rnd: dict[str, Any] | None = None
        self.pend: list[Any] | None = None
        self.draw: tuple[list[int], int] = ([], 0)
        self.deck: list[str] | None = None
        self.known_extra: dict[str, list[int]] = {}
        self.public_extra: set[str] = set()
        self.unseen_cards: set[str] = set()

    # --- cards ------------------------------------------------------------------------
    def deal(self, seat: int, *peoples: str) -> Board:
        """``seat`` holds these cards (one per Epoch)."""
        for pid in peoples:
            self.cards[seat][PEOPLES.card_epoch[PEOPLES.index[pid]]] = pid
        return self

    def knows(self, pid: str, *seats: int) -> Board:
        """These seats know card ``pid`` too (its drawer, who passed it)."""
        self.known_extra.setdefault(pid, []).extend(seats)
        return self

    def unseen(self, pid: str) -> Board:
        """Card ``pid`` was passed to its holder, who may not look yet (E3.5)."""
        self.unseen_cards.add(pid)
        return self

    # --- map and score ----------------------------------------------------------------
    def tribes(self, area: str, people: str, count: int) -> Board:
        self.area_rows[area] = (people, count)
        return self

    def vp(self, seat: int, points: int) -> Board:
        self.vps[seat] = points
        return self

    # --- whose decision ---------------------------------------------------------------
    def round(self, people: str, pool: int, sea_start: bool = False, coast_held: bool | None = None) -> Board:
        """It is ``people``'s round with ``pool`` tribes left (D4 unless a pending is set)."""
        self.rnd = {
            "people": people,
            "order": order_of(people, self.epoch),
            "pool": pool,
            "sea_start": sea_start,
            "coast_held": coast_held,
        }
        return self

    def pending(self, *pend: Any) -> Board:
        self.pend = list(pend)
        return self

    def drawing(self, order: list[int], index: int, deck: list[str] | None = None) -> Board:
        """Allocation: the draw order, who draws next, and the undrawn cards."""
        self.draw = (order, index)
        self.deck = deck
        return self

    # --- loading ----------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        game = self.game
        peoples = game.rules.peoples
        m = game.rules.map
        dealt_epochs = self.epoch - (1 if self.phase == "allocation" else 0)
        holder: dict[str, int] = {}
        for seat, by_epoch in self.cards.items():
            for pid in by_epoch.values():
                holder[pid] = seat
        set_aside: list[str] = []
        for e in range(1, dealt_epochs + 1):
            free = [peoples.ids[p] for p in peoples.epoch_cards[e] if peoples.ids[p] not in holder]
            for seat in range(self.n):
                if e not in self.cards[seat]:
                    pid = free.pop(0)
                    self.cards[seat][e] = pid
                    holder[pid] = seat
            set_aside.extend(free)
        rnd = copy.deepcopy(self.rnd)
        current = rnd["order"] if rnd else 0
        on_map = {pid for pid, _ in self.area_rows.values()}

        def public(pid: str) -> bool:
            p = peoples.index[pid]
            e = peoples.card_epoch[p]
            if pid in self.public_extra or e < self.epoch or self.phase == "over" or pid in on_map:
                return True  # (a People with tribes on the map has had its first round)
            return self.phase == "strategy" and peoples.order(p, e) <= current

        def aside_public(pid: str) -> bool:
            e = peoples.card_epoch[peoples.index[pid]]
            return pid in self.public_extra or e < self.epoch or self.phase == "over"

        players = []
        for seat in range(self.n):
            cards = []
            for e in sorted(self.cards[seat]):
                pid = self.cards[seat][e]
                known = {seat, *self.known_extra.get(pid, [])}
                if pid in self.unseen_cards:
                    known.discard(seat)
                cards.append(
                    {
                        "epoch": e,
                        "people": pid,
                        "known_by": [SYMBOLS[q] for q in sorted(known)],
                        "public": public(pid),
                    }
                )
            players.append({"symbol": SYMBOLS[seat], "vp": self.vps[seat], "cards": cards})
        stats = {pid: {"vp": 0, "entered": 0, "removed": 0} for pid in peoples.ids}
        dealt = [pid for by_epoch in self.cards.values() for pid in by_epoch.values()]
        for seat in range(self.n):
            if self.vps[seat]:
                first = self.cards[seat][min(self.cards[seat])]
                stats[first]["vp"] = self.vps[seat]
        rows = []
        for a in m.ids:
            if a in self.area_rows:
                pid, count = self.area_rows[a]
                rows.append([a, pid, count])
                stats[pid]["entered"] += count
        pend = copy.deepcopy(self.pend)
        if pend and pend[0] == "combat" and rnd:
            stats[rnd["people"]]["entered"] += 1
        if rnd is not None and rnd["coast_held"] is None:
            held = [a for a, (pid, _) in self.area_rows.items() if pid == rnd["people"]]
            rnd["coast_held"] = any(m.coastal[m.index[a]] for a in held)
        deck: list[str] = []
        if self.phase == "allocation":
            if self.deck is not None:
                deck = list(self.deck)
            else:
                in_hand = {self.cards[q].get(self.epoch) for q in range(self.n)}
                drawn = pend[1] if pend and pend[0] == "keep" else None
                deck = [
                    peoples.ids[p]
                    for p in peoples.epoch_cards[self.epoch]
                    if peoples.ids[p] not in in_hand and peoples.ids[p] != drawn
                ]
        return {
            "format": "ziggurat-position/mesopotamia-epochs/1",
            "num_players": self.n,
            "map": m.map_id,
            "peoples_data": peoples.peoples_id,
            "epoch": self.epoch,
            "phase": self.phase,
            "players": players,
            "deck": deck,
            "deck_size": len(deck),
            "set_aside": [
                {"epoch": peoples.card_epoch[peoples.index[pid]], "people": pid, "public": aside_public(pid)}
                for pid in sorted(
                    set_aside, key=lambda x: (peoples.card_epoch[peoples.index[x]], peoples.index[x])
                )
            ],
            "draw_order": [SYMBOLS[q] for q in self.draw[0]],
            "draw_index": self.draw[1],
            "areas": rows,
            "peoples": {pid: st for pid, st in stats.items() if pid in dealt and public(pid)},
            "round": rnd if self.phase == "strategy" else None,
            "pending": pend,
        }

    def state(self) -> Any:
        """The position loaded with every check but the ledgers (tribes, cards, VP) and the
        draw order's agreement with the VP, which hand-set situations leave out."""
        from ziggurat.games.mesopotamia_epochs.position import load_position

        return load_position(self.game, self.position(), strict=False)


def play(state: Any, *actions: str) -> Any:
    """Apply ``actions`` in order (each must be legal); returns the state."""
    for action in actions:
        assert action in state.legal_actions(), (action, list(state.legal_actions())[:12])
        state.apply(action)
    return state
