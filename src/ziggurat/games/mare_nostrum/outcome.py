"""How a finished game of Mare Nostrum: Empires was won, for players (the server's game-over box
and lobby).

The winner is what the final state records (``winner``, set by ``victory.win``); the condition
is read from the final position the way the game's balance figures read it
(``bots.victory_condition``): the Pyramids (N6.1), five heroes and wonders (N6.2), four capitals
and legendary cities (N6.3), the three titles (N6.4), or a tie the Military leader settled
(N6.5.2, D26). A game stopped by the simulation option ``max_rounds`` has no winner. The scores
shown are what the conditions count: heroes and wonders, capitals and legendary cities, titles.
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.contract import State
from ziggurat.engine.messages import Message, message
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum.nouns import who

_RULES = {
    "pyramids": "N6.1",
    "heroes_wonders": "N6.2",
    "capitals": "N6.3",
    "titles": "N6.4",
    "tie": "N6.5.2",
}


def outcome(state: State) -> dict[str, Any]:
    """``{"condition", "rule", "winners", "summary", "scores", "labels"}`` of a finished game."""
    from ziggurat.games.mare_nostrum.bots import victory_condition

    s: Any = state
    d = s.d
    pos = state.to_position()
    n = int(d["n"])
    winner = d.get("winner")
    if winner is None:
        condition, rule, winners = "none", "", []  # max_rounds is not a rule of the game (section 10)
        summary: Message = message("mn.outcome.none")
    else:
        found = victory_condition(pos, d["opts"])
        condition = found if found in _RULES else "tie"
        rule = _RULES[condition]
        winners = [int(winner)]
        summary = _summary(condition, who(pos, int(winner)), rule, d["opts"])
    titles = d.get("titles") or {}
    scores = [
        [
            {"key": "tiles", "value": B.tiles_counted(d, q)},
            {"key": "cities", "value": B.victory_cities(d, q)},
            {"key": "titles", "value": sum(1 for holder in titles.values() if holder == q)},
        ]
        for q in range(n)
    ]
    labels = {
        "tiles": message("mn.outcome.tiles"),
        "cities": message("mn.outcome.cities"),
        "titles": message("mn.outcome.titles"),
    }
    return {
        "condition": condition,
        "rule": rule,
        "winners": winners,
        "summary": summary,
        "scores": scores,
        "labels": labels,
    }


def _summary(condition: str, winner: Message, rule: str, opts: dict[str, Any]) -> Message:
    if condition == "pyramids":
        return message("mn.outcome.pyramids", winner=winner, rule=rule)
    if condition == "heroes_wonders":
        return message("mn.outcome.heroes_wonders", winner=winner, n=int(opts["tiles_to_win"]), rule=rule)
    if condition == "capitals":
        return message("mn.outcome.capitals", winner=winner, n=int(opts["capitals_to_win"]), rule=rule)
    if condition == "titles":
        return message("mn.outcome.titles_won", winner=winner, rule=rule)
    return message("mn.outcome.tie", winner=winner, rule=rule)
