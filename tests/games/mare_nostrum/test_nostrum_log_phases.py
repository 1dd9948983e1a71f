"""Mare Nostrum: Empires log through whole steps (rules spec section 7 for what each viewer
reads): the titles the Claim phase moves by itself (N5.1) and the Production that follows
(N1), a battle's result right after its roll (N4.7), a chosen Convert against a completed
conversion (N4.11.4, N4.3), the step a ``done`` ends after a conquest option (N4.2) and the
receiver of the imbalance token (N2.9); each for several viewers, in English and French."""

from __future__ import annotations

from typing import Any

from nostrum_helpers import CARTHAGE, GREECE, ROME, load, mil_turn, new, pos, steps

from ziggurat.games.mare_nostrum import describe as DS

VIEWERS = (None, ROME, GREECE, CARTHAGE)


def _told(state: Any, action: str, viewer: int | None) -> tuple[list[tuple[str, str]], Any]:
    """The sentences ``viewer`` reads for ``action`` played on a copy of ``state`` (English,
    French), and that copy."""
    before = state.view(viewer)
    after = state.clone()
    mark = DS.log_mark(after)
    after.apply(action)
    told = DS.describe_step(DS.events_since(after, mark), before, after.view(viewer))
    return [(str(m), m.render("fr")) for m, _ in told], after  # type: ignore[attr-defined]


def _last_turn_of_round_1(buildings: dict[str, list[str]] | None = None) -> Any:
    """Rome's Military turn at its Legion movement step, the other seats done: its ``done``
    ends the phase, and the Claim phase and round 2 follow in the same step. Rome leads Trade
    (a market in Italia: 8 against Carthage's 7) and Military (a legion in Gallia: 4 against
    3); Greece leads Culture (4) unless ``buildings`` change that; the titles start with the
    wrong holders."""
    s = new()
    p = pos(s)
    p["buildings"]["italia"] = sorted([*p["buildings"]["italia"], "market"])
    p["buildings"].update(buildings or {})
    p["legions"]["gallia"] = [1, 0, 0]
    p["titles"] = {"trade": CARTHAGE, "culture": ROME, "military": GREECE}
    return mil_turn(load(s, p), ROME, "mil_march", done=[GREECE, CARTHAGE])


def test_titles_moved_by_the_claim_phase_are_told_before_the_new_round_N5_1() -> None:
    """N5.1: each title goes to the highest level with no decision (no tie), so the engine moves
    it by itself; every viewer reads who took which title from whom, after the step's own
    events and before the new round (titles are public, 7.6)."""
    s = _last_turn_of_round_1()
    for viewer in VIEWERS:
        told, after = _told(s, "done", viewer)
        assert after.d["round"] == 2 and after.d["titles"] == {
            "trade": ROME,
            "culture": GREECE,
            "military": ROME,
        }
        assert told[:5] == [
            ("Rome is done with the Legion movement step", "Rome a fini l'étape du déplacement des légions"),
            (
                "Rome takes the trade title from Carthage",
                "Rome devient chef du commerce à la place de Carthage",
            ),
            (
                "Greece takes the culture title from Rome",
                "La Grèce devient chef de la culture à la place de Rome",
            ),
            (
                "Rome takes the military title from Greece",
                "Rome devient chef militaire à la place de la Grèce",
            ),
            ("Round 2 begins", "Début du tour 2"),
        ]


