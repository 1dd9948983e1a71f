"""Player-readable sentences for Mare Nostrum: Empires, redacted for one viewer (section 7).

:func:`describe_step` turns the events of one step (an applied action plus what the engine did
by itself) into sentences such as "Rome (seat 0) buys a market in Gallia" or "Carthage takes
wine from Egypt". It reads only the event texts and two *views* of the viewer, and never names
what the viewer may not know (7.1-7.5): another seat's trade offer before the reveal, another
seat's legendary draw or Colossus good, the goods another seat keeps behind its screen.
Face-down tiles are never named (a reveal names the tile turned face up, which is public).

Also: :func:`action_groups` (legal actions grouped by kind for a player choosing one),
:data:`NOTATION_HELP`, :func:`log_mark` / :func:`events_since`, and naming helpers shared
with the two renderers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ziggurat.engine.eventlog import events_since as events_since  # re-exported for the CLI
from ziggurat.engine.eventlog import log_mark as log_mark
from ziggurat.engine.notation import group_by_kind
from ziggurat.games.mare_nostrum import data as D

Event = tuple[int, str, bool, int]  # actor (-1 chance), text, auto, seat concerned
View = dict[str, Any]

PROVINCE_NAMES: dict[str, str] = {p["id"]: p["name"] for p in D._MAP["provinces"]}
SEA_NAMES: dict[str, str] = {s["id"]: s["name"] for s in D._MAP["seas"]}
STAGES = {
    "start_title": "set-up: starting titles by lot",
    "reveal": "set-up: tiles revealed",
    "castor": "round start: Castor & Pollux",
    "production": "production",
    "trade_start": "trade",
    "trade_token": "trade: choosing the trade token",
    "trade_size": "trade: offer sizes",
    "trade_offer": "trade: secret offers",
    "trade_starter": "trade: choosing the starter",
    "trade_draft": "trade: taking offered tokens",
    "trade_give": "trade: giving leftovers",
    "buy_perseus": "buy: Perseus",
    "buy_order": "buy: choosing who buys next",
    "buy_turn": "buy",
    "buy_keep": "buy: keeping tokens",
    "mil_zeus": "military: Zeus",
    "mil_order": "military: choosing who moves next",
    "mil_conv": "military: conversions",
    "mil_row": "military: rowing triremes",
    "mil_sea": "military: sea battle",
    "mil_march": "military: moving",
    "mil_fight": "military: land battle",
    "mil_circe": "military: Circe",
    "claim_tie": "claiming titles: a tie",
    "tie_win": "victory: a tie",
    "over": "game over",
}


def area_name(aid: str) -> str:
    return PROVINCE_NAMES.get(aid) or SEA_NAMES.get(aid) or aid.replace("_", " ").title()


def tile_name(tid: str) -> str:
    return str(D.TILES[tid]["name"]) if tid in D.TILES else tid.replace("_", " ").title()


def empire_name(eid: str | None) -> str:
    if eid and eid in D.EMPIRES:
        return str(D.EMPIRES[eid]["name"])
    return eid.title() if eid else "?"


def seat_label(view: View, seat: int) -> str:
    """``Rome (seat 0)`` once empires are dealt, else ``seat 0``."""
    emp = view.get("empires") or []
    if 0 <= seat < len(emp) and emp[seat]:
        return f"{empire_name(emp[seat])} (seat {seat})"
    return f"seat {seat}"


def slot_name(slot: str) -> str:
    """``caravan:grain`` -> ``grain caravan``; ``legendary_city:troia`` -> ``legendary city Troia``."""
    kind, _, arg = slot.partition(":")
    if kind == "caravan":
        return f"{arg} caravan"
    if kind == "legendary_city":
        return f"legendary city {arg.title()}"
    return kind.replace("_", " ")


def token_name(tok: str) -> str:
    if tok.startswith("leg:"):
        return f"legendary {tok[4:]}"
    return tok


def faces_text(faces: str) -> str:
    """``2,4,5,6`` -> ``2, 4, 5, 6 (total 17)``: every die face of a roll (7.6: all public)."""
    shown = faces.split(",")
    if len(shown) == 1:
        return shown[0]
    return f"{', '.join(shown)} (total {sum(int(f) for f in shown)})"


def battle_result(view: View, battle: dict[str, Any], lead: str = "Result") -> str:
    """The outcome of a resolved battle (``last_battle`` of a view): each side's dice, total
    (with the fortress or Nebuchadnezzar bonus, N4.7.3) and the hits it took (N4.7.4-N4.7.6),
    e.g. ``Result in Numidia: Rome (seat 0) 2, 4, 5, 6 = 17, Carthage (seat 2) 3, 4 + 5 = 12;
    hits taken: Rome (seat 0) 2, Carthage (seat 2) 2``."""
    rolled, took = [], []
    hits = battle.get("hits") or [0, 0]
    for i, side in enumerate(("att", "def")):
        who = seat_label(view, int(battle[side]))
        faces = [int(f) for f in battle.get(f"{side}_faces") or []]
        total = (battle.get("totals") or [sum(faces), sum(faces)])[i]
        bonus = total - sum(faces)
        dice = ", ".join(map(str, faces)) or "no dice"
        rolled.append(
            f"{who} {dice}{f' + {bonus}' if bonus else ''}{f' = {total}' if len(faces) > 1 or bonus else ''}"
        )
        took.append(f"{who} {hits[i]}")
    where = area_name(str(battle.get("where")))
    return f"{lead} in {where}: {', '.join(rolled)}; hits taken: {', '.join(took)}"


def _a(thing: str) -> str:
    return ("an " if thing[:1] in "aeiou" else "a ") + thing


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


# --- the event log -----------------------------------------------------------------------------
# log_mark / events_since: the engine's (ziggurat.engine.eventlog), re-exported above


# --- sentences -----------------------------------------------------------------------------------
def _offers_public(view: View) -> bool:
    trade = view.get("trade")
    return trade is None or bool(trade.get("revealed"))


def _event_sentence(ev: Event, before: View, after: View) -> str:  # noqa: C901, PLR0911, PLR0912
    actor, text, _auto, concerned = ev
    viewer = after.get("viewer")
    w = text.split()
    kind = w[0]
    who = seat_label(after, actor) if actor >= 0 else "Chance"
    arg = w[1:]
    if kind == "empires":
        names = ", ".join(f"{empire_name(e)} to seat {i}" for i, e in enumerate(arg[0].split(",")))
        return f"Empires are dealt: {names}"
    if kind == "empire":
        return f"{who} takes {empire_name(arg[0])}"
    if kind == "reveal":
        return f"{tile_name(arg[0])} is turned face up in the display"
    if kind == "copy":
        return f"{who} copies nothing this round" if arg[0] == "none" else f"{who} copies {tile_name(arg[0])} this round"  # fmt: skip
    if kind == "draw":
        drawer = seat_label(after, concerned) if concerned >= 0 else "A player"
        if concerned == viewer and viewer is not None:
            return f"{drawer} draws a legendary {arg[0]}"
        return f"{drawer} draws a legendary good"
    if kind == "extra":
        return f"{who} takes an extra {'tax' if arg[0] == 'tax' else 'legendary good'}"
    if kind == "colossus":
        if actor == viewer:
            return f"{who} takes {arg[0]} with the Colossus"
        return f"{who} takes a good with the Colossus"
    if kind == "token":
        return f"{who} plays trade token {arg[0].upper()} with value {arg[1]}"
    if kind == "offer":
        if arg[0] == "size":
            return f"{who} offers {arg[1]} token{'s' if arg[1] != '1' else ''}"
        if actor == viewer or _offers_public(after):
            return f"{who} offers {token_name(arg[0])}"
        return f"{who} adds a token to its secret offer"
    if kind == "starter":
        return f"{who} names {seat_label(after, int(arg[0]))} to start taking"
    if kind == "take":
        return f"{who} takes {token_name(arg[0])} from {seat_label(after, int(arg[2]))}"
    if kind == "give":
        return f"{who} gives {token_name(arg[0])}"
    if kind == "first":
        return f"{who} {'buys first' if arg[0] == 'yes' else 'does not buy first'} (Perseus)"
    if kind == "next":
        if int(arg[0]) == actor:
            return f"{who} goes next"
        return f"{who} lets {seat_label(after, int(arg[0]))} go next"
    if kind == "buy" or kind == "build" or kind == "free":
        return _buy_sentence(who, kind, arg)
    if kind == "pay":
        return f"{who} pays {token_name(arg[0])}"
    if kind == "end":
        return f"{who} ends its turn"
    if kind == "keep":
        if actor == viewer:
            kept = "nothing" if arg[0] == "none" else ", ".join(token_name(t) for t in arg[0].split(","))
            return f"{who} keeps {kept} and discards the rest"
        k = 0 if arg[0] == "none" else len(arg[0].split(","))
        return f"{who} keeps {k} token{'s' if k != 1 else ''} and discards the rest"
    if kind == "zeus":
        return f"{who} uses Zeus on nobody" if arg[0] == "none" else f"{who} uses Zeus: {seat_label(after, int(arg[0]))} moves first"  # fmt: skip
    if kind == "done":
        return f"{who} is done with this step"
    if kind == "convert":
        return f"{who} converts {area_name(arg[0])}" if arg else f"{who} converts the conquered province"
    if kind == "row":
        return f"{who} rows a trireme from {area_name(arg[0])} to {area_name(arg[1])}"
    if kind == "seabattle":
        return f"{who} attacks {seat_label(after, int(arg[1]))} in {area_name(arg[0])}"
    if kind in ("march", "sail"):
        tail = ""
        if len(arg) > 2:
            tail = " onto its marker" if arg[2] == "@marker" else f" onto the {slot_name(arg[2][1:])}"
        how = "marches" if kind == "march" else "sails"
        return f"{who} {how} a legion from {area_name(arg[0])} to {area_name(arg[1])}{tail}"
    if kind == "fight":
        return f"{who} attacks {seat_label(after, int(arg[1]))} in {area_name(arg[0])}"
    if kind == "roll":
        shown = faces_text(arg[0])
        if concerned >= 0:
            return f"{seat_label(after, concerned)} rolls {shown}"
        return f"Dice: {shown}"
    if kind == "lose":
        what = {"free": "a free legion", "marker": "the legion on its marker"}.get(arg[0], f"the legion on the {slot_name(arg[0])}")  # fmt: skip
        return f"{who} loses {what}"
    if kind == "pillage":
        gain = f" and takes {arg[1].replace(',', ' and ')}" if len(arg) > 1 else ""
        return f"{who} pillages the {slot_name(arg[0])}{gain}"
    if kind == "occupy":
        return f"{who} occupies the {' and the '.join(slot_name(s) for s in arg[0].split('+'))}"
    if kind == "pass":
        return f"{who} passes"
    if kind == "circe":
        return f"{who} uses Circe on the {slot_name(arg[1])} in {area_name(arg[0])}"
    if kind == "title":
        lot = " by lot" if actor < 0 else ""  # a tied vacant starting title (4.2, random)
        return f"{seat_label(after, int(arg[1]))} takes the {arg[0]} title{lot}"
    if kind == "winner":
        return f"{seat_label(after, int(arg[0]))} wins the tie"
    return f"{who}: {text}"


def _buy_sentence(who: str, kind: str, arg: list[str]) -> str:
    cheap = " at the reduced cost" if arg and arg[-1] == "cheap" else ""
    if kind == "build":
        return f"{who} builds {_a(slot_name(arg[0]))} in {area_name(arg[1])}{cheap}"
    if kind == "free":
        return f"{who} places a free {arg[0]} in {area_name(arg[1])}"
    what = arg[0]
    if what == "tile":
        return f"{who} buys {tile_name(arg[1])}"
    if what == "pyramids":
        return f"{who} buys the Pyramids"
    if what == "marker":
        return f"{who} buys an influence marker for {area_name(arg[1])}"
    return f"{who} buys {_a(what)} in {area_name(arg[1])}{cheap}"


def _reveal_sentence(before: View, after: View) -> str | None:
    """7.2: all offers are revealed together once every offer is committed."""
    old, new = before.get("trade"), after.get("trade")
    if not old or old.get("revealed") or not new or not new.get("revealed"):
        return None
    parts = []
    for s, offer in enumerate(new.get("offers") or []):
        if offer is not None:
            parts.append(f"{seat_label(after, s)} {', '.join(token_name(t) for t in offer) or 'nothing'}")
    return "Offers revealed: " + "; ".join(parts)


def result_sentence(view: View) -> str:
    w = view.get("winner")
    if w is None:
        return "Game over"
    return f"Game over: {seat_label(view, int(w))} wins"


def describe_event(event: Event, before: View, after: View) -> str:
    return _cap(_event_sentence(event, before, after))


def describe_step(events: Sequence[Event], before: View, after: View) -> list[tuple[str, bool]]:
    """Sentences ``(text, auto)`` for one step as the viewer of ``before``/``after`` may read
    them: one per event, then the round start and the end of the game when they happened."""
    out = [(describe_event(e, before, after), bool(e[2])) for e in events]
    revealed = _reveal_sentence(before, after)
    if revealed:
        out.append((revealed, True))
    fought = after.get("last_battle")
    if fought and fought != before.get("last_battle"):
        out.append((battle_result(after, fought), True))
    if after.get("round") != before.get("round") and after.get("stage") != "over":
        out.append((f"Round {after.get('round')} begins", True))
    if after.get("stage") == "over" and before.get("stage") != "over":
        out.append((result_sentence(after), True))
    return out


# --- legal actions, for a player choosing one ----------------------------------------------------
ACTION_KINDS = {
    "empire": "choose your empire (D1)",
    "copy": "Castor & Pollux: copy a tile this round (D2)",
    "extra": "production: an extra tax or legendary good (D3)",
    "colossus": "the good the Colossus gives (D4)",
    "token": "the trade token and its value (D5)",
    "offer": "your secret offer, one token at a time (D6, D7)",
    "starter": "who starts taking (D8)",
    "take": "take an offered token (D9)",
    "give": "give a leftover token (D10)",
    "first": "Perseus: buy first (D11)",
    "next": "who goes next (D12, D16)",
    "buy": "buy a marker, unit, tile or the Pyramids (N3)",
    "build": "build in a slot (N3)",
    "free": "a free marker or legion (Hammurabi, Penthesilea)",
    "pay": "pay with a token (N0.8)",
    "end": "end your turn",
    "keep": "tokens to keep (D14)",
    "zeus": "Zeus: who moves first (D15)",
    "convert": "convert a province (D17, D23)",
    "row": "row a trireme (D18)",
    "seabattle": "attack at sea (D19)",
    "march": "march a legion (D20)",
    "sail": "carry a legion by sea (D20)",
    "fight": "attack on land (D21)",
    "lose": "which legion you lose (D22)",
    "pillage": "pillage a building (D23)",
    "occupy": "occupy buildings (D23)",
    "pass": "pass",
    "circe": "Circe (D24)",
    "done": "finish this step",
    "title": "who takes the tied title (D25)",
    "winner": "who wins the tie (D26)",
}


def action_groups(legal: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Legal actions grouped by kind, kinds in order of first appearance."""
    return group_by_kind(legal, ACTION_KINDS)


NOTATION_HELP = """\
Notation (docs/mare-nostrum.md): lower-case words, areas and tiles by id (latium, mare_ionium,
colossus), seats by number. Trade: token a 4 · offer size 2 · offer wine · take oil from 1 ·
give tax. Buy: build market gallia · buy legion latium · buy tile perseus · pay grain · end.
Military: march gallia latium · sail achea asia · fight sicilia 2 · lose free · done."""


def result_facets(state: Any) -> dict[str, str]:
    """How a finished game was won, for ``ziggurat simulate``'s balance table: the winning
    empire and the victory condition (N6), or "none" for a game without a winner."""
    from ziggurat.games.mare_nostrum.bots import victory_condition

    pos = state.to_position()
    winner = pos.get("winner")
    if winner is None:
        return {"winning empire": "none", "victory": "none"}
    return {
        "winning empire": str(pos["empires"][winner]),
        "victory": str(victory_condition(pos, state.game.opts)),
    }
