"""The lessons of the Mesopotamia: Epochs tutorial (docs/rules/mesopotamia-epochs.md).

Each lesson starts at a moment of a seeded three-player game of the heuristic bots and asks
its seat for the moves of one part of an Epoch: the card deal, a new People's entry, an old
People's growth, attacks, displacement, a sea start, and the last round that decides the
game. Run it to rewrite src/ziggurat/tutorials/mesopotamia-epochs/:

    PYTHONPATH=src python tests/tutorials/build_epochs_tutorial.py
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tutorial_builder import Lesson, Player, load, text, write

GAME = "mesopotamia-epochs"
PLAYERS = 3
OPTIONS: dict[str, Any] = {}
COVERS = {
    "phases": ["allocation", "pool", "start_placement", "placement", "scoring"],
    "victory": ["most_vp"],
}


def moment(seed: int, test: Callable[[Any, dict[str, Any]], bool]) -> Any:
    """The first state of the seeded game where ``test(state, position)`` holds."""
    game = load(GAME, PLAYERS, OPTIONS)
    return Player(game, seed).until(game.new_initial_state(), lambda s: test(s, s.to_position()))


def roll(attack: int, defence: int) -> Callable[[Any], str]:
    """The combat roll whose attacker keeps ``attack`` and defender ``defence`` (E12.2, E12.3)."""

    def pick(state: Any) -> str:
        for outcome, _ in state.chance_outcomes():
            a, d = outcome.split()[1:]
            if max(map(int, a.split(","))) == attack and max(map(int, d.split(","))) == defence:
                return str(outcome)
        raise AssertionError(f"no roll {attack} against {defence}")

    return pick


def round_of(people: str, epoch: int, pool: int | None = None) -> Callable[[Any, dict[str, Any]], bool]:
    def test(state: Any, pos: dict[str, Any]) -> bool:
        r = pos["round"]
        return (
            pos["epoch"] == epoch
            and r is not None
            and r["people"] == people
            and (pool is None or r["pool"] == pool)
            and state.current_player() >= 0
        )

    return test


def allocation() -> tuple[Lesson, dict[str, Any]]:
    state = moment(
        1,
        lambda s, p: (
            p["phase"] == "allocation" and p["epoch"] == 2 and p["draw_index"] == 0 and s.current_player() < 0
        ),
    )
    game = state.game
    lesson = Lesson(
        game,
        state,
        1,
        "allocation",
        text("Epoch 2: drawing a People card", "Époque 2 : piocher une carte de peuple"),
        text(
            "Each Epoch after the first begins with the Allocation: the five People cards of the Epoch are "
            "shuffled and each player draws one, the player with the fewest victory points first (E3.1, E3.2). "
            "You (Head) have 8 VP, the others 13 each, so you draw first; their tie is broken by the lower order "
            "number of their previous People (R8).",
            "Chaque Époque après la première commence par l'Attribution : les cinq cartes de peuple de l'Époque "
            "sont mélangées et chaque joueur en pioche une, celui qui a le moins de points de victoire d'abord "
            "(E3.1, E3.2). Vous (Tête) avez 8 PV, les autres 13 chacun, vous piochez donc le premier ; leur "
            "égalité est tranchée par le plus petit numéro d'ordre de leur peuple précédent (R8).",
        ),
        chance=["draw amorites"],
    )
    lesson.step(
        ["keep", "pass brooch", "pass mask"],
        text(
            "You drew the Amorites: 8 tribes starting in the desert of Aramaea, with Fast Growth. Keep the card "
            "to play them this Epoch, or pass it face down to a player who has no card yet (E3.4). A player who "
            "receives a passed card may not look at it until everyone has drawn (E3.5), and a player who already "
            "holds a passed card must pass the card he draws (R9).",
            "Vous avez pioché les Amorrites : 8 tribus qui partent du désert d'Aram, avec la Croissance rapide. "
            "Gardez la carte pour les jouer à cette Époque, ou passez-la face cachée à un joueur qui n'a pas "
            "encore de carte (E3.4). Qui reçoit une carte passée ne la regarde qu'une fois que tout le monde a "
            "pioché (E3.5), et qui tient déjà une carte passée doit passer celle qu'il pioche (R9).",
        ),
        text(
            "Choose keep, or pass the card to Brooch or Mask.",
            "Choisissez de garder la carte, ou passez-la à Broche ou à Masque.",
        ),
        ["E3.2", "E3.4", "E3.5", "R9"],
    )
    return lesson, lesson.finish(
        text(
            "Every player ends the deal with exactly one new card; the cards nobody drew are set aside and "
            "their Peoples never play (E3.6). Your card stays hidden from the others until its People's first "
            "round (E3.7).",
            "Chaque joueur finit la distribution avec exactement une nouvelle carte ; les cartes que personne "
            "n'a piochées sont écartées et leurs peuples ne jouent jamais (E3.6). Votre carte reste cachée aux "
            "autres jusqu'au premier tour de son peuple (E3.7).",
        ),
        ["allocation"],
    )


def start() -> tuple[Lesson, dict[str, Any]]:
    state = moment(1, round_of("phrygians", 4))
    lesson = Lesson(
        state.game,
        state,
        0,
        "new_people",
        text("A new People enters the map", "Un nouveau peuple entre sur la carte"),
        text(
            "Peoples play one at a time in order of their number, not by player (E4.3). It is the round of your "
            "Phrygians (number 17), new this Epoch: their pool is the 6 tribes of their card (E5.1), and the "
            "first one has gone into their start area, Ahhiyawa (E7.1). You place the other 5 one at a time "
            "(E8.1).",
            "Les peuples jouent un à un dans l'ordre de leur numéro, pas par joueur (E4.3). C'est le tour de vos "
            "Phrygiens (numéro 17), nouveaux à cette Époque : leur réserve est les 6 tribus de leur carte (E5.1), "
            "et la première est entrée dans leur région de départ, Ahhiyawa (E7.1). Vous placez les 5 autres une "
            "à une (E8.1).",
        ),
    )
    two = ["place hatti", "place arzawa"]
    hint = text(
        "Click Hatti or Arzawa.",
        "Cliquez sur Hatti ou Arzawa.",
    )
    lesson.step(
        two,
        text(
            "A tribe may go into an area you already hold, or into an area that shares a land border with one "
            "you hold (E8.2). Hatti and Arzawa are empty and border Ahhiyawa: place a tribe in one of them.",
            "Une tribu peut aller dans une région que vous tenez déjà, ou dans une région qui partage une "
            "frontière terrestre avec l'une des vôtres (E8.2). Hatti et Arzawa sont vides et touchent Ahhiyawa : "
            "placez une tribu dans l'une d'elles.",
        ),
        hint,
        ["E8.1", "E8.2"],
    )
    lesson.step(
        two,
        text(
            "Each area you take is worth VP every time your People scores: areas count, not tribes (E14.3). "
            "Take the other one.",
            "Chaque région prise rapporte des PV chaque fois que votre peuple marque : ce sont les régions qui "
            "comptent, pas les tribus (E14.3). Prenez l'autre.",
        ),
        hint,
        ["E8.2", "E14.3"],
    )
    ahhiyawa = text("Click Ahhiyawa.", "Cliquez sur Ahhiyawa.")
    lesson.step(
        ["place ahhiyawa"],
        text(
            "Tribes also defend: an attacker must remove the tribes of an area one by one to take it (E12.6). "
            "Add a tribe to Ahhiyawa, your start area.",
            "Les tribus défendent aussi : un attaquant doit retirer une à une les tribus d'une région pour la "
            "prendre (E12.6). Ajoutez une tribu à Ahhiyawa, votre région de départ.",
        ),
        ahhiyawa,
        ["E8.2", "E12.6"],
    )
    lesson.step(
        ["place ahhiyawa"],
        text(
            "And a third: no area may hold more than 3 tribes of one People (E13.1).",
            "Et une troisième : aucune région ne peut tenir plus de 3 tribus d'un même peuple (E13.1).",
        ),
        ahhiyawa,
        ["E13.1"],
    )
    lesson.step(
        ["place kanesh", *two],
        text(
            "Place your last tribe. When the pool is empty your Phrygians score: 1 VP for each area they hold, "
            "2 for a double-value area, twice that in their bonus area (E14.1, E14.2). Kanesh, empty and next "
            "to Hatti and Arzawa, is both double-value and their bonus area: taking it scores 4 VP more, while "
            "another tribe in Hatti or Arzawa adds no area. You could also stop at any time; tribes left in the "
            "pool are discarded, never saved (E8.6).",
            "Placez votre dernière tribu. Quand la réserve est vide, vos Phrygiens marquent : 1 PV par région "
            "qu'ils tiennent, 2 pour une région à valeur double, le double dans leur région bonus (E14.1, "
            "E14.2). Kanesh, vide et voisine du Hatti et de l'Arzawa, est à la fois à valeur double et leur région "
            "bonus : la prendre rapporte 4 PV de plus, alors qu'une tribu de plus au Hatti ou en Arzawa n'ajoute "
            "aucune région. Vous pourriez aussi arrêter à tout moment ; les tribus restées dans la réserve sont "
            "défaussées, jamais gardées (E8.6).",
        ),
        text("Click Kanesh, Hatti or Arzawa.", "Cliquez sur Kanesh, Hatti ou Arzawa."),
        ["E8.6", "E14.1", "E14.2"],
    )
    return lesson, lesson.finish(
        text(
            "Your Phrygians scored their areas. Only the People whose round it is scores, and there is no other "
            "scoring in the game (E14.5).",
            "Vos Phrygiens ont marqué leurs régions. Seul le peuple dont c'est le tour marque, et il n'y a aucun "
            "autre décompte dans la partie (E14.5).",
        ),
        ["pool", "start_placement", "placement", "scoring"],
    )


def growth() -> tuple[Lesson, dict[str, Any]]:
    state = moment(1, round_of("kassites", 4, pool=2))
    lesson = Lesson(
        state.game,
        state,
        1,
        "growth",
        text("Old Peoples keep growing", "Les anciens peuples continuent de croître"),
        text(
            "Your Kassites came in Epoch 2 and still act in every Epoch (E4.3). An old People's pool is its "
            "growth plus the reinforcements its card lists for this Epoch (E6.1). Growth counts the areas it "
            "holds when its round begins, not the tribes: 5 areas give 5 ÷ 3 rounded, 2 tribes (E6.2, E6.3). "
            "Fast Growth gives half the areas, Slow Growth always 1 (E6.4, E6.5).",
            "Vos Kassites sont arrivés à l'Époque 2 et agissent encore à chaque Époque (E4.3). La réserve d'un "
            "ancien peuple est sa croissance plus les renforts que sa carte donne pour cette Époque (E6.1). La "
            "croissance compte les régions qu'il tient au début de son tour, pas les tribus : 5 régions donnent "
            "5 ÷ 3 arrondi, 2 tribus (E6.2, E6.3). La Croissance rapide donne la moitié des régions, la Croissance "
            "lente toujours 1 (E6.4, E6.5).",
        ),
    )
    lesson.step(
        ["place yamhad"],
        text(
            "Yamhad is empty and borders Mari, which you hold: expand into it. Each new area is one more VP "
            "each time your Kassites score, and more growth next Epoch.",
            "Yamhad est vide et touche Mari, que vous tenez : étendez-vous-y. Chaque nouvelle région vaut un PV de "
            "plus à chaque décompte de vos Kassites, et plus de croissance à l'Époque suivante.",
        ),
        text("Click Yamhad.", "Cliquez sur Yamhad."),
        ["E6.1", "E6.3", "E8.2"],
    )
    lesson.step(
        ["place ur", "place uruk", "place elam", "place gutium", "place mari", "place yamhad"],
        text(
            "Place your last tribe in one of your areas: a second tribe makes an area harder to take (E12.6), "
            "and a People left with no tribe on the map when its round begins loses that round (E4.5).",
            "Placez votre dernière tribu dans l'une de vos régions : une seconde tribu rend une région plus dure "
            "à prendre (E12.6), et un peuple qui n'a plus de tribu sur la carte au début de son tour perd ce tour "
            "(E4.5).",
        ),
        text("Click one of your areas.", "Cliquez sur l'une de vos régions."),
        ["E4.5", "E12.6", "E8.6"],
    )
    return lesson, lesson.finish(
        text(
            "The pool is empty, so placement ended and your Kassites scored every area they hold (E8.6, E14).",
            "La réserve est vide : le placement est fini et vos Kassites ont marqué toutes leurs régions (E8.6, "
            "E14).",
        ),
        ["pool", "scoring"],
    )


def attack() -> tuple[Lesson, dict[str, Any]]:
    state = moment(1, round_of("sumerians", 2))
    lesson = Lesson(
        state.game,
        state,
        0,
        "attack",
        text("Attacking", "Attaquer"),
        text(
            "Your Sumerians hold only Media; their pool is 0 growth for one area plus 4 reinforcements (E6.3, "
            "E6.6). All the areas around are held by other Peoples. Placing a tribe in such an area is an "
            "attack, fought at once with dice (E8.5, E12.1).",
            "Vos Sumériens ne tiennent que la Médie ; leur réserve est 0 de croissance pour une région plus 4 "
            "renforts (E6.3, E6.6). Toutes les régions autour sont tenues par d'autres peuples. Placer une tribu "
            "dans une telle région est une attaque, livrée aussitôt aux dés (E8.5, E12.1).",
        ),
        chance=[roll(6, 3), roll(2, 5), roll(4, 4)],
    )
    lesson.step(
        ["place elam"],
        text(
            "Attack Elam, held by one Akkadian tribe. You roll two dice and keep the higher; the defender rolls "
            "one (E12.2, E12.3). The higher score wins and the loser removes a tribe (E12.5).",
            "Attaquez l'Élam, tenu par une tribu akkadienne. Vous lancez deux dés et gardez le plus haut ; le "
            "défenseur en lance un (E12.2, E12.3). Le plus haut score gagne et le perdant retire une tribu "
            "(E12.5).",
        ),
        text("Click Elam.", "Cliquez sur l'Élam."),
        ["E8.5", "E12.2", "E12.3", "E12.5"],
    )
    lesson.step(
        ["place gutium"],
        text(
            "6 against 3: the defender was removed and your tribe now holds Elam (E12.7). Now attack Gutium, "
            "held by the Guti.",
            "6 contre 3 : le défenseur est retiré et votre tribu tient maintenant l'Élam (E12.7). Attaquez "
            "maintenant Gutium, tenu par les Gutis.",
        ),
        text("Click Gutium.", "Cliquez sur Gutium."),
        ["E12.7"],
    )
    lesson.step(
        ["place gutium"],
        text(
            "2 against 5: your attacking tribe is lost (E12.5). The attack is over, but you may try again with "
            "another tribe of your pool (E12.8). Attack Gutium once more.",
            "2 contre 5 : votre tribu attaquante est perdue (E12.5). L'attaque est finie, mais vous pouvez "
            "réessayer avec une autre tribu de votre réserve (E12.8). Attaquez Gutium encore une fois.",
        ),
        text("Click Gutium again.", "Cliquez encore sur Gutium."),
        ["E12.8"],
    )
    lesson.step(
        ["place media", "place elam", "place gutium"],
        text(
            "4 against 4, a tie: normally each side loses a tribe, but the Sumerians have Urbanisation and the "
            "Guti do not, so you win the tie and take Gutium (E12.5, R17). Place your last tribe in one of your "
            "areas.",
            "4 contre 4, égalité : d'habitude chaque camp perd une tribu, mais les Sumériens ont l'Urbanisation "
            "et pas les Gutis, vous gagnez donc l'égalité et prenez Gutium (E12.5, R17). Placez votre dernière "
            "tribu dans l'une de vos régions.",
        ),
        text("Click Media, Elam or Gutium.", "Cliquez sur la Médie, l'Élam ou Gutium."),
        ["E12.5", "R17"],
    )
    return lesson, lesson.finish(
        text(
            "Military adds 1 to an attacker's kept die, and a defender behind a difficult border rolls two dice "
            "(E12.2, E12.4). Every People fights every other, even one of the same player (R20).",
            "Militaire ajoute 1 au dé gardé de l'attaquant, et un défenseur derrière une frontière difficile "
            "lance deux dés (E12.2, E12.4). Chaque peuple combat tous les autres, même un peuple du même joueur "
            "(R20).",
        ),
        ["placement"],
    )


def displacement() -> tuple[Lesson, dict[str, Any]]:
    state = moment(
        1,
        lambda s, p: (
            p["pending"] is not None
            and p["pending"][0] == "displace"
            and p["epoch"] == 3
            and p["round"]["people"] == "assyrians"
        ),
    )
    lesson = Lesson(
        state.game,
        state,
        1,
        "displacement",
        text("Making way for a new People", "Faire place à un nouveau peuple"),
        text(
            "The Assyrians enter the map in Ashur, their start area, where your Kassites have a tribe. Before "
            "the first Assyrian tribe arrives, every other tribe there is displaced, one at a time, and its "
            "owner chooses where it goes (E7.1, E7.2).",
            "Les Assyriens entrent sur la carte par Assur, leur région de départ, où vos Kassites ont une tribu. "
            "Avant que la première tribu assyrienne arrive, toute autre tribu présente est chassée, une à une, et "
            "son propriétaire choisit où elle va (E7.1, E7.2).",
        ),
    )
    lesson.step(
        [a for a in lesson.state.legal_actions() if a.startswith("displace ")],
        text(
            "Your tribe may go to an area sharing a land border with Ashur that is empty or held only by your "
            "Kassites, with fewer than 3 of their tribes; never into a desert or across the sea (E7.2, R41). "
            "With nowhere to go it would be removed (E7.3). No dice are rolled.",
            "Votre tribu peut aller dans une région qui partage une frontière terrestre avec Assur et qui est "
            "vide ou tenue seulement par vos Kassites, avec moins de 3 de leurs tribus ; jamais dans un désert ni "
            "par la mer (E7.2, R41). Sans issue, elle serait retirée (E7.3). On ne lance aucun dé.",
        ),
        text("Click one of the areas offered.", "Cliquez sur l'une des régions proposées."),
        ["E7.2", "E7.3", "R41"],
    )
    return lesson, lesson.finish(
        text(
            "Your tribe moved. This is the only time a tribe ever moves: placed tribes otherwise stay where they "
            "are (E8.7).",
            "Votre tribu s'est déplacée. C'est le seul cas où une tribu bouge : sinon, une tribu placée reste où "
            "elle est (E8.7).",
        ),
        ["start_placement"],
    )


def sea() -> tuple[Lesson, dict[str, Any]]:
    state = moment(1, lambda s, p: p["pending"] is not None and p["pending"][0] == "landing")
    held = {a for a, _, _ in state.to_position()["areas"]}
    coasts = [a[5:] for a in state.legal_actions() if a.startswith("land ") and a[5:] not in held]
    lesson = Lesson(
        state.game,
        state,
        1,
        "sea_peoples",
        text("The Sea Peoples and Seafaring", "Les Peuples de la mer et la Navigation"),
        text(
            "Your Sea Peoples start at sea, in the Great Green. No tribe ever stays at sea: you choose the "
            "coastal area where the first tribe lands (E7.5, E9.1).",
            "Vos Peuples de la mer partent de la mer, le Grand Vert. Aucune tribu ne reste en mer : vous "
            "choisissez la région côtière où débarque la première tribu (E7.5, E9.1).",
        ),
    )
    lesson.step(
        [f"land {a}" for a in coasts],
        text(
            "Land on an empty coast, such as Lukka or Thrace. Landing where another People stands would first "
            "displace its tribes (E7.5, E7.2).",
            "Débarquez sur une côte vide, comme Lukka ou la Thrace. Débarquer là où se trouve un autre peuple "
            "en chasserait d'abord les tribus (E7.5, E7.2).",
        ),
        text("Click an empty coastal area.", "Cliquez sur une région côtière vide."),
        ["E7.5", "D3"],
    )
    lesson.step(
        [f"place {a}" for a in coasts],
        text(
            "During this first round every coastal area is within your reach (E8.2 d), and the Sea Peoples have "
            "Seafaring: while they hold a coastal area they may place in any coastal area (E9.3). Place a tribe "
            "on an empty coast across the sea.",
            "Pendant ce premier tour toute région côtière est à votre portée (E8.2 d), et les Peuples de la mer "
            "ont la Navigation : tant qu'ils tiennent une région côtière, ils peuvent placer dans n'importe quelle "
            "région côtière (E9.3). Placez une tribu sur une côte vide, de l'autre côté de la mer.",
        ),
        text("Click an empty coastal area.", "Cliquez sur une région côtière vide."),
        ["E8.2", "E9.3"],
    )
    return lesson, lesson.finish(
        text(
            "Seafaring lets a People jump from coast to coast. An attack by sea is never across a difficult "
            "border (E9.4).",
            "La Navigation permet à un peuple de sauter de côte en côte. Une attaque par la mer ne passe jamais "
            "une frontière difficile (E9.4).",
        ),
        ["start_placement", "placement"],
    )


def victory() -> tuple[Lesson, dict[str, Any]]:
    state = moment(2, round_of("assyrians", 5, pool=3))
    lesson = Lesson(
        state.game,
        state,
        1,
        "last_round",
        text("The last round decides the game", "Le dernier tour décide de la partie"),
        text(
            "Epoch 5, the last one. Your Assyrians play again as number 26 (E4.2), and theirs is the last round "
            "of the game: once it ends, the player with the most VP wins (E15.1, E15.2). You have 93 VP, Mask "
            "has 103: three tribes remain to place.",
            "Époque 5, la dernière. Vos Assyriens rejouent sous le numéro 26 (E4.2), et leur tour est le dernier "
            "de la partie : à sa fin, le joueur qui a le plus de PV gagne (E15.1, E15.2). Vous avez 93 PV, Masque "
            "en a 103 : il reste trois tribus à placer.",
        ),
        chance=[roll(5, 1)],
    )
    lesson.step(
        ["place canaan"],
        text(
            "Attack Canaan, held by a single tribe: one more area for the final scoring.",
            "Attaquez Canaan, tenu par une seule tribu : une région de plus pour le dernier décompte.",
        ),
        text("Click Canaan.", "Cliquez sur Canaan."),
        ["E12.1", "E14.2"],
    )
    lesson.step(
        ["place kanesh"],
        text(
            "5 and 1 for Military (the Assyrians' ability) make 6, against 1: Canaan is yours (E12.2). Add a "
            "tribe to Kanesh, which you hold (E8.2 a).",
            "5 et 1 pour Militaire (la capacité des Assyriens) font 6, contre 1 : Canaan est à vous (E12.2). "
            "Ajoutez une tribu à Kanesh, que vous tenez (E8.2 a).",
        ),
        text("Click Kanesh.", "Cliquez sur Kanesh."),
        ["E12.2", "E8.2"],
    )
    lesson.step(
        ["place thrace"],
        text(
            "Place your last tribe in Thrace, empty: then your Assyrians score every area they hold, the game "
            "ends, and the totals decide. A tie would go to the player holding more areas, then more "
            "double-value areas (E15.2).",
            "Placez votre dernière tribu en Thrace, vide : vos Assyriens marquent alors toutes leurs régions, la "
            "partie se termine et les totaux décident. Une égalité irait au joueur qui tient le plus de régions, "
            "puis le plus de régions à valeur double (E15.2).",
        ),
        text("Click Thrace.", "Cliquez sur la Thrace."),
        ["E14.1", "E15.1", "E15.2"],
    )
    assert lesson.state.is_terminal() and lesson.state.returns()[1] == 1.0
    return lesson, lesson.finish(
        text(
            "Your Assyrians' areas lifted you past Mask: you win the game.",
            "Les régions de vos Assyriens vous font passer devant Masque : vous gagnez la partie.",
        ),
        ["scoring", "most_vp"],
    )


def main() -> None:
    lessons = [allocation(), start(), growth(), attack(), displacement(), sea(), victory()]
    write(GAME, PLAYERS, OPTIONS, COVERS, lessons)


if __name__ == "__main__":
    main()
