"""Secrets never show through forced decisions (§6, R58): a substitution test.

From seeded positions of random play (every phase, many plies), each secret of one seat (a card
in hand, the values of its offerings, a tile it saw with Land) is replaced by another of the same
kind through ``to_position`` / ``state_from_position``; then the same public continuation is
played in both games (actions and chance outcomes legal in both). Every seat that does not know
the secret, and a spectator, must be sent the same thing in both: the view, whose turn it is, the
legal actions when they are to move, and the event log as they see it (text, actor, auto flag).
A continuation stops where the rules reveal the secret (a delivery attempt shows the offering's
value, a drawn tile shows what the peek saw).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import CHANCE, sample_chance

COLOURS = ["blue", "yellow", "red", "green"]
SEEDS = range(2)
PLIES = 700  # decisions per seeded game (several rounds, every phase)
EVERY = 12  # a snapshot every so many plies
CONTINUATION = 20  # actions played after a substitution
# Land is common and peeks 3 tiles in the default game; the start card gives every seat a hand.
OPTIONS: dict[str, Any] = {"variant_start_with_one_card": True}

Substitution = tuple[str, frozenset[int], dict[str, Any]]  # what, who knows it, edited position


def _game(players: int) -> Any:
    return ziggurat.load("mesopotamia", players=players, **OPTIONS)


def _snapshots(players: int, seed: int) -> Iterator[Any]:
    """States of a seeded game of uniformly random play, every ``EVERY`` plies."""
    rng = random.Random(seed)
    state = _game(players).new_initial_state()
    for ply in range(PLIES):
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        # every Land peek under way too: its order decision depends on the tiles seen so far
        mid_peek = state.current_player() == CHANCE and state.legal_actions()[0].startswith("peek ")
        if ply % EVERY == 0 or mid_peek:
            yield state.clone()


def _hand_swaps(pos: dict[str, Any], seat: int, rng: random.Random) -> Iterator[Substitution]:
    """A card of ``seat``'s hand exchanged for one of another type left in the deck."""
    pl = pos["players"][seat]
    deck = pos["deck"]
    for card in sorted(pl["hand"]):
        others = sorted(k for k, n in deck.items() if n and k != card)
        if not others:
            continue
        alt = rng.choice(others)
        new = _edit(pos)
        npl = new["players"][seat]
        # a card drawn this turn stays one drawn this turn (its count is public)
        fresh = pl["new_cards"].get(card, 0) == pl["hand"][card]
        for key, counts in (("hand", npl["hand"]), ("deck", new["deck"])):
            sign = 1 if key == "hand" else -1
            _bump(counts, card, -sign)
            _bump(counts, alt, sign)
        if fresh:
            _bump(npl["new_cards"], card, -1)
            _bump(npl["new_cards"], alt, 1)
        yield f"hand {COLOURS[seat]} {card}->{alt}", frozenset({seat}), new


def _offering_swaps(pos: dict[str, Any], seat: int, rng: random.Random) -> Iterator[Substitution]:
    """Two of ``seat``'s hidden offering values exchanged (under huts, carried or unplaced)."""
    off = pos["players"][seat]["offerings"]
    shown = set(off["revealed"]) | set(off["delivered"])
    slots: list[tuple[str, Any, int]] = [
        ("placed", k, v) for k, v in off["placed"].items() if int(k) not in shown
    ]
    slots += [("unplaced", i, v) for i, v in enumerate(off["unplaced"])]
    pairs = [(a, b) for i, a in enumerate(slots) for b in slots[i + 1 :] if a[2] != b[2]]
    if not pairs:
        return
    a, b = rng.choice(pairs)
    new = _edit(pos)
    noff = new["players"][seat]["offerings"]
    for (where, key, _), value in ((a, b[2]), (b, a[2])):
        noff[where][key] = value
    noff["unplaced"].sort()
    yield f"offerings {COLOURS[seat]} {a[2]}<->{b[2]}", frozenset({seat}), new


def _peek_swaps(pos: dict[str, Any], rng: random.Random) -> Iterator[Substitution]:
    """A Land-peeked tile replaced by another kind nobody has seen (the pool stays the same)."""
    seen: dict[str, int] = {}
    for pile in pos["piles"]:
        for kind, _ in pile["top"]:
            seen[kind] = seen.get(kind, 0) + 1
    unseen = sorted(k for k, n in pos["remaining_tiles"].items() if n > seen.get(k, 0))
    for p, pile in enumerate(pos["piles"]):
        for i, (kind, knowers) in enumerate(pile["top"]):
            others = [k for k in unseen if k != kind]
            if not others:
                continue
            new = _edit(pos)
            new["piles"][p]["top"][i][0] = rng.choice(others)
            who = frozenset(COLOURS.index(c) for c in knowers)
            yield f"peek pile {p + 1} tile {i + 1} {kind}", who, new


def _edit(pos: dict[str, Any]) -> dict[str, Any]:
    import copy

    return copy.deepcopy(pos)


def _bump(counts: dict[str, int], card: str, by: int) -> None:
    counts[card] = counts.get(card, 0) + by
    if not counts[card]:
        del counts[card]


def _substitutions(state: Any, rng: random.Random) -> Iterator[Substitution]:
    pos = state.to_position()
    for seat in range(state.game.num_players):
        yield from _hand_swaps(pos, seat, rng)
        yield from _offering_swaps(pos, seat, rng)
    yield from _peek_swaps(pos, rng)


