"""Driving a game's tutorial page (/tutorial/<game>) by clicking, from the tutorial's own data
(``ziggurat.tutorials.load_tutorial``): shared by the tutorial tests of every game."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

from ziggurat.tutorials import Lesson, Step, load_tutorial


def answers(page: Page) -> int:
    """How many answers of the server the page has shown."""
    return int(page.evaluate("document.body.dataset.answers || '0'"))


def current(page: Page) -> dict[str, Any]:
    """The page's last answer (session, lesson, step, table ...)."""
    answer: dict[str, Any] = page.evaluate("window.__zigguratTutorial.answer")
    return answer


def open_tutorial(page: Page, base: str, game: str, lesson: str | None = None) -> None:
    """Open the tutorial page of ``game`` (at ``lesson``, or its first) and wait for it."""
    page.goto(f"{base}/tutorial/{game}" + (f"#lesson={lesson}" if lesson else ""))
    page.wait_for_selector("body[data-ready='1']")


def click_and_wait_answer(page: Page, target: Locator, timeout: float = 20000) -> None:
    """Click something that sends a move (or starts a lesson) and wait for the page to show
    the server's answer."""
    before = answers(page)
    target.click()
    page.wait_for_function(f"() => Number(document.body.dataset.answers || 0) > {before}", timeout=timeout)


def step_action(step: Step, legal: list[str]) -> str:
    """The move a learner makes for ``step``: its first expected move, or the first legal move
    with its prefix."""
    if step.expect:
        return step.expect[0]
    prefix = step.expect_prefix or ""
    return next(a for a in legal if a.startswith(prefix))


def play_step_from_list(page: Page, step: Step) -> str:
    """Play ``step`` by clicking its move in the legal-actions list; the move played."""
    action = step_action(step, current(page)["table"]["legal"])
    button = page.locator(f"#legal .legal-act[data-action='{action}']")
    button.scroll_into_view_if_needed()
    click_and_wait_answer(page, button)
    return action


def complete_lesson(page: Page, lesson: Lesson) -> None:
    """Play every step of ``lesson`` (the page shows it at its first step) by clicking the
    legal-actions list, checking that each click moves the lesson on and that it ends."""
    assert current(page)["lesson"] == lesson.id
    for number, step in enumerate(lesson.steps):
        assert current(page)["step"] == number, (lesson.id, number)
        action = play_step_from_list(page, step)
        answer = current(page)
        assert answer["outcome"] == "played", (
            lesson.id,
            number,
            action,
            answer.get("hint"),
            answer.get("error"),
        )
    assert current(page)["finished"], lesson.id
    assert page.locator("#done").is_visible()


def complete_tutorial(page: Page, base: str, game: str) -> list[str]:
    """Open ``game``'s tutorial on the server at ``base`` (the ``server`` fixture's ``base``) and
    complete every lesson in order by clicking, going from one to the next with the page's
    "Next lesson" button; the lesson ids completed."""
    tutorial = load_tutorial(game)
    open_tutorial(page, base, game)
    done = []
    for index, lesson in enumerate(tutorial.lessons):
        complete_lesson(page, lesson)
        done.append(lesson.id)
        if index + 1 < len(tutorial.lessons):
            click_and_wait_answer(page, page.locator("#next"))
        else:
            assert page.locator("#next").is_hidden()
    return done
