"""Mare Nostrum: Empires's terminal board and SVG in French: every word they show comes from the
game's catalogue. Seeded positions at several phases (secret offers, trade, buy with a payment under way, a land
battle, the end of the game), drawn for a seat and for a spectator, in French hold none of the
distinctive words of the same boards in English, and no unfilled pattern; a few French lines are
checked exactly. ``ziggurat play --lang fr`` through a pipe shows a French board, French action
groups and French help; ``ziggurat render --lang fr`` writes a French SVG. (The English boards
are unchanged: test_nostrum_render.py and the CLI tests compare them.)"""

from __future__ import annotations

import json
import random
import re
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

import ziggurat
from ziggurat.cli.main import app
from ziggurat.engine.messages import domains, noun, render
from ziggurat.games.mare_nostrum import MareNostrumGame
from ziggurat.games.mare_nostrum import describe as DS
from ziggurat.games.mare_nostrum import render_svg as RS
from ziggurat.games.mare_nostrum import render_text as RT

WORD = re.compile(r"[A-Za-zÀ-ÿ]{3,}")
# words both languages write alike: the game's name, Latin names of legendary cities and their
# map codes, codes and words French shares with English, the bot kind the CLI labels a seat with
SAME = {
    "Empires", "Nostrum", "Provinces", "province", "empire", "culture", "conversion", "conv", "face",
    "influence", "orange", "papyrus", "temple", "total", "random", "CAP", "Gla", "Mar", "Pap",
    "Ierusalem", "Syracusae", "Troia", "Ier", "Syr", "Tro",
}  # fmt: skip


def _phase(state: Any) -> str | None:
    """Which of the phases the tests draw ``state`` shows, if any."""
    d = state.d
    if d["stage"] == "over":
        return "over"
    if d.get("battle") and d["battle"].get("att_faces"):
        return "battle"
    if d.get("buy") and d["buy"].get("paying") and d["buy"]["paying"]["paid"]:
        return "paying"
    if d["stage"] == "trade_draft":
        return "trade"
    if d["stage"] == "trade_offer":
        return "offers"
    return None


@cache
def _positions(n: int, seed: int) -> dict[str, Any]:
    """The first state of a seeded random game in each phase the tests draw."""
    state = MareNostrumGame(n, {}).new_initial_state()
    rng = random.Random(seed)
    found: dict[str, Any] = {}
    for _ in range(4000):
        phase = _phase(state)
        if phase is not None and phase not in found:
            found[phase] = state.clone()
        if state.is_terminal():
            break
        if state.current_player() < 0:
            outs = state.chance_outcomes()
            action = rng.choices([a for a, _ in outs], [w for _, w in outs])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        state.apply(action)
    return found


def _board(view: dict[str, Any], lang: str) -> str:
    con = Console(width=100, record=True, color_system=None, file=open("/dev/null", "w"))  # noqa: SIM115
    con.print(RT.render_board(view, ["random"] * view["n"], 100, palette=RT.BASIC, lang=lang))
    return con.export_text()


def _svg(view: dict[str, Any], lang: str) -> str:
    """The texts of the SVG of ``view`` in ``lang``."""
    return _svg_texts(RS.render_svg(view, ["random"] * view["n"], lang=lang))


def _svg_texts(svg: str) -> str:
    """Every text of an SVG a reader sees: labels, panels, the legend and the tooltips."""
    return "\n".join(re.findall(r">([^<>]+)<", svg))


def _without_notation(text: str) -> str:
    """A payment names its purchase in notation, the words a player types (« buy tile perseus »)."""
    return re.sub(r"«[^»]*»", "", text)


def _same_names() -> set[str]:
    """Words of the names French writes as English does: provinces, seas, tiles, empires."""
    names = set(SAME)
    for domain in ("mn.area", "mn.tile", "mn.empire"):
        for value in domains()[domain]:
            names |= set(WORD.findall(render(noun(domain, value), "fr")))
    return names


