"""Mare Nostrum: Empires refusals as messages: a refused action raises the engine's error with a
Message (``mn.refusal.*``) whose English is the reason players have always read, naming the
rule, and which renders in French; so do a turn out of order, a finished game and an action
that does not parse."""

from __future__ import annotations

import re

import pytest
from nostrum_helpers import CARTHAGE, GREECE, ROME, buy, buy_turn, load, mil_turn, new, play, pos, refuse

import ziggurat
from ziggurat.engine.messages import Message, from_json, render
from ziggurat.games.mare_nostrum.nouns import whom


def _refusal(
    state: ziggurat.State, action: str, *rules: str, exc: type[Exception] = ziggurat.IllegalAction
) -> Message:
    """The refusal of ``action`` (nothing changes, every rule named), as a message."""
    refuse(state, action, *rules, exc=exc)
    with pytest.raises(exc) as info:
        state.apply(action)
    reason = info.value.args[0]
    assert isinstance(reason, Message)
    assert from_json(reason.to_json()) == reason and str(info.value) == reason
    assert "{" not in render(reason, "fr")
    return reason


def test_a_fortress_refused_in_english_and_in_french_N3_8() -> None:
    s = buy_turn(new(), GREECE)
    buy(s, "buy fortress achea", "tax", "tax", "tax")
    reason = _refusal(s, "buy fortress achea", "N3.8")
    assert reason == "'buy fortress achea': Achea already holds a fortress: one per province (N3.8)"
    assert (
        reason.render("fr") == "'buy fortress achea' : Achea a déjà une forteresse : une par province (N3.8)"
    )


def test_an_action_out_of_its_step_N2_3() -> None:
    s = new()
    s.apply("token c 2")
    reason = _refusal(s, "buy legion latium", "N2.3")
    assert (
        reason == "'buy legion latium' is not legal now (N2.3: the decision under way is the secret offers)"
    )
    assert reason.render("fr") == (
        "'buy legion latium' n'est pas permis maintenant (N2.3 : décision en cours : les offres secrètes)"
    )


def test_a_take_names_the_other_empire_with_its_article_N2_5() -> None:
    s = new()
    s.apply("token c 2")
    play(s, "offer metal", "offer wine", "offer tax", "offer tax", "offer perfume", "offer sheep")
    reason = _refusal(s, "take gold from 1", "N2.5")
    assert reason == "'take gold from 1': Greece's offer holds no gold (N2.5)"
    assert (
        reason.render("fr") == "'take gold from 1' : l'offre de la Grèce ne contient aucun jeton d'or (N2.5)"
    )


def test_a_payment_and_a_supply_agree_in_french_N0_8_2_N0_9() -> None:
    s = new()
    p = pos(s)
    p["res"][ROME]["leg:metal"] = 1
    p["pool"]["metal"] = 0
    s = buy_turn(load(s, p), ROME)
    s.apply("buy marker dalmatia")
    s.apply("pay leg:metal")
    reason = _refusal(s, "pay metal", "N0.8.2")
    assert (
        reason
        == "'pay metal': a legendary metal counts as a metal: not twice the same type in one payment (N0.8.2)"
    )
    assert "un jeton légendaire compte comme son bien (métal)" in reason.render("fr")
    limits = {"legion": 2, "trireme": 5, "fortress": 8, "influence_marker": 12}
    s = buy_turn(new(unit_limits=limits), ROME)
    reason = _refusal(s, "buy legion latium", "N0.9")
    assert (
        reason.render("fr") == "'buy legion latium' : il ne vous reste aucune légion en réserve (N0.9, 2.5)"
    )


def test_a_hit_legion_names_its_empire_N4_7_6() -> None:
    s = new()
    p = pos(s)
    p["legions"]["macedonia"] = [0, 1, 0]
    p["legions"]["latium"] = [2, 0, 2]
    p["occupy"]["latium"] = {"market": CARTHAGE}
    s = mil_turn(load(s, p), ROME, "mil_fight")
    for action in ("fight latium 2", "roll 1,1,3", "roll 1,1"):
        s.apply(action)
    reason = _refusal(s, "lose marker", "N4.7.6")
    assert reason == "'lose marker': no legion of Carthage stands on the marker in Latium (N4.7.6, R14)"
    assert reason.render("fr") == (
        "'lose marker' : aucune légion de Carthage ne se tient sur le marqueur en Latium (N4.7.6, R14)"
    )


def test_out_of_turn_game_over_and_unknown_actions() -> None:
    s = new()
    seat = s.current_player()
    other = (seat + 1) % 3
    with pytest.raises(ziggurat.NotYourTurn) as turn:
        s.apply("token c 2", seat=other)
    view = s.view(None)
    assert (
        turn.value.args[0]
        == f"it is not {render(whom(view, other))}'s decision: {render(whom(view, seat))} is to move (D5)"
    )
    assert render(turn.value.args[0], "fr") == (
        f"ce n'est pas à {render(whom(view, other), 'fr')} de décider : c'est à {render(whom(view, seat), 'fr')} de jouer (D5)"
    )
    with pytest.raises(ziggurat.InvalidAction) as bad:
        s.apply("frobnicate")
    assert bad.value.args[0] == "unknown action 'frobnicate'"
    assert render(bad.value.args[0], "fr") == "action inconnue : 'frobnicate'"
    over = new()
    p = pos(over)
    p["stage"], p["winner"] = "over", GREECE
    over = load(over, p)
    assert over.is_terminal()
    with pytest.raises(ziggurat.GameOver) as done:
        over.apply("pass")
    assert done.value.args[0] == "the game is over (N6.5.3)"
    assert render(done.value.args[0], "fr") == "la partie est terminée (N6.5.3)"


def test_the_step_under_way_is_named_in_words_N4_6() -> None:
    """A refusal out of its step names the step as the log does ("the Legion movement step"),
    in both languages."""
    s = mil_turn(new(), ROME, "mil_march")
    reason = _refusal(s, "buy legion latium", "N4.6")
    assert (
        reason
        == "'buy legion latium' is not legal now (N4.6: the decision under way is the Legion movement step)"
    )
    assert reason.render("fr") == (
        "'buy legion latium' n'est pas permis maintenant (N4.6 : décision en cours : le déplacement des légions)"
    )


def test_no_step_is_named_by_its_identifier() -> None:
    """Every ``mn.stage.*`` wording (the decision under way a refusal names) is words in every
    language, never the engine's identifier (``mil_march``, ``production``)."""
    from ziggurat.engine.messages import LANGS, catalogue
    from ziggurat.games.mare_nostrum.nouns import STAGES

    for lang in LANGS:
        words = {
            k.removeprefix("mn.stage."): v for k, v in catalogue(lang).items() if k.startswith("mn.stage.")
        }
        assert set(words) == set(STAGES), lang
        for stage, text in words.items():
            assert "_" not in text and not re.fullmatch(r"[a-z]+", text), (lang, stage, text)
