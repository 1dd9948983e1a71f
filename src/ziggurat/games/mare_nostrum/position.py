"""Loading Mare Nostrum positions: the schema (:mod:`.schema`), then what the rules make
impossible, then the state (:func:`.state.from_position`).

The semantic checks refuse, naming the field and the rule: per-seat lists of the wrong
length and seats that do not play; provinces, seas, building slots and tiles that are not on
the in-play board (3.3, R34); legions at sea and triremes on land; a tile in two places or in
none (2.8); a building in a slot its province does not have or twice (3.2); an occupation by
the province's own owner or a legion on the marker without the conqueror mark (N4.10, N4.11);
a stage without the record of its phase (or a record outside it), and the seat it waits for
missing; queue items outside their phase (N1.6, N4.10.2); and whatever the declared
invariants refuse (legendary goods, piece and building limits, neutral provinces, conqueror
marks). Nothing is dropped or repaired.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ziggurat.engine.positions import Refusal
from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.schema import check_schema_of

if TYPE_CHECKING:
    from ziggurat.games.mare_nostrum.game import MareNostrumGame
    from ziggurat.games.mare_nostrum.state import NostrumState

_refuse = Refusal("mare-nostrum")
_OPTIONAL = ("castor", "start_titles", "last_trade", "last_payment", "last_battle")
# Which record each stage needs; the others must be null (the game may also end during a buy).
_RECORD = {"trade": "trade_", "buy": "buy_", "mil": "mil_", "claim": "claim_"}
# The seats each phase record names: (record, single seats, lists of distinct seats).
_RECORD_SEATS = (
    ("trade", ("starter", "chooser"), ("sizing",)),
    ("buy", ("active",), ("done", "first", "perseus")),
    ("mil", ("active",), ("done", "zeus_q", "circe_used")),
    ("claim", (), ("tied",)),
)
# Where the declared invariants' messages point (field, rule) when one of them fails.
_INVARIANT_FIELDS = (
    ("non-positive", "res", "2.3"),
    ("legendary", "pool", "2.3"),
    ("too many", "legions", "N0.9"),
    ("building supply", "buildings", "2.4"),
    ("placed legions", "occupy", "N4.11.3"),
    ("neutral", "buildings", "N0.4.2"),
    ("conqueror", "conqueror", "N4.10.1"),
    ("pending conversion", "pending", "N4.10.4"),
    ("occupied", "occupy", "N4.11.3"),
)


def load_position(game: MareNostrumGame, position: Any, *, strict: bool = True) -> NostrumState:
    """A state from a position written by ``to_position`` (or by hand), checked first.

    ``strict=False`` skips what only play keeps in step (which tiles are in play and where,
    what Castor & Pollux copies, empty unit entries, which phase records the stage has, the
    declared invariants), for test situations set up by hand.

    :raises InvalidPosition: (a ``ValueError``) naming the field and, where there is one, the rule.
    """
    from ziggurat.games.mare_nostrum.invariants import check
    from ziggurat.games.mare_nostrum.state import POSITION_FORMAT, from_position

    fmt = position.get("format", POSITION_FORMAT) if isinstance(position, dict) else POSITION_FORMAT
    if fmt != POSITION_FORMAT:
        _refuse("format", f"not a Mare Nostrum position (format {fmt!r}, expected {POSITION_FORMAT!r})")
    check_schema_of(position)
    check_position(game, position, strict)
    state = from_position(game, position)
    if strict:
        for message in check(state.d):
            field, rule = next(
                ((f, r) for key, f, r in _INVARIANT_FIELDS if key in message), ("(pieces)", "2")
            )
            _refuse(field, f"not conserved: {message}", rule)
    _check_records(state.d)
    if not state.is_terminal() and not state.legal_actions():
        _refuse("stage", f"nobody can act in stage {position['stage']}: every decision has a choice", "N0")
    return state


def check_position(game: MareNostrumGame, d: dict[str, Any], strict: bool = True) -> None:
    """The semantic checks (module docstring) on a position that fits the schema."""
    n = game.num_players
    if d.get("num_players", d["n"]) != d["n"]:
        _refuse(
            "num_players",
            f"the position's header says {d['num_players']} players but its state is for {d['n']} (n)",
        )
    if d["n"] != n:
        _refuse("n", f"the position is for {d['n']} players, the game for {n}")
    for key in _OPTIONAL:
        if key in d and d[key] is None:
            _refuse(key, "absent when unused, never null")
    _check_seats(d, n)
    _check_board(game, d, n, strict)
    _check_tiles(game, d, n, strict)
    _check_stage(d, strict)


def _seat(field: str, seat: Any, n: int) -> None:
    if seat is not None and not 0 <= seat < n:
        _refuse(field, f"seat {seat} does not play in a {n}-player game")


def _check_seats(d: dict[str, Any], n: int) -> None:
    for key in ("empires", "res", "tiles", "copy"):
        if len(d[key]) != n:
            _refuse(key, f"{len(d[key])} entries, one per seat of {n}")
    for key in ("markers", "fortresses", "on_marker", "conqueror"):
        for area, seat in d[key].items():
            _seat(f"{key}.{area}", seat, n)
    for area, (seat, _) in d["pending"].items():
        _seat(f"pending.{area}", seat, n)
    for area, slots in d["occupy"].items():
        for slot, seat in slots.items():
            _seat(f"occupy.{area}.{slot}", seat, n)
    for track, seat in d["titles"].items():
        _seat(f"titles.{track}", seat, n)
    for key in ("pyramids", "winner"):
        _seat(key, d[key], n)
    for i, item in enumerate(d["queue"]):
        _seat(f"queue.{i}", item[1], n)
    for i, (owner, named) in enumerate(d["zeus"]):
        _seat(f"zeus.{i}", owner, n)
        _seat(f"zeus.{i}", named, n)
    for i, seat in enumerate(d.get("castor") or []):
        _seat(f"castor.{i}", seat, n)
    for i, (_, tied) in enumerate(d.get("start_titles") or []):
        for seat in tied:
            _seat(f"start_titles.{i}", seat, n)
        if len(tied) < 2 or len(set(tied)) != len(tied):
            _refuse(f"start_titles.{i}", "a lot is drawn between two or more tied players", "4.2")
    if d.get("last_payment"):
        _seat("last_payment.seat", d["last_payment"]["seat"], n)
    for key, singles, lists in _RECORD_SEATS:
        rec = d[key]
        if rec is None:
            continue
        for name in singles:
            _seat(f"{key}.{name}", rec[name], n)
        for name in lists:
            for seat in rec[name]:
                _seat(f"{key}.{name}", seat, n)
            if len(set(rec[name])) != len(rec[name]):
                _refuse(f"{key}.{name}", "a seat listed twice")
    trade = d["trade"]
    if trade is not None:
        for key in ("offers", "received"):
            if len(trade[key]) != n:
                _refuse(f"trade.{key}", f"{len(trade[key])} entries, one per seat of {n}")
        for seat in trade["parts"]:
            _seat(f"trade.parts.{seat}", int(seat), n)
        for i, (a, b) in enumerate(trade["takes"]):
            _seat(f"trade.takes.{i}", a, n)
            _seat(f"trade.takes.{i}", b, n)
    if d["battle"] is not None:
        _seat("battle.att", d["battle"]["att"], n)
        _seat("battle.def", d["battle"]["def"], n)
        if d["battle"]["att"] == d["battle"]["def"]:
            _refuse("battle", "a player does not fight himself", "N4.6")


def _check_board(game: MareNostrumGame, d: dict[str, Any], n: int, strict: bool) -> None:
    board = game.board
    provinces, seas = board.provinces, board.seas
    for key in ("markers", "buildings", "fortresses", "occupy", "on_marker", "pending", "conqueror"):
        for area in d[key]:
            if area not in provinces:
                _refuse(f"{key}.{area}", "not a province of the in-play board", "3.3")
    for key, areas, what in (("legions", provinces, "province"), ("triremes", seas, "sea")):
        for area, row in d[key].items():
            if area not in areas:
                _refuse(f"{key}.{area}", f"not a {what} of the in-play board", "3.3")
            if len(row) != n:
                _refuse(f"{key}.{area}", f"{len(row)} counts, one per seat of {n}")
            if strict and not any(row):
                _refuse(f"{key}.{area}", "an entry with no units")
    for prov, slots in d["buildings"].items():
        allowed = board.slots(prov)
        if len(set(slots)) != len(slots):
            _refuse(f"buildings.{prov}", "a slot built twice", "3.2")
        for slot in slots:
            if slot not in allowed:
                _refuse(f"buildings.{prov}", f"{slot!r} is not a slot of {prov}", "3.2")
    for prov, occ in d["occupy"].items():
        if not occ:
            _refuse(f"occupy.{prov}", "an entry with no occupied building")
        for slot, seat in occ.items():
            if d["markers"].get(prov) == seat:
                _refuse(f"occupy.{prov}.{slot}", "a player never occupies his own province", "N4.11.3")
    for prov, seat in d["on_marker"].items():
        if d["conqueror"].get(prov) != seat or d["pending"].get(prov, [None])[0] != seat:
            _refuse(f"on_marker.{prov}", "only a conqueror converting stands on the marker", "N4.11.4")
    for prov, (_, when) in d["pending"].items():
        if when > d["round"]:
            _refuse(f"pending.{prov}", f"Convert chosen in round {when}, after this round", "N4.11.4")
    for prov, seat in d["fortresses"].items():
        if d["markers"].get(prov) != seat:
            _refuse(f"fortresses.{prov}", "a fortress stands in its owner's province", "N3.8")
    for i, item in enumerate(d["queue"]):
        if item[0] == "conquest" and item[2] not in provinces:
            _refuse(f"queue.{i}", f"{item[2]!r} is not a province of the in-play board", "3.3")
        if item[0] == "lose" and item[2] not in provinces and item[2] not in seas:
            _refuse(f"queue.{i}", f"{item[2]!r} is not on the in-play board", "3.3")
    mil = d["mil"]
    if mil is not None:
        for area in mil["arrived"]:
            if area not in provinces and area not in seas:
                _refuse(f"mil.arrived.{area}", "not on the in-play board", "3.3")
        for fight in mil["fought"]:  # a sea, or a province and the seat fought there
            prov, _, seat = fight.partition(":")
            if fight not in seas and not (prov in provinces and seat.isdigit() and int(seat) < n):
                _refuse("mil.fought", f"{fight!r} is neither a sea nor a province and a seat", "3.3")
    for key in ("battle", "last_battle"):
        bt = d.get(key)
        if bt is not None and bt["where"] not in (seas if bt["kind"] == "sea" else provinces):
            _refuse(f"{key}.where", f"{bt['where']!r} is not a {bt['kind']} area of the board", "3.3")
    empires = d["empires"]
    if d["stage"] == "assign":
        if None not in empires:
            _refuse("empires", "every empire is assigned once the game has begun", "S2")
    elif None in empires:
        _refuse("empires", "an empire is missing after set-up", "S2")
    chosen = [e for e in empires if e is not None]
    if len(set(chosen)) != len(chosen):
        _refuse("empires", "an empire played by two seats", "S2")
    for e in chosen:
        if e not in board.empires:
            _refuse("empires", f"{e} is not in play with {n} players", "3.3")
    if d["stage"] != "assign" and any(d[k] for k in ("markers", "legions")) is False:
        _refuse("markers", "the empires' pieces are missing after set-up", "S3")


def _check_tiles(game: MareNostrumGame, d: dict[str, Any], n: int, strict: bool) -> None:
    board = game.board
    if len(d["display"]) != int(game.opts["face_up_tiles"]):
        _refuse(
            "display",
            f"{len(d['display'])} spaces, not the {game.opts['face_up_tiles']} of the option",
            "2.8",
        )
    places: dict[str, str] = {}
    owned: list[tuple[str, str]] = [(f"tiles.{s}", t) for s in range(n) for t in d["tiles"][s]]
    shown = [("display", t) for t in d["display"] if t is not None]
    for field, tile in owned + shown + [("facedown", t) for t in d["facedown"]]:
        if strict and tile not in board.tiles:
            _refuse(field, f"{tile} is not in play with {n} players", "3.3")
        if strict and tile in places:
            _refuse(field, f"{tile} is also in {places[tile]}", "2.8")
        places[tile] = field
    if strict and d["stage"] != "assign":
        for tile in board.tiles:
            if tile not in places:
                _refuse("tiles", f"{tile} is nowhere (owned, face up or face down)", "2.8")
        for field, tile in shown + [("facedown", t) for t in d["facedown"]]:
            if not D.TILES[tile]["purchasable"]:
                _refuse(field, f"{tile} is a starting hero, never for sale", "4.1")
    for s, tile in enumerate(d["copy"]):
        if strict and tile is not None and (tile in d["tiles"][s] or not any(tile in t for t in d["tiles"])):
            _refuse(f"copy.{s}", f"{tile} is not another player's tile", "N0.12")


def _check_stage(d: dict[str, Any], strict: bool) -> None:
    st = d["stage"]
    for key, prefix in _RECORD.items() if strict else ():
        wanted = st.startswith(prefix) and st not in ("trade_start", "trade_token")
        if wanted and d[key] is None:
            _refuse(key, f"stage {st} needs its {key} record")
        if not wanted and d[key] is not None and not (st == "over" and key in ("buy", "mil")):
            _refuse(key, f"no {key} record in stage {st}")
    if d["battle"] is not None and st not in ("mil_sea", "mil_fight"):
        _refuse("battle", f"no battle in stage {st}", "N4.6")
    if (st == "over") != (d["winner"] is not None):
        _refuse("winner", "a winner when, and only when, the game is over", "N6")
    if all(d["tokens_used"]):
        _refuse("tokens_used", "all three tokens used means all three are available again", "N2.1")
    if st == "castor" and not d.get("castor"):
        _refuse("castor", "stage castor waits for a Castor & Pollux owner", "N0.12")
    if st != "castor" and "castor" in d:
        _refuse("castor", f"no Castor & Pollux choice in stage {st}", "N0.12")
    if (st == "start_title") != bool(d.get("start_titles")):
        _refuse("start_titles", "tied starting titles are drawn by lot in stage start_title only", "4.2")
    if st not in ("assign", "start_title") and None in d["titles"].values():
        _refuse("titles", "every title has a holder after set-up", "4.2")
    if st not in ("assign", "start_title", "reveal") and d["round"] < 1:
        _refuse("round", "the rounds start at 1", "N0")
    for i, item in enumerate(d["queue"]):
        production = item[0] in ("lc", "colossus") or (item[0] == "draw" and st == "trade_start")
        if production != (st == "trade_start") or (not production and not st.startswith("mil_")):
            _refuse(f"queue.{i}", f"a {item[0]} item in stage {st}", "N1.6" if production else "N4.10.2")
    waits = {
        "trade_size": ("trade", "sizing"),
        "trade_give": ("trade", "starter"),
        "trade_draft": ("trade", "chooser"),
        "buy_perseus": ("buy", "perseus"),
        "buy_turn": ("buy", "active"),
        "buy_keep": ("buy", "active"),
        "mil_zeus": ("mil", "zeus_q"),
        "claim_tie": ("claim", "tied"),
    }
    for stage in ("mil_conv", "mil_row", "mil_sea", "mil_march", "mil_fight", "mil_circe"):
        waits[stage] = ("mil", "active")
    if st in waits:
        key, name = waits[st]
        if d[key][name] in (None, []):
            _refuse(f"{key}.{name}", f"stage {st} waits for a seat here")
    if d["buy"] is not None and d["buy"]["paying"] is not None and st != "buy_turn":
        _refuse("buy.paying", "a payment is made during a buy turn", "N0.8")


def _check_records(d: dict[str, Any]) -> None:
    """The phase records against the board: a trade with its next offerer, a battle with dice
    still to roll, a payment for a purchase that was legal when it began (N0.8)."""
    from ziggurat.games.mare_nostrum import battle, buy_place

    t = d["trade"]
    if t is not None:
        i, v = t["token"]
        if v != t["v"] or v not in d["opts"]["trade_token_faces"][i]:
            _refuse("trade.token", f"{v} is not the face of token {i} shown for this trade", "N2.1")
        for key, size in t["parts"].items():
            seat = int(key)
            if size > t["v"]:
                _refuse(f"trade.parts.{key}", f"an offer of {size} in a trade of {t['v']}", "N2.2.3")
            offering = d["stage"] in ("trade_size", "trade_offer")
            if offering and size - len(t["offers"][seat]) > sum(d["res"][seat].values()):
                _refuse(f"trade.parts.{key}", "more tokens still to offer than the player holds", "N2.3")
        for seat, offer in enumerate(t["offers"]):
            if len(offer) > t["parts"].get(str(seat), 0):
                _refuse(f"trade.offers.{seat}", "more tokens offered than the offer's size", "N2.3")
        if d["stage"] == "trade_offer" and all(len(t["offers"][int(q)]) >= k for q, k in t["parts"].items()):
            _refuse("trade.offers", "stage trade_offer with every offer complete", "N2.3")
    bt = d["battle"]
    if bt is not None:
        rows = d["triremes"] if bt["kind"] == "sea" else d["legions"]
        row = rows.get(bt["where"], [])
        if not row or not row[bt["att"]] or not row[bt["def"]]:
            _refuse("battle", f"both sides have units in {bt['where']}", "N4.6")
        faces = set(d["opts"]["die_faces"])
        for side in ("att", "def"):
            rolled = bt[f"{side}_faces"]
            if len(rolled) > battle.dice(d, side) or not set(rolled) <= faces:
                _refuse(f"battle.{side}_faces", "not a roll of this side's dice", "N4.7")
        if battle.rolling_side(d) is None:
            _refuse("battle", "a battle whose dice are all rolled is already resolved", "N4.7")
    bu = d["buy"]
    if bu is not None and bu["paying"] is not None:
        pay = bu["paying"]
        seat = bu["active"]
        if len(pay["paid"]) >= pay["cost"]:
            _refuse("buy.paying.paid", "a complete payment is already made", "N0.8.1")
        before = {**d, "res": [dict(r) for r in d["res"]], "buy": {**bu, "paying": None}}
        for tok in pay["paid"]:
            before["res"][seat][tok] = before["res"][seat].get(tok, 0) + 1
        item = pay["item"]
        cheap = pay["kind"] != "normal"
        action = item if item.startswith("build ") else f"buy {item}{' cheap' if cheap else ''}"
        if action not in buy_place.turn_legal(before):
            _refuse("buy.paying.item", f"{action!r} is not a purchase {seat} could begin", "N3")
        expected = 1 if cheap else _cost(d, seat, item)
        if pay["cost"] != expected:
            _refuse("buy.paying.cost", f"{item} costs {expected}, not {pay['cost']}", "N3.3")


def _cost(d: dict[str, Any], seat: int, item: str) -> int:
    from ziggurat.games.mare_nostrum import buy_place

    words = item.split()
    if words[0] == "build":
        return D.COST[D.building_kind(words[1])]
    if words[0] == "tile":
        return buy_place.cost_tile(d, seat)
    if words[0] == "pyramids":
        return int(d["opts"]["pyramids_cost"])
    return D.COST[words[0]]
