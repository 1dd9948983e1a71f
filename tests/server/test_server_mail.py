""" "Your turn" by e-mail (docs/server.md, "Mail"): a real SMTP server (aiosmtpd on 127.0.0.1)
receives the mails; the outbox, the turn notices and the preferences are read back from the
database. A mail goes once per turn to a signed-in player of a turn-based table who asked
for it, opens the seat by its link, and stops with the unsubscribe link."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from server_helpers import TestClient, create_app, receive_state, settle, wait_idle
from sqlalchemy import insert, select

from ziggurat.server.accounts import CSRF_HEADER
from ziggurat.server.db import OutboxRow, TurnNoticeRow, make_engine
from ziggurat.server.mail import SmtpSettings, claim_due, smtp_from_env, turn_mail, valid_address
from ziggurat.server.store import Store, now

PASSWORD = "tigris and euphrates 4"
TURN_BASED = {"kind": "turn_based", "per_turn": 86400}


@dataclass
class Inbox:
    """An aiosmtpd handler keeping every mail it accepts."""

    mails: list[tuple[list[str], EmailMessage]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        with self.lock:
            self.mails.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, addr: str) -> list[EmailMessage]:
        with self.lock:
            return [m for rcpt, m in self.mails if addr in rcpt]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Smtp:
    """A local SMTP server on a free port, started when asked (so a test can queue with it down)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.inbox = Inbox()
        self.controller: Controller | None = None

    def start(self) -> None:
        self.controller = Controller(self.inbox, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def settings(self) -> SmtpSettings:
        return SmtpSettings(
            host="127.0.0.1",
            port=self.port,
            tls="none",
            sender="tables@ziggurat.example",
            poll=0.05,
            retry=0.05,
        )


@pytest.fixture
def smtp() -> Iterator[Smtp]:
    server = Smtp()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def smtp_down() -> Iterator[Smtp]:
    """A port where no SMTP server listens yet (the test starts it)."""
    server = Smtp()
    try:
        yield server
    finally:
        server.stop()


def mail_app(
    db_url: str,
    tmp_path: Path,
    settings: SmtpSettings | None,
    static: bool = False,
    public_url: str | None = None,
) -> TestClient:
    static_dir = None if static else tmp_path / "no-static"
    return TestClient(
        create_app(db_url, bot_delay=0, static_dir=static_dir, smtp=settings, public_url=public_url)
    )


def until(check: Callable[[], Any]) -> Any:
    """Wait until ``check()`` is true (a test that never gets there hits the suite's timeout)."""
    while not (value := check()):
        time.sleep(0.01)
    return value


def outbox(db_url: str) -> list[OutboxRow]:
    engine = make_engine(db_url)
    try:
        with Store(engine).sessions() as s:
            return list(s.scalars(select(OutboxRow).order_by(OutboxRow.id)))
    finally:
        engine.dispose()


def signup(
    client: TestClient, name: str, email: str | None = None, mail_turns: bool = True, lang: str | None = None
) -> str:
    """Sign up (and in) as ``name`` with these mail preferences; the CSRF token."""
    client.cookies.clear()
    r = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    if email is not None:
        prefs: dict[str, Any] = {"email": email, "mail_turns": mail_turns}
        if lang is not None:
            prefs["lang"] = lang
        r = client.post("/api/account/preferences", json=prefs, headers={CSRF_HEADER: csrf})
        assert r.status_code == 200, r.text
    return csrf


def signin(client: TestClient, name: str) -> str:
    client.cookies.clear()
    r = client.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    csrf: str = r.json()["csrf"]
    return csrf


@dataclass
class Game:
    table: str
    tokens: list[str]  # seat 0 (the host, blue), seat 1 (yellow, who moves first)


def two_accounts(
    client: TestClient,
    time_control: dict[str, Any] | None = TURN_BASED,
    bob_mail: bool = True,
    bob_guest: bool = False,
) -> Game:
    """Alice hosts a public two-player table; Bob (or a guest) joins; Alice starts it. Both
    accounts have an address; the yellow seat (1) moves first."""
    csrf = signup(client, "Alice", "alice@example.org")
    body: dict[str, Any] = {
        "game": "mesopotamia",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "open"}],
        "seed": 3,
        "public": True,
    }
    if time_control is not None:
        body["time_control"] = time_control
    r = client.post("/api/tables", json=body, headers={CSRF_HEADER: csrf})
    assert r.status_code == 201, r.text
    t = r.json()
    if bob_guest:
        client.cookies.clear()
        joined = client.post(f"/api/tables/{t['table']}/join", json={"name": "Bea"})
    else:
        csrf = signup(client, "Bob", "bob@example.org", mail_turns=bob_mail)
        joined = client.post(f"/api/tables/{t['table']}/join", json={}, headers={CSRF_HEADER: csrf})
    assert joined.status_code == 200, joined.text
    tokens = [t["seats"][0]["token"], joined.json()["token"]]
    started = client.post(f"/api/tables/{t['table']}/start", json={}, headers={"X-Ziggurat-Token": tokens[0]})
    assert started.status_code == 200, started.text
    return Game(t["table"], tokens)


