"""The shortcuts of the play path agree with the rules worked out the long way.

Written for speed: the next tokens of a payment under Hannibal's ``one_pair`` reading or with
Cleopatra alone (N0.8.3, R28), worked out type by type or once for every fresh type; the largest payment of a screen without
Cleopatra (N0.8.1, R28), counted directly; ``flow.play``, handed the mover the legal list found,
skipping the automatic steps (and the second N6.3 check) where none can run;
``NostrumState.apply``, which inlines the engine's pipeline; and answers kept per board table (a
seat's provinces, units on the board, connected provinces, where legions may sail). Each is
compared with the plain answer: ``payment.can_finish`` token by token over random screens, and,
over seeded random games at every player count, a play that works the mover out again and
always runs ``flow.advance`` with both victory checks, ``State.apply`` itself, and legal lists
worked out with every kept answer forgotten.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ziggurat.engine.contract import CHANCE, State, sample_chance
from ziggurat.engine.records import record
from ziggurat.games.mare_nostrum import MareNostrumGame, flow
from ziggurat.games.mare_nostrum import board as B
from ziggurat.games.mare_nostrum import buy_place as BP
from ziggurat.games.mare_nostrum import military as M
from ziggurat.games.mare_nostrum import payment as P
from ziggurat.games.mare_nostrum import victory as V
from ziggurat.games.mare_nostrum.state import NostrumState, copy_state

NostrumStateApply = NostrumState.apply

TOKENS = ("grain", "wine", "oil", "gems", "gold", "timber", "leg:grain", "leg:oil", "tax")


def random_payment(rng: random.Random) -> tuple[list[str], dict[str, int], int]:
    """A screen (every count positive, as play leaves them), the tokens paid so far and the
    tokens still due: the paid ones may break the rules, to reach every branch."""
    res: dict[str, int] = {}
    for _ in range(rng.randrange(1, 11)):
        tok = rng.choice(TOKENS)
        res[tok] = res.get(tok, 0) + 1
    cost = rng.choice((3, 3, 5, 6))
    paid = [rng.choice(TOKENS) for _ in range(rng.randrange(cost))]
    return paid, res, cost - len(paid)


def next_tokens_from_rules(paid: list[str], res: dict[str, int], need: int, allow: P.Allowance) -> list[str]:
    """N0.8: each token of the screen, in name order, after which the payment can be finished."""
    out = []
    for tok in sorted(res):
        left = dict(res)
        left[tok] -= 1
        if P.can_finish([*paid, tok], left, need - 1, "normal", allow):
            out.append(tok)
    return out


@pytest.mark.parametrize(
    "allow",
    [
        P.Allowance("one_pair", None, None),
        P.Allowance(None, "one_token", None),
        P.Allowance(None, "any_mix", None),
    ],
)
def test_next_tokens_with_one_hero_match_can_finish_N0_8_3_R28(allow: P.Allowance) -> None:
    rng = random.Random(28)
    for _ in range(20_000):
        paid, res, need = random_payment(rng)
        assert P.next_tokens(paid, res, need, "normal", allow) == next_tokens_from_rules(
            paid, res, need, allow
        )


def test_one_pair_with_a_pair_paid_allows_no_other_repeat_R28() -> None:
    allow = P.Allowance("one_pair", None, None)
    res = {"grain": 2, "wine": 1, "oil": 1}
    # grain twice is the pair: a third grain or a second pair is refused, a new type is fine
    assert P.next_tokens(["wine", "wine"], res, 1, "normal", allow) == ["grain", "oil"]
    assert P.next_tokens(["grain"], res, 2, "normal", allow) == ["grain", "oil", "wine"]
    assert P.next_tokens(["tax"], {**res, "tax": 2}, 2, "normal", allow) == ["tax"]


@pytest.mark.parametrize("allow", [P.PLAIN, P.Allowance("one_pair", None, None)])
def test_largest_payment_without_cleopatra_matches_can_finish_N0_8_1_R28(allow: P.Allowance) -> None:
    rng = random.Random(81)
    for _ in range(5_000):
        _, res, _ = random_payment(rng)
        top = P.most_payable(res, allow)
        assert [P.can_finish([], res, k, "normal", allow) for k in range(1, 12)] == [
            k <= top for k in range(1, 12)
        ]


def play_the_long_way(d: dict[str, Any], action: str) -> None:
    """``flow.play`` as the rules read: the mover worked out, the action's effect, the N6.3
    check, every automatic step looked for, and the check again after any that ran."""
    words = action.split()
    if flow.to_move(d) == CHANCE:
        flow._chance_effect(d, words)
    elif d["queue"]:
        flow._queue_effect(d, words)
    else:
        flow._EFFECT[d["stage"]](d, words)
    V.capitals_at_once(d)
    if flow.advance(d):
        V.capitals_at_once(d)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_play_shortcuts_match_the_long_way_N6_3(n: int) -> None:
    game = MareNostrumGame(n, {})
    rng = random.Random(600 + n)
    state = game.new_initial_state()
    ended = 0
    for _ in range(4000):
        if state.is_terminal():
            state = game.new_initial_state()
            ended += 1
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        long_way = copy_state(state.d)
        play_the_long_way(long_way, action)
        shortcut = copy_state(state.d)
        flow.play(shortcut, action, state.current_player())
        assert shortcut == long_way, (n, state.d["stage"], action)
        state.apply(action)
    assert ended >= 1  # the games played reached their ends (N6), where the checks bite


def outcome(apply: Any, state: Any, action: Any, seat: Any = None) -> tuple[str, str]:
    """What applying ``action`` as ``seat`` does: the error's class and message, or ``ok``."""
    try:
        apply(state, action, seat)
    except Exception as error:  # noqa: BLE001 - the comparison is of whatever is raised
        return type(error).__name__, str(error)
    return "ok", ""


