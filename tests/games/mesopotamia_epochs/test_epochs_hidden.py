"""Hidden information (§6): per-seat views, spectators, determinization and record redaction."""

from __future__ import annotations

import json
import random

import pytest
from epochs_helpers import ANN, BEN, CAL, PEOPLES, Board, load, play

import ziggurat

PUBLIC_KEYS = ("epoch", "phase", "areas", "peoples", "round", "draw_order", "draw_index", "deck_size")


def mid_deal() -> ziggurat.State:
    """Epoch 2, 3 players: Cal drew the Minoans and passed them to Ann; Ben has just drawn."""
    b = Board(3, epoch=2, phase="allocation").deal(ANN, "akkadians").deal(BEN, "guti").deal(CAL, "sumerians")
    b.tribes("akkad", "akkadians", 1).tribes("gutium", "guti", 1).tribes("uruk", "sumerians", 1)
    b.deal(ANN, "minoans").knows("minoans", CAL).unseen("minoans")
    return b.drawing([CAL, BEN, ANN], 1).pending("keep", "hittites").state()


def test_a_drawn_card_is_seen_by_its_drawer_only_E3_3() -> None:
    s = mid_deal()
    assert s.view(BEN)["pending"] == ["keep", "hittites"]
    for seat in (ANN, CAL, None):
        assert s.view(seat)["pending"] == ["keep", None]
        assert "hittites" not in json.dumps(s.view(seat))


def test_a_passed_card_is_known_to_its_passer_not_yet_its_receiver_E3_5() -> None:
    s = mid_deal()
    ann_card = lambda seat: s.view(seat)["players"][ANN]["cards"][1]  # noqa: E731
    assert ann_card(CAL)["people"] == "minoans"
    assert ann_card(ANN)["people"] is None
    assert ann_card(BEN)["people"] is None and ann_card(None)["people"] is None
    assert ann_card(None)["known_by"] == ["mask"]  # who passed it is public (§6)


def test_deck_make_up_is_hidden_its_size_public_section6() -> None:
    s = mid_deal()
    assert s.to_position()["deck"] == ["amorites", "phoenicians", "kassites"]
    for seat in (ANN, BEN, CAL, None):
        v = s.view(seat)
        assert v["deck"] is None and v["deck_size"] == 3


@pytest.mark.parametrize("seat", [ANN, BEN, CAL, None])
def test_public_information_is_in_every_view_section6(seat) -> None:
    s = mid_deal()
    full = s.to_position()
    v = s.view(seat)
    for key in PUBLIC_KEYS:
        assert v[key] == full[key], key
    assert [pl["vp"] for pl in v["players"]] == [pl["vp"] for pl in full["players"]]
    assert v["viewer"] == (None if seat is None else ["brooch", "head", "mask"][seat])
    assert v["to_move"] == "head"


def test_spectators_and_seats_see_no_card_they_may_not_know_section6() -> None:
    rng = random.Random(4)
    s = load(4).new_initial_state()
    for _ in range(400):
        if s.is_terminal():
            break
        pos = s.to_position()
        for seat in (None, 0, 1, 2, 3):
            text = json.dumps(s.view(seat))
            me = None if seat is None else ["brooch", "head", "mask", "statue"][seat]
            hidden = [
                c["people"]
                for pl in pos["players"]
                for c in pl["cards"]
                if not c["public"] and me not in c["known_by"]
            ]
            hidden += [c["people"] for c in pos["set_aside"] if not c["public"]] + pos["deck"]
            if pos["pending"] and pos["pending"][0] == "keep" and pos["draw_order"][pos["draw_index"]] != me:
                hidden.append(pos["pending"][1])
            for pid in hidden:
                assert f'"{pid}"' not in text, (seat, pid)
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))


