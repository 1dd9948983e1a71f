"""The Mesopotamia heuristic bot: finishes games, beats random, plays purposefully, and
decides from its view only (docs/architecture.md)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import ziggurat
from ziggurat.bots import RandomBot, make_bot, play_game
from ziggurat.engine.contract import CHANCE, sample_chance
from ziggurat.games.mesopotamia.bots import HeuristicBot
from ziggurat.games.mesopotamia.position import load_position

MAX_PLIES = 6000


def _heuristic_game(players: int, seed: int) -> Any:
    game = ziggurat.load("mesopotamia", players=players)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    return play_game(game, bots, seed, max_plies=MAX_PLIES)


@pytest.mark.parametrize(
    ("players", "seed"),
    [(n, seed) for n in (2, 3, 4) for seed in (1, 2, 3, 4)],
)
def test_self_play_ends_with_a_winner_M16_1(players: int, seed: int) -> None:
    result = _heuristic_game(players, seed)
    assert result.truncated is False
    returns = result.state.returns()
    assert sorted(returns) == [0.0] * (players - 1) + [1.0]
    winner = returns.index(1.0)
    assert len(result.state.to_position()["players"][winner]["offerings"]["delivered"]) == 4


def test_make_bot_builds_the_heuristic() -> None:
    game = ziggurat.load("mesopotamia", players=2)
    bot = make_bot("heuristic", game, 1)
    assert isinstance(bot, HeuristicBot)
    assert bot.name == "heuristic" and bot.needs_view is True


@pytest.mark.slow
def test_beats_random_in_both_seat_orders() -> None:
    game = ziggurat.load("mesopotamia", players=2)
    wins = 0
    for seed in range(5):
        for heuristic_seat in (0, 1):
            bots: list[Any] = [RandomBot(game, 0), RandomBot(game, 1)]
            bots[heuristic_seat] = HeuristicBot(game, heuristic_seat)
            result = play_game(game, bots, seed, max_plies=MAX_PLIES)
            if result.state.returns()[heuristic_seat] == 1.0:
                wins += 1
    assert wins >= 9


@pytest.mark.slow
def test_same_seed_same_game() -> None:
    first = _heuristic_game(3, 7)
    second = _heuristic_game(3, 7)
    assert first.state.history() == second.state.history()
    assert first.state.fingerprint() == second.state.fingerprint()


# --- the bot reads nothing hidden (§6) -------------------------------------------------------
def _hide_differently(pos: dict[str, Any], seat: int) -> dict[str, Any]:
    """Same position with ``seat``'s secrets changed: offering values and hand (§6)."""
    out = copy.deepcopy(pos)
    pl = out["players"][seat]
    off = pl["offerings"]
    shown = set(off["revealed"]) | set(off["delivered"])
    secret_ids = [k for k in sorted(off["placed"]) if int(k) not in shown]
    values = [off["placed"][k] for k in secret_ids] + list(off["unplaced"])
    rotated = values[1:] + values[:1]  # all four values differ, so a rotation changes them all
    for k, v in zip(secret_ids, rotated, strict=False):
        off["placed"][k] = v
    off["unplaced"] = sorted(rotated[len(secret_ids) :])
    hand, new, deck = pl["hand"], pl["new_cards"], out["deck"]
    old_card = next((c for c, n in hand.items() if n > new.get(c, 0)), None)
    new_card = next((c for c, n in deck.items() if n and c != old_card), None)
    if old_card is not None and new_card is not None:
        for d, card, step in (
            (hand, old_card, -1),
            (deck, old_card, 1),
            (hand, new_card, 1),
            (deck, new_card, -1),
        ):
            d[card] = d.get(card, 0) + step
            if not d[card]:
                del d[card]
    return out


@pytest.mark.slow
def test_decisions_ignore_opponents_secrets() -> None:
    """Two states that differ only in an opponent's hidden offering values and hand give the
    bot equal views, and the bot takes equal decisions from them."""
    game = ziggurat.load("mesopotamia", players=2)
    bots = [HeuristicBot(game, 0), HeuristicBot(game, 1)]
    state = game.new_initial_state()
    chance_rng = random.Random(11)
    checked = changed = 0
    for _ in range(900):
        if state.is_terminal():
            break
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, chance_rng))
            continue
        legal = state.legal_actions()
        if who == 0 and len(legal) > 1:
            pos = state.to_position()
            twin = game.state_from_position(_hide_differently(pos, 1))
            changed += twin.to_position() != pos
            view = state.view(0)
            assert twin.view(0) == view
            a = HeuristicBot(game, 0).choose(view, legal, random.Random(5))
            b = HeuristicBot(game, 0).choose(twin.view(0), twin.legal_actions(), random.Random(5))
            assert a == b
            checked += 1
        state.apply(bots[who].choose(state.view(who), legal, random.Random(who)))
    assert checked > 50 and changed > 50


