"""Turn flow (M1), who decides, legal actions, their effects and refusals.

The engine's ``State.apply`` checks an action against the (cached) legal list, so legality
has one source of truth; :func:`refusal` and the ``*_refusal`` functions only explain a
refusal in a player's words. After every action, decisions with exactly one legal
alternative are applied by the engine (§7, "forced"), and so are chance nodes with a single
outcome, unless only a secret makes them forced (R58, ``MesoState._forced_by_secret``); they are logged as ``auto`` events and left out of ``history()``, since replaying
the chosen actions reproduces them.
"""

from __future__ import annotations

from typing import Final

from ziggurat.engine.contract import CHANCE
from ziggurat.engine.messages import message
from ziggurat.games.mesopotamia import actions as act
from ziggurat.games.mesopotamia import cards, movement
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import CARD_INDEX, CARD_TYPES, COLOUR_LETTERS, EMPTY
from ziggurat.games.mesopotamia.notation import BUILT, decode
from ziggurat.games.mesopotamia.state import MesoState, place_start_pieces

_KEEPS_LISTING: Final = movement._KEEPS_LISTING
_CHANCE_PENDING: Final = frozenset(("draw", "card_draw", "peek", "deal"))
_MOVEMENT_KINDS: Final = frozenset(
    ("move", "pickup", "drop", "exchange", "handoff", "steal", "offering", "donate")
)
_ACTION_KINDS: Final = frozenset(("hut", "holy", "grow", "draw", "pass", "stop"))
# an action kind that answers a decision of the player's -> that decision's pending kind (§7)
_DECISION_OF: Final = {
    "first": "first",
    "pile": "pile",
    "volcano": "volcano",
    "share": "shares",
    "offer": "offer",
    "order": "order",
    "to": "teleport",
}


def actor(s: MesoState) -> int:
    pend = s.pending
    if pend is not None:
        kind = pend[0]
        if kind in _CHANCE_PENDING:
            return CHANCE
        if kind == "first":
            return CHANCE if s.opts["first_player"] == "random" else 0
    return s.turn_order[s.turn_idx]


def compute_legal(s: MesoState) -> list[str]:
    out: list[str] = []
    if s.phase == "over":
        return out
    pend = s.pending
    if pend is not None:
        kind = pend[0]
        if kind in _CHANCE_PENDING or (kind == "first" and s.opts["first_player"] == "random"):
            return [a for a, _ in chance_outcomes(s)]
        p = s.turn_order[s.turn_idx] if s.turn_order else 0
        if kind == "first":
            out.extend(f"first {letter}" for letter in COLOUR_LETTERS[: s.n])
        elif kind in ("pile", "volcano", "shares"):
            movement.discovery_actions(s, out)
        elif kind == "offer":
            act.offer_actions(s, p, out)
        elif kind == "order":
            cards.order_actions(s, out)
        elif kind in ("teleport", "expel"):
            cards.target_actions(s, p, out)
        return out
    p = s.turn_order[s.turn_idx]
    if s.phase == "movement":
        movement.movement_actions(s, p, out)  # card plays included
        return out
    if s.phase == "action":
        act.action_actions(s, p, out)
    elif s.phase == "mana":
        out.append("end" if s.income_done else "income")
    cards.card_actions(s, p, out)
    return out


def chance_outcomes(s: MesoState) -> list[tuple[str, float]]:
    pend = s.pending
    if pend is None or s.phase == "over":
        return []
    kind = pend[0]
    if kind == "first":
        if s.opts["first_player"] != "random":
            return []
        return [(f"first {letter}", 1.0 / s.n) for letter in COLOUR_LETTERS[: s.n]]
    if kind == "draw":
        return movement.draw_outcomes(s, pend[5])
    if kind == "card_draw":
        return cards.card_draw_outcomes(s)
    if kind == "peek":
        return cards.peek_outcomes(s)
    if kind == "deal":
        seat = s.turn_order[pend[1]]
        total = sum(s.deck)
        return [
            (f"deal {COLOUR_LETTERS[seat]} {CARD_TYPES[t]}", n / total) for t, n in enumerate(s.deck) if n
        ]
    return []


def perform(s: MesoState, text: str) -> None:
    """Play ``text``, a canonical action known to be legal (the engine's ``State.apply``
    checked it)."""
    d = BUILT.get(text)  # a text the listing built parses nothing
    if d is None:
        d = decode(text)
    pend = s.pending
    kept = s.kept
    if kept is not None:  # followed below after the actions that keep it, dropped otherwise
        s.kept = None
    if pend is None:  # a decision of the player whose turn it is (most decisions)
        p = s.turn_order[s.turn_idx]
        if d[0] == "play":
            cards.apply_play(s, p, d)
        elif s.phase == "movement":
            changed = movement.apply_movement(s, p, d)
            if kept is not None and d[0] in _KEEPS_LISTING and s.pending is None and s.phase == "movement":
                s.kept = movement.kept_after(kept, s, p, changed)
        elif s.phase == "action":
            act.apply_action_phase(s, p, d)
        elif d[0] == "income":
            act.collect_income(s, p)
        else:
            _end_turn(s)
        return
    p = s.turn_order[s.turn_idx] if s.turn_order else 0
    pk = pend[0]
    if pk == "first":
        _start_game(s, d[1])
    elif pk == "deal":
        seat = s.turn_order[pend[1]]
        _take_card(s, seat, d[2], False)
        nxt = pend[1] + 1
        if nxt < s.n:
            s.pending = ("deal", nxt)
        else:
            s.pending = None
            _start_turn(s)
    elif pk in ("pile", "draw", "volcano", "shares"):
        movement.apply_discovery(s, p, d)
    elif pk == "offer":
        act.apply_offer(s, p, d[1])
    elif pk == "card_draw":
        _take_card(s, p, d[1], True)
        s.pending = None
        act.start_mana_phase(s)  # M12.1: action D draws exactly one card
    elif pk == "peek":
        cards.apply_peek(s, p, d[1])
    elif pk == "order":
        cards.apply_order(s, p, d[1])
    elif pk in ("teleport", "expel"):
        cards.apply_target(s, p, d[1])


