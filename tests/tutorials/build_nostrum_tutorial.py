"""The lessons of the Mare Nostrum: Empires tutorial (docs/rules/mare-nostrum.md).

Every lesson starts in a seeded three-player game of the heuristic bots (Rome, Greece,
Carthage): the five phases of a round (Production, Trade, Buy & place, Military, Claim) and
the four ways to win (the Pyramids, five heroes and wonders, four capitals, the three titles).
Some positions are edited (what lies behind a screen, a few pieces) and loaded strictly. A
victory lesson ends on the winning move. It wrote src/ziggurat/tutorials/mare-nostrum/:

    PYTHONPATH=src python tests/tutorials/build_nostrum_tutorial.py

The heuristic bots have changed since, so their seeded games no longer reach the same moments:
the committed lessons are edited in place and checked by ``validate`` (docs/tutorials.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tutorial_builder import Lesson, Player, load, text, write

from ziggurat.games.mare_nostrum.buy_place import cost_tile

GAME = "mare-nostrum"
PLAYERS = 3
# The lessons are played by the rules a new game plays: every option at its default (a tile's
# cost by the round, R25).
OPTIONS: dict[str, Any] = {}
# The seeded games each lesson's moment is taken from were played with a tile's cost by the tiles
# its buyer owns; they are kept so that each moment stays the one its lesson describes.
SEEDED: dict[str, Any] = {"hero_cost_mode": "by_tiles_owned"}
COVERS = {
    "phases": ["production", "trade", "buy_place", "military", "claim"],
    "victory": ["pyramids", "five_tiles", "capitals", "titles"],
}
ROME, GREECE, CARTHAGE = 0, 1, 2


def moment(test: Callable[[Any], bool], seed: int = 1) -> Any:
    """The first state of a seeded game (``SEEDED`` options) where ``test`` holds, as a state of
    the lessons' game (``OPTIONS``)."""
    seeded = load(GAME, PLAYERS, SEEDED)
    found = Player(seeded, seed).until(seeded.new_initial_state(), test)
    return load(GAME, PLAYERS, OPTIONS).state_from_position(found.to_position())


def edited(state: Any, change: Callable[[dict[str, Any]], None]) -> Any:
    """``state``'s position changed by ``change`` and loaded strictly."""
    pos = state.to_position()
    change(pos)
    return state.game.state_from_position(pos)


def buy_turn_of_rome() -> Any:
    return moment(lambda s: s.d["stage"] == "buy_turn" and s.d["buy"]["active"] == ROME)


def production() -> tuple[Lesson, dict[str, Any]]:
    state = moment(lambda s: s.d["stage"] == "mil_row" and s.d["mil"]["active"] == CARTHAGE)
    lesson = Lesson(
        state.game,
        state,
        CARTHAGE,
        "production",
        text("The end of a round and Production", "La fin d'un tour et la Production"),
        text(
            "You play Carthage. A round has five phases: Production, Trade, Buy & place, Military and Claim "
            "(N0.1). This is your Military turn, the last of the first round; you have nothing to attack, so "
            "end it.",
            "Vous jouez Carthage. Un tour a cinq phases : Production, Commerce, Achat et placement, Militaire et "
            "Attribution des titres (N0.1). C'est votre tour militaire, le dernier du premier tour ; vous n'avez rien à attaquer, "
            "terminez-le donc.",
        ),
    )
    lesson.step(
        ["done"],
        text(
            "First you may move each trireme to a neighbouring sea (N4.4). Leave them where they are.",
            "D'abord vous pouvez déplacer chaque trirème vers une mer voisine (N4.4). Laissez-les où elles sont.",
        ),
        text("Click Done.", "Cliquez sur Terminé."),
        ["N4.2", "N4.4"],
    )
    lesson.step(
        ["done"],
        text(
            "Then each legion may move (N4.6). Leave them too: the Military phase ends, then the Claim phase "
            "gives each title to the player highest on its track (N5.1), and the next round begins with "
            "Production (N1).",
            "Puis chaque légion peut se déplacer (N4.6). Laissez-les aussi : la phase militaire se termine, "
            "l'attribution des titres donne chaque titre au joueur le plus haut sur sa piste (N5.1), et le tour suivant "
            "commence par la Production (N1).",
        ),
        text("Click Done.", "Cliquez sur Terminé."),
        ["N4.14", "N5.1", "N1.1"],
    )
    lesson.step(
        "token ",
        text(
            "Production is done, all at once and behind the screens: each caravan you control gave you 1 good "
            "of its kind, 2 with a market of yours in the same province; each city and capital gave you 1 tax, "
            "2 with a temple (N1.2 to N1.5). Your goods and taxes are your resources for this round. As the "
            "Trade leader you now start the Trade: choose one of your Trade tokens and a face (N2.1).",
            "La production est faite, d'un coup et derrière les paravents : chaque caravane que vous contrôlez "
            "vous a donné 1 bien de son type, 2 avec un marché à vous dans la même province ; chaque cité et "
            "capitale vous a donné 1 impôt, 2 avec un temple (N1.2 à N1.5). Vos biens et impôts sont vos "
            "ressources pour ce tour. Chef du commerce, vous ouvrez maintenant le Commerce : choisissez l'un de "
            "vos jetons de commerce et une face (N2.1).",
        ),
        text("Click one of the Trade tokens offered.", "Cliquez sur l'un des jetons de commerce proposés."),
        ["N1.2", "N1.3", "N1.4", "N1.5", "N2.1"],
        prefix=True,
    )
    return lesson, lesson.finish(
        text(
            "Everyone who holds at least that many tokens now offers exactly that many, in secret (N2.2). The "
            "next lesson plays a whole Trade.",
            "Chaque joueur qui a au moins autant de jetons en offre maintenant exactement autant, en secret "
            "(N2.2). La leçon suivante joue un Commerce entier.",
        ),
        ["production"],
    )


