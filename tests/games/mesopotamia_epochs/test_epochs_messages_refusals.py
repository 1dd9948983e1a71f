"""Refusals of Mesopotamia: Epochs as messages: a refused move raises the engine's error with a
message (``engine.illegal`` around an ``epochs.refusal.*`` reason) whose English is the
sentence players have always read, rule numbers included, and which renders in French; so do
the wrong seat, the finished game and a text that is not an action."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from epochs_helpers import ANN, BEN, CAL, Board, refuse

import ziggurat
from ziggurat.engine import messages as M


def _message(exc: pytest.ExceptionInfo[ValueError]) -> M.Message:
    msg = exc.value.args[0]
    assert isinstance(msg, M.Message), msg
    assert str(exc.value) == str(msg)
    return msg


def _elamites() -> ziggurat.State:
    b = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians").tribes("elam", "elamites", 1)
    return b.round("elamites", 3).state()


def test_a_desert_refusal_in_english_and_french_E11_2() -> None:
    s = _elamites()
    refuse(s, "place kaldu", "E11.2", "R21")
    with pytest.raises(ziggurat.IllegalAction) as info:
        s.apply("place Kaldu")
    msg = _message(info)
    assert msg.key == "engine.illegal" and msg.params["action"] == "place kaldu"
    assert msg.params["reason"].key == "epochs.refusal.desert"
    assert (
        msg
        == "illegal: place kaldu: Kaldu is a desert: no People may enter it or attack into it (E11.2, R21)"
    )
    assert msg.render("fr") == (
        "coup illégal : place kaldu : Kaldu est un désert : aucun peuple ne peut y entrer ni l'attaquer (E11.2, R21)"
    )


def test_a_border_refusal_names_the_area_and_people_in_french_E8_2() -> None:
    with pytest.raises(ziggurat.IllegalAction) as info:
        _elamites().apply("place ashur")
    msg = _message(info)
    assert (
        msg == "illegal: place ashur: no area the Elamites hold shares a land border with Ashur (E8.2, E8.3)"
    )
    assert msg.render("fr") == (
        "coup illégal : place ashur : aucune région que tiennent les Élamites n'a de frontière terrestre "
        "avec Assur (E8.2, E8.3)"
    )


def test_a_pass_refusal_names_the_player_E3_4() -> None:
    b = Board(3, epoch=2, phase="allocation").deal(ANN, "guti").deal(BEN, "egyptians").deal(CAL, "akkadians")
    s = b.tribes("gutium", "guti", 1).drawing([BEN, ANN, CAL], 0).pending("keep", "minoans").state()
    with pytest.raises(ziggurat.IllegalAction) as info:
        s.apply("pass head")
    msg = _message(info)
    assert (
        msg == "illegal: pass head: a card is passed to another player; to play it yourself, keep it (E3.4)"
    )
    assert msg.render("fr").endswith(
        "une carte se passe à un autre joueur ; pour la jouer vous-même, gardez-la (E3.4)"
    )
    with pytest.raises(ziggurat.IllegalAction) as info:
        s.apply("pass urn")
    msg = _message(info)
    assert msg == "illegal: pass urn: there is no urn player in this 3-player game (E1.2)"
    assert (
        msg.render("fr")
        == "coup illégal : pass urn : il n'y a pas de joueur Urne dans cette partie à 3 joueurs (E1.2)"
    )


def test_wrong_seat_finished_game_and_bad_text_in_french() -> None:
    s = _elamites()
    with pytest.raises(ziggurat.NotYourTurn) as turn:
        s.apply("stop", seat=BEN)
    msg = _message(turn)
    assert msg == "it is not head's decision: brooch is to move (§7)"
    assert msg.render("fr") == "ce n'est pas à Tête de décider : c'est à Broche de jouer (§7)"
    with pytest.raises(ziggurat.InvalidAction) as bad:
        s.apply("frobnicate")
    msg = _message(bad)
    assert (
        msg == "unknown action 'frobnicate'; a player's actions are keep, pass, land, displace, place, stop"
    )
    assert msg.render("fr") == (
        "action inconnue 'frobnicate' ; les actions d'un joueur sont keep, pass, land, displace, place, stop"
    )
    with pytest.raises(ziggurat.InvalidAction) as bad:
        s.apply("place atlantis")
    assert _message(bad) == "'atlantis' is not an area of the map"
    assert _message(bad).render("fr") == "'atlantis' n'est pas une région de la carte"
    done = Board(2, epoch=5, phase="over").state()
    with pytest.raises(ziggurat.GameOver) as over:
        done.apply("stop")
    msg = _message(over)
    assert msg == "the game is over (E15.1); no more actions"
    assert msg.render("fr") == "la partie est terminée (E15.1) ; plus aucune action"


def test_a_mistyped_action_names_only_what_a_player_types_D1_D4() -> None:
    """A typo is refused naming the verbs a player can type (chance outcomes and the forced
    ``remove`` left out) and never the map's file id, in both languages."""
    s = _elamites()
    for typed in ("plce elam", "dela", "place atlantis", "land nowhere", "displace Mare Nostrum"):
        with pytest.raises(ziggurat.InvalidAction) as bad:
            s.apply(typed)
        msg = _message(bad)
        for text in (str(msg), msg.render("fr")):
            assert "default-map" not in text and "mesopotamia-epochs/" not in text, text
            for chance in ("deal", "draw", "roll", "remove"):
                assert chance not in text.split("'")[-1], text
    with pytest.raises(ziggurat.InvalidAction) as bad:
        s.apply("plce elam")
    assert (
        _message(bad)
        == "unknown action 'plce'; a player's actions are keep, pass, land, displace, place, stop"
    )


