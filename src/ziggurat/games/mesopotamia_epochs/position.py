"""Positions: the full state as documented JSON (schema in docs/mesopotamia-epochs.md).

Everything is listed in a canonical order (areas in map order, cards by Epoch then People
order in the data file), so equal states give equal positions and equal fingerprints. Cards
are given per holder slot with who knows them (``known_by``) and whether they are face up
(``public``), which is what views redact and what ``sample_state`` fills back in.
"""

from __future__ import annotations

from typing import Any

from ziggurat.engine.errors import InvalidPosition
from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.games.mesopotamia_epochs.state import PHASES, EpochsState

POSITION_FORMAT = "ziggurat-position/mesopotamia-epochs/1"


def _seats(mask: int, n: int) -> list[str]:
    return [SYMBOLS[q] for q in range(n) if mask >> q & 1]


def _mask(symbols: list[str]) -> int:
    out = 0
    for sym in symbols:
        out |= 1 << SYMBOLS.index(sym)
    return out


def pending_out(s: EpochsState) -> Any:
    """The pending decision or chance event as the position writes it (ids, not indices)."""
    pend = s.pending
    if pend is None:
        return None
    kind = pend[0]
    ids = s.rules.map.ids
    if kind == "deal":
        return ["deal", SYMBOLS[pend[1]]]
    if kind == "keep":
        return ["keep", s.rules.peoples.ids[pend[1]]]
    if kind == "displace":
        return ["displace", ids[pend[1]]]
    if kind == "combat":
        return ["combat", ids[pend[1]], pend[2]]
    return [kind]  # draw, landing


_WINNERS = ("attacker", "defender", "both")  # combat.ATTACKER, DEFENDER, BOTH (1, 2, 3)


def last_attack_out(s: EpochsState) -> dict[str, Any] | None:
    """The game's last attack (E12) as the position writes it: where, who attacked whom with
    how many defending tribes and defender dice, each roll with who lost a tribe (E12.5), and
    the outcome: ``under_way``, ``taken`` (E12.7), ``emptied`` (both sides lost their last
    tribe, R16) or ``failed`` (E12.8). Public (§6): the same in every view."""
    la = s.last_attack
    if la is None:
        return None
    area, p, q, defenders, dice, epoch, rolls = la
    ids, pids = s.rules.map.ids, s.rules.peoples.ids
    left = defenders - sum(1 for _a, _d, w in rolls if w != 2)
    if left <= 0:
        result = "taken" if rolls[-1][2] == 1 else "emptied"
    elif rolls and rolls[-1][2] != 1:
        result = "failed"
    else:
        result = "under_way"
    return {
        "area": ids[area],
        "attacker": pids[p],
        "defender": pids[q],
        "defenders": defenders,
        "dice": dice,
        "epoch": epoch,
        "rolls": [{"attack": list(a), "defence": list(d), "winner": _WINNERS[w - 1]} for a, d, w in rolls],
        "result": result,
    }


def _last_attack_in(s: EpochsState, la: dict[str, Any] | None) -> tuple[Any, ...] | None:
    if la is None:
        return None
    m, pidx = s.rules.map, s.rules.peoples.index
    for key, known in (("area", m.index), ("attacker", pidx), ("defender", pidx)):
        if la[key] not in known:
            raise InvalidPosition(
                f"mesopotamia-epochs position: last_attack.{key}: {la[key]!r} is not in this game"
            )
    rolls = tuple(
        (
            tuple(int(x) for x in r["attack"]),
            tuple(int(x) for x in r["defence"]),
            _WINNERS.index(r["winner"]) + 1,
        )
        for r in la["rolls"]
    )
    return (
        m.index[la["area"]],
        pidx[la["attacker"]],
        pidx[la["defender"]],
        int(la["defenders"]),
        int(la["dice"]),
        int(la["epoch"]),
        rolls,
    )


