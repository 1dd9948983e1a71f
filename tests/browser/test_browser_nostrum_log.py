"""Mare Nostrum: Empires log in French: every English sentence ``describe.py`` wrote in seeded
bots-only games (3, 4 and 5 players, as a seat and as a spectator read them), and what it says of
rarer events, goes through the board module's ``translateSentence`` in the page; each must come
back French (changed, no English word left, no placeholder or key), and the games must have told
of battles, trade, buying and title claims. In English the seat labels read as on the rest of the
page ("Rome", "Seat 1")."""

from __future__ import annotations

import random
import re
from typing import Any

import ziggurat
from ziggurat.games.mare_nostrum import describe as DS

# Words of describe.py's sentences that a French sentence must not keep (names of places, tiles
# and empires are left out: they are the same or are translated by name; so are words that are
# French too: influence, province, face, total, temple, papyrus).
ENGLISH = {
    "the", "and", "takes", "take", "from", "buys", "builds", "pays", "offers", "offer", "attacks",
    "marches", "sails", "rows", "with", "seat", "caravan", "market", "city", "capital", "legion",
    "legions", "trireme", "fortress", "dice", "round", "game", "over", "token", "tokens", "tax", "wine",
    "grain", "sheep", "oil", "metal", "timber", "marble", "gold", "gems", "perfume", "pottery",
    "gladiators", "legendary", "good", "ends", "turn", "keeps", "discards", "rest", "nothing", "passes",
    "converts", "conquered", "loses", "free", "pillages", "occupies", "uses", "draws", "copies", "names",
    "lets", "goes", "next", "first", "title", "wins", "tie", "revealed", "begins", "its", "onto", "is",
    "done", "step", "nobody", "moves", "reduced", "cost", "marker", "extra", "up", "display", "gives",
    "adds", "secret", "chance", "player", "plays", "value", "does", "not", "buy", "this", "start",
    "taking", "rolls", "result", "hits", "taken", "no",
}  # fmt: skip
REQUIRED = {"battle": {"fight", "seabattle"}, "dice": {"roll"}, "trade": {"offer", "take"},
            "buy": {"buy", "build"}, "pay": {"pay"}, "claim": {"title"}}  # fmt: skip


def _sentences() -> dict[str, str]:
    """English sentence -> the kind of event it tells (its action's verb; ``step`` for the
    sentences about the game: offers revealed, a new round, the end)."""
    out: dict[str, str] = {}
    for n, seed in [(3, 0), (3, 9), (4, 7), (5, 1), (5, 2)]:  # seeds with rarer kinds: Circe, lose, keep...
        game = ziggurat.load("mare-nostrum", players=n)
        state = game.new_initial_state()
        rng = random.Random(seed)
        viewers: list[int | None] = [seed % n, None]
        before = {v: state.view(v) for v in viewers}
        while not state.is_terminal():
            mark = DS.log_mark(state)
            if state.current_player() == ziggurat.CHANCE:
                state.apply(ziggurat.sample_chance(state, rng))
            else:
                state.apply(rng.choice(list(state.legal_actions())))
            events = DS.events_since(state, mark)
            for v in viewers:
                after = state.view(v)
                told = DS.describe_step(events, before[v], after)
                for i, (sentence, _) in enumerate(told):
                    out.setdefault(sentence, events[i][1].split()[0] if i < len(events) else "step")
                before[v] = after
    return out


