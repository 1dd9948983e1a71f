"""Soak: many seeded games of every game and player count, checked where play rarely goes.

For each game, player count and seed, a seeded game is played (random actions, or the heuristic
bots with ``--bots heuristic``), with the default options or, with ``--options random``, a
random set of them (1 to ``--most-options`` options, each a boolean, one of its listed values,
or an integer next to its default; a set the game refuses is drawn again). At every
``--every``-th decision:

- the game keeps its declared invariants (``game.invariants``: pieces conserved, legendary
  goods counted once, ...);
- its position loads again (``state_from_position`` of the JSON of ``to_position``, strict
  checks included) as the same state: the same position, fingerprint, legal actions and
  views. A server resumes its tables from such snapshots;
- for every seat, ``--samples`` states are sampled from the seat's view (``sample_state``, the
  worlds the search bots imagine), and each must show the seat the same view, keep the
  invariants, offer the same legal actions if the seat is the one to move, and play on for
  ``--playout`` seeded random plies (chance included) without an error or a decision with no
  legal action, keeping the invariants, as a search's playout would.

At the end the game's record must replay to the same fingerprint. Printed per game and player
count: games, decisions checked, states sampled, plies played in them, failures and seconds;
then the first failures in full (with the options of their game). Exit status 1 if anything
failed.

    .venv/bin/python benchmarks/soak.py [--games mesopotamia,mare-nostrum] [--players 3]
        [--seeds 20] [--first-seed 1] [--every 37] [--samples 2] [--playout 20]
        [--bots random|heuristic] [--options default|random] [--most-options 8] [--plies 3000]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import ziggurat
from ziggurat.bots import close_bot, make_bot
from ziggurat.engine.contract import Game, State, sample_chance
from ziggurat.engine.registry import game_class

UNDRAWN = frozenset({"youngest_player_seat", "max_rounds", "round_limit"})
"""Integer options ``--options random`` leaves alone: a seat number, and the caps on a game's
length (a low one only makes short games)."""


@dataclass
class Tally:
    """What one game and player count gave."""

    games: int = 0
    decisions: int = 0
    samples: int = 0
    plies: int = 0
    failures: list[str] = field(default_factory=list)


def _random_ply(state: State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply(sample_chance(state, rng))
    else:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])


def option_choices(game_id: str) -> list[tuple[str, list[Any]]]:
    """The options ``--options random`` draws from, each with the values it may take."""
    cls = game_class(game_id)
    specs = ziggurat.load(game_id, players=cls.min_players).hooks.option_specs
    out: list[tuple[str, list[Any]]] = []
    for name, spec in (specs.get() if specs is not None else {}).items():
        kind, default = spec.get("type"), spec.get("default")
        if kind == "bool":
            out.append((name, [True, False]))
        elif kind == "str" and len(spec.get("values") or ()) > 1:
            out.append((name, list(spec["values"])))
        elif kind == "int" and default is not None and name not in UNDRAWN:
            low, high = spec.get("min", default - 1), spec.get("max", default + 1)
            out.append((name, sorted({max(low, default - 1), default, min(high, default + 1)})))
    return out


def random_options(game_id: str, players: int, rng: random.Random, most: int) -> dict[str, Any]:
    """A random option set the game accepts for ``players`` (see the module docstring)."""
    choices = option_choices(game_id)
    for _ in range(20):
        picked = rng.sample(choices, k=rng.randint(1, min(most, len(choices))))
        options = {name: rng.choice(values) for name, values in picked}
        try:
            ziggurat.load(game_id, players=players, **options)
        except (ValueError, TypeError, ziggurat.ZigguratError):
            continue  # a set the game refuses (an option out of range for this player count)
        return options
    return {}


def check_position(game: Game, state: State) -> str | None:
    """Load ``state``'s position again and compare; the fault, or None."""
    position = json.loads(json.dumps(state.to_position()))
    try:
        again = game.state_from_position(position)
    except ziggurat.ZigguratError as exc:
        return f"its position does not load: {exc}"
    if again.to_position() != position or again.fingerprint() != state.fingerprint():
        return "its position loads as another state"
    if list(again.legal_actions()) != list(state.legal_actions()):
        return "its position loads with other legal actions"
    if any(again.view(seat) != state.view(seat) for seat in [None, *range(game.num_players)]):
        return "its position loads with other views"
    return None


def check_sample(
    game: Game, state: State, seat: int, rng: random.Random, playout: int, tally: Tally
) -> str | None:
    """Sample one state from ``seat``'s view of ``state`` and check it; the fault, or None."""
    view = state.view(seat)
    world = game.sample_state(view, seat, rng)
    tally.samples += 1
    if world.view(seat) != view:
        return "the sampled state shows the seat another view"
    broken = game.invariants(world)
    if broken:
        return f"the sampled state breaks invariants: {broken}"
    if seat == state.current_player() and list(world.legal_actions()) != list(state.legal_actions()):
        return "the sampled state offers the mover other legal actions"
    for ply in range(playout):
        if world.is_terminal():
            break
        if not world.legal_actions():
            position = world.to_position()
            where = {k: position[k] for k in ("phase", "stage", "pending", "queue") if k in position}
            return f"the sampled state, {ply} plies on, has no legal action for {world.current_player()}: {where}"
        _random_ply(world, rng)
        tally.plies += 1
    broken = game.invariants(world)
    if broken:
        return f"the sampled state, played on, breaks invariants: {broken}"
    return None