def test_production_is_told_by_type_to_the_producer_and_as_a_count_to_others_N1_7_1() -> None:
    """N1 after the new round: one sentence a seat. Its own tokens by type to the producer
    (its screen shows them), a count to everyone else (all a view shows of another screen,
    7.1), each the change the viewer's view shows."""
    s = _last_turn_of_round_1()
    rome = "Rome produces 11 tokens: grain, metal ×4, oil ×2, sheep, wine ×2, tax"
    rome_fr = "Rome produit 11 jetons : céréales, métal ×4, huile ×2, mouton, vin ×2, impôt"
    greece = "Greece produces 9 tokens: grain, marble, oil, wine, tax ×5"
    counted = {
        ROME: ("Rome produces 11 tokens", "Rome produit 11 jetons"),
        GREECE: ("Greece produces 9 tokens", "La Grèce produit 9 jetons"),
        CARTHAGE: ("Carthage produces 9 tokens", "Carthage produit 9 jetons"),
    }
    for viewer in VIEWERS:
        before = s.view(viewer)
        told, after = _told(s, "done", viewer)
        produced = told[5:]
        assert len(produced) == 3
        for seat, (en, fr) in zip((ROME, GREECE, CARTHAGE), produced, strict=True):
            gained = after.view(viewer)["res_counts"][seat] - before["res_counts"][seat]
            assert en.startswith(f"{counted[seat][0].split(' produces ')[0]} produces {gained} tokens")
            if seat != viewer:
                assert (en, fr) == counted[seat]  # a count only: no good of another screen
        if viewer == ROME:
            assert produced[0] == (rome, rome_fr)
            now, was = after.view(ROME)["res"][ROME], before["res"][ROME]
            gained_by_type = {tok: k - was.get(tok, 0) for tok, k in now.items() if k != was.get(tok, 0)}
            assert gained_by_type == {"grain": 1, "metal": 4, "oil": 2, "sheep": 1, "wine": 2, "tax": 1}
        if viewer == GREECE:
            assert produced[1][0] == greece
    # round 1 has no Production (S9): the round that starts the game tells none
    assert not any("produces" in line for line in _round_1_told())


def _round_1_told() -> list[str]:
    from ziggurat.games.mare_nostrum import MareNostrumGame

    s = MareNostrumGame(3, {}).new_initial_state()
    out: list[str] = []
    for action in ("empires rome,greece,carthage", "reveal hercules", "reveal antigone", "reveal spartacus",
                   "reveal colossus", "reveal lighthouse"):  # fmt: skip
        before = s.view(ROME)
        mark = DS.log_mark(s)
        s.apply(action)
        out += [str(m) for m, _ in DS.describe_step(DS.events_since(s, mark), before, s.view(ROME))]
    assert "Round 1 begins" in out
    return out


def test_the_titles_are_told_before_the_end_of_the_game_they_decide_N6_4() -> None:
    """N5.4 / N6.4: Rome takes the three titles and wins: the titles come first, then the end
    of the game (no new round)."""
    s = _last_turn_of_round_1(
        {
            "latium": ["capital", "caravan:metal", "caravan:wine", "market", "temple"],  # Culture 2
            "achea": ["capital", "caravan:oil"],  # Greece: Culture 1
            "thracia": ["caravan:marble"],
        }
    )
    for viewer in (None, ROME, CARTHAGE):
        told, after = _told(s, "done", viewer)
        assert after.is_terminal() and after.d["winner"] == ROME
        assert told[1:] == [
            (
                "Rome takes the trade title from Carthage",
                "Rome devient chef du commerce à la place de Carthage",
            ),
            (
                "Rome takes the military title from Greece",
                "Rome devient chef militaire à la place de la Grèce",
            ),
            ("Game over: Rome wins", "Fin de la partie : Rome gagne"),
        ]


def test_a_tie_settled_by_the_holder_says_who_keeps_or_takes_the_title_N5_2() -> None:
    """N5.2: the previous holder settles a tie; its sentence says whether it kept the title
    or gave it to whom, from the holder before the step."""
    view = {"empires": ["rome", "greece", "carthage"], "viewer": None}
    before = {**view, "titles": {"trade": CARTHAGE, "culture": GREECE, "military": ROME}}
    kept = DS.describe_event((CARTHAGE, f"title trade {CARTHAGE}", False, CARTHAGE), before, before)
    given = DS.describe_event((CARTHAGE, f"title trade {ROME}", False, CARTHAGE), before, before)
    assert (str(kept), kept.render("fr")) == (
        "Carthage keeps the trade title",
        "Carthage reste chef du commerce",
    )
    assert (str(given), given.render("fr")) == (
        "Rome takes the trade title from Carthage",
        "Rome devient chef du commerce à la place de Carthage",
    )
    # a tie settled in the step is told once: by its event, not again from the views
    after = {**view, "titles": {"trade": ROME, "culture": GREECE, "military": ROME}}
    told = DS.describe_step([(CARTHAGE, f"title trade {ROME}", False, CARTHAGE)], before, after)
    assert [str(m) for m, _ in told] == ["Rome takes the trade title from Carthage"]


