"""Interactive tutorials: per game, lessons played from prepared positions (docs/tutorials.md).

Each game with a tutorial has a data folder ``ziggurat/tutorials/<game-id>/`` holding
``tutorial.json`` and its lessons' ``<lesson>.position.json`` files.

- :func:`load_tutorial` reads and checks a tutorial's shape (:mod:`.model`);
- :func:`validate` plays every lesson along every way through it (:mod:`.validation`);
- :class:`LessonRun` is one learner's way through a lesson (:mod:`.runner`);
- :data:`COVERS` declares, per game, the phases of a turn and the ways to win a tutorial must
  cover (:mod:`.covers`).

>>> from ziggurat.tutorials import load_tutorial, LessonRun
>>> tutorial = load_tutorial("mesopotamia")
>>> run = LessonRun(tutorial, tutorial.lessons[0])
>>> run.step_index, run.finished
(0, False)
"""

from ziggurat.tutorials.covers import COVERS, covers_of
from ziggurat.tutorials.model import (
    LANGS,
    Lesson,
    Step,
    Text,
    Tutorial,
    TutorialError,
    lesson_position,
    load_tutorial,
    tutorial_games,
)
from ziggurat.tutorials.runner import LessonOver, LessonRun, Played, WrongMove
from ziggurat.tutorials.validation import validate

__all__ = [
    "COVERS",
    "LANGS",
    "Lesson",
    "LessonOver",
    "LessonRun",
    "Played",
    "Step",
    "Text",
    "Tutorial",
    "TutorialError",
    "WrongMove",
    "covers_of",
    "lesson_position",
    "load_tutorial",
    "tutorial_games",
    "validate",
]
