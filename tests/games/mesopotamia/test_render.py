"""The terminal and SVG boards and the told log, on positions from seeded random play (2-4 players).

Both boards read only a view (rules spec §6): they must draw every tile and piece of it, fit
the terminal width, and never show an offering value or a card the viewer may not see.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.console import Console

import ziggurat
from ziggurat.games.mesopotamia import describe
from ziggurat.games.mesopotamia.describe import action_groups
from ziggurat.games.mesopotamia.render_svg import render_svg
from ziggurat.games.mesopotamia.render_text import render_board, tribe_token

SVG = "{http://www.w3.org/2000/svg}"
PLIES = (0, 60, 400, 1500)


def _positions(players: int, seed: int) -> list[Any]:
    """States of one seeded random game at the plies of ``PLIES``."""
    game = ziggurat.load("mesopotamia", players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    for ply in range(max(PLIES) + 1):
        if ply in PLIES:
            out.append(state.clone())
        if state.is_terminal():
            break
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return out


CASES = [(n, seed, k) for n, seed in ((2, 1), (3, 2), (4, 3)) for k in range(len(PLIES))]


@pytest.fixture(scope="module")
def positions() -> dict[tuple[int, int], list[Any]]:
    return {(n, seed): _positions(n, seed) for n, seed in ((2, 1), (3, 2), (4, 3))}


def _visible_values(view: dict[str, Any]) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for pl in view["players"]:
        off = pl["offerings"]
        out[pl["colour"]] = {v for v in off["placed"].values() if v is not None} | set(off["unplaced"] or [])
    return out


def _seats(players: int) -> list[int | None]:
    return [None, *range(players)]


@pytest.mark.parametrize(("players", "seed", "k"), CASES)
def test_text_board_draws_every_tile_within_100_columns(
    positions: Any, players: int, seed: int, k: int
) -> None:
    state = positions[(players, seed)][k]
    for seat in _seats(players):
        view = state.view(seat)
        con = Console(width=100, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
        con.print(render_board(view, ["random"] * players))
        text = con.export_text()
        assert max(len(line) for line in text.splitlines()) <= 100
        for q, r, _kind in view["tiles"]:
            assert re.search(rf"(^|[ ┌]){q},{r}([ ]|$)", text, re.M), (q, r)
        for pl in view["players"]:
            assert pl["colour"].capitalize() in text
        if seat is not None:
            assert "Your secret offerings" in text
            own = view["players"][seat]["offerings"]["unplaced"]
            assert f"offerings in supply: {', '.join(map(str, own)) or 'none'}" in text
        else:
            assert "Your secret offerings" not in text


@pytest.mark.parametrize(("players", "seed", "k"), CASES)
def test_svg_draws_the_view_and_no_hidden_value(positions: Any, players: int, seed: int, k: int) -> None:
    state = positions[(players, seed)][k]
    for seat in _seats(players):
        view = state.view(seat)
        svg = render_svg(view)
        assert "None" not in svg
        root = ET.fromstring(svg)
        groups = list(root.iter(f"{SVG}g"))
        tiles = [g for g in groups if g.get("class") == "tile"]
        assert sorted((int(g.get("data-q", "")), int(g.get("data-r", ""))) for g in tiles) == sorted(
            (q, r) for q, r, _ in view["tiles"]
        )
        assert sum(1 for g in groups if g.get("class") == "tribe") == sum(
            len(p["tribes"]) for p in view["players"]
        )
        assert sum(1 for g in groups if g.get("class") == "hut") == len(view["huts"])
        assert sum(1 for g in groups if g.get("class") == "holy-place") == len(view["holy_places"])
        visible = _visible_values(view)
        for el in root.iter(f"{SVG}text"):
            if el.get("class") == "offering-value":
                assert int(el.text or "") in visible[el.get("data-owner", "")]


def test_tribe_token_counts_and_cargo() -> None:
    view = {"players": [{"colour": "blue", "offerings": {"placed": {"1": 6, "2": None}}}]}
    assert tribe_token(view, "blue", ["", "w", "s"]) == "b3sw"
    assert tribe_token(view, "blue", ["o1", ""]) == "b2o6"
    assert tribe_token(view, "blue", ["o2"]) == "b1o"


def test_actions_are_grouped_by_kind_in_order() -> None:
    groups = action_groups(["move a 1,0", "pickup a wood", "move b 2,0", "end"])
    assert [title.split(":")[0] for title, _ in groups] == ["move", "pickup", "end"]
    assert groups[0][1] == ["move a 1,0", "move b 2,0"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_told_game_names_no_secret_of_another_seat(players: int) -> None:
    """Every step of a random game, told to each seat and to a spectator (§6 redaction)."""
    game = ziggurat.load("mesopotamia", players=players)
    state = game.new_initial_state()
    rng = random.Random(players)
    viewers = _seats(players)
    told: dict[int | None, list[str]] = {v: [] for v in viewers}
    for _ in range(1500):
        if state.is_terminal():
            break
        before = {v: state.view(v) for v in viewers}
        mark = describe.log_mark(state)
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        events = describe.events_since(state, mark)
        assert events and events[0][1] == state.history()[-1]
        for v in viewers:
            told[v] += [text for text, _ in describe.describe_step(events, before[v], state.view(v))]
    secret = re.compile(
        r"puts the offering worth|draws a card:|looks at a tile of the pile:|peeked tiles back as"
    )
    for v in viewers:
        name = "" if v is None else describe.colour_name(v)
        for line in told[v]:
            if secret.search(line):
                assert v is not None and line.startswith(name), (v, line)
    assert any(secret.search(line) for v in viewers for line in told[v]), "seats are told their own secrets"
    assert len(told[None]) >= 1500


def test_sentences_for_common_actions() -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    lines = []
    for action in ("first b", "move b@1,-1 1,0", "move b@1,0 0,0"):
        before = state.view(1)
        mark = describe.log_mark(state)
        state.apply(action)
        lines += describe.describe_step(describe.events_since(state, mark), before, state.view(1))
    assert lines == [
        ("Blue plays first (turn order Blue, Yellow)", False),
        ("Blue moves a tribe from 1,-1 to 1,0", False),
        ("Blue moves a tribe from 1,0 onto the temple 0,0", False),
        ("Blue ends Phase I (movement)", True),  # no MP left: forced (§7)
    ]
