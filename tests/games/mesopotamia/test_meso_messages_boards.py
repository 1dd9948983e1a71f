"""The terminal board, the SVG, the action-group titles and the notation help speak the reader's
language: every word comes from the game's catalogue, so ``--lang fr`` shows a French board
(rules spec §6 decides what a view shows; these tests only check how it is worded).

Positions come from a seeded game of heuristic bots, taken at the first moment of each phase and
pending decision and at the end; each is drawn for every seat and for a spectator.
"""

from __future__ import annotations

import copy
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
from ziggurat.bots import make_bot
from ziggurat.cli.main import app
from ziggurat.engine.messages import render
from ziggurat.games.mesopotamia.describe import ACTION_KINDS, NOTATION_HELP, action_groups
from ziggurat.games.mesopotamia.render_svg import render_svg
from ziggurat.games.mesopotamia.render_text import commons_line, render_board, status_line

SVG = "{http://www.w3.org/2000/svg}"

SAME_IN_BOTH = frozenset(
    {"mana", "action", "phase", "temple", "tem", "vol", "pla", "for", "pile", "piles", "place", "secrets",
     "iii", "destination", "endurance", "expulsion", "notation", "docs", "mesopotamia", "end"}
)  # fmt: skip
"""Words (lower case) the English board shows that French writes the same, or notation (``end``)."""


def _moments(players: int, seed: int) -> list[Any]:
    """States of a seeded heuristic game: the first of each (phase, pending, action) and the last."""
    game = ziggurat.load("mesopotamia", players=players)
    bots = [make_bot("heuristic", game, seat) for seat in range(players)]
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: set[tuple[Any, ...]] = set()
    out = []
    while True:
        view = state.view(None)
        moment = (view["phase"], (view.get("pending") or [None])[0], bool(view.get("action")))
        if moment not in seen or state.is_terminal():
            seen.add(moment)
            out.append(state.clone())
        if state.is_terminal():
            return out
        who = state.current_player()
        if who == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            bot = bots[who]
            state.apply(bot.choose(state.view(who) if bot.needs_view else None, state.legal_actions(), rng))


@pytest.fixture(scope="module")
def moments() -> list[Any]:
    return _moments(3, 5) + _moments(4, 2)


def _views(states: list[Any]) -> list[dict[str, Any]]:
    return [s.view(seat) for s in states for seat in (None, *range(s.game.num_players))]


