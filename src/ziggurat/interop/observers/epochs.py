"""Mesopotamia: Epochs view encoder (layout in ``docs/interop.md``).

Areas in map order and Peoples in card-file order (the codec's numbering); seats by symbol
order. A card whose People the viewer may not know is encoded as "unknown" (the last column
of its one-hot), never as a People.
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mesopotamia_epochs.data import SYMBOLS
from ziggurat.interop.observe import COUNT, Fields, ViewEncoder, one_hot

_PHASES = ("allocation", "strategy", "over")
_PENDING = ("deal", "draw", "keep", "landing", "displace", "combat")


class EpochsEncoder(ViewEncoder):
    def _build(self) -> None:
        game: Any = self.game
        n = self.num_players
        self.areas = {a: i for i, a in enumerate(game.rules.map.ids)}
        self.peoples = {p: i for i, p in enumerate(game.rules.peoples.ids)}
        self.epochs = game.rules.peoples.epochs
        self.seat = {s: i for i, s in enumerate(SYMBOLS[:n])}
        A, P, E = len(self.areas), len(self.peoples), self.epochs
        self.field("viewer", n)
        self.field("to_move", n + 1)  # seats, then chance
        self.field("epoch", E)
        self.field("phase", len(_PHASES))
        self.field("vp", n, high=COUNT)
        self.field("card_dealt", n, E)  # the player has a card of that Epoch
        self.field("card_people", n, E, P + 1)  # People, or unknown (last column)
        self.field("card_public", n, E)
        self.field("card_known_by", n, E, n)
        self.field("deck_size", high=COUNT)
        self.field("set_aside", E, P + 1, high=COUNT)  # count per Epoch: People, or unknown
        self.field("set_aside_public", E, high=COUNT)
        self.field("draw_order", n, n)
        self.field("draw_index", high=COUNT)
        self.field("area_people", A, P)
        self.field("area_tribes", A, high=COUNT)
        self.field("area_owner", A, n)  # the seat holding the card of the area's People, if known
        self.field("people_listed", P)
        self.field("people_vp", P, high=COUNT)
        self.field("people_entered", P, high=COUNT)
        self.field("people_removed", P, high=COUNT)
        self.field("round_people", P)
        self.field("round_values", 4, high=COUNT)  # order, pool, sea start, coast held
        self.field("pending", len(_PENDING))
        self.field("pending_seat", n)
        self.field("pending_people", P + 1)
        self.field("pending_area", A)
        self.field("pending_dice", high=COUNT)

    def _fill(self, v: dict[str, Any], seat: int, f: Fields) -> None:
        n = self.num_players
        P = len(self.peoples)
        one_hot(f["viewer"], seat)
        to_move = v.get("to_move")
        one_hot(f["to_move"], n if to_move == "chance" else self.seat.get(to_move) if to_move else None)
        one_hot(f["epoch"], v["epoch"] - 1)
        one_hot(f["phase"], _PHASES.index(v["phase"]))
        holder: dict[str, int] = {}
        for s, pl in enumerate(v["players"]):
            f["vp"][s] = pl["vp"]
            for card in pl["cards"]:
                e = card["epoch"] - 1
                f["card_dealt"][s, e] = 1
                people = card["people"]
                f["card_people"][s, e, P if people is None else self.peoples[people]] = 1
                f["card_public"][s, e] = float(card["public"])
                for sym in card["known_by"]:
                    f["card_known_by"][s, e, self.seat[sym]] = 1
                if people is not None:
                    holder[people] = s
        f["deck_size"][0] = v["deck_size"]
        for card in v["set_aside"]:
            e = card["epoch"] - 1
            people = card["people"]
            f["set_aside"][e, P if people is None else self.peoples[people]] += 1
            f["set_aside_public"][e] += float(card["public"])
        for i, sym in enumerate(v["draw_order"]):
            f["draw_order"][i, self.seat[sym]] = 1
        f["draw_index"][0] = v["draw_index"]
        for area, people, tribes in v["areas"]:
            a = self.areas[area]
            f["area_people"][a, self.peoples[people]] = 1
            f["area_tribes"][a] = tribes
            if people in holder:
                f["area_owner"][a, holder[people]] = 1
        for people, rec in v["peoples"].items():
            p = self.peoples[people]
            f["people_listed"][p] = 1
            f["people_vp"][p] = rec["vp"]
            f["people_entered"][p] = rec["entered"]
            f["people_removed"][p] = rec["removed"]
        rnd = v["round"]
        if rnd is not None:
            f["round_people"][self.peoples[rnd["people"]]] = 1
            f["round_values"][:] = (
                rnd["order"],
                rnd["pool"],
                float(rnd["sea_start"]),
                float(rnd["coast_held"]),
            )
        pend = v["pending"]
        if pend is not None:
            kind = pend[0]
            one_hot(f["pending"], _PENDING.index(kind))
            if kind == "deal":
                f["pending_seat"][self.seat[pend[1]]] = 1
            elif kind == "keep":
                f["pending_people"][P if pend[1] is None else self.peoples[pend[1]]] = 1
            elif kind in ("displace", "combat"):
                f["pending_area"][self.areas[pend[1]]] = 1
                if kind == "combat":
                    f["pending_dice"][0] = pend[2]
