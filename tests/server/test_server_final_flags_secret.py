"""Which legal actions are final (the ``final`` of a ``state`` message) tells the seat no secret.

In Mesopotamia: Epochs, who decides after the end of a People's round depends on who holds the
next People's card, which may be another seat's hidden card or a set-aside one (E3.7, R42).
Played on the true state, the end of the round was flagged ``ends_turn`` when another seat's
hidden card came next and ``irreversible`` when the seat's own People came next: the flag told
the seat, before it decided, whether an unseen card was held. The flags are now worked out on a
state chosen from the seat's view alone, so two states it cannot tell apart get the same flags.
"""

from __future__ import annotations

import random

import ziggurat
from ziggurat.server import gamekit
from ziggurat.server.gamekit import final_flags


def _decisions(game_id: str, players: int, seed: int, **options: object) -> list[ziggurat.State]:
    game = ziggurat.load(game_id, players=players, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if state.current_player() < 0:
            state.apply(ziggurat.sample_chance(state, rng))
            continue
        out.append(state.clone())
        state.apply(rng.choice(list(state.legal_actions())))
    return out


def _next_deciders(state: ziggurat.State, seat: int) -> dict[str, int]:
    out = {}
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action, seat=seat)
        out[action] = after.current_player()
    return out


def test_final_flags_do_not_tell_who_holds_the_next_people_E3_7() -> None:
    hidden_next = 0
    for state in _decisions("mesopotamia-epochs", 3, seed=0):
        seat = state.current_player()
        flags = final_flags(state, seat)
        for k in range(3):
            other = state.game.sample_state(state.view(seat), seat, random.Random(k))
            assert final_flags(other, seat) == flags, state.view(seat)["round"]
            if _next_deciders(other, seat) != _next_deciders(state, seat):
                hidden_next += 1
    assert hidden_next > 0  # the game had decisions whose next decider hung on a hidden card


def test_final_flags_are_a_function_of_the_view_in_every_game() -> None:
    for game_id, players, options in (
        ("mesopotamia", 3, {"round_limit": 3}),
        ("mare-nostrum", 3, {"max_rounds": 1}),
    ):
        for state in _decisions(game_id, players, seed=1, **options)[::3]:
            seat = state.current_player()
            other = state.game.sample_state(state.view(seat), seat, random.Random(7))
            assert final_flags(other, seat) == final_flags(state, seat)


def _assert_flags_match_sampled_states(state: ziggurat.State, players: int) -> None:
    """The flags of the seat to move in ``state`` are those of three states sampled from its view."""
    seat = state.current_player()
    view = state.view(seat)
    flags = final_flags(state, seat, view)
    for k in range(3):
        other = state.game.sample_state(view, seat, random.Random(k))
        assert final_flags(other, seat) == flags, (players, view["round"])


def test_mesopotamia_reads_its_flags_on_the_true_state_R58() -> None:
    """Mesopotamia declares ``flags_from_state``: when the turn moves on is public (R58, §7), so
    every state a seat cannot tell from the true one has the true one's flags, and the server
    skips sampling one. Checked over every decision of short games, each player count, with
    the variant that deals a card at the start, against three sampled states each."""
    assert gamekit.flags_from_state(ziggurat.load("mesopotamia", players=3))
    assert not gamekit.flags_from_state(ziggurat.load("mesopotamia-epochs", players=3))
    checked = 0
    for players, options in ((2, {}), (3, {"variant_start_with_one_card": True}), (4, {})):
        for state in _decisions("mesopotamia", players, seed=players, round_limit=4, **options):
            _assert_flags_match_sampled_states(state, players)
            checked += 1
    assert checked > 250


def test_mare_nostrum_reads_its_flags_on_the_true_state_7_8() -> None:
    """Mare Nostrum declares ``flags_from_state``: the engine asks or plays each decision from
    public facts only (7.8), so every state a seat cannot tell from the true one has the true
    one's flags. Checked over every decision of two-round games at 3, 4 and 5 players, against
    three sampled states each."""
    assert gamekit.flags_from_state(ziggurat.load("mare-nostrum", players=3))
    checked = 0
    for players in (3, 4, 5):
        for state in _decisions("mare-nostrum", players, seed=players, max_rounds=2):
            _assert_flags_match_sampled_states(state, players)
            checked += 1
    assert checked > 300
