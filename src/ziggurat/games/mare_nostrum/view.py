"""Log redaction for live play (the server's per-seat log; rules spec section 7).

``redact_events`` works on events ``(actor, text, auto, seat concerned)`` as they happen:
another seat's trade offer stays ``offer ?`` (its reveal is told by its own log sentence),
another seat's legendary draw is ``draw ?`` and its Colossus good ``colossus ?``. Everything
else is public. Whole records are redacted by ``MareNostrumGame.redact_record``, which can
also show offers again once their trade is revealed.
"""

from __future__ import annotations

Event = tuple[int, str, bool, int]

FLAGS_FROM_STATE = True
"""Whether an action ends its player's turn, sets off chance or can be undone never hangs on
what a screen holds: the engine asks or plays each decision from public facts only, token
counts included (7.8), so who decides next is public, and every refill, draw and die is a
chance event. The server reads a seat's final flags on the true state
(``GameHooks.flags_from_state``)."""


def redact_events(events: list[Event], seat: int | None) -> list[str]:
    out = []
    for _who, text, _auto, concerned in events:
        words = text.split(" ")
        mine = seat is not None and concerned == seat
        if not mine and words[0] in ("draw", "colossus"):
            text = f"{words[0]} ?"
        elif not mine and words[0] == "offer" and (len(words) < 2 or words[1] != "size"):
            text = "offer ?"
        out.append(text)
    return out