def _sea_battle_then_creta() -> Any:
    """Rome's 2 triremes attack Carthage's 1 in Mare Sardum (W8); Rome's only legions are in
    Creta (an island out of reach of its triremes) with a Carthaginian one, so once the sea
    battle is over the engine ends the Sea battle and Legion movement steps and starts the
    land battle in Creta by itself (N4.5, N4.6, N4.8)."""
    s = new()
    p = pos(s)
    p["triremes"]["mare_sardum"] = [2, 0, 1]
    p["legions"] = {"creta": [2, 0, 1], "achea": [0, 1, 0], "africa": [0, 0, 1]}
    s = mil_turn(load(s, p), ROME, "mil_sea")
    steps(s, "seabattle mare_sardum 2", "roll 1,2")
    return s


def test_a_battle_result_comes_right_after_its_roll_N4_7() -> None:
    """The roll that settles a battle is told as the battle's result (both sides' dice,
    totals and hits), before the steps the engine ends next and the next battle it starts; the
    land battle's result then follows its own roll."""
    s = _sea_battle_then_creta()
    for viewer in VIEWERS:
        told, after = _told(s, "roll 4", viewer)
        assert [e.text for e in after.events()[-4:]] == ["roll 4", "done", "done", "fight creta 2"]
        assert told == [
            (
                "Result in Mare Sardum: Rome 1, 2 = 3, Carthage 4; hits taken: Rome 0, Carthage 0",
                "Résultat de la bataille sur Mare Sardum : Rome 1, 2 = 3 contre Carthage 4 ; "
                "touches subies : Rome 0, Carthage 0",
            ),
            ("Rome is done with the Sea battle step", "Rome a fini l'étape des batailles navales"),
            ("Rome is done with the Legion movement step", "Rome a fini l'étape du déplacement des légions"),
            ("Rome attacks Carthage in Creta", "Rome attaque Carthage en Creta"),
        ]
    s.apply("roll 4")
    s.apply("roll 1,5,6")  # Rome's two legions and Caesar's die (N4.7.2)
    told, _ = _told(s, "roll 1", None)
    assert told[0][0] == (
        "Result in Creta: Rome 1, 5, 6 = 12, Carthage 1; hits taken: Rome 0, Carthage 2; "
        "legions lost: Rome 0, Carthage 1"
    )


def test_a_roll_of_a_later_battle_in_the_step_stays_a_roll_N4_7() -> None:
    """When a step settles one battle and rolls for the next (dice that can show one face
    only are rolled by the engine), only the settling roll becomes the result."""
    view = {"empires": ["rome", "greece", "carthage"], "viewer": None}
    sea = {"kind": "sea", "where": "mare_sardum", "att": ROME, "def": CARTHAGE, "att_faces": [1, 2],
           "def_faces": [4], "totals": [3, 4], "hits": [0, 0]}  # fmt: skip
    events = [
        (-1, "roll 4", False, CARTHAGE),
        (ROME, "fight creta 2", True, ROME),
        (-1, "roll 3,3", True, ROME),
    ]
    told = [str(m) for m, _ in DS.describe_step(events, view, {**view, "last_battle": sea})]
    assert told == [
        "Result in Mare Sardum: Rome 1, 2 = 3, Carthage 4; hits taken: Rome 0, Carthage 0",
        "Rome attacks Carthage in Creta",
        "Rome rolls 3, 3 (total 6)",
    ]


def _rome_conquers_thracia(done: list[int] | None = None, **changes: Any) -> Any:
    """Rome marches two legions from Dacia into Thracia, Greek and unguarded: at the conquest
    checkpoint it becomes its conqueror and chooses an option (N4.10.2, N4.11)."""
    s = new()
    p = pos(s)
    p["legions"]["dacia"] = [2, 0, 0]
    p.update(changes)
    s = mil_turn(load(s, p), ROME, "mil_march", done=done)
    steps(s, "march dacia thracia", "march dacia thracia", "done")
    assert s.d["queue"][0] == ["conquest", ROME, "thracia"]
    return s


