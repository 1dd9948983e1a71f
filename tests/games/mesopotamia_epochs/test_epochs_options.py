"""Options (rules configuration §9.3) and replacement data files (§3.6, §9.1, §9.2).

Each option's effect is tested next to the rule it changes (placement, combat, rounds ...);
:func:`test_every_option_has_an_effect_test` makes sure none is forgotten.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from epochs_helpers import ANN, BEN, Board, load, play

import ziggurat
from ziggurat.games.mesopotamia_epochs.data import MAP_DATA, OPTION_DEFAULTS, PEOPLES_DATA, RULES_DATA

HERE = Path(__file__).parent
SPEC = RULES_DATA["options"]
FORMULAS = ("growth_standard", "growth_fast", "growth_slow")
SINGLE_VALUED = [
    k
    for k, v in SPEC.items()
    if isinstance(v["value"], str) and k not in FORMULAS and not v.get("alternatives")
]


def test_every_option_has_an_effect_test() -> None:
    texts = "\n".join(p.read_text() for p in HERE.glob("test_epochs_*.py"))
    missing = [key for key in OPTION_DEFAULTS if f"{key}=" not in texts and key not in SINGLE_VALUED]
    assert missing == []


def test_defaults_are_the_rules_file_section9_3() -> None:
    game = load(3)
    assert game.options == {}  # only non-default options are recorded
    for key, entry in SPEC.items():
        if key in ("players_min", "players_max"):
            continue
        assert game.opts[key] == entry["value"], key
    assert (game.min_players, game.max_players) == (
        SPEC["players_min"]["value"],
        SPEC["players_max"]["value"],
    )
    assert ziggurat.record(game.new_initial_state())["options"] == {}
    assert load(3, stack_limit=4).options == {"stack_limit": 4}


def test_unknown_option_raises_value_error_naming_it() -> None:
    with pytest.raises(ValueError, match="dice_sides"):
        load(3, dice_sides=8)
    with pytest.raises(ValueError, match="players_max"):
        load(3, players_max=6)  # the player range is the game's, not a per-game option


@pytest.mark.parametrize("players", [1, 6, "3"])
def test_bad_player_count(players) -> None:
    with pytest.raises(ValueError, match="players"):
        ziggurat.load("mesopotamia-epochs", players=players)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("die_sides", 1),
        ("die_sides", "6"),
        ("stack_limit", 0),
        ("military_bonus", -1),
        ("military_bonus", True),
        ("growth_standard", "n**2"),
        ("growth_standard", "floor((n+1)/3"),
        ("growth_fast", "n/2"),  # not a whole number for odd n
        ("growth_fast", "sqrt(n)"),
        ("growth_slow", -1),
        ("growth_slow", 1.5),
        ("new_people_growth", 1),
        ("card_reveal", "never"),
        ("set_aside_reveal", "after_allocation"),
        ("rescheduled_without_tribes", "ignore"),
        ("end_tiebreak", ["coin_flip"]),
        ("end_tiebreak", ["shared", "most_areas_held"]),
        ("end_tiebreak", "shared"),
        ("map", "some-other-map"),
        ("peoples", ["sumerians"]),
    ],
)
def test_invalid_option_values_name_the_option(key: str, value) -> None:
    with pytest.raises(ValueError, match=key):
        load(3, **{key: value})


@pytest.mark.parametrize("key", SINGLE_VALUED)
def test_single_valued_options_accept_their_value_only(key: str) -> None:
    """Options the spec gives one value (e.g. attack_route=most_favourable) are validated."""
    assert load(3, **{key: SPEC[key]["value"]}).options == {}
    with pytest.raises(ValueError, match=key):
        load(3, **{key: "something_else"})


def test_growth_fast_formula_option_E6_4() -> None:
    b = Board(2, epoch=3, growth_fast="n").deal(ANN, "sumerians", "amorites").deal(BEN, "elamites")
    b.tribes("uruk", "sumerians", 1)
    for a in ("akkad", "mari", "ashur"):
        b.tribes(a, "amorites", 1)
    s = b.round("sumerians", 1).state()
    s.apply("stop")
    rnd = s.to_position()["round"]
    assert (rnd["people"], rnd["pool"]) == ("amorites", 3)  # growth n = 3 instead of ceil(3/2)


def test_options_survive_a_record_and_replay() -> None:
    game = load(3, card_reveal="after_allocation", stack_limit=2)
    s = game.new_initial_state()
    play(s, "deal brooch guti", "deal head sumerians", "deal mask elamites")
    rec = json.loads(json.dumps(ziggurat.record(s)))
    assert rec["options"] == {"card_reveal": "after_allocation", "stack_limit": 2}
    assert ziggurat.replay(rec).fingerprint() == s.fingerprint()


# --- replacement map (§3.6) -------------------------------------------------------------------


def _map(edit) -> dict:
    data = copy.deepcopy(MAP_DATA)
    edit(data)
    return data


def _area(data: dict, area: str) -> dict:
    return next(a for a in data["areas"] if a["id"] == area)


def test_default_map_facts_section3_5() -> None:
    m = load(3).rules.map
    assert m.size == 39
    kinds = [m.kinds[a] for a in range(m.size)]
    assert (
        kinds.count("land"),
        kinds.count("island"),
        kinds.count("desert"),
        kinds.count("sea"),
        kinds.count("uninhabited"),
    ) == (28, 4, 2, 1, 4)
    assert sorted(m.ids[a] for a in m.bits(m.coastal_mask)) == sorted(
        ["ugarit", "byblos", "canaan", "sinai", "avaris", "memphis", "kizzuwatna", "arzawa", "lukka",
         "ahhiyawa", "thrace", "knossos", "khania", "alishiya", "islands"]
    )  # fmt: skip
    assert sorted(m.ids[a] for a in m.bits(m.double_mask)) == sorted(
        ["knossos", "kanesh", "ugarit", "byblos", "subartu", "memphis", "thebes", "babylon", "ur"]
    )
    assert len(m.difficult) == 17
    # land and desert areas form one connected graph through land borders
    land = {a for a in range(m.size) if m.kinds[a] in ("land", "desert")}
    seen, todo = set(), [m.index["ur"]]
    while todo:
        a = todo.pop()
        if a in seen:
            continue
        seen.add(a)
        todo.extend(b for b in m.land_adj[a] if b in land)
    assert seen == land
    assert m.land_adj[m.index["alishiya"]] == () and m.land_adj[m.index["islands"]] == ()
    assert [m.ids[b] for b in m.land_adj[m.index["knossos"]]] == ["khania"]


@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        (lambda d: d["areas"].append(copy.deepcopy(d["areas"][0])), "§3.6 1"),
        (lambda d: _area(d, "ur")["neighbours"].append("atlantis"), "§3.6 1"),
        (lambda d: _area(d, "ur")["neighbours"].remove("kaldu"), "§3.6 2"),
        (lambda d: _area(d, "uruk").update(coastal=True), "§3.6 3"),
        (lambda d: _area(d, "thebes").update(coastal=True), "§3.6 3"),
        (
            lambda d: d["difficult_borders"].append({"attacker_area": "ur", "defender_area": "babylon"}),
            "§3.6 4",
        ),
        (
            lambda d: d["difficult_borders"].append(
                {"attacker_area": "great_green", "defender_area": "thrace"}
            ),
            "§3.6 4",
        ),
        (lambda d: _area(d, "ur").update(double_value="yes"), "double_value"),
        (lambda d: _area(d, "ur").update(kind="swamp"), "kind"),
    ],
)
def test_replacement_map_is_validated_section3_6(edit, rule: str) -> None:
    with pytest.raises(ValueError, match=rule):
        load(3, map=_map(edit))


def test_start_and_bonus_areas_must_fit_the_map_section3_6_5_6() -> None:
    no_thebes = _map(lambda d: _area(d, "thebes").update(kind="uninhabited"))
    with pytest.raises(ValueError, match="§3.6 6"):  # the Egyptians' bonus area
        load(3, map=no_thebes)
    no_sinai = _map(lambda d: _area(d, "sinai").update(kind="uninhabited"))
    with pytest.raises(ValueError, match="§3.6 5"):  # the Hyksos' start area
        load(3, map=no_sinai)


def test_a_valid_replacement_map_is_used() -> None:
    """A new difficult border Gutium -> Ashur makes X4 (c) a difficult attack."""
    harder = _map(
        lambda d: d["difficult_borders"].append({"attacker_area": "gutium", "defender_area": "ashur"})
    )
    b = Board(3, epoch=3, map=harder).deal(ANN, "guti", "kassites", "assyrians").deal(BEN, "akkadians")
    s = b.tribes("ashur", "assyrians", 1).tribes("gutium", "guti", 1).round("guti", 1).state()
    play(s, "place ashur")
    assert s.to_position()["pending"] == ["combat", "ashur", 2]
    assert s.game.options["map"] == harder
    rec = json.loads(json.dumps(ziggurat.record(load(3, map=harder).new_initial_state())))
    assert ziggurat.replay(rec).game.rules.map.difficult == s.game.rules.map.difficult


# --- replacement cards (§9.2) ------------------------------------------------------------------


def _cards(edit) -> dict:
    data = copy.deepcopy(PEOPLES_DATA)
    edit(data)
    return data


def _card(data: dict, people: str) -> dict:
    return next(c for c in data["peoples"] if c["id"] == people)


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: _card(d, "guti").update(abilities=["flying"]), "unknown ability"),
        (lambda d: _card(d, "guti").update(abilities=["fast_growth", "slow_growth"]), "exclude"),
        (lambda d: _card(d, "guti").update(start_area="atlantis"), "§3.6 5"),
        (lambda d: _card(d, "guti").update(start_area="caucasus"), "§3.6 5"),
        (lambda d: _card(d, "guti").update(bonus_area="great_green"), "§3.6 6"),
        (lambda d: _card(d, "guti").update(base_order=1), "order number 1"),
        (lambda d: _card(d, "guti").update(initial_tribes=0), "initial_tribes"),
        (lambda d: _card(d, "guti").update(reinforcements={"1": 2}), "reinforcements"),
        (lambda d: _card(d, "minoans").update(seed_abilities=["military"]), "seed ability"),
        (lambda d: d["turn_order_rows"].pop(), "turn_order_rows"),
        (lambda d: _card(d, "guti").update(card_epoch=2), "fewer than 5 players"),
    ],
)
def test_replacement_cards_are_validated_section9_2(edit, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        load(5, peoples=_cards(edit))


def test_replacement_cards_are_used() -> None:
    """Medes with a different bonus area score it double (E14.2)."""
    cards = _cards(lambda d: _card(d, "medes").update(bonus_area="media"))
    b = Board(2, epoch=5, peoples=cards).deal(ANN, "medes")
    s = b.tribes("media", "medes", 1).round("medes", 1).state()
    s.apply("stop")
    assert s.to_position()["players"][ANN]["vp"] == 2
