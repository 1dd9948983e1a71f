"""The lesson runner: the step's hint for a legal move it does not ask for, the engine's refusal
for an illegal one (nothing played either way), and the other seats and chance moving between
steps deterministically (scripted, or seeded heuristic bots and chance)."""

from __future__ import annotations

import pytest

from ziggurat import CHANCE, IllegalAction, InvalidAction
from ziggurat.tutorials import LessonOver, LessonRun, Tutorial, WrongMove, load_tutorial


def _run(lesson_id: str, tutorial: Tutorial | None = None) -> LessonRun:
    tutorial = tutorial or load_tutorial("mesopotamia")
    return LessonRun(tutorial, tutorial.lesson(lesson_id))


def test_wrong_move_gets_the_hint_and_plays_nothing() -> None:
    run = _run("carry")
    before = run.state.fingerprint()
    with pytest.raises(WrongMove) as caught:
        run.play("move b@1,0 1,1")  # legal, but step 1 asks for the wood at -1,0
    assert caught.value.hint.fr == "Ramassez le bois en -1,0."
    assert str(caught.value) == "Pick up the wood at -1,0."
    assert run.state.fingerprint() == before and run.step_index == 0 and run.played == []


def test_illegal_move_gets_the_engine_refusal_M5_3() -> None:
    """A wood carrier may not enter the temple: the engine says so, naming the rule."""
    run = _run("carry")
    run.play("pickup b@-1,0 wood")
    before = run.state.fingerprint()
    with pytest.raises(IllegalAction, match="M5.3"):
        run.play("move bw@-1,0 0,0")
    assert run.state.fingerprint() == before and run.step_index == 1


def test_steal_where_outnumbering_M4_1_M4_3() -> None:
    run = _run("carry")
    run.play("pickup b@-1,0 wood")
    run.play("steal yw@1,0 b@1,0")
    tribes = run.view()["players"]
    assert [1, 0, "w", False] in [t[:3] + [False] for t in tribes[0]["tribes"]]
    assert all(t[2] == "" for t in tribes[1]["tribes"])


def test_scripted_chance_reply_is_played_between_steps_M7_2() -> None:
    run = _run("movement")
    run.play("move b@1,-1 1,0")
    run.play("move b@1,-1 2,-1")
    played = run.play("pile 3")
    actors = [e.actor for p in played for e in p.events]
    assert actors == [0, CHANCE]
    assert [2, -1, "plains"] in run.view()["tiles"]
    assert run.replies_left() == 0


def test_move_after_the_last_step_is_refused() -> None:
    run = _run("holy")
    run.play("holy 1,-2 bs@1,-2 b@1,-2")
    assert run.finished and run.step is None and run.legal_actions() == []
    with pytest.raises(LessonOver):
        run.play("pass")


def test_heuristic_others_are_seeded() -> None:
    """With ``others: heuristic``, yellow and red play their turns with the game's bots and
    seeded chance: two runs of the lesson end in the same state, another seed may differ."""
    raw = load_tutorial("mesopotamia").model_dump(mode="json")
    grow = next(lesson for lesson in raw["lessons"] if lesson["id"] == "grow")
    grow["others"] = "heuristic"
    grow["seed"] = 7
    grow["steps"].append(
        {"say": grow["steps"][0]["say"], "expect_prefix": "end", "hint": grow["steps"][0]["hint"]}
    )
    tutorial = Tutorial.model_validate(raw)
    runs = [_run("grow", tutorial) for _ in range(2)]
    for run in runs:
        run.play("grow 1,-1 b1 b@1,-1 b@1,-1")
        assert run.state.current_player() == 0 and run.state.to_position()["phase"] == "movement"
        assert {e.actor for p in run.played for e in p.events} >= {0, 1, 2}
    assert runs[0].state.fingerprint() == runs[1].state.fingerprint()
    assert [p.events for p in runs[0].played] == [p.events for p in runs[1].played]


def test_move_that_is_not_text_is_invalid() -> None:
    run = _run("movement")
    with pytest.raises(InvalidAction):
        run.play(3)  # type: ignore[arg-type]
    assert run.step_index == 0 and run.played == []
