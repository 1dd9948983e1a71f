"""The log as messages (rules spec §6): every sentence ``describe`` tells is a message of the
game's catalogue, English as before and French complete, redacted for its reader."""

from __future__ import annotations

import random
from typing import Any

import pytest
from meso_helpers import Board

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.engine import messages as M
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia import describe

SECRET_KEYS = {
    "meso.log.offerValue",
    "meso.log.cardDrawn",
    "meso.log.dealt",
    "meso.log.peek",
    "meso.log.order",
}
VIEWERS = (0, None)


def _told_game(players: int, seed: int, **options: Any) -> dict[int | None, list[M.Message]]:
    """A seeded game of heuristic bots, every step told to seat 0 and to a spectator."""
    game = ziggurat.load("mesopotamia", players=players, **options)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    told: dict[int | None, list[M.Message]] = {v: [] for v in VIEWERS}
    while not state.is_terminal():
        before = {v: state.view(v) for v in VIEWERS}
        mark = describe.log_mark(state)
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(bots[who].choose(state.view(who), state.legal_actions(), rng))
        events = describe.events_since(state, mark)
        for v in VIEWERS:
            for text, _ in describe.describe_step(events, before[v], state.view(v)):
                assert isinstance(text, M.Message), text
                told[v].append(text)
    return told


@pytest.fixture(scope="module", params=[2, 3, 4], ids=lambda n: f"{n}p")
def told_game(request: pytest.FixtureRequest) -> dict[int | None, list[M.Message]]:
    return _told_game(request.param, seed=request.param)


def test_every_sentence_renders_in_every_language(told_game: dict[int | None, list[M.Message]]) -> None:
    """Each sentence of a whole game, as a seat and as a spectator read it, renders in every
    language with no parameter left, French differs from English, and the JSON the server
    sends gives the same message back."""
    keys = set()
    for messages in told_game.values():
        for msg in messages:
            keys.add(msg.key)
            assert msg.key.startswith("meso.log."), msg.key
            english = msg.render("en")
            assert english == str(msg)
            french = msg.render("fr")
            for text in (english, french):
                assert "{" not in text and "}" not in text and "meso." not in text, (msg.key, text)
            assert french != english, (msg.key, english)
            assert M.from_json(msg.to_json()) == msg
    assert len(keys) >= 20, sorted(keys)
    assert told_game[None][-1].key == "meso.log.wins", "the game ends with its result"


def test_a_win_at_the_round_limit_is_told_as_the_leaders_not_as_a_fourth_delivery() -> None:
    """M16.2 (options round_limit and rank_non_winners): the leader wins when the round limit
    is reached; the log says so rather than that every offering was delivered (M16.1)."""
    told = _told_game(3, seed=2, round_limit=2, rank_non_winners=True)
    for messages in told.values():
        last = messages[-1]
        assert last.key == "meso.log.winsRanked", last.key
        assert str(last).startswith("The round limit is reached: ") and str(last).endswith(" (M16.2)")
        assert last.render("fr").startswith("La limite de manches est atteinte : ")
    assert not any(m.key == "meso.log.wins" for m in told[None])


def test_secrets_are_told_to_their_owner_only(told_game: dict[int | None, list[M.Message]]) -> None:
    """Offering values, cards drawn and peeked tiles are named to the seat that owns them (§6)."""
    spectator = {m.key for m in told_game[None]}
    assert not spectator & SECRET_KEYS
    own = [m for m in told_game[0] if m.key in SECRET_KEYS]
    assert own, "seat 0 is told its own secrets"
    assert all(m.params["who"].key == "colour.blue" for m in own)


def _tell(state: Any, action: str, *viewers: int | None) -> dict[int | None, list[str]]:
    """Apply ``action``; the step's sentences in French as each of ``viewers`` reads them."""
    before = {v: state.view(v) for v in viewers}
    mark = describe.log_mark(state)
    state.apply(action)
    events = describe.events_since(state, mark)
    return {
        v: [M.render(text, "fr") for text, _ in describe.describe_step(events, before[v], state.view(v))]
        for v in viewers
    }


def test_french_sentences_of_a_first_turn_S2_M2() -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    lines = []
    for action in ("first b", "move b@1,-1 1,0", "move b@1,0 0,0"):
        lines += _tell(state, action, 1)[1]
    assert lines == [
        "Bleu commence (ordre du tour : Bleu, Jaune)",
        "Bleu déplace une tribu de 1,-1 à 1,0",
        "Bleu déplace une tribu de 1,0 sur le temple 0,0",
        "Bleu finit la phase I (mouvement)",  # no MP left: forced (§7)
    ]


def test_offering_value_is_read_by_its_owner_only_M9_4_D18() -> None:
    """Red builds a hut and puts its offering worth 4 under it: Red reads the value, Blue and a
    spectator do not (§6)."""
    b = Board().clear_tribes().turn("r", phase="action").tile(2, 0, "plains").hand("r", "holy_stone")
    state = b.tribes("rw@2,0", "r@2,0").state()
    assert _tell(state, "hut 2,0 rw@2,0 r@2,0", 2, 0) == {
        2: ["Rouge construit une hutte en 2,0"],
        0: ["Rouge construit une hutte en 2,0"],
    }
    assert _tell(state, "offer 4", 2, 0, None) == {
        2: ["Rouge met l'offrande de valeur 4 sous la nouvelle hutte"],
        0: ["Rouge met une offrande sous la nouvelle hutte"],
        None: ["Rouge met une offrande sous la nouvelle hutte"],
    }


def test_result_in_french_M16_1() -> None:
    """Red delivers its fourth offering and wins: the delivery, then the result."""
    b = Board().clear_tribes().turn("r").mana("r", 7, 8)
    b.delivered("r", 2, 4, 6)
    pub = b.offering("r", 7)
    state = b.tribes(f"ro{pub}@1,0", "r@1,0", "rw@1,0", "g@1,-1").state()
    told = _tell(state, f"move ro{pub}@1,0 0,0", 0, None)
    assert (
        told[0]
        == told[None]
        == [
            "Rouge livre une offrande de valeur 7 au temple (mana 0/8)",
            "Rouge a livré toutes ses offrandes et gagne la partie (M16.1)",
        ]
    )


def test_plural_follows_the_count_M11_4() -> None:
    """A growth names its tribes with the language's plural rules (French: 0 and 1 are singular)."""
    grow = M.message("meso.log.grow", who=M.message("colour.red"), at="2,0", count=1)
    assert str(grow) == "Red grows the population on 2,0: +1 tribe"
    assert grow.render("fr") == "Rouge fait croître sa population en 2,0 : +1 tribu"
    grow = M.message("meso.log.grow", who=M.message("colour.red"), at="2,0", count=2)
    assert str(grow) == "Red grows the population on 2,0: +2 tribes"
    assert grow.render("fr") == "Rouge fait croître sa population en 2,0 : +2 tribus"