def play_turn(client: TestClient, game: Game, seat: int) -> None:
    """``seat`` plays its whole turn ("end" the moves, then "pass"); the table then waits for
    the other seat, and every change is committed and its mail queued (the request made after
    it goes through the same database thread)."""
    with client.websocket_connect(f"/ws/{game.table}?token={game.tokens[seat]}") as ws:
        msg = settle(ws, client, game.table)
        assert msg["legal"], "not this seat's turn"
        while msg["legal"]:
            legal = msg["legal"]
            action = next((a for a in ("end", "pass") if a in legal), legal[0])
            ws.send_json({"type": "action", "action": action})
            msg = receive_state(ws)  # the state right after this action
        settle(ws, client, game.table, msg)  # bots and chance, until a human is to move
    barrier(client)


def barrier(client: TestClient) -> None:
    """Wait for the database jobs asked so far: this request's own lookup runs after them
    (the database thread runs its jobs in order)."""
    assert client.get("/api/unsubscribe/-").status_code == 404


def sent_all(db_url: str) -> list[OutboxRow]:
    rows = outbox(db_url)
    return rows if all(r.sent is not None for r in rows) else []


def seat_token(link: str) -> tuple[str, str]:
    parts = urlsplit(link)
    assert parts.fragment.startswith("token=")
    return parts.path.rsplit("/", 1)[1], parts.fragment.removeprefix("token=")


def body_links(msg: EmailMessage) -> list[str]:
    body = msg.get_content()
    return [w for w in body.split() if w.startswith("http://")]


# --- settings --------------------------------------------------------------------------------------
def test_smtp_settings_from_the_environment() -> None:
    assert smtp_from_env({}) is None
    s = smtp_from_env(
        {
            "ZIGGURAT_SMTP_HOST": "mail.example.org",
            "ZIGGURAT_SMTP_USER": "u",
            "ZIGGURAT_SMTP_PASSWORD": "p",
            "ZIGGURAT_MAIL_FROM": "games@example.org",
        }
    )
    assert s is not None and (s.host, s.port, s.tls, s.user, s.password, s.sender) == (
        "mail.example.org",
        587,
        "starttls",
        "u",
        "p",
        "games@example.org",
    )
    ssl_ = smtp_from_env({"ZIGGURAT_SMTP_HOST": "h", "ZIGGURAT_SMTP_TLS": "ssl"})
    assert ssl_ is not None and ssl_.port == 465
    with pytest.raises(ValueError, match="ZIGGURAT_SMTP_TLS"):
        smtp_from_env({"ZIGGURAT_SMTP_HOST": "h", "ZIGGURAT_SMTP_TLS": "tls1.3"})
    with pytest.raises(ValueError, match="port"):
        smtp_from_env({"ZIGGURAT_SMTP_HOST": "h", "ZIGGURAT_SMTP_PORT": "smtp"})
    assert "s3cret" not in repr(SmtpSettings("h", password="s3cret"))


