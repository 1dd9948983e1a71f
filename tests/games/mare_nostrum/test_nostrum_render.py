"""The terminal board, the SVG map and the sentences of Mare Nostrum: Empires, on positions from
seeded random play with 3 to 5 players: drawn from views only (nothing of another seat's screen,
secret offers, legendary draws or Colossus goods), SVG that parses, text within 100 columns."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import pytest
from rich.console import Console

from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import describe as DS
from ziggurat.games.mare_nostrum import render_svg as RS
from ziggurat.games.mare_nostrum import render_text as RT

SVG = "{http://www.w3.org/2000/svg}"
STAGES = ("trade_offer", "trade_draft", "buy_turn", "mil_march", "mil_fight", "claim_tie")


@cache
def _game(n: int, seed: int) -> tuple[Any, list[Any]]:
    """A seeded random game: the final state and the states at a few plies (one per stage kind)."""
    game = MareNostrumGame(n, {})
    state = game.new_initial_state()
    rng = random.Random(seed)
    picked: list[Any] = []
    seen: set[str] = set()
    for _ in range(4000):
        if state.is_terminal():
            break
        stage = state.d["stage"]
        if stage in STAGES and stage not in seen:
            seen.add(stage)
            picked.append(state.clone())
        if state.current_player() < 0:
            outs = state.chance_outcomes()
            action = rng.choices([a for a, _ in outs], [w for _, w in outs])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        state.apply(action)
    picked.append(state)
    return state, picked


def _text(view: dict[str, Any], width: int = 100) -> str:
    con = Console(width=width, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    con.print(RT.render_board(view, ["random"] * view["n"], width, palette=RT.BASIC))
    return con.export_text()


@pytest.mark.parametrize("n", [3, 4, 5])
@pytest.mark.slow
def test_renderers_on_random_positions(n: int) -> None:
    final, states = _game(n, 10 + n)
    assert final.is_terminal()
    stages = set()
    for state in states:
        stages.add(state.d["stage"])
        for seat in [None, *range(n)]:
            view = state.view(seat)
            text = _text(view)
            assert max(len(line) for line in text.splitlines()) <= 100
            assert ("Your screen" in text) == (seat is not None)
            root = ET.fromstring(RS.render_svg(view, ["random"] * n))
            assert root.tag == f"{SVG}svg"
            provinces = {g.get("id") for g in root.iter(f"{SVG}g") if g.get("class") == "province"}
            assert provinces == {f"p-{p}" for p in final.game.board.provinces}
            secrets = [t for t in root.iter(f"{SVG}text") if t.get("class") == "secrets"]
            assert bool(secrets) == (seat is not None)
    assert {"trade_offer", "trade_draft", "buy_turn", "over"} <= stages


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.slow
def test_a_seat_rendering_depends_only_on_what_it_knows(n: int) -> None:
    """Another deal of the other seats' secrets (7.7) draws the same board, text and SVG."""
    _, states = _game(n, 20 + n)
    rng = random.Random(1)
    for state in states[:4]:
        for seat in range(n):
            view = state.view(seat)
            other = state.game.sample_state(view, seat, rng).view(seat)
            other["to_move"] = view["to_move"]
            assert _text(other) == _text(view)
            assert RS.render_svg(other) == RS.render_svg(view)


def test_hidden_offer_shown_only_to_its_seat() -> None:
    _, states = _game(4, 31)
    state = next(s for s in states if s.d["stage"] == "trade_offer").clone()
    checked = 0
    while state.d["stage"] == "trade_offer" and checked < 6:
        trade = state.d["trade"]
        for seat in range(4) if any(trade["offers"]) else ():
            text = _text(state.view(seat))
            for other in range(4):
                if other != seat and trade["offers"][other]:
                    checked += 1
                    label = DS.seat_label(state.view(seat), other)
                    assert f"{label}: offers {len(trade['offers'][other])} hidden" in text
        state.apply(state.legal_actions()[0])
    assert checked


def _told(n: int, seed: int, viewer: int | None) -> list[tuple[tuple[int, str, bool, int], str]]:
    game = MareNostrumGame(n, {})
    state = game.new_initial_state()
    rng = random.Random(seed)
    out: list[tuple[tuple[int, str, bool, int], str]] = []
    before = state.view(viewer)
    while not state.is_terminal():
        mark = DS.log_mark(state)
        if state.current_player() < 0:
            outs = state.chance_outcomes()
            action = rng.choices([a for a, _ in outs], [w for _, w in outs])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        state.apply(action)
        after = state.view(viewer)
        events = DS.events_since(state, mark)
        sentences = DS.describe_step(events, before, after)
        assert len(sentences) >= len(events)
        out.extend((e, s) for e, (s, _) in zip(events, sentences, strict=False))
        before = after
    return out