# --- purposeful play in set positions -------------------------------------------------------
def _position(**edits: Any) -> dict[str, Any]:
    """Round-3 two-player position, Blue to move in Phase I, with ``edits`` to Blue."""
    game = ziggurat.load("mesopotamia", players=2)
    state = game.new_initial_state()
    state.apply("first b")
    pos = state.to_position()
    pos["round"] = 3
    pos["mp"] = edits.pop("mp", 5)
    blue = pos["players"][0]
    for key, value in edits.items():
        if key == "offerings":
            blue["offerings"].update(value)
        else:
            blue[key] = value
    blue["tribes_in_supply"] = 8 - len(blue["tribes"])
    blue["hand_size"] = sum(blue["hand"].values())
    return pos


def _load(pos: dict[str, Any]) -> Any:
    """Load a hand-edited position; the edits leave the general supply and the deck count as
    they were, so piece conservation is not checked."""
    game = ziggurat.load("mesopotamia", players=2)
    return load_position(game, pos, strict=False)


def _choose(pos: dict[str, Any]) -> str:
    state = _load(pos)
    game = state.game
    return HeuristicBot(game, 0).choose(state.view(0), state.legal_actions(), random.Random(0))


def test_delivers_an_offering_when_mana_covers_it_M6_4() -> None:
    pos = _position(
        tribes=[[1, -1, "o1", False], [1, -1, "", False], [1, -1, "", False]],
        offerings={"unplaced": [4, 6, 7], "unplaced_count": 3, "placed": {"1": 2}, "next_id": 2},
        mana=3,
    )
    assert _choose(pos) == "move bo1@1,-1 0,0"


def test_waits_next_to_the_temple_when_mana_is_short_M6_5() -> None:
    pos = _position(
        tribes=[[1, -1, "o1", False], [1, -1, "", False], [1, -1, "", False]],
        offerings={"unplaced": [2, 4, 6], "unplaced_count": 3, "placed": {"1": 7}, "next_id": 2},
        mana=3,
    )
    assert _choose(pos) != "move bo1@1,-1 0,0"


def test_donates_stone_at_the_temple_M5_5() -> None:
    pos = _position(tribes=[[-1, 1, "s", False], [1, -1, "", False], [1, -1, "", False]])
    assert _choose(pos) == "move bs@-1,1 0,0"


def test_teleports_a_deliverable_offering_to_the_temple_M15_7() -> None:
    pos = _position(
        tribes=[[1, -1, "o1", False], [1, -1, "", False], [1, -1, "", False]],
        offerings={"unplaced": [2, 6, 7], "unplaced_count": 3, "placed": {"1": 4}, "next_id": 2},
        mana=5,
        limit=5,
        mp=0,
        hand={"teleport": 1},
    )
    pos["deck"]["teleport"] -= 1
    state = _load(pos)
    game = state.game
    bot = HeuristicBot(game, 0)
    rng = random.Random(0)
    play = bot.choose(state.view(0), state.legal_actions(), rng)
    assert play == "play teleport bo1@1,-1"
    state.apply(play)
    assert bot.choose(state.view(0), state.legal_actions(), rng) == "to 0,0"


def test_plays_holy_stone_while_the_limit_is_short_M15_4() -> None:
    pos = _position(hand={"holy_stone": 1})
    pos["deck"]["holy_stone"] -= 1
    assert _choose(pos) == "play holy_stone"


def test_fetch_values_stop_early_with_the_same_maximum() -> None:
    """A fetch job's value (bots_eval._Fetch) scans the sites nearest first and stops once no
    farther site can beat the best; it must equal the maximum over every site."""
    from ziggurat.games.mesopotamia import bots_eval as E
    from ziggurat.games.mesopotamia.bots_model import Board, Distances, Mine

    game = ziggurat.load("mesopotamia", players=3)
    state = game.new_initial_state()
    bots = [make_bot("heuristic", game, seat) for seat in range(3)]
    rng = random.Random(5)
    checked = 0
    for ply in range(400):
        if state.is_terminal():
            break
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if ply % 7 == 0:
            board = Board(state.view(who), who)
            dist = Distances()
            dist.update(board)
            ctx = E.Ctx(board, dist)
            mine = Mine(board)
            partners = E.Partners(dist, mine.tribes)
            fetch = E._Fetch(ctx, partners, donate=True, holy=True)
            plain = E.Ctx(board, dist)
            plain.prune = False  # the plain scan over every site
            full = E._Fetch(plain, partners, donate=True, holy=True)
            w = ctx.w
            for c in [*board.wood, *board.stone, *(t[0] for t in mine.tribes)]:
                for pos in {t[0] for t in mine.tribes}:
                    assert fetch._wood(c, pos) == full._wood(c, pos)
                    assert fetch._stone(c, pos) == full._stone(c, pos)
                    checked += 1
            assert w.k >= 0 and w.w_partner >= 0 and ctx.prune
        state.apply(bots[who].choose(state.view(who), state.legal_actions(), rng))
    assert checked > 100


