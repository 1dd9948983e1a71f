"""What the browser board of Mare Nostrum draws with, served once by the server
(``GET /api/games/mare-nostrum/board-data``, see ``ziggurat.server.gamekit.board_data``).

Everything comes from the package data files, so the browser never keeps its own copy: the map
(areas, slots, links, out-of-play areas) with its layout (:mod:`layout`), the heroes and wonders
with their French names and track bonuses, the goods' names, the base costs (N3, 10.2), the
defaults of the options the board shows (victory thresholds, tile costs) and the empires' piece
colours.
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import data as D
from ziggurat.games.mare_nostrum.layout import COLOURS, INK_ON


def board_data() -> dict[str, Any]:
    """A JSON-ready dict (a new one at each call)."""
    m = D._MAP
    meta = m["layout"]
    provinces = {
        p["id"]: {
            "name": p["name"],
            "slots": [x.lower() for x in p["slots"]],
            "land": list(p["land"]),
            "seas": list(p["seas"]),
            "out": list(p["out_of_play_at"]),
            "x": p["x"],
            "y": p["y"],
        }
        for p in m["provinces"]
    }
    seas = {
        s["id"]: {
            "name": s["name"],
            "seas": list(s["seas"]),
            "land": list(s["land"]),
            "x": s["x"],
            "y": s["y"],
            "shape": s["shape"],
        }
        for s in m["seas"]
    }
    tiles = {
        t["id"]: {
            "name": t["name"],
            "fr": t["fr"],
            "type": t["type"],
            "bonus": dict(t["track_bonus"]),
            "text": t["text"],
            "buy": t["purchasable"],
        }
        for t in D.TILES.values()
    }
    opts = D.DEFAULT_OPTIONS
    costs: dict[str, Any] = dict(D.COST)
    costs["pyramids"] = opts["pyramids_cost"]
    costs["tile"] = dict(opts["hero_cost_by_tiles_owned"])
    empires = {
        e: {"name": D.EMPIRES[e]["name"], "colour": COLOURS[e], "ink": INK_ON[e]} for e in D.EMPIRE_ORDER
    }
    # the default values of the options the board shows (a table's own values come with the table)
    shown = ("tiles_to_win", "capitals_to_win", "starting_hero_counts_toward_win", "pyramids_cost",
             "hero_cost_mode", "hero_cost_by_tiles_owned", "hero_cost_by_round")  # fmt: skip
    return {
        "options": {k: opts[k] for k in shown},
        "layout": {k: meta[k] for k in ("width", "height", "card_width", "card_height")}
        | {"link_via": dict(meta.get("link_via", {}))},
        "provinces": provinces,
        "seas": seas,
        "out_of_play": {k: list(v) for k, v in m["out_of_play"].items()},
        "tiles": tiles,
        "costs": costs,
        "goods": D._load("goods.json"),
        "empires": empires,
    }
