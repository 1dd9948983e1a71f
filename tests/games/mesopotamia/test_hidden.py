"""Hidden information (§6): per-seat views, spectators, piles, Land peeks and record redaction."""

from __future__ import annotations

import json

import pytest
from meso_helpers import Board, started

import ziggurat

RED = 2


def secrets_board() -> Board:
    """Red has offerings under two huts and one carried; Red holds cards; others hold one each."""
    b = Board().clear_tribes().turn("r").tile(2, 0, "plains").tile(3, 0, "plains")
    b.hut("r", 2, 2, 0, offering=6).hut("r", 3, 3, 0, offering=2)
    pub = b.offering("r", 7)
    b.tribes(f"ro{pub}@1,0", "r@1,0", "b@1,-1")
    b.hand("r", "land", "teleport").hand("r", "priest", new=True).hand("b", "expulsion")
    return b


def red_of(view: dict) -> dict:
    return view["players"][RED]


def test_own_offering_values_and_hand_are_visible_to_owner_section6() -> None:
    s = secrets_board().state()
    mine = red_of(s.view(RED))
    assert mine["offerings"]["placed"] == {"1": 6, "2": 2, "3": 7}  # which value lies where
    assert mine["offerings"]["unplaced"] == [4]
    assert mine["hand"] == {"land": 1, "teleport": 1, "priest": 1}
    assert mine["new_cards"] == {"priest": 1}
    assert s.view(RED)["viewer"] == "red"


@pytest.mark.parametrize("seat", [0, 1, 3, None])
def test_other_seats_and_spectators_see_no_values_or_hands_section6(seat: int | None) -> None:
    s = secrets_board().state()
    view = s.view(seat)
    red = red_of(view)
    assert red["offerings"]["placed"] == {"1": None, "2": None, "3": None}
    assert red["offerings"]["unplaced"] is None
    assert red["hand"] is None and red["new_cards"] is None
    # ... but they see the counts and which huts and tribes hold Red markers
    assert red["offerings"]["unplaced_count"] == 1
    assert red["hand_size"] == 3 and red["new_count"] == 1
    assert ["red", 2, 2, 0, 1] in view["huts"]
    assert [1, 0, "o3", False] in red["tribes"]
    text = json.dumps(view)
    assert '"land"' not in text and '"teleport"' not in text


def test_a_seat_never_sees_another_seats_hand_section6() -> None:
    s = secrets_board().state()
    assert s.view(0)["players"][0]["hand"] == {"expulsion": 1}
    assert red_of(s.view(0))["hand"] is None
    assert s.view(RED)["players"][0]["hand"] is None
    assert s.view(RED)["players"][0]["hand_size"] == 1


def test_public_information_is_in_every_view_section6() -> None:
    b = secrets_board().mana("r", 3, 5).delivered("g", 4)
    s = b.state()
    full = s.to_position()
    for seat in (0, 1, 2, 3, None):
        view = s.view(seat)
        for key in (
            "tiles",
            "loose",
            "supply",
            "huts",
            "holy_places",
            "discard",
            "deck_size",
            "removed_cards",
            "remaining_tiles",
            "mp",
            "discoveries",
            "turn_order",
        ):
            assert view[key] == full[key], key
        assert [p["size"] for p in view["piles"]] == [p["size"] for p in full["piles"]]
        assert (red_of(view)["mana"], red_of(view)["limit"]) == (3, 5)
        green = view["players"][3]["offerings"]
        assert green["placed"] == {"1": 4} and green["delivered"] == [1]  # delivered: face up


def test_nobody_sees_the_deck_or_the_piles_section6() -> None:
    s = started(4)
    for seat in (0, 1, 2, 3, None):
        view = s.view(seat)
        assert view["deck"] is None
        assert view["deck_size"] == 18
        assert all(p["top"] == [] for p in view["piles"])


def test_offering_ids_reveal_nothing_section6() -> None:
    """Two games that differ only in which value went under which hut look the same to others."""
    views = []
    for first, second in ((7, 2), (2, 7)):
        b = Board().clear_tribes().turn("r", phase="action").tile(2, 0, "plains").hand("r", "land")
        b.tribes("rw@2,0", "r@2,0", "rw@2,0", "r@2,0")
        s = b.state()
        s.apply("hut 2,0 rw@2,0 r@2,0")
        s.apply(f"offer {first}")
        s.apply("hut 2,0 rw@2,0 r@2,0")
        s.apply(f"offer {second}")
        views.append((s.view(0), s.view(None), s.view(RED)))
    assert views[0][0] == views[1][0]
    assert views[0][1] == views[1][1]
    assert views[0][2] != views[1][2]  # the owner knows which is where


