"""Records read from the states a game keeps in its log: ``ziggurat.record`` of a game played
through ``apply`` replays nothing (nothing is left in :data:`CHECKPOINTS`, which only a replay
fills) and gives byte for byte the record a full replay computes, for the three games and
several seeds: recorded once, from clones that went their own way (an undo), from states
``replay`` reached (``upto``), and from logs that keep no states (written by other code), which
are replayed from the newest state known."""

from __future__ import annotations

import gc
import json
import random
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.contract import State
from ziggurat.engine.eventlog import ConsLog, Event, Kept, events_since, kept_of, log_mark
from ziggurat.engine.records import CHECKPOINTS, FINGERPRINT_EVERY, FORCED_ASKED, FORMAT

GAMES = [("mesopotamia", 2), ("mesopotamia", 4), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]
SEEDS = (1, 2, 3)


def full_replay_record(state: State, seed: int | None = None) -> dict[str, Any]:
    """The record with fingerprints worked out by replaying the whole game, action by action."""
    game = state.game
    actions = state.history()
    fingerprints: dict[str, str] = {}
    replayed = game.new_initial_state()
    for i, text in enumerate(actions, start=1):
        replayed.apply(text)
        if i % FINGERPRINT_EVERY == 0:
            fingerprints[str(i)] = replayed.fingerprint()
    assert replayed.fingerprint() == state.fingerprint()
    return {
        "format": FORMAT,
        "game": game.game_id,
        "options": dict(game.options),
        "num_players": game.num_players,
        "players": [f"seat{i}" for i in range(game.num_players)],
        "seed": seed,
        "actions": actions,
        "fingerprints": fingerprints,
        "final_fingerprint": state.fingerprint(),
        "result": state.returns() if state.is_terminal() else None,
        "forced": FORCED_ASKED,
    }


def as_replayed(state: State, seed: int | None = None) -> None:
    """``record(state)`` is the full replay's record, byte for byte."""
    got = json.dumps(ziggurat.record(state, seed=seed))
    assert got == json.dumps(full_replay_record(state, seed=seed))


def play(state: State, rng: random.Random, chosen: int) -> None:
    """``chosen`` more chosen actions (seeded), or to the game's end."""
    for _ in range(chosen):
        if state.is_terminal():
            return
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def plain_log(log: ConsLog) -> ConsLog:
    """The same events in a log of new ``(previous, actor, text, auto, seat)`` nodes, as other
    code would write it: no copy the state kept is at one of its nodes."""
    out: ConsLog = None
    for event in reversed(events_since_start(log)):
        out = (out, *event)
    return out


def events_since_start(log: ConsLog) -> list[Event]:
    """Newest first."""
    found: list[Event] = []
    node = log
    while node is not None:
        found.append(Event(*node[1:]))
        node = node[0]
    return found


