"""Mesopotamia: Epochs positions are validated on load: the schema, then the rules' checks.

Unit tests break one check each and read the refusal (field and rule); the fuzz test corrupts
real positions of seeded random games and requires every refusal to be a ``ValueError`` and
every accepted position to play 200 seeded random plies. ``fuzz_tally`` is the generator the
benchmark ``benchmarks/position_fuzz.py`` reuses. (The file name carries the game, as every
test file of this folder does: pytest imports test files by their base name.)
"""

from __future__ import annotations

from typing import Any

import pytest

from position_helpers import FUZZ_SEEDS, GamePositions
from ziggurat.engine.errors import InvalidPosition
from ziggurat.games.mesopotamia_epochs.schema import Position

PLAYERS = 4
# real positions: one every 3 plies of seeded random games (every phase and pending kind)
POSITIONS = GamePositions("mesopotamia-epochs", PLAYERS, Position, every=3, rule_format="{}")
fuzz_tally = POSITIONS.fuzz_tally  # the generator benchmarks/position_fuzz.py reuses
refused = POSITIONS.refused  # what most tests here call


def _strategy() -> dict[str, Any]:
    return POSITIONS.find(lambda p: p["phase"] == "strategy" and p["pending"] is None and p["epoch"] == 2)


# --- the schema -------------------------------------------------------------------------
def test_real_positions_load_and_round_trip() -> None:
    for pos in POSITIONS.real_positions()[::4]:
        assert POSITIONS.load().state_from_position(pos).to_position() == pos


def test_missing_or_mistyped_field_is_named() -> None:
    pos = _strategy()
    del pos["round"]
    assert "Field required" in refused(pos, "round")
    pos = _strategy()
    pos["players"][0]["vp"] = 2.0
    assert "valid integer" in refused(pos, "players.0.vp")


def test_unknown_phase_symbol_and_pending_kind() -> None:
    pos = _strategy()
    pos["phase"] = "placement"
    refused(pos, "phase")
    pos = _strategy()
    pos["draw_order"][0] = "crown"
    refused(pos, "draw_order.0")
    pos = _strategy()
    pos["pending"] = ["attack", "ur"]
    refused(pos, "pending")


def test_combat_dice_are_one_or_two_E12_3() -> None:
    pos = POSITIONS.find(lambda p: p["pending"] is not None and p["pending"][0] == "combat")
    pos["pending"][2] = 3
    assert "less than or equal to 2" in refused(pos, "pending.combat.2")


def test_schema_document_matches_the_model() -> None:
    """docs/positions/mesopotamia-epochs.schema.json is generated from the model (no drift); regenerate with
    ``python tests/position_helpers.py``."""
    assert POSITIONS.schema_document() == Position.model_json_schema()


# --- the semantic checks ----------------------------------------------------------------
def test_two_peoples_in_one_area_E8_8() -> None:
    pos = _strategy()
    area = pos["areas"][0][0]
    other = next(row[1] for row in pos["areas"] if row[1] != pos["areas"][0][1])
    pos["areas"].append([area, other, 1])
    refused(pos, f"areas.{len(pos['areas']) - 1}", "E8.8")


def test_four_tribes_in_one_area_E13_1() -> None:
    pos = _strategy()
    pos["areas"][0][2] = 4
    refused(pos, "areas.0", "E13.1")


def test_tribes_in_the_sea_E9_1_and_uninhabited_E10_1() -> None:
    pos = _strategy()
    pos["areas"][0][0] = "great_green"
    assert "sea area" in refused(pos, "areas.0", "E9.1")
    pos = _strategy()
    pos["areas"][0][0] = "caucasus"
    assert "uninhabited area" in refused(pos, "areas.0", "E10.1")


def test_area_not_on_the_map() -> None:
    pos = _strategy()
    pos["areas"][0][0] = "atlantis"
    refused(pos, "areas.0", "§9.1")


def test_people_not_of_this_game() -> None:
    pos = _strategy()
    pos["players"][0]["cards"][0]["people"] = "vikings"
    refused(pos, "players.0.cards.0", "§9.2")


def test_card_in_two_places_E3_6() -> None:
    pos = _strategy()
    pos["set_aside"].append(dict(pos["players"][0]["cards"][0]))
    del pos["set_aside"][-1]["known_by"]
    refused(pos, f"set_aside.{len(pos['set_aside']) - 1}", "E3.6")


def test_card_of_another_epoch_E3_6() -> None:
    pos = _strategy()
    pos["players"][0]["cards"][0]["epoch"] = 2
    refused(pos, "players.0.cards.0", "E3.6")


def test_card_face_up_before_its_round_E3_7() -> None:
    pos = _strategy()
    later = next(
        (i, c)
        for i, pl in enumerate(pos["players"])
        for c in pl["cards"]
        if c["epoch"] == 2 and not c["public"]
    )
    later[1]["public"] = True
    pos["peoples"][later[1]["people"]] = {"vp": 0, "entered": 0, "removed": 0}
    refused(pos, f"players.{later[0]}.cards", "E3.7")


def test_draw_order_is_by_ascending_vp_E3_2() -> None:
    pos = POSITIONS.find(lambda p: p["pending"] is not None and p["pending"][0] == "draw")
    pos["draw_order"].reverse()
    refused(pos, "draw_order", "E3.2")


def test_tribes_not_conserved_E13() -> None:
    pos = _strategy()
    row = next(r for r in pos["areas"] if r[2] < 3)
    row[2] += 1
    assert "not conserved" in refused(pos, "peoples", "E13")


def test_round_order_number_E4_2() -> None:
    pos = _strategy()
    pos["round"]["order"] += 1
    refused(pos, "round.order", "E4.2")


def test_another_map_is_refused_section_3_6() -> None:
    pos = _strategy()
    pos["map"] = "custom"
    refused(pos, "map", "§3.6")


def test_symbol_that_does_not_play() -> None:
    pos = _strategy()
    pos["players"][0]["cards"][0]["known_by"].append("urn")
    assert "does not play in a 4-player game" in refused(pos, "players.0.cards.0.known_by")


def test_deck_size_counts_the_deck() -> None:
    pos = POSITIONS.find(lambda p: p["pending"] is not None and p["pending"][0] == "draw")
    pos["deck_size"] += 1
    refused(pos, "deck_size")


def test_relaxed_loading_skips_only_the_ledgers() -> None:
    """``strict=False`` (test situations set up by hand) still refuses two Peoples in an area."""
    from ziggurat.games.mesopotamia_epochs.position import load_position

    pos = _strategy()
    row = next(r for r in pos["areas"] if r[2] < 3)
    row[2] += 1
    assert load_position(POSITIONS.load(), pos, strict=False).to_position() == pos
    pos["areas"].append([pos["areas"][0][0], "guti", 1])
    with pytest.raises(InvalidPosition, match="E8.8"):
        load_position(POSITIONS.load(), pos, strict=False)


# --- the fuzz ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_corrupted_positions_are_refused_or_play(seed: int) -> None:
    POSITIONS.check_fuzz(seed)
