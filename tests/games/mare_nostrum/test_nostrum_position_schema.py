"""Mare Nostrum positions are validated on load: the schema, then the rules' checks.

Unit tests break one check each and read the refusal (field and rule); the fuzz test corrupts
real positions of seeded random 3-player games and requires every refusal to be a
``ValueError`` and every accepted position to play 200 seeded random plies. ``fuzz_tally`` is
the generator the benchmark ``benchmarks/position_fuzz.py`` reuses. (The file name carries the
game, as every test file of this folder does: pytest imports test files by their base name.)
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import ziggurat
from ziggurat.engine.errors import InvalidPosition
from ziggurat.engine.positions import FuzzTally, fuzz_loading, seeded_positions
from ziggurat.games.mare_nostrum.schema import HOLDING_BOUND, Position

GAME = "mare-nostrum"
PLAYERS = 3
FUZZ_SEEDS = (1, 2, 3, 4)
FUZZ_PER_SEED = 2_500  # 10,000 corrupted positions in all
SCHEMA_FILE = Path(__file__).resolve().parents[3] / "docs" / "positions" / "mare-nostrum.schema.json"


@cache
def _game() -> Any:
    return ziggurat.load(GAME, players=PLAYERS)


@cache
def real_positions() -> tuple[dict[str, Any], ...]:
    """Positions of seeded random games, one every 9 plies (every phase of the round)."""
    return tuple(seeded_positions(_game(), range(4), plies=600, every=9))


def fuzz_tally(count: int, seed: int) -> FuzzTally:
    return fuzz_loading(_game(), list(real_positions()), count, seed)


def _find(test: Any) -> dict[str, Any]:
    return copy.deepcopy(next(p for p in real_positions() if test(p)))


def _buying() -> dict[str, Any]:
    return _find(lambda p: p["stage"] == "buy_turn" and p["round"] >= 2 and not p["buy"]["paying"])


def refused(pos: dict[str, Any], field: str, rule: str | None = None) -> str:
    with pytest.raises(InvalidPosition) as info:
        _game().state_from_position(pos)
    text = str(info.value)
    assert f"mare-nostrum position: {field}" in text, text
    if rule is not None:
        assert f"({rule})" in text, text
    return text


# --- the schema -------------------------------------------------------------------------
def test_real_positions_load_and_round_trip() -> None:
    for pos in real_positions()[::3]:
        assert _game().state_from_position(pos).to_position() == pos


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
    """docs/positions/mare-nostrum.schema.json is generated from the model (no drift);
    regenerate with ``python tests/games/mare_nostrum/test_nostrum_position_schema.py``."""
    assert json.loads(SCHEMA_FILE.read_text(encoding="utf-8")) == Position.model_json_schema()


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
    prov = next(p for p, slots in pos["buildings"].items() if "capital" not in slots and "market" in slots)
    pos["buildings"][prov].append("capital")
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
    pos = _find(lambda p: p["stage"] == "buy_turn" and p["buy"]["paying"] is not None)
    pos["buy"]["paying"]["item"] = "legion atlantis"
    refused(pos, "buy.paying.item", "N3")


def test_battle_needs_both_sides_N4_6() -> None:
    pos = _find(lambda p: p["battle"] is not None)
    bt = pos["battle"]
    rows = pos["triremes"] if bt["kind"] == "sea" else pos["legions"]
    rows[bt["where"]][bt["def"]] = 0
    refused(pos, "battle", "N4.6")


# --- the fuzz ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_corrupted_positions_are_refused_or_play(seed: int) -> None:
    tally = fuzz_tally(FUZZ_PER_SEED, seed)
    assert tally.tried == FUZZ_PER_SEED
    assert tally.rejected + tally.accepted == tally.tried
    assert tally.played == tally.accepted
    assert tally.rejected > tally.tried // 2  # most corruptions break something


if __name__ == "__main__":  # regenerate the schema document after a change to the model
    SCHEMA_FILE.write_text(json.dumps(Position.model_json_schema(), indent=2) + "\n", encoding="utf-8")
