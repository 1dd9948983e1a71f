"""Victory (N6): the game ends as soon as a victory condition holds (N6.1-N6.5): the Pyramids
and the fifth tile in the buy turn, four capitals or legendary cities the moment the fourth is
controlled (or, with option ``capitals_victory_check: "end_of_military"``, at the end of the
Military phase), with its tie rule (N6.3, N6.5.2, D26, R32); the titles at the end of the
Claim phase (N6.4, in ``claim``)."""

from __future__ import annotations

from typing import Any, Final

from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

State = dict[str, Any]


def win(d: State, seat: int) -> None:
    """N6: the game ends at once."""
    d["winner"] = seat
    d["stage"] = "over"
    d["queue"] = []
    d["battle"] = None


def capitals_check(d: State) -> bool:
    """N4.14 / N6.3 with N6.5.2 (option ``victory_tie_capitals``, R32): True when the game is
    won or the Military leader's choice (D26) is due; False when play goes on to the Claim."""
    need = int(d["opts"]["capitals_to_win"])
    counts = city_counts(d)  # board.victory_cities of every seat
    rule = d["opts"]["victory_tie_capitals"]
    if max(counts) < need:
        return False
    if rule == "military_leader":
        tied = [s for s in range(d["n"]) if counts[s] >= need]
    else:
        tied = [s for s in range(d["n"]) if counts[s] == max(counts)]
    if len(tied) > 1 and rule == "most_capitals_then_military_level":
        level = {s: B.tracks(d, s)["military"] for s in tied}
        tied = [s for s in tied if level[s] == max(level.values())]
    if len(tied) == 1:
        win(d, tied[0])
        return True
    if rule == "most_capitals_then_play_on":
        return False  # a tie wins nothing: the game goes on
    d["tie"] = tied
    d["stage"] = "tie_win"
    d["queue"] = []  # N6: nothing else is played, the Military leader only names the winner
    d["battle"] = None
    return True


def capitals_at_once(d: State) -> None:
    """N6.3 as soon as it holds (option ``capitals_victory_check: "at_once"``): checked after
    every action, and only counted when some seat controls enough capitals and legendary
    cities to win."""
    seen = _LAST_COUNT[0]
    opts: dict[str, Any] = d["opts"]
    if (
        seen[0] is d["markers"]
        and seen[1] is d["buildings"]
        and seen[2] is d["occupy"]
        and seen[3] is opts
        and seen[4] == d["n"]
        and not seen[6]
    ):
        return  # most_cities(d) is the count kept for these tables, and nobody has enough
    if d["stage"] in ("over", "tie_win") or opts["capitals_victory_check"] != "at_once":
        return
    if most_cities(d) >= int(opts["capitals_to_win"]):
        capitals_check(d)  # the tie rule only when someone wins


_LAST_COUNT: Final[list[tuple[Any, ...]]] = [(None, None, None, None, 0, 0, True)]
"""The last :func:`most_cities` worked out, one tuple stored at once: the ``markers``,
``buildings`` and ``occupy`` tables and the options it read, the player count, the answer,
and whether it reaches the options' ``capitals_to_win``."""


def most_cities(d: State) -> int:
    """The most capitals and legendary cities one seat controls (``max(city_counts(d))``).

    Asked twice after every action, and the answer seldom changes: the ``markers``,
    ``buildings`` and ``occupy`` tables, all control reads (N0.5), are replaced whole whenever
    they change (``board.put``), never changed in place, so the answer for the same three
    tables is the one worked out last."""
    markers = d["markers"]
    buildings = d["buildings"]
    occupy = d["occupy"]
    opts = d["opts"]
    n: int = d["n"]
    seen = _LAST_COUNT[0]
    if seen[0] is markers and seen[1] is buildings and seen[2] is occupy and seen[3] is opts and seen[4] == n:
        top: int = seen[5]
        return top
    top = max(city_counts(d))
    _LAST_COUNT[0] = (markers, buildings, occupy, opts, n, top, top >= int(opts["capitals_to_win"]))
    return top


def city_counts(d: State) -> list[int]:
    """N6.3: the capitals and legendary cities each seat controls (``board.victory_cities``
    for every seat at once). Asked after every action: only the few slots a victory city may
    stand on are looked at (a board table), with N0.5's control inlined."""
    counts = [0] * d["n"]
    buildings = d["buildings"]
    occupy = d["occupy"]
    markers = d["markers"]
    for prov, slot in D.board(d["n"]).victory_slots:
        slots = buildings.get(prov)
        if slots is None or slot not in slots:
            continue
        occ = occupy.get(prov)
        who = occ.get(slot) if occ else None
        if who is None:
            who = markers.get(prov)
            if who is None:
                continue
        counts[who] += 1
    return counts


def tie_win_legal(d: State) -> list[str]:
    """D26: the Military leader names the winner among the tied players."""
    return [f"winner {s}" for s in d["tie"]]


def tie_win_effect(d: State, w: list[str]) -> None:
    win(d, int(w[1]))