def trade() -> tuple[Lesson, dict[str, Any]]:
    state = moment(lambda s: s.d["stage"] == "trade_token" and s.d["round"] == 2)
    lesson = Lesson(
        state.game,
        state,
        CARTHAGE,
        "trade",
        text("Trade", "Le Commerce"),
        text(
            "You are the Trade leader. The token you play sets the trade value: every player holding at least "
            "that many resource tokens must offer exactly that many (N2.1, N2.2).",
            "Vous êtes chef du commerce. Le jeton que vous jouez fixe la valeur du commerce : chaque joueur qui a "
            "au moins autant de jetons de ressource doit en offrir exactement autant (N2.1, N2.2).",
        ),
    )
    lesson.step(
        ["token b 4"],
        text(
            "Token A is used this cycle; a used token comes back once all three are used (N2.1). Play token B "
            "on its 4.",
            "Le jeton A a servi ; un jeton utilisé revient quand les trois ont servi (N2.1). Jouez le jeton B "
            "sur sa face 4.",
        ),
        text("Click token B, value 4.", "Cliquez sur le jeton B, valeur 4."),
        ["N2.1"],
    )
    lesson.step(
        ["offer sheep"],
        text(
            "Rome and Greece have chosen their offers in secret. Choose yours, one token at a time: nobody sees "
            "an offer until all are in (N2.3). Offer what you can best spare: you have three sheep, so offer a "
            "sheep first.",
            "Rome et la Grèce ont choisi leurs offres en secret. Choisissez la vôtre, un jeton à la fois : "
            "personne ne voit une offre avant que toutes soient faites (N2.3). Offrez ce dont vous pouvez le "
            "mieux vous passer : vous avez trois moutons, offrez d'abord un mouton.",
        ),
        text("Offer a sheep.", "Offrez un mouton."),
        ["N2.2", "N2.3"],
    )
    lesson.step(
        ["offer sheep"],
        text("Offer a second sheep.", "Offrez un deuxième mouton."),
        text("Offer a sheep.", "Offrez un mouton."),
        ["N2.3"],
    )
    lesson.step(
        ["offer perfume"],
        text("Then one of your two perfumes.", "Puis l'un de vos deux parfums."),
        text("Offer a perfume.", "Offrez un parfum."),
        ["N2.3"],
    )
    lesson.step(
        ["offer tax"],
        text(
            "And a tax: every resource token counts and may be offered, taxes included (R41).",
            "Et un impôt : tout jeton de ressource compte et peut être offert, impôts compris (R41).",
        ),
        text("Offer a tax.", "Offrez un impôt."),
        ["N2.3", "R41"],
    )
    lesson.step(
        "take ",
        text(
            "The offers are revealed. As Trade leader you start the draft: take one token from another player's "
            "offer. Then the player you took from takes next (N2.4, N2.5), and nobody may take straight back "
            "from the player who just took back from him (N2.6).",
            "Les offres sont révélées. Chef du commerce, vous commencez : prenez un jeton dans l'offre d'un autre "
            "joueur. Puis le joueur à qui vous l'avez pris prend à son tour (N2.4, N2.5), et nul ne peut reprendre "
            "aussitôt au joueur qui vient de lui reprendre (N2.6).",
        ),
        text(
            "Click a token in Rome's or Greece's offer.",
            "Cliquez sur un jeton de l'offre de Rome ou de la Grèce.",
        ),
        ["N2.4", "N2.5", "N2.6"],
        prefix=True,
    )
    return lesson, lesson.finish(
        text(
            "The draft goes on until the chooser has no legal take. Tokens nobody took go back to their owners; "
            "if the draft ends with a player other than the starter, the starter gives him one token so that "
            "everyone ends with as many tokens as before (N2.7 to N2.9).",
            "On continue jusqu'à ce que celui qui doit prendre ne le puisse plus. Les jetons que personne n'a pris "
            "reviennent à leurs propriétaires ; si cela s'arrête sur un autre joueur que celui qui a commencé, ce "
            "dernier lui donne un jeton, et chacun finit avec autant de jetons qu'avant (N2.7 à N2.9).",
        ),
        ["trade"],
    )


