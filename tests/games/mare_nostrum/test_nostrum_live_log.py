"""The live per-seat log (rules spec section 7): offers, legendary draws and Colossus goods
of other seats are hidden; everything else is public, so a log stays readable."""

from __future__ import annotations

import random

import ziggurat
from ziggurat.games.mare_nostrum.view import redact_events


def _events(seed: int) -> list[tuple[int, str, bool, int]]:
    game = ziggurat.load("mare-nostrum", players=3)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_terminal():
            break
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return state.events()


def test_other_seats_offers_hidden_own_shown_7() -> None:
    events = _events(4)
    for seat in (None, 0, 1, 2):
        texts = redact_events(events, seat)
        assert len(texts) == len(events)
        for (_, text, _, concerned), shown in zip(events, texts, strict=True):
            kind = text.split(" ")[0]
            secret = kind in ("draw", "colossus") or (kind == "offer" and not text.startswith("offer size"))
            if secret and concerned != seat:
                assert shown == f"{kind} ?"
            else:
                assert shown == text
    assert any(t == "offer ?" for t in redact_events(events, None))
    assert sum(t.endswith("?") for t in redact_events(events, None)) < len(events) // 4
