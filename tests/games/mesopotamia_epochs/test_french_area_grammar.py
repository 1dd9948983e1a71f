"""How the sentences of Mesopotamia: Epochs name an area, in French above all: each area's own
preposition and article ("à Ur", "en Élam", "au Sinaï", "dans les Îles"; "l'Élam", "le Sinaï",
"les Îles"), never "sur Élam". The forms are data in the game's catalogues
(``epochs.areaIn.<id>``, ``epochs.areaThe.<id>``), which the log, the refusals, the terminal
and the browser's board all read; the map's labels keep the bare names (``epochs.area.<id>``)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from epochs_helpers import ANN, BEN, Board

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.games.mesopotamia_epochs.data import DEFAULT_MAP
from ziggurat.games.mesopotamia_epochs.describe import describe_step, events_since, log_mark
from ziggurat.games.mesopotamia_epochs.words import area_in_named, area_the_named

ROOT = Path(__file__).resolve().parents[3]
STATIC = ROOT / "src" / "ziggurat" / "server" / "static"
AREAS = DEFAULT_MAP.ids

# the forms chosen for a sample of each kind of area (docs/mesopotamia-epochs.md)
FRENCH = {
    "ur": ("à Ur", "Ur"),  # a city: "à", no article
    "babylon": ("à Babylone", "Babylone"),
    "khania": ("à La Canée", "La Canée"),  # the article belongs to the city's name
    "alishiya": ("à Alashiya", "Alashiya"),
    "elam": ("en Élam", "l'Élam"),  # a land: "en", the article elided
    "media": ("en Médie", "la Médie"),
    "thrace": ("en Thrace", "la Thrace"),
    "canaan": ("en Canaan", "Canaan"),
    "arzawa": ("en Arzawa", "l'Arzawa"),
    "sinai": ("au Sinaï", "le Sinaï"),  # a masculine land: "au", "le"
    "hatti": ("au Hatti", "le Hatti"),
    "caucasus": ("au Caucase", "le Caucase"),
    "islands": ("dans les Îles", "les Îles"),  # a plural
    "great_green": ("dans le Grand Vert", "le Grand Vert"),  # a descriptive name
    "libyan_desert": ("dans le désert libyque", "le désert libyque"),
}


def _fr(key: str) -> str:
    return M.catalogue("fr")[key]


def _same_name(form: str, bare: str) -> bool:
    """``form`` ends with the area's bare name (a descriptive name's first word in lower case:
    "le désert libyque" for the label "Désert libyque")."""
    return form == bare or form.endswith(bare) or form.endswith(bare[:1].lower() + bare[1:])


# --- the data ---------------------------------------------------------------------------------


def test_every_area_has_its_three_forms_in_every_language() -> None:
    for lang in M.LANGS:
        for aid in AREAS:
            for form in ("area", "areaIn", "areaThe"):
                text = M.catalogue(lang).get(f"epochs.{form}.{aid}")
                assert text and "{" not in text, (lang, form, aid)
    assert len(AREAS) == 39


@pytest.mark.parametrize("aid", AREAS)
def test_each_french_locative_goes_with_its_article(aid: str) -> None:
    """French: "à X" goes with X, "en X" with X or its article ("l'Élam", "la Médie"), "au X" with
    "le X", "dans le X" with "le X", "dans les X" with "les X"; both end with the map's name."""
    bare, where, the = _fr(f"epochs.area.{aid}"), _fr(f"epochs.areaIn.{aid}"), _fr(f"epochs.areaThe.{aid}")
    prep, _, rest = where.partition(" ")
    if where.startswith("dans "):
        assert the == where[len("dans ") :] and the.startswith(("le ", "la ", "les ")), (where, the)
    elif prep == "à":
        assert the == rest, (where, the)
    elif prep == "en":
        assert the in (rest, f"la {rest}", f"l'{rest}"), (where, the)
        assert the != f"l'{rest}" or rest[:1] in "AEÉÈIÎOUY", the
    elif prep == "au":
        assert the == f"le {rest}", (where, the)
    else:
        raise AssertionError(f"{aid}: {where!r} has no known preposition")
    assert _same_name(the, bare), (aid, the, bare)