def _views(positions: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for phase, state in positions.items():
        out.append((f"{phase}/spectator", state.view(None)))
        out.append((f"{phase}/seat 0", state.view(0)))
    return out


def test_boards_in_french_hold_no_english_word_of_the_english_boards() -> None:
    same = _same_names()
    checked: set[str] = set()
    for n, seed in ((3, 1), (5, 3)):
        positions = _positions(n, seed)
        assert set(positions) == {"offers", "trade", "paying", "battle", "over"}
        for where, view in _views(positions):
            for draw in (_board, _svg):
                english, french = draw(view, "en"), draw(view, "fr")
                assert "{" not in french and "}" not in french, where
                distinctive = set(WORD.findall(english)) - same
                left = distinctive & set(WORD.findall(_without_notation(french)))
                assert not left, f"{where}: English words in the French board: {sorted(left)}"
                checked |= distinctive
    # the check had English to find: the boards' own words, in every phase drawn
    assert {
        "round",
        "Titles",
        "Display",
        "legendary",
        "Battle",
        "attacks",
        "Paying",
        "Game",
        "hidden",
    } <= checked
    assert {"screen", "spectator", "victory", "capitals", "legions", "triremes", "built", "MKT"} <= checked


def test_the_terminal_board_in_french_reads_as_french() -> None:
    positions = _positions(3, 1)
    trade = _board(positions["trade"].view(0), "fr")
    assert "Mare Nostrum : Empires  tour 1  commerce : prise des jetons offerts" in trade
    assert "joueur ┃ empire        ┃ jetons ┃ Co/Cu/Mi ┃ victoire tuiles/cités ┃ tuiles" in trade
    assert "random │ Grèce [Cu]" in trade  # a player by role and empire, no seat number
    assert "Titres : commerce : Carthage, culture : la Grèce, militaire : Rome" in trade
    assert "province   ┃ M        ┃ emplacements (* bâti)       ┃ légions    ┃ F" in trade
    assert "Latium     │ Rome     │ *métal *vin *MCH *CAP .TPL  │ Rome 2" in trade
    assert "Mare Tyrrhenum T Rome 1" in trade and "\n  Grèce : offre " in trade
    assert "Commerce de valeur " in trade and "Votre paravent : " in trade
    assert "Emplacements : * bâti, . vide, [Rome] occupé par cet empire." in trade
    battle = _board(positions["battle"].view(None), "fr")
    assert re.search(r"Bataille (terrestre|navale) (en|sur) [\w ]+ : .+ attaque .+\n  .+ a obtenu \d", battle)
    paying = _board(positions["paying"].view(None), "fr")
    assert re.search(r"Paiement de « .+ » : \d/\d \(.+\)", paying)
    over = _board(positions["over"].view(None), "fr")
    assert "partie terminée  Fin de la partie" in over


def test_the_svg_in_french_reads_as_french() -> None:
    positions = _positions(3, 1)
    svg = RS.render_svg(positions["paying"].view(0), ["random"] * 3, lang="fr")
    assert "<title>Mare Nostrum : Empires, tour " in svg and ", vue de la place 0</title>" in svg
    assert "· achats</text>" in svg and "de décider</text>" in svg
    assert ">Seule la place 0 voit : son paravent<" in svg and ">hors jeu<" in svg
    assert re.search(r">jetons \d+ · commerce \d+ · culture \d+ · militaire \d+<", svg)
    assert "Emplacement bâti : à la couleur de qui le contrôle" in svg
    assert re.search(r"<title>marqueur d&#x27;influence : [^<]+</title>", svg)
    assert re.search(r"<title>caravane de [^<]+ \((bâti|libre)\)</title>", svg)
    over = RS.render_svg(positions["over"].view(None), ["random"] * 3, lang="fr")
    assert "vue du spectateur</title>" in over and "· partie terminée</text>" in over


def test_action_groups_and_help_read_in_both_languages() -> None:
    """The group titles keep their English text (and group_by_kind's ``kind: what``); in French
    the kind stays the notation word a player types."""
    groups = DS.action_groups(["offer grain", "offer wine", "end"])
    assert groups == [("offer: your secret offer, one token at a time (D6, D7)", ["offer grain", "offer wine"]),
                      ("end: end your turn", ["end"])]  # fmt: skip
    assert [render(title, "fr") for title, _ in groups] == [
        "offer : votre offre secrète, un jeton à la fois (D6, D7)",
        "end : finir votre tour",
    ]
    assert str(DS.NOTATION_HELP).startswith("Notation (docs/mare-nostrum.md): lower-case words")
    french = render(DS.NOTATION_HELP, "fr")
    assert french.startswith("Notation (docs/mare-nostrum.md) : des mots anglais en minuscules")
    assert "Achats : build market gallia" in french


def test_play_through_a_pipe_in_french_shows_a_french_board_groups_and_help() -> None:
    args = ["play", "mare-nostrum", "--players", "human,random,random", "--seed", "3", "--lang", "fr"]
    result = CliRunner().invoke(app, args, input="help\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Mare Nostrum : Empires  tour 1  commerce : offres secrètes  à Rome de décider" in out
    assert "Votre paravent : céréales x1, métal x3, huile x1, mouton x1, impôt x1, vin x2" in out
    assert "offer : votre offre secrète, un jeton à la fois (D6, D7)" in out
    assert "Commerce : token a 4" in out and "Achats : build market gallia" in out
    for english in ("to decide: Rome", "Your screen", "your secret offer", "Slots: * built", "Trade: token"):
        assert english not in out


def test_render_in_french_writes_a_french_svg(tmp_path: Path) -> None:
    state = ziggurat.load("mare-nostrum", players=3).new_initial_state()
    rng = random.Random(5)
    for _ in range(120):
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    record = tmp_path / "game.json"
    record.write_text(json.dumps(ziggurat.record(state, seed=5)), encoding="utf-8")
    out = tmp_path / "board.svg"
    result = CliRunner().invoke(
        app, ["render", str(record), "--seat", "1", "--lang", "fr", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    svg = out.read_text(encoding="utf-8")
    assert "vue de la place 1</title>" in svg and ">Présentoir<" in svg and ">Seule la place 1 voit" in svg
    english = CliRunner().invoke(app, ["render", str(record), "--seat", "1", "--out", str(out)])
    assert english.exit_code == 0, english.output
    assert "seat 1&#x27;s view</title>" in out.read_text(encoding="utf-8")
