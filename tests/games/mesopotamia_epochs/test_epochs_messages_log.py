"""The told log of Mesopotamia: Epochs as messages (rules spec §6): every sentence of seeded
games of 2 to 5 players, as each seat and a spectator read it, is an ``epochs.log.*`` message
whose English is the sentence and which renders in every language; exact French for a move,
a card only its holder may name, a round's start and the result."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.games.mesopotamia_epochs import describe
from ziggurat.games.mesopotamia_epochs.describe import describe_step, events_since, log_mark

GAME = "mesopotamia-epochs"


def _play(players: int, seed: int) -> list[tuple[Any, list[Any], Any]]:
    """Every step of one seeded game of random bots: (state before, events, state after)."""
    state = ziggurat.load(GAME, players=players).new_initial_state()
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        before = state.clone()
        mark = log_mark(state)
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        steps.append((before, events_since(state, mark), state.clone()))
    return steps


def _told(steps: list[tuple[Any, list[Any], Any]], seat: int | None) -> list[M.Message]:
    out = []
    for before, events, after in steps:
        out.extend(text for text, _ in describe_step(events, before.view(seat), after.view(seat)))
    return out


@pytest.fixture(scope="module")
def four_players() -> list[tuple[Any, list[Any], Any]]:
    return _play(4, 34)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_sentence_of_a_game_renders_in_every_language(players: int) -> None:
    """Each seat and a spectator: every sentence is a message of the game's catalogue, its
    English is its text, it survives the server's JSON, and every language renders it whole
    (no parameter left, nothing in English in French)."""
    steps = _play(players, players)
    keys: set[str] = set()
    for seat in [None, *range(players)]:
        for msg in _told(steps, seat):
            assert isinstance(msg, M.Message) and msg.key.startswith("epochs.log."), msg
            keys.add(msg.key)
            sent = M.from_json(json.loads(json.dumps(msg.to_json())))
            assert sent == msg and sent.render("en") == str(msg)
            for lang in M.LANGS:
                text = msg.render(lang)
                assert text and "{" not in text and "}" not in text and "epochs." not in text, (lang, text)
            assert msg.render("fr") != msg.render("en"), msg
    # the kinds of sentence every game has: the deal, placements, scores, rounds, the result
    assert {"epochs.log.dealt", "epochs.log.place", "epochs.log.score", "epochs.log.round"} <= keys
    assert keys & {"epochs.log.wins", "epochs.log.shared"}


def test_a_move_in_french(four_players: list[tuple[Any, list[Any], Any]]) -> None:
    told = _told(four_players, None)
    place = next(m for m in told if m.key == "epochs.log.place")
    assert str(place) == "The Elamites place a tribe in Media"
    assert place.render("fr") == "Les Élamites placent une tribu en Médie"
    roll = next(m for m in told if m.key == "epochs.log.roll")
    assert roll.render("fr") == (
        "Les Akkadiens attaquent Assur depuis Akkad : 4 et 1 avec Militaire contre 3, l'attaquant gagne et prend Assur"
    )
    step = next((b, e, a) for b, e, a in four_players if e[0][1].startswith("roll") and e[-1][1] == "remove")
    lines = describe_step(step[1], step[0].view(None), step[2].view(None))
    french = [m.render("fr") for m, _ in lines]
    assert "Tour n° 17 : les Phrygiens (Broche), entrent par l'Ahhiyawa, 5 tribus à placer" in french
    assert (
        french[-1]
        == "Une tribu chassée des Peuples de la mer en Ahhiyawa n'a nulle part où aller et est retirée"
    )


def test_a_dealt_card_is_named_in_french_only_to_its_holder_E1_5() -> None:
    state = ziggurat.load(GAME, players=2).new_initial_state()
    before = [state.view(0), state.view(1), state.view(None)]
    mark = log_mark(state)
    state.apply("deal brooch sumerians")
    events = events_since(state, mark)
    told = [describe_step(events, b, state.view(v))[0][0] for b, v in zip(before, (0, 1, None), strict=True)]
    assert [m.render("fr") for m in told] == [
        "Broche reçoit les Sumériens",
        "Broche reçoit une carte",
        "Broche reçoit une carte",
    ]
    assert [str(m) for m in told] == [
        "Brooch is dealt the Sumerians",
        "Brooch is dealt a card",
        "Brooch is dealt a card",
    ]
    # what the server sends the other seat does not carry the card either
    assert "sumerians" not in json.dumps(told[1].to_json())


def test_the_result_in_french_E15_2(four_players: list[tuple[Any, list[Any], Any]]) -> None:
    final = four_players[-1][2].view(None)
    result = describe.result_sentence(final)
    scores = sorted(((int(p["vp"]), p["symbol"]) for p in final["players"]), reverse=True)
    assert result.key == "epochs.log.wins"
    assert str(result).startswith(f"Game over: {scores[0][1].capitalize()} wins with {scores[0][0]} VP (")
    french = {"brooch": "Broche", "head": "Tête", "mask": "Masque", "statue": "Statue", "urn": "Urne"}
    others = ", ".join(f"{french[s]} {vp}" for vp, s in scores[1:])
    assert (
        result.render("fr")
        == f"Partie terminée : {french[scores[0][1]]} gagne avec {scores[0][0]} PV ({others})"
    )
    assert _told(four_players, 2)[-1] == result  # the log's last sentence


def test_counts_agree_in_number() -> None:
    """French and English plurals: one tribe, several tribes, none discarded (CLDR: 0 is
    singular in French)."""
    people = M.noun("epochs.people", "guti")
    area = M.noun("epochs.areaThe", "media")
    attack = M.message(
        "epochs.log.attack",
        people=people,
        area_the=area,
        n=1,
        defender=people,
        owner=M.message("epochs.log.nothing"),
    )
    assert str(attack) == "The Guti attack Media, held by 1 tribe of the Guti"
    assert attack.render("fr") == "Les Gutis attaquent la Médie : 1 tribu des Gutis en défense"
    assert M.message("epochs.log.stop", people=people, left=0).render("fr") == "Les Gutis arrêtent de placer"
    stop = M.message("epochs.log.stop", people=people, left=2)
    assert str(stop) == "The Guti stop placing; 2 unplaced tribes are discarded"
    assert stop.render("fr") == "Les Gutis arrêtent de placer ; 2 tribus non placées sont défaussées"
    assert (
        M.message("epochs.log.stop", people=people, left=1)
        .render("fr")
        .endswith("; 1 tribu non placée est défaussée")
    )


_HEADINGS = ("epochs.log.round", "epochs.log.roundAtSea", "epochs.log.roundNone")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 3), (3, 3), (4, 34), (5, 2)])
def test_every_score_comes_under_its_rounds_heading_E14_1(players: int, seed: int) -> None:
    """E14.1: a People scores at the end of its own round. A round that needs no decision (an
    empty pool, R5) is played through by the engine in the step of another action, and still
    has its "Round #" heading before its score, for each seat and a spectator; the round under
    way before the step keeps the heading it had."""
    steps = _play(players, seed)
    through = 0
    for seat in [None, *range(players)]:
        heading: M.Message | None = None
        for before, events, after in steps:
            told = [m for m, _ in describe_step(events, before.view(seat), after.view(seat))]
            for msg in told:
                if msg.key in _HEADINGS:
                    heading = msg
                    through += msg.key == "epochs.log.roundNone"
                elif msg.key == "epochs.log.score":
                    assert heading is not None, msg
                    assert str(heading.params["people"]) == str(msg.params["people"]), (heading, msg)
                elif msg.key in ("epochs.log.epochEnds", "epochs.log.dealDone"):
                    heading = None
    assert through  # the seeds have rounds played through without a decision
