"""Refusals that name the rule which forbids the move (Mesopotamia): a second draw (M12.1),
'end' in Phase II (M8.4), a tribe that is not there (M2.2), and an audit of the refusals met
in seeded games: every one cites a rule id of docs/rules/mesopotamia.md, and the specific one
where the position tells it (M12.1, M1.2, M13.1)."""

from __future__ import annotations

from typing import Any

import pytest
from meso_helpers import Board, conserved

import ziggurat
from refusal_audit import Refusal, audit
from ziggurat.engine import messages as M

MOVEMENT_KINDS = ("move", "pickup", "drop", "exchange", "handoff", "steal", "offering", "donate")


def _reason(state: Any, action: str) -> M.Message:
    before = state.fingerprint()
    with pytest.raises(ziggurat.IllegalAction) as info:
        state.apply(action)
    assert state.fingerprint() == before
    reason = info.value.args[0].params["reason"]
    assert isinstance(reason, M.Message)
    return reason


def _red_phase_two() -> Any:
    """Red's Phase II with two tribes on the plains 2,0; Red holds a Holy Stone (never forced)."""
    b = Board().clear_tribes().turn("r", phase="action").tile(2, 0, "plains")
    return b.hand("r", "holy_stone").tribes("r@2,0", "r@2,0").state()


def test_a_second_draw_cites_M12_1_not_phase_three() -> None:
    s = _red_phase_two()
    s.apply("draw")
    s.apply("card teleport")
    assert s.to_position()["phase"] == "mana"
    reason = _reason(s, "draw")
    assert reason.key == "meso.refusal.drawOnce"
    assert reason == "action D draws exactly one card and cannot be repeated within the turn (M12.1)"
    assert reason.render("fr") == (
        "l'action D pioche exactement une carte et ne peut pas être répétée dans le tour (M12.1)"
    )
    conserved(s)


def test_draw_after_another_action_is_phase_two_only_M1_2() -> None:
    s = _red_phase_two()
    s.apply("pass")
    reason = _reason(s, "draw")
    assert reason.key == "meso.refusal.phaseTwo"
    assert "(M1.2)" in reason and "M12.1" not in reason


def test_end_in_phase_two_names_stop_and_pass_M8_4() -> None:
    reason = _reason(_red_phase_two(), "end")
    assert reason == (
        "'end' is not possible in Phase II (action): Phase II ends with 'stop', or with 'pass' "
        "before an action (M1.2, M8.1, M8.4)"
    )
    assert reason.render("fr").startswith(
        "« end » est impossible en phase II (action) : la phase II se termine"
    )


def test_a_tribe_that_is_not_there_M2_2() -> None:
    s = Board().clear_tribes().turn("r").tribes("r@1,0").state()
    reason = _reason(s, "move rw@1,0 2,-1")
    assert reason == (
        "there is no such red tribe on 1,0: an action names one of your tribes where it stands (M2.2, M2.8)"
    )
    assert "(M2.2, M2.8)" in reason.render("fr")


def test_a_decision_answered_when_not_pending_names_it_D13() -> None:
    s = Board().clear_tribes().turn("r").tribes("r@1,0").state()
    reason = _reason(s, "pile 1")
    assert reason.key == "meso.refusal.decisionNotPending"
    assert "(D13)" in reason and "Phase I (movement)" in reason
    assert "(D13)" in reason.render("fr")


def _specific(r: Refusal) -> set[str]:
    """The rule a refusal must cite, where the position tells it."""
    pos = r.state.to_position()
    kind = r.action.split(" ", 1)[0]
    me = pos["players"][r.state.current_player()]
    if pos["pending"] is not None:
        return set()
    if kind == "draw" and pos["phase"] == "mana" and me["new_count"]:
        return {"M12.1"}  # this turn's action was the draw
    if kind in MOVEMENT_KINDS and pos["phase"] != "movement":
        return {"M1.2"}
    if kind == "income" and pos["phase"] == "mana" and pos["income_done"]:
        return {"M13.1"}
    return set()


@pytest.mark.parametrize("players", [2, 4])
def test_refusals_of_seeded_games_cite_rules_of_the_spec(players: int) -> None:
    counts = audit("mesopotamia", "mesopotamia.md", _specific, players=players)
    assert sum(counts.values()) > 1000
    assert len(counts) >= 10  # many different refusals were met, not one over and over
    assert counts["meso.refusal.drawOnce"] > 0  # a second draw was tried, and cited M12.1


def test_a_steal_by_a_tribe_that_is_not_there_names_it_M2_8() -> None:
    s = Board().clear_tribes().turn("r").tribes("r@1,0", "yw@1,0").state()
    reason = _reason(s, "steal yw@1,0 rs@1,0")  # Red's tribe on 1,0 carries nothing
    assert reason.key == "meso.refusal.noSuchTribe" and "(M2.2, M2.8)" in reason
