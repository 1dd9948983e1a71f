"""View encoders: a fixed-size, bounded float32 vector per game configuration, built
from the view alone, so two states that differ only in other seats' secrets look the same."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

import ziggurat  # noqa: E402
from ziggurat.engine.registry import game_class  # noqa: E402
from ziggurat.interop.observe import encoder_for  # noqa: E402

CONFIGS = [
    (g, n) for g in ziggurat.games() for n in range(game_class(g).min_players, game_class(g).max_players + 1)
]


def states(game, seed: int, plies: int):
    """The decision states of a seeded random game (at most ``plies`` of them)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply(ziggurat.sample_chance(state, rng))
            continue
        yield state
        state.apply(rng.choice(state.legal_actions()))
    yield state


@pytest.mark.parametrize(("game_id", "players"), CONFIGS)
def test_fixed_shape_within_bounds(game_id: str, players: int) -> None:
    game = ziggurat.load(game_id, players=players)
    enc = encoder_for(game)
    assert encoder_for(ziggurat.load(game_id, players=players)) is enc
    low, high = enc.bounds()
    assert low.shape == high.shape == enc.shape and (low < high).all()
    fields = enc.fields()
    assert fields[0][1] == 0
    assert sum(int(np.prod(shape)) for _, _, shape in fields) == enc.shape[0]
    for k, state in enumerate(states(game, 3, 300)):
        if k % 7:
            continue  # every 7th decision is plenty
        for seat in range(players):
            x = enc.encode(state.view(seat), seat)
            assert x.shape == enc.shape and x.dtype == np.float32
            assert np.isfinite(x).all() and (x >= low).all() and (x <= high).all()
            assert enc.split(x)["viewer"][seat] == 1


@pytest.mark.parametrize(("game_id", "players"), [(g, 3) for g in ziggurat.games()] + [("mare-nostrum", 5)])
def test_other_seats_secrets_do_not_show(game_id: str, players: int) -> None:
    """A determinized state (``sample_state``: the same view, other secrets redrawn) encodes
    exactly like the true one for the observing seat; the secrets did differ at times."""
    game = ziggurat.load(game_id, players=players)
    enc = encoder_for(game)
    rng = random.Random(8)
    differed = 0
    for k, state in enumerate(states(game, 4, 400)):
        if k % 5:
            continue
        seat = k % players
        view = state.view(seat)
        other = game.sample_state(view, seat, rng)
        assert other.view(seat) == view
        assert np.array_equal(enc.encode(other.view(seat), seat), enc.encode(view, seat))
        differed += other.fingerprint() != state.fingerprint()
    assert differed > 0, "the test never met hidden information"


@pytest.mark.parametrize("game_id", ziggurat.games())
def test_own_secrets_show(game_id: str) -> None:
    """What only the viewer knows is in its own observation: two seats' observations of the
    same state differ beyond the viewer flag somewhere in a game."""
    game = ziggurat.load(game_id, players=3)
    enc = encoder_for(game)
    differs = False
    for state in states(game, 6, 300):
        a = enc.split(enc.encode(state.view(0), 0))
        b = enc.split(enc.encode(state.view(1), 1))
        if any(not np.array_equal(a[k], b[k]) for k in a if k != "viewer"):
            differs = True
            break
    assert differs


def test_threads_encoding_at_once_get_their_own_vectors() -> None:
    """Each thread fills a buffer of its own: views encoded by four threads at once give the
    vectors they give one at a time, each a new array."""
    from concurrent.futures import ThreadPoolExecutor

    game = ziggurat.load("mare-nostrum", players=4)
    enc = encoder_for(game)
    views = [(state.view(k % 4), k % 4) for k, state in enumerate(states(game, 2, 200))]
    alone = [enc.encode(view, seat) for view, seat in views]

    def encode_all(_: int) -> list:
        return [enc.encode(view, seat) for view, seat in views * 3]

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(encode_all, range(4)))
    for got in results:
        assert all(np.array_equal(x, y) for x, y in zip(got, alone * 3, strict=True))
    assert len({id(x) for got in results for x in got}) == 4 * 3 * len(views)


def test_mesopotamia_map_fields_kept_per_map_encode_as_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tile fields an encoder keeps per map (a few maps at a time here, so the store is
    emptied along the way) give the vector an encoder with nothing kept gives."""
    from ziggurat.interop.observers import mesopotamia as observer

    monkeypatch.setattr(observer, "MAPS_KEPT", 3)
    game = ziggurat.load("mesopotamia", players=3)
    kept = type(encoder_for(game))(game)
    maps = set()
    for k, state in enumerate(states(game, 4, 400)):
        view = state.view(k % 3)
        maps.add(len(view["tiles"]))
        fresh = type(kept)(game)
        assert np.array_equal(kept.encode(view, k % 3), fresh.encode(view, k % 3))
        assert len(kept._maps) <= 3
    assert len(maps) > 3, "the game never changed its map often enough"
