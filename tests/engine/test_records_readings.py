"""Records keep the readings of the rules they were played under: a Mare Nostrum record written
when the broad hero payments, the tile cost by tiles owned and the capitals check at the end of
the Military phase were the defaults (R25, R28, N6.3; its options are ``{}``) still replays,
and new records always carry the reading options."""

from __future__ import annotations

import json
from pathlib import Path

import ziggurat
from ziggurat.engine.registry import game_class

EARLIER = json.loads(
    (Path(__file__).parent / "fixtures" / "mare-nostrum-4p-earlier-defaults.json").read_text(encoding="utf-8")
)
READINGS = {
    "hero_cost_mode",
    "hannibal_reading",
    "cleopatra_reading",
    "hero_payments_for_pyramids",
    "capitals_victory_check",
}


def test_a_record_from_the_earlier_defaults_replays_R25_R28() -> None:
    assert EARLIER["options"] == {}  # written when every reading was a default
    state = ziggurat.replay(EARLIER)  # checks the fingerprint every 50 actions on the way
    assert state.fingerprint() == EARLIER["final_fingerprint"]
    assert state.game.options["hannibal_reading"] == "any"
    assert state.game.options["hero_cost_mode"] == "by_tiles_owned"


def test_the_same_actions_under_todays_defaults_diverge() -> None:
    """The fixture is a real check: under the current defaults its actions are refused."""
    state = ziggurat.load("mare-nostrum", players=4).new_initial_state()
    refused = False
    for text in EARLIER["actions"]:
        try:
            state.apply(text)
        except ziggurat.IllegalAction:
            refused = True
            break
    assert refused or state.fingerprint() != EARLIER["final_fingerprint"]


def test_new_records_carry_every_reading() -> None:
    game = ziggurat.load("mare-nostrum", players=3)
    assert set(game.options) == READINGS
    rec = ziggurat.record(game.new_initial_state())
    assert rec["options"]["hannibal_reading"] == "one_pair"
    assert rec["options"]["capitals_victory_check"] == "at_once"
    broad = ziggurat.load("mare-nostrum", players=3, hannibal_reading="any", pyramids_cost=10)
    assert broad.options["hannibal_reading"] == "any" and broad.options["pyramids_cost"] == 10


def test_recorded_options_fill_only_what_old_options_lack() -> None:
    cls = game_class("mare-nostrum")
    old = cls.recorded_options({"hero_cost_mode": "by_round", "hero_cost_by_round": {"1": 8}})
    assert old["hero_cost_mode"] == "by_round" and old["hannibal_reading"] == "any"
    assert old["capitals_victory_check"] == "end_of_military"
    new = {"hannibal_reading": "one_pair", "hero_cost_mode": "by_round"}
    assert cls.recorded_options(new) == new
    assert game_class("mesopotamia").recorded_options({"a": 1}) == {"a": 1}