def test_addresses_are_checked() -> None:
    assert valid_address("enheduanna@ur.example.org")
    for bad in (
        "",
        "no-at-sign",
        "a@b",
        "two@@example.org",
        "a b@example.org",
        "<a@example.org>",
        "a@-x.org",
    ):
        assert not valid_address(bad), bad


def test_the_mail_reads_in_french_too() -> None:
    subject, body = turn_mail(
        "fr", "Ada", "mare-nostrum", "T1", "http://x/table/T1", "http://x/u", "http://x/p"
    )
    assert subject == "À vous de jouer à Mare Nostrum : Empires (table T1)"
    assert "http://x/table/T1" in body and "http://x/u" in body
    assert (
        turn_mail("xx", "Ada", "mesopotamia", "T1", "l", "u", "p")[0] == "Your turn at Mesopotamia (table T1)"
    )


# --- the mail ---------------------------------------------------------------------------------------
def test_turn_mail_once_per_turn_with_a_link_that_opens_the_seat(
    db_url: str, tmp_path: Path, smtp: Smtp
) -> None:
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        game = two_accounts(client)
        barrier(client)
        (mail,) = until(lambda: smtp.inbox.to("bob@example.org"))
        assert mail["To"] == "bob@example.org" and mail["From"] == "tables@ziggurat.example"
        assert mail["Subject"] == f"Your turn at Mesopotamia (table {game.table})"
        body = mail.get_content()
        assert (
            body.startswith("Hello Bob,") and f"It is your turn at Mesopotamia (table {game.table})" in body
        )
        link, unsubscribe, preferences = body_links(mail)
        assert link.startswith(f"http://testserver/table/{game.table}#token=")
        assert unsubscribe.startswith("http://testserver/unsubscribe/")
        assert preferences == "http://testserver/account/preferences"
        assert mail["List-Unsubscribe"].strip() == f"<{unsubscribe}>"  # folded: a long header
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert smtp.inbox.to("alice@example.org") == []

        # the link opens Bob's seat, on a device that has never seen it
        table_id, tok = seat_token(link)
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{table_id}?token={tok}") as ws:
            first = receive_state(ws)
            assert first["seat"] == 1 and first["legal"]

        # Bob's turn has two decisions: one mail; then Alice's turn mails Alice
        play_turn(client, game, 1)
        (to_alice,) = until(lambda: smtp.inbox.to("alice@example.org"))
        assert to_alice["Subject"] == f"Your turn at Mesopotamia (table {game.table})"
        assert len(smtp.inbox.to("bob@example.org")) == 1
        # Bob has played: his next turn mails him again
        play_turn(client, game, 0)
        until(lambda: len(smtp.inbox.to("bob@example.org")) == 2)
        rows = until(lambda: sent_all(db_url))
        assert [r.to_addr for r in rows] == ["bob@example.org", "alice@example.org", "bob@example.org"]
        assert all(r.attempts == 1 and r.last_error is None and r.kind == "turn" for r in rows)
        second = smtp.inbox.to("bob@example.org")[1]
        assert seat_token(body_links(second)[0])[1] != tok  # a fresh seat token each time
    assert len(smtp.inbox.mails) == 3


def test_no_second_mail_until_the_player_has_played_even_after_a_restart(
    db_url: str, tmp_path: Path, smtp: Smtp
) -> None:
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        game = two_accounts(client)
        barrier(client)
        until(lambda: sent_all(db_url))
    # the new process finds Bob to move, with a public URL to link from: his notice stops a second mail
    with mail_app(db_url, tmp_path, smtp.settings(), public_url="http://testserver") as client:
        barrier(client)
        engine = make_engine(db_url)
        with Store(engine).sessions() as s:
            notices = [n.table_id for n in s.scalars(select(TurnNoticeRow))]
        engine.dispose()
        assert notices == [game.table]
        assert len(outbox(db_url)) == 1
        play_turn(client, game, 1)
        play_turn(client, game, 0)
        until(lambda: len(smtp.inbox.to("bob@example.org")) == 2)
    assert len(smtp.inbox.to("alice@example.org")) == 1


