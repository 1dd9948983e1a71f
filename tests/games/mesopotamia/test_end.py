"""End of game (M16, M1.4, R57)."""

from __future__ import annotations

import pytest
from meso_helpers import Board, mine, started

import ziggurat


def three_delivered(value: int = 7, mana: int = 7, **options) -> tuple[Board, int]:
    """Red has delivered 2, 4, 6 and carries the last marker next to the temple."""
    b = Board(**options).clear_tribes().turn("r").mana("r", mana, 8)
    others = [v for v in (2, 4, 6, 7) if v != value]
    b.delivered("r", *others)
    pub = b.offering("r", value)
    b.tribes(f"ro{pub}@1,0", "r@1,0", "rw@1,0", "g@1,-1")
    return b, pub


def test_fourth_delivery_wins_at_once_M16_1_M1_4() -> None:
    b, pub = three_delivered()
    s = b.state()
    s.apply(f"move ro{pub}@1,0 0,0")
    assert s.is_terminal()
    assert s.current_player() == ziggurat.TERMINAL
    assert s.returns() == [0.0, 0.0, 1.0, 0.0]
    pos = s.to_position()
    assert pos["winner"] == "red"
    assert pos["phase"] == "over"
    assert pos["mp"] == 4  # the rest of the turn is not played
    assert len(mine(s, "red")["offerings"]["delivered"]) == 4
    assert list(s.legal_actions()) == []


def test_no_action_after_the_end_M16_1() -> None:
    b, pub = three_delivered()
    s = b.state()
    s.apply(f"move ro{pub}@1,0 0,0")
    before = s.fingerprint()
    for action in ("end", "move r@1,0 1,-1", "pass"):
        with pytest.raises(ziggurat.GameOver, match="M16.1"):
            s.apply(action)
    assert s.fingerprint() == before


def test_three_deliveries_do_not_end_the_game_M16_1() -> None:
    b = Board().clear_tribes().turn("r").mana("r", 6, 8).tribes("r@1,0", "rw@1,0")
    b.delivered("r", 2, 4)
    pub = b.offering("r", 6)
    b.tribes(f"ro{pub}@1,0")
    s = b.state()
    s.apply(f"move ro{pub}@1,0 0,0")
    assert not s.is_terminal()
    assert s.returns() == [0.0] * 4
    assert len(mine(s, "red")["offerings"]["delivered"]) == 3


def test_failed_fourth_delivery_does_not_end_the_game_M16_1() -> None:
    b, pub = three_delivered(mana=6)
    s = b.state()
    s.apply(f"move ro{pub}@1,0 0,0")
    assert not s.is_terminal()
    assert s.returns() == [0.0] * 4


def test_fourth_delivery_by_teleport_in_phase_three_ends_game_M16_1_M15_7() -> None:
    b, pub = three_delivered()
    b.turn("r", phase="mana").hand("r", "teleport")
    s = b.state()
    s.apply(f"play teleport ro{pub}@1,0")
    s.apply("to 0,0")
    assert s.is_terminal()
    assert s.to_position()["winner"] == "red"


def test_no_other_end_and_no_draw_M16_2_R57() -> None:
    s = started(2)
    for _ in range(12):  # six rounds of passing
        s.apply("end")
        s.apply("pass")
    assert not s.is_terminal()
    assert s.to_position()["round"] == 7


def test_round_limit_stops_a_game_without_winner_M16_2() -> None:
    s = started(2, round_limit=2)
    for _ in range(4):
        s.apply("end")
        s.apply("pass")
    assert s.is_terminal()
    assert s.returns() == [0.0, 0.0]
    assert s.to_position()["winner"] is None


def test_rank_non_winners_picks_a_unique_leader_M16_2() -> None:
    b = Board(round_limit=2, rank_non_winners=True).turn("g", round_=2)  # Green is last in turn order
    b.delivered("y", 2).delivered("r", 7).delivered("b", 7)
    b.mana("b", 3).mana("r", 1)
    s = b.state()
    s.apply("end")
    s.apply("pass")
    assert s.is_terminal()
    # one offering each for Yellow, Red and Blue; Red and Blue both delivered 7; Blue has more Mana
    assert s.to_position()["winner"] == "blue"
    assert s.returns() == [1.0, 0.0, 0.0, 0.0]


def test_rank_non_winners_tie_has_no_winner_M16_2() -> None:
    b = Board(round_limit=2, rank_non_winners=True).turn("g", round_=2)
    b.delivered("r", 7).delivered("b", 7)
    s = b.state()
    s.apply("end")
    s.apply("pass")
    assert s.is_terminal()
    assert s.returns() == [0.0] * 4
