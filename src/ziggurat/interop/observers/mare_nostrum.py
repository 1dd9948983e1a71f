"""Mare Nostrum: Empires view encoder (layout in ``docs/interop.md``).

Provinces, seas, building slots, tiles and resource tokens are numbered as in the action
codec. Other seats' resources, the legendary pool, the face-down tiles and unrevealed trade
offers are absent from views: only their counts (``res_counts``, ``pool_count``,
``facedown_count``, ``offer_counts``) are encoded.
"""

from __future__ import annotations

from typing import Any

from ziggurat.games.mare_nostrum import data as D
from ziggurat.interop.observe import COUNT, Fields, ViewEncoder, one_hot

STAGES = (
    "assign", "reveal", "start_title", "castor", "production", "trade_start", "trade_token",
    "trade_size", "trade_offer", "trade_starter", "trade_draft", "trade_give", "buy_perseus",
    "buy_order", "buy_turn", "buy_keep", "mil_zeus", "mil_order", "mil_conv", "mil_row", "mil_sea",
    "mil_march", "mil_fight", "mil_circe", "tie_win", "claim_tie", "over",
)  # fmt: skip
_QUEUE = ("draw", "lc", "colossus", "lose", "conquest")
_CONQUEST = ("pillage", "occupy", "convert")
_ITEMS = ("build", "marker", "legion", "trireme", "fortress", "tile", "pyramids")


