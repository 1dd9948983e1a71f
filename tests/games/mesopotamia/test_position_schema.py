"""Mesopotamia positions are validated on load: the schema, then the rules' semantic checks.

Unit tests break one check each and read the refusal (field and rule); the fuzz test corrupts
real positions of seeded random games and requires every refusal to be a ``ValueError`` and
every accepted position to play 200 seeded random plies. ``fuzz_tally`` is the generator the
benchmark ``benchmarks/position_fuzz.py`` reuses.
"""

from __future__ import annotations

from typing import Any

import pytest

from position_helpers import FUZZ_SEEDS, GamePositions
from ziggurat.engine.errors import InvalidPosition
from ziggurat.games.mesopotamia.schema import Position

PLAYERS = 3
# real positions: one every 7 plies of seeded random games (all phases, most pending kinds)
POSITIONS = GamePositions("mesopotamia", PLAYERS, Position, every=7)
fuzz_tally = POSITIONS.fuzz_tally  # the generator benchmarks/position_fuzz.py reuses
refused = POSITIONS.refused  # what most tests here call


def _movement() -> dict[str, Any]:
    return POSITIONS.find(lambda p: p["phase"] == "movement" and p["pending"] is None and p["round"] > 2)


# --- the schema -------------------------------------------------------------------------
def test_real_positions_load_and_round_trip() -> None:
    for pos in POSITIONS.real_positions()[::5]:
        assert POSITIONS.load().state_from_position(pos).to_position() == pos


def test_missing_field_is_named() -> None:
    pos = _movement()
    del pos["phase"]
    assert "Field required" in refused(pos, "phase")


def test_mistyped_field_is_named() -> None:
    pos = _movement()
    pos["players"][1]["mana"] = "3"
    assert "valid integer" in refused(pos, "players.1.mana")


def test_unknown_phase_and_pending_kind() -> None:
    pos = _movement()
    pos["phase"] = "battle"
    refused(pos, "phase")
    pos = _movement()
    pos["pending"] = ["swap", 1]
    assert "does not match any of the expected tags" in refused(pos, "pending")


def test_unknown_key_is_refused() -> None:
    pos = _movement()
    pos["players"][0]["gold"] = 3
    assert "Extra inputs" in refused(pos, "players.0.gold")


def test_negative_count_is_refused() -> None:
    pos = _movement()
    pos["supply"]["wood"] = -1
    assert "greater than or equal to 0" in refused(pos, "supply.wood")


def test_not_a_dict() -> None:
    with pytest.raises(InvalidPosition, match="must be a JSON object"):
        POSITIONS.load().state_from_position([])  # type: ignore[arg-type]


def test_schema_document_matches_the_model() -> None:
    """docs/positions/mesopotamia.schema.json is generated from the model (no drift); regenerate with
    ``python tests/position_helpers.py``."""
    assert POSITIONS.schema_document() == Position.model_json_schema()


# --- the semantic checks ----------------------------------------------------------------
def test_tribe_off_the_tiles_is_in_the_sea_M2_2() -> None:
    pos = _movement()
    pos["players"][0]["tribes"][0][:2] = [40, 40]
    refused(pos, "players.0.tribes", "M2.2")


def test_tribe_on_a_volcano_M2_4() -> None:
    pos = POSITIONS.find(lambda p: p["phase"] == "movement" and any(t[2] == "volcano" for t in p["tiles"]))
    q, r, _ = next(t for t in pos["tiles"] if t[2] == "volcano")
    pos["players"][1]["tribes"][0][:2] = [q, r]
    refused(pos, "players.1.tribes", "M2.4")


def test_wood_carrier_on_the_temple_M5_3() -> None:
    pos = _movement()
    tribe = pos["players"][0]["tribes"][0]
    tribe[:3] = [0, 0, "w"]
    pos["supply"]["wood"] -= 1
    refused(pos, "players.0.tribes", "M5.3")


def test_loose_resources_on_the_temple_M5_7() -> None:
    pos = _movement()
    pos["loose"].append([0, 0, 1, 0])
    pos["supply"]["wood"] -= 1
    refused(pos, "loose", "M5.7")


def test_hut_on_a_forest_M9_1() -> None:
    pos = _movement()
    q, r, _ = next(t for t in pos["tiles"] if t[2] == "forest")
    pos["huts"][0][2:4] = [q, r]
    refused(pos, "huts", "M9.1")


def test_three_huts_on_one_tile_M9_1() -> None:
    pos = POSITIONS.find(lambda p: p["phase"] == "movement" and p["pending"] is None and len(p["huts"]) >= 3)
    for hut in pos["huts"][:3]:
        hut[2:4] = pos["huts"][0][2:4]
    refused(pos, "huts", "M9.1")