@pytest.mark.parametrize("n", [3, 4, 5])
def test_apply_matches_the_engine_pipeline(n: int) -> None:
    """``NostrumState.apply`` inlines the engine's pipeline (``State.apply``): over seeded random
    games both give the same events, positions, legal lists, kept copies and refusals."""
    game = MareNostrumGame(n, {})
    rng = random.Random(900 + n)
    ours = game.new_initial_state()
    base = game.new_initial_state()
    for ply in range(1500):
        if ours.is_terminal():
            break
        legal = list(ours.legal_actions())
        assert legal == list(base.legal_actions())
        assert ours.current_player() == base.current_player()
        if ply % 5 == 0:  # refusals: a loose text, an unknown one, another seat, a non-text
            mover = ours.current_player()
            other = (mover + 1) % n if mover >= 0 else 0
            loose = legal[0].replace(" ", "  ")
            for action, seat in (
                ("fly away", None),
                (legal[-1], other),
                (3, None),
                (loose, None),
                (legal[0], True),
            ):
                probe_ours, probe_base = ours.clone(), base.clone()
                assert outcome(NostrumStateApply, probe_ours, action, seat) == outcome(
                    State.apply, probe_base, action, seat
                )
                assert probe_ours.events() == probe_base.events()
                assert probe_ours.to_position() == probe_base.to_position()
        action = (
            sample_chance(ours, rng) if ours.current_player() == CHANCE else legal[rng.randrange(len(legal))]
        )
        ours.apply(action, None if ply % 3 else ours.current_player())
        State.apply(base, action)
        assert ours.events() == base.events()
        assert ours.to_position() == base.to_position()
    assert record(ours)["fingerprints"] == record(base)["fingerprints"]


def legal_from_scratch(state: Any) -> list[str]:
    """The legal list of ``state`` with every answer kept per table forgotten first."""
    B._OWN[0] = (None, [])
    B._ON_BOARD.clear()
    BP._NEAR.clear()
    BP._COASTS[0] = (None, [])
    M._SAILING.clear()
    return flow.legal(copy_state(state.d))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_answers_kept_per_table_hold_across_diverging_clones_D13_D20(n: int) -> None:
    """The buy turn (D13) and the legion moves (D20) keep answers per ``markers``,
    ``triremes``, ``legions`` and ``zeus`` table; a search plays many clones in turn, whose
    tables differ: the lists of clones played alternately match the lists worked out afresh."""
    game = MareNostrumGame(n, {})
    rng = random.Random(700 + n)
    lines = [game.new_initial_state()]
    compared = 0
    for ply in range(3000):
        if ply % 40 == 0 and len(lines) < 4:
            lines.append(lines[rng.randrange(len(lines))].clone())  # a new line of play
        state = lines[ply % len(lines)]
        if state.is_terminal():
            lines[ply % len(lines)] = state = game.new_initial_state()
        d = state.d
        if d["stage"] in ("buy_turn", "mil_march") and not d["queue"] and d["battle"] is None:
            kept = list(state.legal_actions())
            assert kept == legal_from_scratch(state), (n, ply, d["stage"])
            compared += 1
        if state.current_player() == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply(action)
    assert compared > 300