def _take_card(s: MesoState, seat: int, card: int, new: bool) -> None:
    """A card from the deck into ``seat``'s hand (``new``: drawn this turn, M12.3). The deck
    and hands are replaced, never changed in place: clones share them."""
    deck = s.deck = list(s.deck)
    deck[card] -= 1
    hand = s.hand[seat] = list(s.hand[seat])
    hand[card] += 1
    if new:
        fresh = s.new[seat] = list(s.new[seat])
        fresh[card] += 1


def _start_game(s: MesoState, first: int) -> None:
    """S2: the first player is turn position 1; the others follow clockwise (seat order)."""
    s.turn_order = [(first + k) % s.n for k in range(s.n)]
    s.turn_idx = 0
    place_start_pieces(s)
    if s.opts["variant_start_with_one_card"]:
        s.pending = ("deal", 0)
    else:
        s.pending = None
        _start_turn(s)


def _start_turn(s: MesoState) -> None:
    s.phase = "movement"
    s.action = None
    s.used_huts = ()
    s.income_done = False
    s.priests = ()
    s.disc = 0
    if s.round == 1:
        s.mp = s.game.first_turn_mp[s.turn_idx]
    else:
        s.mp = s.game.data["movement"]["mpPerTurn"]


def _end_turn(s: MesoState) -> None:
    p = s.turn_order[s.turn_idx]
    s.new[p] = [0] * len(s.new[p])
    s.turn_idx += 1
    if s.turn_idx == s.n:
        s.turn_idx = 0
        s.round += 1
        limit = s.opts["round_limit"]
        if limit is not None and s.round > limit:
            s.phase = "over"
            s.winner = ranking(s)[0] if s.opts["rank_non_winners"] and _unique_leader(s) else None
            return
    _start_turn(s)


def ranking_key(s: MesoState, seat: int) -> tuple[int, int, int]:
    """M16.2 (option rank_non_winners): offerings delivered, value delivered, Mana."""
    value = sum(s.offer_val[seat][pub] for pub in s.delivered[seat])
    return (len(s.delivered[seat]), value, s.mana[seat])


def ranking(s: MesoState) -> list[int]:
    return sorted(range(s.n), key=lambda q: ranking_key(s, q), reverse=True)


def _unique_leader(s: MesoState) -> bool:
    order = ranking(s)
    return s.n < 2 or ranking_key(s, order[0]) != ranking_key(s, order[1])


def refusal(s: MesoState, who: int, d: tuple) -> str:  # type: ignore[type-arg]
    """A player-readable reason why decoded action ``d`` is not legal now."""
    kind = d[0]
    legal = s.legal_actions()
    pend = s.pending
    if who == CHANCE:
        return message("meso.refusal.chanceEvent")
    if pend is not None:
        why = None
        if pend[0] in ("pile", "volcano", "shares"):
            why = movement.discovery_refusal(s, d)
        elif pend[0] in ("teleport", "expel") and kind == "to":
            why = cards.target_refusal(s, who, d[1])
        hint = ", ".join(legal[:6]) + (" ..." if len(legal) > 6 else "")
        return why or message("meso.refusal.pending", pending=V.pending(pend[0]), hint=hint)
    if kind == "play":
        why = cards.card_refusal(s, who, d)
        if why:
            return why
        if kind == "play" and d[1] == CARD_INDEX["fertility"]:
            return message("meso.refusal.fertilityWithGrowth")
        return message("meso.refusal.noCardTarget")
    phase = V.phase(s.phase)
    if kind in _MOVEMENT_KINDS or (kind == "end" and s.phase == "movement"):
        if s.phase != "movement":
            return message("meso.refusal.phaseOne", kind=kind, phase=phase)
        why = movement.movement_refusal(s, who, d)
    elif kind in _ACTION_KINDS:
        if kind == "draw" and s.phase == "mana" and sum(s.new[who]):
            return message("meso.refusal.drawOnce")  # this turn's action was D (M12.1)
        if s.phase != "action":
            return message("meso.refusal.phaseTwo", kind=kind, phase=phase)
        why = act.action_refusal(s, who, d)
    elif kind == "income":
        why = (
            message("meso.refusal.incomePhase", phase=phase)
            if s.phase != "mana"
            else message("meso.refusal.incomeDone")
        )
    elif kind == "end":
        why = (
            message("meso.refusal.incomeFirst")
            if s.phase == "mana"
            else message("meso.refusal.endImpossible", phase=phase)
        )
    elif kind in _DECISION_OF:
        why = message(
            "meso.refusal.decisionNotPending", kind=kind, pending=V.pending(_DECISION_OF[kind]), phase=phase
        )
    else:
        why = message("meso.refusal.noPendingDecision", kind=kind, phase=phase)
    return why or message("meso.refusal.notLegalHere", phase=phase)


__all__ = ["EMPTY", "actor", "compute_legal", "decode", "perform", "refusal"]
