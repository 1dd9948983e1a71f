"""No secret leaks through forced decisions (spec §6, forced decisions).

The hidden information of Epochs is card identities: a dealt or drawn card not yet face up, the
set-aside cards and the undrawn deck (§6). From positions of seeded random play (the deal, keep
or pass, placement, combat, every Epoch), two hidden cards of the same Epoch swap places, and the
same public continuation (actions and chance outcomes legal in both) is played in both games.
Every seat that knows neither card, and a spectator, must be sent the same: the view, the legal
actions, who is to move, and the step's log (who acted, whether the engine acted, the action
texts and the sentences that viewer reads), until the rules show one of the two cards."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import CHANCE, State
from ziggurat.engine.errors import InvalidPosition
from ziggurat.engine.eventlog import events_since, log_mark
from ziggurat.games.mesopotamia_epochs.describe import describe_step
from ziggurat.games.mesopotamia_epochs.view import redact_events

SEEDS = range(12)
EVERY = 5
CONTINUATION = 30
SWAPS = 3


def _positions(seed: int) -> Iterator[State]:
    """Decision points of one seeded random game to its end, every few plies."""
    game = ziggurat.load("mesopotamia-epochs", players=2 + seed % 4)
    state = game.new_initial_state()
    rng = random.Random(seed)
    ply = 0
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
            if state.legal_actions() and ply % EVERY == 0:
                yield state.clone()  # the keep or pass of a card just drawn
        else:
            if ply % EVERY == 0:
                yield state.clone()
            state.apply(rng.choice(list(state.legal_actions())))
        ply += 1


Slot = tuple[str, int]  # ("hand", seat) / ("aside", -1) / ("deck", -1) / ("drawn", drawer)


def _hidden(pos: dict[str, Any]) -> dict[str, tuple[Slot, int]]:
    """Each face-down card's People: where it is and which seats know it (a bitmask)."""
    out: dict[str, tuple[Slot, int]] = {}
    symbols = [pl["symbol"] for pl in pos["players"]]
    for seat, pl in enumerate(pos["players"]):
        for card in pl["cards"]:
            if not card["public"]:
                known = sum(1 << symbols.index(s) for s in card["known_by"])
                out[card["people"]] = (("hand", seat), known)
    for card in pos["set_aside"]:
        if not card["public"]:
            out[card["people"]] = (("aside", -1), 0)
    for pid in pos["deck"]:
        out[pid] = (("deck", -1), 0)
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep":
        drawer = symbols.index(pos["draw_order"][pos["draw_index"]])
        out[pend[1]] = (("drawn", drawer), 1 << drawer)
    return out


def _swap(pos: dict[str, Any], x: str, y: str, order: dict[str, int]) -> dict[str, Any]:
    """The position with People cards ``x`` and ``y`` in each other's place."""
    trade = {x: y, y: x}
    for pl in pos["players"]:
        for card in pl["cards"]:
            card["people"] = trade.get(card["people"], card["people"])
        pl["cards"].sort(key=lambda c: (c["epoch"], order[c["people"]]))
    for card in pos["set_aside"]:
        card["people"] = trade.get(card["people"], card["people"])
    pos["set_aside"].sort(key=lambda c: (c["epoch"], order[c["people"]]))
    pos["deck"] = sorted((trade.get(p, p) for p in pos["deck"]), key=order.__getitem__)
    pend = pos["pending"]
    if pend is not None and pend[0] == "keep":
        pend[1] = trade.get(pend[1], pend[1])
    return pos


