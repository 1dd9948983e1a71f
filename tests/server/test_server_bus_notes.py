"""Notes between server processes (server/bus.py): a note's payload reads back as the note
(the action left out when it would be too long for ``NOTIFY``), and every payload a process
sends begins with its :meth:`Note.origin_prefix`, which no other process's payload begins
with: a process skips its own notes by that prefix, without reading them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ziggurat.server.bus import MAX_PAYLOAD, Note

ORIGINS = st.text(min_size=1, max_size=40)


@given(
    origin=ORIGINS, other=ORIGINS, text=st.text(max_size=60), kind=st.sampled_from(["action", "meta", "chat"])
)
def test_a_payload_begins_with_its_origins_prefix_and_no_others(
    origin: str, other: str, text: str, kind: str
) -> None:
    note = Note(origin, "t1", kind, 3, 4, text, 1, True, data={"seat": 1} if kind == "chat" else None)
    payload = note.encode()
    assert payload.startswith(Note.origin_prefix(origin))
    assert payload.startswith(Note.origin_prefix(other)) == (other == origin)
    back = Note.decode(payload)
    assert back is not None and (back.origin, back.table, back.kind, back.revision) == (origin, "t1", kind, 3)
    if kind == "action":
        assert (back.ply, back.text, back.actor, back.barrier) == (4, text, 1, True)


def test_a_note_too_long_leaves_its_action_out() -> None:
    note = Note("p", "t1", "action", 2, 9, "x" * MAX_PAYLOAD, 0, False)
    payload = note.encode()
    assert len(payload.encode()) <= MAX_PAYLOAD and payload.startswith(Note.origin_prefix("p"))
    back = Note.decode(payload)
    assert back is not None and back.text is None and back.ply == 9  # the others read it from the database