@pytest.mark.parametrize("aid", AREAS)
def test_each_english_form_is_in_and_the_name(aid: str) -> None:
    en = M.catalogue("en")
    bare, where, the = (en[f"epochs.{f}.{aid}"] for f in ("area", "areaIn", "areaThe"))
    assert where == f"in {the}" and the in (bare, f"the {bare}"), (where, the)


def test_the_chosen_french_forms() -> None:
    for aid, (where, the) in FRENCH.items():
        assert (_fr(f"epochs.areaIn.{aid}"), _fr(f"epochs.areaThe.{aid}")) == (where, the), aid
    assert M.catalogue("en")["epochs.areaIn.islands"] == "in the Islands"
    assert M.catalogue("en")["epochs.areaThe.great_green"] == "the Great Green"
    # the map's labels keep the bare names
    assert _fr("epochs.area.islands") == "Îles" and _fr("epochs.area.elam") == "Élam"


def test_an_area_no_catalogue_knows_is_named_by_a_neutral_wording() -> None:
    """A replaced map's area (a name the packaged map does not give it)."""
    where, the = area_in_named("ur", "Ur Kasdim"), area_the_named("ur", "Ur Kasdim")
    assert (str(where), str(the)) == ("in Ur Kasdim", "Ur Kasdim")
    assert (where.render("fr"), the.render("fr")) == ("dans la région Ur Kasdim", "la région Ur Kasdim")
    assert area_in_named("ur", "Ur").key == "epochs.areaIn.ur"


# --- no "sur" ---------------------------------------------------------------------------------


def _epochs_patterns(lang: str) -> dict[str, str]:
    return {k: v for k, v in M.catalogue(lang).items() if k.startswith("epochs.") and "@" not in k}


def test_no_epochs_sentence_names_an_area_by_its_bare_name() -> None:
    """Every sentence names an area by a form with its preposition or article: no pattern takes
    the bare name (``area``) any more, and none says "sur {...}" (but "Époque 1 sur 5")."""
    for lang in M.LANGS:
        for key, text in _epochs_patterns(lang).items():
            assert "area" not in M.arguments(text), (lang, key, text)
            assert not re.search(r"\bsur \{(?!of\})", text), (lang, key, text)


def _i18n(lang: str) -> dict[str, str]:
    """The browser's ``epochs.*`` strings of ``lang`` (i18n.js: English first, then French)."""
    text = (STATIC / "i18n.js").read_text(encoding="utf-8")
    found: dict[str, list[str]] = {}
    for key, value in re.findall(r'^  "(epochs\.[^"]+)": "(.*)",$', text, re.M):
        found.setdefault(key, []).append(value)
    return {k: v[0 if lang == "en" else 1] for k, v in found.items() if len(v) == 2}


# the browser's strings that show an area's name as a label, not in a sentence
LABELS = {"epochs.card.seaStart", "epochs.card.bonusValue"}


def test_the_browser_names_areas_in_sentences_by_their_forms() -> None:
    fr, en = _i18n("fr"), _i18n("en")
    assert len(fr) > 100 and set(fr) == set(en)
    sentences = {k for k, v in fr.items() if "{areaIn}" in v or "{areaThe}" in v}
    assert {
        "epochs.act.place",
        "epochs.act.land",
        "epochs.act.attack",
        "epochs.q.displace",
        "epochs.dice.title",
        "epochs.dice.emptied",
        "epochs.waitingDisplace",
    } <= sentences
    for key, text in fr.items():
        assert not re.search(r"\b(sur|en) \{(?!of\})", text), (key, text)
        if "{area}" in text:
            assert key in LABELS, (key, text)
    assert fr["epochs.dice.emptied"] == "Il ne reste plus personne {areaIn}."  # no agreement to make