def buy() -> tuple[Lesson, dict[str, Any]]:
    state = buy_turn_of_rome()
    lesson = Lesson(
        state.game,
        state,
        ROME,
        "buy_place",
        text("Buying and placing", "Acheter et placer"),
        text(
            "You play Rome, and this is your buy turn. Behind your screen: six goods of six kinds and three "
            "taxes. A cost of 3 is paid with 3 goods of 3 different kinds, or with 3 taxes, never a mix (N0.8.1).",
            "Vous jouez Rome, et c'est votre tour d'achat. Derrière votre paravent : six biens de six types et "
            "trois impôts. Un coût de 3 se paie avec 3 biens de 3 types différents, ou avec 3 impôts, jamais un "
            "mélange (N0.8.1).",
        ),
    )
    lesson.step(
        ["buy marker sicilia"],
        text(
            "Sicilia is neutral, and your trireme in the Mare Tyrrhenum links it to your empire, so you may place "
            "an influence marker there for 3 (N3.4, N0.6.2). It becomes yours at once.",
            "La Sicilia est neutre, et votre trirème en Mare Tyrrhenum la relie à votre empire : vous pouvez y "
            "placer un marqueur d'influence pour 3 (N3.4, N0.6.2). Elle est à vous aussitôt.",
        ),
        text("Click Sicilia to buy a marker there.", "Cliquez sur la Sicilia pour y acheter un marqueur."),
        ["N3.2", "N3.4", "N0.6"],
    )
    pay_tax = text("Pay with a tax.", "Payez avec un impôt.")
    tax_hint = text("Click a tax.", "Cliquez sur un impôt.")
    lesson.step(
        ["pay tax"],
        text(
            "Pay this one with your three taxes, one at a time, and keep your goods for the next purchase.",
            "Payez celui-ci avec vos trois impôts, un à la fois, et gardez vos biens pour l'achat suivant.",
        ),
        tax_hint,
        ["N0.8"],
    )
    lesson.step(["pay tax"], pay_tax, tax_hint, ["N0.8"])
    lesson.step(["pay tax"], pay_tax, tax_hint, ["N0.8"])
    lesson.step(
        ["buy legion latium"],
        text(
            "Now buy a legion for Latium, your capital's province: 3 more. Units count on the Military track, "
            "caravans and markets on Trade, cities, capitals and temples on Culture (N0.7).",
            "Achetez maintenant une légion pour le Latium, la province de votre capitale : 3 de plus. Les unités "
            "comptent sur la piste militaire, caravanes et marchés sur le commerce, cités, capitales et temples "
            "sur la culture (N0.7).",
        ),
        text("Click Latium to buy a legion there.", "Cliquez sur le Latium pour y acheter une légion."),
        ["N3.6", "N0.7"],
    )
    lesson.step(
        ["pay metal"],
        text(
            "Pay with three goods of three different kinds: first your metal.",
            "Payez avec trois biens de trois types différents : d'abord votre métal.",
        ),
        text("Pay with your metal.", "Payez avec votre métal."),
        ["N0.8"],
    )
    lesson.step(
        ["pay wine"],
        text("Then your wine: a second kind.", "Puis votre vin : un deuxième type."),
        text("Pay with your wine.", "Payez avec votre vin."),
        ["N0.8"],
    )
    lesson.step(
        ["pay sheep"],
        text("And your sheep, a third kind.", "Et votre mouton, un troisième type."),
        text("Pay with your sheep.", "Payez avec votre mouton."),
        ["N0.8"],
    )
    lesson.step(
        ["end"],
        text(
            "End your turn. Goods do not keep: those you did not spend go back to the supply, and you keep at "
            "most 2 taxes (N3.13). Then the Culture leader names the next player to buy (N3.1).",
            "Finissez votre tour. Les biens ne se gardent pas : ceux que vous n'avez pas dépensés retournent à la "
            "réserve, et vous gardez au plus 2 impôts (N3.13). Puis le chef de la culture désigne le prochain "
            "acheteur (N3.1).",
        ),
        text("Click End turn.", "Cliquez sur Finir le tour."),
        ["N3.13", "N3.1"],
    )
    return lesson, lesson.finish(
        text(
            "Buildings go on empty slots of your provinces, triremes in seas next to them, and markets and "
            "temples cost 6 (N3.3, N3.5, N3.7).",
            "Les bâtiments vont sur les emplacements vides de vos provinces, les trirèmes dans les mers voisines, "
            "et marchés et temples coûtent 6 (N3.3, N3.5, N3.7).",
        ),
        ["buy_place"],
    )


