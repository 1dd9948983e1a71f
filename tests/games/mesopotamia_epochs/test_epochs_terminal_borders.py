"""The Epochs terminal board shows adjacency with its legend: every area that can be held
with its land neighbours (E8.2, E8.3) and the seas it touches (E9.3), as map.json gives them,
readable at 100 columns, in English and French."""

from __future__ import annotations

import json
from importlib import resources

from epochs_helpers import load
from rich.console import Console

from ziggurat.games.mesopotamia_epochs import render_text as rt

MAP = json.loads(resources.files("ziggurat.games.mesopotamia_epochs").joinpath("map.json").read_text("utf-8"))
AREAS = {a["id"]: a for a in MAP["areas"]}


def _printed(renderable: object) -> list[str]:
    con = Console(width=100, record=True, color_system=None)
    con.print(renderable)
    return con.export_text().splitlines()


def _row(lines: list[str], name: str) -> str:
    return next(line for line in lines if line.startswith(name + " "))


def test_every_area_lists_its_land_neighbours_and_seas_E8_2_E9_3() -> None:
    view = load(3).new_initial_state().view(None)
    lines = _printed(rt.adjacency_table(view))
    assert lines[0].startswith("Borders: the areas each area touches by land")
    assert max(len(line) for line in lines) <= 100
    held = [a for a in AREAS.values() if a["kind"] in ("land", "island", "desert")]
    assert len(lines) == 1 + len(held)
    for area in held:
        row = _row(lines, area["name"])
        neighbours = [AREAS[n] for n in area["neighbours"]]
        for n in neighbours:
            if n["kind"] in ("land", "island", "desert"):
                assert n["name"] in row.split("≈")[0], (area["id"], n["id"])
            if n["kind"] == "sea":
                assert "≈" in row and n["name"] in row.split("≈")[1], (area["id"], n["id"])
    assert _row(lines, "Ugarit").split() == [
        "Ugarit",
        "Byblos,",
        "Kizzuwatna,",
        "Yamhad",
        "≈",
        "Great",
        "Green",
    ]
    assert "no land border" in _row(lines, "Islands")


def test_the_borders_come_with_the_legend_in_french() -> None:
    view = load(3).new_initial_state().view(0)
    with_legend = "\n".join(_printed(rt.render_board(view, legend=True, lang="fr")))
    assert "Frontières : les régions que chaque région touche par la terre" in with_legend
    assert "aucune frontière terrestre" in with_legend
    without = "\n".join(_printed(rt.render_board(view, legend=False, lang="fr")))
    assert "Frontières" not in without