def test_choosing_convert_and_completing_a_conversion_read_differently_N4_11_4_N4_3() -> None:
    """N4.11.4: Convert leaves the conversion pending (the province stays Greek); N4.3: it
    completes in the Conversion step of a later Military phase, when the province changes
    hands; with the Queen of Sheba it completes at once (N4.12)."""
    s = _rome_conquers_thracia()
    for viewer in VIEWERS:
        told, after = _told(s, "convert", viewer)
        assert after.d["markers"]["thracia"] == GREECE and after.d["pending"]["thracia"][0] == ROME
        assert told[0] == (
            "Rome chooses to convert Thracia: the conversion is pending until a later Military phase",
            "Rome choisit de convertir Thracia : la conversion reste en attente jusqu'à une phase militaire "
            "ultérieure",
        )
    # a later Military phase: the conversion completes (N4.3 conditions hold: Dacia is Roman)
    s = new()
    p = pos(s)
    p["round"] = 2
    p["legions"]["thracia"] = [1, 0, 0]
    p["markers"]["dacia"] = ROME
    p.update(on_marker={"thracia": ROME}, conqueror={"thracia": ROME}, pending={"thracia": [ROME, 1]})
    s = mil_turn(load(s, p), ROME, "mil_conv")
    for viewer in VIEWERS:
        told, after = _told(s, "convert thracia", viewer)
        assert after.d["markers"]["thracia"] == ROME
        assert told[0] == ("Rome completes the conversion of Thracia", "Rome achève de convertir Thracia")
    # the Queen of Sheba: replaced at once, Dacia being Roman (connected, N0.6)
    s = new()
    p = pos(s)
    sheba = _rome_conquers_thracia(
        markers={**p["markers"], "dacia": ROME},
        tiles=[[*p["tiles"][ROME], "queen_of_sheba"], *p["tiles"][1:]],
    )
    for viewer in VIEWERS:
        told, after = _told(sheba, "convert", viewer)
        assert after.d["markers"]["thracia"] == ROME
        assert told[0] == (
            "Rome converts Thracia at once (Queen of Sheba)",
            "Rome convertit Thracia immédiatement (Reine de Saba)",
        )


def test_a_turn_begun_by_the_engine_after_a_conquest_names_its_conversion_step_N4_2() -> None:
    """Rome pillages Thracia at the end of its turn; with no Circe it has nothing left, and
    Carthage, the only seat left to move, is named without a word (N4.2); Carthage has nothing
    to convert, so the engine ends its Conversion step too: that ``done`` is Carthage's
    Conversion step, not a Circe step."""
    s = _rome_conquers_thracia(done=[GREECE])
    for viewer in VIEWERS:
        told, after = _told(s, "pillage city", viewer)
        assert [(e.actor, e.text) for e in after.events()[-2:]] == [
            (ROME, "pillage city"),
            (CARTHAGE, "done"),
        ]
        assert after.d["stage"] == "mil_row" and after.d["mil"]["active"] == CARTHAGE
        assert told == [
            ("Rome pillages the city in Thracia", "Rome pille la cité en Thracia"),
            ("Carthage is done with the Conversion step", "Carthage a fini l'étape des conversions"),
        ]
    # told from views alone: a done by another seat than the active one starts that seat's turn
    view = {"empires": ["rome", "greece", "carthage"], "n": 3, "viewer": None}
    before = {**view, "stage": "mil_circe", "mil": {"active": ROME}}
    events = [
        (ROME, "convert", False, ROME),
        (CARTHAGE, "done", True, CARTHAGE),
        (CARTHAGE, "done", True, CARTHAGE),
    ]
    told_alone = [str(m) for m, _ in DS.describe_step(events, before, before)][1:]
    assert told_alone == [
        "Carthage is done with the Conversion step",
        "Carthage is done with the Trireme movement step",
    ]


