"""The tutorials of Mesopotamia: Epochs and Mare Nostrum: they validate (every lesson plays along
every way through it, docs/tutorials.md), and what their texts say happens does happen when a
learner plays the lesson (the roll a step names, the pool an intro counts, the win a lesson
ends on). Lessons are played with the tutorial runner, as the browser plays them. Mesopotamia's
lessons start with no more MP than the rules give.
"""

from __future__ import annotations

from typing import Any

import pytest

import ziggurat
from ziggurat.tutorials import LessonRun, load_tutorial, tutorial_games, validate

EPOCHS, NOSTRUM = "mesopotamia-epochs", "mare-nostrum"
ROME, GREECE, CARTHAGE = 0, 1, 2


def run(game_id: str, lesson_id: str) -> LessonRun:
    tutorial = load_tutorial(game_id)
    return LessonRun(tutorial, tutorial.lesson(lesson_id))


def play(lesson: LessonRun, count: int | None = None) -> LessonRun:
    """Play ``count`` more steps (all that are left by default), each with the first move it
    accepts."""
    left = len(lesson.lesson.steps) - lesson.step_index
    for _ in range(left if count is None else count):
        step = lesson.step
        assert step is not None
        move = step.expect[0] if step.expect else next(a for a in lesson.legal_actions() if step.matches(a))
        lesson.play(move)
    return lesson


def position(lesson: LessonRun) -> dict[str, Any]:
    return dict(lesson.state.to_position())


def areas(lesson: LessonRun) -> dict[str, tuple[str, int]]:
    return {a: (p, n) for a, p, n in position(lesson)["areas"]}


@pytest.mark.parametrize("game_id", [EPOCHS, NOSTRUM])
def test_tutorial_validates(game_id: str) -> None:
    """Both games have a tutorial covering their phases and ways to win (E4.4, E15.2; N0.1,
    N6), and every lesson plays to its end along every way through it."""
    assert game_id in tutorial_games()
    tutorial = load_tutorial(game_id)
    assert validate(tutorial) > len(tutorial.lessons)


# --- Mesopotamia: Epochs ----------------------------------------------------------------------


def test_allocation_lesson_draw_order_E3_2_R8() -> None:
    lesson = run(EPOCHS, "allocation")
    pos = position(lesson)
    assert pos["draw_order"] == ["head", "brooch", "mask"]  # 8 VP first; the 13-13 tie by order (R8)
    assert [p["vp"] for p in pos["players"]] == [13, 8, 13]
    assert lesson.legal_actions() == ["keep", "pass brooch", "pass mask"]  # D1, E3.4


def test_new_people_lesson_pool_and_scoring_E5_1_E7_1_E14_2() -> None:
    lesson = run(EPOCHS, "new_people")
    before = position(lesson)
    assert before["round"]["people"] == "phrygians" and before["round"]["pool"] == 5
    assert areas(lesson)["ahhiyawa"] == ("phrygians", 1)
    for move in ("place hatti", "place arzawa", "place ahhiyawa", "place ahhiyawa", "place hatti"):
        lesson.play(move)
    assert lesson.finished
    after = areas(lesson)
    assert after["ahhiyawa"] == ("phrygians", 3)  # the stacking limit (E13.1)
    assert after["hatti"] == ("phrygians", 2)
    held = [a for a, (p, _) in after.items() if p == "phrygians"]
    assert len(held) == 3
    gained = position(lesson)["players"][0]["vp"] - before["players"][0]["vp"]
    assert gained == position(lesson)["peoples"]["phrygians"]["vp"] > 0


