"""The Mesopotamia board as Rich renderables for a terminal, drawn from one seat's *view*.

Only a view (``state.view(seat)``, rules spec §6) is read, never the true state, so nothing the
viewer may not see can be drawn. The hex map is an offset grid: flat-top axial ``q,r`` become
columns ``q`` with odd columns shifted down half a cell, so neighbours touch as on the board.
Each cell shows its coordinate and tile type, then tokens for huts, holy places, loose
resources and tribes; the legend under the map explains them. A tile's left edge (``┌``, ``│``)
runs from its title down, so the lines of its tokens, which sit beside the title of a tile in
the next column, read as its own. Colour helps, but every token
also carries letters, so the board reads the same in a plain log or a pipe.

Every word comes from the game's message catalogue (``meso.board.*``, the tile codes
``meso.tileCode.*`` and the game's vocabularies), in the reader's language ``lang``. Tokens
keep the notation's letters (``b3ws``, ``2w``), the same in every language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.engine.messages import Message, message, render
from ziggurat.games.mesopotamia import vocabulary as V
from ziggurat.games.mesopotamia.data import COLOURS, OFFERING_VALUES, OPTION_DEFAULTS, PIECES
from ziggurat.games.mesopotamia.describe import hut_name

View = dict[str, Any]


@dataclass(frozen=True)
class Palette:
    """Rich styles of the board. ``FULL`` needs 256 colours or more; ``BASIC`` keeps to the 16
    standard colours, where the tile types are told by their title bar only."""

    tile: dict[str, str]  # cell body per tile type
    header: dict[str, str]  # the coordinate line: a darker "title bar", so stacked cells stay apart
    chip: dict[str, str]  # tokens of a player's pieces (and neutral huts)
    text: dict[str, str]  # player names in text
    wood: str
    stone: str


FULL = Palette(
    tile={
        "plains": "black on #d4dc8c",
        "forest": "bright_white on #1d4a26",
        "quarry": "black on #b4aa9a",
        "volcano": "bright_white on #7a2214",
        "temple": "black on #e6bc50",
    },
    header={
        "plains": "bold black on #b4bc68",
        "forest": "bold bright_white on #10341a",
        "quarry": "bold black on #978b7a",
        "volcano": "bold bright_white on #58160a",
        "temple": "bold black on #c89a34",
    },
    chip={
        "blue": "bold bright_white on #2456c8",
        "yellow": "bold black on #f0c800",
        "red": "bold bright_white on #c0281e",
        "green": "bold bright_white on #3a9a3e",
        "neutral": "bold black on #e8e8e8",
    },
    text={"blue": "bold #4a7cf0", "yellow": "bold #e0b000", "red": "bold #e04030", "green": "bold #40b040"},
    wood="bold bright_white on #7a4a1c",
    stone="bold black on #d8d8d8",
)
BASIC = Palette(
    tile={"plains": "", "forest": "", "quarry": "", "volcano": "red", "temple": ""},
    header={
        "plains": "bold black on bright_yellow",
        "forest": "bold bright_white on green",
        "quarry": "bold black on white",
        "volcano": "bold bright_white on red",
        "temple": "bold black on yellow",
    },
    chip={
        "blue": "bold bright_white on blue",
        "yellow": "bold black on bright_yellow",
        "red": "bold bright_white on red",
        "green": "bold black on bright_green",
        "neutral": "bold black on white",
    },
    text={
        "blue": "bold bright_blue",
        "yellow": "bold bright_yellow",
        "red": "bold bright_red",
        "green": "bold bright_green",
    },
    wood="bold bright_red",
    stone="bold bright_white",
)


def palette_for(color_system: str | None) -> Palette:
    """The palette for a Rich console's ``color_system``."""
    return FULL if color_system in ("256", "truecolor") else BASIC


SPACE_STYLE = "dim"

CELL_HEIGHT = 4  # lines per hex cell; odd columns are shifted down by half of it
EDGE_TOP, EDGE = "┌", "│"  # a tile's left edge: on its title line, on the lines of its pieces


