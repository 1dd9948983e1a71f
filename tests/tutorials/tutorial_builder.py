"""Writes the tutorial files of Mesopotamia: Epochs and Mare Nostrum from seeded play.

A lesson starts from a position the engine reached (a seeded game played by the heuristic
bots to the right moment, sometimes edited and then loaded strictly), and goes on with the
moves the lesson asks of its seat. Everything another seat or chance does in between is
recorded as the lesson's scripted ``replies``, in the order it happens, so a lesson replays
the same way every time. ``build_epochs_tutorial.py`` and ``build_nostrum_tutorial.py`` hold
the lessons and their texts; run one to rewrite that game's files:

    PYTHONPATH=src python tests/tutorials/build_nostrum_tutorial.py
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ziggurat
from ziggurat.bots.base import make_bot
from ziggurat.tutorials import load_tutorial, validate

TUTORIALS = Path(__file__).resolve().parents[2] / "src" / "ziggurat" / "tutorials"
Text = dict[str, str]


def text(en: str, fr: str) -> Text:
    return {"en": en, "fr": fr}


def sample(state: Any, rng: random.Random) -> str:
    outcomes = state.chance_outcomes()
    return str(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])


class Player:
    """Plays a seeded game with the heuristic bots at every seat, chance drawn from ``rng``."""

    def __init__(self, game: Any, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.bots = [make_bot("heuristic", game, seat) for seat in range(game.num_players)]

    def choose(self, state: Any) -> str:
        seat = state.current_player()
        if seat < 0:
            return sample(state, self.rng)
        return str(self.bots[seat].choose(state.view(seat), state.legal_actions(), self.rng))

    def until(self, state: Any, stop: Callable[[Any], bool], limit: int = 5000) -> Any:
        """Play until ``stop(state)`` holds (checked before each move)."""
        for _ in range(limit):
            if state.is_terminal():
                raise AssertionError("the game ended before the moment looked for")
            if stop(state):
                return state
            state.apply(self.choose(state))
        raise AssertionError("the moment looked for never came")


class Lesson:
    """One lesson: its start position, then its steps with the replies recorded between them.

    ``chance`` lists outcomes forced on the next chance nodes (dice, draws), in order; the
    other seats' decisions come from the heuristic bots, or from ``decide`` when it returns
    an action for them.
    """

    def __init__(
        self,
        game: Any,
        state: Any,
        seat: int,
        lesson_id: str,
        title: Text,
        intro: Text,
        seed: int = 1,
        chance: list[str | Callable[[Any], str]] | None = None,
        decide: Callable[[Any], str | None] | None = None,
    ) -> None:
        self.game = game
        self.position = state.to_position()
        self.state = game.state_from_position(self.position)  # strictly, as the tutorial will
        self.seat = seat
        self.id = lesson_id
        self.title = title
        self.intro = intro
        self.player = Player(game, seed)
        self.chance = list(chance or [])
        self.decide = decide
        self.steps: list[dict[str, Any]] = []
        self.replies: list[str] = []

    def _other(self) -> None:
        s = self.state
        action: str | None = None
        if s.current_player() < 0 and self.chance:
            forced = self.chance.pop(0)
            action = forced if isinstance(forced, str) else forced(s)
        elif s.current_player() >= 0 and self.decide is not None:
            action = self.decide(s)
        if action is None:
            action = self.player.choose(s)
        s.apply(action)
        self.replies.append(action)

    def others(self) -> None:
        """Replies until the lesson's seat is to move."""
        while not self.state.is_terminal() and self.state.current_player() != self.seat:
            self._other()

    def step(
        self,
        expect: str | list[str] | Callable[[Any], list[str]] | None,
        say: Text,
        hint: Text,
        rules: list[str],
        play: str | None = None,
        prefix: bool = False,
    ) -> Lesson:
        """The seat's next move: ``expect`` (one action, several accepted ones, or with
        ``prefix`` the start of the accepted ones, or a function giving them once the others have
        replied); ``play`` is the one played here."""
        self.others()
        if callable(expect):
            expect = expect(self.state)
        legal = list(self.state.legal_actions())
        step: dict[str, Any] = {"say": say}
        if expect is None:  # the heuristic bot's move, asked exactly
            expect = self.player.choose(self.state)
        if prefix:
            assert isinstance(expect, str)
            step["expect_prefix"] = expect
            choice = play or next(a for a in legal if a.startswith(expect))
        else:
            accepted = [expect] if isinstance(expect, str) else list(expect)
            step["expect"] = accepted
            choice = play or accepted[0]
        assert choice in legal, f"{self.id}: {choice!r} is not legal among {legal}"
        step.update(hint=hint, rules=rules)
        self.steps.append(step)
        self.state.apply(choice)
        return self

    def finish(self, done: Text, covers: list[str]) -> dict[str, Any]:
        """The lesson's dict (docs/tutorials.md); nothing moves after its last step."""
        return {
            "id": self.id,
            "title": self.title,
            "position": f"{self.id}.position.json",
            "seat": self.seat,
            "intro": self.intro,
            "steps": self.steps,
            "others": "scripted",
            "replies": self.replies,
            "done": done,
            "covers": covers,
        }


def write(
    game_id: str,
    players: int,
    options: dict[str, Any],
    covers: dict[str, Any],
    lessons: list[tuple[Lesson, dict[str, Any]]],
) -> None:
    """Write ``tutorial.json`` and one position file per lesson."""
    folder = TUTORIALS / game_id
    folder.mkdir(parents=True, exist_ok=True)
    for lesson, _ in lessons:
        (folder / f"{lesson.id}.position.json").write_text(
            json.dumps(lesson.position, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    doc = {
        "game": game_id,
        "players": players,
        "options": options,
        "covers": covers,
        "lessons": [d for _, d in lessons],
    }
    (folder / "tutorial.json").write_text(
        json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(game_id, "ways through the lessons:", validate(load_tutorial(game_id)))


def load(game_id: str, players: int, options: dict[str, Any]) -> Any:
    return ziggurat.load(game_id, players=players, **options)