def round_out(s: EpochsState) -> dict[str, Any] | None:
    """The People round under way (E4.4) as the position writes it; ``None`` outside one."""
    if s.active < 0 or s.phase != "strategy":
        return None
    return {
        "people": s.rules.peoples.ids[s.active],
        "order": s.order,
        "pool": s.pool,
        "sea_start": s.sea_round,
        "coast_held": s.coast_held,
    }


def to_position(s: EpochsState) -> dict[str, Any]:
    peoples = s.rules.peoples
    m = s.rules.map
    pids = peoples.ids
    players = []
    for seat in range(s.n):
        cards = [
            {
                "epoch": peoples.card_epoch[p],
                "people": pids[p],
                "known_by": _seats(s.known[p], s.n),
                "public": s.public[p],
            }
            for p in s.cards_of(seat)
        ]
        players.append({"symbol": SYMBOLS[seat], "vp": s.vp[seat], "cards": cards})
    set_aside = sorted(s.set_aside, key=lambda p: (peoples.card_epoch[p], p))
    rnd = round_out(s)
    return {
        "format": POSITION_FORMAT,
        "num_players": s.n,
        "map": m.map_id,
        "peoples_data": peoples.peoples_id,
        "epoch": s.epoch,
        "phase": s.phase,
        "players": players,
        "deck": [pids[p] for p in s.deck],
        "deck_size": len(s.deck),
        "set_aside": [
            {"epoch": peoples.card_epoch[p], "people": pids[p], "public": s.public[p]} for p in set_aside
        ],
        "draw_order": [SYMBOLS[q] for q in s.draw_order],
        "draw_index": s.draw_idx,
        "areas": [[m.ids[a], pids[s.occ[a]], s.cnt[a]] for a in range(m.size) if s.occ[a] >= 0],
        "peoples": {
            pids[p]: {"vp": s.pvp[p], "entered": s.entered[p], "removed": s.removed[p]}
            for p in range(peoples.size)
            if s.public[p]  # a People whose card is face down has not played: all zero
        },
        "round": rnd,
        "pending": pending_out(s),
        "last_attack": last_attack_out(s),
    }


def load_position(game: Any, pos: Any, *, strict: bool = True) -> EpochsState:
    """Inverse of :func:`to_position`, for positions from outside (``game.state_from_position``).

    The position is checked against the schema, then against the rules (:mod:`.schema`);
    nothing is dropped or repaired. ``strict=False`` skips what only play keeps in step (the
    declared invariants, the draw order's agreement with the VP, which cards are face up), for
    test situations set up by hand.

    :raises InvalidPosition: (a ``ValueError``) naming the field and, where there is one, the rule.
    """
    from ziggurat.games.mesopotamia_epochs.schema import check_lists, check_schema_of, check_state

    check_schema_of(pos)
    check_lists(game, pos, strict)
    state = _from_position(game, pos)
    check_state(state, strict)
    return state


