"""How a finished game of Mesopotamia was won, for players (the server's game-over box and lobby).

The game ends at a fourth delivery (M16.1); with the engine's optional round limit it ends
with no winner (R57), or with the leader on offerings delivered, their value and Mana when
``rank_non_winners`` is on (M16.2). The scores that mean something here are the offerings
each tribe delivered and the Mana it holds. Read from the final state's position.
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia.vocabulary import colour_named


def outcome(state: State) -> dict[str, Any]:
    """``{"condition", "rule", "winners", "summary", "scores", "labels"}`` of a finished game."""
    pos = state.to_position()
    players = pos["players"]
    colours = [p["colour"] for p in players]
    delivered = [len(p["offerings"]["delivered"]) for p in players]
    offerings = len(state.game.data["offeringValues"])  # type: ignore[attr-defined]
    winner = pos.get("winner")
    if winner is None:
        condition, rule, winners = "round_limit", "R57", []
        summary = message("meso.outcome.round_limit", rule=rule)
    else:
        seat = colours.index(winner)
        winners = [seat]
        if delivered[seat] == offerings:
            condition, rule = "fourth_offering", "M16.1"
            summary = message(
                "meso.outcome.fourth_offering", winner=colour_named(winner), n=offerings, rule=rule
            )
        else:
            condition, rule = "round_limit_ranked", "M16.2"
            summary = message("meso.outcome.round_limit_ranked", winner=colour_named(winner), rule=rule)
    scores = [
        [{"key": "offerings", "value": delivered[i]}, {"key": "mana", "value": int(p["mana"])}]
        for i, p in enumerate(players)
    ]
    labels = {"offerings": message("meso.outcome.offerings"), "mana": message("meso.outcome.mana")}
    return {
        "condition": condition,
        "rule": rule,
        "winners": winners,
        "summary": summary,
        "scores": scores,
        "labels": labels,
    }
