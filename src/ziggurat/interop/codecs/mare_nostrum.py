"""Mare Nostrum: Empires action codec (see ``docs/interop.md`` for the table of blocks).

State-independent: everything is numbered from the in-play board of the player count
(provinces and seas sorted by id, each province's building slots in map order), the goods,
the tiles and the options (Trade token faces, die faces). Resource tokens are ``tax``, then the
goods, then the legendary goods ``leg:<good>``. A building slot named without its province
(``lose``, ``pillage``, ``occupy``) is numbered among every slot name of the map; ``occupy``
takes a set of slots of one province, numbered among the subsets of the provinces' slot lists.
Battle rolls are chance outcomes: every multiset of faces of one handful of dice.
"""

from __future__ import annotations

import itertools
from typing import Any

from ziggurat.engine.contract import State
from ziggurat.games.mare_nostrum import data as D
from ziggurat.interop.codec import ActionCodec, CodecError

_PICKS = ("", "tax", "draw", "draw,draw", "draw,tax", "tax,tax")  # legendary-city pillage picks
_PIECES = ("legion", "fortress", "trireme")


class MareNostrumCodec(ActionCodec):
    def _build(self) -> None:
        game: Any = self.game
        n = self.num_players
        opts = game.opts
        b = D.board(n)
        self.board = b
        self.empires = list(b.empires)
        self.tiles = sorted(b.tiles)
        self.buyable = sorted(t for t in b.tiles if D.TILES[t]["purchasable"])
        self.provinces = list(b.province_ids)
        self.seas = list(b.sea_ids)
        self.goods = list(D.GOODS)
        self.tokens = ["tax", *self.goods, *(f"leg:{g}" for g in self.goods)]
        self.kept = self.tokens[1:]  # goods a player may keep (D14): no tax
        self.faces = sorted({f for token in opts["trade_token_faces"] for f in token})
        self.max_size = max(self.faces)
        self.prov_slots = {p: b.slots(p) for p in self.provinces}
        self.pairs = [(p, s) for p in self.provinces for s in self.prov_slots[p]]
        self.slot_names = sorted({s for p in self.provinces for s in self.prov_slots[p]})
        subsets: set[tuple[str, ...]] = set()
        for p in self.provinces:
            names = sorted(self.prov_slots[p])
            for k in range(1, len(names) + 1):
                subsets.update(itertools.combinations(names, k))
        self.subsets = sorted(subsets, key=lambda c: (len(c), c))
        # legion moves, exactly: (from, to, mover) with mover "" (a free legion), "@marker" or
        # "@<slot>" of the province left; a march goes to a land neighbour, a sail anywhere else
        self.moves: dict[str, list[tuple[str, str, str]]] = {"march": [], "sail": []}
        for p in self.provinces:
            movers = ["", "@marker", *(f"@{s}" for s in self.prov_slots[p])]
            for q in sorted(b.provinces[p]["land"]):
                self.moves["march"].extend((p, q, m) for m in movers)
            for q in self.provinces:
                if q != p:
                    self.moves["sail"].extend((p, q, m) for m in movers)
        self.rows = [(s, t) for s in self.seas for t in sorted(b.seas[s]["seas"])]
        P, S, T, G = len(self.provinces), len(self.seas), len(self.tokens), len(self.goods)
        a = self.actions
        a.add("empire", (len(self.empires),), ("empire",))
        a.add("copy none", ())
        a.add("copy", (len(self.tiles),), ("tile",))
        a.add("extra", (2,), ("draw/tax",))
        a.add("colossus", (G,), ("good",))
        a.add("token", (3, len(self.faces)), ("token a/b/c", "face rank"))
        a.add("offer size", (self.max_size + 1,), ("size",))
        a.add("offer", (T,), ("token",))
        a.add("starter", (n,), ("seat",))
        a.add("take", (T, n), ("token", "seat"))
        a.add("give", (T,), ("token",))
        a.add("first", (2,), ("no/yes",))
        a.add("next", (n,), ("seat",))
        a.add("buy marker", (P,), ("province",))
        a.add("free marker", (P,), ("province",))
        a.add("build", (len(self.pairs),), ("province slot",))
        a.add("buy legion", (P, 2), ("province", "cheap"))
        a.add("buy fortress", (P, 2), ("province", "cheap"))
        a.add("buy trireme", (S, 2), ("sea", "cheap"))
        a.add("free legion", (P,), ("province",))
        a.add("buy tile", (len(self.buyable),), ("tile",))
        a.add("buy pyramids", ())
        a.add("pay", (T,), ("token",))
        a.add("end", ())
        a.add("keep none", ())
        a.add("keep", (len(self.kept),), ("good token",))
        a.add("keep/2", (len(self.kept), len(self.kept)), ("good token", "good token"))
        a.add("zeus none", ())
        a.add("zeus", (n,), ("seat",))
        a.add("done", ())
        a.add("convert", (P,), ("province",))
        a.add("row", (len(self.rows),), ("sea, adjacent sea",))
        a.add("seabattle", (S, n), ("sea", "seat"))
        a.add("march", (len(self.moves["march"]),), ("from, land neighbour, mover",))
        a.add("sail", (len(self.moves["sail"]),), ("from, other province, mover",))
        a.add("fight", (P, n), ("province", "seat"))
        a.add("lose", (2 + len(self.slot_names),), ("free/marker/slot name",))
        a.add("pillage", (len(self.slot_names), len(_PICKS)), ("slot name", "picks"))
        a.add("occupy", (len(self.subsets),), ("slot set",))
        a.add("convert here", ())
        a.add("pass", ())
        a.add("circe", (len(self.pairs),), ("province slot",))
        a.add("winner", (n,), ("seat",))
        a.add("title", (len(D.TRACKS), n), ("track", "seat"))
        c = self.chance
        self.perms = [",".join(p) for p in itertools.permutations(self.empires)]
        c.add("empires", (len(self.perms),), ("permutation",))
        c.add("reveal", (len(self.buyable),), ("tile",))
        c.add("draw", (G,), ("good",))
        c.add("title", (len(D.TRACKS), n), ("track", "seat"))
        from ziggurat.games.mare_nostrum.battle import handful

        self.die_faces = sorted(set(opts["die_faces"]))
        self.max_handful = handful(len(self.die_faces))
        self._rolls: list[str] | None = None
        self._roll_index: dict[str, int] | None = None
        for k in range(1, self.max_handful + 1):
            count = len(list(itertools.combinations_with_replacement(range(len(self.die_faces)), k)))
            c.add(f"roll/{k}", (count,), ("multiset rank",))
        self._pair_index = {x: i for i, x in enumerate(self.pairs)}
        self._subset_index = {x: i for i, x in enumerate(self.subsets)}
        self._perm_index = {x: i for i, x in enumerate(self.perms)}
        self._move_index = {k: {x: i for i, x in enumerate(v)} for k, v in self.moves.items()}
        self._row_index = {x: i for i, x in enumerate(self.rows)}

    # -- helpers -------------------------------------------------------------------------
    def _seat(self, word: str) -> int:
        s = int(word)
        if not 0 <= s < self.num_players:
            raise CodecError(f"no seat {word}")
        return s

    # -- actions -------------------------------------------------------------------------
    def _encode(self, action: str, state: State | None) -> int:
        w = action.split(" ")
        v = w[0]
        a = self.actions
        rest = len(w) - 1
        if v in ("end", "done", "pass") and rest == 0:
            return a[v].index()
        if v == "convert":
            return a["convert here"].index() if rest == 0 else a["convert"].index(self.provinces.index(w[1]))
        if v == "empire":
            return a["empire"].index(self.empires.index(w[1]))
        if v == "copy":
            return a["copy none"].index() if w[1] == "none" else a["copy"].index(self.tiles.index(w[1]))
        if v == "extra":
            return a["extra"].index(("draw", "tax").index(w[1]))
        if v == "colossus":
            return a["colossus"].index(self.goods.index(w[1]))
        if v == "token":
            return a["token"].index("abc".index(w[1]), self.faces.index(int(w[2])))
        if v == "offer":
            if w[1] == "size":
                return a["offer size"].index(int(w[2]))
            return a["offer"].index(self.tokens.index(w[1]))
        if v in ("starter", "next", "winner"):
            return a[v].index(self._seat(w[1]))
        if v == "take" and rest == 3 and w[2] == "from":
            return a["take"].index(self.tokens.index(w[1]), self._seat(w[3]))
        if v in ("give", "pay"):
            return a[v].index(self.tokens.index(w[1]))
        if v == "first":
            return a["first"].index(("no", "yes").index(w[1]))
        if v == "build":
            return a["build"].index(self._pair_index[(w[2], w[1])])
        if v == "circe":
            return a["circe"].index(self._pair_index[(w[1], w[2])])
        if v == "buy":
            if w[1] == "marker":
                return a["buy marker"].index(self.provinces.index(w[2]))
            if w[1] in _PIECES:
                cheap = rest == 3 and w[3] == "cheap"
                places = self.seas if w[1] == "trireme" else self.provinces
                return a[f"buy {w[1]}"].index(places.index(w[2]), int(cheap))
            if w[1] == "tile":
                return a["buy tile"].index(self.buyable.index(w[2]))
            if w[1] == "pyramids":
                return a["buy pyramids"].index()
        if v == "free" and w[1] in ("marker", "legion"):
            return a[f"free {w[1]}"].index(self.provinces.index(w[2]))
        if v == "keep":
            if w[1] == "none":
                return a["keep none"].index()
            goods = w[1].split(",")
            if len(goods) == 1:
                return a["keep"].index(self.kept.index(goods[0]))
            return a["keep/2"].index(self.kept.index(goods[0]), self.kept.index(goods[1]))
        if v == "zeus":
            return a["zeus none"].index() if w[1] == "none" else a["zeus"].index(self._seat(w[1]))
        if v == "row":
            return a["row"].index(self._row_index[(w[1], w[2])])
        if v == "seabattle":
            return a["seabattle"].index(self.seas.index(w[1]), self._seat(w[2]))
        if v in ("march", "sail"):
            move = (w[1], w[2], w[3] if rest == 3 else "")
            return a[v].index(self._move_index[v][move])
        if v == "fight":
            return a["fight"].index(self.provinces.index(w[1]), self._seat(w[2]))
        if v == "lose":
            k = {"free": 0, "marker": 1}.get(w[1])
            return a["lose"].index(2 + self.slot_names.index(w[1]) if k is None else k)
        if v == "pillage":
            pick = _PICKS.index(w[2]) if rest == 2 else 0
            return a["pillage"].index(self.slot_names.index(w[1]), pick)
        if v == "occupy":
            return a["occupy"].index(self._subset_index[tuple(w[1].split("+"))])
        if v == "title":
            return a["title"].index(D.TRACKS.index(w[1]), self._seat(w[2]))
        raise CodecError(f"{action!r} is not a player action of mare-nostrum")

    def _decode(self, index: int, state: State | None) -> str:
        block, x = self.actions.locate(index)
        k = block.kind
        if not block.dims:  # the fixed texts: end, done, pass, copy none, buy pyramids ...
            return {"convert here": "convert"}.get(k, k)
        i = x[0]
        if k in ("empire",):
            return f"empire {self.empires[i]}"
        if k == "copy":
            return f"copy {self.tiles[i]}"
        if k == "extra":
            return f"extra {('draw', 'tax')[i]}"
        if k == "colossus":
            return f"colossus {self.goods[i]}"
        if k == "token":
            return f"token {'abc'[i]} {self.faces[x[1]]}"
        if k == "offer size":
            return f"offer size {i}"
        if k in ("offer", "give", "pay"):
            return f"{k} {self.tokens[i]}"
        if k in ("starter", "next", "winner", "zeus"):
            return f"{k} {i}"
        if k == "take":
            return f"take {self.tokens[i]} from {x[1]}"
        if k == "first":
            return f"first {('no', 'yes')[i]}"
        if k in ("buy marker", "free marker", "free legion", "convert"):
            return f"{k} {self.provinces[i]}"
        if k == "build":
            p, s = self.pairs[i]
            return f"build {s} {p}"
        if k == "circe":
            p, s = self.pairs[i]
            return f"circe {p} {s}"
        if k in ("buy legion", "buy fortress", "buy trireme"):
            place = (self.seas if k == "buy trireme" else self.provinces)[i]
            return f"{k} {place}{' cheap' if x[1] else ''}"
        if k == "buy tile":
            return f"buy tile {self.buyable[i]}"
        if k == "keep":
            return f"keep {self.kept[i]}"
        if k == "keep/2":
            return f"keep {self.kept[i]},{self.kept[x[1]]}"
        if k == "row":
            return "row {} {}".format(*self.rows[i])
        if k == "seabattle":
            return f"seabattle {self.seas[i]} {x[1]}"
        if k in ("march", "sail"):
            src, dst, mover = self.moves[k][i]
            return f"{k} {src} {dst}{' ' + mover if mover else ''}"
        if k == "fight":
            return f"fight {self.provinces[i]} {x[1]}"
        if k == "lose":
            return f"lose {('free', 'marker')[i] if i < 2 else self.slot_names[i - 2]}"
        if k == "pillage":
            pick = _PICKS[x[1]]
            return f"pillage {self.slot_names[i]}{' ' + pick if pick else ''}"
        if k == "occupy":
            return "occupy " + "+".join(self.subsets[i])
        if k == "title":
            return f"title {D.TRACKS[i]} {x[1]}"
        raise CodecError(f"unknown block {k}")  # pragma: no cover - every block is handled

    # -- chance --------------------------------------------------------------------------
    def _roll_table(self) -> tuple[list[str], dict[str, int]]:
        if self._rolls is None:
            texts = []
            for k in range(1, self.max_handful + 1):
                for combo in itertools.combinations_with_replacement(self.die_faces, k):
                    texts.append("roll " + ",".join(map(str, combo)))
            self._rolls = texts
            self._roll_index = {t: i for i, t in enumerate(texts)}
        assert self._roll_index is not None
        return self._rolls, self._roll_index

    def _encode_chance(self, outcome: str, state: State | None) -> int:
        w = outcome.split(" ")
        c = self.chance
        if w[0] == "roll":
            _, index = self._roll_table()
            if outcome not in index:
                raise CodecError(f"{outcome!r} is not a roll of at most {self.max_handful} dice")
            return c["roll/1"].start + index[outcome]
        if w[0] == "empires":
            return c["empires"].index(self._perm_index[w[1]])
        if w[0] == "reveal":
            return c["reveal"].index(self.buyable.index(w[1]))
        if w[0] == "draw":
            return c["draw"].index(self.goods.index(w[1]))
        if w[0] == "title":
            return c["title"].index(D.TRACKS.index(w[1]), self._seat(w[2]))
        raise CodecError(f"{outcome!r} is not a chance outcome of mare-nostrum")

    def _decode_chance(self, index: int, state: State | None) -> str:
        block, x = self.chance.locate(index)
        k = block.kind
        if k.startswith("roll/"):
            texts, _ = self._roll_table()
            return texts[index - self.chance["roll/1"].start]
        if k == "empires":
            return f"empires {self.perms[x[0]]}"
        if k == "reveal":
            return f"reveal {self.buyable[x[0]]}"
        if k == "draw":
            return f"draw {self.goods[x[0]]}"
        return f"title {D.TRACKS[x[0]]} {x[1]}"