def from_position(game: Any, pos: dict[str, Any]) -> EpochsState:
    """Inverse of :func:`to_position` without the checks of :func:`load_position`: for positions
    built by the engine itself, valid by construction (``sample_state`` fills in a view of a
    real state, and search calls it often, so it stays cheap).

    :raises ValueError: on a malformed position.
    """
    try:
        return _from_position(game, pos)
    except (KeyError, IndexError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed mesopotamia-epochs position: {exc!r}") from exc


def _from_position(game: Any, pos: dict[str, Any]) -> EpochsState:
    if pos.get("format") != POSITION_FORMAT:
        raise ValueError(f"not a mesopotamia-epochs position (format {pos.get('format')!r})")
    if pos["num_players"] != game.num_players:
        raise ValueError("position is for a different number of players than the game")
    rules = game.rules
    peoples = rules.peoples
    m = rules.map
    pidx = peoples.index
    for key, want in (("map", m.map_id), ("peoples_data", peoples.peoples_id)):
        if pos.get(key, want) != want:
            raise ValueError(f"position is for {key} {pos[key]!r}, the game uses {want!r}")
    n = game.num_players
    s = EpochsState.__new__(EpochsState)
    s.game = game
    s.rules = rules
    s.n = n
    s.epoch = int(pos["epoch"])
    if not 1 <= s.epoch <= peoples.epochs:
        raise ValueError(f"epoch {s.epoch} is outside 1 to {peoples.epochs}")
    s.phase = pos["phase"]
    if s.phase not in PHASES:
        raise ValueError(f"unknown phase {s.phase!r} (one of {', '.join(PHASES)})")
    k = peoples.size
    s.vp = []
    s.owner = [-1] * k
    s.known = [0] * k
    s.public = [False] * k
    s.received = [-1] * n
    for seat, pl in enumerate(pos["players"]):
        if pl["symbol"] != SYMBOLS[seat]:
            raise ValueError(f"player {seat} must be {SYMBOLS[seat]}, not {pl['symbol']!r}")
        s.vp.append(int(pl["vp"]))
        for card in pl["cards"]:
            p = pidx[card["people"]]
            s.owner[p] = seat
            s.known[p] = _mask(card["known_by"])
            s.public[p] = bool(card["public"])
            if peoples.card_epoch[p] == s.epoch:
                s.received[seat] = p
    if len(s.vp) != n:
        raise ValueError("position must list every player")
    s.set_aside = []
    for card in pos["set_aside"]:
        p = pidx[card["people"]]
        s.set_aside.append(p)
        s.public[p] = bool(card["public"])
    s.set_aside.sort()
    s.deck = sorted(pidx[c] for c in pos["deck"])
    s.draw_order = [SYMBOLS.index(q) for q in pos["draw_order"]]
    s.draw_idx = int(pos["draw_index"])
    s.occ = [-1] * m.size
    s.cnt = [0] * m.size
    s.held = [0] * k
    for area, people, count in pos["areas"]:
        a, p = m.index[area], pidx[people]
        s.occ[a] = p
        s.cnt[a] = int(count)
        s.held[p] |= 1 << a
    zero = {"vp": 0, "entered": 0, "removed": 0}
    stats = [pos["peoples"].get(pid, zero) for pid in peoples.ids]
    for pid in pos["peoples"]:
        p = pidx[pid]
        if not s.public[p]:
            raise ValueError(f"position lists the play of {pid}, whose card is face down")
    s.pvp = [int(st["vp"]) for st in stats]
    s.entered = [int(st["entered"]) for st in stats]
    s.removed = [int(st["removed"]) for st in stats]
    rnd = pos["round"]
    if rnd is None:
        s.active, s.order, s.pool, s.sea_round, s.coast_held = -1, 0, 0, False, False
    else:
        s.active = pidx[rnd["people"]]
        s.order = int(rnd["order"])
        s.pool = int(rnd["pool"])
        s.sea_round = bool(rnd["sea_start"])
        s.coast_held = bool(rnd["coast_held"])
    s.pending = _pending_in(s, pos["pending"])
    s.last_attack = _last_attack_in(s, pos.get("last_attack"))  # positions before it have none
    s.log = None
    s._legal = None
    s._legal_set = None
    return s


def _pending_in(s: EpochsState, p: list[Any] | None) -> tuple[Any, ...] | None:
    if p is None:
        return None
    kind = p[0]
    m = s.rules.map
    if kind == "deal":
        return ("deal", SYMBOLS.index(p[1]))
    if kind == "keep":
        card = s.rules.peoples.index[p[1]]
        s.known[card] |= 1 << s.draw_order[s.draw_idx]  # the drawer has seen it (E3.3)
        return ("keep", card)
    if kind == "displace":
        return ("displace", m.index[p[1]])
    if kind == "combat":
        if p[2] not in (1, 2):
            raise ValueError("a combat's defender rolls 1 or 2 dice (E12.3)")
        return ("combat", m.index[p[1]], int(p[2]))
    if kind in ("draw", "landing"):
        return (kind,)
    raise ValueError(f"unknown pending decision {kind!r}")
