"""Victory (N6): the game ends at once for a winner (N6.1-N6.5); the capitals check at the end
of the Military phase with its tie rule (N6.3, N6.5.2, D26, R32)."""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import board as B

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
    counts = [B.victory_cities(d, s) for s in range(d["n"])]
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
    return True


def tie_win_legal(d: State) -> list[str]:
    """D26: the Military leader names the winner among the tied players."""
    return [f"winner {s}" for s in d["tie"]]


def tie_win_effect(d: State, w: list[str]) -> None:
    win(d, int(w[1]))
