"""The state object: a JSON dict (see docs/mare-nostrum.md) with the legal-list cache,
forced-decision auto-play, events, positions and views (section 7)."""

from __future__ import annotations

import json
import random
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, Final

from ziggurat.engine.contract import State
from ziggurat.engine.errors import GameOver
from ziggurat.engine.eventlog import ConsLog, log_events
from ziggurat.engine.messages import message
from ziggurat.engine.state import CHANCE, SCAN_UP_TO, logged
from ziggurat.games.mare_nostrum import battle, buy_place, flow, trade
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum import payment as P

if TYPE_CHECKING:
    from ziggurat.games.mare_nostrum.game import MareNostrumGame

POSITION_FORMAT = "ziggurat-position/mare-nostrum/1"


class NostrumState(State):
    """A Mare Nostrum position: the state dict ``d`` (docs/mare-nostrum.md) and the engine's
    event log. An event's seat is the seat it concerns: the chooser, the drawer of a
    legendary good, or whose dice a battle roll is (public, 7.6)."""

    __slots__ = ("d", "_mover")

    def __init__(self, game: MareNostrumGame, d: dict[str, Any]) -> None:
        self.game = game
        self.d = d
        self.log = None
        self._legal = None
        self._legal_set = None
        self._mover = CHANCE

    # --- the contract (the pipeline is the engine's: State.apply) -------------------------
    def current_player(self) -> int:
        if self._legal is not None:
            return self._mover  # worked out with the legal list, which is kept until the next apply
        who = self._mover = flow.to_move(self.d)
        return who

    def is_chance_node(self) -> bool:
        if self._legal is not None:
            return self._mover == CHANCE
        return self.current_player() == CHANCE

    def _legal_actions(self) -> list[str]:
        who = self._mover = flow.to_move(self.d)
        return flow.legal(self.d, who)

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return flow.chance(self.d)

    def _chance_cumulative(self) -> tuple[tuple[str, ...], tuple[float, ...]] | None:
        d = self.d
        if d["battle"] is not None and not d["queue"] and d["stage"] != "over":
            texts, sums, _ = battle.roll_table(d)  # a battle roll: up to thousands of outcomes
            return texts, sums
        return None

    def _legal_lookup(self) -> frozenset[str]:
        found = self._legal_set
        if found is None:
            d = self.d
            if d["battle"] is not None and not d["queue"] and d["stage"] != "over":
                found = battle.roll_table(d)[2]  # a battle roll's outcomes: one shared set
            else:
                found = frozenset(self.legal_actions())
            self._legal_set = found
        return found

    def apply(self, action: Any, seat: Any = None) -> None:
        """:meth:`State.apply` with Mare Nostrum's steps inlined on its common path: a text of
        the legal list, played by the seat to move (or with no seat given). The same checks
        in the same order, the same events and kept copies; anything else (another seat, a
        text to parse or to refuse) goes through :meth:`State.apply` itself, which raises the
        engine's errors. It runs once per decision of every game and every search."""
        listed = self._legal
        if (
            listed is not None
            and type(action) is str
            and (seat is None or (type(seat) is int and seat == self._mover))
            and (action in listed if len(listed) <= SCAN_UP_TO else action in self._legal_lookup())
        ):
            # the common case: a text of the kept legal list (worked out with the mover, and
            # empty once the game is over), played by the mover or with no seat given
            d = self.d
            who = self._mover
        else:
            if not isinstance(action, str):
                State.apply(self, action, seat)  # raises InvalidAction
                return
            d = self.d
            if d["stage"] == "over":
                raise GameOver(self._game_over())
            who = self._mover if listed is not None else self.current_player()
            if seat is not None and (type(seat) is not int or seat != who):
                State.apply(self, action, seat)  # checks the seat: raises, or plays as the base does
                return
            found = self._legal_set
            legal: Collection[str]
            if found is not None:
                legal = found
            elif listed is None and who == CHANCE:
                legal = self._legal_lookup()  # a battle roll's outcomes: one shared set, no list
            else:
                known: Sequence[str] = self.legal_actions() if listed is None else listed
                legal = known if len(known) <= SCAN_UP_TO and action in known else self._legal_lookup()
            if action not in legal:
                State.apply(self, action, seat)  # parses the text: plays it, or explains the refusal
                return
        concerned = who if who != CHANCE else self._concerned(who)
        plies = self._plies_so_far()
        self._legal = None
        self._legal_set = None
        pending = flow.play(d, action, who)
        log: ConsLog = logged((self.log, who, action, False, concerned))
        # State._settle: the forced decisions (one legal action) that follow, as auto events
        stage: str = d["stage"]  # typed locals: the compiled build compares and indexes them directly
        while stage != "over":
            who = self._mover = flow.to_move(d)
            queue: list[Any] = d["queue"]
            if who == CHANCE and not queue and d["battle"] is not None:
                # a battle roll, up to thousands of outcomes: listed only when asked for
                # (sample_chance reads its table, apply its set), played here only when the
                # dice can show one face alone
                if len(battle.roll_table(d)[0]) != 1:
                    break
            now: list[str]
            if pending is not None:
                now = pending  # worked out by the automatic steps that ran
            elif who >= 0 and not queue:
                now = flow.stage_legal(d, stage)  # flow.legal's most common case
            else:
                now = flow.legal(d, who)
            if len(now) != 1 or forced_by_screen(d):
                self._legal = now
                break
            only = now[0]
            concerned = who if who != CHANCE else self._concerned(who)
            pending = flow.play(d, only, who)
            log = logged((log, who, only, True, concerned))
            stage = d["stage"]
        self.log = log
        self._count_chosen(plies)

    def _apply_action(self, action: str) -> None:
        # State.apply asks the mover (current_player) or the legal list, both of which keep it
        # in _mover, before it plays; so does _settle: play need not work it out again
        flow.play(self.d, action, self._mover)

    def _refusal(self, who: int, action: str) -> str:
        from ziggurat.games.mare_nostrum.refusal import explain

        return explain(self, action)

    def _concerned(self, who: int) -> int:
        if who == CHANCE and self.d["queue"]:
            return int(self.d["queue"][0][1])  # the drawer of a legendary good
        if who == CHANCE and self.d["battle"] is not None:
            return battle.rolling_seat(self.d)  # whose dice these are (public, 7.6)
        return who

    def _forced_by_secret(self) -> bool:
        return forced_by_screen(self.d)

    @property
    def turn_rule(self) -> str:  # type: ignore[override]
        """The decision under way (section 8, D1-D26): its row names who makes it."""
        return decision_rule(self.d)

    def _game_over(self) -> str:
        return message("mn.refusal.gameOver")

    def _seat_label(self, seat: int) -> str:
        from ziggurat.games.mare_nostrum.nouns import whom

        return message("engine.chance") if seat == CHANCE else whom(self.d, seat)

    def _seat_subject(self, seat: int) -> str:
        """``seat`` as the subject that starts a sentence (French "La Grèce"; the server's log
        line of a seat taking its seat back from the bot)."""
        from ziggurat.games.mare_nostrum.nouns import who

        return who(self.d, seat)

    def is_terminal(self) -> bool:
        return self.d["stage"] == "over"

    def returns(self) -> list[float]:
        w = self.d["winner"]
        return [1.0 if s == w else 0.0 for s in range(self.d["n"])]

    def _view(self, seat: int | None) -> dict[str, Any]:
        # the position, as to_position() gives it, copied part by part (a JSON round trip of
        # the whole was most of a view's time); the pool and the face-down tiles are only
        # counted, so they are lent, not copied
        d = self.d
        pos: dict[str, Any] = {"format": POSITION_FORMAT, "num_players": d["n"]}
        for k, v in d.items():
            if k in _NOT_IN_VIEWS:
                if k in _COUNTED_IN_VIEWS:
                    pos[k] = v
            else:
                pos[k] = _deep(v) if type(v) in _BOXES else v
        return view_of(pos, seat, self.current_player())

    def clone(self) -> NostrumState:
        other = NostrumState(self.game, copy_state(self.d))
        other.log = self.log  # never mutated: shared
        other._legal = self._legal
        other._legal_set = self._legal_set
        other._mover = self._mover
        self._carry_plies(other)
        return other

    def to_position(self) -> dict[str, Any]:
        """The position file (docs/mare-nostrum.md): a ``format`` / ``num_players`` header,
        then the whole state dict without the options."""
        pos: dict[str, Any] = {"format": POSITION_FORMAT, "num_players": self.d["n"]}
        pos.update((k, v) for k, v in self.d.items() if k not in ("opts", "limits"))
        return _copy(pos)

    # --- helpers for tests and tools ---------------------------------------------------
    def tracks(self, seat: int) -> dict[str, int]:
        return B.tracks(self.d, seat)


