"""Playing a lesson: the learner's moves checked against its steps, and the other seats and
chance moving between them, deterministically (scripted replies, or seeded heuristic bots and
seeded chance).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from ziggurat.bots.base import Bot, make_bot
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance
from ziggurat.engine.errors import IllegalAction, ZigguratError
from ziggurat.engine.eventlog import Event, events_since, log_mark
from ziggurat.engine.registry import load
from ziggurat.tutorials.model import Lesson, Step, Text, Tutorial, TutorialError, lesson_position

MAX_OTHER_PLIES = 400
"""The most plies the other seats and chance may play between two steps of a lesson: a lesson
whose heuristic bots would play on for longer is refused (it is meant to stay short)."""


class Played(NamedTuple):
    """One action of a lesson and what the engine then played itself, with the learner's
    view before and after (what a log entry describes)."""

    events: list[Event]
    before: dict[str, Any]
    after: dict[str, Any]


class WrongMove(IllegalAction):
    """A legal move that is not what the lesson's step asks for; it is not played. The message
    is the step's hint in English; :attr:`hint` has it in every language."""

    def __init__(self, hint: Text) -> None:
        super().__init__(hint.en)
        self.hint = hint


class LessonOver(ZigguratError):
    """A move sent after the lesson's last step."""


class LessonRun:
    """One learner's way through one lesson: the state, the step they are at, the events so far.

    Construction sets up the lesson's position and lets the others move until it is the
    learner's turn. :meth:`play` takes the learner's moves one at a time.
    """

    def __init__(self, tutorial: Tutorial, lesson: Lesson) -> None:
        self.tutorial = tutorial
        self.lesson = lesson
        self.game: Game = load(tutorial.game, players=tutorial.players, **tutorial.options)
        if not 0 <= lesson.seat < self.game.num_players:
            raise TutorialError(self._where(f"seat {lesson.seat} is not one of the game's"))
        try:
            self.state: State = self.game.state_from_position(lesson_position(tutorial.game, lesson))
        except ZigguratError as exc:
            raise TutorialError(self._where(f"{lesson.position}: {exc}")) from None
        self.step_index = 0
        self.played: list[Played] = []
        """Every action of the lesson so far (the learner's and the others'), in order."""
        self._rng = random.Random(lesson.seed)
        self._replies = list(lesson.replies)
        self._bots: dict[int, Bot] = {}
        self._others_move()

    # --- what the learner sees -------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """True once the learner has played the lesson's last step."""
        return self.step_index >= len(self.lesson.steps)

    @property
    def step(self) -> Step | None:
        """The step the learner is at, or ``None`` once the lesson is finished."""
        return None if self.finished else self.lesson.steps[self.step_index]

    def view(self) -> dict[str, Any]:
        """The position as the learner's seat sees it."""
        return self.state.view(self.lesson.seat)

    def legal_actions(self) -> list[str]:
        """The learner's legal actions (none once the lesson is finished or not their turn)."""
        if self.finished or self.state.is_terminal() or self.state.current_player() != self.lesson.seat:
            return []
        return list(self.state.legal_actions())

    def replies_left(self) -> int:
        """Scripted replies not yet played."""
        return len(self._replies)

    # --- moves --------------------------------------------------------------------------------

    def play(self, text: str) -> list[Played]:
        """Play the learner's move ``text``, then the others' until it is the learner's turn
        again (unless that was the last step); what this played, in order.

        :raises LessonOver: after the last step.
        :raises WrongMove: for a legal move the step does not ask for (nothing is played).
        :raises ZigguratError: the engine's refusal of an illegal move (nothing is played).
        """
        step = self.step
        if step is None:
            raise LessonOver(f"the lesson {self.lesson.id} is over")
        seat = self.lesson.seat
        if not isinstance(text, str):
            self.state.clone().apply(text, seat)  # raises InvalidAction: not an action text
            raise TutorialError(self._where(f"{text!r} is not an action text"))
        action = self.game.parse_action(text)
        if action not in self.state.legal_actions() or self.state.current_player() != seat:
            self.state.clone().apply(action, seat)  # raises the engine's reason for the refusal
            raise TutorialError(self._where(f"{action!r} was refused by the tutorial but not by the engine"))
        if not step.matches(action):
            raise WrongMove(step.hint)
        start = len(self.played)
        self._apply(action, seat)
        self.step_index += 1
        if not self.finished:
            if self.state.is_terminal():
                raise TutorialError(self._where(f"the game ended before step {self.step_index + 1}"))
            self._others_move()
        return self.played[start:]

    def _apply(self, action: str, seat: int | None) -> None:
        before = self.state.view(self.lesson.seat)
        mark = log_mark(self.state)
        self.state.apply(action, seat)
        self.played.append(Played(events_since(self.state, mark), before, self.state.view(self.lesson.seat)))

    def _others_move(self) -> None:
        """Let chance and the other seats move until it is the learner's turn."""
        seat = self.lesson.seat
        for _ in range(MAX_OTHER_PLIES):
            player = self.state.current_player()
            if self.state.is_terminal() or player == seat:
                return
            move = self._other_move()
            try:
                self._apply(move, None if player == CHANCE else player)
            except ZigguratError as exc:
                raise TutorialError(self._where(f"the reply {move!r} was refused: {exc}")) from None
        raise TutorialError(
            self._where(f"the others played {MAX_OTHER_PLIES} plies without reaching seat {seat}")
        )

    def _other_move(self) -> str:
        player = self.state.current_player()
        if self.lesson.others == "scripted":
            if not self._replies:
                who = "chance" if player == CHANCE else f"seat {player}"
                raise TutorialError(
                    self._where(f"no scripted reply left for {who} at step {self.step_index + 1}")
                )
            return self._replies.pop(0)
        if player == CHANCE:
            return sample_chance(self.state, self._rng)
        bot = self._bots.get(player)
        if bot is None:
            bot = self._bots[player] = make_bot("heuristic", self.game, player)
        return bot.choose(self.state.view(player), self.state.legal_actions(), self._rng)

    def _where(self, what: str) -> str:
        return f"{self.tutorial.game} tutorial: lesson {self.lesson.id}: {what}"
