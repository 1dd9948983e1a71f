"""Records without replaying the game again: ``ziggurat.record`` takes its fingerprints from the
checkpoints it (or ``replay``) has already been through, and gives byte for byte the record the
engine gave when it replayed the whole game each time (the reference below), for seeded games
of every game, recorded once, recorded as they go, from clones, and after a replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import State
from ziggurat.engine.records import CHECKPOINTS, FINGERPRINT_EVERY, FORCED_ASKED, FORMAT

GAMES = [(game_id, players) for game_id in ziggurat.games() for players in (3, 4)]


def reference_record(
    state: State, seed: int | None = None, players: list[str] | None = None
) -> dict[str, Any]:
    """The record as the engine made it by replaying the whole game for its fingerprints."""
    game = state.game
    actions = state.history()
    fingerprints: dict[str, str] = {}
    if len(actions) >= FINGERPRINT_EVERY:
        replayed = game.new_initial_state()
        for i, text in enumerate(actions, start=1):
            replayed.apply(text)
            if i % FINGERPRINT_EVERY == 0:
                fingerprints[str(i)] = replayed.fingerprint()
    return {
        "format": FORMAT,
        "game": game.game_id,
        "options": dict(game.options),
        "num_players": game.num_players,
        "players": list(players) if players else [f"seat{i}" for i in range(game.num_players)],
        "seed": seed,
        "actions": actions,
        "fingerprints": fingerprints,
        "final_fingerprint": state.fingerprint(),
        "result": state.returns() if state.is_terminal() else None,
        "forced": FORCED_ASKED,
    }


def same(state: State, seed: int | None = None) -> None:
    got = ziggurat.record(state, seed=seed)
    assert json.dumps(got) == json.dumps(reference_record(state, seed=seed))


def step(state: State, rng: random.Random) -> None:
    if state.current_player() == ziggurat.CHANCE:
        state.apply(ziggurat.sample_chance(state, rng))
    else:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def play(state: State, rng: random.Random, chosen: int) -> None:
    """Play ``chosen`` more actions (each apply adds one to the history), or to the game's end."""
    for _ in range(chosen):
        if state.is_terminal():
            return
        step(state, rng)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_game_recorded_once_is_the_reference_record(game_id: str, players: int) -> None:
    CHECKPOINTS.clear()
    state = ziggurat.load(game_id, players=players).new_initial_state()
    play(state, random.Random(players), 3 * FINGERPRINT_EVERY + 7)
    same(state, seed=players)
    same(state, seed=players)  # again, from the checkpoints the first call kept
    assert len(ziggurat.record(state)["fingerprints"]) == len(state.history()) // FINGERPRINT_EVERY >= 2


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_game_recorded_as_it_goes_and_its_clones(game_id: str, players: int) -> None:
    CHECKPOINTS.clear()
    rng = random.Random(10 + players)
    state = ziggurat.load(game_id, players=players).new_initial_state()
    branches = []
    for chosen in (1, 49, 1, 23, 27, 50, 3, 97, 1, 1):  # at, just before and just after checkpoints
        play(state, rng, chosen)
        same(state)
        branches.append(state.clone())
    for i, branch in enumerate(branches):  # each clone goes its own way from a recorded point
        play(branch, random.Random(i), FINGERPRINT_EVERY + i)
        same(branch)


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_a_replayed_game_goes_on_and_is_recorded(game_id: str) -> None:
    CHECKPOINTS.clear()
    rng = random.Random(5)
    state = ziggurat.load(game_id, players=3).new_initial_state()
    play(state, rng, 2 * FINGERPRINT_EVERY + 11)
    rec = reference_record(state)
    CHECKPOINTS.clear()
    replayed = ziggurat.replay(rec)
    assert replayed.fingerprint() == state.fingerprint()
    same(replayed)
    play(replayed, rng, FINGERPRINT_EVERY)
    same(replayed)
    partial = ziggurat.replay(rec, upto=FINGERPRINT_EVERY + 2)
    same(partial)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ziggurat.games())
def test_a_long_game_is_the_reference_record(game_id: str) -> None:
    """To its end or 3,000 chosen actions (random Mesopotamia games run far longer)."""
    CHECKPOINTS.clear()
    rng = random.Random(7)
    state = ziggurat.load(game_id, players=3).new_initial_state()
    chosen = 0  # each apply adds one chosen action to the history
    while not state.is_terminal() and chosen < 3000:
        step(state, rng)
        chosen += 1
        if chosen == 1234:
            same(state)
    same(state, seed=7)
    assert ziggurat.replay(ziggurat.record(state)).fingerprint() == state.fingerprint()


def test_a_replay_refuses_a_record_whose_fingerprint_differs() -> None:
    CHECKPOINTS.clear()
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    play(state, random.Random(3), FINGERPRINT_EVERY + 1)
    rec = ziggurat.record(state)
    rec["fingerprints"][str(FINGERPRINT_EVERY)] = "0" * 32
    with pytest.raises(ValueError, match=f"diverges at action {FINGERPRINT_EVERY}"):
        ziggurat.replay(rec)
    rec = ziggurat.record(state)
    rec["actions"][3] = "no such action"
    with pytest.raises(ValueError, match="record action 4"):
        ziggurat.replay(rec)