def test_a_player_who_reads_french_is_mailed_in_french(db_url: str, tmp_path: Path, smtp: Smtp) -> None:
    """The preferences page sends its language: the account's mails are written in it."""
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        game = two_accounts(client)
        barrier(client)
        until(lambda: smtp.inbox.to("bob@example.org"))
        csrf = signin(client, "Alice")
        prefs = {"email": "alice@example.org", "mail_turns": True, "lang": "fr"}
        r = client.post("/api/account/preferences", json=prefs, headers={CSRF_HEADER: csrf})
        assert r.status_code == 200, r.text
        bad = client.post(
            "/api/account/preferences", json={**prefs, "lang": "xx"}, headers={CSRF_HEADER: csrf}
        )
        assert bad.status_code == 400
        play_turn(client, game, 1)
        (to_alice,) = until(lambda: smtp.inbox.to("alice@example.org"))
        assert to_alice["Subject"] == f"À vous de jouer à Mésopotamie (table {game.table})"
        assert "Bonjour Alice" in to_alice.get_content()
        assert smtp.inbox.to("bob@example.org")[0]["Subject"].startswith("Your turn")


@pytest.mark.parametrize("case", ["realtime", "untimed", "guest", "mail_off"])
def test_no_mail_where_none_is_due(db_url: str, tmp_path: Path, smtp: Smtp, case: str) -> None:
    """Real-time and untimed tables never mail; a guest seat or an account with mail off is
    not mailed (Alice, who has it on, still is)."""
    time_control: dict[str, Any] | None = {
        "realtime": {"kind": "realtime", "budget": 900, "increment": 20},
        "untimed": None,
    }.get(case, TURN_BASED)
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        game = two_accounts(client, time_control, bob_mail=case != "mail_off", bob_guest=case == "guest")
        barrier(client)
        assert outbox(db_url) == []
        play_turn(client, game, 1)
        rows = until(lambda: sent_all(db_url)) if time_control == TURN_BASED else outbox(db_url)
    assert [r.to_addr for r in rows] == (["alice@example.org"] if time_control == TURN_BASED else [])
    assert len(smtp.inbox.mails) == len(rows)


def test_a_bot_seat_is_never_mailed(db_url: str, tmp_path: Path, smtp: Smtp) -> None:
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        csrf = signup(client, "Alice", "alice@example.org")
        body = {
            "game": "mesopotamia",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "seed": 3,
            "time_control": TURN_BASED,
        }
        r = client.post("/api/tables", json=body, headers={CSRF_HEADER: csrf})
        assert r.status_code == 201, r.text
        t = r.json()
        wait_idle(client, t["table"])  # the bot has played: Alice is to move, her seat not saved yet
        claimed = client.post(
            f"/api/tables/{t['table']}/claim",
            headers={CSRF_HEADER: csrf, "X-Ziggurat-Token": t["seats"][0]["token"]},
        )
        assert claimed.status_code == 200, claimed.text
        game = Game(t["table"], [t["seats"][0]["token"], ""])
        play_turn(client, game, 0)  # the bot plays its turn, then it is Alice's again
        rows = until(lambda: sent_all(db_url))
    assert [(r.to_addr, r.user_id is not None) for r in rows] == [("alice@example.org", True)]
    assert len(smtp.inbox.mails) == 1


def test_without_smtp_settings_nothing_is_queued_and_nothing_fails(db_url: str, tmp_path: Path) -> None:
    with mail_app(db_url, tmp_path, None) as client:
        game = two_accounts(client)
        play_turn(client, game, 1)
        play_turn(client, game, 0)
        prefs = client.get("/api/account/preferences")
        assert prefs.json() == {"email": "bob@example.org", "mail_turns": True, "mail_enabled": False}
    assert outbox(db_url) == []