def _military_board(pos: dict[str, Any]) -> None:
    pos["triremes"]["mare_tyrrhenum"] = [2, 0, 0]
    pos["legions"]["latium"] = [2, 0, 0]


def military() -> tuple[Lesson, dict[str, Any]]:
    state = edited(moment(lambda s: s.d["stage"] == "mil_order" and s.d["round"] == 1), _military_board)
    lesson = Lesson(
        state.game,
        state,
        ROME,
        "military",
        text("The Military phase", "La phase militaire"),
        text(
            "You play Rome and hold the Military title: you say who acts, one player after another (N0.10, "
            "N4.1). You have two legions in Latium and two triremes in the Mare Tyrrhenum; Carthage has one "
            "legion in Africa and a trireme in the Mare Sardum.",
            "Vous jouez Rome et tenez le titre militaire : vous désignez qui agit, un joueur après l'autre "
            "(N0.10, N4.1). Vous avez deux légions au Latium et deux trirèmes en Mare Tyrrhenum ; Carthage a une "
            "légion en Africa et une trirème en Mare Sardum.",
        ),
        chance=["roll 6", "roll 1", "roll 4,5,6", "roll 2"],
    )
    lesson.step(
        ["next 0"],
        text("Name yourself to act first.", "Désignez-vous pour agir en premier."),
        text("Click Rome.", "Cliquez sur Rome."),
        ["N0.10", "N4.1"],
    )
    lesson.step(
        ["row mare_tyrrhenum mare_sardum"],
        text(
            "A turn goes triremes, sea battles, legions, land battles (N4.2). Move one trireme to the Mare "
            "Sardum (N4.4); the other stays, so the two seas form a chain from Latium to Africa.",
            "Un tour suit cet ordre : trirèmes, batailles navales, légions, batailles terrestres (N4.2). Déplacez "
            "une trirème en Mare Sardum (N4.4) ; l'autre reste, et les deux mers forment une chaîne du Latium à "
            "l'Africa.",
        ),
        text("Move a trireme to the Mare Sardum.", "Déplacez une trirème en Mare Sardum."),
        ["N4.2", "N4.4"],
    )
    lesson.step(
        ["done"],
        text("That is all for triremes.", "C'est tout pour les trirèmes."),
        text("Click Done.", "Cliquez sur Terminé."),
        ["N4.4"],
    )
    lesson.step(
        ["seabattle mare_sardum 2"],
        text(
            "Your trireme shares the Mare Sardum with Carthage's: you may fight there (N4.5). Each side rolls a "
            "die per unit; every 5 points of its total is a hit, and each hit removes an enemy unit (N4.7).",
            "Votre trirème partage la Mare Sardum avec celle de Carthage : vous pouvez y livrer bataille (N4.5). "
            "Chaque camp lance un dé par unité ; chaque tranche de 5 points de son total est une touche, et "
            "chaque touche retire une unité ennemie (N4.7).",
        ),
        text("Attack Carthage in the Mare Sardum.", "Attaquez Carthage en Mare Sardum."),
        ["N4.5", "N4.7"],
    )
    lesson.step(
        ["sail latium africa"],
        text(
            "6 against 1: Carthage's trireme is sunk. Now carry a legion from Latium to Africa along your chain "
            "of triremes (N4.6.2).",
            "6 contre 1 : la trirème de Carthage est coulée. Transportez maintenant une légion du Latium en "
            "Africa le long de votre chaîne de trirèmes (N4.6.2).",
        ),
        text("Sail a legion from Latium to Africa.", "Transportez une légion du Latium en Africa."),
        ["N4.6"],
    )
    lesson.step(
        ["sail latium africa"],
        text(
            "Send the second legion the same way. Your legions will then share Africa with Carthage's, and the "
            "battle there is compulsory (N4.8).",
            "Envoyez la seconde légion par le même chemin. Vos légions partageront alors l'Africa avec celle de "
            "Carthage, et la bataille y est obligatoire (N4.8).",
        ),
        text("Sail the other legion to Africa.", "Transportez l'autre légion en Africa."),
        ["N4.6", "N4.8"],
    )
    lesson.step(
        lambda s: [a for a in s.legal_actions() if a.split()[0] in ("pillage", "occupy", "convert")],
        text(
            "Caesar gave you a third die, as he does whenever Rome attacks on land (N4.7.2). 15 against 2: "
            "Carthage's legion falls and you are alone in a Carthaginian province, so you conquer "
            "it (N4.10.2). Choose one: Pillage a building for its goods or tax, Occupy buildings to control them, "
            "or Convert the province, which becomes yours at your next Military phase (N4.11, N4.3).",
            "César vous a donné un troisième dé, comme chaque fois que Rome attaque sur terre (N4.7.2). "
            "15 contre 2 : la légion de Carthage tombe et vous êtes seul dans une province carthaginoise : vous "
            "la conquérez (N4.10.2). Choisissez : Piller un bâtiment pour son bien ou son impôt, Occuper des "
            "bâtiments pour les contrôler, ou Convertir la province, qui sera à vous à votre prochaine phase "
            "militaire (N4.11, N4.3).",
        ),
        text("Choose Pillage, Occupy or Convert.", "Choisissez Piller, Occuper ou Convertir."),
        ["N4.7", "N4.10", "N4.11"],
    )
    return lesson, lesson.finish(
        text(
            "That was one Military turn. The Military leader then names the next player, until everyone has "
            "acted (N4.1).",
            "C'était un tour militaire. Le chef militaire désigne ensuite le joueur suivant, jusqu'à ce que tous "
            "aient agi (N4.1).",
        ),
        ["military"],
    )


