"""The tutorial format (docs/tutorials.md): every tutorial present validates, and validation
refuses what the format forbids (a move not legal when its step comes, a lesson that runs past
the game's end or leaves replies, a missing French text, covers that do not match the game's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ziggurat.rules import definition_lines, spec_text
from ziggurat.tutorials import (
    COVERS,
    LANGS,
    Tutorial,
    TutorialError,
    load_tutorial,
    tutorial_games,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]


def _raw(game_id: str = "mesopotamia") -> dict[str, Any]:
    return load_tutorial(game_id).model_dump(mode="json")


def _tutorial(raw: dict[str, Any]) -> Tutorial:
    return Tutorial.model_validate(raw)


def test_mesopotamia_has_a_tutorial() -> None:
    assert "mesopotamia" in tutorial_games()


@pytest.mark.parametrize("game_id", tutorial_games())
def test_tutorial_validates(game_id: str) -> None:
    """Every lesson plays out along every way through it, and the lessons cover the game's
    phases and ways to win."""
    tutorial = load_tutorial(game_id)
    assert validate(tutorial) >= len(tutorial.lessons)
    covered = {c for lesson in tutorial.lessons for c in lesson.covers}
    assert covered == {c for ids in COVERS[game_id].values() for c in ids}


@pytest.mark.parametrize("game_id", tutorial_games())
def test_tutorial_rules_are_ids_of_the_spec(game_id: str) -> None:
    defined = {d.rule for d in definition_lines(spec_text(game_id))}
    tutorial = load_tutorial(game_id)
    cited = {rule for lesson in tutorial.lessons for step in lesson.steps for rule in step.rules}
    cited |= {rule for ids in COVERS[game_id].values() for rules in ids.values() for rule in rules}
    missing = sorted(cited - defined)
    assert not missing, f"not ids of docs/rules/{game_id}.md: {missing}"


@pytest.mark.parametrize("game_id", tutorial_games())
def test_every_text_in_every_language(game_id: str) -> None:
    tutorial = load_tutorial(game_id)
    texts = []
    for lesson in tutorial.lessons:
        texts += [lesson.title, lesson.intro, lesson.done]
        texts += [t for step in lesson.steps for t in (step.say, step.hint)]
    for text in texts:
        for lang in LANGS:
            assert text.get(lang).strip()
        assert text.en != text.fr


def test_mesopotamia_covers_its_phases_and_victory_M1_2_M16_1() -> None:
    assert dict(COVERS["mesopotamia"]["phases"]).keys() == {"movement", "action", "mana"}
    assert list(COVERS["mesopotamia"]["victory"]) == ["four_offerings"]
    assert list(load_tutorial("mesopotamia").covers.victory) == ["four_offerings"]


def test_missing_french_text_is_refused() -> None:
    raw = _raw()
    del raw["lessons"][0]["steps"][0]["hint"]["fr"]
    with pytest.raises(ValueError, match="fr"):
        _tutorial(raw)


def test_step_needs_expect_or_prefix() -> None:
    raw = _raw()
    raw["lessons"][0]["steps"][0]["expect_prefix"] = "move "
    with pytest.raises(ValueError, match="either expect"):
        _tutorial(raw)


def test_unknown_key_is_refused() -> None:
    raw = _raw()
    raw["lessons"][0]["colour"] = "blue"
    with pytest.raises(ValueError, match="colour"):
        _tutorial(raw)


def test_expected_move_not_legal_then_is_refused_M2_2() -> None:
    """Step 1 of ``movement`` asks to step onto 1,0; moving to 1,1 is not possible from 1,-1
    (not adjacent)."""
    raw = _raw()
    raw["lessons"][0]["steps"][0]["expect"] = ["move b@1,-1 1,1"]
    with pytest.raises(TutorialError, match=r"lesson movement: step 1: 'move b@1,-1 1,1' is not legal"):
        validate(_tutorial(raw))


def test_expected_move_must_be_canonical() -> None:
    raw = _raw()
    raw["lessons"][0]["steps"][0]["expect"] = ["move b@(1, -1) (1, 0)"]
    with pytest.raises(TutorialError, match="write 'move b@\\(1, -1\\) \\(1, 0\\)' as 'move b@1,-1 1,0'"):
        validate(_tutorial(raw))


def test_prefix_no_legal_move_matches_is_refused() -> None:
    raw = _raw()
    raw["lessons"][0]["steps"][2]["expect_prefix"] = "volcano "
    with pytest.raises(TutorialError, match="step 3: no legal move starts with 'volcano '"):
        validate(_tutorial(raw))


def test_unused_replies_are_refused() -> None:
    raw = _raw()
    raw["lessons"][0]["replies"] = ["tile plains", "tile forest"]
    with pytest.raises(TutorialError, match="1 scripted replies are left"):
        validate(_tutorial(raw))


def test_missing_reply_is_refused() -> None:
    raw = _raw()
    raw["lessons"][0]["replies"] = []
    with pytest.raises(TutorialError, match="no scripted reply left for chance at step 4"):
        validate(_tutorial(raw))


def test_step_after_the_game_ended_is_refused_M16_1() -> None:
    raw = _raw()
    deliver = next(lesson for lesson in raw["lessons"] if lesson["id"] == "deliver")
    deliver["steps"].append(dict(deliver["steps"][-1]))
    with pytest.raises(TutorialError, match="the game ended before step 4"):
        validate(_tutorial(raw))


def test_victory_lesson_must_win_M16_1() -> None:
    """A lesson that says it teaches a way to win must end with the learner winning."""
    raw = _raw()
    temple = next(lesson for lesson in raw["lessons"] if lesson["id"] == "temple")
    temple["covers"] = ["movement", "four_offerings"]
    with pytest.raises(
        TutorialError, match="lesson temple: covers \\['four_offerings'\\] but the game is not over"
    ):
        validate(_tutorial(raw))


def test_covers_must_match_the_game_list() -> None:
    raw = _raw()
    raw["covers"]["phases"] = ["movement", "action"]
    with pytest.raises(TutorialError, match="covers.phases"):
        validate(_tutorial(raw))


def test_every_phase_covered_by_a_lesson() -> None:
    raw = _raw()
    for lesson in raw["lessons"]:
        lesson["covers"] = [c for c in lesson["covers"] if c != "mana"]
    with pytest.raises(TutorialError, match="no lesson covers \\['mana'\\]"):
        validate(_tutorial(raw))


def test_position_for_another_table_is_refused() -> None:
    raw = _raw()
    raw["players"] = 4
    with pytest.raises(
        TutorialError,
        match="lesson movement: movement.position.json: .*the position is for 3 players, the game for 4",
    ):
        validate(_tutorial(raw))
