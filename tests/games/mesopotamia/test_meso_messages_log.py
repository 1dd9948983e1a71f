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
            "Rouge déplace une tribu portant une offrande de 1,0 sur le temple 0,0 et livre l'offrande "
            "de valeur 7 (mana 0/8)",
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


def _told(state: Any, action: str, *viewers: int | None) -> dict[int | None, list[tuple[str, str]]]:
    """Apply ``action``; the step's sentences, English and French, as each of ``viewers`` reads them."""
    before = {v: state.view(v) for v in viewers}
    mark = describe.log_mark(state)
    state.apply(action)
    events = describe.events_since(state, mark)
    return {
        v: [
            (str(text), M.render(text, "fr"))
            for text, _ in describe.describe_step(events, before[v], state.view(v))
        ]
        for v in viewers
    }


def _mana_phase(colour: str, *cards: str, mana: int = 2, limit: int = 5) -> Board:
    """``colour``'s Phase III with ``cards`` from an earlier turn, Mana ``mana``/``limit`` and a
    holy place of its own on 2,0 with one of its tribes (pays 1, M13.2); Yellow keeps a tribe,
    so the next turn asks Yellow something."""
    b = Board().clear_tribes().turn(colour, phase="mana").mana(colour, mana, limit)
    b.tile(2, 0, "plains").holy(colour, 2, 0).tribes(f"{colour}@2,0", "y@1,-1")
    return b.hand(colour, *cards)


def test_income_after_a_priest_names_the_amount_M13_M15_2() -> None:
    """Blue plays a Priest on its paying holy place; income, now forced, pays 1 + 1 (M15.2):
    the sentence names the amount, for everyone (Mana is public)."""
    state = _mana_phase("b", "priest").state()
    told = _told(state, "play priest 2,0", 0, 1, None)
    assert told[0] == told[1] == told[None]
    assert told[None][:3] == [
        ("Blue plays Priest on the holy place at 2,0", "Bleu joue Prêtre sur le lieu saint en 2,0"),
        ("Blue collects 2 Mana of income (Mana 4/5)", "Bleu encaisse 2 de mana en revenu (mana 4/5)"),
        ("Blue ends the turn", "Bleu finit son tour"),
    ]


def test_income_forced_after_phase_two_names_the_amount_M8_1_M13() -> None:
    """Blue passes Phase II and has no card: income is forced in the same step, and its
    sentence still says what it paid."""
    state = _mana_phase("b").turn("b", phase="action").state()
    told = _told(state, "pass", 1)[1]
    assert told[:2] == [
        ("Blue passes Phase II", "Bleu passe la phase II"),
        ("Blue collects 1 Mana of income (Mana 3/5)", "Bleu encaisse 1 de mana en revenu (mana 3/5)"),
    ]


def test_income_chosen_alone_names_the_amount_M13_1() -> None:
    state = _mana_phase("b", "land", mana=4, limit=4).state()  # a Land card keeps income a choice
    assert _told(state, "income", None)[None] == [
        ("Blue collects 0 Mana of income (Mana 4/4)", "Bleu encaisse 0 de mana en revenu (mana 4/4)")
    ]


def test_holy_stone_then_income_in_one_step_M15_4_M13() -> None:
    """A Holy Stone before a forced income: each sentence has its own Mana, the income its amount."""
    state = _mana_phase("b", "holy_stone").state()
    assert _told(state, "play holy_stone", None)[None][:2] == [
        ("Blue plays Holy Stone (Mana 3/6)", "Bleu joue Pierre sacrée (mana 3/6)"),
        ("Blue collects 1 Mana of income (Mana 4/6)", "Bleu encaisse 1 de mana en revenu (mana 4/6)"),
    ]