def soak_game(
    game_id: str,
    players: int,
    seed: int,
    tally: Tally,
    every: int = 37,
    samples: int = 2,
    playout: int = 20,
    bots: str = "random",
    plies: int = 3000,
    options: dict[str, Any] | None = None,
) -> None:
    """One seeded game of ``game_id`` with ``options``, checked (see the module docstring);
    failures are added to ``tally`` as readable lines."""
    game = ziggurat.load(game_id, players=players, **(options or {}))
    state = game.new_initial_state()
    rng = random.Random(seed)
    checks = random.Random(seed + 1)
    seats = [make_bot("heuristic", game, s) for s in range(players)] if bots == "heuristic" else None
    where = f"{game_id} {players}p seed {seed}" + (f" options {json.dumps(options)}" if options else "")
    decision = 0
    try:
        for ply in range(plies):
            if state.is_terminal():
                break
            mover = state.current_player()
            if mover >= 0:
                if decision % every == 0:
                    tally.decisions += 1
                    broken = game.invariants(state)
                    fault = f"the game breaks invariants: {broken}" if broken else check_position(game, state)
                    if fault is not None:
                        tally.failures.append(f"{where} ply {ply}: {fault}")
                        return
                    for seat in range(players):
                        for _ in range(samples):
                            fault = check_sample(game, state, seat, checks, playout, tally)
                            if fault is not None:
                                tally.failures.append(f"{where} ply {ply} seat {seat}: {fault}")
                                return
                decision += 1
            if seats is not None and mover >= 0:
                state.apply(seats[mover].choose(state.view(mover), state.legal_actions(), rng))
            else:
                _random_ply(state, rng)
        record = json.loads(json.dumps(ziggurat.record(state, seed=seed)))
        if ziggurat.replay(record).fingerprint() != state.fingerprint():
            tally.failures.append(f"{where}: the record replays to another fingerprint")
    except Exception:
        tally.failures.append(f"{where}: {traceback.format_exc(limit=6)}")
    finally:
        for bot in seats or ():
            close_bot(bot)
        tally.games += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(ziggurat.games()), help="comma-separated game ids")
    ap.add_argument("--players", default=None, help="comma-separated player counts (default: each game's)")
    ap.add_argument("--seeds", type=int, default=20, help="games per game and player count")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--every", type=int, default=37, help="check at every N-th decision")
    ap.add_argument("--samples", type=int, default=2, help="states sampled per seat and check")
    ap.add_argument("--playout", type=int, default=20, help="random plies played in each sampled state")
    ap.add_argument("--bots", choices=("random", "heuristic"), default="random", help="who plays the games")
    ap.add_argument("--options", choices=("default", "random"), default="default", help="each game's options")
    ap.add_argument("--most-options", type=int, default=8, help="options changed at most (--options random)")
    ap.add_argument("--plies", type=int, default=3000, help="plies at most per game")
    args = ap.parse_args(argv)
    wanted = {int(n) for n in args.players.split(",")} if args.players else None
    print(
        f"Soak: {args.seeds} seeded games per row ({args.bots}, {args.options} options), checks every "
        f"{args.every} decisions, {args.samples} samples per seat, {args.playout} plies played in each"
    )
    print(
        f"{'game':20} {'players':>7} {'games':>6} {'checks':>7} {'samples':>8} {'plies':>8} {'failed':>6} {'s':>7}"
    )
    failures: list[str] = []
    for game_id in args.games.split(","):
        cls = game_class(game_id)
        for players in range(cls.min_players, cls.max_players + 1):
            if wanted is not None and players not in wanted:
                continue
            tally = Tally()
            start = time.perf_counter()
            for seed in range(args.first_seed, args.first_seed + args.seeds):
                options = (
                    random_options(game_id, players, random.Random(seed), args.most_options)
                    if args.options == "random"
                    else None
                )
                soak_game(
                    game_id,
                    players,
                    seed,
                    tally,
                    args.every,
                    args.samples,
                    args.playout,
                    args.bots,
                    args.plies,
                    options,
                )
            print(
                f"{game_id:20} {players:>7} {tally.games:>6} {tally.decisions:>7} {tally.samples:>8} "
                f"{tally.plies:>8} {len(tally.failures):>6} {time.perf_counter() - start:>7.1f}",
                flush=True,
            )
            failures += tally.failures
    for line in failures[:5]:
        print("\nFAILED " + line)
    print(f"\n{len(failures)} failure(s)" if failures else "\nno failure")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
