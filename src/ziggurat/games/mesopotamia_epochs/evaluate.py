"""Mesopotamia: Epochs' cut-off evaluation for search: each seat's chance to win, in [0, 1].

The game is won on VP (E15), and VP come only from scoring rounds (E14: each People scores
its areas at the end of its round, 2 for a double-value area, twice that for its bonus
area). So a seat's standing is its VP plus what its Peoples on the map should still score,
valued as the heuristic bot values an area (:class:`~.bots_model.Picture`, from the seat's
own side):

- this Epoch, once more for each of its Peoples whose round is still to come (E4.2) or under
  way (the active People scores when its round ends);
- in later Epochs, each area's ``hold_value``: its score per round times the chance of still
  holding it, round after round, given the Peoples around it that may attack (E12) or enter
  (E7) and the tribes defending it;
- a People of this Epoch whose card the seat holds but which has not entered yet counts
  :data:`ENTRY_AREAS` areas per tribe of its first pool (E5.1), kept at :data:`FUTURE_KEEP`
  per later Epoch.

The totals become chances with a softmax, ``T`` (:data:`TEMPERATURE`, in VP) fitted on
heuristic self-play (log-likelihood of the winner: -0.79 per position against -1.10 for a
three-sided coin, 3 players). The state read is the sampled world the search plays in.
"""

from __future__ import annotations

from ziggurat.bots.playout import win_chances
from ziggurat.engine.contract import State
from ziggurat.games.mesopotamia_epochs.bots_model import Picture, bits
from ziggurat.games.mesopotamia_epochs.position import to_position
from ziggurat.games.mesopotamia_epochs.rounds import round_score
from ziggurat.games.mesopotamia_epochs.state import EpochsState

TEMPERATURE = 18.0

SEARCH_DEFAULTS = {"root": "paired", "width": 5, "depth": 1, "plies": 12, "confidence": 1.0}
SEARCH_DEFAULTS_BY_PLAYERS = {2: {"plies": 100_000}}
"""Search settings (docs/bots.md, "Paired root"), chosen in seeded matches against heuristic
bots (docs/strength.md): with two players a whole game of heuristic playout costs some 30 ms
and playing to the end did best; with more, the playouts are dearer and noisier, and cutting
them off after 12 decisions (then the People round under way) with :func:`evaluate` did best."""
FUTURE_KEEP = 0.4
ENTRY_AREAS = 0.5


def projected(s: EpochsState) -> list[float]:
    """Each seat's VP plus what its Peoples should still score (see the module docstring)."""
    peoples = s.rules.peoples
    epoch = s.epoch
    later = sum(FUTURE_KEEP**k for k in range(1, peoples.epochs - epoch + 1))
    pos = to_position(s)
    out = [float(v) for v in s.vp]
    for seat in range(s.n):
        pic = Picture(s.game, pos, seat)  # the seat's own side: whom it fears, what it may lose
        for p, owner in enumerate(s.owner):
            if owner != seat:
                continue
            comes = pic.acts_later(p)
            if s.held[p]:
                if comes:
                    out[seat] += round_score(s, p)
                for a in bits(s.held[p]):
                    out[seat] += pic.hold_value(p, a, s.cnt[a])
            elif comes and peoples.card_epoch[p] == epoch and p != s.active:
                out[seat] += ENTRY_AREAS * peoples.initial[p] * (1.0 + later)
    return out


def chances(scores: list[float], temperature: float = TEMPERATURE) -> list[float]:
    """Each seat's chance to win from its score (softmax at this game's temperature)."""
    return win_chances(scores, temperature)


def phase_of(state: State) -> tuple[int, str, int]:
    """The Epoch, its segment and the People whose round it is (E2, E4): search evaluates
    when a People's round (with its scoring, E14) or the card allocation has ended."""
    s: EpochsState = state  # type: ignore[assignment]
    return (s.epoch, s.phase, s.active)


MARGIN = 0.5
"""Share of the winning margin in the reward of a finished playout (:func:`final`)."""


def final(state: State) -> list[float]:
    """The reward of a finished playout for search: the returns, blended (:data:`MARGIN`)
    with chances from the final VP, so a search comparing moves also sees by how much."""
    s: EpochsState = state  # type: ignore[assignment]
    soft = chances([float(v) for v in s.vp])
    return [(1 - MARGIN) * r + MARGIN * c for r, c in zip(state.returns(), soft, strict=True)]


def evaluate(state: State) -> list[float]:
    """Each seat's estimated chance to win (the returns once the game is over)."""
    if state.is_terminal():
        return state.returns()
    s: EpochsState = state  # type: ignore[assignment]
    return chances(projected(s))


__all__ = [
    "ENTRY_AREAS",
    "FUTURE_KEEP",
    "MARGIN",
    "TEMPERATURE",
    "chances",
    "evaluate",
    "final",
    "phase_of",
    "projected",
]