# --- preferences and unsubscribing ---------------------------------------------------------------------
def test_preferences_need_sign_in_csrf_and_a_real_address(db_url: str, tmp_path: Path, smtp: Smtp) -> None:
    with mail_app(db_url, tmp_path, smtp.settings()) as client:
        assert client.get("/api/account/preferences").status_code == 401
        csrf = signup(client, "Alice")
        assert client.get("/api/account/preferences").json() == {
            "email": None,
            "mail_turns": True,
            "mail_enabled": True,
        }
        no_csrf = client.post("/api/account/preferences", json={"email": "a@example.org", "mail_turns": True})
        assert no_csrf.status_code == 403
        bad = client.post(
            "/api/account/preferences",
            json={"email": "alice at home", "mail_turns": True},
            headers={CSRF_HEADER: csrf},
        )
        assert bad.status_code == 400 and "not an e-mail address" in bad.json()["detail"]
        assert client.get("/api/account/preferences").json()["email"] is None
        ok = client.post(
            "/api/account/preferences",
            json={"email": " alice@example.org ", "mail_turns": False},
            headers={CSRF_HEADER: csrf},
        )
        assert ok.json() == {"email": "alice@example.org", "mail_turns": False, "mail_enabled": True}
        cleared = client.post(
            "/api/account/preferences", json={"email": "", "mail_turns": True}, headers={CSRF_HEADER: csrf}
        )
        assert cleared.json()["email"] is None


@pytest.mark.parametrize("how", ["page", "one-click"])
def test_unsubscribe_stops_the_mail(db_url: str, tmp_path: Path, smtp: Smtp, how: str) -> None:
    with mail_app(db_url, tmp_path, smtp.settings(), static=True) as client:
        game = two_accounts(client)
        barrier(client)
        (mail,) = until(lambda: smtp.inbox.to("bob@example.org"))
        path = urlsplit(body_links(mail)[1]).path
        token = path.rsplit("/", 1)[1]
        client.cookies.clear()  # no sign-in needed
        page = client.get(path)
        assert page.status_code == 200 and "unsubscribe.js" in page.text
        assert client.get(f"/api/unsubscribe/{token}").json() == {"name": "Bob", "unsubscribed": False}
        unknown = client.post("/unsubscribe/0.0123456789abcdef")
        assert unknown.status_code == 404 and "unknown" in unknown.json()["detail"]
        assert client.get("/api/unsubscribe/nope").status_code == 404
        if how == "page":
            done = client.post(path)
        else:  # RFC 8058: what a mail program posts to the List-Unsubscribe address
            url = mail["List-Unsubscribe"].strip().strip("<>")
            done = client.post(urlsplit(url).path, data={"List-Unsubscribe": "One-Click"})
        assert done.status_code == 200 and done.json() == {"name": "Bob", "unsubscribed": True}
        signin(client, "Bob")
        assert client.get("/api/account/preferences").json()["mail_turns"] is False
        play_turn(client, game, 1)
        play_turn(client, game, 0)  # Bob's turn again: no mail for him now
        rows = until(lambda: sent_all(db_url))
        assert [r.to_addr for r in rows] == ["bob@example.org", "alice@example.org"]
        # the same link works again later (the token is the account's, not the mail's)
        assert client.post(path).status_code == 200


