"""Reliability harness: no payload the server sends leaks a secret.

Runs a real server in-process (uvicorn on 127.0.0.1, a free port, a temporary SQLite
database, bots without delay), creates tables of each game at every player count with only
human seats (so every seat has a token and a socket) and one spectator socket per table, and
plays them to their end with scripted clients that choose random legal actions from their own
``legal`` list (seeded), many tables at once. While a seat is to move (the table is still) it
also fetches, now and then, every HTTP payload that carries game information: the record, the
replay at this ply and at an earlier one, ``/explain`` (the seat to move and another seat), the
lookup listing and the table's facts; at the end the record and replay of every viewer.

Each finished table is rebuilt offline from its stored actions and every payload is checked
against what its viewer may know (``leakcheck.py``: views equal the engine's, legal lists go to
the seat to move only, logs equal the server's LogWriter's, and a secret scan that does not
trust the game's views: hidden fields blank, a substitution check with ``sample_state``, no log
entry or record action naming another seat's secret). First, unless ``--plant none``, the
harness plants each kind of leak in the running server (or in a game's view or log) and plays
a table of each game with it: every planted leak must be reported.

    .venv/bin/python benchmarks/reliability/leaks.py [--games 1000] [--game mesopotamia]
        [--players 3] [--tables 8] [--seed 1] [--plant all|none|KIND ...] [--fresh]

Each finished game of the real run is appended as one JSON line to
``benchmarks/results/partial/secrets-<game>.jsonl`` (``--results``) as it ends, with the
commit of the code that checked it: the same command run again plays only the games that file
lacks, so several runs add up to ``--games``, and a run stopped in any way (Ctrl-C, SIGTERM,
SIGKILL) loses only the games in flight. ``--fresh`` starts the files over. The planted runs
are played every time and are not written.

Prints, per game: games in the file, payloads checked per viewer kind (seat, spectator), leaks
found, planted leaks caught. Exits 1 on any leak in the file, or if a planted leak was
missed. Speed figures are printed, never checked.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this folder goes to the end of the path, after the standard library, so
# that no harness module can hide one of the library's.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE] + [str(_HERE)]

import argparse  # noqa: E402
import asyncio  # noqa: E402
import contextlib  # noqa: E402
import dataclasses  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

import leakcheck  # noqa: E402

GAMES: dict[str, tuple[int, ...]] = {
    "mesopotamia": (2, 3, 4),
    "mesopotamia-epochs": (2, 3, 4, 5),
    "mare-nostrum": (3, 4, 5),
}
"""Every game at every player count."""


@dataclass
class Settings:
    """What a run plays and how often it probes the HTTP payloads."""

    meso_rounds: int | None = 6
    mn_rounds: int | None = 3
    http_every: int = 12
    substitute_every: int = 1
    stop_at: float | None = None  # time.monotonic() after which no new table is started

    def options(self, game_id: str) -> dict[str, Any]:
        if game_id == "mesopotamia" and self.meso_rounds:
            return {"round_limit": self.meso_rounds}
        if game_id == "mare-nostrum" and self.mn_rounds:
            return {"max_rounds": self.mn_rounds}
        return {}


@dataclass
class GameReport:
    """The figures of one game over a run."""

    games: int = 0
    plies: int = 0
    checked: dict[str, int] = field(default_factory=dict)
    leaks: list[leakcheck.Leak] = field(default_factory=list)
    planted: dict[str, list[str]] = field(default_factory=dict)  # plant -> the kinds of leak found
    cpu: float = 0.0
    check_cpu: float = 0.0  # of which checking the payloads
    wall: float = 0.0

    def add(self, checker: leakcheck.Checker, plies: int) -> None:
        self.games += 1
        self.plies += plies
        for k, n in checker.checked.items():
            self.checked[k] = self.checked.get(k, 0) + n
        self.leaks += checker.leaks

    def payloads(self, kind: str) -> int:
        """Payloads checked, sent to a ``seat`` or a ``spectator`` (a whole log counts apart)."""
        return sum(n for k, n in self.checked.items() if k.endswith("/" + kind) and not k.startswith("log/"))


RESULTS = _HERE.parent / "results" / "partial"
"""Where each game's finished games are appended (``secrets-<game>.jsonl``)."""


def code_commit() -> str:
    """The commit of the code that checks (``+changes`` when the harness or the server differ
    from it), or ``unknown`` outside a git checkout."""
    import subprocess

    root = _HERE.parents[1]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", "src", "benchmarks/reliability"],
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if changed else "")


