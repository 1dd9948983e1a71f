"""Refusals as messages: an illegal move, a decision out of turn, an action after the end and
a malformed action are refused with a message of the catalogues (English as before, with its
rule; French complete)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from meso_helpers import Board, heuristic_decisions

import ziggurat
from ziggurat.engine import messages as M


def _refused(state: Any, action: str, exc: type[Exception] = ziggurat.IllegalAction, **kw: Any) -> M.Message:
    """The message ``action`` is refused with; the state does not change."""
    before = state.fingerprint()
    with pytest.raises(exc) as info:
        state.apply(action, **kw)
    assert state.fingerprint() == before
    msg = info.value.args[0]
    assert isinstance(msg, M.Message), msg
    assert str(info.value) == str(msg)
    return msg


def _red(*cards: str, specs: tuple[str, ...] = ("r@1,0", "rw@1,0")) -> Board:
    """Red's Phase I holding ``cards`` from an earlier turn; only ``specs`` on the map."""
    return Board().clear_tribes().turn("r").tribes(*specs).hand("r", *cards)


def test_wood_carrier_refused_at_the_temple_M5_3() -> None:
    msg = _refused(_red().state(), "move rw@1,0 0,0")
    assert msg.key == "engine.illegal"
    assert msg.params["action"] == "move rw@1,0 0,0"
    assert msg.params["reason"].key == "meso.refusal.templeWood"
    assert msg == "illegal: move rw@1,0 0,0: a tribe carrying wood may not enter the temple (M5.3)"
    assert msg.render("fr") == (
        "coup illégal : move rw@1,0 0,0 : une tribu portant du bois ne peut pas entrer dans le temple (M5.3)"
    )


def test_steal_needs_a_majority_names_the_counts_M4_1() -> None:
    state = _red(specs=("r@1,0", "bs@1,0", "b@1,0")).state()
    msg = _refused(state, "steal bs@1,0 r@1,0")
    assert msg == (
        "illegal: steal bs@1,0 r@1,0: you have 1 tribe there against Blue's 2: "
        "stealing needs more tribes than that player (M4.1)"
    )
    assert msg.render("fr") == (
        "coup illégal : steal bs@1,0 r@1,0 : vous avez 1 tribu ici contre 2 pour Bleu : "
        "voler demande plus de tribus que ce joueur (M4.1)"
    )


def test_steal_of_a_load_nobody_there_carries_names_the_load_M4_3() -> None:
    state = _red(specs=("r@1,0", "r@1,0", "bs@1,0")).state()
    msg = _refused(state, "steal bw@1,0 r@1,0")
    assert msg == "illegal: steal bw@1,0 r@1,0: no blue tribe on that tile carries wood to steal (M4.3)"
    assert msg.render("fr") == (
        "coup illégal : steal bw@1,0 r@1,0 : aucune tribu bleue de cette tuile ne porte de bois à voler (M4.3)"
    )


def test_card_not_held_names_the_card_M14_2() -> None:
    msg = _refused(_red().state(), "play priest 0,0")
    assert msg == "illegal: play priest 0,0: you hold no Priest card (M14.2)"
    assert msg.render("fr") == "coup illégal : play priest 0,0 : vous n'avez aucune carte Prêtre (M14.2)"


def test_teleport_onto_a_volcano_agrees_in_gender_M15_7_R53() -> None:
    state = _red("teleport", specs=("r@1,0", "rw@1,0", "bs@1,-1")).state()
    state.apply("play teleport bs@1,-1")
    msg = _refused(state, "to 0,1")
    assert msg == "illegal: to 0,1: Teleport may not send a tribe onto a volcano (M15.7, R53)"
    assert msg.render("fr") == (
        "coup illégal : to 0,1 : Téléportation ne peut pas envoyer une tribu sur un volcan (M15.7, R53)"
    )


def test_decision_out_of_turn_M1_3() -> None:
    state = Board().state()  # Blue's first turn in a 4-player game
    msg = _refused(state, "end", ziggurat.NotYourTurn, seat=3)
    assert msg.key == "engine.notYourTurnRule"
    assert msg == "it is not Green's decision: Blue is to move (M1.3)"
    assert msg.render("fr") == "ce n'est pas à Vert de décider : c'est à Bleu de jouer (M1.3)"


def test_no_action_after_the_end_M16_1() -> None:
    b = Board().clear_tribes().turn("r").mana("r", 7, 8)
    b.delivered("r", 2, 4, 6)
    pub = b.offering("r", 7)
    state = b.tribes(f"ro{pub}@1,0", "r@1,0", "rw@1,0", "g@1,-1").state()
    state.apply(f"move ro{pub}@1,0 0,0")
    msg = _refused(state, "end", ziggurat.GameOver)
    assert msg == "the game is over (Red won, M16.1); no more actions"
    assert msg.render("fr") == "la partie est terminée (Rouge a gagné, M16.1) ; plus aucune action"


def test_malformed_action_is_explained_in_french() -> None:
    msg = _refused(Board().state(), "move x 1,0", ziggurat.InvalidAction)
    assert msg == "'x' is not a tribe like rw@1,-1 (colour, cargo, @, tile)"
    assert msg.render("fr") == "'x' n'est pas une tribu comme rw@1,-1 (couleur, charge, @, tuile)"


# Tries that are wrong in most positions, for a sweep over a game's decisions.
TRIES = (
    "end", "income", "pass", "stop", "draw", "play endurance", "play priest 0,0", "play mana_theft b",
    "play teleport b@1,0", "play land 9", "play expulsion n1", "move b@1,0 2,0", "move r@1,-1 5,5",
    "pickup b@1,0 wood", "steal rs@2,0 b@2,0", "hut 1,0 bw@1,0 b@1,0", "holy 1,0 bs@1,0 b@1,0",
    "grow 1,0 b1 b@1,0 b@1,0", "to 1,0", "volcano 0,0", "share 1,0", "pile 9", "offer 3",
    "drop bw@1,0", "exchange bw@1,0 stone", "handoff bw@1,0 b@1,0", "offering b@1,0 b1",
)  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_every_refusal_of_a_game_renders_in_french(players: int) -> None:
    """Wrong tries along a game of heuristic bots: each refusal is a message whose French
    rendering is complete (no parameter left, not the English) and names the same rules."""
    rng = random.Random(players)
    keys = set()
    for _, state, _, legal in heuristic_decisions(players, seed=players, plies=250):
        for action in rng.sample(TRIES, 4):
            if action in legal:
                continue
            msg = _refused(state, action)
            reason = msg.params["reason"]
            keys.add(reason.key)
            french = msg.render("fr")
            assert "{" not in french and "meso." not in french, french
            assert french != str(msg)
            for rule in re.findall(r"\b[MRD]\d+(?:\.\d+)*\b", str(reason)):
                assert rule in french, (rule, french)
    assert len(keys) >= 12, sorted(keys)
