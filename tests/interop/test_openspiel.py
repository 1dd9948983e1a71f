"""The OpenSpiel games (``ziggurat.interop.openspiel``): registration, parameters, GameType and
GameInfo, integer actions against the codec, observers, information states, resampling and
serialisation. OpenSpiel's own random-simulation checks and its search bots are in
``test_openspiel_sims.py``."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

import ziggurat  # noqa: E402
from ziggurat.interop import openspiel as zo  # noqa: E402
from ziggurat.interop.codec import codec_for  # noqa: E402

GAMES = [("mesopotamia", 3), ("mesopotamia-epochs", 3), ("mare-nostrum", 3)]
IDS = [g for g, _ in GAMES]


def walk(game: zo.ZigguratGame, seed: int, decisions: int, state: zo.ZigguratState | None = None):
    """Yield ``state`` (default: a new initial state) before each action of a seeded random
    playout of ``decisions`` player decisions (chance outcomes drawn by their probabilities)."""
    rng = random.Random(seed)
    state = state if state is not None else game.new_initial_state()
    made = 0
    while not state.is_terminal() and made < decisions:
        yield state
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1


def midgame(game_id: str, players: int, decisions: int = 40, seed: int = 5) -> zo.ZigguratState:
    """A state after ``decisions`` random decisions (or fewer, if the game ends), at a
    player's turn."""
    game = zo.load(game_id, players)
    state = game.new_initial_state()
    for _ in walk(game, seed, decisions, state):
        pass  # walk applies each action after yielding the state
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert not state.is_terminal()
    return state


def with_secrets(game_id: str, players: int, seed: int = 5) -> zo.ZigguratState:
    """The first state of a seeded random game, after 20 decisions, where the player to move
    cannot tell the world from another in which some other seat's secrets differ
    (``sample_state`` on its view, seeded 0-2, finds one)."""
    game = zo.load(game_id, players)
    zgame = game.ziggurat_game()
    state = game.new_initial_state()
    for _ in walk(game, seed, 400, state):
        if state.is_chance_node() or state.decisions() < 20:
            continue
        seat = state.current_player()
        z = state.ziggurat_state()
        view = z.view(seat)
        for k in range(3):
            world = zgame.sample_state(view, seat, random.Random(k))
            if any(world.view(p) != z.view(p) for p in range(players) if p != seat):
                return state.clone()
    raise AssertionError(f"no hidden information in 400 decisions of {game_id}")


def test_importing_ziggurat_does_not_import_pyspiel() -> None:
    code = "import sys, ziggurat; ziggurat.load('mesopotamia'); print('pyspiel' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_game_type_and_info_come_from_the_games_own_metadata(game_id: str, n: int) -> None:
    """Players, utility, the sum and the default decision cap are declared once, on the Game."""
    cls = ziggurat.engine.registry.game_class(game_id)
    game = zo.load(game_id, players=n)
    gt = game.get_type()
    assert (gt.min_num_players, gt.max_num_players) == (cls.min_players, cls.max_players)
    constant = pyspiel.GameType.Utility.CONSTANT_SUM
    assert (gt.utility == constant) == cls.constant_sum
    assert (game.min_utility(), game.max_utility()) == cls.utility_range
    assert game.max_game_length() == cls.max_game_length
    assert gt.long_name == f"Python Ziggurat {cls.name}"


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_registered_with_game_type_and_info(game_id: str, n: int) -> None:
    spec = zo.SPECS[game_id]
    assert spec.short_name in pyspiel.registered_names()
    game = pyspiel.load_game(spec.short_name, {"players": n})
    assert isinstance(game, zo.ZigguratGame)
    gt = game.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (gt.min_num_players, gt.max_num_players) == (spec.min_players, spec.max_players)
    assert gt.provides_information_state_string and gt.provides_observation_tensor
    codec = codec_for(ziggurat.load(game_id, players=n))
    assert game.num_players() == n
    assert game.num_distinct_actions() == codec.num_actions
    assert game.max_chance_outcomes() == codec.num_chance_outcomes
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    assert game.max_game_length() == spec.default_max_game_length
    if spec.constant_sum:
        assert gt.utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    else:
        assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM


def test_parameters_are_checked() -> None:
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_ziggurat_mare_nostrum", {"players": 2})
    with pytest.raises(Exception, match="noSuchOption"):
        pyspiel.load_game("python_ziggurat_mesopotamia", {"options": '{"noSuchOption": 1}'})
    with pytest.raises(Exception, match="max_game_length"):
        pyspiel.load_game("python_ziggurat_mesopotamia", {"max_game_length": 0})
    with pytest.raises(Exception, match="JSON"):
        pyspiel.load_game("python_ziggurat_mesopotamia", {"options": "round_limit"})


