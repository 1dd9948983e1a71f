"""``ziggurat replay``: step through a game record, or print its log and final board.

Ply ``k`` is the position after the record's first ``k`` actions. With ``--seat N`` the log is
the record redacted for that seat (``game.redact_record``) and the board is drawn from
``state.view(N)``; without it, from a spectator's view, so a replay never shows a secret.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.text import Text

from ziggurat.cli.common import (
    SEAT_HELP,
    GameUI,
    UsageError,
    check_seat,
    console,
    game_ui,
    handle_usage_errors,
    read_record,
    record_game,
    stdin_is_tty,
)
from ziggurat.cli.play import LANG_HELP, check_lang
from ziggurat.engine.contract import Game, State
from ziggurat.engine.errors import ZigguratError
from ziggurat.engine.messages import message, render

CHECKPOINT_EVERY = 50


class Stepper:
    """Positions and step descriptions of a record, with cached checkpoints for going back."""

    def __init__(self, game: Game, rec: dict[str, Any], seat: int | None, lang: str = "en") -> None:
        self.game = game
        self.lang = lang
        self.rec = rec
        self.seat = seat
        self.actions: list[str] = list(rec["actions"])
        self.ui: GameUI = game_ui(game.game_id)
        self.texts = self.actions
        if seat is not None:
            try:
                self.texts = list(game.redact_record(rec, seat)["actions"])
            except ValueError as exc:
                raise UsageError(f"record cannot be replayed: {exc}") from exc
        self.checkpoints: dict[int, State] = {0: game.new_initial_state()}

    @property
    def plies(self) -> int:
        return len(self.actions)

    def state_at(self, ply: int) -> State:
        """A fresh copy of the position after ``ply`` actions."""
        base = max(k for k in self.checkpoints if k <= ply)
        state = self.checkpoints[base].clone()
        for k in range(base, ply):
            self._apply(state, k)
            if (k + 1) % CHECKPOINT_EVERY == 0 and k + 1 not in self.checkpoints:
                self.checkpoints[k + 1] = state.clone()
        return state

    def _apply(self, state: State, k: int) -> None:
        try:
            state.apply(self.actions[k])
        except ZigguratError as exc:
            raise UsageError(f"record action {k + 1} ({self.actions[k]!r}) is refused: {exc}") from exc

    def step(self, state: State, k: int) -> list[tuple[str, bool]]:
        """Apply action ``k`` (0-based) to ``state`` and describe it for the seat."""
        describe = self.ui.describe
        before = state.view(self.seat)
        mark = describe.log_mark(state)
        self._apply(state, k)
        events = describe.events_since(state, mark)
        if events and not events[0][2]:
            events[0] = (events[0][0], self.texts[k], False, events[0][3])
        return [
            (render(text, self.lang), auto)
            for text, auto in describe.describe_step(events, before, state.view(self.seat))
        ]

    def board(self, con: Console, state: State, legend: bool) -> None:
        roles = [str(p) for p in self.rec.get("players") or []]
        view = state.view(self.seat)
        rt = self.ui.render_text
        palette = rt.palette_for(con.color_system)
        con.print(
            rt.render_board(view, roles, max(60, con.width), legend=legend, palette=palette, lang=self.lang)
        )


def _step_text(k: int, lines: list[tuple[str, bool]]) -> Text:
    out = Text()
    for i, (text, auto) in enumerate(lines):
        label = f"{k:>5} " if i == 0 else "      "
        out.append(label, "cyan")
        out.append(("· " if auto else "") + text + "\n", "dim" if auto else "")
    return out


def _print_step(con: Console, k: int, lines: list[tuple[str, bool]]) -> None:
    con.print(_step_text(k, lines), end="")


def _header(con: Console, stepper: Stepper, seat: int | None, lang: str) -> None:
    game, rec = stepper.game, stepper.rec
    last = stepper.state_at(stepper.plies).view(None)  # players named as the game ends (an empire)

    def name(s: int) -> Any:
        return stepper.ui.render_text.seat_player(last, s)

    players = [
        message("cli.seatKind", seat=name(s), kind=str(p)) for s, p in enumerate(rec.get("players") or [])
    ]
    result = rec.get("result")
    if result:
        best = max(result)
        winners = [render(name(s), lang) for s, r in enumerate(result) if r == best and best > 0]
        joined = render(message("cli.and"), lang).join(winners)
        outcome = (
            message("cli.replay.won", winners=joined, count=len(winners))
            if winners
            else message("cli.replay.noWinner")
        )
    else:
        outcome = message("cli.replay.unfinished")
    seen = (
        message("cli.replay.asSeat", seat=name(seat))
        if seat is not None
        else message("cli.replay.asSpectator")
    )
    header = message(
        "cli.replay.header",
        game=game.title(),
        players=players,
        seed=str(rec.get("seed")),
        plies=len(rec["actions"]),
        outcome=outcome,
        seen=seen,
    )
    con.print(Text(render(header, lang), style="bold"))


def print_all(con: Console, stepper: Stepper, upto: int) -> None:
    """Non-interactive: the log up to ``upto`` and the board there."""
    state = stepper.state_at(0)
    batch = Text()
    for k in range(upto):
        batch.append_text(_step_text(k + 1, stepper.step(state, k)))
        if k % 200 == 199:  # one print per batch: Rich's per-call overhead dominates otherwise
            con.print(batch, end="")
            batch = Text()
    con.print(batch, end="")
    con.rule(Text(render(message("cli.replay.boardAt", ply=upto), stepper.lang), style="bold"))
    stepper.board(con, state, legend=True)


def interactive(con: Console, stepper: Stepper, start: int) -> None:
    """Enter = next, b = back, a number = go to that ply, q = quit."""
    ply = start
    legend = True
    while True:
        state = stepper.state_at(ply)
        con.rule(
            Text(
                render(message("cli.replay.plyOf", ply=ply, plies=stepper.plies), stepper.lang), style="bold"
            )
        )
        stepper.board(con, state, legend)
        legend = False
        if ply > 0:
            _print_step(con, ply, stepper.step(stepper.state_at(ply - 1), ply - 1))
        try:
            answer = typer.prompt(
                render(message("cli.replay.prompt"), stepper.lang),
                default="",
                show_default=False,
                prompt_suffix=" > ",
            )
        except typer.Abort:  # end of input (Ctrl-D, or a pipe that ran dry)
            return
        answer = answer.strip().lower()
        if answer in ("q", "quit", "exit"):
            return
        if answer == "":
            if ply < stepper.plies:
                ply += 1
            else:
                con.print(render(message("cli.replay.end"), stepper.lang))
        elif answer in ("b", "back"):
            ply = max(0, ply - 1)
        elif answer.isdigit() and int(answer) <= stepper.plies:
            ply = int(answer)
        else:
            con.print(
                Text(
                    render(
                        message("cli.replay.unknown", answer=repr(answer), plies=stepper.plies), stepper.lang
                    ),
                    style="red",
                )
            )


@handle_usage_errors
def replay(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A game record (JSON), e.g. from 'simulate --out'.")
    ],
    seat: Annotated[
        int | None, typer.Option("--seat", help="Show the game as this seat saw it. " + SEAT_HELP)
    ] = None,
    ply: Annotated[int | None, typer.Option("--ply", help="Start at (or, piped, stop at) this ply.")] = None,
    interactive_mode: Annotated[
        bool | None,
        typer.Option(
            "--interactive/--no-interactive",
            help="Step through the record (default when stdin is a terminal) or print the whole log.",
        ),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help=LANG_HELP)] = "en",
) -> None:
    """Step through a game record: Enter = next ply, b = back, a number = go to that ply, q = quit.

    When stdin is not a terminal, prints the whole log and the final board instead (up to --ply
    when given). With --seat N the record is redacted to what seat N saw, and the board is that
    seat's view; without it, a spectator's view. Records of all three games replay alike:

        ziggurat replay runs/game-00001.json --seat 1 --lang fr
    """
    rec = read_record(file)
    game = record_game(rec)
    check_seat(game, seat)
    stepper = Stepper(game, rec, seat, check_lang(lang))
    if ply is not None and not 0 <= ply <= stepper.plies:
        raise UsageError(f"--ply {ply}: the record has plies 0 to {stepper.plies}")
    con = console()
    _header(con, stepper, seat, stepper.lang)
    if interactive_mode is None:
        interactive_mode = stdin_is_tty()
    if interactive_mode:
        interactive(con, stepper, ply or 0)
    else:
        print_all(con, stepper, stepper.plies if ply is None else ply)
