"""Mare Nostrum positions are validated on load: the schema, then the rules' checks.

Unit tests break one check each and read the refusal (field and rule); the fuzz test corrupts
real positions of seeded random 3-player games and requires every refusal to be a
``ValueError`` and every accepted position to play 200 seeded random plies. ``fuzz_tally`` is
the generator the benchmark ``benchmarks/position_fuzz.py`` reuses. (The file name carries the
game, as every test file of this folder does: pytest imports test files by their base name.)
"""

from __future__ import annotations

from typing import Any

import pytest

from position_helpers import FUZZ_SEEDS, GamePositions
from ziggurat.games.mare_nostrum.schema import HOLDING_BOUND, Position

PLAYERS = 3
# real positions: one every 9 plies of seeded random games (every phase of the round)
POSITIONS = GamePositions("mare-nostrum", PLAYERS, Position, every=9)
fuzz_tally = POSITIONS.fuzz_tally  # the generator benchmarks/position_fuzz.py reuses
refused = POSITIONS.refused  # what most tests here call


def _buying() -> dict[str, Any]:
    return POSITIONS.find(lambda p: p["stage"] == "buy_turn" and p["round"] >= 2 and not p["buy"]["paying"])


# --- the schema -------------------------------------------------------------------------
def test_real_positions_load_and_round_trip() -> None:
    for pos in POSITIONS.real_positions()[::3]:
        assert POSITIONS.load().state_from_position(pos).to_position() == pos


def test_missing_or_mistyped_field_is_named() -> None:
    pos = _buying()
    del pos["markers"]
    assert "Field required" in refused(pos, "markers")
    pos = _buying()
    pos["round"] = "2"
    assert "valid integer" in refused(pos, "round")


def test_unknown_stage_good_and_tile() -> None:
    pos = _buying()
    pos["stage"] = "buy_everything"
    refused(pos, "stage")
    pos = _buying()
    pos["res"][0]["salt"] = 1
    refused(pos, "res.0.salt")
    pos = _buying()
    pos["tiles"][0].append("zeus")
    refused(pos, f"tiles.0.{len(pos['tiles'][0]) - 1}")


def test_counts_are_positive_and_bounded() -> None:
    pos = _buying()
    pos["res"][0]["tax"] = 0
    refused(pos, "res.0.tax")
    pos["res"][0]["tax"] = HOLDING_BOUND + 1
    refused(pos, "res.0.tax")


def test_schema_document_matches_the_model() -> None:
    """docs/positions/mare-nostrum.schema.json is generated from the model (no drift); regenerate with
    ``python tests/position_helpers.py``."""
    assert POSITIONS.schema_document() == Position.model_json_schema()


# --- the semantic checks ----------------------------------------------------------------
def test_header_and_state_agree() -> None:
    pos = _buying()
    pos["num_players"] = 4
    refused(pos, "num_players")
    pos = _buying()
    pos["format"] = "ziggurat-position/mesopotamia/1"
    assert "not a Mare Nostrum position" in refused(pos, "format")


def test_seat_that_does_not_play() -> None:
    pos = _buying()
    prov = next(iter(pos["markers"]))
    pos["markers"][prov] = 3
    assert "does not play in a 3-player game" in refused(pos, f"markers.{prov}")


def test_province_not_on_the_board_3_3() -> None:
    pos = _buying()
    pos["markers"]["atlantis"] = 0
    refused(pos, "markers.atlantis", "3.3")


def test_legions_at_sea_3_3() -> None:
    pos = _buying()
    pos["legions"]["mare_ionium"] = [1, 0, 0]
    assert "not a province" in refused(pos, "legions.mare_ionium", "3.3")


def test_building_in_a_slot_the_province_lacks_3_2() -> None:
    pos = _buying()
    prov = next(p for p, slots in pos["buildings"].items() if slots and "capital" not in slots)
    pos["buildings"][prov] = sorted([*pos["buildings"][prov], "capital"])
    refused(pos, f"buildings.{prov}", "3.2")


def test_tile_in_two_places_2_8() -> None:
    pos = _buying()
    pos["tiles"][1].append(pos["display"][0])
    refused(pos, "display", "2.8")


def test_occupying_ones_own_province_N4_11_3() -> None:
    pos = _buying()
    prov, seat = next((p, s) for p, s in pos["markers"].items() if pos["buildings"].get(p))
    pos["occupy"][prov] = {pos["buildings"][prov][0]: seat}
    refused(pos, f"occupy.{prov}", "N4.11.3")


def test_another_empire_holding_a_capital_without_the_conqueror_mark_N4_10_1() -> None:
    """A player marked as conqueror of another's capital province must be alone there."""
    pos = _buying()
    prov = next(p for p, slots in pos["buildings"].items() if "capital" in slots)
    owner = pos["markers"][prov]
    other = (owner + 1) % PLAYERS
    pos["conqueror"][prov] = other
    refused(pos, "conqueror", "N4.10.1")


def test_legion_on_the_marker_without_conversion_N4_11_4() -> None:
    pos = _buying()
    prov = next(iter(pos["markers"]))
    pos["on_marker"][prov] = (pos["markers"][prov] + 1) % PLAYERS
    refused(pos, f"on_marker.{prov}", "N4.11.4")


def test_legendary_goods_conserved_2_3() -> None:
    pos = _buying()
    good = next(g for g, k in pos["pool"].items() if k)
    pos["res"][0][f"leg:{good}"] = 1
    assert "not conserved" in refused(pos, "pool", "2.3")


def test_stage_without_its_record() -> None:
    pos = _buying()
    pos["buy"] = None
    assert "needs its buy record" in refused(pos, "buy")


def test_payment_for_a_purchase_that_was_never_legal_N3() -> None:
    pos = POSITIONS.find(lambda p: p["stage"] == "buy_turn" and p["buy"]["paying"] is not None)
    pos["buy"]["paying"]["item"] = "legion atlantis"
    refused(pos, "buy.paying.item", "N3")


def test_battle_needs_both_sides_N4_6() -> None:
    pos = POSITIONS.find(lambda p: p["battle"] is not None)
    bt = pos["battle"]
    rows = pos["triremes"] if bt["kind"] == "sea" else pos["legions"]
    rows[bt["where"]][bt["def"]] = 0
    refused(pos, "battle", "N4.6")


# --- the fuzz ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_corrupted_positions_are_refused_or_play(seed: int) -> None:
    POSITIONS.check_fuzz(seed)