def titles() -> tuple[Lesson, dict[str, Any]]:
    state = moment(lambda s: s.d["stage"] == "claim_tie")
    lesson = Lesson(
        state.game,
        state,
        CARTHAGE,
        "titles",
        text("Victory by the three titles", "Victoire par les trois titres"),
        text(
            "The Claim phase: each title goes to the player highest on its track (N5.1). You play Carthage and "
            "are highest on the Culture and Military tracks. On the Trade track you are tied with Rome, and you "
            "held the Trade title, so you choose who takes it among the tied players (N5.2).",
            "L'attribution des titres : chaque titre va au joueur le plus haut sur sa piste (N5.1). Vous jouez "
            "Carthage et êtes le plus haut sur les pistes de la culture et militaire. Sur la piste du commerce "
            "vous êtes à égalité avec Rome, et vous teniez le titre du commerce : vous choisissez qui le prend "
            "parmi les joueurs à égalité (N5.2).",
        ),
    )
    lesson.step(
        ["title trade 2"],
        text(
            "A player who holds all three titles at the end of the Claim phase wins (N6.4). Keep the Trade title.",
            "Un joueur qui tient les trois titres à la fin de l'attribution des titres gagne (N6.4). Gardez le titre "
            "du commerce.",
        ),
        text("Give the Trade title to Carthage.", "Donnez le titre du commerce à Carthage."),
        ["N5.2", "N6.4"],
    )
    assert lesson.state.is_terminal() and lesson.state.returns()[CARTHAGE] == 1.0
    return lesson, lesson.finish(
        text(
            "Carthage holds the three titles and wins.",
            "Carthage tient les trois titres et gagne.",
        ),
        ["claim", "titles"],
    )