def test_new_people_last_tribe_may_go_to_kanesh_the_bonus_area_E14_1_E14_2() -> None:
    """The last step names Kanesh, empty, double-value and the Phrygians' bonus area, as the
    best place for the last tribe: the lesson accepts it, and it scores 4 VP more than a
    second tribe in Hatti (2 for a double-value area, twice that as the bonus area)."""
    gained = {}
    for last in ("place kanesh", "place hatti", "place arzawa"):
        lesson = run(EPOCHS, "new_people")
        before = position(lesson)["players"][0]["vp"]
        for move in ("place hatti", "place arzawa", "place ahhiyawa", "place ahhiyawa"):
            lesson.play(move)
        step = lesson.step
        assert step is not None and "Kanesh" in step.say.en and "Kanesh" in step.say.fr
        assert step.matches(last)
        lesson.play(last)
        assert lesson.finished
        gained[last] = position(lesson)["players"][0]["vp"] - before
    assert gained["place kanesh"] == gained["place hatti"] + 4 == gained["place arzawa"] + 4


def test_growth_lesson_pool_counts_areas_E6_2_E6_3() -> None:
    lesson = run(EPOCHS, "growth")
    pos = position(lesson)
    held = [a for a, (p, _) in areas(lesson).items() if p == "kassites"]
    assert len(held) == 5 and pos["round"]["pool"] == 2  # round(5 / 3) = 2, no reinforcements in E4
    play(lesson)
    assert areas(lesson)["yamhad"] == ("kassites", 1)


def test_attack_lesson_rolls_E12_5_E12_8_R17() -> None:
    lesson = run(EPOCHS, "attack")
    assert position(lesson)["round"]["pool"] == 4  # 0 growth for one area + 4 (E6.3, E6.6)
    play(lesson, 1)
    assert areas(lesson)["elam"] == ("sumerians", 1)  # 6 against 3: taken
    play(lesson, 1)
    assert areas(lesson)["gutium"][0] == "guti"  # 2 against 5: the attacking tribe is lost
    play(lesson, 1)
    assert areas(lesson)["gutium"] == ("sumerians", 1)  # 4 against 4: Urbanisation wins the tie
    play(lesson)


def test_displacement_lesson_E7_2() -> None:
    lesson = run(EPOCHS, "displacement")
    assert areas(lesson)["ashur"] == ("kassites", 1)
    lesson.play("displace mari")
    assert areas(lesson)["mari"] == ("kassites", 2)
    assert areas(lesson)["ashur"][0] == "assyrians"


def test_sea_lesson_lands_and_crosses_the_sea_E7_5_E9_3() -> None:
    lesson = run(EPOCHS, "sea_peoples")
    lesson.play("land lukka")
    lesson.play("place alishiya")
    assert areas(lesson)["lukka"] == ("sea_peoples", 1)
    assert areas(lesson)["alishiya"] == ("sea_peoples", 1)


def test_last_round_lesson_ends_the_game_E15_1_E15_2() -> None:
    lesson = run(EPOCHS, "last_round")
    assert [p["vp"] for p in position(lesson)["players"]] == [90, 93, 103]
    play(lesson)
    assert lesson.state.is_terminal()
    assert lesson.state.returns() == [0.0, 1.0, 0.0]


# --- Mare Nostrum -----------------------------------------------------------------------------


def test_production_lesson_gives_resources_N1() -> None:
    lesson = run(NOSTRUM, "production")
    before = sum(position(lesson)["res"][CARTHAGE].values())
    play(lesson, 2)
    pos = position(lesson)
    assert pos["round"] == 2 and pos["stage"] == "trade_token"
    assert sum(pos["res"][CARTHAGE].values()) > before


def test_trade_lesson_offers_N2_3() -> None:
    lesson = run(NOSTRUM, "trade")
    play(lesson, 5)  # the token and the four offers
    offers = position(lesson)["trade"]
    assert offers is not None
    play(lesson)
    assert lesson.finished and not lesson.state.is_terminal()


def test_buy_lesson_marker_legion_and_discard_N3_4_N3_13() -> None:
    lesson = run(NOSTRUM, "buy_place")
    legions = position(lesson)["legions"]["latium"][ROME]
    play(lesson)
    pos = position(lesson)
    assert pos["markers"]["sicilia"] == ROME
    assert pos["legions"]["latium"][ROME] == legions + 1
    assert pos["res"][ROME] == {}  # 3 taxes and 3 goods spent, the other 3 goods discarded


