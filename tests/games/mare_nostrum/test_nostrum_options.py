"""The option values with alternatives (spec 10.6; decisions in docs/mare-nostrum.md):
``building_supply_limit`` (2.4, N0.9, R35), ``starting_title_tie_break`` (4.2, R31) and
``victory_tie_capitals`` (N6.5.2, R32), and the checking of every option's value."""

from __future__ import annotations

from typing import Any

import pytest
from nostrum_helpers import (
    BABYLON,
    CARTHAGE,
    DISPLAY,
    GREECE,
    ROME,
    buy,
    buy_turn,
    conserved,
    finish_military,
    load,
    mil_turn,
    new,
    pos,
    refuse,
)

from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.data import OptionError

# ------------------------------------------------------------ building_supply_limit (2.4, R35)


def test_an_exhausted_building_kind_cannot_be_built_N0_9() -> None:
    """N0.9 / R35: at 3 players two markets start on the board (Latium, Africa); with a supply
    of 2 none is left, so Greece may not build one, and a pillaged market comes back."""
    s = new(building_supply_limit={"market": 2})
    p = pos(s)
    p["res"][GREECE] = {"tax": 6}
    s = buy_turn(load(s, p), GREECE)
    assert "build market macedonia" not in s.legal_actions()
    assert "build temple thracia" in s.legal_actions()  # other kinds stay unlimited
    message = refuse(s, "build market macedonia", "N0.9", "R35")
    assert "no market is left in the building supply" in message
    p = pos(s)
    p["buildings"]["latium"].remove("market")  # pillaged: back to the supply (N4.11.2)
    s = load(s, p)
    buy(s, "build market macedonia", *["tax"] * 6)
    assert "market" in s.d["buildings"]["macedonia"]
    conserved(s)


def test_one_number_limits_every_building_kind() -> None:
    """An integer ``building_supply_limit`` is the supply of each kind: 16 caravans start at
    3 players, so with 16 the next caravan, even Circe's free one (N4.13), cannot be placed."""
    for limit, left in ((16, False), (17, True)):
        s = new(building_supply_limit=limit)
        p = pos(s)
        p["tiles"][ROME].append("circe")
        p["markers"]["dacia"] = ROME
        p["legions"]["dacia"] = [1, 0, 0]
        s = mil_turn(load(s, p), ROME, "mil_circe", done=[])
        assert ("circe dacia caravan:marble" in s.legal_actions()) == left
        if not left:
            refuse(s, "circe dacia caravan:marble", "N4.13", "N0.9")
            assert s.game.invariants(s) == []


def test_building_supply_limit_values_are_checked() -> None:
    """A supply smaller than the set-up's buildings, an unknown kind or a bad count is refused."""
    with pytest.raises(OptionError, match="1 capital is fewer than the 3 on the board at set-up"):
        MareNostrumGame(3, {"building_supply_limit": {"capital": 1}})
    MareNostrumGame(3, {"building_supply_limit": {"capital": 3}})
    with pytest.raises(OptionError, match="fewer than the 4"):  # Egypt's capital too
        MareNostrumGame(4, {"building_supply_limit": {"capital": 3}})
    with pytest.raises(OptionError, match="building_supply_limit: unknown key 'fortress'"):
        MareNostrumGame(3, {"building_supply_limit": {"fortress": 3}})
    for bad in ("many", 2.5, {"market": "two"}, True):
        with pytest.raises(OptionError, match="building_supply_limit"):
            MareNostrumGame(3, {"building_supply_limit": bad})


# ------------------------------------------------------------ starting_title_tie_break (4.2, R31)