def _capitals_board(pos: dict[str, Any]) -> None:
    pos["markers"].update(sicilia=ROME, asia=ROME)
    pos["buildings"].update(sicilia=["legendary_city:syracusae"], asia=["legendary_city:troia"])
    pos["legions"] = {"latium": [1, 0, 0], "sicilia": [1, 0, 0], "achea": [0, 1, 0]}
    pos["triremes"]["mare_sardum"] = [1, 0, 1]
    pos["stage"] = "mil_march"
    pos["mil"].update(done=[GREECE, CARTHAGE], active=ROME)


def capitals() -> tuple[Lesson, dict[str, Any]]:
    state = edited(moment(lambda s: s.d["stage"] == "mil_order" and s.d["round"] == 1), _capitals_board)
    lesson = Lesson(
        state.game,
        state,
        ROME,
        "capitals",
        text("Victory by four capitals", "Victoire par quatre capitales"),
        text(
            "A player who controls four buildings that are capitals or legendary cities, in any mix, wins "
            "(N6.3). You play Rome and control three: your capital in Latium, Syracusae in Sicilia and Troia in "
            "Asia. Carthage's capital in Africa has no legion to guard it.",
            "Un joueur qui contrôle quatre bâtiments qui sont des capitales ou des cités légendaires, dans "
            "n'importe quel mélange, gagne (N6.3). Vous jouez Rome et en contrôlez trois : votre capitale au "
            "Latium, Syracusae en Sicilia et Troia en Asia. La capitale de Carthage en Africa n'a aucune légion "
            "pour la garder.",
        ),
    )
    lesson.step(
        ["sail sicilia africa"],
        text(
            "Carry your legion from Sicilia to Africa: your trireme in the Mare Sardum touches both (N4.6.2).",
            "Transportez votre légion de la Sicilia en Africa : votre trirème en Mare Sardum touche les deux "
            "(N4.6.2).",
        ),
        text("Sail the legion from Sicilia to Africa.", "Transportez la légion de la Sicilia en Africa."),
        ["N4.6"],
    )
    lesson.step(
        ["done"],
        text(
            "End your moves. Your legion is alone in a province of Carthage's: with no battle to fight, you "
            "conquer it (N4.10.5, R15).",
            "Terminez vos déplacements. Votre légion est seule dans une province de Carthage : sans bataille à "
            "livrer, vous la conquérez (N4.10.5, R15).",
        ),
        text("Click Done.", "Cliquez sur Terminé."),
        ["N4.10"],
    )
    lesson.step(
        ["occupy capital"],
        text(
            "Occupy the capital: your legion stands on it and you control it, which counts for the capitals "
            "victory (N4.11.3, N6.3). That makes four.",
            "Occupez la capitale : votre légion s'y tient et vous la contrôlez, ce qui compte pour la victoire "
            "par les capitales (N4.11.3, N6.3). Cela fait quatre.",
        ),
        text("Choose Occupy, on the capital.", "Choisissez Occuper, sur la capitale."),
        ["N4.11", "N6.3"],
    )
    assert lesson.state.is_terminal() and lesson.state.returns()[ROME] == 1.0
    return lesson, lesson.finish(
        text("Rome controls four capitals and wins.", "Rome contrôle quatre capitales et gagne."),
        ["capitals"],
    )


