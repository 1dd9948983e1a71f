"""What a tournament writes: results.json, results.csv, summary.md and two PNG plots."""

from __future__ import annotations

import csv
import json
import struct
from pathlib import Path

from matplotlib.image import imread

from ziggurat.arena import TournamentResult, write_report

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a valid PNG has first."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    assert data.endswith(b"IEND\xaeB`\x82")
    return width, height


def test_report_files(played: tuple[TournamentResult, Path]) -> None:
    result, out = played
    written = write_report(result, out)
    assert sorted(p.name for p in written) == [
        "ratings.png", "results.csv", "results.json", "summary.md", "winrate.png"
    ]  # fmt: skip
    for name in ("winrate.png", "ratings.png"):
        width, height = png_size(out / name)
        assert width >= 600 and height >= 400
        pixels = imread(out / name)
        assert pixels.shape[:2] == (height, width) and pixels.std() > 0.05  # not a blank canvas

    data = json.loads((out / "results.json").read_text())
    assert data["format"] == "ziggurat-tournament/1"
    assert [s["name"] for s in data["standings"]] == ["heuristic", "random#1", "random#2"]
    assert data["counts"] == {"games": 9, "finished": 9, "truncated": 0, "errors": 0}
    first = data["games"][0]
    assert first["record"] == "records/game-00001.json" and (out / first["record"]).exists()
    assert first["seats"] == ["heuristic", "random#1", "random#2"] and sum(first["places"]) == 6
    assert len(data["ratings"]["mu"]["heuristic"]) == 10
    lo, hi = data["standings"][0]["ci95"]
    assert lo <= data["standings"][0]["win_rate"] <= hi

    rows = list(csv.DictReader((out / "results.csv").open(encoding="utf-8")))
    assert len(rows) == 9 * 3
    assert {r["entrant"] for r in rows if r["game"] == "2"} == {"heuristic", "random#1", "random#2"}
    wins = sum(float(r["win_share"]) for r in rows if r["entrant"] == "heuristic")
    assert wins == result.standings[0].wins

    summary = (out / "summary.md").read_text()
    assert "| entrant | bot | games | wins | win % | 95% CI | avg place | μ | σ |" in summary
    assert "| `heuristic` | `heuristic` | 9 |" in summary
    assert "![win rates](winrate.png)" in summary
