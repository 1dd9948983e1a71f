"""The tutorial format: ``<game-id>/tutorial.json`` and its lessons' position files, read and
checked for shape (docs/tutorials.md). What a lesson's moves do is checked by
:mod:`ziggurat.tutorials.validation`, which plays them.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, model_validator

from ziggurat.engine.errors import ZigguratError

LANGS = ("en", "fr")
"""Every text of a tutorial exists in each of these languages."""


class TutorialError(ZigguratError):
    """A tutorial file that does not fit the format, or a lesson whose moves do not play out
    as it says; the message names the game, the lesson and the step."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(_Model):
    """A text a learner reads, in every language of :data:`LANGS`."""

    en: StrictStr = Field(min_length=1)
    fr: StrictStr = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


class Step(_Model):
    """One move the learner makes: ``expect`` (any of these actions) or ``expect_prefix`` (any
    legal action starting with it)."""

    say: Text
    expect: tuple[StrictStr, ...] = ()
    expect_prefix: StrictStr | None = None
    hint: Text
    rules: tuple[StrictStr, ...] = ()

    @model_validator(mode="after")
    def _one_way(self) -> Step:
        if bool(self.expect) == (self.expect_prefix is not None):
            raise ValueError("a step has either expect (a non-empty list) or expect_prefix")
        return self

    def matches(self, action: str) -> bool:
        """True if ``action`` (canonical text) is what this step asks for."""
        if self.expect_prefix is not None:
            return action.startswith(self.expect_prefix)
        return action in self.expect


class Lesson(_Model):
    """A short lesson: a position, the learner's seat and the steps they play from it."""

    id: StrictStr = Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")
    title: Text
    position: StrictStr = Field(pattern=r"^[a-z0-9][a-z0-9_-]*\.position\.json$")
    seat: StrictInt = Field(ge=0)
    intro: Text
    steps: tuple[Step, ...] = Field(min_length=1)
    others: Literal["scripted", "heuristic"]
    replies: tuple[StrictStr, ...] = ()
    seed: StrictInt = 0
    done: Text
    covers: tuple[StrictStr, ...] = ()

    @model_validator(mode="after")
    def _replies_when_scripted(self) -> Lesson:
        if self.replies and self.others != "scripted":
            raise ValueError("replies are for lessons whose others are scripted")
        return self


class Covered(_Model):
    phases: tuple[StrictStr, ...]
    victory: tuple[StrictStr, ...]


class Tutorial(_Model):
    """A game's tutorial: its table (game, players, options) and its lessons, in order."""

    game: StrictStr
    players: StrictInt
    options: dict[str, Any] = {}
    covers: Covered
    lessons: tuple[Lesson, ...] = Field(min_length=1)

    def lesson(self, lesson_id: str) -> Lesson:
        """The lesson called ``lesson_id``; :raises KeyError: if there is none."""
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise KeyError(lesson_id)

    def next_lesson(self, lesson_id: str) -> str | None:
        """The id of the lesson after ``lesson_id``, or ``None`` after the last."""
        ids = [lesson.id for lesson in self.lessons]
        at = ids.index(lesson_id)
        return ids[at + 1] if at + 1 < len(ids) else None


def _folder(game_id: str) -> Any:
    return resources.files("ziggurat.tutorials").joinpath(game_id)


def tutorial_games() -> list[str]:
    """The ids of the games that have a tutorial, sorted."""
    from ziggurat.engine.registry import games

    return [g for g in games() if _folder(g).joinpath("tutorial.json").is_file()]


def _read_json(game_id: str, name: str) -> Any:
    path = _folder(game_id).joinpath(name)
    if not path.is_file():
        raise TutorialError(f"{game_id} tutorial: no file {name}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise TutorialError(f"{game_id} tutorial: {name} is not JSON: {exc}") from None


@cache
def load_tutorial(game_id: str) -> Tutorial:
    """``<game_id>/tutorial.json``, checked for shape: closed objects, every text in every
    language, unique lesson ids, each lesson's position file present.

    :raises TutorialError: naming the file and the field that does not fit.
    """
    raw = _read_json(game_id, "tutorial.json")
    try:
        tutorial = Tutorial.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors(include_url=False)[0]
        where = ".".join(str(x) for x in err["loc"]) or "(file)"
        raise TutorialError(f"{game_id} tutorial: tutorial.json: {where}: {err['msg']}") from None
    if tutorial.game != game_id:
        raise TutorialError(f"{game_id} tutorial: tutorial.json is for {tutorial.game!r}")
    ids = [lesson.id for lesson in tutorial.lessons]
    for lesson_id in ids:
        if ids.count(lesson_id) > 1:
            raise TutorialError(f"{game_id} tutorial: two lessons are called {lesson_id!r}")
    for lesson in tutorial.lessons:
        if not _folder(game_id).joinpath(lesson.position).is_file():
            raise TutorialError(f"{game_id} tutorial: lesson {lesson.id}: no file {lesson.position}")
    return tutorial


def lesson_position(game_id: str, lesson: Lesson) -> dict[str, Any]:
    """The position a lesson starts from, as its file holds it (a fresh dict each call)."""
    position = _read_json(game_id, lesson.position)
    if not isinstance(position, dict):
        raise TutorialError(f"{game_id} tutorial: {lesson.position} is not a JSON object")
    return position