def test_view_of_a_seat_hides_others_unrevealed_cards_in_strategy_E3_7() -> None:
    b = (
        Board(3, epoch=2)
        .deal(ANN, "akkadians", "minoans")
        .deal(BEN, "guti", "hittites")
        .deal(CAL, "sumerians", "kassites")
    )
    s = b.tribes("uruk", "sumerians", 1).round("sumerians", 1).state()
    cards = lambda seat: [pl["cards"][1]["people"] for pl in s.view(seat)["players"]]  # noqa: E731
    assert cards(ANN) == ["minoans", None, None]
    assert cards(BEN) == [None, "hittites", None]
    assert cards(None) == [None, None, None]
    assert [pl["cards"][0]["people"] for pl in s.view(None)["players"]] == ["akkadians", "guti", "sumerians"]


def test_sample_state_keeps_the_view_and_fills_consistent_cards_section6() -> None:
    """Unseen cards are dealt at random; one whose round has passed this Epoch must be set
    aside (it would be face up otherwise)."""
    b = (
        Board(3, epoch=2)
        .deal(ANN, "akkadians", "minoans")
        .deal(BEN, "guti", "hittites")
        .deal(CAL, "sumerians", "kassites")
    )
    s = b.tribes("uruk", "sumerians", 1).tribes("knossos", "minoans", 1).round("minoans", 2).state()
    game = s.game
    v = s.view(BEN)
    seen = set()
    for seed in range(40):
        t = game.sample_state(v, BEN, random.Random(seed))
        assert t.view(BEN) == v
        assert game.invariants(t) == []
        cal = t.to_position()["players"][CAL]["cards"][1]["people"]
        assert PEOPLES.order(PEOPLES.index[cal], 2) > 7  # Amorites (#6) cannot be Cal's
        seen.add(cal)
    assert seen == {"phoenicians", "kassites"}


def test_sample_state_during_allocation_section6() -> None:
    s = mid_deal()
    game = s.game
    for seat in (ANN, BEN, CAL):
        v = s.view(seat)
        for seed in range(10):
            t = game.sample_state(v, seat, random.Random(seed))
            assert t.view(seat) == v
            assert game.invariants(t) == []
    drawn = lambda seat: {  # noqa: E731
        game.sample_state(s.view(seat), seat, random.Random(k)).to_position()["pending"][1] for k in range(40)
    }
    assert len(drawn(ANN)) == 5  # Ann knows neither her passed card nor Ben's draw
    assert drawn(CAL) == {"amorites", "phoenicians", "kassites", "hittites"}  # Cal passed the Minoans
    assert drawn(BEN) == {"hittites"}


def test_redacted_events_hide_dealt_and_drawn_cards_section6() -> None:
    s = play(load(3).new_initial_state(), "deal brooch guti", "deal head sumerians", "deal mask elamites")
    game = s.game
    rec = ziggurat.record(s)
    mine = game.redact_record(rec, ANN)["actions"]
    assert mine == ["deal brooch guti", "deal head ?", "deal mask ?"]
    assert game.redact_record(rec, None)["actions"] == ["deal brooch ?", "deal head ?", "deal mask ?"]
    s = mid_deal()
    play(s, "keep", "draw kassites")  # Ann must pass to Cal: forced, an auto event
    from ziggurat.games.mesopotamia_epochs.view import redact_events

    events = s.events()
    assert redact_events(events, ANN)[-1] == "pass mask"  # keep/pass and its receiver are public
    assert redact_events(events, BEN)[-2] == "draw ?"
    assert redact_events(events, ANN)[-2] == "draw kassites"


def test_no_seat_waits_on_another_seats_secret_section7() -> None:
    """Every decision belongs to one seat and depends on public facts only: the drawer's keep
    or pass options are the same in any state the other seats cannot tell apart."""
    s = mid_deal()
    for seat in (ANN, CAL):
        for seed in range(5):
            t = s.game.sample_state(s.view(seat), seat, random.Random(seed))
            assert t.current_player() == BEN
            assert list(t.legal_actions()) == list(s.legal_actions())
