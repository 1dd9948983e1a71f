"""Checking a tutorial by playing it: every lesson's position loads strictly, every step's
expected moves are legal when the step comes (along every way the learner may choose), the
lesson ends after its last step, and the tutorial covers the game's phases and ways to win
(:mod:`ziggurat.tutorials.covers`).
"""

from __future__ import annotations

from ziggurat.engine.errors import ZigguratError
from ziggurat.tutorials.covers import covers_of
from ziggurat.tutorials.model import Lesson, Tutorial, TutorialError
from ziggurat.tutorials.runner import LessonRun

MAX_PATHS = 64
"""The most ways through one lesson that validation plays; a lesson with more (an
``expect_prefix`` that many moves match, step after step) is refused: list its moves."""


def validate(tutorial: Tutorial) -> int:
    """Check ``tutorial`` by playing every lesson along every way through it; the number of
    ways played.

    :raises TutorialError: naming the lesson, the step and what is wrong.
    """
    game_id = tutorial.game
    declared = covers_of(game_id)
    listed = {"phases": list(tutorial.covers.phases), "victory": list(tutorial.covers.victory)}
    for kind, ids in declared.items():
        if sorted(listed[kind]) != sorted(ids):
            raise TutorialError(
                f"{game_id} tutorial: covers.{kind} is {listed[kind]}, the game's list is {ids}"
            )
    every = {i for ids in declared.values() for i in ids}
    covered: set[str] = set()
    for lesson in tutorial.lessons:
        unknown = sorted(set(lesson.covers) - every)
        if unknown:
            raise TutorialError(f"{game_id} tutorial: lesson {lesson.id} covers unknown {unknown}")
        covered |= set(lesson.covers)
    missing = [i for ids in declared.values() for i in ids if i not in covered]
    if missing:
        raise TutorialError(f"{game_id} tutorial: no lesson covers {missing}")
    return sum(_validate_lesson(tutorial, lesson, set(declared["victory"])) for lesson in tutorial.lessons)


def _validate_lesson(tutorial: Tutorial, lesson: Lesson, victories: set[str]) -> int:
    where = f"{tutorial.game} tutorial: lesson {lesson.id}"
    paths: list[list[str]] = [[]]
    done = 0
    while paths:
        path = paths.pop()
        run = LessonRun(tutorial, lesson)
        for action in path:
            run.play(action)
        if run.finished:
            _check_end(run, where, victories)
            done += 1
            continue
        step = run.step
        assert step is not None
        number = run.step_index + 1
        legal = run.legal_actions()
        if not legal:
            raise TutorialError(f"{where}: step {number}: it is not the learner's turn")
        if step.expect:
            for text in step.expect:
                try:
                    canonical = run.game.parse_action(text)
                except ZigguratError as exc:
                    raise TutorialError(f"{where}: step {number}: {text!r}: {exc}") from None
                if canonical != text:
                    raise TutorialError(f"{where}: step {number}: write {text!r} as {canonical!r}")
                if text not in legal:
                    raise TutorialError(f"{where}: step {number}: {text!r} is not legal then")
            choices = list(step.expect)
        else:
            choices = [a for a in legal if step.matches(a)]
            if not choices:
                raise TutorialError(
                    f"{where}: step {number}: no legal move starts with {step.expect_prefix!r}"
                )
        paths.extend(path + [a] for a in reversed(choices))
        if len(paths) + done > MAX_PATHS:
            raise TutorialError(f"{where}: more than {MAX_PATHS} ways through the lesson; list its moves")
    return done


def _check_end(run: LessonRun, where: str, victories: set[str]) -> None:
    if run.replies_left():
        raise TutorialError(f"{where}: {run.replies_left()} scripted replies are left after the last step")
    won = set(run.lesson.covers) & victories
    if won:
        state = run.state
        if not state.is_terminal():
            raise TutorialError(f"{where}: covers {sorted(won)} but the game is not over after the last step")
        returns = state.returns()
        if returns[run.lesson.seat] < max(returns):
            raise TutorialError(f"{where}: covers {sorted(won)} but the learner's seat does not win")
