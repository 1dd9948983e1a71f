"""``ziggurat bench``: the adapter rows (OpenSpiel, PettingZoo) and the observation costs, by
their shape only (nothing is asserted on timing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import invoke

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")

ADAPTERS = ("openspiel", "pettingzoo", "pettingzoo_decisions")
OBSERVATIONS = ("tensor", "information_state_string", "observation_string")


@pytest.mark.parametrize(("game_id", "players"), [("mesopotamia-epochs", 2), ("mare-nostrum", 3)])
def test_bench_prints_adapter_rates_beside_the_engine_and_observation_costs_per_seat(
    game_id: str, players: int, tmp_path: Path
) -> None:
    out = tmp_path / "bench.json"
    args = ["bench", game_id, "-p", str(players), "-t", "0.01", "--no-chess", "--json", str(out)]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    for text in ("Adapters", "engine", "OpenSpiel", "PettingZoo", "steps/s", "decisions/s",
                 "Observation cost", "tensor µs", "state string µs", "not in the step rates"):  # fmt: skip
        assert text in result.stdout
    assert "unavailable" not in result.stdout
    [row] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert sorted(row["adapters"]) == sorted(ADAPTERS)
    for name in ADAPTERS:
        assert row["adapters"][name] > 0
        assert row["adapter_ratio"][name] == pytest.approx(row["adapters"][name] / row["decisions"])
    # a PettingZoo step plays at least one engine decision
    assert row["adapters"]["pettingzoo_decisions"] >= row["adapters"]["pettingzoo"]
    assert [cost["seat"] for cost in row["observations"]] == list(range(players))
    for cost in row["observations"]:
        assert cost["states"] >= 1
        assert all(cost[name] > 0 for name in OBSERVATIONS)


def test_bench_adapters_can_be_skipped(tmp_path: Path) -> None:
    out = tmp_path / "bench.json"
    result = invoke(["bench", "mesopotamia", "-p", "2", "-t", "0.01", "--no-chess", "--no-adapters",
                     "--json", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "decisions/s" in result.stdout
    assert "Adapters" not in result.stdout and "Observation cost" not in result.stdout
    [row] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert row["adapters"] == {} and row["adapter_ratio"] == {} and row["observations"] == []
