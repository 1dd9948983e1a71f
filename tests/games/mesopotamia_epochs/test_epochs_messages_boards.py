"""Mesopotamia: Epochs drawn in French: the terminal board, the SVG, the action-group titles and
the notation help come from the game's catalogues (``epochs.board.*``, ``epochs.svg.*``,
``epochs.actionKind.*``, ``epochs.notationHelp``), names from its vocabularies (areas, Peoples,
players, phases, regions). On seeded positions of every kind of decision (the deal, a drawn card,
a placement, an attack, a displacement, a sea start, the end), the French drawing holds none of
the English drawing's distinctive words and no unfilled pattern; ``ziggurat play`` and
``ziggurat render`` with ``--lang fr`` show it. The English drawing is unchanged (the render
tests compare it)."""

from __future__ import annotations

import io
import json
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

import ziggurat
from ziggurat.cli.main import app
from ziggurat.engine.messages import catalogue, domains, render
from ziggurat.games.mesopotamia_epochs import describe
from ziggurat.games.mesopotamia_epochs.render_svg import render_svg
from ziggurat.games.mesopotamia_epochs.render_text import render_board

GAME = "mesopotamia-epochs"
SVG = "{http://www.w3.org/2000/svg}"
WIDE = 200  # columns of a terminal no sentence of the board wraps in
KINDS = ("deal", "draw", "keep", "strategy", "combat", "displace", "landing", "over")
WORD = re.compile(r"[A-Za-z][A-Za-z']+")
# Words of the English drawing that are French words too: "bonus", "double", "secrets", "face"
# and "points" ("région bonus", "valeur double", "Vos secrets", "face cachée", "Points de
# victoire"), and "des" (the English mark of a desert, a French article).
SAME_WORDS = {"bonus", "double", "secrets", "face", "points", "des"}


def invoke(args: list[str], stdin: str | None = None) -> Any:
    """Run ``ziggurat ARGS`` in-process, as the CLI tests do (tests/cli/cli_helpers.py)."""
    return CliRunner().invoke(app, args, input=stdin)


def _kind(state: Any) -> str:
    pos = state.to_position()
    if state.is_terminal():
        return "over"
    return str(pos["pending"][0]) if pos["pending"] else str(pos["phase"])