def test_mana_theft_then_income_in_one_step_M15_6_M13() -> None:
    state = _mana_phase("b", "mana_theft").mana("r", 3, 5).state()
    assert _told(state, "play mana_theft r", None)[None][:2] == [
        (
            "Blue plays Mana Theft on Red, who loses 2 Mana (Blue now Mana 4/5)",
            "Bleu joue Vol de mana contre Rouge, qui perd 2 de mana (Bleu : mana 4/5)",
        ),
        ("Blue collects 1 Mana of income (Mana 5/5)", "Bleu encaisse 1 de mana en revenu (mana 5/5)"),
    ]


def test_a_donation_says_the_step_into_the_temple_M5_4_M5_5() -> None:
    """Yellow steps a stone carrier from -1,1 onto the temple: the sentence tells the step."""
    state = Board().clear_tribes().turn("y", mp=2).mana("y", 1, 4).tribes("ys@-1,1", "y@1,0").state()
    assert _told(state, "move ys@-1,1 0,0", 0)[0] == [
        (
            "Yellow moves a tribe carrying stone from -1,1 onto the temple 0,0 and donates the stone (Mana 2/5)",
            "Jaune déplace une tribu portant une pierre de -1,1 sur le temple 0,0 et offre la pierre (mana 2/5)",
        )
    ]


def test_a_donation_then_a_forced_income_each_with_its_mana_M5_5_M13() -> None:
    """Yellow's last MP takes a stone to the temple; nothing is left to do in Phase II, so the
    turn runs on to income: the donation shows the Mana it gave, the income its amount (no
    card to draw: option variant_no_reshuffle, M12.2)."""
    b = Board(2, variant_no_reshuffle=True).clear_tribes().turn("y", mp=1).mana("y", 1, 4).empty_deck()
    b.tile(2, 0, "plains").holy("y", 2, 0).tribes("ys@-1,1", "y@2,0", "b@1,-1")
    told = _told(b.state(), "move ys@-1,1 0,0", None)[None]
    assert told == [
        (
            "Yellow moves a tribe carrying stone from -1,1 onto the temple 0,0 and donates the stone (Mana 2/5)",
            "Jaune déplace une tribu portant une pierre de -1,1 sur le temple 0,0 et offre la pierre (mana 2/5)",
        ),
        ("Yellow ends Phase I (movement)", "Jaune finit la phase I (mouvement)"),
        ("Yellow passes Phase II", "Jaune passe la phase II"),
        ("Yellow collects 1 Mana of income (Mana 3/5)", "Jaune encaisse 1 de mana en revenu (mana 3/5)"),
        ("Yellow ends the turn", "Jaune finit son tour"),
    ]


def test_a_stone_kept_on_entry_is_told_as_a_step_R25() -> None:
    """Option stone_donated_on_temple_entry off: the carrier keeps its stone, nothing is donated."""
    b = Board(stone_donated_on_temple_entry=False).clear_tribes().turn("y", mp=2).mana("y", 1, 4)
    state = b.tribes("ys@-1,1", "y@1,0").state()
    assert _told(state, "move ys@-1,1 0,0", None)[None] == [
        (
            "Yellow moves a tribe carrying stone from -1,1 onto the temple 0,0",
            "Jaune déplace une tribu portant une pierre de -1,1 sur le temple 0,0",
        )
    ]
    assert _told(state, "donate ys@0,0", None)[None] == [
        ("Yellow donates a stone at the temple (Mana 2/5)", "Jaune offre une pierre au temple (mana 2/5)")
    ]


def test_a_delivery_says_the_step_into_the_temple_M6_4() -> None:
    b = Board().clear_tribes().turn("r").mana("r", 7, 8)
    pub = b.offering("r", 4)
    state = b.tribes(f"ro{pub}@1,0", "r@1,0").state()
    assert _told(state, f"move ro{pub}@1,0 0,0", 0)[0] == [
        (
            "Red moves a tribe carrying an offering from 1,0 onto the temple 0,0 and delivers the offering "
            "worth 4 (Mana 3/8)",
            "Rouge déplace une tribu portant une offrande de 1,0 sur le temple 0,0 et livre l'offrande "
            "de valeur 4 (mana 3/8)",
        )
    ]