SPEAK = """
globalThis.localStorage = { getItem: () => "en", setItem: () => {} };
globalThis.navigator = { language: "en" };
globalThis.document = { documentElement: {} };
const fs = await import("node:fs");
const catalogues = %(catalogues)s;
globalThis.fetch = async (url) => {
  const u = String(url);
  if (u.startsWith("file:")) return { ok: true, json: async () => JSON.parse(fs.readFileSync(new URL(u), "utf8")) };
  return { ok: true, json: async () => catalogues[u.split("/").pop()] };
};
const base = %(base)s;
const m = await import(base + "messages.js");
for (const l of Object.keys(catalogues)) await m.loadMessages(l);
const i18n = await import(base + "i18n.js");
const L = await import(base + "boards/mesopotamia-epochs/labels.js");
const { defaultData } = await import(base + "boards/mesopotamia-epochs/data.js");
const data = defaultData();
const areas = new Map([...data.areas].map(([k, v]) => [k, k === "ur" ? { ...v, name: "Ur Kasdim" } : v]));
const custom = { ...data, areas };
const view = { phase: "strategy", round: { people: "elamites", pool: 3 }, areas: [], players: [] };
const out = {};
for (const l of ["en", "fr"]) {
  i18n.setLang(l);
  out[l] = {
    forms: Object.fromEntries([...data.areas.keys()].map((id) => [id, [L.areaIn(i18n.t, data, id), L.areaThe(i18n.t, data, id)]])),
    place: ["elam", "ur", "islands", "sinai"].map((id) => L.actionLabel(i18n.t, "place " + id, view, data, {})),
    land: L.actionLabel(i18n.t, "land khania", view, data, {}),
    custom: [L.areaIn(i18n.t, custom, "ur"), L.areaThe(i18n.t, custom, "ur")],
  };
}
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def browser_words(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the board's labels.js says, run by Node on the catalogues the server serves."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run the browser's labels"
    catalogues = {lang: M.catalogue(lang) for lang in M.LANGS}
    script = tmp_path_factory.mktemp("labels") / "run.mjs"
    script.write_text(
        SPEAK % {"catalogues": json.dumps(catalogues), "base": json.dumps(STATIC.as_uri() + "/")},
        encoding="utf-8",
    )
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True, timeout=60)
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def test_the_board_reads_every_areas_forms_from_the_catalogue(browser_words: dict[str, Any]) -> None:
    for lang in M.LANGS:
        forms = browser_words[lang]["forms"]
        assert set(forms) == set(AREAS)
        for aid in AREAS:
            expected = [M.catalogue(lang)[f"epochs.area{f}.{aid}"] for f in ("In", "The")]
            assert forms[aid] == expected, (lang, aid)


def test_the_boards_buttons_in_french(browser_words: dict[str, Any]) -> None:
    assert browser_words["fr"]["place"] == [
        "Placer une tribu en Élam",
        "Placer une tribu à Ur",
        "Placer une tribu dans les Îles",
        "Placer une tribu au Sinaï",
    ]
    assert browser_words["fr"]["land"] == "Débarquer à La Canée"
    assert browser_words["en"]["place"][2] == "Place a tribe in the Islands"
    assert browser_words["fr"]["custom"] == ["dans la région Ur Kasdim", "la région Ur Kasdim"]


# --- what a player reads ----------------------------------------------------------------------


def _told(state: ziggurat.State, action: str) -> list[M.Message]:
    before, mark = state.view(None), log_mark(state)
    state.apply(action)
    return [m for m, _ in describe_step(events_since(state, mark), before, state.view(None))]


def _elamites(**more: str) -> ziggurat.State:
    b = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians").tribes("elam", "elamites", 1)
    for area, people in more.items():
        b.tribes(area, people, 1)
    return b.round("elamites", 3).state()


@pytest.mark.parametrize(
    ("area", "french", "english"),
    [
        ("media", "Les Élamites placent une tribu en Médie", "The Elamites place a tribe in Media"),
        ("ur", "Les Élamites placent une tribu à Ur", "The Elamites place a tribe in Ur"),
        ("gutium", "Les Élamites placent une tribu au Gutium", "The Elamites place a tribe in Gutium"),
        ("babylon", "Les Élamites placent une tribu à Babylone", "The Elamites place a tribe in Babylon"),
    ],
)
def test_a_placement_in_french(area: str, french: str, english: str) -> None:
    place = _told(_elamites(), f"place {area}")[0]
    assert place.key == "epochs.log.place"
    assert (place.render("fr"), str(place)) == (french, english)


def test_a_placement_in_the_islands_by_sea() -> None:
    state = Board(3, epoch=2).deal(ANN, "minoans").tribes("knossos", "minoans", 1).round("minoans", 3).state()
    place = _told(state, "place islands")[0]
    assert place.render("fr") == "Les Minoens placent une tribu dans les Îles par la mer"
    assert str(place) == "The Minoans place a tribe in the Islands by sea"


def test_a_second_tribe_in_french() -> None:
    line = _told(_elamites(), "place elam")[0]
    assert line.render("fr") == "Les Élamites ajoutent une tribu en Élam (2 déjà)"
    assert str(line) == "The Elamites place another tribe in Elam (2 there)"


def test_an_attack_and_its_roll_in_french() -> None:
    state = _elamites(media="sumerians")
    attack = _told(state, "place media")[0]
    assert attack.render("fr") == "Les Élamites attaquent la Médie : 1 tribu des Sumériens (Tête) en défense"
    roll = _told(state, "roll 6,6 1,1")[0]  # Elam to Media: a difficult border
    assert roll.render("fr") == (
        "Les Élamites attaquent la Médie depuis l'Élam : 6 et 6 contre 1 et 1, l'attaquant gagne et prend la Médie"
    )
    assert (
        str(roll)
        == "The Elamites attack Media from Elam: 6 and 6 against 1 and 1, the attacker wins and takes Media"
    )


def test_a_tie_that_empties_an_area_needs_no_agreement() -> None:
    tie = M.message("epochs.log.result.tieEmpty", area_in=M.noun("epochs.areaIn", "islands"))
    assert (
        tie.render("fr") == "égalité : chaque camp perd une tribu, et il ne reste plus personne dans les Îles"
    )
    assert str(tie) == "a tie: each side loses a tribe, and no tribe is left in the Islands"


def _reason(state: ziggurat.State, action: str) -> M.Message:
    with pytest.raises(ziggurat.IllegalAction) as info:
        state.apply(action)
    msg = info.value.args[0]
    assert isinstance(msg, M.Message) and msg.key == "engine.illegal"
    reason = msg.params["reason"]
    assert isinstance(reason, M.Message)
    return reason


def test_refusals_name_the_area_with_its_article() -> None:
    """A refusal's reason follows "coup illégal : <action> : ", so it starts in lower case, as
    every Epochs refusal does ("les Élamites n'ont plus de tribu ...")."""
    minoans = Board(3, epoch=2).deal(ANN, "minoans").tribes("knossos", "minoans", 1).round("minoans", 3)
    sea = _reason(minoans.state(), "place great_green")
    assert sea.render("fr") == "le Grand Vert est une mer : aucune tribu ne peut y être placée (E9.1, E8.2)"
    assert sea == "the Great Green is a sea: no tribe may be placed in it (E9.1, E8.2)"
    full = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians").tribes("elam", "elamites", 3)
    limit = _reason(full.round("elamites", 2).state(), "place elam")
    assert limit.render("fr") == "les Élamites ont déjà 3 tribus en Élam, la limite (E13.1, R23)"
    desert = _reason(_elamites(), "place caucasus")
    assert desert.render("fr").startswith("le Caucase est une région inhabitée")


def test_the_terminals_pending_lines_in_french() -> None:
    """The decision under way, as the terminal board says it."""
    combat = M.message(
        "epochs.board.pending.combat",
        people=M.noun("epochs.people", "elamites"),
        area_the=M.noun("epochs.areaThe", "sinai"),
        source=M.message("epochs.log.fromArea", area_the=M.noun("epochs.areaThe", "islands")),
        n=2,
        defender=M.noun("epochs.people", "sumerians"),
        dice=1,
        hard="no",
    )
    assert combat.render("fr").startswith("les Élamites attaquent le Sinaï depuis les Îles contre 2 tribus")
