"""The terminal board, the SVG map and the told log of Mesopotamia: Epochs, on positions from
seeded random play (2 to 5 players).

All three read only views (rules spec §6): they must draw every area and tribe of the view,
fit the terminal width, parse as SVG, and never name a card the viewer may not know.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from rich.console import Console

import ziggurat
from ziggurat.games.mesopotamia_epochs import describe
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_MAP, DEFAULT_PEOPLES, SYMBOLS
from ziggurat.games.mesopotamia_epochs.render_svg import _default_layout, render_svg
from ziggurat.games.mesopotamia_epochs.render_text import BASIC, render_board

SVG = "{http://www.w3.org/2000/svg}"
GAMES = ((2, 1), (3, 2), (4, 3), (5, 4))


def _play(players: int, seed: int) -> list[tuple[Any, list[Any], Any]]:
    """Every step of one seeded random game: (state before, events, state after)."""
    game = ziggurat.load("mesopotamia-epochs", players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    steps = []
    while not state.is_terminal():
        before = state.clone()
        mark = describe.log_mark(state)
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        steps.append((before, describe.events_since(state, mark), state.clone()))
    return steps


@pytest.fixture(scope="module")
def games() -> dict[tuple[int, int], list[tuple[Any, list[Any], Any]]]:
    return {(n, seed): _play(n, seed) for n, seed in GAMES}


def _samples(steps: list[tuple[Any, list[Any], Any]]) -> list[Any]:
    """Early, mid and end positions, and the first pending combat, keep, displacement and landing."""
    states = [steps[0][0], steps[len(steps) // 3][0], steps[2 * len(steps) // 3][0], steps[-1][2]]
    for kind in ("combat", "keep", "displace", "landing"):
        hit = next(
            (b for b, _, _ in steps if b.to_position()["pending"] and b.to_position()["pending"][0] == kind),
            None,
        )
        if hit is not None:
            states.append(hit)
    return states


def _hidden(state: Any, seat: int | None) -> set[str]:
    """Names of the Peoples whose card ``seat`` may not know in ``state`` (§6)."""
    pos = state.to_position()
    me = None if seat is None else SYMBOLS[seat]
    out = set()
    for pl in pos["players"]:
        for card in pl["cards"]:
            if not card["public"] and me not in card["known_by"]:
                out.add(card["people"])
    out |= {c["people"] for c in pos["set_aside"] if not c["public"]}
    out |= set(pos["deck"])
    pend = pos["pending"]
    if pend and pend[0] == "keep" and pos["draw_order"][pos["draw_index"]] != me:
        out.add(pend[1])
    return {DEFAULT_PEOPLES.names[DEFAULT_PEOPLES.index[p]] for p in out}


def _names_in(text: str, names: set[str]) -> list[str]:
    return [n for n in names if re.search(rf"\b{re.escape(n)}\b", text)]


def _text(view: dict[str, Any], width: int = 100, palette: Any = None) -> str:
    con = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    con.print(render_board(view, ["random"] * len(view["players"]), width, palette=palette or BASIC))
    return con.export_text().replace("\u00a0", " ")


@pytest.mark.parametrize(("players", "seed"), GAMES)
@pytest.mark.slow
def test_text_board_shows_the_map_within_100_columns_and_no_secret(
    games: Any, players: int, seed: int
) -> None:
    for state in _samples(games[(players, seed)]):
        for seat in [None, *range(players)]:
            view = state.view(seat)
            text = _text(view)
            assert max(len(line) for line in text.splitlines()) <= 100
            assert f"Epoch {view['epoch']} of 5" in text
            holders = describe.owners(view)
            for area, people, count in view["areas"]:
                name = DEFAULT_MAP.names[DEFAULT_MAP.index[area]]
                holder = (
                    f"{DEFAULT_PEOPLES.names[DEFAULT_PEOPLES.index[people]]} {holders[people][0].upper()}"
                )
                assert re.search(rf"(^| ){name} [^●]*{holder} +{'●' * count}(?!●)", text, re.M), (area, count)
            for pl in view["players"]:
                assert pl["symbol"].capitalize() in text
            assert _names_in(text, _hidden(state, seat)) == [], (seat, view["pending"])
            assert ("Your secrets" in text) == (seat is not None)


def test_text_board_narrow_and_own_card_shown() -> None:
    game = ziggurat.load("mesopotamia-epochs", players=3)
    state = game.new_initial_state()
    state.apply("deal brooch guti")
    state.apply("deal head akkadians")
    text = _text(state.view(0), width=70)
    assert max(len(line) for line in text.splitlines()) <= 70
    assert "you hold the Guti (Epoch 1)" in text
    assert "Akkadians" not in _text(state.view(2))
    assert "Dealing the Epoch 1 cards: the next goes to Mask" in text


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_svg_parses_draws_every_area_and_no_secret(games: Any, players: int, seed: int) -> None:
    placeable = {a for i, a in enumerate(DEFAULT_MAP.ids) if DEFAULT_MAP.kinds[i] != "sea"}
    for state in _samples(games[(players, seed)]):
        for seat in [None, *range(players)]:
            view = state.view(seat)
            root = ET.fromstring(render_svg(view, ["random"] * players))
            assert root.tag == f"{SVG}svg"
            areas = {g.get("data-area"): g for g in root.iter(f"{SVG}g") if g.get("class") == "area"}
            assert set(areas) == placeable
            for area, people, count in view["areas"]:
                assert areas[area].get("data-people") == people
                assert areas[area].get("data-tribes") == str(count)
            drawn = {
                (g.get("data-from"), g.get("data-to"))
                for g in root.iter(f"{SVG}g")
                if g.get("class") == "difficult"
            }
            assert drawn == {(DEFAULT_MAP.ids[a], DEFAULT_MAP.ids[b]) for a, b in DEFAULT_MAP.difficult}
            words = " ".join(t for el in root.iter() for t in (el.text, el.get("data-people")) if t)
            assert _names_in(words, _hidden(state, seat)) == [], (seat, view["pending"])
            hidden_ids = {
                p
                for p in DEFAULT_PEOPLES.ids
                if DEFAULT_PEOPLES.names[DEFAULT_PEOPLES.index[p]] in _hidden(state, seat)
            }
            assert not any(el.get("data-people") in hidden_ids for el in root.iter())
            markers = [g for g in root.iter(f"{SVG}g") if g.get("class") == "vp-marker"]
            assert [
                int(g.get("data-vp", ""))
                for g in sorted(markers, key=lambda g: SYMBOLS.index(g.get("data-symbol", "")))
            ] == [pl["vp"] for pl in view["players"]]


def test_svg_marks_an_attack_and_the_result() -> None:
    steps = _play(3, 5)
    combat = next(b for b, _, _ in steps if (b.to_position()["pending"] or [None])[0] == "combat")
    root = ET.fromstring(render_svg(combat.view(None)))
    assert [c for c in root.iter(f"{SVG}circle") if c.get("class") == "focus"]
    texts = " ".join(el.text or "" for el in root.iter(f"{SVG}text"))
    assert "Attack in progress" in texts
    end = ET.fromstring(render_svg(steps[-1][2].view(1)))
    result = " ".join(el.text or "" for el in end.iter(f"{SVG}text") if el.get("class") == "result")
    assert re.search(r"(wins|share the victory) with \d+ VP", result), result


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_told_log_never_names_a_hidden_card(games: Any, players: int, seed: int) -> None:
    own_told = 0
    for before, events, after in games[(players, seed)]:
        for seat in [None, *range(players)]:
            lines = describe.describe_step(events, before.view(seat), after.view(seat))
            assert lines, events
            text = "\n".join(t for t, _ in lines)
            assert "?" not in text and ": roll" not in text and ": place" not in text, text
            assert _names_in(text, _hidden(after, seat)) == [], (seat, events, text)
            if seat is not None and re.search(
                rf"{SYMBOLS[seat].capitalize()} (is dealt|draws|keeps|passes) the ", text
            ):
                own_told += 1
    assert own_told >= players


def test_sentences_for_every_action_kind() -> None:
    told = []
    for n, seed in GAMES:
        for before, events, after in _play(n, seed + 10):
            told.extend(t for t, _ in describe.describe_step(events, before.view(0), after.view(0)))
    text = "\n".join(told)
    for pattern in (r"Brooch is dealt the \w+", r"\w+ is dealt a card", r"draws a card", r"\w+ keeps",
                    r"passes a card to \w+", r"moves a displaced tribe of the \w+ from \w+ to \w+",
                    r"place a tribe in \w+", r"attack \w+, held by \d tribes? of the",
                    r"attack \w+ from \w+: \d and \d( with Military)? against \d(,\d)?",
                    r"the attacker wins", r"the defender wins", r"a tie: each side loses a tribe",
                    r"stop placing", r"score \d+ VP", r"Round #\d+: the", r"Epoch 2 begins",
                    r"Set aside, never in play", r"Game over: \w+ (wins|and)"):  # fmt: skip
        assert re.search(pattern, text), pattern


def test_replayed_redacted_texts_are_told_without_the_card() -> None:
    game = ziggurat.load("mesopotamia-epochs", players=2)
    state = game.new_initial_state()
    before = state.view(1)
    mark = describe.log_mark(state)
    state.apply("deal brooch sumerians")
    events = describe.events_since(state, mark)
    events[0] = (events[0][0], "deal brooch ?", False, events[0][3])
    assert describe.describe_step(events, before, state.view(1)) == [("Brooch is dealt a card", False)]
    mine = describe.describe_step(describe.events_since(state, mark), state.view(0), state.view(0))
    assert mine[0] == ("Brooch is dealt the Sumerians", False)


def test_action_groups_and_help() -> None:
    groups = describe.action_groups(["place babylon", "place ur", "stop"])
    assert [t.split(":")[0] for t, _ in groups] == ["place", "stop"]
    assert groups[0][1] == ["place babylon", "place ur"]
    assert "pass head" in describe.NOTATION_HELP


def test_a_roll_then_a_removal_in_the_same_step() -> None:
    """The Sea Peoples take Ahhiyawa with their last tribe; the Phrygians then start there and
    the Sea Peoples' tribe, with nowhere to go, is removed (E7.3) in the same step."""
    step = next((b, e, a) for b, e, a in _play(4, 34) if e[0][1].startswith("roll") and e[-1][1] == "remove")
    lines = [t for t, _ in describe.describe_step(step[1], step[0].view(None), step[2].view(None))]
    assert "the attacker wins and takes Ahhiyawa" in lines[0], lines
    assert "Round #17: the Phrygians (Brooch), enter at Ahhiyawa, 5 tribes to place" in lines
    assert lines[-1] == "A displaced tribe of the Sea Peoples in Ahhiyawa has nowhere to go and is removed"


def test_svg_ur_uruk_corner_discs_are_full_size_and_apart() -> None:
    """§3.2: Sumer's corner of the default map (Ur, Uruk, Babylon, Akkad, Kaldu, Elam) is drawn
    with room: each disc at full size, so its name, tribes and People's initials stay inside
    it, and no two discs overlap."""
    lay = _default_layout(DEFAULT_MAP.map_id, DEFAULT_PEOPLES.peoples_id)
    corner = ("ur", "uruk", "babylon", "akkad", "kaldu", "elam")
    full = max(lay.r.values())
    for a in corner:
        assert lay.r[a] == full, (a, lay.r[a])
        for b in lay.pos:
            if b != a and lay.kind[b] != "sea":
                (ax, ay), (bx, by) = lay.pos[a], lay.pos[b]
                assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 >= lay.r[a] + lay.r[b], (a, b)
