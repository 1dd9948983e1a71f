"""The Mesopotamia game object: options, set-up, positions and declared invariants."""

from __future__ import annotations

import random
from typing import Any

from ziggurat.engine.contract import Game
from ziggurat.engine.eventlog import events_since
from ziggurat.engine.hooks import GameHooks, Lazy
from ziggurat.games.mesopotamia import data as D
from ziggurat.games.mesopotamia.notation import canonical
from ziggurat.games.mesopotamia.state import MesoState, TileMemo, new_state

_PKG = "ziggurat.games.mesopotamia"  # where the hooks below live (imported on first use)


class MesopotamiaGame(Game):
    """Mesopotamia (Wrede, 2005) for 2 to 4 players; rules spec ``docs/rules/mesopotamia.md``."""

    game_id = "mesopotamia"
    name = "Mesopotamia"
    min_players = 2
    max_players = 4
    constant_sum = False
    # Heuristic bots finish a 4-player game in ~600 decisions; random play often needs
    # 10,000-60,000 and sometimes never ends (tribes can wander forever), so drivers that need
    # a bound (OpenSpiel) cap it here; a game reaching the cap ends with no winner (all 0.0),
    # like the engine's ``round_limit``.
    max_game_length = 10_000
    hooks = GameHooks(
        outcome=Lazy(f"{_PKG}.outcome:outcome"),
        heuristic_bot=Lazy(f"{_PKG}.bots:HeuristicBot"),
        evaluate=Lazy(f"{_PKG}.evaluate:evaluate"),
        make_evaluator=Lazy(f"{_PKG}.evaluate:make_evaluator"),
        phase_of=Lazy(f"{_PKG}.evaluate:phase_of"),
        rollout_view=Lazy(f"{_PKG}.evaluate:rollout_view"),
        make_playout_bots=Lazy(f"{_PKG}.evaluate:make_playout_bots"),
        search_defaults=Lazy(f"{_PKG}.evaluate:SEARCH_DEFAULTS"),
        search_defaults_by_players=Lazy(f"{_PKG}.evaluate:SEARCH_DEFAULTS_BY_PLAYERS"),
        redact_events=Lazy(f"{_PKG}.view:redact_events"),
        describe_step=Lazy(f"{_PKG}.describe:describe_step"),
        describe=Lazy(f"{_PKG}.describe"),
        render_text=Lazy(f"{_PKG}.render_text"),
        render_svg=Lazy(f"{_PKG}.render_svg"),
        option_defaults=Lazy(f"{_PKG}.data:OPTION_DEFAULTS"),
        option_specs=Lazy(f"{_PKG}.data:OPTION_SPECS"),
        option_rules=Lazy(f"{_PKG}.data:OPTION_RULES"),
        codec=Lazy("ziggurat.interop.codecs.mesopotamia:MesopotamiaCodec"),
        observer=Lazy("ziggurat.interop.observers.mesopotamia:MesopotamiaEncoder"),
        flags_from_state=Lazy(f"{_PKG}.view:FLAGS_FROM_STATE"),
    )

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.opts = D.resolve_options(players, options)
        super().__init__(players, D.non_default_options(self.opts, players))
        self.data = D.DATA
        self.pieces = D.PIECES
        self.pool = D.draw_pool(players)
        self.first_turn_mp = D.first_turn_mp(players)
        self.max_discoveries = D.MOVEMENT["maxDiscoveriesPerTurn"]
        # what listing derives from the placed tiles, per set of tiles (state.tile_memo_for)
        self.tile_memos: dict[frozenset[tuple[tuple[int, int], str]], TileMemo] = {}

    def seat_names(self) -> list[str]:
        return D.COLOURS[: self.num_players]

    def seat_label(self, seat: int) -> str:
        from ziggurat.games.mesopotamia.vocabulary import colour

        return colour(seat)

    def new_initial_state(self) -> MesoState:
        state = new_state(self)
        state._settle()
        return state

    def parse_action(self, text: str) -> str:
        return canonical(text)

    def state_from_position(self, position: dict[str, Any]) -> MesoState:
        from ziggurat.games.mesopotamia.position import load_position

        return load_position(self, position)

    def sample_state(self, view: dict[str, Any], seat: int, rng: random.Random) -> MesoState:
        from ziggurat.games.mesopotamia.view import sample_state

        return sample_state(self, view, seat, rng)

    def undo_barrier(self, state: Any, action: str, after: Any = None) -> bool:
        """Chance, anything that draws or shows a tile or card, a delivery attempt (it shows
        the offering's value, M6.4) and the end of the turn are savepoints for undo."""
        s: MesoState = state
        if s.current_player() < 0:
            return True
        kind = action.split(" ", 1)[0]
        if kind in ("pile", "draw") or action.startswith("play land"):
            return True
        if kind == "end" and s.phase == "mana":
            return True
        if after is None:
            after = s.clone()
            after.apply(action)
        revealed = sum(len(r) for r in after.revealed) != sum(len(r) for r in s.revealed)
        if revealed or after.turn_idx != s.turn_idx or after.phase == "over":
            return True
        # a chance event the engine resolved by itself (a forced outcome) also shows something
        return any(e.auto and e.actor < 0 for e in events_since(after, s.log))

    def invariants(self, state: Any) -> list[str]:
        """Pieces conserved: tribes, huts, resources, offerings, cards, tiles (§2)."""
        s: MesoState = state
        bad: list[str] = []
        general = self.data["generalSupply"]
        wood = s.supply_wood + sum(s.wood.values())
        stone = s.supply_stone + sum(s.stone.values()) + s.stones_removed
        for tribes in s.tribes:
            wood += sum(1 for t in tribes if t[1] == D.WOOD)
            stone += sum(1 for t in tribes if t[1] == D.STONE)
        if wood != general["wood"]:
            bad.append(f"wood not conserved: {wood} != {general['wood']}")
        if stone != general["stone"]:
            bad.append(f"stone not conserved: {stone} != {general['stone']}")
        if min(s.supply_wood, s.supply_stone) < 0:
            bad.append("negative general supply")
        total_cards = len(self.data["cards"])
        cards = sum(s.deck) + sum(s.discard) + sum(s.removed) + sum(sum(h) for h in s.hand)
        if cards != total_cards:
            bad.append(f"cards not conserved: {cards} != {total_cards}")
        if any(x < 0 for x in s.deck + s.discard):
            bad.append("negative card count")
        for seat in range(s.n):
            if len(s.tribes[seat]) != self.pieces["tribes"]:
                bad.append(f"seat {seat} has {len(s.tribes[seat])} tribes")
            if s.huts_placed(seat) > self.pieces["huts"]:
                bad.append(f"seat {seat} placed too many huts")
            if s.holy_in_supply(seat) < 0:
                bad.append(f"seat {seat} placed too many holy places")
            if not 0 <= s.mana[seat] <= s.limit[seat] <= self.data["mana"]["limitCap"]:
                bad.append(f"seat {seat} Mana {s.mana[seat]} / limit {s.limit[seat]} out of bounds")
            where: list[int] = []
            where += [h[3] for h in s.huts if h[0] == seat and h[3]]
            where += [t[1] - D.OFFERING for t in s.tribes[seat] if t[1] >= D.OFFERING]
            where += s.delivered[seat]
            if sorted(where) != sorted(s.offer_val[seat]):
                bad.append(f"seat {seat} offerings misplaced: {sorted(where)} vs {sorted(s.offer_val[seat])}")
            values = sorted(s.unplaced[seat] + list(s.offer_val[seat].values()))
            if values != sorted(self.data["offeringValues"]):
                bad.append(f"seat {seat} offering values not conserved: {values}")
            if sum(s.new[seat]) and seat != s.active:
                bad.append(f"seat {seat} holds new cards outside its turn")
        if sum(s.pile_sizes) != sum(s.remaining.values()):
            bad.append("pile sizes do not match the tiles left")
        placed = len(s.tiles) - len(self.opts["start_tiles"])
        if s.pending is not None and s.pending[0] == "volcano":
            placed += 1  # drawn, shown, about to be placed (M7.3)
        if placed + sum(s.remaining.values()) != sum(self.pool.values()):
            bad.append("tiles not conserved")
        neutral = sum(1 for h in s.huts if h[0] < 0)
        if neutral != len(self.opts["neutral_huts"]):
            bad.append("neutral huts not conserved")
        return bad
