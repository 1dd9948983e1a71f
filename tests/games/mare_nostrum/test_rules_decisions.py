"""The decisions of spec section 8 that other tests do not already check: each is offered to the
named player with every choice the rules allow, and the engine never makes it for him."""

from __future__ import annotations

from nostrum_helpers import (
    CARTHAGE,
    GREECE,
    ROME,
    buy_turn,
    load,
    mil_turn,
    new,
    pos,
    refuse,
    steps,
)

from ziggurat.engine.eventlog import events_since, log_mark
from ziggurat.games.mare_nostrum import describe as DS


def test_trade_leader_chooses_an_available_token_and_face_D5() -> None:
    """D5 / N2.1: Carthage, the Trade leader, chooses; with token B used, only A and C remain."""
    s = new()
    assert s.current_player() == CARTHAGE and len(s.legal_actions()) == 6
    p = pos(s)
    p["tokens_used"] = [False, True, False]
    s = load(s, p)
    assert list(s.legal_actions()) == ["token a 0", "token a 5", "token c 2", "token c 3"]
    refuse(s, "token b 4", "N2.1")
    s.apply("token a 5")
    assert s.d["trade"]["v"] == 5 and s.d["tokens_used"] == [True, True, False]


def test_the_chooser_picks_whose_offer_and_which_token_D9() -> None:
    """D9 / N2.5: Carthage, the starter, may take any distinct token of Rome's or Greece's
    offer, and takes what he picked."""
    s = new()
    steps(s, "token c 2", "offer metal", "offer wine", "offer oil", "offer tax", "offer sheep", "offer gold")
    assert s.current_player() == CARTHAGE
    assert list(s.legal_actions()) == [
        "take metal from 0",
        "take wine from 0",
        "take oil from 1",
        "take tax from 1",
    ]
    s.apply("take oil from 1")
    assert s.d["trade"]["received"][CARTHAGE] == ["oil"] and s.current_player() == GREECE


def test_the_starter_chooses_the_token_he_gives_D10() -> None:
    """D10 / N2.9: every kind of token Carthage holds is offered, and the one chosen is given."""
    s = new()
    steps(s, "token b 1", "offer metal", "offer marble", "offer sheep")
    steps(s, "take metal from 0", "take sheep from 2", "take marble from 1")
    assert s.d["stage"] == "trade_give" and s.current_player() == CARTHAGE
    held = sorted(s.d["res"][CARTHAGE])
    assert list(s.legal_actions()) == [f"give {tok}" for tok in held]
    s.apply("give gold")
    assert "gold" not in s.d["res"][CARTHAGE] and s.d["res"][GREECE]["gold"] == 1


def test_each_purchase_names_item_place_and_tokens_D13() -> None:
    """D13 / N3.2-N3.12: Greece picks among the purchases and places its rules allow, or ends;
    then picks each token of the payment among those that can still complete it."""
    s = buy_turn(new(), GREECE)
    legal = set(s.legal_actions())
    assert {"end", "buy marker dacia", "buy legion achea", "buy trireme mare_hadriaticum"} <= legal
    assert {"buy fortress thracia", "buy marker creta"} <= legal
    assert not [a for a in legal if a.startswith(("build market", "build temple", "buy tile"))]  # 6+
    s.apply("buy legion achea")
    assert list(s.legal_actions()) == ["pay grain", "pay marble", "pay oil", "pay tax", "pay wine"]
    s.apply("pay marble")
    assert list(s.legal_actions()) == ["pay grain", "pay oil", "pay wine"]  # no tax after a good
    steps(s, "pay wine", "pay oil")
    assert s.d["last_payment"]["paid"] == ["marble", "oil", "wine"]


def test_each_trireme_moves_or_stays_D18() -> None:
    """D18 / N4.4: Rome's trireme may row to either sea next to Mare Tyrrhenum, or stay."""
    s = mil_turn(new(), ROME, "mil_row")
    assert list(s.legal_actions()) == [
        "done",
        "row mare_tyrrhenum mare_ionium",
        "row mare_tyrrhenum mare_sardum",
    ]
    s.apply("done")
    assert s.d["triremes"]["mare_tyrrhenum"] == [1, 0, 0]