def _board(view: dict[str, Any], lang: str, width: int = 100) -> str:
    con = Console(width=width, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
    con.print(render_board(view, None, width, lang=lang))
    return con.export_text()


def invoke(args: list[str], stdin: str | None = None) -> Any:
    """Run ``ziggurat ARGS`` in-process, as the CLI tests do (stdin through a pipe)."""
    return CliRunner().invoke(app, args, input=stdin)


def _svg_words(svg: str) -> str:
    """What a reader of the picture sees: its texts and its title (the tooltip), not attributes."""
    root = ET.fromstring(svg)
    texts = [el.text or "" for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title")]
    return "\n".join(texts)


def _words(text: str) -> set[str]:
    """Words of three letters or more, but for the tokens of tribes (``b3ooo``: notation)."""
    text = re.sub(r"\b[byrg]\d+[wso\d]*\b", " ", text)
    return {w.lower() for w in re.findall(r"[^\W\d_]{3,}", text)}


def _english_only(english: str, french: str) -> set[str]:
    """Words of the English rendering, but for those French shares, that the French one shows."""
    distinctive = _words(english) - SAME_IN_BOTH
    return distinctive & _words(french)


def test_the_terminal_board_in_french_has_no_english_word(moments: list[Any]) -> None:
    english_seen: set[str] = set()
    for view in _views(moments):
        english, french = _board(view, "en"), _board(view, "fr")
        english_seen |= _words(english) - SAME_IN_BOTH
        assert not _english_only(english, french), (view["phase"], view.get("pending"))
        assert "{" not in french and "}" not in french
        assert max(len(line) for line in french.splitlines()) <= 100
    # the check above can fail: the English board has words of its own
    assert {"round", "turn", "supply", "deck", "discard", "player", "cards", "left"} <= english_seen
    assert {"your", "hand", "wins", "over", "discoveries"} <= english_seen


def test_the_svg_in_french_has_no_english_word(moments: list[Any]) -> None:
    english_seen: set[str] = set()
    for view in _views(moments):
        english, french = _svg_words(render_svg(view)), _svg_words(render_svg(view, lang="fr"))
        english_seen |= _words(english) - SAME_IN_BOTH
        assert not _english_only(english, french), (view["phase"], view.get("pending"))
        assert "{" not in french and "}" not in french
    assert {"round", "turn", "delivered", "supply", "huts", "holy", "places", "hand", "view"} <= english_seen
    assert {"spectator", "shown", "only", "sees", "won", "game", "over"} <= english_seen


def test_exact_french_strings_on_the_first_turn() -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    state.apply("first b")
    view = state.view(0)
    assert (
        str(status_line(view, lang="fr"))
        == "Manche 1 · Bleu joue · phase I (mouvement) · 2 PM restants · découvertes : 0/3"
    )
    board = _board(view, "fr")
    assert "PLA plaine  FOR forêt  CAR carrière  VOL volcan  TEM temple · ⌂b hutte" in board
    assert "Vos offrandes secrètes en réserve : 2, 4, 6, 7 · main : vide" in board
    assert "Bleu (vous)" in board and "Jaune" in board
    assert "Réserve bois 18, pierre 18, pierres offertes 0" in board
    assert "(restantes : 3 volcans, 5 forêts, 6 carrières, 14 plaines)" in board
    svg = render_svg(view, lang="fr")
    root = ET.fromstring(svg)
    assert root.findtext(f"{SVG}title") == "Mésopotamie, manche 1, vue de Bleu"
    words = _svg_words(svg)
    for text in ("Mésopotamie", "Manche 1 · Bleu joue", "Phase I · mouvement", "Bleu (vous) · à jouer",
                 "Livrées", "Piles de tuiles", "Cartes : pioche 16 · défausse 0", "Vu par Bleu seul",
                 "Offrandes en réserve :", "Main : aucune", "TEMPLE"):  # fmt: skip
        assert text in words, text
    spectator = render_svg(state.view(None), lang="fr")
    assert ET.fromstring(spectator).findtext(f"{SVG}title") == "Mésopotamie, manche 1, vue du spectateur"
    assert "Vue de spectateur : aucun secret montré" in _svg_words(spectator)


def test_french_counts_agree_in_number() -> None:
    """One forest, two forests; one MP left, two MP left (plural rules of the catalogue)."""
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    state.apply("first b")
    view = copy.deepcopy(state.view(0))
    view["remaining_tiles"] = {"volcano": 0, "forest": 1, "quarry": 2, "plains": 0}
    view["discard"] = {"holy_stone": 2}
    line = str(commons_line(view, lang="fr"))
    assert "(restantes : 1 forêt, 2 carrières)" in line
    assert "défausse Pierre sacrée×2" in line
    assert "(left: 1 forest, 2 quarry)" in str(commons_line(view))  # English as it always was
    view["mp"] = 1
    assert " · 1 PM restant · " in str(status_line(view, lang="fr"))
    view["remaining_tiles"] = {"volcano": 0, "forest": 0, "quarry": 0, "plains": 0}
    assert "(restantes : aucune)" in str(commons_line(view, lang="fr"))


def test_the_game_over_board_names_the_winner_in_french(moments: list[Any]) -> None:
    last = moments[-1]
    assert last.is_terminal()
    view = last.view(None)
    colour = {"blue": "Bleu", "yellow": "Jaune", "red": "Rouge", "green": "Vert"}[view["winner"]]
    assert f"partie terminée · {colour} gagne !" in _board(view, "fr")
    words = _svg_words(render_svg(view, lang="fr"))
    assert "Partie terminée" in words and f"{colour} a gagné" in words and " · GAGNE" in words


def test_action_group_titles_and_notation_help_are_messages() -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    state.apply("first b")
    groups = action_groups(state.legal_actions())
    assert [str(title) for title, _ in groups] == [
        "move: step a tribe (1 MP); onto an empty space it explores (M2, M7)",
        "end: end the phase or the turn",
    ]
    assert [render(title, "fr") for title, _ in groups] == [
        "move : déplacer une tribu d'un pas (1 PM) ; sur un espace vide, elle explore (M2, M7)",
        "end : finir la phase ou le tour",
    ]
    assert str(NOTATION_HELP).startswith("Notation (docs/mesopotamia.md): coordinates are q,r")
    assert render(NOTATION_HELP, "fr").startswith("Notation (docs/mesopotamia.md) : les coordonnées sont q,r")
    for kind, what in ACTION_KINDS.items():
        assert "{" not in render(what, "fr") and render(what, "fr") != str(what), kind
    # an unknown kind is named by itself, as the engine's grouping does
    assert [str(t) for t, _ in action_groups(["zap 1"])] == ["zap: zap"]


def test_play_through_a_pipe_in_french() -> None:
    result = invoke(
        ["play", "mesopotamia", "--players", "human,heuristic", "--seed", "3", "--lang", "fr"],
        stdin="help\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Manche 1 · Bleu joue · phase I (mouvement)" in out
    assert "Vos offrandes secrètes en réserve : 2, 4, 6, 7" in out
    assert "Jaune (heuristique)" in out  # the bot's kind in the table of players
    assert "move : déplacer une tribu d'un pas (1 PM)" in out and "end : finir la phase ou le tour" in out
    assert "Une tribu s'écrit <lettre de couleur><charge>@<q,r>" in out
    for english in (
        "Round 1",
        "Your secret",
        "(heuristic)",
        "step a tribe",
        "A tribe is",
        "Tile piles",
        "Supply wood",
    ):
        assert english not in out, english


def test_render_writes_a_french_svg(tmp_path: Path) -> None:
    state = ziggurat.load("mesopotamia", players=2).new_initial_state()
    state.apply("first y")
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(state.to_position()))
    out = tmp_path / "pos.svg"
    result = invoke(["render", str(pos), "--seat", "1", "--out", str(out), "--lang", "fr"])
    assert result.exit_code == 0, result.output
    root = ET.parse(out).getroot()
    assert root.findtext(f"{SVG}title") == "Mésopotamie, manche 1, vue de Jaune"
    words = _svg_words(out.read_text(encoding="utf-8"))
    assert "Jaune (vous) · à jouer" in words and "Vu par Jaune seul" in words
    assert "Tile piles" not in words and "Only Yellow sees" not in words


def test_secret_offerings_huts_and_bot_names_read_well_in_both_languages() -> None:
    """The secrets line reads "Your secret offerings in supply", a hut is named by its colour in
    French (« hutte jaune 2 ») and the bots' kinds are translated (the notation's word in English)."""
    from meso_helpers import Board

    b = Board().clear_tribes().tile(2, 0, "plains").hut("y", 2, 2, 0, offering=4).tribes("y@2,0")
    view = b.state().view(1)
    roles = ["heuristic", "human", "random", "ismcts:0.5s"]
    boards = {}
    for lang in ("en", "fr"):
        con = Console(width=100, record=True, file=open("/dev/null", "w"), color_system=None)  # noqa: SIM115
        con.print(render_board(view, roles, 100, lang=lang))
        boards[lang] = con.export_text()
    assert "Your secret offerings in supply: 2, 6, 7 · o1=4 under hut y2 at 2,0 · hand: empty" in boards["en"]
    assert (
        "Vos offrandes secrètes en réserve : 2, 6, 7 · o1=4 sous la hutte jaune 2 en 2,0 · main : vide"
        in (boards["fr"])
    )
    for en, fr in (("Blue (heuristic)", "Bleu (heuristique)"), ("Red (random)", "Rouge (aléatoire)")):
        assert en in boards["en"] and fr in boards["fr"]
    assert "Yellow (you)" in boards["en"] and "Jaune (vous)" in boards["fr"]
    assert "Green (ismcts:0.5s)" in boards["en"] and "Vert (ismcts:0.5s)" in boards["fr"]


def test_the_short_supply_question_reads_for_wood_and_stone_D15() -> None:
    """The browser asks which tile gets a resource when the supply is short (M7.5, D15): the
    question is grammatical whether the resource is wood or stone, in both languages."""
    i18n = Path(ziggurat.__file__).parent / "server" / "static" / "i18n.js"
    found = re.findall(r'^  "meso\.q\.shares": "(.*)",$', i18n.read_text(encoding="utf-8"), re.M)
    assert len(found) == 2, found  # English, then French
    names = {"en": {"wood": "wood", "stone": "stone"}, "fr": {"wood": "du bois", "stone": "une pierre"}}
    said = {
        lang: [text.replace("{res}", names[lang][res]).replace("{n}", "2") for res in ("wood", "stone")]
        for lang, text in zip(("en", "fr"), found, strict=True)
    }
    assert said["en"] == [
        "Not enough wood for every tile: choose a tile to receive one (2 to give).",
        "Not enough stone for every tile: choose a tile to receive one (2 to give).",
    ]
    assert said["fr"][1] == (
        "Pas assez de ressources pour chaque tuile : choisissez une tuile qui reçoit une pierre (2 à donner)."
    )
