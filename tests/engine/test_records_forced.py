"""Records written before decisions forced only by a secret were asked (R58 in Mesopotamia's
spec) still replay: ``replay`` plays every one-action decision by itself for a record without
``"forced": "asked"``, and ``apply_recorded`` (the server's resume and undo) plays such a
decision first when a stored action is refused only because the decision is now asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ziggurat
from ziggurat.engine.records import FORCED_ASKED, apply_recorded, play_forced

OLD = json.loads((Path(__file__).parent / "fixtures" / "mesopotamia-3p-forced-by-engine.json").read_text())


def test_an_old_record_replays_to_its_fingerprints() -> None:
    assert "forced" not in OLD  # written when the engine played forced decisions itself
    state = ziggurat.replay(OLD)  # checks the fingerprint every 50 actions on the way
    assert state.fingerprint() == OLD["final_fingerprint"]
    assert len(state.history()) > len(OLD["actions"])  # the once-automatic decisions are now chosen
    assert (state.returns() if state.is_terminal() else None) == OLD["result"]


def test_a_new_record_says_so_and_replays_without_help() -> None:
    state = ziggurat.replay(OLD)
    rec = ziggurat.record(state)
    assert rec["forced"] == FORCED_ASKED
    assert ziggurat.replay(rec).fingerprint() == state.fingerprint()


def test_stored_actions_of_an_old_table_resume_one_by_one() -> None:
    """Without the record's marker (a stored table), each refused action is retried after the
    decision that the engine used to play; the game arrives where the old one did."""
    game = ziggurat.load(OLD["game"], players=OLD["num_players"], **OLD["options"])
    state = game.new_initial_state()
    for text in OLD["actions"]:
        apply_recorded(state, text)
    play_forced(state)
    assert state.fingerprint() == OLD["final_fingerprint"]


def test_a_refused_action_stays_refused_and_changes_nothing() -> None:
    game = ziggurat.load("mesopotamia", players=3)
    state = game.new_initial_state()
    before = state.fingerprint()
    with pytest.raises(ziggurat.IllegalAction):
        apply_recorded(state, "end")
    assert state.fingerprint() == before