def test_a_failed_delivery_says_the_step_and_the_way_back_M6_5() -> None:
    b = Board().clear_tribes().turn("r").mana("r", 3, 8)
    pub = b.offering("r", 4)
    state = b.tribes(f"ro{pub}@1,0", "r@1,0").state()
    assert _told(state, f"move ro{pub}@1,0 0,0", 0)[0] == [
        (
            "Red moves a tribe carrying an offering from 1,0 onto the temple 0,0, but the delivery of the "
            "offering worth 4 fails with Mana 3: the tribe returns to 1,0",
            "Rouge déplace une tribu portant une offrande de 1,0 sur le temple 0,0, mais la livraison de "
            "l'offrande de valeur 4 échoue avec 3 de mana : la tribu retourne en 1,0",
        )
    ]


def test_teleport_names_the_tribe_in_lower_case_M15_7() -> None:
    """A tribe's colour is an adjective mid-sentence in both languages; a Teleport onto the
    temple tells where the tribe came from and what it gave."""
    state = (
        Board()
        .clear_tribes()
        .turn("r")
        .mana("r", 3, 5)
        .hand("r", "teleport")
        .tribes("rs@1,0", "r@1,0")
        .state()
    )
    assert _told(state, "play teleport rs@1,0", None)[None] == [
        (
            "Red plays Teleport on a red tribe carrying stone at 1,0",
            "Rouge joue Téléportation sur une tribu rouge portant une pierre en 1,0",
        )
    ]
    assert _told(state, "to 0,0", None)[None] == [
        (
            "Teleported from 1,0: Red donates a stone at the temple (Mana 4/6)",
            "Téléportée depuis 1,0 : Rouge offre une pierre au temple (mana 4/6)",
        )
    ]


def test_huts_are_named_by_colour_in_french_M6_2_M15_8() -> None:
    """English keeps the hut's notation (y2); French names its colour: « la hutte jaune 2 »."""
    b = Board().clear_tribes().turn("y").tile(2, 0, "plains").hut("y", 2, 2, 0, offering=4)
    state = b.tribes("y@2,0").state()
    assert _told(state, "offering y@2,0 y2", 1, None) == {
        1: [
            (
                "Yellow picks up the offering (worth 4) under hut y2 on 2,0",
                "Jaune prend l'offrande (valeur 4) sous la hutte jaune 2 en 2,0",
            )
        ],
        None: [
            (
                "Yellow picks up the offering under hut y2 on 2,0",
                "Jaune prend l'offrande sous la hutte jaune 2 en 2,0",
            )
        ],
    }
    b = Board().clear_tribes().turn("r").hand("r", "expulsion").tile(2, 0, "plains").tile(3, 0, "plains")
    state = b.hut("neutral", 1, 2, 0).tribes("r@1,0").state()
    assert _told(state, "play expulsion n1", None)[None] == [
        ("Red plays Expulsion on hut n1 on 2,0", "Rouge joue Expulsion sur la hutte neutre 1 en 2,0"),
        ("Red moves hut n1 to 3,0", "Rouge déplace la hutte neutre 1 en 3,0"),  # the only plains left
    ]


def test_income_after_a_holy_stone_unknown_to_the_views_gives_the_mana_reached_M15_4() -> None:
    """With a tribe on the temple, the option temple_gives_mana (which no view carries) may add
    to the income, and so may the Holy Stone's own option to the Mana before it: the amount
    cannot be told, so the sentence gives the Mana reached only, and the card its Mana after
    the whole step."""
    state = _mana_phase("b", "holy_stone").tribes("b@0,0").state()
    assert _told(state, "play holy_stone", None)[None][:2] == [
        ("Blue plays Holy Stone (Mana 4/6)", "Bleu joue Pierre sacrée (mana 4/6)"),
        ("Blue collects income (Mana 4/6)", "Bleu encaisse son revenu (mana 4/6)"),
    ]
