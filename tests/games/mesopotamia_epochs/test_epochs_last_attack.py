"""Mesopotamia: Epochs: the game's last attack (E12) is in the position and so in every view,
the same for every seat (§6: combat is public), so a player who reloads or a spectator who
arrives late reads the attack and its result: who attacked whom where, each roll and who lost
a tribe (E12.5), and whether the area was taken (E12.7), emptied (R16) or held (E12.8). It
decides nothing: positions without it still load and fingerprints leave it out."""

from __future__ import annotations

import random
from typing import Any

import ziggurat
from ziggurat.games.mesopotamia_epochs.notation import roll_text

GAME = "mesopotamia-epochs"


def _attacks(seed: int, players: int) -> list[tuple[Any, Any, dict[str, Any]]]:
    """(state before the attacking placement, state when the combat ended, placement info)
    for every attack of a seeded random game."""
    rng = random.Random(seed)
    s = ziggurat.load(GAME, players=players).new_initial_state()
    found = []
    open_: tuple[Any, dict[str, Any]] | None = None
    while not s.is_terminal():
        who = s.current_player()
        before = s.clone()
        if who == ziggurat.CHANCE:
            action = ziggurat.sample_chance(s, rng)
        else:
            action = rng.choice(list(s.legal_actions()))
        s.apply(action)
        pend = s.view(None)["pending"]
        if open_ is None and pend and pend[0] == "combat" and action.startswith("place "):
            v = before.view(None)
            held = {a: (p, n) for a, p, n in v["areas"]}
            open_ = (
                before,
                {"area": pend[1], "attacker": v["round"]["people"], "held": held[pend[1]], "rolls": []},
            )
        elif open_ is not None and action.startswith("roll "):
            open_[1]["rolls"].append(action)
            if not (pend and pend[0] == "combat"):
                found.append((open_[0], s.clone(), open_[1]))
                open_ = None
    return found


def test_the_last_attack_tells_each_roll_and_the_result_E12() -> None:
    results = set()
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        for _before, after, info in _attacks(seed, players):
            last = after.view(None)["last_attack"]
            assert last["area"] == info["area"]
            assert last["attacker"] == info["attacker"]
            assert (last["defender"], last["defenders"]) == info["held"]
            assert [roll_text(tuple(r["attack"]), tuple(r["defence"])) for r in last["rolls"]] == info[
                "rolls"
            ]
            held = {a: (p, n) for a, p, n in after.view(None)["areas"]}.get(info["area"])
            result = last["result"]
            results.add(result)
            if result == "taken":  # E12.7: the surviving attacking tribe holds the area
                assert held == (info["attacker"], 1) and last["rolls"][-1]["winner"] == "attacker"
            elif result == "emptied":  # R16: both lose their last tribe
                assert held is None and last["rolls"][-1]["winner"] == "both"
            else:  # E12.8: the attacking tribe is gone, defenders remain
                assert result == "failed" and held is not None and held[0] == info["held"][0]
            lost = sum(r["winner"] != "defender" for r in last["rolls"])
            if result != "failed":
                assert lost == info["held"][1]
    assert {"taken", "failed"} <= results


def test_the_last_attack_is_the_same_for_every_seat_and_under_way_during_the_combat_6() -> None:
    rng = random.Random(5)
    s = ziggurat.load(GAME, players=4).new_initial_state()
    seen_under_way = False
    while not s.is_terminal():
        pend = s.view(None)["pending"]
        last = s.view(None)["last_attack"]
        for seat in range(4):
            assert s.view(seat)["last_attack"] == last
        if pend and pend[0] == "combat":
            assert last is not None and last["result"] == "under_way" and last["area"] == pend[1]
            assert last["dice"] == pend[2]
            seen_under_way = True
        if s.current_player() == ziggurat.CHANCE:
            s.apply(ziggurat.sample_chance(s, rng))
        else:
            s.apply(rng.choice(list(s.legal_actions())))
    assert seen_under_way


def test_it_survives_positions_and_sampling_but_not_the_fingerprint() -> None:
    before, after, _info = _attacks(2, 4)[0]
    game = after.game
    pos = after.to_position()
    assert pos["last_attack"] is not None
    again = game.state_from_position(pos)
    assert again.to_position() == pos
    for seat in range(4):
        view = after.view(seat)
        assert game.sample_state(view, seat, random.Random(seat)).view(seat) == view
    # a position written before the field existed loads, with no last attack, and the same
    # fingerprint: the last attack decides nothing
    old = {k: v for k, v in pos.items() if k != "last_attack"}
    loaded = game.state_from_position(old)
    assert loaded.to_position()["last_attack"] is None
    assert loaded.fingerprint() == after.fingerprint()
    assert list(loaded.legal_actions()) == list(after.legal_actions())
    assert before.view(None)["last_attack"] != after.view(None)["last_attack"]


def test_an_unknown_area_in_the_last_attack_is_refused() -> None:
    _before, after, _info = _attacks(1, 3)[0]
    pos = after.to_position()
    pos["last_attack"]["area"] = "atlantis"
    try:
        after.game.state_from_position(pos)
    except ziggurat.InvalidPosition as exc:
        assert "last_attack.area" in str(exc)
    else:
        raise AssertionError("an unknown area was accepted")
