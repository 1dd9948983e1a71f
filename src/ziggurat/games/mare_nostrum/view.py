"""Log redaction for live play (the server's per-seat log; rules spec section 7).

``redact_events`` works on events ``(actor, text, auto, seat concerned)`` as they happen:
another seat's trade offer stays ``offer ?`` (its reveal is told by its own log sentence),
another seat's legendary draw is ``draw ?`` and its Colossus good ``colossus ?``. Everything
else is public. Whole records are redacted by ``MareNostrumGame.redact_record``, which can
also show offers again once their trade is revealed.
"""

from __future__ import annotations

Event = tuple[int, str, bool, int]


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