def test_teleports_wood_cut_off_from_every_hut_site_M5_3_M15_7() -> None:
    """A seeded 2-player game where the temple and volcanoes cut the last wood off from every
    plains with room for a hut (a wood carrier may not enter the temple, M5.3; nobody enters
    a volcano, M2.4; no land is left to discover). Blue holds a Teleport (M15.7): it picks
    the wood up, sends a partner to a hut site and teleports the carrier to it; Yellow does
    the same with the next wood there, and the game ends with a fourth delivery (M16.1). When the bot valued such wood as worthless, the game
    stalled: nobody could build the hut that places a last offering, both bots only ended
    their turns, and the game had not ended after 6,000 rounds (M16.2: there is no other end)."""
    game = ziggurat.load("mesopotamia", players=2)
    bots = [make_bot("heuristic", game, seat) for seat in range(2)]
    state: Any = game.new_initial_state()
    rng = random.Random(77 * 1_000_003 + 48)
    played: list[tuple[int, str]] = []
    while not state.is_terminal() and state.round <= 40:
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        action = bots[who].choose(state.view(who), state.legal_actions(), rng)
        played.append((state.round, action))
        state.apply(action)
    assert (21, "play teleport bw@-1,0") in played
    assert (22, "play teleport yw@-1,0") in played
    assert state.is_terminal() and state.returns() == [0.0, 1.0]
    assert state.round == 23


def _steps_taken_back(actions: list[str]) -> list[tuple[str, str]]:
    """Steps of one Phase I after which the same tribe, unchanged (same load, nothing done
    with it or on its tile since, no tile discovered by the step), walks back where it came
    from: ``(step, step back)``."""
    moved: dict[str, tuple[str, str]] = {}  # token where the tribe stands -> (tile left, step)
    back: list[tuple[str, str]] = []
    for i, action in enumerate(actions):
        words = action.split()
        if words[0] != "move":
            tiles = {w.split("@")[1].rstrip("*") for w in words[1:] if "@" in w}
            discovered = words[0] == "pile" and i and actions[i - 1].split()[0] == "move"
            moved = {
                tok: (left, step)
                for tok, (left, step) in moved.items()
                if tok.split("@")[1].rstrip("*") not in tiles and not (discovered and step == actions[i - 1])
            }
            continue
        tok, dest = words[1], words[2]
        load, here = tok.split("@")
        spent = "*" if here.endswith("*") else ""
        earlier = moved.pop(tok, None)
        if earlier is not None and earlier[0] == dest:
            back.append((earlier[1], action))
            continue
        moved[f"{load}@{dest}{spent}"] = (here.rstrip("*"), action)
    return back


def test_a_tribe_does_not_step_off_its_holy_place_to_walk_back_M2_M13_2() -> None:
    """Red's Phase I (round 13 of a seeded 4-player game of heuristic bots): a red tribe sits on
    a red holy place, which pays in Phase III only if a red tribe stands there (M13.2), with a
    red offering carrier next door. While the phase goes on, the evaluation counts the holy
    place as occupied as long as the tribe can walk back to it; the bot used to step the tribe
    off towards the carrier, then, judging the position as the phase would leave it, walk it
    back: two steps (M2) for nothing, every turn. No step of the phase is taken back now."""
    game = ziggurat.load("mesopotamia", players=4)
    text = (Path(__file__).parent / "positions" / "red_holy_place_round_13.json").read_text()
    state: Any = game.state_from_position(json.loads(text))
    seat = state.current_player()
    assert state.view(seat)["players"][seat]["colour"] == "red"
    bot = make_bot("heuristic", game, seat)
    rng = random.Random(13)
    played: list[str] = []
    while state.view(seat)["phase"] == "movement":
        who = state.current_player()
        if who == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        assert who == seat
        action = bot.choose(state.view(seat), state.legal_actions(), rng)
        played.append(action)
        state.apply(action)
    assert played[-1] == "end"
    assert not _steps_taken_back(played), played
    assert [h for h in state.view(seat)["holy_places"] if h[2] == "red"] == [[-2, 1, "red"], [0, 2, "red"]]
    occupied = {(q, r) for q, r, _cargo, _spent in state.view(seat)["players"][seat]["tribes"]}
    assert (0, 2) in occupied and (-2, 1) in occupied  # both holy places still pay (M13.2)
