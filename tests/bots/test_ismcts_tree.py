"""How the ISMCTS tree sees moves (keys of the searcher's information sets), its final choice
and its no-loop rule (docs/bots.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from bot_helpers import mid_game

import ziggurat
from ziggurat.bots import make_bot
from ziggurat.bots import search as search_module
from ziggurat.bots.ismcts import ISMCTSBot
from ziggurat.bots.observe import Observer
from ziggurat.bots.search import Luck, RootStats, Searcher
from ziggurat.bots.spec import ISMCTSConfig
from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.games.mesopotamia_epochs.evaluate import chance_key


def test_hidden_choices_of_other_seats_are_one_edge() -> None:
    meso = ziggurat.load("mesopotamia", players=3)
    me = Observer(meso, 0)
    # M6.2: the value of an offering placed under a hut is secret
    assert me.decision_key(1, "offer 5") == me.decision_key(1, "offer 3") == "offer ?"
    assert me.decision_key(0, "offer 5") == "offer 5"  # one's own choice is known
    assert me.decision_key(1, "move y@1,0 2,0") == "move y@1,0 2,0"  # public
    nostrum = ziggurat.load("mare-nostrum", players=3)
    me = Observer(nostrum, 2)
    assert me.decision_key(0, "offer wine") == me.decision_key(1, "offer tax") == "offer ?"
    assert me.decision_key(0, "offer size 2") == "offer size 2"  # how many is public
    assert me.decision_key(2, "offer wine") == "offer wine"


def test_another_seats_card_draw_is_one_chance_edge() -> None:
    """M12: a drawn card is seen by its drawer only; chance keys follow the log."""
    game = ziggurat.load("mesopotamia", players=2)
    bots = [make_bot("heuristic", game, s) for s in range(2)]
    state = game.new_initial_state()
    rng = random.Random(3)
    while True:
        who = state.current_player()
        pending = getattr(state, "pending", None)
        if who == CHANCE and pending is not None and pending[0] == "card_draw":
            break
        action = (
            sample_chance(state, rng)
            if who == CHANCE
            else bots[who].choose(state.view(who), state.legal_actions(), rng)
        )
        state.apply(action)
    drawer = state.active  # type: ignore[attr-defined]
    keys = {}
    for seat in range(2):
        observer = Observer(game, seat)
        after = state.clone()
        outcome = after.legal_actions()[0]
        mark = observer.mark(after)
        after.apply(outcome)
        keys[seat] = (outcome, observer.chance_key(after, mark, outcome))
    outcome, own = keys[drawer]
    assert own == outcome and outcome.startswith("card ")
    assert keys[1 - drawer][1] == "card ?"


def test_final_choice_keeps_the_heuristic_move_without_evidence() -> None:
    stats = RootStats(prior="a", confidence=1.0)
    stats.actions = {"a": (10, 5.0, 10), "b": (12, 6.3, 12)}  # means 0.50 and 0.525
    stats.squares = {"a": 2.6, "b": 3.4}
    assert stats.best(["a", "b"]) == "a"  # b is not one standard error better
    stats.actions["b"] = (40, 32.0, 40)
    stats.squares["b"] = 25.8
    assert stats.best(["a", "b"]) == "b"  # mean 0.8 with 40 visits: clearly better
    assert stats.best(["b"]) == "b"
    assert RootStats(actions={"a": (3, 1.0, 3), "b": (5, 1.0, 5)}).best(["a", "b"]) == "b"


def test_a_view_met_again_gets_another_action() -> None:
    """Free actions can bring a position back (M2.8): the bot never plays the same action
    twice from one view, so it cannot go round in circles."""
    game = ziggurat.load("mesopotamia-epochs", players=2)
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.current_player() < 0 or len(state.legal_actions()) < 3:
        who = state.current_player()
        state.apply(sample_chance(state, rng) if who == CHANCE else state.legal_actions()[0])
    seat = state.current_player()
    bot = make_bot("ismcts:6:rollout=random:plies=0", game, seat)
    assert isinstance(bot, ISMCTSBot)
    view, legal = state.view(seat), state.legal_actions()
    played = [bot.choose(view, legal, random.Random(k)) for k in range(len(legal))]
    assert sorted(played) == sorted(legal)  # every action once, then
    assert bot.choose(view, legal, random.Random(99)) in legal  # any again


def test_paired_root_choice_needs_evidence_over_the_heuristic_move() -> None:
    """A paired root leaves the prior only for a candidate whose mean paired difference is
    above ``confidence`` standard errors (docs/bots.md, "Paired root")."""
    stats = RootStats(prior="a", confidence=1.0)
    # b: +0.05 on average over 4 rounds but noisy; c: +0.02 every round
    stats.pairs = {"b": (4, 0.2, 0.2 * 0.2 + 3 * 0.3 * 0.3), "c": (4, 0.08, 4 * 0.02 * 0.02)}
    assert stats.best(["a", "b", "c"]) == "c"
    assert stats.best(["a", "b"]) == "a"  # b alone is not one standard error better
    stats.pairs["c"] = (4, -0.08, 4 * 0.02 * 0.02)
    assert stats.best(["a", "b", "c"]) == "a"  # worse than the prior: never chosen
    assert stats.best(["b", "c"]) in {"b", "c"}  # prior ruled out (no-loop rule): most visited


@pytest.mark.parametrize(("game_id", "players"), [("mesopotamia-epochs", 2), ("mare-nostrum", 3)])
def test_paired_root_plays_its_candidates_in_rounds(game_id: str, players: int) -> None:
    """Each round plays every candidate once in one world; with ``depth=1`` nothing grows
    below the root, and every non-prior candidate has one paired difference per round."""
    game, state = mid_game(game_id, players, 12)
    seat = state.current_player()
    width, rounds = 3, 5
    config = ISMCTSConfig(
        seconds=None, iterations=width * rounds, root="paired", width=width, depth=1, plies=4, plans=False
    )
    searcher = Searcher(game, seat, config)
    stats = searcher.search(state.view(seat), 7, config.iterations, None)
    legal = state.legal_actions()
    k = min(width, len(legal))
    assert stats.iterations == width * rounds
    assert stats.prior is not None and stats.prior in legal
    assert len(stats.actions) == k and all(n == stats.iterations // k for n, _, _ in stats.actions.values())
    assert set(stats.pairs) == set(stats.actions) - {stats.prior}
    assert all(n == stats.iterations // k for n, _, _ in stats.pairs.values())
    heuristic = make_bot("heuristic", game, seat)
    # the prior is the heuristic's move (the playout policy's, from the searcher's view)
    assert stats.prior == heuristic.choose(state.view(seat), legal, random.Random(0))


def test_search_defaults_follow_the_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's ``SEARCH_DEFAULTS_BY_PLAYERS[n]`` refines its ``SEARCH_DEFAULTS`` for n players,
    and a spec's own options win over both."""
    from ziggurat.games.mesopotamia_epochs import evaluate

    monkeypatch.setattr(evaluate, "SEARCH_DEFAULTS", {"root": "paired", "width": 5, "plies": 100})
    monkeypatch.setattr(evaluate, "SEARCH_DEFAULTS_BY_PLAYERS", {4: {"plies": 12}}, raising=False)
    two, four = (ziggurat.load("mesopotamia-epochs", players=n) for n in (2, 4))
    assert Searcher(two, 0, ISMCTSConfig()).plies == 100
    searcher = Searcher(four, 0, ISMCTSConfig())
    assert (searcher.plies, searcher.width, searcher.root_mode) == (12, 5, "paired")
    assert Searcher(four, 0, ISMCTSConfig(plies=3, root="uct")).plies == 3
    assert Searcher(four, 0, ISMCTSConfig(root="uct")).root_mode == "uct"