class Journal:
    """The finished games of one game, one JSON line each, appended (and synced) as each game
    ends: a run with the same arguments plays only the games the file does not hold, and the
    report sums the file. A line holds the arguments that decide the games (``key``), the
    game's index, its player count and seed, the commit of the code that checked it, its plies,
    the payloads checked by kind, its leaks and its CPU seconds. A run stopped in any way loses
    only the games in flight; a line cut short by a kill is dropped when the file is opened."""

    def __init__(self, path: Path, key: dict[str, Any], fresh: bool = False) -> None:
        import fcntl

        self.path = path
        self.key = key
        self.commit = code_commit()
        path.parent.mkdir(parents=True, exist_ok=True)
        self.file = open(path, "a+b")  # noqa: SIM115  (appends go to the end, whatever was read)
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.close()
            raise SystemExit(f"{path} is in use by another run") from None
        if fresh:
            self.file.truncate(0)
        self.file.seek(0)
        data = self.file.read()
        whole = data[: data.rfind(b"\n") + 1]
        if len(whole) != len(data):  # the last line was cut short: its game is played again
            self.file.truncate(len(whole))
        self.file.seek(0, 2)
        self.lines: list[dict[str, Any]] = []
        self.other = 0  # lines of runs with other arguments (not counted)
        for raw in whole.splitlines():
            line = json.loads(raw)
            if line.get("key") == key:
                self.lines.append(line)
            else:
                self.other += 1
        self.done = {line["index"] for line in self.lines}

    def close(self) -> None:
        self.file.close()

    def append(self, line: dict[str, Any]) -> None:
        import os

        line = {"key": self.key, "commit": self.commit, **line}
        self.file.write((json.dumps(line, sort_keys=True) + "\n").encode())
        self.file.flush()
        os.fsync(self.file.fileno())
        self.lines.append(line)
        self.done.add(line["index"])

    def report(self) -> GameReport:
        """The figures of every game in the file (with these arguments)."""
        report = GameReport()
        for line in self.lines:
            report.games += 1
            report.plies += line["plies"]
            for k, n in line["checked"].items():
                report.checked[k] = report.checked.get(k, 0) + n
            report.leaks += [leakcheck.Leak(**leak) for leak in line["leaks"]]
            report.cpu += line["cpu"]
            report.check_cpu += line["check_cpu"]
            report.wall += line["wall"]
        return report


class ServerThread:
    """uvicorn serving ``app`` on 127.0.0.1 (a free port) in a background thread."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        from ziggurat.cli.serve import WS_MAX_SIZE

        config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=WS_MAX_SIZE)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="secrets-server", daemon=True)

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 60
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    @property
    def port(self) -> int:
        port: int = self.server.servers[0].sockets[0].getsockname()[1]
        return port

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


ACCOUNT_TABLES = 100
"""Tables saved to one account before the next is signed up."""


class Server:
    """The server app in-process: uvicorn in a thread on 127.0.0.1 (a free port)."""

    def __init__(self, directory: str, url: str | None = None) -> None:
        from ziggurat.server import create_app

        url = url or f"sqlite:///{Path(directory) / 'secrets.db'}"
        self.app = create_app(
            url, bot_delay=0.0, static_dir=Path(directory) / "no-client", creation_limit=None, smtp=None
        )
        self.thread = ServerThread(self.app)
        self._account: dict[str, str] | None = None
        self._account_tables = 0
        self._account_lock = threading.Lock()

    def __enter__(self) -> Server:
        self.thread.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.__exit__(*exc)

    @property
    def port(self) -> int:
        return self.thread.port

    def account(self) -> dict[str, str]:
        """The headers of an account on this server (its session cookie and CSRF token): each
        table saves its first seat to it, and its My games listing is checked. A new account
        every ``ACCOUNT_TABLES`` tables, so that the listing (every table saved) does not grow
        with the length of the run; the same one while the server refuses more sign-ups from
        this address (429)."""
        import httpx

        with self._account_lock:
            self._account_tables += 1
            if self._account is None:
                self._account, self._account_tables = self._sign_up(), 1
            elif self._account_tables > ACCOUNT_TABLES:
                with contextlib.suppress(httpx.HTTPStatusError):
                    self._account = self._sign_up()
                self._account_tables = 1
            return self._account

    def _sign_up(self) -> dict[str, str]:
        import httpx

        name = f"leakcheck{random.randrange(10**6)}r{random.randrange(10**6)}"
        password = f"{random.getrandbits(64):x}-harness"
        with httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=120) as http:
            answer = http.post("/api/account/signup", json={"name": name, "password": password})
            answer.raise_for_status()
            cookie = answer.cookies.get("ziggurat_session")
        return {"Cookie": f"ziggurat_session={cookie}", "X-CSRF-Token": answer.json()["csrf"]}

    def stored(self, table_id: str) -> Any:
        """The table as stored (its seed, options and every action, chance included)."""
        return self.app.state.manager.store.load_table(table_id)


@dataclass
class Played:
    """Every payload one table's viewers received."""

    table: str
    game_id: str
    players: int
    states: dict[leakcheck.Viewer, list[dict[str, Any]]]
    http: list[tuple[str, leakcheck.Viewer, int, Any, Any]] = field(default_factory=list)