def _pairs(state: State, rng: random.Random) -> list[tuple[str, str, int]]:
    """A few pairs of hidden cards of the same Epoch in different places, with the seats that
    know either (they are left out of the comparison)."""
    pos = state.to_position()
    epoch_of = {c["people"]: c["epoch"] for pl in pos["players"] for c in pl["cards"]}
    epoch_of.update({c["people"]: c["epoch"] for c in pos["set_aside"]})
    hidden = _hidden(pos)
    pairs = [
        (x, y, hidden[x][1] | hidden[y][1])
        for x in sorted(hidden)
        for y in sorted(hidden)
        if x < y
        and hidden[x][0] != hidden[y][0]
        and epoch_of.get(x, pos["epoch"]) == epoch_of.get(y, pos["epoch"])
    ]
    rng.shuffle(pairs)
    return pairs[:SWAPS]


def _log(events: list[Any], viewer: int | None, before: dict[str, Any], after: dict[str, Any]) -> list[Any]:
    return [
        *((e[0], e[2], e[3]) for e in events),
        *redact_events(events, viewer),
        *((str(text), auto) for text, auto in describe_step(events, before, after)),
    ]


def _shown(state: State, ids: tuple[int, int], knowers: int) -> bool:
    """True once the rules have shown one of the two cards to a compared seat or to all."""
    return any(state.public[p] or state.known[p] & ~knowers for p in ids)  # type: ignore[attr-defined]


def _compare(a: State, b: State, viewers: list[int | None]) -> None:
    assert a.current_player() == b.current_player()
    for v in viewers:
        assert a.view(v) == b.view(v), f"view of {v}"
    if a.current_player() in viewers:
        assert list(a.legal_actions()) == list(b.legal_actions())


def _continue(a: State, b: State, ids: tuple[int, int], knowers: int, rng: random.Random) -> int:
    viewers: list[int | None] = [None, *(s for s in range(a.game.num_players) if not knowers >> s & 1)]
    _compare(a, b, viewers)
    for ply in range(CONTINUATION):
        if a.is_terminal():
            assert b.is_terminal()
            return ply
        common = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        if not common:
            return ply
        action = rng.choice(common)
        marks = log_mark(a), log_mark(b)
        before = [(a.view(v), b.view(v)) for v in viewers]
        a.apply(action)
        b.apply(action)
        if _shown(a, ids, knowers) or _shown(b, ids, knowers):
            return ply + 1  # a face-up card, or the receiver of a pass looking at it (E3.5, E3.7)
        _compare(a, b, viewers)
        ev_a, ev_b = events_since(a, marks[0]), events_since(b, marks[1])
        for v, (va, vb) in zip(viewers, before, strict=True):
            assert _log(ev_a, v, va, a.view(v)) == _log(ev_b, v, vb, b.view(v)), f"log of {v}"
    return CONTINUATION


@pytest.mark.slow
def test_swapping_hidden_cards_changes_nothing_another_seat_is_sent_6() -> None:
    """§6 (forced decisions): no decision is played by the engine because of a hidden card, so two hidden cards
    trading places change nothing a seat that knows neither, or a spectator, is sent."""
    rng = random.Random(11)
    tried = refused = plies = 0
    kinds: set[str] = set()
    for seed in SEEDS:
        for state in _positions(seed):
            peoples = state.game.rules.peoples  # type: ignore[attr-defined]
            order = {pid: i for i, pid in enumerate(peoples.ids)}
            for x, y, knowers in _pairs(state, rng):
                try:
                    sub = state.game.state_from_position(_swap(state.to_position(), x, y, order))
                except InvalidPosition:
                    refused += 1  # e.g. a held card whose round has passed must be set aside (E3.7)
                    continue
                tried += 1
                pend = state.pending  # type: ignore[attr-defined]
                kinds.add(pend[0] if pend else state.phase)  # type: ignore[attr-defined]
                ids = (peoples.index[x], peoples.index[y])
                plies += _continue(state.clone(), sub, ids, knowers, random.Random(rng.random()))
    print(
        f"\nmesopotamia-epochs: {tried} swaps ({refused} not positions), {plies} continuation plies, {sorted(kinds)}"
    )
    assert tried > 600
    assert {"keep", "strategy", "displace"} <= kinds