def _seen_by(state: Any, viewer: int | None) -> tuple[Any, ...]:
    """Everything ``viewer`` (None: a spectator) is sent about ``state``."""
    who = state.current_player()
    events = [tuple(e) for e in state.events()]
    log = state.game.hooks.redact_events.get()(events, viewer)
    flags = [(e[0], e[2], e[3]) for e in events]
    legal = state.legal_actions() if who == viewer else None
    return state.view(viewer), who, legal, log, flags


def _shown(state: Any, what: str) -> Any:
    """What the rules have shown of the substituted secret: the owner's revealed and delivered
    offerings (a delivery attempt, M6.4), or the size of the peeked pile (a drawn tile is public)."""
    words = what.split()
    pos = state.to_position()
    if words[0] == "offerings":
        off = pos["players"][COLOURS.index(words[1])]["offerings"]
        return off["revealed"], off["delivered"]
    if words[0] == "peek":
        return pos["piles"][int(words[2]) - 1]["size"]
    return None


def _learners(before: dict[str, Any], after: dict[str, Any], what: str) -> set[int]:
    """Seats that have just seen something the substitution changed: a card drawn from the
    edited deck, or a Land peek at the edited pile."""
    words = what.split()
    if words[0] == "hand":
        sizes = zip(before["players"], after["players"], strict=True)
        return {q for q, (x, y) in enumerate(sizes) if y["hand_size"] > x["hand_size"]}
    if words[0] == "peek":
        top = after["piles"][int(words[2]) - 1]["top"]
        return {COLOURS.index(c) for _, knowers in top for c in knowers}
    return set()


def _continue(
    a: Any, b: Any, what: str, rng: random.Random, check: Callable[[], None], viewers: list[Any]
) -> None:
    """Play the same actions in ``a`` and ``b`` (legal in both), checking after each one what
    ``viewers`` are sent; stop where the rules reveal the secret to everyone."""
    for _ in range(CONTINUATION):
        if a.is_terminal() or b.is_terminal():
            return
        if a.current_player() == CHANCE:
            outcomes = {o for o, _ in b.chance_outcomes()}
            common = [o for o, _ in a.chance_outcomes() if o in outcomes]
        else:
            other = set(b.legal_actions())
            common = [x for x in a.legal_actions() if x in other]
        if not common:
            return  # the chance event itself differs; drawing it shows it to everyone
        action = rng.choice(common)
        shown = _shown(a, what)
        before = a.to_position()
        a.apply(action)
        b.apply(action)
        if _shown(a, what) != shown:
            return  # the rules showed the secret to everyone
        for q in _learners(before, a.to_position(), what):
            if q in viewers:
                viewers.remove(q)
        check()


def _cases(players: int) -> Iterator[tuple[Any, Substitution, int]]:
    for seed in SEEDS:
        rng = random.Random(1000 + seed)
        for state in _snapshots(players, seed):
            for sub in _substitutions(state, rng):
                yield state, sub, seed


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_substituting_a_secret_changes_nothing_others_are_sent_R58(players: int) -> None:
    """§6, R58: replacing another seat's secret by one of the same kind changes nothing that a
    seat without it, or a spectator, is sent, over the same public continuation."""
    tried = {"hand": 0, "offerings": 0, "peek": 0}
    for state, (what, knowers, pos), seed in _cases(players):
        game = state.game
        a = game.state_from_position(state.to_position())
        b = game.state_from_position(pos)
        viewers = [v for v in [*range(players), None] if v not in knowers]
        rng = random.Random(f"{seed} {what}")

        def check(a: Any = a, b: Any = b, what: str = what, viewers: list[int | None] = viewers) -> None:
            for v in viewers:
                assert _seen_by(a, v) == _seen_by(b, v), f"{what} shows to {v} ({a.history()[-6:]})"

        check()
        _continue(a, b, what, rng, check, viewers)
        tried[what.split()[0]] += 1
    print(f"mesopotamia {players}p substitutions: {tried}")
    assert tried["hand"] > 100 and tried["offerings"] > 50 and tried["peek"] > 0


def test_land_order_after_a_substituted_peek_is_asked_all_the_same_R58() -> None:
    """R58, M15.5: Red has seen two forests of pile 1 and a third peek comes; whether the first
    peeked tile is a forest or plains, nobody else sees a difference once the third one is seen."""
    from meso_helpers import Board

    s = Board().turn("r").hand("r", "land").state()
    s.apply("play land 1")
    s.apply("peek forest")
    s.apply("peek forest")
    pos = s.to_position()
    (what, knowers, alt) = next(sub for sub in _peek_swaps(pos, random.Random(0)) if "tile 1" in sub[0])
    alt["piles"][0]["top"][0][0] = "plains"
    a, b = s.game.state_from_position(pos), s.game.state_from_position(alt)
    assert knowers == {2}
    a.apply("peek forest")
    b.apply("peek forest")
    assert a.legal_actions() == ["order forest,forest,forest"]  # one order, asked all the same
    assert len(b.legal_actions()) == 3  # plains among two forests: three orders
    for v in (0, 1, 3, None):
        assert _seen_by(a, v) == _seen_by(b, v), what