_DECISIONS = {
    "assign": "D1",
    "castor": "D2",
    "trade_token": "D5",
    "trade_size": "D6",
    "trade_offer": "D7",
    "trade_starter": "D8",
    "trade_draft": "D9",
    "trade_give": "D10",
    "buy_perseus": "D11",
    "buy_order": "D12",
    "buy_turn": "D13",
    "buy_keep": "D14",
    "mil_zeus": "D15",
    "mil_order": "D16",
    "mil_conv": "D17",
    "mil_row": "D18",
    "mil_sea": "D19",
    "mil_march": "D20",
    "mil_fight": "D21",
    "mil_circe": "D24",
    "claim_tie": "D25",
    "tie_win": "D26",
}
_QUEUE_DECISIONS = {"lc": "D3", "colossus": "D4", "lose": "D22", "conquest": "D23"}


def decision_rule(d: dict[str, Any]) -> str:
    """The row of section 8 (D1-D26) of the decision under way, or N0.13 for chance."""
    if flow.to_move(d) == CHANCE:
        return "N0.13"
    if d["queue"]:
        return _QUEUE_DECISIONS.get(d["queue"][0][0], "N0.13")
    return _DECISIONS.get(d["stage"], "N0.1")


def forced_by_screen(d: dict[str, Any]) -> bool:
    """7.8: the decision now, which has one legal action, might have had more had the tokens
    behind the mover's screen been others of the same count, so the mover is asked.

    The decisions that read a screen are the offer (D7), the imbalance token (D10), the
    buy turn with its payments (D13) and the Hanging Gardens keep (D14); every other one reads
    only public facts (the board, tracks, tiles, token counts, revealed offers, the pool's size).
    Only the count is public: one token is one choice whatever it is, and no tokens at all (or
    fewer than any purchase costs) leave the buy turn nothing but its public options.
    """
    if d["queue"] or d["battle"] is not None:
        return False
    stage: str = d["stage"]
    res: list[dict[str, int]] = d["res"]
    if stage == "buy_turn":
        buy: dict[str, Any] = d["buy"]
        seat: int = buy["active"]
        held = _held(res[seat])
        if buy["paying"] is None:
            if 0 < held < 3:
                # only an alternative cost (one token) is within reach of one or two tokens
                return any(B.has(d, seat, tile) for tile, _ in D.ALT_COST.values())
            return held > 0
    elif stage == "trade_offer":
        held = _held(res[trade.next_offerer(d)])
    elif stage == "trade_give":
        held = _held(res[int(d["trade"]["starter"])])
    else:
        # the keep is entered whenever the screen holds a token (N3.13): never forced in public
        return stage == "buy_keep"
    return held > 1


