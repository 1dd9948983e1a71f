"""The tutorials over HTTP (docs/tutorials.md): a learner starts a lesson, sends moves, and
gets back the new view, the step's text, the hint on a wrong move, and the lesson's end.

Lessons are held in memory, per learner, by an opaque session id: a tutorial is not a stored
table, so nothing is written to the database and a restarted server forgets lessons under way
(the page then starts the lesson again). At most :data:`MAX_SESSIONS` lessons are kept; the
least recently used goes first.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from pydantic import BaseModel, Field

from ziggurat.engine.errors import GameOver, InvalidAction, NotYourTurn, ZigguratError
from ziggurat.engine.messages import Message
from ziggurat.server import gamekit
from ziggurat.server.schemas import ErrorOut
from ziggurat.tutorials import (
    LessonOver,
    LessonRun,
    Text,
    Tutorial,
    TutorialError,
    WrongMove,
    load_tutorial,
    tutorial_games,
)

router = APIRouter(prefix="/api/tutorials", tags=["tutorials"])

MAX_SESSIONS = 2000
"""Lessons under way kept in memory; beyond this the least recently used is forgotten."""

_ERROR_CODES: tuple[tuple[type[ZigguratError], str], ...] = (
    (InvalidAction, "invalid"),
    (NotYourTurn, "not_your_turn"),
    (GameOver, "game_over"),
)


class MoveIn(BaseModel):
    action: str = Field(max_length=200, description="the learner's move, as action text")


class Session:
    """One learner's lesson: the run, and the log entries written so far."""

    def __init__(self, session_id: str, tutorial: Tutorial, lesson_id: str) -> None:
        self.id = session_id
        self.tutorial = tutorial
        self.lesson = tutorial.lesson(lesson_id)
        self.lock = threading.Lock()
        self.start()

    def start(self) -> None:
        self.run = LessonRun(self.tutorial, self.lesson)
        self.writer = gamekit.LogWriter(self.run.game)
        self.version = 0
        self.log: list[dict[str, Any]] = []
        self._log_played(0)

    def _log_played(self, start: int) -> None:
        seat = self.lesson.seat
        for ply, played in enumerate(self.run.played[start:], start + 1):
            self.log += self.writer.entries(ply, played.events, seat, played.before, played.after)

    def play(self, action: str) -> dict[str, Any]:
        """The answer to the learner's move: ``played``, ``hint`` or ``refused``."""
        start = len(self.run.played)
        try:
            self.run.play(action)
        except WrongMove as exc:
            return {"outcome": "hint", "hint": exc.hint.model_dump()}
        except LessonOver as exc:
            raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from exc
        except ZigguratError as exc:
            code = next((c for cls, c in _ERROR_CODES if isinstance(exc, cls)), "illegal")
            reason = exc.args[0] if exc.args else str(exc)
            error: dict[str, Any] = {"code": code, "message": str(reason)}
            if isinstance(reason, Message):
                error["event"] = reason.to_json()
            return {"outcome": "refused", "error": error}
        self.version += 1
        self._log_played(start)
        return {"outcome": "played"}

    def answer(self, outcome: dict[str, Any]) -> dict[str, Any]:
        """The session's state, as the tutorial page draws it; ``table`` is shaped like a
        table's ``state`` message (docs/server.md), so the game's board module draws it."""
        run, lesson = self.run, self.lesson
        state = run.state
        over = state.is_terminal()
        step = run.step
        seat = lesson.seat
        table = {
            "type": "state",
            "seat": seat,
            "colour": gamekit.colours(run.game)[seat],
            "version": self.version,
            "view": run.view(),
            "legal": run.legal_actions(),
            "log_start": 0,
            "log": self.log,
            "can_undo": False,
            "status": "over" if over else "playing",
            "result": state.returns() if over else None,
        }
        return {
            "session": self.id,
            "game": self.tutorial.game,
            "lesson": lesson.id,
            "next": self.tutorial.next_lesson(lesson.id),
            "step": run.step_index,
            "steps": len(lesson.steps),
            "say": None if step is None else step.say.model_dump(),
            "rules": [] if step is None else list(step.rules),
            "finished": run.finished,
            "done": lesson.done.model_dump() if run.finished else None,
            "table": table,
            **outcome,
        }