def test_military_lesson_sea_battle_and_conquest_N4_5_N4_10() -> None:
    lesson = run(NOSTRUM, "military")
    play(lesson, 4)  # name, row, end the rows, sea battle
    assert position(lesson)["triremes"]["mare_sardum"] == [1, 0, 0]  # 6 against 1: sunk
    play(lesson)
    pos = position(lesson)
    assert pos["conqueror"]["africa"] == ROME
    assert pos["legions"]["africa"][CARTHAGE] == 0


def test_titles_lesson_wins_N5_2_N6_4() -> None:
    lesson = play(run(NOSTRUM, "titles"))
    assert position(lesson)["titles"] == {"trade": CARTHAGE, "culture": CARTHAGE, "military": CARTHAGE}
    assert lesson.state.returns()[CARTHAGE] == 1.0


def test_capitals_lesson_wins_N6_3() -> None:
    lesson = play(run(NOSTRUM, "capitals"))
    assert position(lesson)["occupy"]["africa"] == {"capital": ROME}
    assert lesson.state.returns()[ROME] == 1.0


def test_pyramids_lesson_wins_N6_1() -> None:
    lesson = play(run(NOSTRUM, "pyramids"))
    assert position(lesson)["pyramids"] == ROME
    assert lesson.state.returns()[ROME] == 1.0


def test_five_tiles_lesson_wins_N6_2() -> None:
    lesson = play(run(NOSTRUM, "five_tiles"))
    assert len(position(lesson)["tiles"][ROME]) == 5
    assert lesson.state.returns()[ROME] == 1.0


@pytest.mark.parametrize("game_id", ["mesopotamia", EPOCHS, NOSTRUM])
def test_a_tutorial_teaches_the_rules_a_new_game_plays(game_id: str) -> None:
    """Every option at its default: Mare Nostrum's tiles cost by the round (R25)."""
    tutorial = load_tutorial(game_id)
    lesson = LessonRun(tutorial, tutorial.lessons[0])
    assert lesson.game.options == ziggurat.load(game_id, players=tutorial.players).options


def test_five_tiles_lesson_pays_the_cost_of_its_round_R25() -> None:
    """Round 1 of the default costs: 7 taxes, one a step, as the intro says."""
    lesson = run(NOSTRUM, "five_tiles")
    assert "in round 1 a hero or wonder costs 7" in lesson.lesson.intro.get("en")
    assert "au tour 1, un héros ou une merveille coûte 7" in lesson.lesson.intro.get("fr")
    play(lesson, 1)
    taxes = position(lesson)["res"][ROME]["tax"]
    play(lesson)
    assert taxes - position(lesson)["res"][ROME].get("tax", 0) == 7


# S9: the MP of each seat, in turn order, on its first turn (round 1); 5 from round 2 on (S10)
FIRST_TURN_MP = {2: [2, 5], 3: [2, 3, 4], 4: [2, 3, 4, 5]}


@pytest.mark.parametrize("lesson_id", [lesson.id for lesson in load_tutorial("mesopotamia").lessons])
def test_mesopotamia_lessons_give_no_more_mp_than_the_rules_S9_S10_M2_1(lesson_id: str) -> None:
    """A Phase I lesson starts with at most the MP a turn of that round gives its seat: the
    first player of round 1 has 2 (S9), every turn from round 2 on has 5 (S10, M2.1)."""
    lesson = run("mesopotamia", lesson_id)
    position = lesson.state.to_position()
    if position["phase"] != "movement":
        return
    players = position["num_players"]
    mover = position["turn_order"][position["turn"]]
    pool = 5 if position["round"] > 1 else FIRST_TURN_MP[players][position["turn_order"].index(mover)]
    assert position["mp"] <= pool, (position["round"], mover, position["mp"])
