"""``ziggurat play``: play a game in the terminal against bots (or watch bots play).

The driver owns the seeded RNGs, exactly as :func:`ziggurat.bots.play_game` does, so a game of
bots only is the same game ``simulate`` plays with that seed. A human seat sees the board drawn
from ``state.view(seat)`` only, and every other step is told as a sentence redacted for that
seat. Input is read line by line (``typer.prompt``), so a game can be driven through a pipe.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

import ziggurat
from ziggurat.bots import Bot
from ziggurat.cli.common import (
    GAME_HELP,
    HUMAN,
    OPTION_HELP,
    PLAYERS_HELP,
    SEAT_ORDER_HELP,
    GameUI,
    UsageError,
    close_bots,
    console,
    game_ui,
    handle_usage_errors,
    load_game,
    make_bots,
    parse_options,
    parse_players,
)
from ziggurat.engine.contract import CHANCE, Game, State, sample_chance
from ziggurat.engine.messages import LANGS, message, render

LANG_HELP = f"Language of the game's sentences ({', '.join(LANGS)})."


def check_lang(lang: str) -> str:
    """``lang`` if the message catalogues have it, else a usage error."""
    if lang not in LANGS:
        raise UsageError(f"--lang {lang}: languages are {', '.join(LANGS)}")
    return lang


class Session:
    """One terminal game: seats, RNGs, the state and what the narrator is told."""

    def __init__(
        self, game: Game, kinds: list[str], bots: list[Bot | None], seed: int, con: Console, lang: str = "en"
    ) -> None:
        self.game = game
        self.lang = lang
        self.kinds = kinds
        self.bots = bots
        self.con = con
        self.ui: GameUI = game_ui(game.game_id)
        self.state: State = game.new_initial_state()
        self.chance_rng = random.Random(f"{seed}/chance")
        self.bot_rngs = [random.Random(f"{seed}/seat{i}") for i in range(game.num_players)]
        humans = [i for i, k in enumerate(kinds) if k == HUMAN]
        # Steps are told from the only human's seat; hot-seat games and bot games use a spectator.
        self.narrator: int | None = humans[0] if len(humans) == 1 else None
        self.roles = list(kinds)
        self.legend_shown = False

    # --- output -------------------------------------------------------------------------
    def say(self, msg: str) -> str:
        """``msg`` (a message, e.g. one of the engine's ``cli.*``) in the player's language."""
        return render(msg, self.lang)

    def board(self, seat: int | None) -> None:
        view = self.state.view(seat)
        rt = self.ui.render_text
        palette = rt.palette_for(self.con.color_system)
        width = max(60, self.con.width)
        self.con.print(
            rt.render_board(
                view, self.roles, width, legend=not self.legend_shown, palette=palette, lang=self.lang
            )
        )
        self.legend_shown = True

    def player(self, seat: int, alone: bool = False) -> Any:
        """How the game names ``seat`` now (colour, symbol, empire), as a message."""
        return self.ui.render_text.seat_player(self.state.view(self.narrator), seat, alone)

    def numbered(self) -> list[str]:
        """The legal actions in display order (grouped by kind); the user picks by number."""
        return [a for _, acts in self.ui.describe.action_groups(self.state.legal_actions()) for a in acts]

    def show_actions(self) -> None:
        legal = self.state.legal_actions()
        # a game's terminal board may say more of an action (a card's text, a purchase's cost)
        annotate = getattr(self.ui.render_text, "action_notes", None)
        notes = annotate(self.state, legal) if annotate is not None else {}
        n = 0
        for title, acts in self.ui.describe.action_groups(legal):
            self.con.print(Text(render(title, self.lang), style="bold"))
            cells = []
            for action in acts:
                n += 1
                cell = Text.assemble((f"{n:>3} ", "cyan"), action)
                if action in notes:
                    cell.append(" — " + render(notes[action], self.lang), style="dim")
                cells.append(cell)
            self.con.print(Columns(cells, padding=(0, 2)))

    def tell(self, events: list[Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        for text, auto in self.ui.describe.describe_step(events, before, after):
            self.con.print(
                Text(("  · " if auto else "  • ") + render(text, self.lang), style="dim" if auto else "")
            )

    # --- the loop -------------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the end; False if a human quit."""
        describe = self.ui.describe
        while not self.state.is_terminal():
            who = self.state.current_player()
            before = self.state.view(self.narrator)
            mark = describe.log_mark(self.state)
            bot = self.bots[who] if who >= 0 else None
            if who == CHANCE:
                self.state.apply(sample_chance(self.state, self.chance_rng))
            elif bot is not None:
                view = self.state.view(who) if bot.needs_view else None
                self.state.apply(bot.choose(view, self.state.legal_actions(), self.bot_rngs[who]))
            elif not self.human_turn(who):
                return False
            after = self.state.view(self.narrator)
            self.tell(describe.events_since(self.state, mark), before, after)
        return True

    def human_turn(self, seat: int) -> bool:
        """Ask ``seat`` until it makes a legal decision (applied here); False on quit."""
        self.con.rule(Text(self.say(message("cli.toDecide", seat=self.player(seat))), style="bold"))
        self.board(seat)
        self.show_actions()
        while True:
            try:
                answer = typer.prompt(
                    f"{self.say(self.player(seat, alone=True))}>",
                    default="",
                    show_default=False,
                    prompt_suffix=" ",
                )
            except typer.Abort:  # end of input (Ctrl-D, or a pipe that ran dry)
                return False
            answer = answer.strip()
            if not answer:
                continue
            low = answer.lower()
            if low in ("quit", "q", "exit"):
                return False
            if low in ("help", "h", "?"):
                self.con.print(self.say(message("cli.commands")))
                self.con.print(render(self.ui.describe.NOTATION_HELP, self.lang))
                continue
            if low == "board":
                self.legend_shown = False
                self.board(seat)
                continue
            if low in ("actions", "list", "ls"):
                self.show_actions()
                continue
            if answer.isdigit():
                actions = self.numbered()
                n = int(answer)
                if not 1 <= n <= len(actions):
                    self.con.print(
                        Text(self.say(message("cli.noActionNumber", n=n, last=len(actions))), style="red")
                    )
                    continue
                answer = actions[n - 1]
            try:
                self.state.apply(answer)
            except ziggurat.ZigguratError as exc:
                reason = exc.args[0] if exc.args and isinstance(exc.args[0], str) else str(exc)
                self.con.print(
                    Text(render(message("engine.refused", reason=reason), self.lang), style="bold red")
                )
                continue
            return True

    def finish(self, completed: bool) -> None:
        plies = len(self.state.history())
        if not completed:
            # a new line first: the prompt's line is still open after Ctrl-D, or a "quit" read
            # from a pipe (not echoed)
            self.con.print()
            self.con.print(self.say(message("cli.gameLeft", plies=plies)))
            return
        self.con.rule(Text(self.say(message("cli.gameOver")), style="bold"))
        self.board(self.narrator)
        returns = self.state.returns()
        winners = [self.player(s) for s, r in enumerate(returns) if r == max(returns) and r > 0]
        shown = str(returns)
        if winners:
            joined = self.say(message("cli.and")).join(render(w, self.lang) for w in winners)
            result = self.say(
                message("cli.wins", winners=joined, count=len(winners), plies=plies, returns=shown)
            )
        else:
            result = self.say(message("cli.noWinner", plies=plies, returns=shown))
        self.con.print(Text(result, style="bold"))


@handle_usage_errors
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help=GAME_HELP)],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="Comma-separated player kinds in seat order: human, random, heuristic or ismcts[...], "
            "e.g. human,ismcts:0.5s,heuristic. " + SEAT_ORDER_HELP + " " + PLAYERS_HELP,
        ),
    ] = "human,heuristic,heuristic",
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed for chance and for the bots.")] = 0,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Write the game record (JSON) here when the game ends or you quit."),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
) -> None:
    """Play a game in the terminal against bots.

    Each turn you see the board from your seat and a numbered list of legal actions: type a
    number or an action in notation. A refused action prints the rule that forbids it. The other
    players' moves are told as they happen. Commands: help, board, actions, quit.
    With no human seat, the bots play the game while you watch. Action notation: type help in
    the game, or see docs/mesopotamia.md, docs/mesopotamia-epochs.md and docs/mare-nostrum.md.

    Examples, one per game:

        ziggurat play mesopotamia -p human,heuristic,heuristic

        ziggurat play mesopotamia-epochs -p human,heuristic,heuristic,random --lang fr

        ziggurat play mare-nostrum -p human,ismcts:0.5s,heuristic --save game.json
    """
    kinds = parse_players(players, allow_human=True)
    game = load_game(game_id, len(kinds), parse_options(option))
    bots = make_bots(game, kinds)
    con = console()
    try:
        session = Session(game, kinds, bots, seed, con, check_lang(lang))
        seats = [message("cli.seatKind", seat=session.player(s), kind=k) for s, k in enumerate(kinds)]
        header = session.say(
            message("cli.header", game=game.title(), players=game.num_players, seed=seed, seats=seats)
        )
        con.print(Text(header, style="bold"))
        completed = session.run()
        session.finish(completed)
    finally:
        close_bots(bots)
    if save is not None:
        rec = ziggurat.record(session.state, seed=seed, players=kinds)
        try:
            save.write_text(json.dumps(rec), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot write {save}: {exc}") from exc
        con.print(session.say(message("cli.recordSaved", path=str(save))))