def pyramids() -> tuple[Lesson, dict[str, Any]]:
    state = edited(buy_turn_of_rome(), lambda pos: pos["res"].__setitem__(ROME, {"tax": 12}))
    lesson = Lesson(
        state.game,
        state,
        ROME,
        "pyramids",
        text("Victory by the Pyramids", "Victoire par les Pyramides"),
        text(
            "The Pyramids cost 12, and whoever buys them wins at once (N3.11, N6.1). You play Rome, it is your "
            "buy turn, and behind your screen are 12 taxes.",
            "Les Pyramides coûtent 12, et qui les achète gagne aussitôt (N3.11, N6.1). Vous jouez Rome, c'est "
            "votre tour d'achat, et derrière votre paravent il y a 12 impôts.",
        ),
    )
    lesson.step(
        ["buy pyramids"],
        text("Buy the Pyramids.", "Achetez les Pyramides."),
        text("Click the Pyramids.", "Cliquez sur les Pyramides."),
        ["N3.11"],
    )
    pay = text("Pay another tax (N0.8.1).", "Payez un autre impôt (N0.8.1).")
    hint = text("Click a tax.", "Cliquez sur un impôt.")
    lesson.step(
        ["pay tax"],
        text(
            "Pay the 12 taxes, one at a time; every payment is shown to all (N0.8.1, R8).",
            "Payez les 12 impôts, un à la fois ; tout paiement est montré à tous (N0.8.1, R8).",
        ),
        hint,
        ["N0.8", "R8"],
    )
    while not lesson.state.is_terminal():
        lesson.step(["pay tax"], pay, hint, ["N0.8", "N6.1"])
    assert lesson.state.returns()[ROME] == 1.0
    return lesson, lesson.finish(
        text("The Pyramids are Rome's: Rome wins.", "Les Pyramides sont à Rome : Rome gagne."), ["pyramids"]
    )


def _four_tiles(pos: dict[str, Any]) -> None:
    extra = pos["facedown"][:3]
    pos["facedown"] = pos["facedown"][3:]
    pos["tiles"][ROME] = pos["tiles"][ROME] + extra
    pos["res"][ROME] = {"tax": 12}


def five_tiles() -> tuple[Lesson, dict[str, Any]]:
    state = edited(buy_turn_of_rome(), _four_tiles)
    tile = state.to_position()["display"][0]
    cost, rnd = cost_tile(state.d, ROME), state.d["round"]
    lesson = Lesson(
        state.game,
        state,
        ROME,
        "five_tiles",
        text("Victory by five heroes and wonders", "Victoire par cinq héros et merveilles"),
        text(
            "A player who comes to own five hero and wonder tiles, his starting hero included, wins at once "
            "(N6.2). You play Rome and own four: Caesar and three more. It is your buy turn and you have 12 "
            f"taxes, enough for any tile: in round {rnd} a hero or wonder costs {cost}, and the cost rises "
            "with the rounds (2.8, R25).",
            "Un joueur qui vient à posséder cinq tuiles de héros et de merveilles, son héros de départ compris, "
            "gagne aussitôt (N6.2). Vous jouez Rome et en possédez quatre : César et trois autres. C'est votre "
            "tour d'achat et vous avez 12 impôts, de quoi payer n'importe quelle tuile : au tour "
            f"{rnd}, un héros ou une merveille coûte {cost}, et le coût augmente avec les tours (2.8, R25).",
        ),
    )
    lesson.step(
        [a for a in lesson.state.legal_actions() if a.startswith("buy tile ")],
        text(
            "Buy any tile of the display: its ability works from the moment it is yours (N3.10.1, R27).",
            "Achetez n'importe quelle tuile du présentoir : son pouvoir agit dès qu'elle est à vous (N3.10.1, R27).",
        ),
        text("Click a tile in the display.", "Cliquez sur une tuile du présentoir."),
        ["N3.10"],
        play=f"buy tile {tile}",
    )
    pay = text("Pay another tax (N0.8.1).", "Payez un autre impôt (N0.8.1).")
    hint = text("Click a tax.", "Cliquez sur un impôt.")
    lesson.step(
        ["pay tax"],
        text(
            "Pay for the tile with taxes, one at a time; with the last one it is yours.",
            "Payez la tuile en impôts, un à la fois ; avec le dernier, elle est à vous.",
        ),
        hint,
        ["N0.8", "N3.10"],
    )
    while not lesson.state.is_terminal():
        lesson.step(["pay tax"], pay, hint, ["N0.8", "N6.2"])
    assert lesson.state.returns()[ROME] == 1.0
    assert len(lesson.steps) == 1 + cost  # the tile, then one tax a step
    return lesson, lesson.finish(
        text("Rome owns five tiles and wins.", "Rome possède cinq tuiles et gagne."), ["five_tiles"]
    )


def main() -> None:
    lessons = [production(), trade(), buy(), military(), titles(), capitals(), pyramids(), five_tiles()]
    write(GAME, PLAYERS, OPTIONS, COVERS, lessons)


if __name__ == "__main__":
    main()
