"""Mare Nostrum: Empires log lines name the step they end (rules spec section 7 for the log):
"Rome is done with the Buy step", "Carthage is done with the Sea battle step", "Greece lets
Egypt buy next", in English and French, for events told one by one and through whole steps of
seeded games (where the engine plays a step's ``done`` by itself when nothing else is left)."""

from __future__ import annotations

import random

import ziggurat
from ziggurat.engine.eventlog import events_since, log_mark
from ziggurat.games.mare_nostrum import describe as DS

ROME, CARTHAGE = 0, 1
VIEW = {"empires": ["rome", "carthage", "greece", "egypt"], "n": 4, "viewer": None}


def _said(text: str, stage: str, actor: int = ROME) -> tuple[str, str]:
    before = {**VIEW, "stage": stage}
    msg = DS.describe_event((actor, text, False, actor), before, before)
    return str(msg), msg.render("fr")


def test_end_names_the_buy_step_N3() -> None:
    assert _said("end", "buy_turn") == ("Rome is done with the Buy step", "Rome a fini l'étape d'achat")


def test_done_names_each_military_step_N4() -> None:
    assert _said("done", "mil_conv") == (
        "Rome is done with the Conversion step",
        "Rome a fini l'étape des conversions",
    )
    assert _said("done", "mil_row")[0] == "Rome is done with the Trireme movement step"
    assert _said("done", "mil_sea", CARTHAGE) == (
        "Carthage is done with the Sea battle step",
        "Carthage a fini l'étape des batailles navales",
    )
    assert _said("done", "mil_march")[1] == "Rome a fini l'étape du déplacement des légions"
    assert _said("done", "mil_circe")[0] == "Rome is done with the Circe step"


def test_next_says_who_buys_or_moves_next_N3_N4() -> None:
    assert _said("next 1", "buy_order") == (
        "Rome lets Carthage buy next",
        "Rome laisse Carthage acheter ensuite",
    )
    assert _said("next 1", "mil_order") == (
        "Rome lets Carthage move next",
        "Rome laisse Carthage se déplacer ensuite",
    )
    assert _said("next 0", "buy_order") == ("Rome buys next", "Rome achète ensuite")


def test_a_step_of_several_events_follows_the_stage() -> None:
    """A chosen ``done`` of the conversions, then the engine's ``done`` of the empty trireme and
    sea battle steps: each sentence names its own step."""
    before = {**VIEW, "stage": "mil_conv"}
    events = [(ROME, "done", False, ROME), (ROME, "done", True, ROME), (ROME, "done", True, ROME)]
    told = [str(m) for m, _auto in DS.describe_step(events, before, before)]
    assert told == [
        "Rome is done with the Conversion step",
        "Rome is done with the Trireme movement step",
        "Rome is done with the Sea battle step",
    ]
    # after the last Buy turn ends, the next seat chosen is the one who moves next (N4.2)
    before = {**VIEW, "stage": "buy_turn", "buy": {"done": [1, 2, 3]}}
    events = [(ROME, "end", False, ROME), (CARTHAGE, "next 2", True, CARTHAGE)]
    told = [str(m) for m, _auto in DS.describe_step(events, before, before)]
    assert told == ["Rome is done with the Buy step", "Carthage lets Greece move next"]


def test_seeded_games_never_say_this_step() -> None:
    """Every ``done``, ``end`` and ``next`` of three seeded games names its step, and a chosen
    one names the stage the engine was in."""
    told = 0
    for seed, n in ((1, 3), (2, 4), (3, 5)):
        state = ziggurat.load("mare-nostrum", players=n).new_initial_state()
        rng = random.Random(seed)
        for _ in range(900):
            if state.is_terminal():
                break
            before = state.view(None)
            mark = log_mark(state)
            if state.current_player() == ziggurat.CHANCE:
                state.apply(ziggurat.sample_chance(state, rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
            events = events_since(state, mark)
            sentences = DS.describe_step(events, before, state.view(None))
            for e, (msg, _auto) in zip(events, sentences, strict=False):
                kind = e[1].split(" ")[0]
                if kind not in ("done", "end", "next"):
                    continue
                told += 1
                text = str(msg)
                assert "this step" not in text and "go next" not in text and "goes next" not in text, text
                assert "cette étape" not in msg.render("fr")
                if e is events[0] and kind == "done":
                    step = {"mil_conv": "Conversion", "mil_row": "Trireme movement", "mil_sea": "Sea battle",
                            "mil_march": "Legion movement", "mil_circe": "Circe"}[before["stage"]]  # fmt: skip
                    assert text.endswith(f"the {step} step"), (text, before["stage"])
    assert told > 30