def _held(screen: dict[str, int]) -> int:
    """The tokens behind a screen (``sum(screen.values())`` as a loop of the compiled build's own)."""
    held = 0
    for count in screen.values():
        held += count
    return held


def _copy(obj: Any) -> Any:
    return json.loads(json.dumps(obj))


_BOXES: Final = frozenset({dict, list})


def _deep(v: Any) -> Any:
    """A copy of a JSON value (dicts and lists copied, the rest shared: it is immutable)."""
    if type(v) is dict:
        return {k: _deep(x) if type(x) in _BOXES else x for k, x in v.items()}
    return [_deep(x) if type(x) in _BOXES else x for x in v]


def _shared(v: Any) -> Any:
    return v


def _flat(v: Any) -> Any:
    return v.copy()


def _members(v: Any) -> Any:
    """A dict whose lists and dicts hold only numbers and names (``mil``, ``battle``, ``claim``)."""
    return {k: x.copy() if type(x) in _BOXES else x for k, x in v.items()}


def _buy(v: Any) -> Any:
    out = _members(v)
    if v["paying"] is not None:
        out["paying"] = _members(v["paying"])
    return out


def _seats(v: Any) -> Any:
    return [None if row is None else row.copy() for row in v]


def _trade(v: Any) -> Any:
    """The trade under way (``trade.trade_start``): its seats' offers and receipts one list
    each; ``token`` is never changed and ``takes`` holds pairs that are never changed."""
    out = v.copy()
    out["parts"] = v["parts"].copy()
    out["offers"] = _seats(v["offers"])
    out["received"] = _seats(v["received"])
    out["takes"] = v["takes"].copy()
    out["sizing"] = v["sizing"].copy()
    return out