def test_the_imbalance_token_names_its_receiver_N2_9() -> None:
    """N2.9: the starter gives one token to the final chooser; every viewer reads to whom."""
    s = new()
    steps(s, "token b 1", "offer metal", "offer marble", "offer sheep")
    steps(s, "take metal from 0", "take sheep from 2", "take marble from 1")
    assert s.d["stage"] == "trade_give" and s.d["trade"]["chooser"] == GREECE
    for viewer in VIEWERS:
        told, _ = _told(s, "give gold", viewer)
        assert told[0] == ("Carthage gives gold to Greece", "Carthage donne un jeton d'or à la Grèce")
    # the final chooser followed through the step's takes (the seat taken from chooses next, N2.5)
    view = {"empires": ["rome", "greece", "carthage"], "viewer": None}
    before = {**view, "trade": {"chooser": GREECE}}
    events = [(GREECE, "take tax from 0", False, GREECE), (CARTHAGE, "give wine", True, CARTHAGE)]
    told_alone = [str(m) for m, _ in DS.describe_step(events, before, view)]
    assert told_alone == ["Greece takes tax from Rome", "Carthage gives wine to Rome"]


def _legendary_city_and_temple(pool: dict[str, int], owner: int = ROME, judea: int | None = None) -> Any:
    """Rome's last Military turn of round 1 (as above) with Syracusae and the temple of
    Sicilia ``owner``'s (Ierusalem, without a temple, ``judea``'s when given) and ``pool``
    left in the legendary pool."""
    s = new()
    p = pos(s)
    p["buildings"]["italia"] = sorted([*p["buildings"]["italia"], "market"])
    p["buildings"]["sicilia"] = ["legendary_city:syracusae", "temple"]
    p["markers"]["sicilia"] = owner
    if judea is not None:
        p["buildings"]["judea"] = ["legendary_city:ierusalem"]
        p["markers"]["judea"] = judea
    p["pool"] = {g: pool.get(g, 0) for g in p["pool"]}
    p["legions"]["gallia"] = [1, 0, 0]
    p["titles"] = {"trade": CARTHAGE, "culture": ROME, "military": GREECE}
    return mil_turn(load(s, p), ROME, "mil_march", done=[GREECE, CARTHAGE])


def test_production_with_an_empty_pool_counts_the_temples_extra_tax_N1_6_N1_7() -> None:
    """N1.6, N1.7: with the legendary pool empty, Syracusae with its temple gives Rome its tax,
    no draw, and the temple's extra as a tax at once (no decision): Rome's Production line
    says all it got, by type to Rome and as a count to the others."""
    s = _legendary_city_and_temple({})
    for viewer in VIEWERS:
        before = s.view(viewer)
        told, after = _told(s, "done", viewer)
        assert after.d["queue"] == [] and after.d["stage"] == "trade_token"
        gained = after.view(viewer)["res_counts"][ROME] - before["res_counts"][ROME]
        assert gained == 13  # 11 as above, Syracusae's tax and the temple's extra tax
        rome = next(line for line in told if line[0].startswith("Rome produces"))
        if viewer == ROME:
            assert rome == (
                "Rome produces 13 tokens: grain, metal ×4, oil ×2, sheep, wine ×2, tax ×3",
                "Rome produit 13 jetons : céréales, métal ×4, huile ×2, mouton, vin ×2, impôt ×3",
            )
        else:
            assert rome == ("Rome produces 13 tokens", "Rome produit 13 jetons")


def test_the_temples_extra_taken_as_a_tax_when_a_draw_empties_the_pool_is_told_N1_7() -> None:
    """N1.7: two tokens left for Rome's Ierusalem and Greece's Syracusae: Rome draws one,
    Greece gets the last (no choice left), and the extra of Syracusae's temple that follows
    is a tax given at once; the step of Rome's draw says so after the draws, to every viewer."""
    s = _legendary_city_and_temple({"grain": 1, "oil": 1}, owner=GREECE, judea=ROME)
    _, s = _told(s, "done", ROME)
    assert s.d["queue"] == [["draw", ROME], ["draw", GREECE], ["lc", GREECE]]
    for viewer in VIEWERS:
        before = s.view(viewer)
        told, after = _told(s, "draw grain", viewer)
        assert after.d["queue"] == [] and after.d["pool"]["oil"] == 0
        assert after.view(viewer)["res_counts"][GREECE] == before["res_counts"][GREECE] + 2
        assert told[-1] == (
            "Greece takes an extra tax: the legendary pool is empty (N1.7)",
            "La Grèce prend un impôt supplémentaire : la réserve de biens légendaires est vide (N1.7)",
        )