@pytest.mark.parametrize(("game_id", "players"), GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_record_reads_the_kept_states_and_replays_nothing(game_id: str, players: int, seed: int) -> None:
    CHECKPOINTS.clear()
    state = ziggurat.load(game_id, players=players).new_initial_state()
    play(state, random.Random(seed), 4 * FINGERPRINT_EVERY + seed)
    as_replayed(state, seed=seed)
    assert not CHECKPOINTS  # nothing was replayed (a replay leaves its last state there)
    as_replayed(state, seed=seed)  # again: the fingerprints worked out once are read
    play(state, random.Random(seed + 10), FINGERPRINT_EVERY - seed)  # now at a kept state
    as_replayed(state)
    assert not CHECKPOINTS


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_clones_that_go_their_own_way_are_recorded_as_replayed(game_id: str, players: int) -> None:
    """An undo: clones taken at, before and after kept states, each played on with another seed."""
    CHECKPOINTS.clear()
    state = ziggurat.load(game_id, players=players).new_initial_state()
    rng = random.Random(players)
    branches: list[State] = []
    for chosen in (FINGERPRINT_EVERY - 1, 1, 1, FINGERPRINT_EVERY + 3, 2 * FINGERPRINT_EVERY - 4):
        play(state, rng, chosen)
        branches.append(state.clone())
    for i, branch in enumerate(branches):
        clone = branch.clone()
        play(branch, random.Random(100 + i), 2 * FINGERPRINT_EVERY + i)
        as_replayed(branch)
        as_replayed(clone)  # the clone the branch was taken from is as it was
        play(clone, random.Random(200 + i), FINGERPRINT_EVERY)  # a clone of a clone goes on too
        as_replayed(clone)
    as_replayed(state)
    assert not CHECKPOINTS


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_states_replay_reached_are_recorded_as_replayed(game_id: str, players: int) -> None:
    CHECKPOINTS.clear()
    state = ziggurat.load(game_id, players=players).new_initial_state()
    rng = random.Random(7)
    play(state, rng, 3 * FINGERPRINT_EVERY + 9)
    rec = full_replay_record(state)
    replayed = ziggurat.replay(rec)
    assert replayed.fingerprint() == state.fingerprint()
    assert json.dumps(ziggurat.record(replayed)) == json.dumps(rec)
    for upto in (FINGERPRINT_EVERY - 1, FINGERPRINT_EVERY, 2 * FINGERPRINT_EVERY + 1, len(rec["actions"])):
        partial = ziggurat.replay(rec, upto=upto)
        assert partial.history() == rec["actions"][:upto]
        as_replayed(partial)
        play(partial, random.Random(upto), FINGERPRINT_EVERY + 1)  # play on from there
        as_replayed(partial)
    assert not CHECKPOINTS


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_log_that_keeps_no_states_is_replayed(game_id: str, players: int) -> None:
    """Logs other code wrote (plain tuples): record replays what they lack, from the newest state
    known (a kept one, one an earlier record left in CHECKPOINTS, or the start)."""
    CHECKPOINTS.clear()
    state = ziggurat.load(game_id, players=players).new_initial_state()
    rng = random.Random(11)
    play(state, rng, 3 * FINGERPRINT_EVERY)
    kept_part = state.log
    at_checkpoint = state.clone()
    at_checkpoint.log = plain_log(kept_part)  # the state itself gives the newest fingerprint
    as_replayed(at_checkpoint)
    CHECKPOINTS.clear()
    play(state, rng, 2 * FINGERPRINT_EVERY + 5)
    plain = state.clone()
    plain.log = plain_log(state.log)  # no kept state at all: replayed from the start
    as_replayed(plain)
    assert CHECKPOINTS  # the replay left its last state
    as_replayed(plain)  # the next record starts from it
    play(plain, rng, FINGERPRINT_EVERY - len(plain.history()) % FINGERPRINT_EVERY)
    as_replayed(plain)  # at a checkpoint again: the remembered one, then the state's own
    play(plain, rng, FINGERPRINT_EVERY + 1)
    as_replayed(plain)
    CHECKPOINTS.clear()
    newer = state.clone()  # kept states up to 150 chosen actions only: replayed from there
    log: ConsLog = kept_part
    for event in events_since(state, kept_part):
        log = (log, *event)
    newer.log = log
    as_replayed(newer)
    as_replayed(state)


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_kept_states_do_not_show_in_the_events(game_id: str, players: int) -> None:
    state = ziggurat.load(game_id, players=players).new_initial_state()
    play(state, random.Random(5), 2 * FINGERPRINT_EVERY)
    events = state.events()
    assert all(type(event) is Event for event in events)
    assert events == events_since_start(state.log)[::-1]
    assert state.history() == [e.text for e in events if not e.auto]
    assert events_since(state, None) == events
    clone = state.clone()
    mark = log_mark(clone)
    play(clone, random.Random(6), FINGERPRINT_EVERY)
    assert events_since(clone, mark) == clone.events()[len(events) :]


def kept_plies(state: State) -> list[int]:
    """The plies of the copies ``state`` keeps (:class:`Kept`), oldest first; each is at a node
    of its log, after as many chosen actions, and is a copy of the state there."""
    chosen_at: dict[int, int] = {}
    nodes: list[ConsLog] = []
    node = state.log
    while node is not None:
        nodes.append(node)
        node = node[0]
    chosen = 0
    for node in reversed(nodes):
        chosen += not node[3]  # type: ignore[index]
        chosen_at[id(node)] = chosen
    found: list[int] = []
    kept = kept_of(state)
    while kept is not None:
        assert isinstance(kept, Kept)
        assert chosen_at.get(id(kept.node)) == kept.ply
        assert kept.state is not None and kept.state.log is kept.node
        found.append(kept.ply)
        kept = kept.previous
    return found[::-1]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_log_node_is_one_tuple_and_refers_to_no_state(game_id: str, players: int) -> None:
    """A log node is one plain tuple, its previous node and the event's four fields: one
    object per applied action, and none of them refers to a kept copy of the state."""
    state = ziggurat.load(game_id, players=players).new_initial_state()
    play(state, random.Random(4), 2 * FINGERPRINT_EVERY + 3)
    node = state.log
    while node is not None:
        assert type(node) is tuple and len(node) == 5
        actor, text, auto, seat = node[1:]
        assert type(actor) is int and type(text) is str and type(auto) is bool and type(seat) is int
        node = node[0]


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_the_collector_stops_tracking_a_log_as_it_grows(game_id: str, players: int) -> None:
    """Each log node is untracked by the cyclic garbage collector the first time it looks at
    it (the ring of recent nodes has it see a node after the one before), so no pass walks a
    long game's log again; a log node refers to no kept copy of the state, which would keep
    every later node tracked."""
    state = ziggurat.load(game_id, players=players).new_initial_state()
    play(state, random.Random(8), 6 * FINGERPRINT_EVERY)
    gc.collect(0)
    play(state, random.Random(9), 2 * FINGERPRINT_EVERY)
    gc.collect(0)  # the young generation only: the nodes made since the last pass
    tracked, node = 0, state.log
    while node is not None:
        tracked += gc.is_tracked(node)
        node = node[0]
    assert tracked == 0


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_a_game_from_its_set_up_keeps_a_state_every_50_and_one_from_a_position_none(
    game_id: str, players: int
) -> None:
    """What a search plays in its determinized worlds (``sample_state``) and a game from a
    position keep nothing: no record starts from them."""
    game = ziggurat.load(game_id, players=players)
    state = game.new_initial_state()
    play(state, random.Random(9), 3 * FINGERPRINT_EVERY + 1)
    chosen = len(state.history())
    assert kept_plies(state) == list(range(FINGERPRINT_EVERY, chosen + 1, FINGERPRINT_EVERY))
    clone = state.clone()
    play(clone, random.Random(10), FINGERPRINT_EVERY)
    assert kept_plies(clone) == list(range(FINGERPRINT_EVERY, len(clone.history()) + 1, FINGERPRINT_EVERY))
    seat = next(s for s in range(players) if s != state.current_player() or players == 1)
    for made in (
        game.state_from_position(state.to_position()),
        game.sample_state(state.view(seat), seat, random.Random(1)),
    ):
        play(made, random.Random(11), 2 * FINGERPRINT_EVERY)
        assert kept_plies(made) == []
        later = made.clone()
        play(later, random.Random(12), FINGERPRINT_EVERY)
        assert kept_plies(later) == []