@pytest.fixture
def military_title_vacant(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 3-player data with no starting Military leader: Rome and Greece tie at level 3."""
    board = D.board(3)
    monkeypatch.setattr(board, "starting_titles", {"trade": "carthage", "culture": "greece"})


def _set_up(**options: Any) -> Any:
    state = MareNostrumGame(3, options).new_initial_state()
    state.apply("empires rome,greece,carthage")
    return state


@pytest.mark.usefixtures("military_title_vacant")
@pytest.mark.parametrize(
    ("options", "holder"),
    [
        ({}, ROME),  # the youngest is seat 0 by default
        ({"youngest_player_seat": GREECE}, GREECE),
        ({"youngest_player_seat": CARTHAGE}, ROME),  # not tied: the next tied seat after him
        ({"starting_title_tie_break": "seat_order", "youngest_player_seat": GREECE}, ROME),
    ],
)
def test_a_tied_vacant_starting_title_R31(options: dict[str, Any], holder: int) -> None:
    """4.2 / R31: the vacant title goes to the highest level; a tie by the option's rule."""
    s = _set_up(**options)
    assert s.d["titles"] == {"trade": CARTHAGE, "culture": GREECE, "military": holder}
    assert s.d["stage"] == "reveal"


@pytest.mark.usefixtures("military_title_vacant")
def test_a_tied_vacant_starting_title_by_lot() -> None:
    """``starting_title_tie_break: random``: a chance node, each tied player equally likely."""
    s = _set_up(starting_title_tie_break="random")
    assert s.current_player() < 0 and s.d["titles"]["military"] is None
    assert s.chance_outcomes() == [("title military 0", 0.5), ("title military 1", 0.5)]
    refuse(s, "title military 2", "N0.13")
    s.apply("title military 1")
    assert s.d["titles"]["military"] == GREECE and "start_titles" not in s.d
    assert [a for a, _ in s.chance_outcomes()] == [f"reveal {t}" for t in s.d["facedown"]]
    for tile in DISPLAY:
        s.apply(f"reveal {tile}")
    assert s.current_player() == CARTHAGE  # the Trade leader plays on as usual
    assert s.history()[:2] == ["empires rome,greece,carthage", "title military 1"]


def test_no_tie_no_lot() -> None:
    """With the data's starting titles nothing is vacant: no chance node, whatever the rule."""
    s = _set_up(starting_title_tie_break="random")
    assert s.d["titles"] == {"trade": CARTHAGE, "culture": GREECE, "military": ROME}
    assert s.d["stage"] == "reveal"


def test_starting_title_options_are_checked() -> None:
    with pytest.raises(OptionError, match="starting_title_tie_break"):
        MareNostrumGame(3, {"starting_title_tie_break": "oldest"})
    with pytest.raises(OptionError, match="youngest_player_seat"):
        MareNostrumGame(3, {"youngest_player_seat": 3})
    MareNostrumGame(4, {"youngest_player_seat": 3})


# ------------------------------------------------------------ victory_tie_capitals (N6.5.2, R32)


def _capitals(s: Any, rome_extra: bool = False) -> dict[str, Any]:
    """5 players: Rome holds the capitals of Latium, Achea, Africa and Aegyptus, Babylon its
    own and the three legendary cities (4 each); ``rome_extra`` moves Syracusae to Rome."""
    p = pos(s)
    p["markers"].update(latium=ROME, achea=ROME, africa=ROME, aegyptus=ROME)
    p["legions"] = {"latium": [2, 0, 0, 0, 0]}
    p["markers"].update(asia=BABYLON, sicilia=ROME if rome_extra else BABYLON, judea=BABYLON)
    p["buildings"].update(
        asia=["legendary_city:troia"],
        sicilia=["legendary_city:syracusae"],
        judea=["legendary_city:ierusalem"],
    )
    p["titles"]["military"] = GREECE
    return p


def _end_of_military(**options: Any) -> Any:
    s = new(5, **options)
    return finish_military(mil_turn(load(s, _capitals(s)), ROME, "mil_row"))


def test_capitals_tie_default_military_leader_chooses() -> None:
    """Default ``most_capitals_then_military_leader``: equal counts, Greece chooses (D26)."""
    s = _end_of_military()
    assert s.current_player() == GREECE and list(s.legal_actions()) == ["winner 0", "winner 4"]
    refuse(s, "winner 1", "N6.5.2")


def test_capitals_tie_then_military_level() -> None:
    """``most_capitals_then_military_level``: Rome (2 legions, 1 trireme: 3) beats Babylon (0)."""
    s = _end_of_military(victory_tie_capitals="most_capitals_then_military_level")
    assert s.tracks(ROME)["military"] > s.tracks(BABYLON)["military"]
    assert s.is_terminal() and s.returns()[ROME] == 1.0


def test_capitals_tie_then_military_level_still_tied_goes_to_the_leader() -> None:
    s = new(5, victory_tie_capitals="most_capitals_then_military_level")
    p = _capitals(s)
    p["legions"] = {"latium": [2, 0, 0, 0, 0], "babylonia": [0, 0, 0, 0, 3]}  # 3 and 3
    s = finish_military(mil_turn(load(s, p), ROME, "mil_row"))
    assert s.tracks(ROME)["military"] == s.tracks(BABYLON)["military"]
    assert s.current_player() == GREECE and list(s.legal_actions()) == ["winner 0", "winner 4"]


def test_capitals_tie_plays_on() -> None:
    """``most_capitals_then_play_on``: a tie wins nothing; the Claim phase follows (N5)."""
    s = new(5, victory_tie_capitals="most_capitals_then_play_on")
    p = _capitals(s)
    p["legions"]["babylonia"] = [0, 0, 0, 0, 5]  # so that Rome does not take all three titles
    s = finish_military(mil_turn(load(s, p), ROME, "mil_row"))
    assert not s.is_terminal() and s.d["winner"] is None
    assert s.d["round"] == 2 and s.d["titles"]["military"] == BABYLON  # claimed, next round


def test_military_leader_chooses_among_all_who_qualify() -> None:
    """``military_leader``: with 3 to win, Rome (5) and Babylon (3) both qualify, and the
    Military leader chooses; by default Rome, who has the most, wins at once."""
    for rule, chosen in (("military_leader", True), ("most_capitals_then_military_leader", False)):
        s = new(5, capitals_to_win=3, victory_tie_capitals=rule)
        s = finish_military(mil_turn(load(s, _capitals(s, rome_extra=True)), ROME, "mil_row"))
        if chosen:
            assert s.current_player() == GREECE and list(s.legal_actions()) == ["winner 0", "winner 4"]
            s.apply("winner 4")
            assert s.returns()[BABYLON] == 1.0
        else:
            assert s.is_terminal() and s.returns()[ROME] == 1.0


def test_victory_tie_option_is_checked() -> None:
    with pytest.raises(OptionError, match="victory_tie_capitals"):
        MareNostrumGame(3, {"victory_tie_capitals": "shared"})


# ------------------------------------------------------------ every option's value (10.6)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("empire_assignment", "draft"),
        ("trade_token_faces", [[0, 5], [1, 4]]),
        ("hero_cost_by_tiles_owned", {"one": 7}),
        ("hero_cost_by_round", {"1": 0}),
        ("tiles_to_win", 0),
        ("starting_hero_counts_toward_win", "yes"),
        ("face_up_tiles", 18),
        ("pyramids_cost", 0),
        ("unit_limits", {"legion": 8}),
        ("unit_limits", {"legion": 1, "trireme": 5, "fortress": 8, "influence_marker": 12}),
        ("die_faces", []),
        ("hit_divisor", 0),
        ("dice_per_side_cap", 0),
        ("fortress_bonus", -1),
        ("conquest_options_per_conquest", 4),
        ("hannibal_identical_goods_limit", 0),
        ("max_rounds", 1.5),
    ],
)
def test_bad_option_values_are_refused(key: str, value: Any) -> None:
    """10.6: every value is checked when the game is made, the message naming the option."""
    with pytest.raises(OptionError, match=key):
        MareNostrumGame(3, {key: value})


def test_option_defaults_are_the_data_file() -> None:
    """The lobby lists ``OPTION_DEFAULTS``: every option of 10.6 with its default."""
    assert D.OPTION_DEFAULTS == D.DEFAULT_OPTIONS
    assert MareNostrumGame(3, dict(D.OPTION_DEFAULTS)).opts == D.DEFAULT_OPTIONS