class MareNostrumEncoder(ViewEncoder):
    def _build(self) -> None:
        game: Any = self.game
        n = self.num_players
        opts = game.opts
        b = D.board(n)
        self.emp = {e: i for i, e in enumerate(b.empires)}
        self.prov = {p: i for i, p in enumerate(b.province_ids)}
        self.sea = {s: i for i, s in enumerate(b.sea_ids)}
        self.tile = {t: i for i, t in enumerate(sorted(b.tiles))}
        self.goods = {g: i for i, g in enumerate(D.GOODS)}
        tokens = ["tax", *D.GOODS, *(f"leg:{g}" for g in D.GOODS)]
        self.tok = {t: i for i, t in enumerate(tokens)}
        self.slots = {p: {s: k for k, s in enumerate(b.slots(p))} for p in b.province_ids}
        self.faces = {f: i for i, f in enumerate(sorted(set(opts["die_faces"])))}
        self.token_faces = sorted({f for t in opts["trade_token_faces"] for f in t})
        P, S, T, G, M = (
            len(self.prov),
            len(self.sea),
            len(tokens),
            len(D.GOODS),
            max(len(x) for x in self.slots.values()),
        )
        X, F, R = len(self.tile), len(self.faces), len(D.TRACKS)
        self.M = M
        self.field("viewer", n)
        self.field("to_move", n + 1)  # seats, then chance
        self.field("round", high=COUNT)
        self.field("stage", len(STAGES))
        self.field("after_reveal", 2)  # round, military
        self.field("empire", n, len(self.emp))
        self.field("res_own", T, high=COUNT)  # the viewer's tokens
        self.field("res_counts", n, high=COUNT)
        self.field("tiles", n, X)
        self.field("copy", n, X)
        self.field("pool_count", high=COUNT)
        self.field("legendary_out", G, high=COUNT)
        self.field("facedown_count", high=COUNT)
        self.field("display", int(opts["face_up_tiles"]), X + 1)  # tile, or empty
        self.field("pyramids", n)
        self.field("titles", R, n)
        self.field("tokens_used", 3)
        self.field("markers", P, n)
        self.field("buildings", P, M)
        self.field("legions", P, n, high=COUNT)
        self.field("triremes", S, n, high=COUNT)
        self.field("fortresses", P, n)
        self.field("occupy", P, M, n)
        self.field("on_marker", P, n)
        self.field("conversion", P, n)  # pending conversion (N4.3) by seat
        self.field("conversion_round", P, high=COUNT)
        self.field("conqueror", P, n)
        self.field("zeus", n, n)  # owner, named
        self.field("winner", n)
        self.field("queue", len(_QUEUE), n, high=COUNT)  # items per kind and seat
        self.field("queue_head", len(_QUEUE))
        self.field("queue_head_seat", n)
        self.field("queue_head_province", P)
        self.field("queue_head_count", high=COUNT)
        self.field("queue_head_used", len(_CONQUEST))
        self.field("conquests", P, n)
        self.field("castor", n)
        self.field("start_titles", R, n)
        self.field("tie", n)
        self.field("claim", R)
        self.field("claim_tied", n)
        self.field("trade", 1)
        self.field("trade_value", high=COUNT)
        self.field("trade_token", 3, len(self.token_faces))
        self.field("trade_parts", n, high=COUNT)
        self.field("trade_sizing", n)
        self.field("trade_offers", n, T, high=COUNT)  # when shown to the viewer
        self.field("trade_offers_known", n)
        self.field("trade_offer_counts", n, high=COUNT)
        self.field("trade_received", n, T, high=COUNT)
        self.field("trade_takes", high=COUNT)
        self.field("trade_last_takes", 2, n, n)
        self.field("trade_starter", n)
        self.field("trade_chooser", n)
        self.field("trade_revealed")
        self.field("buy", 1)
        self.field("buy_active", n)
        self.field("buy_done", n)
        self.field("buy_first", n)
        self.field("buy_perseus", n)
        self.field("buy_free_used", 2)  # hammurabi, penthesilea
        self.field("paying", len(_ITEMS))
        self.field("paying_province", P)
        self.field("paying_sea", S)
        self.field("paying_slot", M)
        self.field("paying_tile", X)
        self.field("paying_cost", high=COUNT)
        self.field("paying_alt", G + 1)  # normal, or the alternative cost's good
        self.field("paying_paid", T, high=COUNT)
        self.field("mil", 1)
        self.field("mil_active", n)
        self.field("mil_done", n)
        self.field("mil_zeus_queue", n)
        self.field("mil_circe_used", n)
        self.field("mil_arrived_province", P, high=COUNT)
        self.field("mil_arrived_sea", S, high=COUNT)
        self.field("mil_fought_sea", S)
        self.field("mil_fought", P, n)
        self.field("battle", 2)  # sea, land
        self.field("battle_where_province", P)
        self.field("battle_where_sea", S)
        self.field("battle_sides", 2, n)
        self.field("battle_faces", 2, F, high=COUNT)
        self.field("last_trade", 1 + 3 + len(self.token_faces), high=COUNT)  # value, token letter, face
        self.field("last_payment_seat", n)
        self.field("last_payment_paid", T, high=COUNT)
        self.field("last_battle", 2)
        self.field("last_battle_where_province", P)
        self.field("last_battle_where_sea", S)
        self.field("last_battle_sides", 2, n)
        self.field("last_battle_faces", 2, F, high=COUNT)
        self.field("last_battle_totals", 2, high=COUNT)
        self.field("last_battle_hits", 2, high=COUNT)

    def _fill(self, v: dict[str, Any], seat: int, f: Fields) -> None:
        n = self.num_players
        one_hot(f["viewer"], seat)
        to_move = v.get("to_move")
        one_hot(
            f["to_move"],
            n if to_move == -1 else to_move if isinstance(to_move, int) and to_move >= 0 else None,
        )
        f["round"][0] = v["round"]
        one_hot(f["stage"], STAGES.index(v["stage"]))
        one_hot(f["after_reveal"], ("round", "military").index(v["after_reveal"]))
        for s, e in enumerate(v["empires"]):
            if e is not None:
                f["empire"][s, self.emp[e]] = 1
        for tok, k in (v["res"][seat] or {}).items():
            f["res_own"][self.tok[tok]] = k
        f["res_counts"][:] = v["res_counts"]
        for s in range(n):
            for t in v["tiles"][s]:
                f["tiles"][s, self.tile[t]] = 1
            if v["copy"][s] is not None:
                f["copy"][s, self.tile[v["copy"][s]]] = 1
        f["pool_count"][0] = v["pool_count"]
        for g, k in v["legendary_out"].items():
            f["legendary_out"][self.goods[g]] = k
        f["facedown_count"][0] = v["facedown_count"]
        for i, t in enumerate(v["display"]):
            f["display"][i, len(self.tile) if t is None else self.tile[t]] = 1
        one_hot(f["pyramids"], v["pyramids"])
        for r, track in enumerate(D.TRACKS):
            one_hot(f["titles"][r], v["titles"][track])
        f["tokens_used"][:] = [float(x) for x in v["tokens_used"]]
        self._board(v, f)
        for owner, named in v["zeus"]:
            f["zeus"][owner, named] = 1
        one_hot(f["winner"], v["winner"])
        self._queue(v, f)
        for s in v.get("castor", ()):
            f["castor"][s] = 1
        for track, top in v.get("start_titles", ()):
            for s in top:
                f["start_titles"][D.TRACKS.index(track), s] = 1
        for s in v.get("tie", ()):
            f["tie"][s] = 1
        if v["claim"] is not None:
            one_hot(f["claim"], D.TRACKS.index(v["claim"]["track"]))
            for s in v["claim"]["tied"]:
                f["claim_tied"][s] = 1
        if v["trade"] is not None:
            self._trade(v, f)
        if v["buy"] is not None:
            self._buy(v["buy"], f)
        if v["mil"] is not None:
            self._mil(v["mil"], f)
        if v["battle"] is not None:
            self._battle(v["battle"], f, "battle")
        self._last(v, f)

    def _board(self, v: dict[str, Any], f: Fields) -> None:
        prov = self.prov
        for p, s in v["markers"].items():
            f["markers"][prov[p], s] = 1
        for p, built in v["buildings"].items():
            for slot in built:
                f["buildings"][prov[p], self.slots[p][slot]] = 1
        for p, row in v["legions"].items():
            f["legions"][prov[p]] = row
        for sea, row in v["triremes"].items():
            f["triremes"][self.sea[sea]] = row
        for p, s in v["fortresses"].items():
            f["fortresses"][prov[p], s] = 1
        for p, occ in v["occupy"].items():
            for slot, s in occ.items():
                f["occupy"][prov[p], self.slots[p][slot], s] = 1
        for p, s in v["on_marker"].items():
            f["on_marker"][prov[p], s] = 1
        for p, (s, rnd) in v["pending"].items():
            f["conversion"][prov[p], s] = 1
            f["conversion_round"][prov[p]] = rnd
        for p, s in v["conqueror"].items():
            f["conqueror"][prov[p], s] = 1

    def _queue(self, v: dict[str, Any], f: Fields) -> None:
        for i, item in enumerate(v["queue"]):
            kind, s = _QUEUE.index(item[0]), int(item[1])
            f["queue"][kind, s] += 1
            if item[0] == "conquest":
                f["conquests"][self.prov[item[2]], s] = 1
            if i == 0:
                f["queue_head"][kind] = 1
                f["queue_head_seat"][s] = 1
                if item[0] in ("lose", "conquest"):
                    f["queue_head_province"][self.prov[item[2]]] = 1
                if item[0] == "lose":
                    f["queue_head_count"][0] = item[3]
                if item[0] == "conquest" and len(item) > 3:
                    for used in item[3]:
                        f["queue_head_used"][_CONQUEST.index(used)] = 1

    def _trade(self, v: dict[str, Any], f: Fields) -> None:
        t = v["trade"]
        f["trade"][0] = 1
        f["trade_value"][0] = t["v"]
        letter, face = t["token"]
        f["trade_token"][letter, self.token_faces.index(face)] = 1
        for s, k in t["parts"].items():
            f["trade_parts"][int(s)] = k
        for s in t["sizing"]:
            f["trade_sizing"][int(s)] = 1
        for s, offer in enumerate(t["offers"]):
            if offer is not None:
                f["trade_offers_known"][s] = 1
                for tok in offer:
                    f["trade_offers"][s, self.tok[tok]] += 1
        for s, k in enumerate(v.get("offer_counts") or ()):
            f["trade_offer_counts"][s] = k
        for s, got in enumerate(t["received"]):
            for tok in got:
                f["trade_received"][s, self.tok[tok]] += 1
        f["trade_takes"][0] = len(t["takes"])
        for i, (c, x) in enumerate(t["takes"][-2:]):
            f["trade_last_takes"][i, int(c), int(x)] = 1
        one_hot(f["trade_starter"], t["starter"])
        one_hot(f["trade_chooser"], t["chooser"])
        f["trade_revealed"][0] = float(t["revealed"])

    def _buy(self, bu: dict[str, Any], f: Fields) -> None:
        f["buy"][0] = 1
        one_hot(f["buy_active"], bu["active"])
        for key in ("done", "first", "perseus"):
            for s in bu[key]:
                f[f"buy_{key}"][int(s)] = 1
        for name in bu["free_used"]:
            f["buy_free_used"][("hammurabi", "penthesilea").index(name)] = 1
        pay = bu["paying"]
        if pay is None:
            return
        w = pay["item"].split(" ")
        f["paying"][_ITEMS.index(w[0])] = 1
        if w[0] == "build":
            f["paying_province"][self.prov[w[2]]] = 1
            f["paying_slot"][self.slots[w[2]][w[1]]] = 1
        elif w[0] == "trireme":
            f["paying_sea"][self.sea[w[1]]] = 1
        elif w[0] == "tile":
            f["paying_tile"][self.tile[w[1]]] = 1
        elif w[0] != "pyramids":
            f["paying_province"][self.prov[w[1]]] = 1
        f["paying_cost"][0] = pay["cost"]
        kind = pay["kind"]
        f["paying_alt"][0 if kind == "normal" else 1 + self.goods[kind[4:]]] = 1
        for tok in pay["paid"]:
            f["paying_paid"][self.tok[tok]] += 1

    def _mil(self, m: dict[str, Any], f: Fields) -> None:
        f["mil"][0] = 1
        one_hot(f["mil_active"], m["active"])
        for key, name in (
            ("done", "mil_done"),
            ("zeus_q", "mil_zeus_queue"),
            ("circe_used", "mil_circe_used"),
        ):
            for s in m[key]:
                f[name][int(s)] = 1
        for where, k in m["arrived"].items():
            if where in self.prov:
                f["mil_arrived_province"][self.prov[where]] = k
            else:
                f["mil_arrived_sea"][self.sea[where]] = k
        for item in m["fought"]:
            if ":" in item:
                p, s = item.split(":")
                f["mil_fought"][self.prov[p], int(s)] = 1
            else:
                f["mil_fought_sea"][self.sea[item]] = 1

    def _battle(self, bt: dict[str, Any], f: Fields, name: str) -> None:
        sea = bt["kind"] == "sea"
        f[name][0 if sea else 1] = 1
        if sea:
            f[f"{name}_where_sea"][self.sea[bt["where"]]] = 1
        else:
            f[f"{name}_where_province"][self.prov[bt["where"]]] = 1
        for i, side in enumerate(("att", "def")):
            f[f"{name}_sides"][i, int(bt[side])] = 1
            for face in bt[f"{side}_faces"]:
                f[f"{name}_faces"][i, self.faces[face]] += 1

    def _last(self, v: dict[str, Any], f: Fields) -> None:
        lt = v.get("last_trade")
        if lt:
            f["last_trade"][0] = lt["v"]
            f["last_trade"][1 + lt["token"][0]] = 1
            f["last_trade"][4 + self.token_faces.index(lt["token"][1])] = 1
        lp = v.get("last_payment")
        if lp:
            f["last_payment_seat"][lp["seat"]] = 1
            for tok in lp["paid"]:
                f["last_payment_paid"][self.tok[tok]] += 1
        lb = v.get("last_battle")
        if lb:
            self._battle(lb, f, "last_battle")
            f["last_battle_totals"][:] = lb["totals"]
            f["last_battle_hits"][:] = lb["hits"]