# How each part of the state dict is copied by ``clone``, run thousands of times a second by
# search bots (several times faster than a JSON round trip). The options are never changed:
# shared. The board (markers, buildings, occupied buildings, legions, triremes, fortresses,
# legions on markers, pending conversions), the seats' tiles, the empires, titles, Trade tokens
# used, copies, the display, the face-down tiles, the pool, the legendary goods out of play,
# Zeus's pairs and the ``last_*`` summaries are replaced whole when they change (``board.put``,
# ``board.drop``, ``board.move_unit`` ...), never changed in place, and so are their rows and
# entries: shared too. The queue is changed in place, its items never: a shallow copy; so is the
# small table of conqueror marks (replaced whole by play too, but tools and tests mark it in
# place on a clone). The rest (screens, the phase under way) is copied by shape; anything not
# listed is copied whole.
_SHARED = (
    "opts",
    "limits",
    "last_trade",
    "last_payment",
    "last_battle",
    "markers",
    "buildings",
    "occupy",
    "legions",
    "triremes",
    "fortresses",
    "on_marker",
    "pending",
    "tiles",
    "empires",
    "copy",
    "tokens_used",
    "titles",
    "display",
    "facedown",
    "pool",
    "legendary_out",
    "zeus",
)
_FLAT = ("queue", "conqueror")
_BY_SHAPE: Final[dict[str, Any]] = {
    "res": _seats,
    "mil": _members,
    "battle": _members,
    "claim": _members,
    "buy": _buy,
    "trade": _trade,
}
_SCALARS = ("n", "round", "stage", "pyramids", "winner", "after_reveal")
_KNOWN = frozenset((*_SCALARS, *_SHARED, *_FLAT, *_BY_SHAPE))


def copy_state(d: dict[str, Any]) -> dict[str, Any]:
    """A copy of the state dict ``d`` sharing only what play replaces whole (see above)."""
    out = d.copy()
    get = d.get
    for k in _FLAT:
        v = get(k)
        if v is not None:
            out[k] = v.copy()
    for k, copier in _BY_SHAPE.items():
        v = get(k)
        if v is not None:
            out[k] = copier(v)
    if not _KNOWN.issuperset(d):
        for k in d.keys() - _KNOWN:
            v = d[k]
            if type(v) in _BOXES:
                out[k] = _deep(v)
    return out


def from_position(game: MareNostrumGame, position: dict[str, Any], *, owned: bool = False) -> NostrumState:
    """A state from a position (``to_position``) or a filled-in view; the header is checked
    when present (positions written before it existed load too). ``owned``: ``position`` is a
    fresh copy the caller gives away (:func:`sample_state`'s), used as it is instead of copied.

    :raises ValueError: for another game's position or another player count.
    """
    fmt = position.get("format", POSITION_FORMAT)
    if fmt != POSITION_FORMAT:
        raise ValueError(f"not a Mare Nostrum position (format {fmt!r}, expected {POSITION_FORMAT!r})")
    n = position.get("n")
    header = position.get("num_players", n)
    if header != n:
        raise ValueError(f"the position's header says {header} players but its state is for {n} (n)")
    if n != game.num_players:
        raise ValueError(f"the position is for {n} players, the game for {game.num_players}")
    d = position if owned else _copy(position)
    for k in (
        "format",
        "num_players",
        "viewer",
        "to_move",
        "res_counts",
        "pool_count",
        "facedown_count",
        "offer_counts",
        "tracks",
    ):
        d.pop(k, None)
    d["opts"] = game.opts
    d["limits"] = game.opts["unit_limits"]
    state = NostrumState(game, d)
    return state


# --------------------------------------------------------------------- views (section 7)


_COUNTED_IN_VIEWS: Final = frozenset({"pool", "facedown"})
"""Secret parts of the state a view shows only the size of (7.2, 7.3)."""
_NOT_IN_VIEWS: Final = _COUNTED_IN_VIEWS | {"opts", "limits"}


