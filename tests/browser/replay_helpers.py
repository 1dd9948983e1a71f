"""Helpers of the tests comparing the replay page with a game record: the states of a record
ply by ply, and the board a game's board module draws for one of them, mounted the way the
table page mounts it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

import ziggurat
from ziggurat.engine.records import apply_recorded
from ziggurat.server.db import make_engine
from ziggurat.server.gamekit import seat_labels
from ziggurat.server.store import Store

MOUNT = """
async ([game, message, info]) => {
  const module = await import(`/boards/${game}.js`);
  const { t } = await import('/i18n.js');
  document.getElementById('mounted')?.remove();
  const box = document.createElement('div');
  box.id = 'mounted';
  box.style.cssText = 'position:absolute;left:-5000px;top:0;width:900px';
  box.innerHTML = `<div class="board"></div><div class="choice"></div><div class="turnbar"></div>
    <div class="players"></div><div class="general"></div>`;
  document.body.append(box);
  const q = (c) => box.querySelector(c);
  const els = { board: q('.board'), choice: q('.choice'), status: q('.turnbar'), players: q('.players'),
                general: q('.general') };
  const board = module.createBoard(els, { t: () => t, send: () => false, explain: async () => null });
  board.update(message, info);
  return els.board.innerHTML;
}
"""

RANDOM_IDS = re.compile(r"(ep-sw-[a-z_]+)-[0-9a-z]+")
"""The Epochs legend's swatch patterns get a random id each time they are drawn."""


def same_drawing(html: str) -> str:
    """The board's HTML with its random ids made equal."""
    return RANDOM_IDS.sub(r"\1-*", html)


def record_states(record: dict[str, Any]) -> list[Any]:
    """The state after each number of the record's actions: ``[0 actions, 1 action, ...]``."""
    states = [ziggurat.replay(record, upto=0)]
    for text in record["actions"]:
        state = states[-1].clone()
        state.apply(text)
        states.append(state)
    return states


def stored_record_states(database: Path, table_id: str) -> list[Any]:
    """``record_states`` of the record of a table's stored actions, read from the server's
    SQLite file (the record the API gives a seat keeps the other seats' secrets)."""
    store = Store(make_engine(f"sqlite:///{database}"))
    try:
        stored = store.load_table(table_id)
    finally:
        store.close()
    assert stored is not None
    game = ziggurat.load(stored.game, players=stored.players, **stored.options)
    final = game.new_initial_state()
    for row in stored.actions:
        apply_recorded(final, row.text)
    return record_states(ziggurat.record(final))


def record_board(page: Page, game: str, state: Any, ply: int) -> str:
    """The HTML the game's board module draws for ``state`` in the public view (a replay page's
    ``page``, whose table info it uses)."""
    info = page.evaluate("window.__replay.tableInfo(window.__replay.shown)")
    message = {
        "type": "state",
        "seat": None,
        "colour": None,
        "version": ply,
        "view": state.view(None),
        "legal": [],
        "log": [],
        "seat_labels": seat_labels(state),
        "status": "over" if state.is_terminal() else "playing",
        "result": state.returns() if state.is_terminal() else None,
        "outcome": None,
    }
    drawn: str = page.evaluate(MOUNT, [game, message, info])
    return drawn