def test_a_sea_battle_or_none_D19() -> None:
    """D19 / N4.5: Rome may fight Carthage in Mare Sardum or not; declining changes nothing."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [1, 0, 1]
    s = mil_turn(load(s, p), ROME, "mil_sea")
    assert list(s.legal_actions()) == ["done", "seabattle mare_sardum 2"]
    s.apply("done")
    assert s.d["triremes"]["mare_sardum"] == [1, 0, 1] and s.d["stage"] == "mil_march"


def test_each_legion_chooses_destination_and_way_or_stays_D20() -> None:
    """D20 / N4.6: Rome's legions in Latium may step to Gallia or Italia, or sail by Mare
    Tyrrhenum to Gallia, Italia or Sicilia; the same destination by either way."""
    s = mil_turn(new(), ROME, "mil_march")
    assert list(s.legal_actions()) == [
        "done",
        "march latium gallia",
        "march latium italia",
        "sail latium gallia",
        "sail latium italia",
        "sail latium sicilia",
    ]
    s.apply("sail latium sicilia")
    s.apply("done")
    assert s.d["legions"]["latium"] == [1, 0, 0] and s.d["legions"]["sicilia"] == [1, 0, 0]


def test_the_attacker_orders_his_battles_D21() -> None:
    """D21 / N4.8: Rome fights in Numidia and in Dacia, in the order it chooses."""
    s = new()
    p = pos(s)
    p["legions"].update(numidia=[1, 0, 1], dacia=[1, 1, 0])
    s = mil_turn(load(s, p), ROME, "mil_fight")
    assert list(s.legal_actions()) == ["fight dacia 1", "fight numidia 2"]
    steps(s, "fight numidia 2", "roll 1,1", "roll 1")
    assert s.d["last_battle"]["where"] == "numidia"
    assert s.d["battle"]["where"] == "dacia"  # the one left follows


PENDING = (
    ": the conversion is pending until a later Military phase",
    " : la conversion reste en attente jusqu'à une phase militaire ultérieure",
)
"""How a chosen Convert ends its sentence (N4.11.4: it completes in a later Military phase, N4.3)."""


def test_the_conqueror_chooses_pillage_occupy_or_convert_D23() -> None:
    """D23 / N4.11: Rome, conqueror of Thracia with two legions, sees every option: pillage of
    each building, occupation of any set it has legions for, or Convert."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march dacia thracia", "march dacia thracia", "done")
    assert s.current_player() == ROME
    assert list(s.legal_actions()) == [
        "pillage caravan:marble",
        "pillage city",
        "occupy caravan:marble",
        "occupy city",
        "occupy caravan:marble+city",
        "convert",
    ]
    s.apply("occupy city")
    assert s.d["occupy"] == {"thracia": {"city": ROME}}


def test_the_log_names_the_province_of_a_conquest_option_N4_11() -> None:
    """Pillage, Occupy and Convert are chosen for the conquest being settled, which their texts
    imply (``convert``, ``pillage city``); every viewer's log names the province."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march dacia thracia", "march dacia thracia", "done")
    assert s.d["queue"][0] == ["conquest", ROME, "thracia"]
    said = {
        "convert": (
            "Rome chooses to convert Thracia: the conversion is pending until a later Military phase",
            "Rome choisit de convertir Thracia : la conversion reste en attente jusqu'à une phase militaire "
            "ultérieure",
        ),
        "pillage city": ("Rome pillages the city in Thracia", "Rome pille la cité en Thracia"),
        "occupy caravan:marble+city": (
            "Rome occupies the marble caravan and the city in Thracia",
            "Rome occupe la caravane de marbre et la cité en Thracia",
        ),
    }
    for action, (en, fr) in said.items():
        for viewer in (None, ROME, GREECE):
            before = s.view(viewer)
            after = s.clone()
            mark = log_mark(after)
            after.apply(action)
            told = DS.describe_step(events_since(after, mark), before, after.view(viewer))
            assert (str(told[0][0]), told[0][0].render("fr")) == (en, fr)
    # told alone, with no view of the conquest, the sentences still read
    alone = DS.describe_event((ROME, "convert", False, ROME), {"empires": ["rome", "greece", "carthage"]}, {})
    assert str(alone).endswith(f"chooses to convert the conquered province{PENDING[0]}")


def test_conquest_options_played_later_in_a_step_name_their_provinces_N4_10_2_N4_11() -> None:
    """Convert as a conqueror's only option is played by the engine in the step that made the
    conquest (here two at once: Thracia and Macedonia, neither with a building); every
    viewer's log still names each province, in the order the checkpoint queued them
    (N4.10.2: by province)."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    p["legions"]["macedonia"] = [1, 0, 0]
    p["buildings"].pop("thracia")
    p["buildings"].pop("macedonia")
    s = mil_turn(load(s, p), ROME, "mil_march")
    steps(s, "march dacia thracia")
    for viewer in (None, ROME, GREECE):
        before = s.view(viewer)
        after = s.clone()
        mark = log_mark(after)
        after.apply("done")
        events = events_since(after, mark)
        assert [e.text for e in events] == ["done", "convert", "convert"]
        told = DS.describe_step(events, before, after.view(viewer))
        assert [(str(m), m.render("fr")) for m, _ in told[1:3]] == [
            (f"Rome chooses to convert {p}{PENDING[0]}", f"Rome choisit de convertir {p}{PENDING[1]}")
            for p in ("Macedonia", "Thracia")
        ]
    assert after.d["pending"]["macedonia"][0] == ROME and after.d["pending"]["thracia"][0] == ROME


def test_a_conquest_option_the_views_cannot_place_names_no_province_N4_11() -> None:
    """Two conquests wait and two options are played, but the second conquest still waits
    after them (as under a variant allowing two options per conquest): the second option may
    be the first conquest's, so its sentence names no province rather than a wrong one."""
    empires = ["rome", "greece", "carthage"]
    before = {"empires": empires, "queue": [["conquest", ROME, "africa"], ["conquest", ROME, "numidia"]]}
    after = {"empires": empires, "queue": [["conquest", ROME, "numidia"]]}
    events = [(ROME, "pillage city", False, ROME), (ROME, "convert", True, ROME)]
    told = [str(m) for m, _ in DS.describe_step(events, before, after)]  # type: ignore[arg-type]
    assert told == [
        "Rome pillages the city in Africa",
        f"Rome chooses to convert the conquered province{PENDING[0]}",
    ]