async def _call(http: Any, method: str, url: str, **kwargs: Any) -> Any:
    """One HTTP request, sent again if the connection broke (a kept-alive connection that the
    server closed while this client was busy checking a table)."""
    import httpx

    for attempt in range(3):
        try:
            return await http.request(method, url, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def play_table(
    server: Server, http: Any, game_id: str, players: int, settings: Settings, seed: int
) -> Played:
    """Create a table of human seats, connect every seat and a spectator, play to the end."""
    import websockets

    body = {
        "game": game_id,
        "players": players,
        "options": settings.options(game_id),
        "seats": [{"kind": "human"}] * players,
        "seed": seed,
    }
    answer = (await _call(http, "POST", "/api/tables", json=body)).raise_for_status().json()
    table = answer["table"]
    tokens: dict[leakcheck.Viewer, str] = {s["seat"]: s["token"] for s in answer["seats"]}
    tokens[None] = answer["spectator_token"]
    played = Played(table, game_id, players, {v: [] for v in tokens})
    rng = random.Random(f"{seed}/client")
    url = f"ws://127.0.0.1:{server.port}/ws/{table}?token="
    account = await asyncio.to_thread(server.account)
    claim = await _call(
        http, "POST", f"/api/tables/{table}/claim", headers={**account, "X-Ziggurat-Token": tokens[0]}
    )
    claim.raise_for_status()

    async def my_games(version: int) -> None:
        games = (await _call(http, "GET", "/api/account/games", headers=account)).json()
        for entry in games:
            if entry["table"] == table:
                played.http.append(("mygames", entry["seat"], version, entry, None))

    async def probe(mover: int, version: int, legal: list[str]) -> None:
        viewers = list(tokens)
        v = viewers[version // settings.http_every % len(viewers)]
        head = {"X-Ziggurat-Token": tokens[v]}
        rec = await _call(http, "GET", f"/api/tables/{table}/record", headers=head)
        played.http.append(("record", v, version, rec.json(), None))
        for ply in (version, rng.randrange(version + 1)):
            rep = await _call(http, "GET", f"/api/tables/{table}/replay", params={"ply": ply}, headers=head)
            played.http.append(("replay", v, version, rep.json(), None))
        other = (mover + 1) % players
        for seat, action in ((mover, rng.choice(legal)), (other, rng.choice(legal))):
            exp = await _call(
                http,
                "POST",
                f"/api/tables/{table}/explain",
                json={"action": action},
                headers={"X-Ziggurat-Token": tokens[seat]},
            )
            if exp.status_code == 200:  # 429: this seat asked too often; nothing to check
                played.http.append(("explain", seat, version, exp.json(), action))
        look = await _call(http, "POST", "/api/tables/lookup", json={"tokens": list(tokens.values())})
        for entry in look.json():
            played.http.append(("lookup", entry["seat"], version, entry, None))
        facts = await _call(http, "GET", f"/api/tables/{table}", headers={"X-Ziggurat-Token": tokens[None]})
        played.http.append(("table", None, version, facts.json(), None))
        await my_games(version)

    async def client(viewer: leakcheck.Viewer, ws: Any) -> None:
        acted = -1
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") != "state":
                continue
            played.states[viewer].append(msg)
            if msg["status"] == "over":
                return
            if viewer is not None and msg["legal"] and msg["version"] > acted:
                acted = msg["version"]  # the table waits for this seat: a still moment to probe
                if acted % settings.http_every == 0:
                    await probe(viewer, acted, msg["legal"])
                action = msg["legal"][rng.randrange(len(msg["legal"]))]
                await ws.send(json.dumps({"type": "action", "action": action}))

    async with contextlib.AsyncExitStack() as stack:
        # without permessage-deflate: the same messages, and neither side spends CPU compressing;
        # a patient opening handshake, since the harness is meant to run niced on a busy machine
        sockets = {
            v: await stack.enter_async_context(
                websockets.connect(
                    url + tokens[v], max_size=None, ping_interval=None, compression=None, open_timeout=120
                )
            )
            for v in tokens
        }
        await asyncio.gather(*(client(v, ws) for v, ws in sockets.items()))
    last = played.states[None][-1]["version"]
    for v in tokens:  # the finished table, as every viewer may fetch it
        head = {"X-Ziggurat-Token": tokens[v]}
        played.http.append(
            (
                "record",
                v,
                last,
                (await _call(http, "GET", f"/api/tables/{table}/record", headers=head)).json(),
                None,
            )
        )
        for ply in (last, rng.randrange(last + 1)):
            rep = await _call(http, "GET", f"/api/tables/{table}/replay", params={"ply": ply}, headers=head)
            played.http.append(("replay", v, last, rep.json(), None))
    await my_games(last)
    rep = await _call(http, "GET", f"/api/tables/{table}/replay", params={"ply": last})
    played.http.append(("replay", None, last, rep.json(), None))  # no token: a finished table is public
    return played


def check_table(
    server: Server, played: Played, substitute_every: int, seed: int
) -> tuple[leakcheck.Checker, int, float]:
    """Rebuild the table from its stored actions and check every payload; the checker, the
    plies and the CPU seconds it took."""
    from ziggurat.engine.registry import game_class

    began = time.thread_time()

    stored = server.stored(played.table)
    options = game_class(stored.game).recorded_options(stored.options)
    true = leakcheck.TrueGame.rebuild(
        stored.game, stored.players, options, stored.seed, [a.text for a in stored.actions]
    )
    checker = leakcheck.Checker(true, random.Random(seed), substitute_every)
    for viewer, messages in played.states.items():
        log: list[dict[str, Any]] = []
        for msg in messages:
            log = checker.check_state(msg, viewer, log)
        if not messages or messages[-1]["version"] != true.last:
            checker.leaks.append(
                leakcheck.Leak("state: end", viewer, true.last, "the final state was not received")
            )
        checker.check_log_secrets(viewer, log)
    for kind, viewer, version, body, extra in played.http:
        if kind == "record":
            checker.check_record(body, viewer, version)
        elif kind == "replay":
            checker.check_replay(body, viewer)
        elif kind == "explain":
            checker.check_explain(body, viewer, extra, version)  # type: ignore[arg-type]
        else:
            checker.check_listing(body, viewer, version, kind)
    return checker, true.last, time.thread_time() - began


async def run_game(
    server: Server,
    game_id: str,
    counts: tuple[int, ...],
    games: int,
    tables: int,
    settings: Settings,
    seed: int,
    progress: int = 0,
    journal: Journal | None = None,
) -> GameReport:
    """Play and check ``games`` tables of ``game_id`` (player counts in turn), ``tables`` at once.
    With a ``journal``, only the games it does not hold yet, each appended to it as it ends; the
    report is then the journal's (every game in it)."""
    import httpx

    report = GameReport()
    start_wall, start_cpu = time.perf_counter(), time.process_time()
    queue = [i for i in range(games) if journal is None or i not in journal.done]
    todo = len(queue)
    last = {"cpu": start_cpu, "wall": start_wall}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{server.port}", timeout=120) as http:

        async def worker() -> None:
            while queue and (settings.stop_at is None or time.monotonic() < settings.stop_at):
                i = queue.pop(0)
                table_seed = seed * 1_000_003 + i
                played = await play_table(
                    server, http, game_id, counts[i % len(counts)], settings, table_seed
                )
                # in a thread: the event loop keeps answering the other tables' sockets (pings)
                checker, plies, cpu = await asyncio.to_thread(
                    check_table, server, played, settings.substitute_every, table_seed
                )
                report.check_cpu += cpu
                report.add(checker, plies)
                if journal is not None:
                    now_cpu, now_wall = time.process_time(), time.perf_counter()
                    journal.append(
                        {
                            "index": i,
                            "players": counts[i % len(counts)],
                            "seed": table_seed,
                            "plies": plies,
                            "checked": checker.checked,
                            "leaks": [dataclasses.asdict(leak) for leak in checker.leaks],
                            # the process's CPU since the previous game ended: the tables
                            # played at once share it, and the lines add up to the run's
                            "cpu": round(now_cpu - last["cpu"], 4),
                            "check_cpu": round(cpu, 4),
                            "wall": round(now_wall - last["wall"], 4),
                        }
                    )
                    last.update(cpu=now_cpu, wall=now_wall)
                for leak in checker.leaks[: leakcheck.MAX_EXAMPLES] if progress else []:
                    print(
                        f"  LEAK {game_id} {leak.kind}: viewer {leak.viewer} version {leak.version}: {leak.detail}"
                    )
                if progress and report.games % progress == 0:
                    cpu = time.process_time() - start_cpu
                    print(
                        f"  {game_id}: {report.games}/{todo} games, {len(report.leaks)} leaks,"
                        f" {cpu / report.games:.2f} s cpu per game",
                        flush=True,
                    )

        await asyncio.gather(*(worker() for _ in range(min(tables, games))))
    report.wall = time.perf_counter() - start_wall
    report.cpu = time.process_time() - start_cpu
    return report if journal is None else journal.report()


def run_in_thread(coro: Any) -> Any:
    """``asyncio.run`` in a thread of its own (the server's loop runs in another)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["result"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    # a daemon: an interrupted run (Ctrl-C, SIGTERM) stops with its games in flight
    worker = threading.Thread(target=target, name="secrets-clients", daemon=True)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["result"]


def planted_runs(
    server: Server, plants: list[str], games: list[str], settings: Settings, seed: int
) -> dict[str, dict[str, list[str]]]:
    """Play one table of each game with each planted leak; the kinds of leak each run found
    (none: the planted leak was missed)."""
    caught: dict[str, dict[str, list[str]]] = {g: {} for g in games}
    for plant in plants:
        with leakcheck.PLANTS[plant]():
            for game_id in games:
                counts = GAMES[game_id][:1]
                report = run_in_thread(run_game(server, game_id, counts, 1, 1, settings, seed + 7919))
                caught[game_id][plant] = sorted({leak.kind for leak in report.leaks})
                print(
                    f"  planted {plant} in {game_id}: caught by {caught[game_id][plant] or 'NOTHING'}",
                    flush=True,
                )
    return caught


def run(
    games: int,
    game_ids: list[str],
    players: list[int] | None,
    tables: int,
    settings: Settings,
    plants: list[str],
    seed: int,
    directory: str,
    progress: int = 0,
    db: str | None = None,
    results: Path | None = None,
    fresh: bool = False,
) -> dict[str, GameReport]:
    """The planted runs, then ``games`` checked games of each game; the reports by game. With
    ``results`` (a folder), each game's finished games go on from ``secrets-<game>.jsonl`` there
    (``fresh``: start it over) and its report sums that file."""
    reports: dict[str, GameReport] = {}
    with Server(directory, db) as server:
        caught = planted_runs(server, plants, game_ids, settings, seed)
        for game_id in game_ids:
            counts = tuple(p for p in GAMES[game_id] if players is None or p in players) or GAMES[game_id]
            journal = None
            if results is not None:
                journal = Journal(
                    results / f"secrets-{game_id}.jsonl", run_key(game_id, counts, settings, seed), fresh
                )
                print(f"  {game_id}: {len(journal.done)} games already in {journal.path}", flush=True)
                if journal.other:
                    print(f"  {game_id}: {journal.other} lines of runs with other arguments (not counted)")
            try:
                report = run_in_thread(
                    run_game(server, game_id, counts, games, tables, settings, seed, progress, journal)
                )
            finally:
                if journal is not None:
                    journal.close()
            report.planted = caught[game_id]
            reports[game_id] = report
    return reports


def run_key(game_id: str, counts: tuple[int, ...], settings: Settings, seed: int) -> dict[str, Any]:
    """The arguments that decide which games are played and how closely they are checked: a
    results file goes on only from lines with the same."""
    return {
        "game": game_id,
        "players": list(counts),
        "seed": seed,
        "options": settings.options(game_id),
        "http_every": settings.http_every,
        "substitute_every": settings.substitute_every,
    }


def print_report(reports: dict[str, GameReport]) -> None:
    print(
        f"{'game':<20} {'games':>6} {'plies':>7} {'seat payloads':>14} {'spectator':>10}"
        f" {'leaks':>6} {'planted caught':>15} {'s/game (cpu)':>13}"
    )
    for game_id, r in reports.items():
        caught = sum(bool(kinds) for kinds in r.planted.values())
        per_game = r.cpu / r.games if r.games else 0.0
        print(
            f"{game_id:<20} {r.games:>6} {r.plies:>7} {r.payloads('seat'):>14} {r.payloads('spectator'):>10}"
            f" {len(r.leaks):>6} {f'{caught}/{len(r.planted)}':>15} {per_game:>13.2f}"
        )
    for game_id, r in reports.items():
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(r.checked.items()))
        print(
            f"  {game_id}: checked {kinds}; wall {r.wall:.1f} s, cpu {r.cpu:.1f} s"
            f" (checking {r.check_cpu:.1f} s)"
        )
        for plant, found in r.planted.items():
            print(f"  {game_id}: planted {plant}: " + (f"caught ({', '.join(found)})" if found else "MISSED"))
        by_kind: dict[str, list[leakcheck.Leak]] = {}
        for leak in r.leaks:
            by_kind.setdefault(leak.kind, []).append(leak)
        for kind, leaks in by_kind.items():
            print(f"  LEAK {game_id} {kind}: {len(leaks)}")
            for leak in leaks[: leakcheck.MAX_EXAMPLES]:
                print(f"    viewer {leak.viewer} version {leak.version}: {leak.detail}")


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each game (default 1000)")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument(
        "--players", type=str, default=None, help="player counts, e.g. 3 or 2,4 (default: all)"
    )
    parser.add_argument("--tables", type=int, default=8, help="tables played at once (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the tables and clients (default 1)")
    parser.add_argument(
        "--plant",
        action="append",
        default=None,
        help=f"planted leaks to run first: all (default), none, or one of {', '.join(leakcheck.PLANTS)}",
    )
    parser.add_argument(
        "--meso-rounds", type=int, default=6, help="Mesopotamia round_limit (0: none; default 6)"
    )
    parser.add_argument(
        "--mn-rounds", type=int, default=3, help="Mare Nostrum max_rounds (0: none; default 3)"
    )
    parser.add_argument("--http-every", type=int, default=12, help="probe the HTTP payloads every N plies")
    parser.add_argument(
        "--substitute-every", type=int, default=1, help="substitution check every N versions (0: never)"
    )
    parser.add_argument("--progress", type=int, default=0, help="print a line every N games (0: never)")
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument(
        "--results",
        type=Path,
        default=RESULTS,
        help="folder of the secrets-<game>.jsonl files a run goes on from (default benchmarks/results/partial)",
    )
    parser.add_argument("--fresh", action="store_true", help="start the results files over")
    parser.add_argument(
        "--minutes",
        type=float,
        default=None,
        help="start no new table after this many minutes (a partial run)",
    )
    args = parser.parse_args(argv)
    plants = args.plant or ["all"]
    if "all" in plants:
        plants = list(leakcheck.PLANTS)
    elif "none" in plants:
        plants = []
    unknown = [p for p in plants if p not in leakcheck.PLANTS]
    if unknown:
        parser.error(f"unknown plant {unknown[0]!r}; plants: all, none, {', '.join(leakcheck.PLANTS)}")
    players = [int(p) for p in args.players.split(",")] if args.players else None
    settings = Settings(
        args.meso_rounds or None, args.mn_rounds or None, args.http_every, args.substitute_every
    )
    if args.minutes is not None:
        settings.stop_at = time.monotonic() + args.minutes * 60
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        with tempfile.TemporaryDirectory(prefix="ziggurat-secrets-") as tmp:
            reports = run(
                args.games,
                args.game or list(GAMES),
                players,
                args.tables,
                settings,
                plants,
                args.seed,
                tmp,
                args.progress,
                args.db,
                args.results,
                args.fresh,
            )
    except KeyboardInterrupt:
        print(f"interrupted: the finished games are in {args.results}; the same command goes on from there")
        return 130
    print_report(reports)
    leaks = sum(len(r.leaks) for r in reports.values())
    missed = sum(not found for r in reports.values() for found in r.planted.values())
    return 1 if leaks or missed else 0


if __name__ == "__main__":
    sys.exit(main())