@pytest.fixture(scope="module")
def positions() -> dict[str, Any]:
    """The first position of each kind of decision in seeded random games (3 to 5 players)."""
    found: dict[str, Any] = {}
    for players, seed in ((3, 2), (5, 4), (4, 3), (3, 9)):
        state = ziggurat.load(GAME, players=players).new_initial_state()
        rng = random.Random(seed)
        while True:
            found.setdefault(_kind(state), state.clone())
            if state.is_terminal() or set(KINDS) <= set(found):
                break
            if state.current_player() == ziggurat.CHANCE:
                state.apply(ziggurat.sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
        if set(KINDS) <= set(found):
            break
    assert set(KINDS) <= set(found), sorted(set(KINDS) - set(found))
    return found


def _board(view: dict[str, Any], lang: str, width: int = 100) -> str:
    """The board as a terminal ``width`` columns wide shows it."""
    con = Console(file=io.StringIO(), width=width, record=True)
    con.print(render_board(view, None, width, lang=lang))
    return con.export_text()


def _svg_texts(svg: str) -> str:
    """Every text the SVG shows (its title and text elements), one a line."""
    root = ET.fromstring(svg)
    return "\n".join("".join(el.itertext()) for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title"))


def _names_alike() -> set[str]:
    """Words the two languages' names of a thing share (Ur, Hittites, Sumer in "Sumer et Akkad")."""
    en, fr = catalogue("en"), catalogue("fr")
    out = set(SAME_WORDS)
    for domain, values in domains().items():
        if domain.startswith("epochs."):
            for value in values:
                key = f"{domain}.{value}"
                out.update(set(WORD.findall(en[key])) & set(WORD.findall(fr[key])))
    return out


def _english_words(texts: list[str]) -> set[str]:
    alike = _names_alike()
    return {w for text in texts for w in WORD.findall(text)} - alike


def _views(state: Any) -> list[dict[str, Any]]:
    """The spectator's view and each seat's (each sees its own secrets)."""
    return [state.view(None)] + [state.view(seat) for seat in range(len(state.view(None)["players"]))]


def _leaks(english: set[str], text: str) -> list[str]:
    """The English words found whole in ``text``: a word cut short by a narrow column ("tri…")
    is not one, nor a People's three-letter mark on the map (SUM, the Sumerians, "Sumériens")."""
    words = [w for w in english if not (w.isupper() and len(w) <= 3)]
    return sorted(w for w in words if re.search(rf"(?<![\w']){re.escape(w)}(?![\w'…])", text))


def test_french_terminal_board_has_no_english_words(positions: dict[str, Any]) -> None:
    for kind, state in positions.items():
        for view in _views(state):
            english = _english_words([_board(view, "en"), _board(view, "en", 70)])
            for width in (100, 70):
                french = _board(view, "fr", width)
                assert not _leaks(english, french), (kind, _leaks(english, french), french)
                assert "{" not in french and "}" not in french, (kind, french)


def test_french_svg_has_no_english_words(positions: dict[str, Any]) -> None:
    for kind, state in positions.items():
        for view in _views(state)[:2]:
            english = _english_words([_svg_texts(render_svg(view, None))])
            svg = render_svg(view, None, lang="fr")
            french = _svg_texts(svg)
            assert not _leaks(english, french), (kind, _leaks(english, french), french)
            assert "{" not in french, (kind, french)
            assert ET.fromstring(svg).tag == f"{SVG}svg"


def test_french_board_exact_words(positions: dict[str, Any]) -> None:
    """The status, the pending decision, the regions, the legend, the table and the commons
    (drawn wide, so that no sentence wraps)."""
    deal = _board(positions["deal"].view(0), "fr", WIDE)
    assert deal.startswith("Époque 1 sur 5 · Attribution")
    assert "Distribution des cartes de l'Époque 1 : la suivante va à Broche" in deal
    assert "Distribution de l'Époque 1 · pioche " in deal and "Écartées aucune" in deal
    assert "Vos secrets aucun" in deal
    for region in ("Sumer et Akkad", "Assyrie et Zagros", "Syrie et Levant", "Égypte", "Anatolie et Thrace",
                   "Égée et Chypre"):  # fmt: skip
        assert region in deal
    assert "B T M S U : le symbole du joueur" in deal and "Babylone" in deal and "La Canée" in deal
    place = _board(positions["strategy"].view(None), "fr", WIDE)
    assert " · Stratégie · tour n° " in place and " · réserve " in place
    assert ", ou s'arrête" in place and " de décider" in place
    for head in ("n°", "Peuple", "joueur", "capacités", "départ → bonus", "régions/tribus", "PV"):
        assert head in place
    combat = _board(positions["combat"].view(None), "fr", WIDE)
    assert "Attaque en cours : les " in combat and " ; l'attaquant lance 2 dés, le défenseur " in combat
    assert " attaquent " in combat and " contre " in combat
    displace = _board(positions["displace"].view(None), "fr", WIDE)
    assert " entrent par " in displace and " en fait sortir une tribu des " in displace
    landing = _board(positions["landing"].view(None), "fr", WIDE)
    assert " partent de la mer : " in landing and " choisit une côte" in landing
    keep = positions["keep"]
    drawer = keep.current_player()
    mine = _board(keep.view(drawer), "fr", WIDE)
    assert " a pioché une carte (les " in mine and "vous avez pioché les " in mine and "(vous)" in mine
    over = _board(positions["over"].view(None), "fr", WIDE)
    assert "Époque 5 sur 5 · Partie terminée : " in over and " PV" in over


def test_french_svg_exact_words(positions: dict[str, Any]) -> None:
    combat = _svg_texts(render_svg(positions["combat"].view(0), ["humain", "aléatoire"], lang="fr"))
    assert "Mésopotamie : Époques" in combat and "Points de victoire" in combat
    assert "Régions aux points d'ancrage des données de la carte · le nord en haut" in combat
    assert (
        "Mésopotamie : Époques, Époque 2, vue du joueur Broche" in combat
    )  # no "vue de Urne": no elision needed
    assert "Broche (vous)" in combat and "Cartes" in combat and "Visible par Broche seul" in combat
    assert "Grand Vert" in combat and "Époques :" in combat and "frontière difficile (défenseur)" in combat
    over = _svg_texts(render_svg(positions["over"].view(None), None, lang="fr"))
    assert "· Partie terminée" in over and "vue du spectateur" in over
    assert "Partie terminée : " not in over  # the result is shown without its prefix, under the title


def test_action_group_titles_and_notation_help_in_french() -> None:
    """The titles and the help are messages: English text as before, French from the catalogue."""
    groups = describe.action_groups(["keep", "pass head", "pass urn", "place ur", "stop", "frobnicate"])
    titles = [title for title, _ in groups]
    assert titles[0] == "keep: keep the card you drew (D1, E3.4)"
    assert render(titles[0], "fr") == "keep : garder la carte piochée (D1, E3.4)"
    assert (
        render(titles[1], "fr")
        == "pass : passer la carte piochée face cachée à un joueur sans carte (D1, E3.4)"
    )
    assert render(titles[3], "fr") == "stop : arrêter de placer ; le reste de la réserve est défaussé (E8.6)"
    assert titles[4] == "frobnicate: frobnicate"  # a kind no catalogue names keeps group_by_kind's title
    assert [acts for _, acts in groups][1] == ["pass head", "pass urn"]
    assert describe.NOTATION_HELP.startswith("Notation (docs/mesopotamia-epochs.md): areas and Peoples")
    help_fr = render(describe.NOTATION_HELP, "fr")
    assert "régions et peuples par id" in help_fr and "les dés sont lancés pour vous." in help_fr
    assert "Placing" not in help_fr and "players" not in help_fr


# --- the CLI ----------------------------------------------------------------------------------


def test_play_in_french_through_a_pipe() -> None:
    """``ziggurat play --lang fr``: the board, the group titles and the help are French."""
    args = ["play", GAME, "--players", "human,random,random", "--seed", "3", "--lang", "fr"]
    result = invoke(args, stdin="help\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Époque 1 sur 5 · Stratégie · tour n° 2 : les Élamites (Broche)" in out
    assert "Broche place la prochaine tribu des Élamites, ou s'arrête" in out
    assert "Sumer et Akkad" in out and "Vos secrets aucun" in out and "Broche (vous)" in out
    assert "place : placer la prochaine tribu ; dans une région tenue par un autre peuple" in out
    assert "stop : arrêter de placer ; le reste de la réserve est défaussé (E8.6)" in out
    assert "Placer dans une région tenue par un autre peuple est une attaque ;" in out
    for english in ("Epoch 1 of 5", "Sumer and Akkad", "Your secrets", "place the next tribe",
                    "stop placing", "Placing into an area"):  # fmt: skip
        assert english not in out, english


def test_render_in_french_writes_a_french_svg(positions: dict[str, Any], tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(positions["combat"].to_position()), encoding="utf-8")
    out = tmp_path / "fr.svg"
    result = invoke(["render", str(pos), "--seat", "0", "--lang", "fr", "--out", str(out)])
    assert result.exit_code == 0, result.output
    texts = _svg_texts(out.read_text(encoding="utf-8"))
    assert "Points de victoire" in texts and "Attaque en cours : les " in texts
    assert "Victory points" not in texts and "Attack in progress" not in texts
    english = tmp_path / "en.svg"
    assert invoke(["render", str(pos), "--seat", "0", "--out", str(english)]).exit_code == 0
    assert "Victory points" in _svg_texts(english.read_text(encoding="utf-8"))
