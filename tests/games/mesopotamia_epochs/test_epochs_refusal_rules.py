"""Refusals that name the rule which forbids the move (Epochs): a drawer who already holds a
card is told to pass, never to keep (E3.4, R9); a People's tribes are counted in words that
agree (E13.1); and an audit of the refusals met in seeded games: every one cites a rule id of
docs/rules/mesopotamia-epochs.md, and the specific one where the position tells it (R9, D1)."""

from __future__ import annotations

from typing import Any

import pytest
from epochs_helpers import ANN, BEN, CAL, Board, conserved

import ziggurat
from refusal_audit import Refusal, audit
from ziggurat.engine import messages as M
from ziggurat.games.mesopotamia_epochs.render_text import pending_message


def _reason(state: Any, action: str) -> M.Message:
    before = state.fingerprint()
    with pytest.raises(ziggurat.IllegalAction) as info:
        state.apply(action)
    assert state.fingerprint() == before
    reason = info.value.args[0].params["reason"]
    assert isinstance(reason, M.Message)
    return reason


def _drawer_holding_a_card() -> Any:
    """Epoch 2, 4 players: Ann draws the Minoans holding the Hittites Ben passed her; Cal kept
    the Kassites; Ben and Dee have no Epoch 2 card, so Ann must pass to one of them (R9)."""
    b = Board(4, epoch=2, phase="allocation").deal(ANN, "guti").deal(BEN, "egyptians")
    b.deal(CAL, "akkadians").deal(3, "elamites").tribes("gutium", "guti", 1)
    b.deal(ANN, "hittites").knows("hittites", BEN).unseen("hittites").deal(CAL, "kassites")
    return b.drawing([BEN, CAL, ANN, 3], 2).pending("keep", "minoans").state()


def test_a_drawer_who_must_pass_is_told_to_pass_E3_4_R9() -> None:
    s = _drawer_holding_a_card()
    assert s.current_player() == ANN
    assert s.legal_actions() == ["pass head", "pass statue"]
    placing = _reason(s, "place babylon")
    assert placing.key == "epochs.refusal.keepOrPass"
    assert placing == (
        "brooch has just drawn a card and must first pass it to a player without a card, "
        "already holding one (D1, E3.4, R9)"
    )
    assert "garder" not in placing.render("fr") and "(D1, E3.4, R9)" in placing.render("fr")
    to_self = _reason(s, "pass brooch")
    assert "keep" not in to_self and "(E3.4, R9)" in to_self
    assert "gardez" not in to_self.render("fr")
    keep = _reason(s, "keep")
    assert keep.key == "epochs.refusal.mustPass" and "(E3.4, R9)" in keep
    line = pending_message(s.view(ANN))
    assert line is not None and "keep" not in line and "pass it face down" in line
    assert "garder" not in line.render("fr")
    conserved(s)


def test_a_drawer_without_a_card_may_keep_or_pass_E3_4() -> None:
    b = Board(3, epoch=2, phase="allocation").deal(ANN, "guti").deal(BEN, "egyptians").deal(CAL, "akkadians")
    s = b.tribes("gutium", "guti", 1).drawing([BEN, ANN, CAL], 0).pending("keep", "minoans").state()
    assert "keep" in s.legal_actions()
    assert (
        _reason(s, "place babylon")
        == "head has just drawn a card and must keep it or pass it first (D1, E3.4)"
    )
    assert (
        _reason(s, "pass head") == "a card is passed to another player; to play it yourself, keep it (E3.4)"
    )
    line = pending_message(s.view(BEN))
    assert line is not None and "keep it or pass it face down" in line


def test_the_stack_limit_counts_tribes_of_the_people_E13_1() -> None:
    b = Board(3, epoch=1).deal(ANN, "akkadians").deal(BEN, "sumerians").deal(CAL, "elamites")
    s = b.tribes("akkad", "akkadians", 3).round("akkadians", 2).state()
    reason = _reason(s, "place akkad")
    assert reason == "the Akkadians already have 3 tribes in Akkad, the limit (E13.1, R23)"
    assert reason.render("fr") == "les Akkadiens ont déjà 3 tribus à Akkad, la limite (E13.1, R23)"


def test_a_player_named_alone_takes_a_singular_verb() -> None:
    head = M.noun("epochs.symbol", "head")
    stop = M.message("epochs.log.stopSeat", who=head, left=1)
    assert stop == "Head stops placing; 1 unplaced tribe is discarded"
    ashore = M.message("epochs.log.ashoreSeat", who=head, area_in=M.noun("epochs.areaIn", "byblos"))
    assert ashore == "Head comes ashore in Byblos"
    assert ashore.render("fr") == "Tête débarque à Byblos"
    urn = M.noun("epochs.symbol", "urn")
    face_up = M.message("epochs.log.faceUp", who=urn, people=M.noun("epochs.people", "hittites"))
    assert face_up.render("fr") == "Urne retourne sa carte : les Hittites"  # never "de Urne"


def _specific(r: Refusal) -> set[str]:
    """The rule a refusal must cite, where the position tells it."""
    pos = r.state.to_position()
    pend = pos["pending"]
    if pend is None or pend[0] != "keep":
        return set()
    drawer = pos["draw_order"][pos["draw_index"]]
    holds = any(
        c["epoch"] == pos["epoch"] for p in pos["players"] if p["symbol"] == drawer for c in p["cards"]
    )
    if r.action == "keep" or (holds and r.action.split(" ", 1)[0] != "pass"):
        return {"R9"}  # the drawer already holds a card: pass (E3.4, R9)
    if r.action.split(" ", 1)[0] not in ("keep", "pass"):
        return {"D1"}  # the drawer's decision comes first
    return set()


def test_refusals_of_seeded_games_cite_rules_of_the_spec() -> None:
    counts = audit("mesopotamia-epochs", "mesopotamia-epochs.md", _specific, players=4, plies=250)
    assert sum(counts.values()) > 500
    assert len(counts) >= 8


NAMES = {  # parameters that hold a player's name or a People (plural: "the Egyptians")
    "mesopotamia": "who|owner|victim|winner",
    "mesopotamia_epochs": "people|who|seat|owner|other|defender|moved|to",
}


def _forbidden(package: str, lang: str) -> tuple[str, ...]:
    names = NAMES[package]
    if lang == "fr":
        return (rf"\b[Dd]e \{{({names})\}}",)  # "de Urne": a name may need "d'"
    return (
        rf"\b[Aa]n? \{{({names})\}}",  # "a Egyptians tribe", "a Head"
        r"\{people\} (tribe|area)s?\b",  # "3 Akkadians tribes": "3 tribes of the Akkadians"
        r"\{who\} (come|stop|hold|place)\b",  # one player takes a singular verb
    )


@pytest.mark.parametrize("package", sorted(NAMES))
def test_catalogue_sentences_agree_with_the_names_they_hold(package: str) -> None:
    """Articles, number and elision around a People's or a player's name, in every pattern."""
    import json
    import re
    from importlib import resources

    folder = resources.files(f"ziggurat.games.{package}").joinpath("messages")
    for lang in ("en", "fr"):
        catalogue = json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8"))
        for key, pattern in catalogue.items():
            for rule in _forbidden(package, lang):
                assert not re.search(rule, pattern), f"{lang} {key}: {pattern}"
