"""Mare Nostrum's cut-off evaluation for search: each seat's chance to win, in [0, 1].

A seat is as close to winning as it is to the nearest of the four victories (N6), helped a
little by the others and by its economy:

- **five tiles** (N6.2): hero and wonder tiles counted / ``tiles_to_win``;
- **capitals** (N6.3): capitals and legendary cities controlled / ``capitals_to_win``;
- **titles** (N6.4): per track (N0.7, N5.1), how safely the seat leads it: a logistic of its
  level minus the best other level (a tie counts half a level for the title holder, who
  chooses, N5.2), averaged over the three tracks and raised to a power so that leading all
  three counts much more than leading one;
- **economy**: Trade and Culture levels, which make the resources that buy everything (N1).

``points = NEAREST * max(progress) + SUM * sum(progress) + ECONOMY * economy``, and points
become chances with a softmax; the weights and ``T`` were fitted on heuristic self-play
(log-likelihood of the eventual winner: -0.75 per position against -1.10 for a coin with
three sides, 3 players). Resource tokens in hand predict a win too (the Pyramids, N6.1), but
they are left out on purpose: tokens are spent or discarded in every buy turn (N3.13), so a
search cut off before the buy would learn to hold them. The state read is the sampled world
the search plays in.
"""

from __future__ import annotations

import math
from typing import Any

from ziggurat.bots.playout import win_chances
from ziggurat.engine.contract import State
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D

NEAREST = 0.5
SUM = 1.0
ECONOMY = 0.1
TITLE_SCALE = 1.5  # levels of lead for a title to look about 2 to 1 safe
TITLE_POWER = 8.0
TEMPERATURE = 0.2

SEARCH_DEFAULTS = {"root": "paired", "width": 4, "depth": 1, "plies": 40, "confidence": 1.0}
"""Search settings (docs/bots.md, "Paired root"): four candidates compared in paired rounds,
each played out by the heuristic bots for 40 decisions and to the end of the phase under
way, then evaluated (a whole game costs 70 to 120 ms: too dear to play to the end)."""


def progress(d: dict[str, Any]) -> list[list[float]]:
    """Per seat: ``[tiles, capitals, titles, economy]`` (see the module docstring)."""
    n = d["n"]
    opts = d["opts"]
    levels = [B.tracks(d, s) for s in range(n)]
    out = []
    for s in range(n):
        tiles = B.tiles_counted(d, s) / max(1, int(opts["tiles_to_win"]))
        caps = B.victory_cities(d, s) / max(1, int(opts["capitals_to_win"]))
        lead = 0.0
        for t in D.TRACKS:
            margin: float = levels[s][t] - max(levels[o][t] for o in range(n) if o != s)
            if margin == 0 and d["titles"].get(t) == s:
                margin = 0.5
            lead += 1.0 / (1.0 + math.exp(-margin / TITLE_SCALE))
        titles = (lead / len(D.TRACKS)) ** TITLE_POWER
        pyramids = (
            0.0 if d["pyramids"] is not None else min(1.0, B.n_tokens(d, s) / int(opts["pyramids_cost"]))
        )
        economy = float(levels[s]["trade"] + levels[s]["culture"])
        out.append([tiles, caps, titles, pyramids, economy])
    return out


def points(d: dict[str, Any]) -> list[float]:
    out = []
    for tiles, caps, titles, pyramids, economy in progress(d):
        near = (tiles, caps, titles, pyramids)
        out.append(NEAREST * max(near) + SUM * sum(near) + ECONOMY * economy)
    return out


def chances(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's chance to win from its score (softmax at this game's temperature)."""
    return win_chances(scores, temperature)


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance to win (the returns once the game is over)."""
    if state.is_terminal():
        return state.returns()
    return chances(points(state.d))  # type: ignore[attr-defined]


def phase_of(state: State) -> tuple[int, str]:
    """The round and phase under way (production, trade, buy, military, claim: N1-N5):
    search evaluates at the end of a phase, when every seat has had its part of it."""
    d: dict[str, Any] = state.d  # type: ignore[attr-defined]
    stage: str = d["stage"]
    return (int(d["round"]), stage.split("_", 1)[0] if stage.startswith(_PHASED) else stage)


_PHASED = ("trade_", "buy_", "mil_", "claim_")


def rollout_view(state: State, seat: int) -> dict[str, Any]:
    """A cheap stand-in for ``state.view(seat)`` for the heuristic bot in playouts.

    ``view`` copies the whole position twice (JSON and deep copy); the heuristic bot reads
    the position without changing it, plus ``res_counts``. This shares the state's
    containers instead, so it is for sampled worlds only, where every secret is a sample.
    """
    d: dict[str, Any] = state.d  # type: ignore[attr-defined]
    v = dict(d)
    v["res_counts"] = [B.n_tokens(d, s) for s in range(d["n"])]
    v["viewer"] = seat
    return v


__all__ = ["TEMPERATURE", "chances", "evaluate", "phase_of", "points", "progress", "rollout_view"]
