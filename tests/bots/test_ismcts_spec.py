"""Bot specs: ``random``, ``heuristic`` and ``ismcts[:BUDGET][:OPTION=VALUE...]`` (docs/bots.md)."""

from __future__ import annotations

import pytest

import ziggurat
from ziggurat.bots import ISMCTSConfig, RandomBot, check_spec, close_bot, make_bot, parse_ismcts
from ziggurat.bots.ismcts import ISMCTSBot


@pytest.mark.parametrize(
    ("spec", "seconds", "iterations"),
    [
        ("ismcts", 1.0, None),
        ("ismcts:1s", 1.0, None),
        ("ismcts:0.5s", 0.5, None),
        ("ismcts:250ms", 0.25, None),
        ("ismcts:2000", None, 2000),
        ("  ISMCTS:2S ", 2.0, None),
    ],
)
def test_budgets(spec: str, seconds: float | None, iterations: int | None) -> None:
    cfg = parse_ismcts(spec)
    assert (cfg.seconds, cfg.iterations) == (seconds, iterations)
    assert cfg.workers == 1 and cfg.c is None and cfg.plies is None and cfg.rollout == "heuristic"


def test_options_in_any_order() -> None:
    cfg = parse_ismcts("ismcts:workers=2:c=0.3:300:rollout=random:plies=12")
    assert cfg == ISMCTSConfig(seconds=None, iterations=300, workers=2, c=0.3, rollout="random", plies=12)
    assert cfg.spec() == "ismcts:300:workers=2:c=0.3:rollout=random:plies=12"
    assert parse_ismcts(cfg.spec()) == cfg
    assert parse_ismcts("ismcts:workers=3").seconds == 1.0  # the default budget
    paired = parse_ismcts("ismcts:depth=1:root=paired:2s:width=6")
    assert (paired.root, paired.width, paired.depth, paired.seconds) == ("paired", 6, 1, 2.0)
    assert paired.spec() == "ismcts:2s:root=paired:width=6:depth=1"
    assert parse_ismcts(paired.spec()) == paired
    assert parse_ismcts("ismcts:confidence=1.5").confidence == 1.5
    assert parse_ismcts("ismcts").plans and not parse_ismcts("ismcts:plans=off").plans
    own = parse_ismcts("ismcts:own=successor:200")
    assert own.own == "successor" and own.spec() == "ismcts:200:own=successor"
    assert parse_ismcts(own.spec()) == own and parse_ismcts("ismcts").own is None
    assert parse_ismcts("ismcts:1s:plans=off").spec() == "ismcts:1s:plans=off"
    assert parse_ismcts("ismcts:plans=on") == parse_ismcts("ismcts")
    assert parse_ismcts("ismcts").chance is None and parse_ismcts("ismcts:chance=4").chance == 4
    assert parse_ismcts("ismcts:300:chance=0").spec() == "ismcts:300:chance=0"
    assert parse_ismcts("ismcts").sync is None and parse_ismcts("ismcts:sync=off").sync is False
    assert parse_ismcts("ismcts:300:sync=off").spec() == "ismcts:300:sync=off"
    assert parse_ismcts("ismcts:sync=on").sync is True
    assert parse_ismcts("ismcts:sync=on").spec() == "ismcts:1s:sync=on"


@pytest.mark.parametrize(
    ("spec", "fragment"),
    [
        ("ismcts:fast", "'fast' is neither a budget"),
        ("ismcts:1s:2000", "more than one budget"),
        ("ismcts:0", "at least 1"),
        ("ismcts:0s", "above 0"),
        ("ismcts:2h", "neither a budget"),
        ("ismcts:workers=0", "workers must be a whole number from 1"),
        ("ismcts:workers=two", "workers must be a whole number"),
        ("ismcts:c=-1", "c must be a number"),
        ("ismcts:rollout=greedy", "rollout must be heuristic or random"),
        ("ismcts:breadth=3", "unknown option 'breadth'"),
        ("ismcts:root=flat", "root must be uct or paired"),
        ("ismcts:width=1", "width must be a whole number from 2"),
        ("ismcts:depth=0", "depth must be a whole number from 1"),
        ("ismcts:confidence=much", "confidence must be a number from 0 to 10"),
        ("ismcts:plans=maybe", "plans must be on or off"),
        ("ismcts:chance=-1", "chance must be a whole number from 0 to 64"),
        ("ismcts:chance=100", "chance must be a whole number from 0 to 64"),
        ("ismcts:sync=yes", "sync must be on or off"),
        ("ismcts:own=", "own must name a playout policy"),
        ("ismcts:own=2x", "own must name a playout policy"),
        ("ismcts:c=1:c=2", "given twice"),
        ("ismcts::1s", "empty part"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, fragment: str) -> None:
    with pytest.raises(ValueError, match="bad bot spec") as err:
        parse_ismcts(spec)
    assert fragment in str(err.value)
    with pytest.raises(ValueError, match=fragment):
        check_spec(spec)


def test_make_bot_by_spec() -> None:
    game = ziggurat.load("mesopotamia", players=2)
    assert isinstance(make_bot("random", game, 0), RandomBot)
    assert make_bot("heuristic", game, 1).name == "heuristic"
    bot = make_bot("ismcts:250ms:workers=2", game, 1)
    assert isinstance(bot, ISMCTSBot) and bot.seat == 1 and bot.needs_view
    assert bot.name == "ismcts:250ms:workers=2" and bot.config.workers == 2
    close_bot(bot)  # no pool was started: nothing to stop
    with pytest.raises(ValueError, match="unknown bot 'robot'"):
        make_bot("robot", game, 0)
    with pytest.raises(ValueError, match="bad bot spec"):
        make_bot("ismcts:soon", game, 0)