def seat_player(view: View, seat: int, alone: bool = False) -> Message:
    """The player at ``seat`` by colour (``Blue``), in a sentence or ``alone`` (a prompt)."""
    return V.colour_named(_colour_of(view, seat))


def _colour_of(view: View, seat: int) -> str:
    return str(view["players"][seat]["colour"])


def _viewer_colour(view: View) -> str | None:
    who = view.get("viewer")
    return None if who is None else str(who)


def offering_text(view: View, owner: str, pub: int | str) -> str:
    """The value of offering ``pub`` of ``owner`` as the view shows it, else ``?``."""
    for pl in view["players"]:
        if pl["colour"] == owner:
            value = pl["offerings"]["placed"].get(str(pub))
            return "?" if value is None else str(value)
    return "?"


# --- the map ----------------------------------------------------------------------------
def cell_tokens(view: View, palette: Palette = FULL) -> dict[tuple[int, int], list[tuple[str, str]]]:
    """Per tile, the tokens ``(text, style)`` drawn in its cell, in drawing order."""
    tokens: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for owner, _num, q, r, pub in view["huts"]:
        mark = ""
        if pub:
            value = offering_text(view, owner, pub)
            mark = "•" if value == "?" else value
        letter = "n" if owner == "neutral" else owner[0]
        tokens.setdefault((q, r), []).append((f"⌂{letter}{mark}", palette.chip[owner]))
    for q, r, owner in view["holy_places"]:
        tokens.setdefault((q, r), []).append((f"✚{owner[0]}", palette.chip[owner]))
    for q, r, wood, stone in view["loose"]:
        if wood:
            tokens.setdefault((q, r), []).append((f"{wood}w", palette.wood))
        if stone:
            tokens.setdefault((q, r), []).append((f"{stone}s", palette.stone))
    for pl in view["players"]:
        colour = pl["colour"]
        groups: dict[tuple[int, int], list[str]] = {}
        for q, r, cargo, _spent in pl["tribes"]:
            groups.setdefault((q, r), []).append(cargo)
        for c, cargos in groups.items():
            tokens.setdefault(c, []).append((tribe_token(view, colour, cargos), palette.chip[colour]))
    return tokens


def tribe_token(view: View, colour: str, cargos: Sequence[str]) -> str:
    """``b3wo6``: 3 blue tribes, one carrying wood, one carrying an offering worth 6."""
    text = f"{colour[0]}{len(cargos)}"
    for cargo in sorted(cargos):
        if cargo in ("w", "s"):
            text += cargo
        elif cargo.startswith("o"):
            value = offering_text(view, colour, cargo[1:])
            text += "o" if value == "?" else f"o{value}"
    return text


def _offset(q: int, r: int) -> tuple[int, int]:
    """Flat-top axial to odd-q offset (column, row)."""
    return q, r + (q - (q & 1)) // 2


def _spaces(tiles: set[tuple[int, int]]) -> set[tuple[int, int]]:
    from ziggurat.games.mesopotamia.data import DIRECTIONS

    return {(q + dq, r + dr) for q, r in tiles for dq, dr in DIRECTIONS} - tiles


class _Canvas:
    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[str]] = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, text: str, style: str) -> None:
        row, srow = self.chars[y], self.styles[y]
        for i, ch in enumerate(text):
            if 0 <= x + i < len(row):
                row[x + i] = ch
                srow[x + i] = style

    def fill(self, x: int, y: int, w: int, style: str) -> None:
        self.put(x, y, " " * w, style)

    def lines(self) -> list[Text]:
        """The canvas as styled lines, without blank lines above or below the drawing."""
        used = [i for i, (row, srow) in enumerate(zip(self.chars, self.styles, strict=True))
                if any(ch != " " for ch in row) or any(srow)]  # fmt: skip
        if not used:
            return []
        out = []
        for row, srow in zip(
            self.chars[used[0] : used[-1] + 1], self.styles[used[0] : used[-1] + 1], strict=True
        ):
            end = len(row)
            while end and row[end - 1] == " " and not srow[end - 1]:
                end -= 1  # drop unstyled trailing blanks, keep tile backgrounds
            line = Text(no_wrap=True)
            start = 0
            for i in range(1, end + 1):
                if i == end or srow[i] != srow[start]:
                    line.append("".join(row[start:i]), style=srow[start] or None)
                    start = i
            out.append(line)
        return out