def test_neutral_hut_never_holds_an_offering_M6_1() -> None:
    pos = _movement()
    neutral = next(h for h in pos["huts"] if h[0] == "neutral")
    neutral[4] = 1
    refused(pos, "huts (neutral 1)", "M6.1")


def test_tile_listed_twice() -> None:
    pos = _movement()
    pos["tiles"].append(list(pos["tiles"][-1]))
    assert "listed twice" in refused(pos, "tiles.")


def test_tile_cut_off_from_the_map_M7_1() -> None:
    pos = _movement()
    drawn = next(
        t for t in pos["tiles"] if t[2] == "plains" and not any(tr[:2] == t[:2] for tr in _all_tribes(pos))
    )
    drawn[:2] = [30, -30]
    refused(pos, "tiles", "M7.1")


def test_tile_kinds_not_conserved_section_2_1() -> None:
    pos = _movement()
    start = {(t["q"], t["r"]) for t in POSITIONS.load().opts["start_tiles"]}
    tile = next(t for t in pos["tiles"] if t[2] == "plains" and (t[0], t[1]) not in start)
    tile[2] = "quarry"
    refused(pos, "remaining_tiles.", "§2.1")


def test_resources_not_conserved_section_2_5() -> None:
    pos = _movement()
    pos["supply"]["wood"] += 1
    assert "not conserved" in refused(pos, "supply.wood", "§2.5")


def test_mana_above_the_limit_section_2_6() -> None:
    pos = _movement()
    pos["players"][2]["mana"] = pos["players"][2]["limit"] + 1
    refused(pos, "players.mana", "§2.6")


def test_colour_that_does_not_play() -> None:
    pos = _movement()
    pos["winner"] = "green"
    assert "does not play in a 3-player game" in refused(pos, "winner")


def test_turn_outside_the_turn_order_M1_1() -> None:
    pos = _movement()
    pos["turn"] = 3
    refused(pos, "turn", "M1.1")


def test_too_many_discoveries_M7_7() -> None:
    pos = _movement()
    pos["discoveries"] = 4
    refused(pos, "discoveries", "M7.7")


def test_count_that_disagrees_with_its_list() -> None:
    pos = _movement()
    pos["players"][0]["hand_size"] += 1
    assert "does not count the hand" in refused(pos, "players.0.hand_size")


def test_discovery_without_its_tribe_M7_1() -> None:
    pos = POSITIONS.find(lambda p: p["pending"] is not None and p["pending"][0] == "pile")
    pos["pending"][1] = [40, 40]
    refused(pos, "pending.1", "M7.1")


def test_a_volcano_drawn_as_the_last_tile_loads_while_it_is_placed_M7_8() -> None:
    """A discovery draws the last tile of the last pile, a volcano: while its player places it,
    every pile is empty, and the position (a server's snapshot, say) loads as it is."""
    import random

    import ziggurat

    game = ziggurat.load("mesopotamia", players=2)
    state = game.new_initial_state()
    rng = random.Random(619)
    while not (state.pending and state.pending[0] == "volcano" and not any(state.pile_sizes)):
        if state.is_chance_node():
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
        assert not state.is_terminal() and len(state.history()) < 400, "the seeded game changed"
    pos = state.to_position()
    again = game.state_from_position(pos)
    assert again.to_position() == pos
    assert list(again.legal_actions()) == list(state.legal_actions())


def test_draw_from_a_pile_that_does_not_exist_M7_2() -> None:
    pos = POSITIONS.find(lambda p: p["pending"] is not None and p["pending"][0] == "draw")
    pos["pending"][5] = 9
    refused(pos, "pending.5", "M7.2")


def test_relaxed_loading_skips_only_conservation() -> None:
    """``strict=False`` (test situations set up by hand) still refuses a tribe in the sea."""
    from ziggurat.games.mesopotamia.position import load_position

    pos = _movement()
    pos["supply"]["wood"] += 1
    assert load_position(POSITIONS.load(), pos, strict=False).to_position() == pos
    pos["players"][0]["tribes"][0][:2] = [40, 40]
    with pytest.raises(InvalidPosition, match="M2.2"):
        load_position(POSITIONS.load(), pos, strict=False)


def _all_tribes(pos: dict[str, Any]) -> list[list[Any]]:
    return [t for pl in pos["players"] for t in pl["tribes"]] + [h[2:4] for h in pos["huts"]]


# --- the fuzz ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("seed", FUZZ_SEEDS)
def test_corrupted_positions_are_refused_or_play(seed: int) -> None:
    POSITIONS.check_fuzz(seed)