def test_paired_root_races_its_candidates() -> None:
    """Racing (docs/bots.md, "Paired root"): after ``RACE_ROUNDS`` rounds a candidate that
    plays out exactly as the prior, or is clearly worse, leaves the race; its rounds go to
    the others, and with only the prior left the search stops."""
    game, state = mid_game("mesopotamia-epochs", 2, 12)
    seat = state.current_player()
    config = ISMCTSConfig(seconds=None, iterations=200, root="paired", width=4, depth=1)
    legal = state.legal_actions()
    assert len(legal) >= 4
    prior, same, worse, better = legal[:4]
    outcome = {prior: 0.5, same: 0.5, worse: 0.2, better: 0.6}
    noise = random.Random(3)

    class Scripted(Searcher):
        """Candidates and rewards set by the test (a subclass: the compiled build's
        searcher takes no methods set on an instance)."""

        def _candidates(self, *_: Any) -> tuple[str, list[str]]:
            return prior, list(outcome)

        def _iterate(
            self, root: Any, state: Any, rng: Any, luck: Any, rank: Any, forced: str | None = None
        ) -> float:
            assert forced is not None
            return outcome[forced] + (noise.uniform(-0.01, 0.01) if forced in (worse, better) else 0.0)

    searcher = Scripted(game, seat, config)
    race = search_module.RACE_ROUNDS
    stats = searcher.search(state.view(seat), 1, config.iterations, None)
    rounds = {a: n for a, (n, _, _) in stats.pairs.items()}
    assert rounds[same] == rounds[worse] == race
    # the prior and the better move share what is left of the budget
    assert rounds[better] == race + (200 - 4 * race) // 2
    assert stats.best(legal) == better
    # nothing but the prior left in the race: the search stops early
    outcome[better] = 0.3
    stats = searcher.search(state.view(seat), 1, config.iterations, None)
    assert stats.iterations == 4 * race
    assert stats.best(legal) == prior


