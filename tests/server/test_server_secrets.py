"""Whole games over the WebSocket, scanning every payload for other seats' secrets.

A scripted human (random legal actions from the messages it receives) plays with bot seats,
or three scripted humans play each other; a spectator watches. Every payload each socket
received is then compared with the true game (rebuilt from the server's stored actions):
views must equal the engine's view for that seat and must not show other colours' hidden
offering values, hands, new cards, the deck or pile tops the seat does not know; the legal
list goes only to the seat to move; log texts and sentences must not name another seat's
secret offering, card, peeked tile or order; records are redacted the same way.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import apply_log, live_table, new_table, receive, receive_state, wait_idle, ws_url

from ziggurat.games.mesopotamia.data import COLOUR_LETTERS, COLOURS

SECRET_KINDS = ("offer", "card", "peek", "order", "deal")
# The scripted human prefers actions that build huts (which hide offerings) and use cards,
# so that the scanned games exercise hidden information; otherwise it plays at random.
PREFERRED = ("hut", "offering", "holy", "pickup w", "pickup s", "play land", "order", "grow")


def _choose(legal: list[str], rng: random.Random) -> str:
    preferred = [a for a in legal if a.startswith(PREFERRED)]
    if preferred and rng.random() < 0.5:
        return rng.choice(preferred)
    return rng.choice(legal)


def _play(client: TestClient, seats: str, options: dict[str, Any], seed: int, bot: str) -> tuple[Any, dict]:
    """Play one game to its end; every message each socket received, by viewer."""
    t = new_table(client, seats=seats, options=options, seed=seed, bot=bot)
    wait_idle(client, t["table"])  # connect everyone at a quiet moment: then all see every change
    humans = [i for i, kind in enumerate(seats) if kind == "h"]
    viewers: list[int | None] = [*humans, None]
    tokens = {seat: t["seats"][seat]["token"] for seat in humans} | {None: t["spectator_token"]}
    rng = random.Random(seed)
    received: dict[int | None, list[dict[str, Any]]] = {v: [] for v in viewers}
    sockets = {v: client.websocket_connect(ws_url(t, tokens[v])) for v in viewers}
    for ws in sockets.values():
        ws.__enter__()
    try:
        while True:
            batch = {v: receive_state(ws) for v, ws in sockets.items()}
            for v, msg in batch.items():
                received[v].append(msg)
            assert len({m["version"] for m in batch.values()}) == 1
            if batch[None]["status"] == "over":
                break
            movers = [v for v, m in batch.items() if m["legal"]]
            assert len(movers) <= 1
            if movers:
                sockets[movers[0]].send_json(
                    {"type": "action", "action": _choose(batch[movers[0]]["legal"], rng)}
                )
        for seat in humans:  # the finished game refuses actions
            sockets[seat].send_json({"type": "action", "action": "end"})
            err = receive(sockets[seat])
            assert err["type"] == "error" and err["code"] == "game_over"
            received[seat].append(err)
    finally:
        for ws in sockets.values():
            ws.__exit__(None, None, None)
    for v in viewers:
        record = client.get(
            f"/api/tables/{t['table']}/record", headers={"X-Ziggurat-Token": tokens[v]}
        ).json()
        received[v].append({"type": "record", "record": record})
    return live_table(client, t["table"]), received


def _true_states(table: Any) -> list[Any]:
    """The true state after each number of stored actions (index = version)."""
    state = table.game.new_initial_state()
    states = [state.clone()]
    for row in table.rows:
        state.apply(row.text)
        states.append(state.clone())
    assert states[-1].fingerprint() == table.state.fingerprint()
    return states


def _check_view(view: dict[str, Any], true: Any, viewer: int | None) -> None:
    assert view == true.view(viewer)
    mine = None if viewer is None else COLOURS[viewer]
    assert view["deck"] is None
    for seat, pl in enumerate(view["players"]):
        if pl["colour"] == mine:
            continue
        shown = set(true.revealed[seat]) | set(true.delivered[seat])
        for pub, value in pl["offerings"]["placed"].items():
            if int(pub) not in shown:
                assert value is None, f"{mine} sees {pl['colour']}'s hidden offering {pub}"
            else:
                assert value == true.offer_val[seat][int(pub)]
        assert pl["offerings"]["unplaced"] is None
        assert pl["hand"] is None and pl["new_cards"] is None
    for pile, true_tops in zip(view["piles"], true.pile_tops, strict=True):
        for (kind, _), (_, knowers) in zip(pile["top"], true_tops, strict=True):
            if viewer is None or not knowers >> viewer & 1:
                assert kind is None, f"{mine} sees a pile top it does not know"


def _card_words(card: str) -> list[str]:
    return [card, card.replace("_", " ").title()]


def _check_log(log: list[dict[str, Any]], states: list[Any], viewer: int | None) -> int:
    """Entries align with the true events; another seat's secrets never show. Secrets checked."""
    final = states[-1]
    events = final.events()
    entries = [e for e in log if e["text"] != ""]
    assert len(entries) == len(events)
    checked = 0
    for (actor, text, _, turn_seat), entry in zip(events, entries, strict=True):
        words = text.split(" ")
        owner = turn_seat if actor < 0 else actor
        kind = words[0]
        if kind == "deal":
            owner = COLOUR_LETTERS.index(words[1])
        if kind in SECRET_KINDS and owner != viewer and text not in ("offer ?",):
            checked += 1
            assert entry["text"] != text or words[-1] == "?", (viewer, text, entry)
            assert "?" in entry["text"]
            secret = words[-1]
            sentence = entry["sentence"]
            if kind == "offer":
                assert "worth" not in sentence, (viewer, entry)
            elif kind in ("card", "deal"):
                assert not any(w in sentence for w in _card_words(secret)), (viewer, entry)
            else:
                for tile in secret.split(","):
                    assert tile not in sentence, (viewer, entry)
        for value in re.findall(r"worth (\d+)", entry["sentence"]):
            # a value in a sentence is one the viewer's view shows at that point
            view = states[entry["ply"]].view(viewer)
            shown = {v for pl in view["players"] for v in pl["offerings"]["placed"].values() if v is not None}
            assert int(value) in shown, (viewer, entry)
    return checked


