"""Huts are named the way the log names them (``meso.hutName``): by their notation in English
(``r2``), by their colour in words in French ("rouge 2"), in refusals (M6.2, M11.1) and in
the SVG's panel of the viewer's secrets, never by the raw notation in French."""

from __future__ import annotations

from typing import Any

import pytest
from meso_helpers import Board

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.games.mesopotamia.render_svg import render_svg


def _reason(state: Any, action: str) -> M.Message:
    with pytest.raises(ziggurat.IllegalAction) as info:
        state.apply(action)
    msg = info.value.args[0]
    assert isinstance(msg, M.Message)
    reason = msg.params["reason"]
    assert isinstance(reason, M.Message)
    return reason


def _red(*specs: str, phase: str = "movement") -> Board:
    return Board().clear_tribes().clear_huts().turn("r", phase=phase).tile(2, 0, "plains").tribes(*specs)


def test_offering_refusals_name_the_hut_by_its_colour_M6_2() -> None:
    board = _red("r@2,0")
    board.hut("r", 2, 1, 0, offering=board.player("r")["offerings"]["unplaced"][0])
    elsewhere = _reason(board.state(), "offering r@2,0 r2")
    assert elsewhere.key == "meso.refusal.hutNotOnTile"
    assert elsewhere.render("en") == "hut r2 is not on the tribe's tile (M6.2)"
    assert elsewhere.render("fr") == "la hutte rouge 2 n'est pas sur la tuile de la tribu (M6.2)"
    empty = _reason(_red("r@2,0").hut("r", 2, 2, 0).state(), "offering r@2,0 r2")
    assert empty.key == "meso.refusal.hutNoOffering"
    assert empty.render("fr") == "la hutte rouge 2 n'a pas d'offrande dessous (M6.2)"


def test_growth_refusal_names_the_hut_by_its_colour_M11_1() -> None:
    state = _red("r@2,0", "r@2,0", phase="action").hand("r", "holy_stone").hut("r", 2, 1, 0).state()
    reason = _reason(state, "grow 2,0 r2 r@2,0 r@2,0")
    assert reason.key == "meso.refusal.growthHutElsewhere"
    assert reason.render("en").startswith("hut r2 is not on 2,0")
    assert reason.render("fr").startswith("la hutte rouge 2 n'est pas en 2,0")


def test_svg_secrets_name_the_hut_over_an_offering_by_its_colour() -> None:
    board = Board().clear_huts().tile(2, 0, "plains")
    state = board.hut("r", 2, 2, 0, offering=board.player("r")["offerings"]["unplaced"][0]).state()
    seat = next(i for i, p in enumerate(state.view(None)["players"]) if p["colour"] == "red")
    french = render_svg(state.view(seat), lang="fr")
    assert "sous la hutte rouge 2 en 2,0" in french
    assert "hutte r2" not in french
    assert "under hut r2 at 2,0" in render_svg(state.view(seat), lang="en")
