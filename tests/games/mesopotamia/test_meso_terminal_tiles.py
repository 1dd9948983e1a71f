"""The terminal map tells which tile each piece stands on (§6 views, drawn by render_text).

Odd columns are shifted down by half a cell, so the lines of a tile's pieces sit beside the
title of the tile in the next column. Each tile is drawn with a left edge from its title down:
a piece belongs to the tile whose title tops the edge to its left, and no piece is printed on a
line right after another tile's title without an edge between them. Checked on the plain text
(no colour) of positions from seeded games of heuristic bots, at two widths (the narrower
splits the map into bands)."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from meso_helpers import heuristic_decisions
from rich.console import Console

from ziggurat.games.mesopotamia.render_text import BASIC, cell_tokens, render_map

EDGES = "┌│"
COORD = re.compile(r"-?\d+,-?\d+")
PLIES = (40, 160, 400)


def _positions(players: int, seed: int) -> list[dict[str, Any]]:
    return [state.view(who) for ply, state, who, _legal in heuristic_decisions(players, seed, max(PLIES) + 1)
            if ply in PLIES]  # fmt: skip


def _plain(view: dict[str, Any], width: int) -> list[str]:
    con = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    con.print(render_map(view, width, BASIC))
    return con.export_text().splitlines()


def _tile_of(lines: list[str], row: int, col: int) -> str | None:
    """The tile a reader puts the word at ``row``, ``col`` on: left to the nearest edge, up that
    edge to the tile's title, whose coordinates follow the edge's top."""
    line = lines[row]
    edge = next((c for c in range(col - 1, -1, -1) if line[c] in EDGES), None)
    if edge is None:
        return None
    top = row
    while lines[top][edge] == "│":
        top -= 1
    title = lines[top][edge:].lstrip("┌ ")
    found = COORD.match(title)
    return found.group(0) if found else None


def _read(lines: list[str], tiles: set[str]) -> tuple[Counter[tuple[str | None, str]], list[str]]:
    """The pieces' tokens as read, by tile; and the tokens printed after another tile's title
    on the same line with no edge between."""
    read: Counter[tuple[str | None, str]] = Counter()
    beside: list[str] = []
    for row, line in enumerate(lines):
        if line.startswith("("):
            continue  # "(map continues: ...)" between bands
        for word in re.finditer(r"[^\s│┌]+", line):
            text = word.group(0)
            if COORD.fullmatch(text) or text.isupper() or text == "▲▲▲":
                continue  # titles, empty spaces' coordinates, tile codes, volcanoes
            read[(_tile_of(lines, row, word.start()), text)] += 1
            before = line[: word.start()]
            titles = [m for m in COORD.finditer(before) if m.group(0) in tiles]
            if titles and not any(ch in EDGES for ch in before[titles[-1].end() :]):
                beside.append(f"{text!r} after {titles[-1].group(0)!r}: {line.strip()}")
    return read, beside


@pytest.mark.parametrize("width", [100, 70])
@pytest.mark.parametrize(("players", "seed"), [(4, 3), (3, 5), (2, 1)])
def test_every_piece_reads_on_its_own_tile(players: int, seed: int, width: int) -> None:
    for view in _positions(players, seed):
        lines = _plain(view, width)
        tiles = {f"{q},{r}" for q, r, _kind in view["tiles"]}
        expected = Counter(
            (f"{q},{r}", text)
            for (q, r), tokens in cell_tokens(view, BASIC).items()
            for text, _style in tokens
        )
        read, beside = _read(lines, tiles)
        assert not beside, "\n".join(beside)
        assert read == expected, "\n".join(lines)
