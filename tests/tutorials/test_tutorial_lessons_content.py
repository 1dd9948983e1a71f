"""The Mesopotamia: Epochs and Mare Nostrum tutorials play as written.

For each lesson of ``src/ziggurat/tutorials/<game>/tutorial.json``: its position loads strictly
(``state_from_position``) in the game the tutorial loads; the scripted replies are legal when
they come, and exactly those the lesson needs; every move a step accepts is legal at that step,
and whichever accepted move the player makes, the next step can still be played; the lesson ends
after its last step (a victory lesson on the winning move, the seat winning); every text exists
in English and French; every rule a step cites is a rule of the game's spec.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import ziggurat

ROOT = Path(__file__).resolve().parents[2]
TUTORIALS = ROOT / "src" / "ziggurat" / "tutorials"
SPECS = {"mesopotamia-epochs": "mesopotamia-epochs.md", "mare-nostrum": "mare-nostrum.md"}
# lesson id -> it ends on the seat's victory
VICTORIES = {
    "mesopotamia-epochs": {"last_round"},
    "mare-nostrum": {"titles", "capitals", "pyramids", "five_tiles"},
}
LANGS = ("en", "fr")


@cache
def tutorial(game_id: str) -> dict[str, Any]:
    return dict(json.loads((TUTORIALS / game_id / "tutorial.json").read_text(encoding="utf-8")))


@cache
def spec_rules(game_id: str) -> frozenset[str]:
    spec = importlib.util.spec_from_file_location("rule_coverage", ROOT / "tools" / "rule_coverage.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    defined, _ = module.definitions((ROOT / "docs" / "rules" / SPECS[game_id]).read_text(encoding="utf-8"))
    return frozenset(defined)


def lessons() -> list[tuple[str, str]]:
    return [(g, lesson["id"]) for g in SPECS for lesson in tutorial(g)["lessons"]]


def lesson_of(game_id: str, lesson_id: str) -> dict[str, Any]:
    return next(le for le in tutorial(game_id)["lessons"] if le["id"] == lesson_id)


def start(game_id: str, lesson: dict[str, Any]) -> Any:
    doc = tutorial(game_id)
    game = ziggurat.load(game_id, players=doc["players"], **doc["options"])
    position = json.loads((TUTORIALS / game_id / lesson["position"]).read_text(encoding="utf-8"))
    return game.state_from_position(position)  # strict by default


def accepted(state: Any, step: dict[str, Any]) -> list[str]:
    """The moves the step accepts that are legal now."""
    legal = list(state.legal_actions())
    if "expect_prefix" in step:
        return [a for a in legal if a.startswith(step["expect_prefix"])]
    return [a for a in step["expect"] if a in legal]


def texts(lesson: dict[str, Any]) -> list[Any]:
    out = [lesson["title"], lesson["intro"], lesson["done"]]
    for step in lesson["steps"]:
        out += [step["say"], step["hint"]]
    return out


def test_tutorial_files_cover_their_games() -> None:
    """Each tutorial names its game, covers every phase of a round and every way to win (N0.1,
    N6; E4.4, E15), and has a position file for each lesson and no other."""
    for game_id in SPECS:
        doc = tutorial(game_id)
        assert doc["game"] == game_id
        assert doc["players"] in range(2, 6)
        ids = [le["id"] for le in doc["lessons"]]
        assert len(ids) == len(set(ids))
        files = {p.name for p in (TUTORIALS / game_id).glob("*.position.json")}
        assert files == {le["position"] for le in doc["lessons"]}
        assert doc["covers"]["phases"] and doc["covers"]["victory"]
    assert set(tutorial("mare-nostrum")["covers"]["phases"]) == {
        "production",
        "trade",
        "buy_place",
        "military",
        "claim",
    }
    assert set(tutorial("mare-nostrum")["covers"]["victory"]) == {
        "pyramids",
        "tiles_to_win",
        "capitals_to_win",
        "titles",
    }


@pytest.mark.parametrize(("game_id", "lesson_id"), lessons())
def test_lesson_texts_in_english_and_french(game_id: str, lesson_id: str) -> None:
    lesson = lesson_of(game_id, lesson_id)
    for t in texts(lesson):
        assert set(t) == set(LANGS), t
        assert all(t[lang].strip() for lang in LANGS), t
        assert t["en"] != t["fr"] or len(t["en"]) < 12, t  # a French text, not the English one
    for step in lesson["steps"]:
        assert step["rules"], step
        unknown = set(step["rules"]) - spec_rules(game_id)
        assert not unknown, f"{lesson_id}: {unknown} are not rules of {SPECS[game_id]}"


@pytest.mark.parametrize(("game_id", "lesson_id"), lessons())
def test_lesson_plays_to_its_end(game_id: str, lesson_id: str) -> None:
    lesson = lesson_of(game_id, lesson_id)
    assert lesson["others"] == "scripted"
    state = start(game_id, lesson)
    seat = lesson["seat"]
    replies = list(lesson["replies"])
    steps = lesson["steps"]
    for i, step in enumerate(steps):
        while not state.is_terminal() and state.current_player() != seat:
            assert replies, f"{lesson_id} step {i}: no scripted reply left for seat {state.current_player()}"
            state.apply(replies.pop(0))
        assert not state.is_terminal(), f"{lesson_id}: the game ended before step {i}"
        moves = accepted(state, step)
        assert moves, f"{lesson_id} step {i}: nothing it accepts is legal"
        if "expect" in step:
            assert moves == step["expect"], (
                f"{lesson_id} step {i}: {set(step['expect']) - set(moves)} illegal"
            )
        if len(moves) > 1:
            # The player may make any of them: none needs a reply scripted for another, and the
            # next step can still be played after each.
            for move in moves:
                branch = state.clone()
                branch.apply(move)
                if i + 1 < len(steps):
                    assert branch.current_player() == seat, f"{lesson_id} step {i}: {move} needs replies"
                    assert accepted(branch, steps[i + 1]), f"{lesson_id}: after {move}, step {i + 1} is stuck"
        state.apply(moves[0])
    for reply in replies:
        state.apply(reply)  # the dice of a last attack
    if lesson_id in VICTORIES[game_id]:
        assert state.is_terminal()
        assert state.returns()[seat] == max(state.returns()) == 1.0
    else:
        assert not state.is_terminal()