def test_land_peek_only_for_the_peeker_section6_M15_5() -> None:
    b = Board().clear_tribes().turn("r").tribes("r@1,-1", "rw@1,-1").hand("r", "land")
    s = b.state()
    s.apply("play land 1")
    s.apply("peek quarry")
    s.apply("peek plains")
    s.apply("peek quarry")
    s.apply("order plains,quarry,quarry")
    assert s.view(RED)["piles"][0]["top"] == [["plains", ["red"]], ["quarry", ["red"]], ["quarry", ["red"]]]
    for seat in (0, 1, 3, None):
        # others learn which pile was peeked and how many tiles, not what they are
        assert s.view(seat)["piles"][0]["top"] == [[None, ["red"]]] * 3
        assert s.view(seat)["piles"][1]["top"] == []
    # once drawn, a peeked tile is public and leaves the peeked stack
    s.apply("move r@1,-1 2,-1")
    s.apply("pile 1")
    assert [2, -1, "plains"] in s.view(0)["tiles"]
    assert s.view(0)["piles"][0]["top"] == [[None, ["red"]]] * 2


def test_records_redacted_per_viewer_section6() -> None:
    s = started(2)  # Blue is seat 1 and draws a card in its first Phase II
    s.apply("end")
    s.apply("draw")
    s.apply("card land")
    rec = ziggurat.record(s)
    game = s.game
    assert "card land" in game.redact_record(rec, 0)["actions"]
    for seat in (1, None):
        actions = game.redact_record(rec, seat)["actions"]
        assert "card land" not in actions
        assert "card ?" in actions


def test_variant_dealt_card_is_hidden_from_others_section6_S8() -> None:
    s = ziggurat.load("mesopotamia", players=3, variant_start_with_one_card=True).new_initial_state()
    s.apply("first b")
    s.apply("deal b priest")
    s.apply("deal y land")
    s.apply("deal r teleport")
    assert s.view(0)["players"][0]["hand"] == {"priest": 1}
    assert s.view(1)["players"][0]["hand"] is None
    assert s.view(1)["players"][0]["hand_size"] == 1
    rec = ziggurat.record(s)
    assert "deal y ?" in s.game.redact_record(rec, 0)["actions"]
    assert "deal b priest" in s.game.redact_record(rec, 0)["actions"]


def test_land_peek_redacted_in_records_for_everyone_else_section6() -> None:
    s = ziggurat.load("mesopotamia", players=2, variant_start_with_one_card=True).new_initial_state()
    s.apply("first b")
    s.apply("deal b land")
    s.apply("deal y priest")
    s.apply("play land 2")
    s.apply("peek forest")
    s.apply("peek plains")
    s.apply("peek plains")
    s.apply("order plains,forest,plains")
    rec = ziggurat.record(s)
    mine = s.game.redact_record(rec, 0)["actions"]
    assert mine[-4:] == ["peek forest", "peek plains", "peek plains", "order plains,forest,plains"]
    for seat in (1, None):
        theirs = s.game.redact_record(rec, seat)["actions"]
        assert theirs[-5:] == ["play land 2", "peek ?", "peek ?", "peek ?", "order ?"]


def test_phase_end_is_asked_of_a_player_holding_an_old_card_R58() -> None:
    """R58: a player holding a card from an earlier turn is asked even when ending the phase is
    the only legal action: whether a card could be played depends on the card's type."""
    for card in ("fertility", "land"):
        s = Board().turn("r").hand("r", card).state()
        s.apply("end")  # Phase I ends: Phase II, whose only legal action here may be the pass
        while s.current_player() == RED and s.to_position()["phase"] != "mana":
            s.apply("pass" if "pass" in s.legal_actions() else s.legal_actions()[0])
        assert s.current_player() == RED and s.to_position()["phase"] == "mana"
        assert "income" in s.legal_actions()
        s.apply("income")
        assert s.current_player() == RED  # asked, not ended by the engine
        assert s.events()[-1][2] is False
        s.apply("end")
        assert s.current_player() != RED


def test_phase_end_is_played_by_the_engine_for_an_empty_hand_R58() -> None:
    """R58: with no card held from an earlier turn the forced decision is public and automatic."""
    s = Board().turn("r").state()
    s.apply("end")
    if "pass" in s.legal_actions():
        s.apply("pass")
    while s.current_player() == RED and s.legal_actions() != ["income"]:
        s.apply(s.legal_actions()[0])
    if s.current_player() == RED:
        s.apply("income")
    assert s.current_player() != RED
    assert any(e[1] == "end" and e[2] for e in s.events())


def test_land_order_is_asked_when_the_peeked_tiles_are_alike_R58() -> None:
    """R58, M15.5: the order decision comes whether or not the peeked tiles differ."""
    b = Board().turn("r").hand("r", "land")
    s = b.state()
    s.apply("play land 1")
    for _ in range(3):
        s.apply("peek forest")
    assert s.current_player() == RED
    assert s.legal_actions() == ["order forest,forest,forest"]
    assert [e[1] for e in s.events()][-1] == "peek forest"