def _layout(cols: int, width: int, sizes: Sequence[int]) -> int | None:
    """The widest cell size in ``sizes`` that fits ``cols`` columns in ``width``."""
    for cell in sizes:
        if cols * (cell + 1) - 1 <= width:
            return cell
    return None


def render_map(view: View, width: int = 100, palette: Palette = FULL, lang: str = "en") -> Group:
    """The hex map, with the empty spaces around it when they fit; cells shrink to fit
    ``width`` (11 down to 7 characters) and a map wider than that is split into bands."""
    tiles = {(q, r): kind for q, r, kind in view["tiles"]}
    qs = [q for q, _ in tiles]
    cols = max(qs) - min(qs) + 1
    shown = set(tiles)
    cell = _layout(cols + 2, width, (11, 10, 9))
    if cell is not None:
        shown |= _spaces(set(tiles))
    else:
        cell = _layout(cols, width, (11, 10, 9, 8, 7))
    q_min, q_max = min(q for q, _ in shown), max(q for q, _ in shown)
    cols = q_max - q_min + 1
    if cell is None:  # too wide even with small cells: bands of columns, one under the other
        cell = 9
        per_band = max(1, (width + 1) // (cell + 1))
        bands = -(-cols // per_band)
        per_band = -(-cols // bands)
    else:
        per_band = cols
    lines: list[Text] = []
    for start in range(q_min, q_max + 1, per_band):
        band = {c for c in shown if start <= c[0] < start + per_band}
        if band:
            if lines:
                more = message("meso.board.mapContinues", start=start)
                lines.append(Text(render(more, lang), style="dim"))
            lines.extend(_render_band(view, tiles, band, start, cell, palette, lang))
    return Group(*lines)


def _render_band(
    view: View,
    tiles: dict[tuple[int, int], str],
    shown: set[tuple[int, int]],
    q0: int,
    cell: int,
    palette: Palette,
    lang: str,
) -> list[Text]:
    tokens = cell_tokens(view, palette)
    rows = [_offset(q, r)[1] for q, r in shown]
    row_min, row_max = min(rows), max(rows)
    cols = max(q for q, _ in shown) - q0 + 1
    half = CELL_HEIGHT // 2
    canvas = _Canvas(cols * (cell + 1), (row_max - row_min + 1) * CELL_HEIGHT + half)
    for q, r in sorted(shown):
        col, row = _offset(q, r)
        x = (col - q0) * (cell + 1)
        y = (row - row_min) * CELL_HEIGHT + (half if q & 1 else 0)
        kind = tiles.get((q, r))
        coord = f"{q},{r}"
        if kind is None:
            canvas.put(x, y + 1, coord.center(cell), SPACE_STYLE)
            continue
        style = palette.tile[kind]
        for dy in range(CELL_HEIGHT):
            canvas.fill(x, y + dy, cell, style)
        code = render(V.tile_code(kind), lang)
        head = palette.header[kind]
        extra: list[tuple[str, str]] = []
        canvas.fill(x, y, cell, head)
        # the tile's left edge, from its title bar down: a column shifted by half a cell puts
        # a neighbour's title beside these lines, and the edge keeps them apart from it (a
        # title that needs the whole width starts the edge itself)
        if len(coord) + len(code) + 3 <= cell:
            canvas.put(x, y, EDGE_TOP + f"{coord}".ljust(cell - len(code) - 2) + code, head)
        elif len(coord) + len(code) + 2 <= cell:
            canvas.put(x, y, EDGE_TOP + f"{coord} {code}".center(cell - 1), head)
        elif len(coord) + len(code) + 1 <= cell:
            canvas.put(x, y, f"{coord} {code}".ljust(cell), head)
        else:  # narrow cell: the type code moves down among the tokens
            canvas.put(x, y, EDGE_TOP + coord.center(cell - 1), head)
            extra = [(code, style)]
        for dy in range(1, CELL_HEIGHT):
            canvas.put(x, y + dy, EDGE, head)
        if kind == "volcano":
            canvas.put(x + 1, y + 2, "▲▲▲".center(cell - 1), style)
            continue
        right = 1 if cell >= 9 else 0
        _flow(canvas, x + 1, y + 1, cell - 1 - right, CELL_HEIGHT - 1, extra + tokens.get((q, r), []), style)
    return canvas.lines()


def _flow(canvas: _Canvas, x: int, y: int, w: int, h: int, tokens: list[tuple[str, str]], bg: str) -> None:
    """Lay ``tokens`` out left to right over ``h`` lines of ``w``; ``…`` marks an overflow."""
    line, col = 0, 0
    for i, (text, style) in enumerate(tokens):
        if col and col + len(text) > w:
            line, col = line + 1, 0
        if line >= h or len(text) > w:
            canvas.put(x + w - 1, y + h - 1, "…", bg + " bold")
            return
        last_line_full = (
            line == h - 1 and i < len(tokens) - 1 and col + len(text) + 1 + len(tokens[i + 1][0]) > w
        )
        if last_line_full and col + len(text) + 2 > w:
            canvas.put(x + w - 1, y + line, "…", bg + " bold")
            return
        canvas.put(x + col, y + line, text, style)
        col += len(text) + 1


# --- panels -----------------------------------------------------------------------------
def status_line(view: View, palette: Palette = FULL, lang: str = "en") -> Text:
    """Round, whose turn, phase, MP and what is being decided."""
    order = view.get("turn_order") or []
    text = Text()
    text.append(render(message("meso.board.round", round=view["round"]), lang), style="bold")
    if order and view.get("phase") not in ("setup", "over"):
        active = order[view["turn"]]
        text.append(" · ")
        turn = message("meso.board.turn", who=V.colour_named(active))
        text.append(render(turn, lang), style=palette.text.get(active, ""))
    phase = message("meso.board.gameOver") if view["phase"] == "over" else V.phase(view["phase"])
    text.append(f" · {render(phase, lang)}")
    if view.get("phase") == "movement":
        moves = message("meso.board.movement", mp=view["mp"], discoveries=view["discoveries"])
        text.append(render(moves, lang))
    if view.get("action"):
        text.append(render(message("meso.board.action", action=V.action(view["action"])), lang))
    pend = view.get("pending")
    if pend:
        text.append(f" · {render(V.board_pending(pend[0]), lang)}", style="italic")
    if view.get("winner"):
        wins = message("meso.board.wins", who=V.colour_named(view["winner"]))
        text.append(render(wins, lang), style="bold reverse")
    return text


def _mana_bar(mana: int, limit: int, cap: int = 8) -> str:
    return "■" * mana + "□" * (limit - mana) + "·" * (cap - limit)


def players_table(
    view: View, roles: Sequence[str] | None = None, palette: Palette = FULL, lang: str = "en"
) -> Table:
    """One row per player: Mana/limit, pieces in supply, offerings, cards."""
    viewer = _viewer_colour(view)
    order = view.get("turn_order") or []
    active = order[view["turn"]] if order and view.get("phase") not in ("setup", "over") else None
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold")
    headers = (
        message("meso.board.col.player"), message("meso.board.col.mana"), message("meso.board.col.tribes"),
        message("meso.board.col.huts"), message("meso.board.col.holy"), message("meso.board.col.offerings"),
        message("meso.board.col.delivered"), message("meso.board.col.cards"),
    )  # fmt: skip
    table.add_column("", no_wrap=True)
    for name in headers:
        table.add_column(render(name, lang), no_wrap=True)
    holy_on_map = {pl["colour"]: 0 for pl in view["players"]}
    for _q, _r, owner in view["holy_places"]:
        holy_on_map[owner] += 1
    huts_on_map = {pl["colour"]: 0 for pl in view["players"]}
    for owner, *_ in view["huts"]:
        if owner in huts_on_map:
            huts_on_map[owner] += 1
    for seat, pl in enumerate(view["players"]):
        colour = pl["colour"]
        label = Text(render(V.colour_named(colour), lang), style=palette.text[colour])
        role = roles[seat] if roles and seat < len(roles) else ""
        if colour == viewer:
            label.append(render(message("meso.board.you"), lang))
        elif role:
            label.append(render(message("meso.board.role", kind=role), lang), style="dim")
        off = pl["offerings"]
        on_map = len(off["placed"]) - len(off["delivered"])
        delivered = " ".join(offering_text(view, colour, pub) for pub in off["delivered"])
        table.add_row(
            "▶" if colour == active else "",
            label,
            f"{pl['mana']}/{pl['limit']} {_mana_bar(pl['mana'], pl['limit'])}",
            f"{len(pl['tribes'])} + {pl['tribes_in_supply']}",
            str(PIECES["huts"] - huts_on_map[colour]),
            str(PIECES["holyPlaces"] - holy_on_map[colour]),
            f"{off['unplaced_count']} + {on_map}",
            f"{len(off['delivered'])}/{len(OFFERING_VALUES)} {delivered}".rstrip(),
            str(pl["hand_size"]),
        )
    return table


def commons_line(view: View, lang: str = "en") -> Text:
    """Tile piles, cards and the general supply."""
    piles = " · ".join(str(p["size"]) for p in view["piles"])
    counts = [
        message("meso.board.tileCount", count=n, tile=V.tile(k))
        for k, n in view["remaining_tiles"].items()
        if n
    ]
    remaining = counts or message("meso.board.noTiles")
    discard = _card_counts(view["discard"]) or message("meso.board.emptyDiscard")
    sup = view["supply"]
    supply = message(
        "meso.board.supplyCounts", wood=sup["wood"], stone=sup["stone"], donated=sup["stones_removed"]
    )
    text = Text()
    text.append(render(message("meso.board.tilePiles"), lang), style="bold")
    text.append(render(message("meso.board.piles", piles=piles, remaining=remaining), lang))
    text.append(render(message("meso.board.deck"), lang), style="bold")
    text.append(render(message("meso.board.deckSize", size=view["deck_size"], discard=discard), lang))
    text.append(render(message("meso.board.supply"), lang), style="bold")
    text.append(render(supply, lang))
    return text


def _card_counts(cards: dict[str, int]) -> list[Message]:
    """``holy stone×2`` for each card type held, by type."""
    return [message("meso.board.cardCount", card=V.board_card(c), count=n) for c, n in sorted(cards.items())]


def secrets_text(view: View, lang: str = "en") -> Text | None:
    """The viewer's own hidden information: offering values, hand, peeked tiles."""
    viewer = _viewer_colour(view)
    if viewer is None:
        return None
    pl = next(p for p in view["players"] if p["colour"] == viewer)
    off = pl["offerings"]
    text = Text()
    text.append(render(message("meso.board.secrets"), lang), style="bold")
    text.append(render(message("meso.board.unplaced"), lang))
    text.append(
        ", ".join(str(v) for v in off["unplaced"] or []) or render(message("meso.board.noOfferings"), lang)
    )
    where = _offering_places(view, viewer)
    for pub, value in sorted(off["placed"].items(), key=lambda kv: int(kv[0])):
        if int(pub) in off["delivered"]:
            continue
        place = where.get(str(pub))
        text.append(f" · o{pub}={value} {'' if place is None else render(place, lang)}".rstrip())
    hand = pl["hand"] or {}
    new = pl["new_cards"] or {}
    cards = []
    for card, n in sorted(hand.items()):
        fresh = new.get(card, 0)
        held = render(message("meso.board.cardCount", card=V.board_card(card), count=n), lang)
        cards.append(held + (render(message("meso.board.fresh", count=fresh), lang) if fresh else ""))
    held_text = ", ".join(cards) or render(message("meso.board.emptyHand"), lang)
    text.append(render(message("meso.board.hand", cards=held_text), lang))
    for k, pile in enumerate(view["piles"], start=1):
        seen = [V.tile(kind) for kind, _who in pile["top"] if kind is not None]
        if seen:
            text.append(render(message("meso.board.pileTop", pile=k, tiles=seen), lang))
    for card in sorted(hand):  # what each card held does (M15), one line each
        line = message("meso.board.cardText", card=V.card(card), text=card_text(card))
        text.append("\n  " + render(line, lang), style="dim")
    return text


def card_text(card: str, options: Mapping[str, Any] | None = None) -> Message:
    """What card ``card`` does (M15), with the numbers of the game's ``options`` (the defaults
    when not given: a view does not carry the options)."""
    o = options or OPTION_DEFAULTS
    if card == "endurance":
        return message("meso.cardText.endurance", mp=int(o["endurance_bonus_mp"]))
    if card == "priest":
        return message("meso.cardText.priest")
    if card == "fertility":
        return message("meso.cardText.fertility", n=int(o["fertility_extra_tribes"]))
    if card == "holy_stone":
        gain = o["holy_stone_effect"]
        return message("meso.cardText.holy_stone", limit=int(gain["limit_gain"]), mana=int(gain["mana_gain"]))
    if card == "land":
        reorder = "yes" if o["land_may_reorder"] else "no"
        return message("meso.cardText.land", n=int(o["land_peek_count"]), reorder=reorder)
    if card == "mana_theft":
        return message("meso.cardText.mana_theft", n=int(o["mana_theft_amount"]))
    if card == "teleport":
        return message("meso.cardText.teleport")
    return message("meso.cardText.expulsion")


def action_notes(state: Any, actions: Sequence[str]) -> dict[str, Message]:
    """What the terminal prints beside an action of the list: a card's text beside the first
    play of that card (its other targets follow it), with the numbers of this game's options."""
    notes: dict[str, Message] = {}
    told: set[str] = set()
    for action in actions:
        words = action.split()
        if words[0] == "play" and len(words) > 1 and words[1] not in told:
            told.add(words[1])
            notes[action] = card_text(words[1], state.game.opts)
    return notes


def _offering_places(view: View, colour: str) -> dict[str, Message]:
    out: dict[str, Message] = {}
    for owner, num, q, r, pub in view["huts"]:
        if owner == colour and pub:
            hut = hut_name(COLOURS.index(colour), int(num))
            out[str(pub)] = message("meso.board.underHut", hut=hut, at=f"{q},{r}")
    pl = next(p for p in view["players"] if p["colour"] == colour)
    for q, r, cargo, _ in pl["tribes"]:
        if cargo.startswith("o"):
            out[cargo[1:]] = message("meso.board.carried", at=f"{q},{r}")
    return out


def render_board(
    view: View,
    roles: Sequence[str] | None = None,
    width: int = 100,
    legend: bool = True,
    palette: Palette = FULL,
    lang: str = "en",
) -> RenderableType:
    """Everything a player needs to decide: status, map, legend, players, commons, secrets.

    ``roles``: a label per seat (e.g. the bot kind), shown next to other players' colours;
    ``palette``: :data:`FULL`, or :data:`BASIC` for a 16-colour terminal (see :func:`palette_for`);
    ``lang``: the language of every word shown (a language of the message catalogues).
    """
    parts: list[RenderableType] = [status_line(view, palette, lang), render_map(view, width, palette, lang)]
    if legend:
        parts.append(Text(render(message("meso.board.legend"), lang), style="dim"))
    parts.append(players_table(view, roles, palette, lang))
    parts.append(commons_line(view, lang))
    secrets = secrets_text(view, lang)
    if secrets is not None:
        parts.append(secrets)
    return Group(*parts)
