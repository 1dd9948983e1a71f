"""The short version of the reliability harness ``benchmarks/reliability/leaks.py``.

A real server (uvicorn on 127.0.0.1, in-process) plays a few short games of each game with
human seats only, scripted clients choosing random legal actions, and a spectator; every
payload sent to a seat or the spectator (socket states, records, replays, ``/explain``, the
lookup and My games listings, the table's facts) is checked against what that viewer may know: no leak.
Then each kind of leak is planted in the running server or in a game's view or log redaction,
and the same checks must report it.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

HARNESS = Path(__file__).resolve().parents[2] / "benchmarks" / "reliability"


def _load(name: str, file: str) -> ModuleType:
    """A harness module by its file (the harness folder is no package)."""
    if str(HARNESS) not in sys.path:
        sys.path.append(str(HARNESS))  # after the standard library: ``import leakcheck`` works
    spec = importlib.util.spec_from_file_location(name, HARNESS / file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


leakcheck = _load("leakcheck", "leakcheck.py")
harness = _load("reliability_leaks", "leaks.py")

SETTINGS = harness.Settings(meso_rounds=2, mn_rounds=1, http_every=8, substitute_every=1)
"""Short games (Mesopotamia's round limit M16.2, Mare Nostrum's max_rounds), probed often."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with harness.Server(str(tmp_path_factory.mktemp("secrets"))) as running:
        yield running


@pytest.mark.parametrize("game_id", sorted(harness.GAMES))
def test_no_payload_leaks_a_secret(server: Any, game_id: str) -> None:
    """Two games at the smallest player count: 0 leaks in every payload kind."""
    counts = harness.GAMES[game_id][:1]
    report = harness.run_in_thread(harness.run_game(server, game_id, counts, 2, 2, SETTINGS, seed=11))
    assert report.games == 2
    assert report.leaks == []
    kinds = {k.split("/")[0] for k in report.checked}
    assert {"state", "log", "record", "replay", "explain", "lookup", "mygames", "table"} <= kinds
    assert report.checked["hidden fields"] > 0 and report.checked["hidden events"] > 0
    assert report.payloads("seat") > 100 and report.payloads("spectator") > 50


PLANTED_GAMES = {
    "other-view": "mesopotamia",
    "spectator-secret": "mare-nostrum",
    "legal-to-all": "mesopotamia",
    "log-drawn": "mesopotamia-epochs",
    "record-seed": "mesopotamia",
    "replay-view": "mesopotamia",
    "game-view": "mesopotamia",
    "game-log": "mesopotamia",
}
"""The game each planted leak is tried on (the harness tries each on every game)."""

EXPECTED = {
    "other-view": "state: view",
    "spectator-secret": "state: secret",
    "legal-to-all": "state: legal",
    "log-drawn": "state: log",
    "record-seed": "record: seed",
    "replay-view": "replay: view",
    "game-view": "state: secret",
    "game-log": "log: secret",
}
"""The check that must report each planted leak. A game's own view or log redaction leaking
(``game-view``, ``game-log``) is invisible to the comparisons with the engine and the server's
LogWriter: only the secret scan sees it."""


def test_every_plant_has_a_game_and_a_check() -> None:
    assert set(PLANTED_GAMES) == set(leakcheck.PLANTS) == set(EXPECTED)


@pytest.mark.parametrize("plant", sorted(leakcheck.PLANTS))
def test_a_planted_leak_is_caught(server: Any, plant: str) -> None:
    game_id = PLANTED_GAMES[plant]
    with leakcheck.PLANTS[plant]():
        report = harness.run_in_thread(
            harness.run_game(server, game_id, harness.GAMES[game_id][:1], 1, 1, SETTINGS, seed=5)
        )
    kinds = {leak.kind for leak in report.leaks}
    assert EXPECTED[plant] in kinds, kinds
    if plant in ("game-view", "game-log"):  # the engine's own output: equal to what was sent
        assert not kinds & {"state: view", "state: log"}


def test_a_real_view_leak_is_found_by_the_substitution_check() -> None:
    """Without the field list, a view that shows a hidden part (here the spectator's view of
    Mesopotamia with one colour's hand) differs from the view of a resampled state."""
    import random

    import ziggurat

    game = ziggurat.load("mesopotamia", players=3, variant_start_with_one_card=True)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not any(state.to_position()["players"][1]["hand"].values()):
        state.apply(
            ziggurat.sample_chance(state, rng) if state.current_player() < 0 else state.legal_actions()[0]
        )
    true = leakcheck.TrueGame(game, 0, [state], [[]], {}, {})
    checker = leakcheck.Checker(true, random.Random(1))
    honest = state.view(None)
    checker.substitute(honest, None, 0, "state")
    assert checker.leaks == []
    leaky = state.view(None)
    leaky["players"][1]["hand"] = state.to_position()["players"][1]["hand"]
    for _ in range(5):
        checker.substitute(leaky, None, 0, "state")
    assert any(leak.kind == "state: substitution" for leak in checker.leaks)


def test_a_run_goes_on_from_its_results_file(server: Any, tmp_path: Path) -> None:
    """Each finished game is a line of the results file as it ends; a run with the same
    arguments plays only the games the file lacks and reports the whole file; a line cut short
    (a kill while writing) is dropped; other arguments are not counted; ``fresh`` starts over."""
    import json

    counts = harness.GAMES["mesopotamia"][:1]
    key = harness.run_key("mesopotamia", counts, SETTINGS, 3)
    path = tmp_path / "secrets-mesopotamia.jsonl"

    def play(games: int, journal: Any) -> Any:
        try:
            return harness.run_in_thread(
                harness.run_game(server, "mesopotamia", counts, games, 1, SETTINGS, 3, journal=journal)
            )
        finally:
            journal.close()

    first = play(1, harness.Journal(path, key))
    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    assert first.games == 1 and [line["index"] for line in lines] == [0]
    assert lines[0]["key"] == key and lines[0]["leaks"] == [] and lines[0]["commit"]
    assert lines[0]["checked"]["state/seat"] > 0 and lines[0]["checked"]["hidden fields"] > 0
    assert lines[0]["plies"] == first.plies and lines[0]["cpu"] > 0

    with path.open("a") as out:
        out.write('{"key": {"game": "mesop')
    journal = harness.Journal(path, key)
    assert journal.done == {0}
    with pytest.raises(SystemExit):  # one run at a time on a file
        harness.Journal(path, key)
    both = play(2, journal)
    lines = [json.loads(raw) for raw in path.read_text().splitlines()]
    assert [line["index"] for line in lines] == [0, 1]
    assert both.games == 2 and both.plies == sum(line["plies"] for line in lines)
    assert both.checked["state/seat"] == sum(line["checked"]["state/seat"] for line in lines)
    assert both.leaks == []

    other = harness.Journal(path, harness.run_key("mesopotamia", counts, SETTINGS, 4))
    assert other.done == set() and other.other == 2
    other.close()
    fresh = harness.Journal(path, key, fresh=True)
    assert fresh.done == set() and fresh.report().games == 0
    fresh.close()
    assert path.read_text() == ""