def test_every_refusal_of_a_game_renders_in_every_language() -> None:
    """Every seat tries every kind of action at positions of a seeded game: each refusal is a
    message that renders whole in every language, and its French is not its English."""
    state = ziggurat.load("mesopotamia-epochs", players=3).new_initial_state()
    rng = random.Random(3)
    probes = ["keep", "remove", "stop", "pass head", "pass urn", "deal mask guti", "draw guti", "roll 1,2 3"]
    probes += [
        f"{kind} {area}"
        for kind in ("place", "displace", "land")
        for area in ("kaldu", "ur", "great_green", "thebes")
    ]
    keys: set[str] = set()
    ply = 0
    while not state.is_terminal():
        if ply % 7 == 0:
            for action in probes:
                for seat in (None, 1):
                    try:
                        state.clone().apply(action, seat=seat)
                    except ziggurat.ZigguratError as exc:
                        msg = exc.args[0]
                        assert isinstance(msg, M.Message), (action, msg)
                        reason = msg.params.get("reason", msg)
                        keys.add(reason.key if isinstance(reason, M.Message) else msg.key)
                        for lang in M.LANGS:
                            text = msg.render(lang)
                            assert "{" not in text and "epochs." not in text, (lang, text)
                        assert msg.render("fr") != str(msg)
        if state.current_player() == ziggurat.CHANCE:
            state.apply(ziggurat.sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        ply += 1
    assert len(keys) >= 12, sorted(keys)


def _own_attack() -> ziggurat.State:
    b = Board(3, epoch=3, attack_own_peoples=False).deal(ANN, "egyptians", "minoans", "hyksos")
    b.tribes("sinai", "hyksos", 1).tribes("avaris", "hyksos", 1)
    return b.tribes("thebes", "egyptians", 3).tribes("memphis", "egyptians", 3).round("egyptians", 2).state()


def _seafaring() -> ziggurat.State:
    b = Board(3, epoch=3).deal(ANN, "guti", "phoenicians").deal(BEN, "egyptians", "minoans")
    return (
        b.tribes("yamhad", "phoenicians", 1).tribes("knossos", "minoans", 1).round("phoenicians", 3).state()
    )


def _own_desert() -> ziggurat.State:
    b = Board(3, epoch=2, reinforce_own_desert=False).deal(ANN, "guti", "amorites")
    return b.tribes("aramaea", "amorites", 1).round("amorites", 3).state()


def _empty_pool() -> ziggurat.State:
    b = Board(3, epoch=1).deal(ANN, "elamites").deal(BEN, "sumerians").tribes("elam", "elamites", 1)
    return b.round("elamites", 0).state()


RARE = [
    (
        _empty_pool,
        "place babylon",
        "epochs.refusal.poolEmpty",
        "the Elamites have no tribe left in their pool (E8.6)",
        "les Élamites n'ont plus de tribu dans leur réserve (E8.6)",
    ),
    (
        _own_attack,
        "place avaris",
        "epochs.refusal.samePlayer",
        "the Hyksos hold Avaris: a People of the same player (R20)",
        "les Hyksos tiennent Avaris : un peuple du même joueur (R20)",
    ),
    (
        _seafaring,
        "place islands",
        "epochs.refusal.seafaring",
        "no area of the Phoenicians borders the Islands, and Seafaring needs a coastal area the Phoenicians "
        "hold themselves (E8.2, E9.3, R31)",
        "aucune région des Phéniciens ne touche les Îles, et la Navigation exige une région côtière que les "
        "Phéniciens tiennent eux-mêmes (E8.2, E9.3, R31)",
    ),
    (
        _own_desert,
        "place aramaea",
        "epochs.refusal.ownDesert",
        "the Amorites may not add tribes to a desert they hold with reinforce_own_desert off (R39)",
        "les Amorrites ne peuvent pas ajouter de tribus dans un désert qu'ils tiennent quand "
        "reinforce_own_desert est désactivée (R39)",
    ),
]


@pytest.mark.parametrize(("position", "action", "key", "english", "french"), RARE, ids=[r[2] for r in RARE])
def test_rarer_refusals_in_english_and_french(
    position: Callable[[], ziggurat.State], action: str, key: str, english: str, french: str
) -> None:
    """Refusals the seeded games rarely meet: the same player's People (R20), Seafaring (R31),
    a held desert with reinforce_own_desert off (R39), an empty pool (E8.6)."""
    with pytest.raises(ziggurat.IllegalAction) as info:
        position().apply(action)
    reason = _message(info).params["reason"]
    assert reason.key == key
    assert reason == english
    assert reason.render("fr") == french
