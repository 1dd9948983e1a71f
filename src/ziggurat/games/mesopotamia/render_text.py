"""The Mesopotamia board as Rich renderables for a terminal, drawn from one seat's *view*.

Only a view (``state.view(seat)``, rules spec §6) is read, never the true state, so nothing the
viewer may not see can be drawn. The hex map is an offset grid: flat-top axial ``q,r`` become
columns ``q`` with odd columns shifted down half a cell, so neighbours touch as on the board.
Each cell shows its coordinate and tile type, then tokens for huts, holy places, loose
resources and tribes; the legend under the map explains them. Colour helps, but every token
also carries letters, so the board reads the same in a plain log or a pipe.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ziggurat.games.mesopotamia.data import OFFERING_VALUES, PIECES

View = dict[str, Any]

TILE_CODES = {"plains": "PLA", "forest": "FOR", "quarry": "QUA", "volcano": "VOL", "temple": "TEM"}


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
PHASES = {
    "setup": "set-up",
    "movement": "Phase I (movement)",
    "action": "Phase II (action)",
    "mana": "Phase III (Mana)",
    "over": "game over",
}
PENDING = {
    "pile": "choose a tile pile to draw from",
    "draw": "a tile is being drawn",
    "volcano": "place the volcano",
    "shares": "choose which tiles get a resource",
    "offer": "choose the offering for the new hut",
    "order": "order the peeked tiles",
    "teleport": "choose the Teleport destination",
    "expel": "choose where the hut goes",
    "card_draw": "a card is being drawn",
    "peek": "Land: tiles are being looked at",
    "first": "choosing the first player",
    "deal": "dealing cards",
}

CELL_HEIGHT = 4  # lines per hex cell; odd columns are shifted down by half of it


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


def render_map(view: View, width: int = 100, palette: Palette = FULL) -> Group:
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
                lines.append(Text(f"(map continues: columns q = {start} and up)", style="dim"))
            lines.extend(_render_band(view, tiles, band, start, cell, palette))
    return Group(*lines)


def _render_band(
    view: View,
    tiles: dict[tuple[int, int], str],
    shown: set[tuple[int, int]],
    q0: int,
    cell: int,
    palette: Palette,
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
        code = TILE_CODES[kind]
        head = palette.header[kind]
        extra: list[tuple[str, str]] = []
        canvas.fill(x, y, cell, head)
        if len(coord) + len(code) + 3 <= cell:
            canvas.put(x, y, f" {coord}".ljust(cell - len(code) - 1) + code, head)
        elif len(coord) + len(code) + 1 <= cell:
            canvas.put(x, y, f"{coord} {code}".center(cell), head)
        else:  # narrow cell: the type code moves down among the tokens
            canvas.put(x, y, coord.center(cell), head)
            extra = [(code, style)]
        if kind == "volcano":
            canvas.put(x, y + 2, "▲▲▲".center(cell), style)
            continue
        pad = 1 if cell >= 9 else 0
        _flow(canvas, x + pad, y + 1, cell - 2 * pad, CELL_HEIGHT - 1, extra + tokens.get((q, r), []), style)
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


LEGEND = (
    "PLA plains  FOR forest  QUA quarry  VOL volcano  TEM temple · ⌂b hut (• offering under it, "
    "digit: its value) · ✚r holy place · 2w 1s loose wood, stone · b3ws 3 blue tribes, one with "
    "wood, one with stone (o offering, o6 worth 6) · dim q,r: empty space to explore"
)


# --- panels -----------------------------------------------------------------------------
def status_line(view: View, palette: Palette = FULL) -> Text:
    """Round, whose turn, phase, MP and what is being decided."""
    order = view.get("turn_order") or []
    text = Text()
    text.append(f"Round {view['round']}", style="bold")
    if order and view.get("phase") not in ("setup", "over"):
        active = order[view["turn"]]
        text.append(" · ")
        text.append(f"{active.capitalize()}'s turn", style=palette.text.get(active, ""))
    text.append(f" · {PHASES.get(view['phase'], view['phase'])}")
    if view.get("phase") == "movement":
        text.append(f" · {view['mp']} MP left · {view['discoveries']}/3 discoveries")
    if view.get("action"):
        text.append(f" · action: {view['action']}")
    pend = view.get("pending")
    if pend:
        text.append(f" · {PENDING.get(pend[0], pend[0])}", style="italic")
    if view.get("winner"):
        text.append(f" · {view['winner'].capitalize()} wins!", style="bold reverse")
    return text


def _mana_bar(mana: int, limit: int, cap: int = 8) -> str:
    return "■" * mana + "□" * (limit - mana) + "·" * (cap - limit)


def players_table(view: View, roles: Sequence[str] | None = None, palette: Palette = FULL) -> Table:
    """One row per player: Mana/limit, pieces in supply, offerings, cards."""
    viewer = _viewer_colour(view)
    order = view.get("turn_order") or []
    active = order[view["turn"]] if order and view.get("phase") not in ("setup", "over") else None
    table = Table(box=None, pad_edge=False, padding=(0, 1), header_style="bold")
    headers = ("", "player", "Mana/limit", "tribes\nmap+supply", "huts\nleft", "holy\nleft",
               "offerings\nsupply+out", "delivered\n(values)", "cards")  # fmt: skip
    for name in headers:
        table.add_column(name, no_wrap=True)
    holy_on_map = {pl["colour"]: 0 for pl in view["players"]}
    for _q, _r, owner in view["holy_places"]:
        holy_on_map[owner] += 1
    huts_on_map = {pl["colour"]: 0 for pl in view["players"]}
    for owner, *_ in view["huts"]:
        if owner in huts_on_map:
            huts_on_map[owner] += 1
    for seat, pl in enumerate(view["players"]):
        colour = pl["colour"]
        label = Text(colour.capitalize(), style=palette.text[colour])
        role = roles[seat] if roles and seat < len(roles) else ""
        if colour == viewer:
            label.append(" (you)")
        elif role:
            label.append(f" ({role})", style="dim")
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


def commons_line(view: View) -> Text:
    """Tile piles, cards and the general supply."""
    piles = " · ".join(str(p["size"]) for p in view["piles"])
    remaining = ", ".join(f"{n} {k}" for k, n in view["remaining_tiles"].items() if n) or "none"
    discard = (
        ", ".join(f"{card.replace('_', ' ')}×{n}" for card, n in sorted(view["discard"].items())) or "empty"
    )
    sup = view["supply"]
    text = Text()
    text.append("Tile piles ", style="bold")
    text.append(f"{piles} (left: {remaining})  ")
    text.append("Deck ", style="bold")
    text.append(f"{view['deck_size']} · discard {discard}  ")
    text.append("Supply ", style="bold")
    text.append(f"wood {sup['wood']}, stone {sup['stone']}, stones donated {sup['stones_removed']}")
    return text


def secrets_text(view: View) -> Text | None:
    """The viewer's own hidden information: offering values, hand, peeked tiles."""
    viewer = _viewer_colour(view)
    if viewer is None:
        return None
    pl = next(p for p in view["players"] if p["colour"] == viewer)
    off = pl["offerings"]
    text = Text()
    text.append("Your secrets ", style="bold")
    text.append("offerings in supply: ")
    text.append(", ".join(str(v) for v in off["unplaced"] or []) or "none")
    where = _offering_places(view, viewer)
    for pub, value in sorted(off["placed"].items(), key=lambda kv: int(kv[0])):
        if int(pub) in off["delivered"]:
            continue
        text.append(f" · o{pub}={value} {where.get(str(pub), '')}".rstrip())
    hand = pl["hand"] or {}
    new = pl["new_cards"] or {}
    cards = []
    for card, n in sorted(hand.items()):
        fresh = new.get(card, 0)
        label = card.replace("_", " ")
        cards.append(f"{label}×{n}" + (f" ({fresh} drawn this turn)" if fresh else ""))
    text.append(" · hand: " + (", ".join(cards) or "empty"))
    for k, pile in enumerate(view["piles"], start=1):
        seen = [kind for kind, _who in pile["top"] if kind is not None]
        if seen:
            text.append(f" · pile {k} top: {', '.join(seen)}")
    return text


def _offering_places(view: View, colour: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for owner, num, q, r, pub in view["huts"]:
        if owner == colour and pub:
            out[str(pub)] = f"under hut {colour[0]}{num} at {q},{r}"
    pl = next(p for p in view["players"] if p["colour"] == colour)
    for q, r, cargo, _ in pl["tribes"]:
        if cargo.startswith("o"):
            out[cargo[1:]] = f"carried at {q},{r}"
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
    ``palette``: :data:`FULL`, or :data:`BASIC` for a 16-colour terminal (see :func:`palette_for`).
    """
    parts: list[RenderableType] = [status_line(view, palette), render_map(view, width, palette)]
    if legend:
        parts.append(Text(LEGEND, style="dim"))
    parts.append(players_table(view, roles, palette))
    parts.append(commons_line(view))
    secrets = secrets_text(view)
    if secrets is not None:
        parts.append(secrets)
    return Group(*parts)