def test_options_survive_the_game_string() -> None:
    """OpenSpiel's game strings cannot quote ``,=()``; the options JSON is percent-encoded."""
    options = {"round_limit": 4, "two_player_removed_cards": ["priest-3", "endurance-3"]}
    game = pyspiel.load_game("python_ziggurat_mesopotamia", {"players": 2, "options": json.dumps(options)})
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.ziggurat_game().options == game.ziggurat_game().options
    assert again.ziggurat_game().options["round_limit"] == 4
    assert zo.decode_options(zo.encode_options(options)) == options
    assert zo.load("mesopotamia", 2, options=options).ziggurat_game().options == again.ziggurat_game().options


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_action_to_string_and_apply_match_the_codec(game_id: str, n: int) -> None:
    game = zo.load(game_id, n)
    codec = game.codec()
    seen_chance = seen_player = 0
    for state in walk(game, seed=1, decisions=60):
        z = state.ziggurat_state()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes == codec.chance_outcomes(z)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            for a, _ in outcomes:
                assert state.action_to_string(pyspiel.PlayerId.CHANCE, a) == codec.decode_chance(a, z)
            seen_chance += 1
            continue
        legal = state.legal_actions()
        assert legal == sorted(codec.encode(t, z) for t in z.legal_actions())
        assert [state.action_to_string(state.current_player(), a) for a in legal] == [
            codec.decode(a, z) for a in legal
        ]
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and sum(mask) == len(legal)
        # applying an index applies the text it stands for
        action = legal[len(legal) // 2]
        text = state.action_to_string(state.current_player(), action)
        child = state.child(action)
        assert child.ziggurat_state().history()[-1] == text
        seen_player += 1
    assert seen_chance and seen_player


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_information_state_ignores_other_seats_secrets(game_id: str, n: int) -> None:
    """Two states that differ only in what other seats hide give ``seat`` one information
    state (and observation); a seat whose secrets differ tells them apart."""
    state = with_secrets(game_id, n)
    game = state.get_game()
    zgame = game.ziggurat_game()
    seat = state.current_player()
    told_apart = 0
    for k in range(5):  # with_secrets found another seat's secrets differing for some k < 3
        other = game.from_ziggurat(
            zgame.sample_state(state.ziggurat_state().view(seat), seat, random.Random(k)), state.decisions()
        )
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.observation_string(seat) == state.observation_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
        if str(other) != str(state):  # a world where someone else's secrets differ
            told_apart += any(
                other.information_state_string(p) != state.information_state_string(p)
                for p in range(n)
                if p != seat
            )
    assert told_apart, "sampling never changed another seat's secrets"


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_resample_from_infostate_is_consistent(game_id: str, n: int) -> None:
    state = with_secrets(game_id, n)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(11, 0.0, 1.0)  # seeded
    worlds = set()
    for _ in range(8):
        sampled = state.resample_from_infostate(seat, sampler)
        assert isinstance(sampled, zo.ZigguratState)
        assert sampled.current_player() == seat
        assert sampled.information_state_string(seat) == state.information_state_string(seat)
        assert sampled.legal_actions() == state.legal_actions()
        assert sampled.decisions() == state.decisions()
        assert sampled.history() == []  # the true history would show others' secret choices
        worlds.add(str(sampled))
        # the sampled world plays on
        sampled.apply_action(sampled.legal_actions()[0])
    assert len(worlds) > 1, "eight samples of a mid-game information state were all the same world"


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_serialisation_round_trips(game_id: str, n: int) -> None:
    state = midgame(game_id, n)
    game = state.get_game()
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert str(state2) == str(state)
    assert state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    for p in range(n):
        assert state2.information_state_string(p) == state.information_state_string(p)
    # a resampled world (built from a position, with no history) round-trips too
    sampled = state.resample_from_infostate(
        state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0)
    )
    _, sampled2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, sampled))
    assert str(sampled2) == str(sampled)


def test_clone_is_independent() -> None:
    state = midgame("mesopotamia", 2)
    before = str(state)
    copy = state.clone()
    assert str(copy) == before and copy.history() == state.history()
    copy.apply_action(copy.legal_actions()[0])
    assert str(state) == before


@pytest.mark.parametrize(("game_id", "n"), GAMES, ids=IDS)
def test_observers_give_views(game_id: str, n: int) -> None:
    from open_spiel.python.observation import make_observation

    from ziggurat.interop.observe import encoder_for

    state = midgame(game_id, n, decisions=20)
    game = state.get_game()
    z = state.ziggurat_state()
    encoder = encoder_for(game.ziggurat_game())
    for seat in range(n):
        head, body = state.information_state_string(seat).split("\n", 1)
        assert head == f"decision {state.decisions()}/{game.max_game_length()}"
        assert json.loads(body) == json.loads(json.dumps(z.view(seat)))
        assert state.observation_tensor(seat) == pytest.approx(
            [float(x) for x in encoder.encode(z.view(seat), seat).reshape(-1)]
        )
    size = 1
    for d in encoder.shape:
        size *= int(d)
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    assert json.loads(public.string_from(state, 0).split("\n", 1)[1]) == json.loads(json.dumps(z.view(None)))
    full = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS),
    )
    assert json.loads(full.string_from(state, 0).split("\n", 1)[1]) == json.loads(json.dumps(z.to_position()))
    with pytest.raises(Exception, match="public"):
        make_observation(game, pyspiel.IIGObservationType(public_info=False, perfect_recall=False))


def test_truncation_at_max_game_length() -> None:
    game = zo.load("mesopotamia", 2, max_game_length=12)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.decisions() == 12 and state.is_truncated()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [0.0, 0.0] and state.legal_actions() == []
    assert "(truncated)" in str(state)
    epochs = zo.load("mesopotamia-epochs", 4, max_game_length=3)
    state = epochs.new_initial_state()
    while not state.is_terminal():
        state.apply_action(
            state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0]
        )
    assert state.returns() == [0.25] * 4  # constant-sum: a truncated Epochs game is shared


def test_position_states() -> None:
    state = midgame("mare-nostrum", 4, decisions=10)
    game = state.get_game()
    position = state.ziggurat_state().to_position()
    again = game.new_initial_state(json.dumps(position))
    assert again.ziggurat_state().to_position() == position
    assert game.state_from_position(position, decisions=10).decisions() == 10
