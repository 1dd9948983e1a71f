"""``ziggurat render``: a valid SVG drawn from a view; with --seat no other seat's secret shows."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import invoke, load

import ziggurat

SVG = "{http://www.w3.org/2000/svg}"


def _visible(player: dict[str, Any], own: bool) -> set[int]:
    """Offering values of ``player`` a viewer may see: all its own, else the revealed ones."""
    off = player["offerings"]
    if own:
        return set(off["placed"].values()) | set(off["unplaced"])
    shown = set(off["revealed"]) | set(off["delivered"])
    return {v for k, v in off["placed"].items() if int(k) in shown}


def _hidden_offerings(rec: dict[str, Any], viewer: int) -> tuple[int, dict[str, set[int]]] | None:
    """A ply where another seat has an offering on the map whose value is hidden from
    ``viewer``, and per colour the values the viewer may see."""
    state = ziggurat.load("mesopotamia", players=rec["num_players"]).new_initial_state()
    for ply, action in enumerate(rec["actions"], start=1):
        state.apply(action)
        pos = state.to_position()
        for seat, pl in enumerate(pos["players"]):
            off = pl["offerings"]
            shown = set(off["revealed"]) | set(off["delivered"])
            if seat != viewer and any(int(k) not in shown for k in off["placed"]):
                return ply, {p["colour"]: _visible(p, i == viewer) for i, p in enumerate(pos["players"])}
    return None


def test_render_writes_valid_svg(records: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    result = invoke(["render", str(records[0]), "--ply", "300", "--out", str(out)])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    state = ziggurat.replay(load(records[0]), upto=300)
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    assert len(tiles) == len(state.view(None)["tiles"])
    assert {(int(g.get("data-q", "")), int(g.get("data-r", ""))) for g in tiles} == {
        (q, r) for q, r, _ in state.view(None)["tiles"]
    }


@pytest.mark.slow
def test_render_for_a_seat_shows_no_hidden_offering_value(records: list[Path], tmp_path: Path) -> None:
    checked = cases = 0
    for path in records:
        rec = load(path)
        for viewer in range(rec["num_players"]):
            found = _hidden_offerings(rec, viewer)
            if found is None:
                continue
            ply, visible = found
            cases += 1
            out = tmp_path / f"seat{viewer}.svg"
            result = invoke(
                ["render", str(path), "--ply", str(ply), "--seat", str(viewer), "--out", str(out)]
            )
            assert result.exit_code == 0, result.output
            root = ET.parse(out).getroot()
            for el in root.iter(f"{SVG}text"):
                if el.get("class") == "offering-value":
                    owner = el.get("data-owner", "")
                    assert int(el.text or "") in visible[owner], (path.name, ply, viewer, owner, el.text)
                    checked += 1
            hidden_markers = [g for g in root.iter(f"{SVG}g") if g.get("class") == "offering"
                              and not any(t.get("class") == "offering-value" for t in g)]  # fmt: skip
            assert hidden_markers, "another seat's offering is drawn, face down"
    assert cases >= 3, "the fixture games hold offerings hidden from some seat"
    assert checked, "the viewer's own values are drawn"


def test_render_a_position_file(tmp_path: Path) -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    state.apply("first y")
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(state.to_position()))
    out = tmp_path / "pos.svg"
    result = invoke(["render", str(pos), "--seat", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert ET.parse(out).getroot().tag == f"{SVG}svg"


def test_render_bad_ply(records: list[Path], tmp_path: Path) -> None:
    result = invoke(["render", str(records[0]), "--ply", "-1", "--out", str(tmp_path / "x.svg")])
    assert result.exit_code == 2
    assert "--ply -1" in result.stderr
