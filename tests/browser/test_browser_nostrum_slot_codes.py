"""Mare Nostrum: Empires map, read on a 1280 x 800 desktop at 100%: the slot codes of a mid-game
table ("MKT", "CAP", a caravan's good) read at about 8 CSS px, in English and French, each inside
its slot and none over another code, a name, a count, a piece or a fortress; five seats' legions
in one province keep clear of a fortress drawn there."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from browser_helpers import HUMAN, NOSTRUM_MAP_MEASURES, open_table
from playwright.sync_api import Page

import ziggurat
from ziggurat.games.mare_nostrum.position import load_position

GAME = "mare-nostrum"
DESKTOP = {"viewport": {"width": 1280, "height": 800}}

CODES = (
    """
() => {"""
    + NOSTRUM_MAP_MEASURES
    + """
  const codes = [...svg.querySelectorAll('text.slot-txt')];
  const others = [...svg.querySelectorAll('text.name, text.unit-txt, text.marker-txt, .piece, .fortress, .marker')];
  const clashes = [];
  codes.forEach((p, i) => codes.slice(i + 1).forEach((q) => {
    if (hit(box(p), box(q))) clashes.push(`${p.textContent}@${where(p)} / ${q.textContent}@${where(q)}`);
  }));
  for (const p of codes) for (const q of others) {
    if (hit(box(p), box(q))) clashes.push(`${p.textContent}@${where(p)} / ${q.textContent || q.getAttribute('class')}@${where(q)}`);
  }
  // each code inside its slot's box (a code wider than its slot is narrowed to it)
  const outside = codes.filter((e) => {
    const t = box(e); const s = box(e.parentNode.querySelector('rect.slot'));
    return t.x < s.x - 0.5 || t.r > s.r + 0.5 || t.y < s.y - 1 || t.b > s.b + 1;
  }).map((e) => `${e.textContent}@${where(e)}`);
  return { px: Math.min(...codes.map(px)), codes: codes.length, built: svg.querySelectorAll('.built .slot-txt').length,
           texts: [...new Set(codes.map((e) => e.textContent))].sort(), clashes, outside };
}
"""
)

CROWD = """
(area) => {
  const svg = document.querySelector('.mn-map');
  const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const g = svg.querySelector(`.prov[data-area="${area}"]`);
  const r = (e) => e.getBoundingClientRect();
  const fort = r(g.querySelector('.fortress'));
  const card = r(g.querySelector('rect.box'));
  const pieces = [...g.querySelectorAll('.units.legion .piece')].map(r).sort((a, b) => a.left - b.left);
  const gaps = pieces.slice(1).map((p, i) => (p.left - pieces[i].right) / k);
  const last = pieces[pieces.length - 1];
  return { pieces: pieces.length, gaps, toFort: (fort.left - last.right) / k,
           over: last.bottom > fort.top && last.top < fort.bottom,
           inCard: pieces.every((p) => p.left >= card.left && p.right <= card.right && p.bottom <= card.bottom),
           counts: g.querySelectorAll('.units.legion .unit-txt').length };
}
"""


@pytest.fixture(scope="module")
def pserver(tmp_path_factory: pytest.TempPathFactory, start_server: Any) -> Iterator[Any]:
    """A server that creates tables from positions."""
    with start_server(
        tmp_path_factory.mktemp("nostrum-slots"), "bot_delay=0.05, allow_positions=True"
    ) as srv:
        yield srv


def _midgame(seed: int = 11) -> tuple[Any, int]:
    """Five seats played at random to a Buy turn of round 3: buildings, occupied slots, fortresses."""
    rng = random.Random(seed)
    st = ziggurat.load(GAME, players=5).new_initial_state()
    while not st.is_terminal():
        who = st.current_player()
        if who >= 0 and st.view(who)["round"] >= 3 and st.view(who)["stage"] == "buy_turn":
            return st, who
        st.apply(
            ziggurat.sample_chance(st, rng)
            if who == ziggurat.CHANCE
            else rng.choice(list(st.legal_actions()))
        )
    raise LookupError("the game ended before round 3")


def _open(new_page: Any, server: Any, position: dict[str, Any], seat: int) -> Page:
    """The table of ``position`` (every seat a person: nothing moves) as ``seat`` sees it."""
    n = int(position["num_players"])
    body = {"game": GAME, "players": n, "seats": [HUMAN] * n, "seed": 3, "position": position}
    answer = server.request("POST", "/api/tables", body)
    page: Page = new_page(**DESKTOP)
    open_table(page, server.url(answer["seats"][seat]["link"]))
    page.wait_for_selector(".mn-map .slot-txt")
    return page


def test_slot_codes_read_at_8_px_without_overlapping(new_page: Any, pserver: Any, shots: Any) -> None:
    state, seat = _midgame()
    page = _open(new_page, pserver, state.to_position(), seat)
    found = page.evaluate(CODES)
    assert found["codes"] > 60 and found["built"] > 30, found
    assert found["px"] >= 7.9, found
    assert found["clashes"] == [], found["clashes"]
    assert found["outside"] == [], found["outside"]
    page.locator(".mn-map").screenshot(path=str(shots / "nostrum_slot_codes_en.png"))
    page.click(".lang-btn[data-lang='fr']")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.mn-map .slot-txt')].some((e) => e.textContent === 'CITÉ')"
    )
    found = page.evaluate(CODES)
    assert found["px"] >= 7.9, found
    assert found["clashes"] == [], found["clashes"]
    assert found["outside"] == [], found["outside"]
    page.locator(".mn-map").screenshot(path=str(shots / "nostrum_slot_codes_fr.png"))


def test_five_seats_legions_keep_clear_of_a_fortress(new_page: Any, pserver: Any, shots: Any) -> None:
    state, seat = _midgame()
    position = state.to_position()
    assert position["fortresses"].get("aegyptus") is not None  # a fortress in a province of five slots
    position["legions"]["aegyptus"] = [1, 1, 1, 1, 1]
    load_position(state.game, position)  # a position the engine takes
    page = _open(new_page, pserver, position, seat)
    found = page.evaluate(CROWD, "aegyptus")
    assert found["pieces"] == 5 and found["counts"] == 5, found
    assert found["over"], found  # the row of legions is level with the fortress
    # beyond the strokes (a piece's 0.75 units outside its shape, the fortress's 0.4)
    assert found["toFort"] >= 1.5, found
    assert min(found["gaps"]) >= 1.5, found
    assert found["inCard"], found
    page.locator(".mn-map [data-area='aegyptus']").screenshot(
        path=str(shots / "nostrum_five_legions_fortress.png")
    )
    found = page.evaluate(CODES)
    assert found["clashes"] == [], found["clashes"]
