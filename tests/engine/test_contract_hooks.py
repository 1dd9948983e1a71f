"""One declaration per game (STYLE.md 11): ``Game.hooks``, the game's metadata, and the event
log every state keeps through the engine's ``State`` base.

Every declared hook imports and is what its field says; loading a game imports none of them;
a hook a game does not offer is ``None`` and each caller answers that with its documented
fallback or a clear error; ``events()`` is a list of ``Event`` tuples whose chosen texts are
``history()``.
"""

from __future__ import annotations

import random
import subprocess
import sys
from types import ModuleType

import pytest

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.bots.observe import find_redactor
from ziggurat.bots.playout import find_evaluator, find_plans, has_evaluator, make_playout, search_defaults
from ziggurat.engine.contract import State, sample_chance
from ziggurat.engine.eventlog import Event, events_since, log_mark
from ziggurat.engine.hooks import GameHooks
from ziggurat.engine.positions import play_random
from ziggurat.engine.registry import game_class
from ziggurat.games.mesopotamia.game import MesopotamiaGame
from ziggurat.interop.codec import codec_for
from ziggurat.interop.observe import encoder_for

GAMES = ziggurat.games()
MODULE_HOOKS = {"describe", "render_text", "render_svg"}
MAPPING_HOOKS = {
    "plans",
    "policies",
    "search_defaults",
    "search_defaults_by_players",
    "option_defaults",
    "option_specs",
    "option_rules",
}
FLAG_HOOKS = {"flags_from_state"}


@pytest.mark.parametrize("game_id", GAMES)
def test_every_declared_hook_imports_and_is_what_its_field_says(game_id: str) -> None:
    hooks = game_class(game_id).hooks
    declared = hooks.declared()
    # what every game of the project offers today
    assert {"heuristic_bot", "evaluate", "redact_events", "describe_step", "codec", "observer"} <= set(
        declared
    )
    for name, hook in declared.items():
        value = hook.get()
        if name in MODULE_HOOKS:
            assert isinstance(value, ModuleType), name
        elif name in MAPPING_HOOKS:
            assert isinstance(value, dict), name
        elif name in FLAG_HOOKS:
            assert isinstance(value, bool), name
        else:
            assert callable(value), name
        assert hook.get() is value  # the same object at each call


@pytest.mark.parametrize("game_id", GAMES)
def test_loading_a_game_imports_none_of_its_hooks(game_id: str) -> None:
    """The hooks are lazy, so ``ziggurat games`` and ``ziggurat.load`` stay cheap."""
    code = (
        "import sys, ziggurat\n"
        f"game = ziggurat.load({game_id!r})\n"
        "game.new_initial_state()\n"
        "targets = [h.target.partition(':')[0] for h in game.hooks.declared().values()]\n"
        "lazy = [t for t in targets if not t.endswith(('.data', '.view'))]\n"
        "print(sorted(t for t in lazy if t in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("game_id", GAMES)
def test_metadata_is_declared_on_the_game(game_id: str) -> None:
    cls = game_class(game_id)
    assert isinstance(cls.constant_sum, bool)
    assert isinstance(cls.max_game_length, int) and cls.max_game_length > 0
    low, high = cls.utility_range
    assert low < high
    game = ziggurat.load(game_id, players=cls.max_players)
    names = game.seat_names()
    assert len(names) == cls.max_players == len(set(names))


def test_epochs_is_constant_sum_the_others_are_not_E15_2() -> None:
    """A shared Epochs victory splits the 1.0 (E15.2); Mesopotamia and Mare Nostrum may end
    with no winner."""
    assert game_class("mesopotamia-epochs").constant_sum
    assert not game_class("mesopotamia").constant_sum
    assert not game_class("mare-nostrum").constant_sum


class BareMesopotamia(MesopotamiaGame):
    """Mesopotamia with no hooks declared: the rules run, nothing else is offered."""

    hooks = GameHooks()


def test_a_game_without_hooks_gets_each_callers_fallback_or_a_clear_error() -> None:
    game = BareMesopotamia(2, {})
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="mesopotamia has no heuristic bot"):
        make_bot("heuristic", game, 0)
    with pytest.raises(ValueError, match="no heuristic bot for playouts"):
        make_playout("heuristic", game)
    with pytest.raises(ValueError, match="no action codec"):
        codec_for(game)
    with pytest.raises(ValueError, match="no view encoder"):
        encoder_for(game)
    assert not has_evaluator(game)
    assert find_evaluator(game)(state) == [0.5, 0.5]  # neutral: 1 / n each
    assert find_redactor(game) is None
    assert find_plans(game) == {} and search_defaults(game) == {}
    assert make_bot("random", game, 0).name == "random"


def _played(game_id: str, seed: int, plies: int) -> State:
    state = ziggurat.load(game_id, players=3).new_initial_state()
    play_random(state, plies, random.Random(seed))
    return state


@pytest.mark.parametrize("game_id", GAMES)
def test_events_are_event_tuples_and_history_is_their_chosen_texts(game_id: str) -> None:
    state = _played(game_id, seed=7, plies=120)
    events = state.events()
    assert events and all(isinstance(e, Event) and isinstance(e, tuple) for e in events)
    actor, text, auto, seat = events[-1]  # still unpacks as a 4-tuple
    assert (actor, text, auto, seat) == (events[-1].actor, events[-1].text, events[-1].auto, events[-1].seat)
    assert state.history() == [e.text for e in events if not e.auto]
    assert all(e.actor in (ziggurat.CHANCE, *range(3)) for e in events)
    assert ziggurat.replay(ziggurat.record(state)).events() == events  # the autos come back too


@pytest.mark.parametrize("game_id", GAMES)
def test_events_since_a_mark_are_one_steps_events_and_a_clone_shares_the_log(game_id: str) -> None:
    state = _played(game_id, seed=9, plies=60)
    rng = random.Random(1)
    for _ in range(40):
        if state.is_terminal():
            break
        before = state.events()
        mark = log_mark(state)
        copy = state.clone()
        legal = state.legal_actions()
        action = (
            sample_chance(state, rng)
            if state.current_player() == ziggurat.CHANCE
            else rng.choice(list(legal))
        )
        state.apply(action)
        step = events_since(state, mark)
        assert state.events() == before + step
        assert step[0].text == action and not step[0].auto
        assert all(e.auto for e in step[1:])
        assert copy.events() == before  # the clone kept its log
