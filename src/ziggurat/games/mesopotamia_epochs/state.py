"""The state of a game of Mesopotamia: Epochs: the map, the cards, and whose decision it is.

The rules live in :mod:`.allocation` (E1.5, E3), :mod:`.rounds` (E4-E6, E14, E15),
:mod:`.placement` (E7-E11, E13), :mod:`.combat` (E12) and :mod:`.flow` (legality, apply,
forced decisions); this module holds the data and its cheap cloning.

Representation (hot fields are flat lists of small ints, cloned with ``list()``):

- areas are indices into the map; ``occ[a]`` is the People holding area ``a`` (-1: empty)
  and ``cnt[a]`` its number of tribes. One People per area is the representation itself, so
  E8.8 (no sharing) can never break; the attacking tribe of a combat lives in ``pending``;
- ``held[p]`` is the bitmask of areas People ``p`` holds (kept in step with ``occ``);
- cards: ``owner[p]`` is the seat holding People ``p``'s card (-1: not dealt), ``known[p]``
  the bitmask of seats who know which card it is and who holds it, ``public[p]`` whether it
  is face up (E3.7, R42); ``deck`` the undrawn cards of this Epoch, ``set_aside`` the cards
  that never enter play (R7);
- ``pending`` is the decision or chance event under way (shapes in docs/mesopotamia-epochs.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ziggurat.engine.contract import CHANCE, TERMINAL, Action, State
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia_epochs.words import seat_word

if TYPE_CHECKING:
    from ziggurat.games.mesopotamia_epochs.data import Rules
    from ziggurat.games.mesopotamia_epochs.game import EpochsGame

PHASES = ("allocation", "strategy", "over")


class EpochsState(State):
    """A Mesopotamia: Epochs position; :mod:`.flow` decides who moves, what is legal and plays it."""

    __slots__ = (
        "rules", "n", "epoch", "phase", "vp", "occ", "cnt", "held", "owner", "known",
        "public", "set_aside", "deck", "draw_order", "draw_idx", "received", "pvp", "entered",
        "removed", "active", "order", "pool", "sea_round", "coast_held", "pending", "last_attack",
    )  # fmt: skip

    rules: Rules
    n: int
    epoch: int
    phase: str
    vp: list[int]  # per seat (E1.3, E14.4)
    occ: list[int]  # per area: People holding it, -1 empty
    cnt: list[int]  # per area: its tribes
    held: list[int]  # per People: bitmask of its areas
    owner: list[int]  # per People: seat holding its card, -1 none
    known: list[int]  # per People: seats who know the card (bitmask)
    public: list[bool]  # per People: card face up
    set_aside: list[int]  # Peoples set aside (R7), sorted
    deck: list[int]  # undrawn cards of this Epoch, sorted (a draw is uniform over them)
    draw_order: list[int]  # E3.2: seats in draw order (empty in Epoch 1)
    draw_idx: int
    received: list[int]  # per seat: card received this Epoch, -1 none yet
    pvp: list[int]  # per People: VP it scored (E14)
    entered: list[int]  # per People: tribes taken from pools onto the map
    removed: list[int]  # per People: tribes removed from the map
    active: int  # People whose round it is, -1 none
    order: int  # its order number this Epoch (0 before the first round)
    pool: int  # its tribal pool (E5, E6)
    sea_round: bool  # E7.5, E8.2 (d): every coastal area reachable this round
    coast_held: bool  # R13 with seafaring_chain=false: held a coast when placement began
    pending: tuple[Any, ...] | None
    # the game's last attack (E12), for players who did not see it happen: (area, attacker,
    # defender, defending tribes, defender dice, Epoch, rolls ((attack, defence, winner), ...));
    # it decides nothing (see EpochsState.fingerprint)
    last_attack: tuple[Any, ...] | None
    # an event's seat (State.log) is the seat it concerns: the dealt seat, the drawer, or the
    # active People's owner (flow.concerned)

    turn_rule = "§7"

    # --- the contract (the pipeline is the engine's: State.apply) ---------------------------
    def current_player(self) -> int:
        if self.phase == "over":
            return TERMINAL
        return _flow.actor(self)

    def _legal_actions(self) -> list[Action]:
        return _flow.compute_legal(self)

    def _legal_lookup(self) -> frozenset[Action]:
        found = self._legal_set
        if found is None:
            found = self._legal_set = _flow.legal_set(self)
        return found

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return _flow.chance_outcomes(self)

    def _chance_cumulative(self) -> tuple[list[Action], list[float]] | None:
        pend = self.pending
        if pend is not None and pend[0] == "combat":
            _pairs, texts, _set, sums = _combat.roll_outcomes(self.rules.die_sides, pend[2])
            return texts, sums
        return None

    def _apply_action(self, action: Action) -> None:
        _flow.perform(self, self.game.notation.decode(action))

    def _refusal(self, who: int, action: Action) -> str:
        reason = _flow.refusal(self, who, self.game.notation.decode(action))
        return message("engine.illegal", action=action, reason=reason)

    def _concerned(self, who: int) -> int:
        return _flow.concerned(self)

    def _game_over(self) -> str:
        return message("epochs.refusal.gameOver")

    def _seat_label(self, seat: int) -> str:
        return message("epochs.chance") if seat == CHANCE else seat_word(seat)

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def returns(self) -> list[float]:
        from ziggurat.games.mesopotamia_epochs.rounds import returns

        return returns(self)

    def _view(self, seat: int | None) -> dict[str, Any]:
        from ziggurat.games.mesopotamia_epochs.view import view

        return view(self, seat)

    def to_position(self) -> dict[str, Any]:
        from ziggurat.games.mesopotamia_epochs.position import to_position

        return to_position(self)

    def fingerprint(self) -> str:
        """The hash of the position without ``last_attack``: a memory of the last combat for
        players who did not see it, which decides nothing (records written before the
        position carried it keep their fingerprints)."""
        import hashlib
        import json

        pos = self.to_position()
        pos.pop("last_attack", None)
        blob = json.dumps(pos, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def clone(self) -> EpochsState:
        s = EpochsState.__new__(EpochsState)
        s.game = self.game
        s.rules = self.rules
        s.n = self.n
        s.epoch = self.epoch
        s.phase = self.phase
        s.vp = list(self.vp)
        s.occ = list(self.occ)
        s.cnt = list(self.cnt)
        s.held = list(self.held)
        s.owner = list(self.owner)
        s.known = list(self.known)
        s.public = list(self.public)
        s.set_aside = list(self.set_aside)
        s.deck = list(self.deck)
        s.draw_order = self.draw_order  # replaced, never mutated
        s.draw_idx = self.draw_idx
        s.received = list(self.received)
        s.pvp = list(self.pvp)
        s.entered = list(self.entered)
        s.removed = list(self.removed)
        s.active = self.active
        s.order = self.order
        s.pool = self.pool
        s.sea_round = self.sea_round
        s.coast_held = self.coast_held
        s.pending = self.pending
        s.last_attack = self.last_attack  # replaced, never mutated
        s.log = self.log
        s._legal = self._legal  # never mutated once built: safe to share until the next apply
        s._legal_set = self._legal_set
        self._carry_plies(s)
        return s

    # --- helpers ------------------------------------------------------------------------
    def cards_of(self, seat: int) -> list[int]:
        """The Peoples whose cards ``seat`` holds, in Epoch order."""
        ce = self.rules.peoples.card_epoch
        return sorted((p for p, o in enumerate(self.owner) if o == seat), key=lambda p: (ce[p], p))

    def areas_of(self, p: int) -> int:
        """Number of areas People ``p`` holds (E6.2)."""
        return self.held[p].bit_count()


def new_state(game: EpochsGame) -> EpochsState:
    """E1: every VP total at 0, the Epoch 1 deck ready for the deal (C1)."""
    rules = game.rules
    peoples = rules.peoples
    n = game.num_players
    s = EpochsState.__new__(EpochsState)
    s.game = game
    s.rules = rules
    s.n = n
    s.epoch = 1
    s.phase = "allocation"
    s.vp = [0] * n
    s.occ = [-1] * rules.map.size
    s.cnt = [0] * rules.map.size
    k = peoples.size
    s.held = [0] * k
    s.owner = [-1] * k
    s.known = [0] * k
    s.public = [False] * k
    s.set_aside = []
    s.deck = sorted(peoples.epoch_cards[1])
    s.draw_order = []
    s.draw_idx = 0
    s.received = [-1] * n
    s.pvp = [0] * k
    s.entered = [0] * k
    s.removed = [0] * k
    s.active = -1
    s.order = 0
    s.pool = 0
    s.sea_round = False
    s.coast_held = False
    s.pending = ("deal", 0)
    s.last_attack = None
    s.log = None
    s._legal = None
    s._legal_set = None
    return s


# The rules import this module, so they are imported once it is complete.
from ziggurat.games.mesopotamia_epochs import combat as _combat  # noqa: E402
from ziggurat.games.mesopotamia_epochs import flow as _flow  # noqa: E402
