"""Mesopotamia's cards show their text in the terminal (M15): in the hand under the viewer's
secrets and beside each play in the list of actions, in English and French, with the numbers
of the game's options (M15.1 endurance_bonus_mp, M15.6 mana_theft_amount)."""

from __future__ import annotations

import pytest
from meso_helpers import Board
from rich.console import Console

from ziggurat.cli.play import Session
from ziggurat.engine.messages import render
from ziggurat.games.mesopotamia import render_text as rt
from ziggurat.games.mesopotamia.data import CARD_TYPES

RED = 2


def _printed(renderable: object) -> str:
    con = Console(width=100, record=True, color_system=None)
    con.print(renderable)
    return con.export_text()


def test_the_hand_shows_each_card_text_M15_1_M15_5() -> None:
    view = Board().turn("r").hand("r", "endurance", "land").state().view(RED)
    text = rt.secrets_text(view, "en")
    assert text is not None
    out = text.plain
    assert "Endurance: Phase I only: +3 MP this turn (M15.1)" in out
    assert (
        "Land: any time in your turn: look at the top 3 tiles of a pile and put them back in any order (M15.5)"
        in out
    )
    french = rt.secrets_text(view, "fr")
    assert french is not None
    assert "Endurance : en phase I seulement : +3 PM ce tour (M15.1)" in french.plain
    assert "regardez les 3 tuiles du dessus d'une pile" in french.plain
    assert "Teleport" not in out  # only the cards held


@pytest.mark.parametrize("card", CARD_TYPES)
def test_every_card_has_a_text_citing_its_rule_M15(card: str) -> None:
    text = rt.card_text(card)
    assert "(M15." in text and "(M15." in render(text, "fr")


def test_a_play_in_the_action_list_shows_the_card_text_with_the_options_M15_1() -> None:
    board = Board(endurance_bonus_mp=2, mana_theft_amount=1).turn("r").mana("b", 3)
    board.hand("r", "endurance", "mana_theft")
    state = board.state()
    notes = rt.action_notes(state, state.legal_actions())
    assert notes["play endurance"] == "Phase I only: +2 MP this turn (M15.1)"
    thefts = [a for a in state.legal_actions() if a.startswith("play mana_theft")]
    assert thefts and notes[thefts[0]] == rt.card_text("mana_theft", {"mana_theft_amount": 1})
    assert "up to 1 Mana" in notes[thefts[0]]
    assert not any(a in notes for a in thefts[1:])  # a card's text once, beside its first play
    assert not any(a.startswith("move") for a in notes)  # only plays are annotated

    game = state.game
    con = Console(width=100, record=True, color_system=None)
    session = Session(game, ["random", "random", "human", "random"], [None] * 4, 1, con, lang="fr")
    session.state = state
    session.show_actions()
    out = con.export_text()
    assert "play endurance — en phase I seulement : +2 PM ce tour (M15.1)" in " ".join(out.split())
    assert render(session.player(RED, alone=True), "fr") == "Rouge"
