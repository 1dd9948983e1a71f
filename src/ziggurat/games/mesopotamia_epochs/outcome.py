"""How a finished game of Mesopotamia: Epochs was won, for players (the server's game-over box
and lobby).

After the last People round of Epoch 5 (E15.1) the most Victory Points win (E15.2); a tie on VP
goes to the option ``end_tiebreak``'s keys, most areas held and then most double-value areas
(R25), and a tie on all of them is a shared victory. The scores shown are each seat's VP and the
areas it holds, read from the final state (its ranking, E15.3).
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs.rounds import ranking
from ziggurat.games.mesopotamia_epochs.words import symbol


def outcome(state: State) -> dict[str, Any]:
    """``{"condition", "rule", "winners", "summary", "scores", "labels"}`` of a finished game."""
    s: Any = state
    groups = ranking(s)
    winners = sorted(groups[0])
    names = [symbol(state.game.seat_names()[q]) for q in winners]
    vp = [int(v) for v in s.vp]
    tied_on_vp = [q for q in range(s.n) if vp[q] == vp[winners[0]]]
    if len(winners) > 1:
        condition, rule = "shared", "R25"
        summary = message("epochs.outcome.shared", winners=names, vp=vp[winners[0]], rule=rule)
    elif len(tied_on_vp) > 1:
        condition, rule = "tiebreak", "R25"
        summary = message("epochs.outcome.tiebreak", winner=names[0], vp=vp[winners[0]], rule=rule)
    else:
        condition, rule = "most_vp", "E15.2"
        summary = message("epochs.outcome.most_vp", winner=names[0], vp=vp[winners[0]], rule=rule)
    areas = [_areas(s, q) for q in range(s.n)]
    scores = [[{"key": "vp", "value": vp[q]}, {"key": "areas", "value": areas[q]}] for q in range(s.n)]
    labels = {"vp": message("epochs.outcome.vp"), "areas": message("epochs.outcome.areas")}
    return {
        "condition": condition,
        "rule": rule,
        "winners": winners,
        "summary": summary,
        "scores": scores,
        "labels": labels,
    }


def _areas(s: Any, seat: int) -> int:
    """Areas ``seat``'s peoples hold at the end (the first tie-break key of R25)."""
    return sum(s.held[p].bit_count() for p, o in enumerate(s.owner) if o == seat)