# --- the outbox: restarts, failures, two senders ------------------------------------------------------
def test_the_outbox_survives_a_restart_and_failures_are_retried(
    db_url: str, tmp_path: Path, smtp_down: Smtp
) -> None:
    with mail_app(db_url, tmp_path, smtp_down.settings()) as client:
        two_accounts(client)
        barrier(client)
        (row,) = until(lambda: [r for r in outbox(db_url) if r.attempts >= 2])
        assert row.sent is None and row.last_error and "Error" in row.last_error
    smtp_down.start()
    with mail_app(db_url, tmp_path, smtp_down.settings()) as client:
        (mail,) = until(lambda: smtp_down.inbox.to("bob@example.org"))
        (row,) = until(lambda: sent_all(db_url))
        # the link of a mail sent by the new process opens the seat there
        table_id, tok = seat_token(body_links(mail)[0])
        with client.websocket_connect(f"/ws/{table_id}?token={tok}") as ws:
            assert receive_state(ws)["seat"] == 1
    assert row.attempts >= 3 and len(smtp_down.inbox.mails) == 1


def test_two_senders_racing_send_each_row_once(db_url: str, tmp_path: Path, smtp: Smtp) -> None:
    engine = make_engine(db_url)
    with mail_app(db_url, tmp_path, None):
        pass  # the schema
    rows = [
        {
            "kind": "turn",
            "to_addr": f"p{i}@example.org",
            "subject": f"s{i}",
            "body": f"b{i}\n",
            "created": now(),
            "attempts": 0,
        }
        for i in range(40)
    ]
    with engine.begin() as conn:
        conn.execute(insert(OutboxRow), rows)
    # the claims themselves, raced from two threads on two connections
    stores = [Store(make_engine(db_url)), Store(make_engine(db_url))]
    start = threading.Barrier(2)
    claimed: list[list[int]] = [[], []]

    def claim(i: int) -> None:
        start.wait()
        while batch := claim_due(stores[i], limit=3):
            claimed[i].extend(c.id for c in batch)

    threads = [threading.Thread(target=claim, args=(i,)) for i in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claimed[0] + claimed[1]) == list(range(1, 41))
    assert not set(claimed[0]) & set(claimed[1])
    assert len(claimed[0]) + len(claimed[1]) == 40
    for s in stores:
        s.close()
    # two whole servers sending the same outbox: each mail once
    with engine.begin() as conn:
        conn.execute(insert(OutboxRow), [{**r, "to_addr": "again" + str(r["to_addr"])} for r in rows])
    with mail_app(db_url, tmp_path, smtp.settings()), mail_app(db_url, tmp_path, smtp.settings()):
        until(lambda: len([r for r in outbox(db_url) if r.sent is not None]) == 40)
    engine.dispose()
    got = sorted(rcpt[0] for rcpt, _ in smtp.inbox.mails)
    assert got == sorted(f"againp{i}@example.org" for i in range(40))


@pytest.mark.parametrize("why", ["played", "unsubscribed"])
def test_a_mail_not_sent_yet_is_dropped_once_its_player_has_played_or_unsubscribed(
    db_url: str, tmp_path: Path, smtp_down: Smtp, why: str
) -> None:
    with mail_app(db_url, tmp_path, smtp_down.settings()) as client:
        game = two_accounts(client)  # Bob's mail waits: the SMTP server is down
        barrier(client)
        (bob,) = until(lambda: [r for r in outbox(db_url) if r.attempts >= 1])
        if why == "played":
            play_turn(client, game, 1)  # Bob plays from the table page he had open
            # Alice's turn mail waits too; Bob's is dropped at the worker's next attempt (which
            # may already have come)
            assert [r.to_addr for r in outbox(db_url)][-1] == "alice@example.org"
        else:  # the outbox keeps the body as it will be sent, unsubscribe link included
            link = next(w for w in bob.body.split() if "/unsubscribe/" in w)
            assert client.post(urlsplit(link).path).status_code == 200
    smtp_down.start()
    with mail_app(db_url, tmp_path, smtp_down.settings()) as client:
        if why == "played":
            (row,) = until(lambda: sent_all(db_url))
            assert row.to_addr == "alice@example.org"
        else:
            until(lambda: outbox(db_url) == [])
    expected = [["alice@example.org"]] if why == "played" else []
    assert [rcpt for rcpt, _ in smtp_down.inbox.mails] == expected