@pytest.mark.parametrize(("n", "viewer"), [(3, 0), (5, 2), (4, None)])
def test_sentences_are_redacted_per_seat(n: int, viewer: int | None) -> None:
    told = _told(n, 40 + n, viewer)
    kinds = set()
    for (actor, text, _, concerned), sentence in told:
        kind = text.split()[0]
        kinds.add(kind)
        assert sentence and ": " + text not in sentence, (text, sentence)  # no fallback wording
        if kind == "draw":
            good = text.split()[1]
            assert (good in sentence) == (concerned == viewer and viewer is not None), sentence
        if kind == "colossus" and actor != viewer:
            assert text.split()[1] not in sentence
        if kind == "keep" and actor != viewer and text != "keep none":
            assert not any(t in sentence for t in text.split()[1].split(","))
    assert {"offer", "take", "pay", "end", "roll"} <= kinds


def test_secret_offer_hidden_until_reveal() -> None:
    told = _told(3, 41, 0)
    hidden = [s for (a, t, _, _), s in told if t.startswith("offer ") and "size" not in t and a != 0]
    assert any("adds a token to its secret offer" in s for s in hidden)
    mine = [s for (a, t, _, _), s in told if t.startswith("offer ") and "size" not in t and a == 0]
    assert all("secret" not in s for s in mine)


def test_action_groups_and_notation() -> None:
    groups = DS.action_groups(["offer wine", "offer tax", "done"])
    assert groups[0] == (
        "offer: your secret offer, one token at a time (D6, D7)",
        ["offer wine", "offer tax"],
    )
    assert "docs/mare-nostrum.md" in DS.NOTATION_HELP
    assert RT.palette_for("truecolor") is RT.FULL and RT.palette_for("standard") is RT.BASIC


def _sea_battle() -> Any:
    """W8's sea battle: Rome's 2 triremes attack Carthage's 1 in Mare Sardum."""
    s = MareNostrumGame(3, {}).new_initial_state()
    s.apply("empires rome,greece,carthage")
    for tile in ("hercules", "antigone", "spartacus", "colossus", "lighthouse"):
        s.apply(f"reveal {tile}")
    p = s.to_position()
    p.update(trade=None, stage="mil_sea")
    p["triremes"]["mare_sardum"] = [2, 0, 1]
    p["mil"] = {"done": [1, 2], "active": 0, "arrived": {}, "fought": [], "zeus_q": [], "circe_used": []}
    s = s.game.state_from_position(p)
    s.apply("seabattle mare_sardum 2")
    return s


def test_dice_faces_in_sentences_and_on_the_board() -> None:
    """7.6: every die face is public: the roll sentences and the board name them."""
    s = _sea_battle()
    before = s.view(1)
    mark = DS.log_mark(s)
    s.apply("roll 1,2")
    after = s.view(1)
    told = [text for text, _ in DS.describe_step(DS.events_since(s, mark), before, after)]
    assert told == ["Rome rolls 1, 2 (total 3)"]
    assert "Rome rolled 1, 2 (total 3)" in _text(after)
    mark = DS.log_mark(s)
    s.apply("roll 4")
    told = [text for text, _ in DS.describe_step(DS.events_since(s, mark), after, s.view(1))]
    # the roll that settles the battle is told as its result, which names both sides' dice,
    # before the step the engine then ends by itself (no other sea battle is left, N4.5)
    assert told == [
        "Result in Mare Sardum: Rome 1, 2 = 3, Carthage 4; hits taken: Rome 0, Carthage 0",
        "Rome is done with the Sea battle step",
    ]
    assert "Last battle in Mare Sardum: Rome 1, 2 = 3" in _text(s.view(None))


def test_a_side_hit_more_times_than_it_has_units_is_told_what_it_lost_N4_7_6() -> None:
    """N4.7.6: each hit removes one unit and the surplus is lost. Carthage's one trireme takes
    two hits (Rome rolls 5, 6 = 11): the result says it lost one trireme, in both languages;
    when every hit removed a unit the sentence gives the hits only (the test above)."""
    s = _sea_battle()
    s.apply("roll 5,6")
    before = s.view(1)
    mark = DS.log_mark(s)
    s.apply("roll 4")
    told = DS.describe_step(DS.events_since(s, mark), before, s.view(1))[0][0]
    assert (str(told), told.render("fr")) == (
        "Result in Mare Sardum: Rome 5, 6 = 11, Carthage 4; hits taken: Rome 0, Carthage 2; "
        "triremes lost: Rome 0, Carthage 1",
        "Résultat de la bataille sur Mare Sardum : Rome 5, 6 = 11 contre Carthage 4 ; touches subies : "
        "Rome 0, Carthage 2 ; trières perdues : Rome 0, Carthage 1",
    )
    assert s.d["triremes"].get("mare_sardum", [0, 0, 0]) == [2, 0, 0]


def test_battle_result_shows_the_fortress_bonus() -> None:
    view = {"empires": ["rome", "greece", "carthage"]}
    fought = {"kind": "land", "where": "numidia", "att": 0, "def": 2, "att_faces": [2, 4, 5, 6],
              "def_faces": [3, 4], "totals": [17, 12], "hits": [2, 2]}  # fmt: skip
    assert DS.battle_result(view, fought) == (
        "Result in Numidia: Rome 2, 4, 5, 6 = 17, Carthage 3, 4 + 5 = 12; hits taken: Rome 2, Carthage 2"
    )