# Events random play seldom or never has (a title by lot, a tie won, pass...), told by describe.py
# itself so that its wording is what is checked: (actor, text, concerned seat).
CRAFTED = [
    (0, "copy none", 0), (0, "copy perseus", 0), (0, "extra tax", 0), (0, "extra draw", 0), (-1, "draw wine", 0),
    (-1, "draw ?", 1), (0, "colossus wine", 0), (1, "colossus ?", 1), (0, "first yes", 0), (0, "first no", 0),
    (0, "next 0", 0), (0, "next 2", 0), (0, "keep none", 0), (0, "keep wine,leg:oil,tax", 0), (1, "keep wine", 1),
    (1, "keep none", 1), (0, "zeus none", 0), (0, "zeus 1", 0), (0, "convert", 0), (0, "convert gallia", 0),
    (0, "lose free", 0), (0, "lose marker", 0), (0, "lose market", 0), (0, "pillage legendary_city:troia tax,draw", 0),
    (0, "pillage capital", 0), (0, "occupy market+temple", 0), (0, "pass", 0), (0, "circe gallia market", 0),
    (-1, "title trade 1", -1), (0, "title culture 1", 0), (0, "winner 2", 0), (-1, "roll 3,4", -1), (-1, "roll 5", 2),
    (-1, "roll 1,2,6", 1), (0, "buy tile castor_pollux", 0), (0, "buy pyramids", 0), (0, "buy legion gallia cheap", 0),
    (0, "build market gallia cheap", 0), (0, "build legendary_city:troia asia", 0), (0, "free marker gallia", 0),
    (0, "free legion gallia", 0), (0, "buy trireme mare_ionium", 0), (0, "buy fortress gallia", 0),
    (0, "sail gallia latium @marker", 0), (0, "march gallia latium @caravan:grain", 0), (0, "token a 5", 0),
    (0, "offer size 1", 0), (0, "offer size 3", 0), (0, "starter 2", 0), (0, "give tax", 0), (0, "end", 0),
    (0, "seabattle mare_ionium 1", 0), (0, "fight gallia 2", 0), (0, "row mare_ionium mare_africum", 0),
]  # fmt: skip


def _crafted() -> dict[str, str]:
    """The CRAFTED events told before the empires are dealt ("seat 1") and after ("Egypt")."""
    state = ziggurat.load("mare-nostrum", players=5).new_initial_state()
    views = [state.view(0)]
    rng = random.Random(0)
    while not all(state.view(0).get("empires") or [None]):
        state.apply(
            ziggurat.sample_chance(state, rng)
            if state.current_player() == ziggurat.CHANCE
            else state.legal_actions()[0]
        )
    views.append(state.view(0))
    out: dict[str, str] = {}
    for view in views:
        for actor, text, concerned in CRAFTED:
            out[DS.describe_event((actor, text, False, concerned), view, view)] = text.split()[0]
        out[DS.result_sentence({**view, "winner": None})] = "step"
        out[DS.result_sentence({**view, "winner": 3})] = "step"
    return out


def test_every_log_sentence_reads_in_french(page: Any, server: Any) -> None:
    sentences = _sentences()
    kinds = set(sentences.values())
    for what, verbs in REQUIRED.items():
        assert kinds & verbs, f"no {what} sentence in the games: {sorted(kinds)}"
    sentences = _crafted() | sentences
    kinds = set(sentences.values())
    page.goto(server.base + "/table/harness")
    page.wait_for_selector("#fatal:not([hidden])")
    got: dict[str, list[str]] = page.evaluate(
        """async (sentences) => {
            const board = await import('/boards/mare-nostrum.js');
            const i18n = await import('/i18n.js');
            const out = {};
            for (const s of sentences) out[s] = [board.translateSentence(i18n.t, 'en', s)];
            i18n.setLang('fr');
            for (const s of sentences) out[s].push(board.translateSentence(i18n.t, 'fr', s));
            return out;
        }""",
        sorted(sentences),
    )
    bad = []
    for english, (en, fr) in got.items():
        left = {w for w in re.findall(r"[^\W\d_]+", fr.lower()) if w in ENGLISH}
        if fr in (english, en) or left or re.search(r"\{\w+\}|mn\.", fr) or "(seat " in fr:
            bad.append((sentences[english], english, fr, sorted(left)))
        if "(seat " in en or re.search(r"\bseat 0\b", en, re.IGNORECASE):
            bad.append((sentences[english], english, en, ["English seat label"]))
    assert bad == [], "\n".join(map(str, bad[:40]))
    translated_kinds = {sentences[s] for s in got}
    assert translated_kinds == kinds and len(got) > 300