def _check_record(record: dict[str, Any], states: list[Any], viewer: int | None) -> None:
    chosen = [e for e in states[-1].events() if not e[2]]
    assert len(record["actions"]) == len(chosen)
    for (actor, text, _, turn_seat), shown in zip(chosen, record["actions"], strict=True):
        kind = text.split(" ")[0]
        owner = turn_seat if actor < 0 else actor
        if kind == "deal":
            owner = COLOUR_LETTERS.index(text.split(" ")[1])
        if kind in SECRET_KINDS and owner != viewer:
            assert shown.endswith("?"), (viewer, text, shown)


def _scan(table: Any, received: dict[int | None, list[dict[str, Any]]]) -> int:
    states = _true_states(table)
    checked = 0
    for viewer, messages in received.items():
        log: list[dict[str, Any]] = []
        for msg in messages:
            if msg["type"] == "record":
                _check_record(msg["record"], states, viewer)
                continue
            if msg["type"] != "state":
                continue
            true = states[msg["version"]]
            _check_view(msg["view"], true, viewer)
            assert bool(msg["legal"]) == (viewer is not None and true.current_player() == viewer)
            if msg["legal"]:
                assert msg["legal"] == list(true.legal_actions())
            log = apply_log(log, msg)
        assert messages[-2 if viewer is None else -3]["status"] == "over"
        checked += _check_log(log, states, viewer)
    return checked


def _bot_kind(client: TestClient) -> tuple[str, int]:
    """The heuristic bot if the game has one (with fewer rounds, it thinks), else random."""
    bots = next(g for g in client.get("/api/games").json() if g["id"] == "mesopotamia")["bots"]
    return ("heuristic", 12) if "heuristic" in bots else ("random", 30)


@pytest.mark.slow
def test_human_with_two_bots_never_sees_a_secret(client: TestClient) -> None:
    bot, rounds = _bot_kind(client)
    table, received = _play(client, "bhb", {"round_limit": rounds}, seed=2024, bot=bot)
    assert table.status == "over"
    assert _scan(table, received) > 0


@pytest.mark.parametrize(
    ("seed", "hidden"),
    [(1, {"offer", "offering", "card", "deal"}), (2, {"peek", "order", "card", "deal"})],
)
@pytest.mark.slow
def test_three_humans_never_see_each_others_secrets(client: TestClient, seed: int, hidden: set[str]) -> None:
    options = {"round_limit": 20, "variant_start_with_one_card": True}
    table, received = _play(client, "hhh", options, seed=seed, bot="random")
    assert table.status == "over"
    assert _scan(table, received) > 0
    kinds = {e[1].split(" ")[0] for e in table.state.events()}
    assert hidden <= kinds  # the game exercised these kinds of hidden information