class Sessions:
    """The lessons under way, by session id (in memory, least recently used forgotten first)."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._by_id: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def open(self, tutorial: Tutorial, lesson_id: str) -> Session:
        session = Session(secrets.token_urlsafe(16), tutorial, lesson_id)
        with self._lock:
            self._by_id[session.id] = session
            while len(self._by_id) > self.limit:
                self._by_id.popitem(last=False)
        return session

    def get(self, session_id: str) -> Session:
        with self._lock:
            session = self._by_id.get(session_id)
            if session is None:
                raise HTTPException(status.HTTP_404_NOT_FOUND, "no such lesson under way; start it again")
            self._by_id.move_to_end(session_id)
            return session

    def __len__(self) -> int:
        return len(self._by_id)


def _sessions(request: Request) -> Sessions:
    sessions: Sessions | None = getattr(request.app.state, "tutorials", None)
    if sessions is None:
        sessions = request.app.state.tutorials = Sessions()
    return sessions


def _tutorial(game_id: str) -> Tutorial:
    if game_id not in tutorial_games():
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no tutorial for {game_id!r}")
    try:
        return load_tutorial(game_id)
    except TutorialError as exc:  # a broken tutorial file: the tests keep this from shipping
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, str(exc)) from exc


def _text(text: Text) -> dict[str, str]:
    return text.model_dump()


def _locked(session: Session, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run ``work`` with the session's lock held: one move of a lesson at a time."""
    with session.lock:
        return work()


_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "no such game, lesson or session"}
}


@router.get("", response_model=list[dict[str, Any]])
async def list_tutorials() -> list[dict[str, Any]]:
    """The games that have a tutorial, with their lessons' titles."""
    out = []
    for game_id in tutorial_games():
        tutorial = _tutorial(game_id)
        out.append(
            {
                "game": game_id,
                "lessons": [{"id": lesson.id, "title": _text(lesson.title)} for lesson in tutorial.lessons],
            }
        )
    return out


@router.get("/{game_id}", response_model=dict[str, Any], responses=_NOT_FOUND)
async def tutorial_of(game_id: str) -> dict[str, Any]:
    """A game's tutorial: its table and its lessons (titles, introductions, steps' texts)."""
    tutorial = _tutorial(game_id)
    return {
        "game": game_id,
        "players": tutorial.players,
        "options": tutorial.options,
        "lessons": [
            {
                "id": lesson.id,
                "title": _text(lesson.title),
                "intro": _text(lesson.intro),
                "seat": lesson.seat,
                "steps": [{"say": _text(step.say), "rules": list(step.rules)} for step in lesson.steps],
                "done": _text(lesson.done),
                "covers": list(lesson.covers),
            }
            for lesson in tutorial.lessons
        ],
    }


@router.post("/{game_id}/lessons/{lesson_id}", response_model=dict[str, Any], responses=_NOT_FOUND)
async def start_lesson(game_id: str, lesson_id: str, request: Request) -> dict[str, Any]:
    """Start a lesson: a new session, at its first step."""
    tutorial = _tutorial(game_id)
    if lesson_id not in {lesson.id for lesson in tutorial.lessons}:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no lesson {lesson_id!r} in the {game_id} tutorial")
    session = await asyncio.to_thread(_sessions(request).open, tutorial, lesson_id)
    return session.answer({"outcome": "started"})


@router.get("/sessions/{session_id}", response_model=dict[str, Any], responses=_NOT_FOUND)
async def lesson_state(session_id: str, request: Request) -> dict[str, Any]:
    """Where a lesson under way stands."""
    session = _sessions(request).get(session_id)
    with session.lock:
        return session.answer({"outcome": "current"})


@router.post(
    "/sessions/{session_id}/actions",
    response_model=dict[str, Any],
    responses={**_NOT_FOUND, 409: {"model": ErrorOut, "description": "the lesson is over"}},
)
async def lesson_move(session_id: str, move: MoveIn, request: Request) -> dict[str, Any]:
    """The learner's move: ``outcome`` is ``played`` (the lesson moved on), ``hint`` (a legal
    move the step does not ask for: nothing changed, ``hint`` says what to do) or ``refused``
    (an illegal move: nothing changed, ``error`` is the engine's refusal)."""
    session = _sessions(request).get(session_id)
    return await asyncio.to_thread(_locked, session, lambda: session.answer(session.play(move.action)))


@router.post("/sessions/{session_id}/restart", response_model=dict[str, Any], responses=_NOT_FOUND)
async def restart_lesson(session_id: str, request: Request) -> dict[str, Any]:
    """Start the session's lesson again from its position."""
    session = _sessions(request).get(session_id)

    def again() -> dict[str, Any]:
        session.start()
        return session.answer({"outcome": "started"})

    return await asyncio.to_thread(_locked, session, again)