def view_of(pos: dict[str, Any], seat: int | None, to_move: int) -> dict[str, Any]:
    """The position with other seats' secrets blanked (7.1-7.5). ``pos`` is given away (a
    fresh ``to_position()``): the view shares its parts rather than copying them again, all
    but ``pool`` and ``facedown``, which it only counts."""
    v = dict(pos)
    n = pos["n"]
    trade = pos.get("trade")
    counts = []
    for s in range(n):
        c = sum(pos["res"][s].values())
        if trade:
            c += len(trade["offers"][s]) + len(trade["received"][s])
        counts.append(c)
    v["res_counts"] = counts
    v["res"] = [pos["res"][s] if s == seat else None for s in range(n)]
    v["pool_count"] = sum(pos["pool"].values())
    v["pool"] = None
    v["facedown_count"] = len(pos["facedown"])
    v["facedown"] = None
    if trade and not trade["revealed"]:
        v["trade"] = {**trade, "offers": [trade["offers"][s] if s == seat else None for s in range(n)]}
        v["offer_counts"] = [len(trade["offers"][s]) for s in range(n)]
    # N0.7: every seat's true levels (public); a level above 15 is only drawn as "15+" (2.6)
    v["tracks"] = B.all_tracks(pos)
    v["viewer"] = seat
    v["to_move"] = to_move
    return v


def sample_state(game: MareNostrumGame, view: dict[str, Any], seat: int, rng: random.Random) -> NostrumState:
    """Fill the blanks of ``view`` (7.7): other seats' tokens, the pool, face-down tiles."""
    d = _copy(view)
    n = d["n"]
    d["facedown"] = sorted(
        t
        for t in game.board.tiles
        if D.TILES[t]["purchasable"]
        and t not in d["display"]
        and all(t not in d["tiles"][s] for s in range(n))
    )
    assert len(d["facedown"]) == view["facedown_count"]
    seen: dict[str, int] = dict(d["legendary_out"])

    def note(tokens: Any) -> None:
        for tok in tokens:
            if tok.startswith("leg:"):
                seen[tok[4:]] = seen.get(tok[4:], 0) + 1

    note(k for k, c in d["res"][seat].items() for _ in range(c))
    paying = (d.get("buy") or {}).get("paying")
    if paying:
        note(paying["paid"])  # a payment under way shows its tokens (7.6): a legendary one is seen
    trade = d.get("trade")
    hidden_offers: list[int] = [0] * n
    if trade:
        for s in range(n):
            note(trade["received"][s])
            if trade["offers"][s] is None:
                hidden_offers[s] = view["offer_counts"][s]
            else:
                note(trade["offers"][s])
    unseen = [g for g in D.GOODS for _ in range(1 - seen.get(g, 0))]
    hidden = [s for s in range(n) if trade and trade["offers"][s] is None]
    slots_of: list[int] = []
    for s in range(n):
        if s == seat:
            continue
        k = view["res_counts"][s]
        if trade:
            k -= len(trade["received"][s])
            k -= hidden_offers[s] if trade["offers"][s] is None else len(trade["offers"][s])
        slots_of.extend([s] * k)
    # a payment under way by another seat was begun, and goes on, only because its payer can
    # finish it (N0.8, N3): the tokens are dealt again until they can, and if that is unlikely
    # (four taxes still due, say), the payer is given a way to finish it
    payer = int(d["buy"]["active"]) if paying and int(d["buy"]["active"]) != seat else None
    for _ in range(DEALS_TRIED):
        _deal(d, seat, unseen, slots_of, hidden, hidden_offers, view["pool_count"], rng)
        if payer is None or _can_finish_payment(d, payer, game.opts):
            break
    else:
        assert payer is not None  # with no payer to satisfy, the first deal is kept
        finishing = _finishing_tokens(d, payer, game.opts, rng)
        fewer = slots_of[:]
        for _ in finishing:
            fewer.remove(payer)  # the payer holds at least the tokens still due
        if len(fewer) + sum(hidden_offers) >= len(unseen) - view["pool_count"]:
            # the payer is dealt the finishing tokens first, the rest as before
            _deal(d, seat, unseen, fewer, hidden, hidden_offers, view["pool_count"], rng)
            for tok in finishing:
                d["res"][payer][tok] = d["res"][payer].get(tok, 0) + 1
    return from_position(game, d, owned=True)


DEALS_TRIED: Final = 50
"""Deals of the other seats' tokens :func:`sample_state` tries (each as likely as in play)
before it deals a payer who could not finish their payment under way tokens that can first."""