def test_a_plan_candidate_plays_its_action() -> None:
    """A plan candidate's key is its action and the plan (docs/bots.md, "Plans"); chosen, it
    plays the action."""
    key = search_module.plan_key("b", "raid")
    assert key != "b" and key.partition(search_module.PLAN_MARK) == ("b", search_module.PLAN_MARK, "raid")
    stats = RootStats(prior="a", confidence=1.0)
    stats.pairs = {key: (4, 0.08, 4 * 0.02 * 0.02)}
    assert stats.best(["a", "b"]) == "b"
    assert stats.best(["a", "c"]) == "a"  # the plan's move is not legal here (no-loop rule)


class _Counting:
    """A plan that plays the heuristic's moves and counts its decisions per seat."""

    calls: dict[int, int] = {}

    def __init__(self, game: ziggurat.Game, seat: int) -> None:
        self.inner = make_bot("heuristic", game, seat)
        self.seat = seat
        self.needs_view = True

    def choose(self, view: dict[str, object] | None, legal: list[str], rng: random.Random) -> str:
        _Counting.calls[self.seat] = _Counting.calls.get(self.seat, 0) + 1
        move: str = self.inner.choose(view, legal, rng)
        return move


def test_paired_root_tries_each_plan_for_the_searching_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the game's plans is one more candidate: the plan's move from the view, played
    out with the searching seat (and no other) following the plan; ``plans=off`` drops them."""
    from ziggurat.games.mare_nostrum import bots as nostrum_bots

    monkeypatch.setattr(nostrum_bots, "PLANS", {"count": _Counting})
    game, state = mid_game("mare-nostrum", 3, 12)
    seat = state.current_player()
    view, legal = state.view(seat), state.legal_actions()
    config = ISMCTSConfig(seconds=None, iterations=16, root="paired", width=3, depth=1, plies=4)
    _Counting.calls = {}
    stats = Searcher(game, seat, config).search(view, 7, config.iterations, None)
    heuristic = make_bot("heuristic", game, seat).choose(view, legal, random.Random(0))
    key = search_module.plan_key(heuristic, "count")
    assert stats.moves == {key: heuristic}
    assert key in stats.actions and key in stats.pairs
    assert set(_Counting.calls) == {seat} and _Counting.calls[seat] > 1  # its playouts follow it
    assert stats.best(legal) in legal
    _Counting.calls = {}
    off = Searcher(game, seat, ISMCTSConfig(**{**config.__dict__, "plans": False}))
    quiet = off.search(view, 7, config.iterations, None)
    assert not quiet.moves and key not in quiet.actions and _Counting.calls == {}


def _attack(state: State) -> str | None:
    """A placement of the player to move into another People's area (E8.5: it sets off
    combat, chance events, E12), among more than two legal actions; ``None`` if there is none."""
    legal = state.legal_actions()
    if len(legal) <= 2:
        return None
    for a in legal:
        if not a.startswith("place "):
            continue
        holder = state.occ[state.rules.map.index[a[6:]]]  # type: ignore[attr-defined]
        if holder < 0 or holder == state.active:  # type: ignore[attr-defined]
            continue
        after = state.clone()
        after.apply(a)
        if after.is_chance_node():
            return a
    return None


def test_root_ranking_values_an_attack_after_its_dice() -> None:
    """With ``chance=N`` the root ranking values a move that sets off chance events after them,
    the mean over N draws; without it, as the position stands before the dice. Here the
    evaluator says 1 when the attacked area is taken, so the attack's rank is the share of
    draws in which one tribe takes it (E12.5-E12.7), and 0 before the dice."""
    game, state = mid_game("mesopotamia-epochs", 2, 0, seed=5, where=lambda s: _attack(s) is not None)
    attack = _attack(state)
    assert attack is not None
    seat = state.current_player()
    area = state.rules.map.index[attack.split(" ", 1)[1]]
    active = state.active

    def taken(s: State) -> list[float]:
        won = 1.0 if s.occ[area] == active else 0.0  # type: ignore[attr-defined]
        return [won if i == seat else 1.0 - won for i in range(2)]

    ranks = {}
    for draws in (0, 64):
        searcher = Searcher(game, seat, ISMCTSConfig(seconds=None, iterations=10, chance=draws))
        searcher.evaluate = taken
        ranks[draws] = searcher._rank(state.clone())
    assert ranks[0][attack] == 0.0
    assert 0.2 < ranks[64][attack] < 1.0  # one tribe against the defenders: often, not always
    quiet = [a for a in ranks[0] if a != attack and ranks[0][a] == ranks[64][a]]
    assert len(quiet) >= len(ranks[0]) // 2  # moves without dice are valued as before


def test_a_named_chance_event_draws_the_same_luck_in_every_candidates_playout() -> None:
    """``sync=on`` (2-player Epochs' default): an Epochs attack's roll is named by the Epoch, the
    People and the area (``evaluate.chance_key``), so in one round it rolls the same however
    much luck the playout drew before it (another candidate's attack, a tie-break), and so
    does a second attack on the same area (with luck of its own); with ``sync=off`` the roll
    depends on what came before."""
    game, state = mid_game("mesopotamia-epochs", 2, 0, seed=5, where=lambda s: _attack(s) is not None)
    attack = _attack(state)
    assert attack is not None
    seat = state.current_player()
    fight = state.clone()
    fight.apply(attack)
    assert fight.is_chance_node()
    assert chance_key(fight) == ("combat", fight.epoch, fight.active, fight.pending[1])  # type: ignore[attr-defined]
    assert chance_key(state) is None  # a decision is no chance event

    def rolls(config: ISMCTSConfig, burn: int) -> tuple[str, str]:
        searcher = Searcher(game, seat, config)
        luck = Luck(12345)
        for _ in range(burn):  # what other moves of the playout drew before the attack
            luck.random()
        return searcher._chance(fight, luck), searcher._chance(fight, luck)

    synced = [rolls(ISMCTSConfig(seconds=None, iterations=10, sync=True), burn) for burn in range(12)]
    assert len(set(synced)) == 1  # the first roll and the second alike, whatever came before
    first, second = synced[0]
    outcomes = {a for a, _ in fight.chance_outcomes()}
    assert first in outcomes and second in outcomes
    plain = [rolls(ISMCTSConfig(seconds=None, iterations=10, sync=False), burn) for burn in range(12)]
    assert len({a for a, _ in plain}) > 1  # one stream: the roll depends on the draws before it
    again = {Luck(s).keyed(("combat", 1, 2, 3)).random() for s in (1, 2)}
    assert len(again) == 2  # another round, other luck


def test_keyed_luck_counts_the_events_of_each_name() -> None:
    """:class:`Luck`: the n-th event of a name has its own stream, whatever other names or
    stream draws came between, and the same in every process (from ``repr``, not ``hash``)."""
    a, b = Luck(7), Luck(7)
    first_a = a.keyed(("draw", 2)).random()
    b.random()
    b.keyed(("combat", 2, 0, 5)).random()
    first_b = b.keyed(("draw", 2)).random()
    assert first_a == first_b
    assert a.keyed(("draw", 2)).random() == b.keyed(("draw", 2)).random() != first_a
    assert Luck(7).keyed(("draw", 2)).random() == random.Random("7/('draw', 2)/0").random()


def test_a_keyed_draw_is_the_first_draw_of_the_keyed_stream() -> None:
    """:meth:`Luck.keyed_random` (what the search's chance events read): the first draw of
    the stream :meth:`Luck.keyed` gives for the same event, worked out or kept from an
    earlier candidate of the round, and counted like it."""
    names = [("combat", 1, 2, 3), ("draw", 2), ("combat", 1, 2, 3), ("deal", 0)]
    for _ in range(2):  # the second time from what was kept
        drawn, streamed = Luck(7), Luck(7)
        assert [drawn.keyed_random(k) for k in names] == [streamed.keyed(k).random() for k in names]
        assert drawn.counts == streamed.counts
    assert Luck(7).keyed_random(("draw", 2)) == random.Random("7/('draw', 2)/0").random()
