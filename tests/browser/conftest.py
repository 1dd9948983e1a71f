"""Browser tests: the real server in a subprocess, driven by Playwright on Debian Chromium.

The server is started once per test session (per xdist worker) with a SQLite database in a
temporary directory and fast bots; each test gets a fresh browser context. Screenshots go to
``artifacts/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from live_server import free_port, kill, stop, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
CHROMIUM = os.environ.get("ZIGGURAT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# The module providing create_app(database_url, bot_delay); overridable to test another build.
APP_MODULE = os.environ.get("ZIGGURAT_BROWSER_APP", "ziggurat.server.app")


class Server:
    def __init__(self, base: str) -> None:
        self.base = base

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("X-Ziggurat-Token", token)
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read() or b"null")

    def create_table(
        self,
        seats: list[dict[str, Any]],
        options: dict[str, Any] | None = None,
        seed: int | None = 7,
        game: str = "mesopotamia",
    ) -> dict[str, Any]:
        body = {"game": game, "players": len(seats), "options": options or {}, "seats": seats, "seed": seed}
        answer: dict[str, Any] = self.request("POST", "/api/tables", body)
        return answer

    def url(self, link: str) -> str:
        """The URL of a link the server gave (absolute) or of a path on it."""
        return urllib.parse.urljoin(self.base + "/", link)


@contextmanager
def running_server(tmp: Path, app_args: str) -> Iterator[Server]:
    """A server process on 127.0.0.1 with a fresh SQLite database in ``tmp``, made by
    ``create_app(database_url=..., <app_args>)``; stopped on exit."""
    db_url = f"sqlite:///{tmp / 'ziggurat.sqlite'}"
    port = free_port()
    code = (
        "import uvicorn\n"
        f"from {APP_MODULE} import create_app\n"
        f"app = create_app(database_url={db_url!r}, {app_args})\n"
        f"uvicorn.run(app, host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    log_path = tmp / "server.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed at exit
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(proc, base, log_path)
        yield Server(base)
        stop(proc)
    finally:
        kill(proc)
        log.close()


@pytest.fixture(scope="session")
def start_server() -> Any:
    """``running_server`` for a module's own server (other ``create_app`` arguments)."""
    return running_server


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("server"), "bot_delay=0.05") as srv:
        yield srv


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def _benign(message: str) -> bool:
    """Console noise that is not a client bug: refused HTTP answers and socket reconnects."""
    return "WebSocket" in message or "Failed to load resource" in message


def _new_page(browser: Browser, errors: list[str], **ctx: Any) -> Page:
    ctx.setdefault("viewport", {"width": 1280, "height": 900})
    ctx.setdefault("locale", "en-US")
    confirm = ctx.pop("confirm_final_moves", False)
    step_hold = ctx.pop("step_hold", False)
    context = browser.new_context(**ctx)
    context.set_default_timeout(15000)
    if not step_hold:
        # buttons take clicks as soon as a new decision is drawn (legal.js, stepHoldMs): the
        # tests that play games click through hundreds of decisions; the hold's own tests
        # (test_browser_legal_hold.py, the Mare Nostrum board's) ask for it with step_hold=True
        context.add_init_script("window.zigguratStepHoldMs = 0")
    if not confirm:
        # the tests that play games click through many final moves: they run with the
        # table page's confirmations off (test_browser_table_help.py tests them on)
        context.add_init_script("try { localStorage.setItem('ziggurat.confirm', 'off') } catch (e) {}")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
    return page


@pytest.fixture
def page_errors() -> list[str]:
    return []


@pytest.fixture
def page(browser: Browser, page_errors: list[str]) -> Iterator[Page]:
    """A desktop-sized page in English; fails the test if the page logged a JavaScript error."""
    pg = _new_page(browser, page_errors)
    yield pg
    pg.context.close()
    assert not [e for e in page_errors if not _benign(e)], page_errors


@pytest.fixture
def new_page(browser: Browser, page_errors: list[str]) -> Iterator[Any]:
    """Factory for pages with other viewports or locales."""
    made: list[Page] = []

    def make(**ctx: Any) -> Page:
        pg = _new_page(browser, page_errors, **ctx)
        made.append(pg)
        return pg

    yield make
    for pg in made:
        pg.context.close()
    assert not [e for e in page_errors if not _benign(e)], page_errors