def _deal(
    d: dict[str, Any],
    seat: int,
    unseen: list[str],
    slots_of: list[int],
    hidden: list[int],
    hidden_offers: list[int],
    pool_n: int,
    rng: random.Random,
) -> None:
    """Deal the unseen legendary goods between the pool and the other seats, and the other
    seats' unknown tokens and hidden offers (7.7), into ``d``."""
    n = d["n"]
    trade = d.get("trade")
    unseen = unseen[:]
    rng.shuffle(unseen)
    d["pool"] = {g: 0 for g in D.GOODS}
    for g in unseen[:pool_n]:
        d["pool"][g] += 1
    d["pool"] = {g: c for g, c in d["pool"].items() if c}
    for g in D.GOODS:
        d["pool"].setdefault(g, 0)
    rest = unseen[pool_n:]
    slots = slots_of[:]
    rng.shuffle(slots)
    kinds = [*D.GOODS, "tax"]
    tokens = [f"leg:{g}" for g in rest] + [
        rng.choice(kinds) for _ in range(len(slots) + sum(hidden_offers) - len(rest))
    ]
    rng.shuffle(tokens)
    for s in range(n):
        if s != seat:
            d["res"][s] = {}
    for s in hidden:
        assert trade is not None  # offers are hidden only during a trade
        trade["offers"][s] = sorted(tokens.pop() for _ in range(hidden_offers[s]))
    for s in slots:
        tok = tokens.pop()
        d["res"][s][tok] = d["res"][s].get(tok, 0) + 1


def _payment(d: dict[str, Any], payer: int, opts: dict[str, Any]) -> tuple[dict[str, Any], P.Allowance, int]:
    """``payer``'s payment under way in ``d`` (a state without its options): the payment, what
    the payer may pay with (N0.8.3) and the tokens still due."""
    pay: dict[str, Any] = d["buy"]["paying"]
    allow = buy_place.allowance({**d, "opts": opts}, payer, pay["item"])
    return pay, allow, int(pay["cost"]) - len(pay["paid"])


def _can_finish_payment(d: dict[str, Any], payer: int, opts: dict[str, Any]) -> bool:
    """Whether ``payer``'s tokens in ``d`` can finish the payment under way (N0.8)."""
    pay, allow, need = _payment(d, payer, opts)
    return P.can_finish(pay["paid"], d["res"][payer], need, pay["kind"], allow)


def _finishing_tokens(d: dict[str, Any], payer: int, opts: dict[str, Any], rng: random.Random) -> list[str]:
    """Ordinary tokens that finish ``payer``'s payment under way, each drawn among those that
    keep it finishable (N0.8), as a payer paying would; none if no ordinary tokens can."""
    pay, allow, need = _payment(d, payer, opts)
    supply = {t: need for t in [*D.GOODS, "tax"]}
    chosen: list[str] = []
    for left in range(need, 0, -1):
        options = P.next_tokens([*pay["paid"], *chosen], supply, left, pay["kind"], allow)
        if not options:
            return []
        tok = rng.choice(options)
        chosen.append(tok)
        supply[tok] -= 1
        if not supply[tok]:
            del supply[tok]
    return chosen


def redact_events(game: MareNostrumGame, actions: list[str], seat: int | None) -> list[str]:
    """The chosen actions as ``seat`` saw them (7.2-7.5): another seat's trade offer is ``offer ?``
    until its trade is revealed, another seat's legendary draw ``draw ?``, another seat's
    Colossus good ``colossus ?``."""
    state = game.new_initial_state()
    out: list[str] = []
    offers: list[int] = []  # indices in ``out`` of offers not yet revealed
    for text in actions:
        mark = state.log
        state.apply(text)
        _who, _, _, concerned = log_events(state.log, mark)[0]
        kind = text.split()[0]
        mine = seat is not None and concerned == seat
        if kind == "draw" and not mine:
            text = "draw ?"
        elif kind == "colossus" and not mine:
            text = "colossus ?"
        elif kind == "offer" and text.split()[1] != "size" and not mine:
            offers.append(len(out))
            text = "offer ?"
        out.append(text)
        trade = state.d["trade"]
        if offers and (trade is None or trade["revealed"]):
            for i in offers:
                out[i] = actions[i]
            offers = []
    return out
