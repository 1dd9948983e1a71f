"""Action notation: canonical texts round-trip; loose input normalises; bad input is InvalidAction."""

from __future__ import annotations

import random

import pytest
from meso_helpers import Board, load, started

import ziggurat

GAME = load(4)

CANONICAL = [
    "first b",
    "deal y land",
    "move r@1,-1 2,-1",
    "move rw@-1,0 -1,1",
    "move bs@-1,1 0,0",
    "move go3@2,0 1,0",
    "move r@1,0* 1,-1",
    "pickup y@-1,0 wood",
    "pickup y@-1,1 stone",
    "drop rw@-1,0",
    "exchange rw@-1,1 stone",
    "handoff rs@1,0 r@1,0",
    "steal bs@2,0 r@2,0",
    "steal bw@2,0 r@2,0*",
    "offering r@2,0 r2",
    "donate rs@0,0",
    "end",
    "pile 3",
    "tile volcano",
    "volcano -1,-1",
    "share 2,-1",
    "hut 2,0 rw@2,0 r@2,0",
    "offer 7",
    "holy 2,0 rs@2,0 ro1@2,0",
    "grow 2,0 r2 r@2,0 r@2,0",
    "grow 2,0 n1 r@2,0 r@2,0 fertility",
    "draw",
    "card teleport",
    "pass",
    "stop",
    "income",
    "play endurance",
    "play holy_stone",
    "play priest 2,0",
    "play mana_theft g",
    "play land 2",
    "play teleport bo2@-1,0",
    "play expulsion n1",
    "peek quarry",
    "order forest,plains,volcano",
    "to 3,-1",
]


@pytest.mark.parametrize("text", CANONICAL)
def test_canonical_text_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert action == text
    assert str(action) == text
    assert isinstance(action, ziggurat.Action)
    assert GAME.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("loose", "canonical"),
    [
        ("move  r@1,-1   (2, -1)", "move r@1,-1 2,-1"),
        ("  end ", "end"),
        ("first blue", "first b"),
        ("play mana_theft green", "play mana_theft g"),
        ("play land 02", "play land 2"),
        ("offering r@1,0 r01", "offering r@1,0 r1"),
        ("volcano (0, -2)", "volcano 0,-2"),
        # a group's tribes in either order: the resource carrier first, growth pairs sorted
        ("hut 2,0 r@2,0 rw@2,0", "hut 2,0 rw@2,0 r@2,0"),
        ("holy 2,0 ro1@2,0 rs@2,0", "holy 2,0 rs@2,0 ro1@2,0"),
        ("hut 2,0 rs@2,0 rw@2,0", "hut 2,0 rw@2,0 rs@2,0"),
        ("grow 2,0 r2 ro1@2,0 r@2,0", "grow 2,0 r2 r@2,0 ro1@2,0"),
        ("grow 2,0 r2 rw@2,0 rs@2,0 fertility", "grow 2,0 r2 rw@2,0 rs@2,0 fertility"),
    ],
)
def test_loose_input_normalises(loose: str, canonical: str) -> None:
    assert GAME.parse_action(loose) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "jump r@1,0 1,1",
        "move",
        "move r@1,-1",
        "move r@1,-1 2,-1 3,-1",
        "move x@1,-1 2,-1",
        "move R@1,-1 2,-1",
        "move r@1 2,-1",
        "move r1,-1 2,-1",
        "move r@1,-1 2;-1",
        "move rz@1,-1 2,-1",
        "move ro0@1,-1 2,-1",
        "pickup r@1,0 gold",
        "exchange rw@1,0 wood stone",
        "first purple",
        "deal b joker",
        "tile lava",
        "tile temple",
        "pile one",
        "pile -1",
        "offer seven",
        "grow 2,0 r2 r@2,0 r@2,0 twins",
        "hut 2,0 rw@2,0",
        "order plains,sea",
        "play",
        "play joker",
        "play land",
        "play land x",
        "play endurance 3",
        "play teleport 1,0",
        "play expulsion r",
        "play fertility",
        "end now",
        "to 1",
    ],
)
def test_bad_input_is_invalid_action(text: str) -> None:
    with pytest.raises(ziggurat.InvalidAction):
        GAME.parse_action(text)


@pytest.mark.parametrize("text", ["move x@1,-1 2,-1", "play joker", "nonsense", ""])
def test_bad_input_changes_nothing(text: str) -> None:
    s = started(4)
    before = s.fingerprint()
    with pytest.raises(ziggurat.InvalidAction) as info:
        s.apply(text)
    assert isinstance(info.value, ziggurat.ZigguratError) and isinstance(info.value, ValueError)
    assert str(info.value)
    assert s.fingerprint() == before


def test_parsing_does_not_check_legality() -> None:
    # well-formed but impossible: parses; applying it is an IllegalAction, not InvalidAction
    assert GAME.parse_action("move g@9,9 9,8") == "move g@9,9 9,8"
    s = started(4)
    with pytest.raises(ziggurat.IllegalAction):
        s.apply("move g@9,9 9,8")


def _states():
    """States with many kinds of decision pending: a seeded random game and built positions."""
    rng = random.Random(7)
    s = started(3)
    for _ in range(250):
        if s.is_terminal():
            break
        yield s
        legal = list(s.legal_actions())
        s.apply(rng.choice(legal))
    b = Board().clear_tribes().turn("r").tribes("r@1,-1", "rw@1,-1").hand("r", "land", "teleport")
    s = b.state()
    yield s
    s.apply("play land 1")
    for kind in ("plains", "volcano", "forest"):
        s.apply(f"peek {kind}")
    yield s  # order decision
    s.apply("order volcano,forest,plains")
    s.apply("play teleport rw@1,-1")
    yield s  # teleport destinations
    s.apply("to -1,0")
    s.apply("move r@1,-1 2,-1")
    yield s  # pile decision
    s.apply("pile 1")
    yield s  # volcano placement


def test_every_legal_action_round_trips() -> None:
    seen = 0
    for s in _states():
        for action in s.legal_actions():
            assert GAME.parse_action(action) == action
            seen += 1
        for action, _ in s.chance_outcomes():
            assert GAME.parse_action(action) == action
    assert seen > 500
