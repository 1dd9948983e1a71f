"""The HTTP half of the hostile-input harness (``hostile.py``): hand-made hostile requests, and
schemathesis' generated ones from the server's own OpenAPI document.

Every answer must be below 500. A request that changes something (a rematch, starting a lobby
table, taking a seat back) answered 2xx with a token that may not do it counts as accepted with a
wrong token; a lookup of junk tokens that finds a table counts the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from hostile_core import Fixture, Tally, deep_json, junk_json, junk_text, junk_token, malformed_json

ODD_SEGMENTS = [
    "%00",
    "a%00b",
    "%ff",
    "%ed%a0%80",
    "%c0%af",
    "%e2%80%ae",
    "%f0%9f%98%80",
    "%20",
    "%2e%2e",
    "%2F",
    "%5c",
    "%25",
    "%0d%0aX-Injected:%201",
    "x" * 2000,
    "-1",
    "0",
    "null",
    "%7B%7D",
    "%3Cscript%3E",
]
"""Path segments that are not table ids, games or names: NUL, invalid and overlong UTF-8, a
lone surrogate, direction marks, separators, header splitting, very long ones."""

PATH_ROUTES = [
    ("GET", "/api/tables/{}"),
    ("GET", "/api/tables/{}/record"),
    ("GET", "/api/tables/{}/chat"),
    ("GET", "/api/tables/{}/replay"),
    ("GET", "/api/tables/{}/ratings"),
    ("GET", "/api/tables/{}/claim"),
    ("POST", "/api/tables/{}/explain"),
    ("POST", "/api/tables/{}/rematch"),
    ("POST", "/api/tables/{}/join"),
    ("POST", "/api/tables/{}/start"),
    ("POST", "/api/tables/{}/take-back"),
    ("POST", "/api/tables/{}/claim"),
    ("POST", "/api/tables/{}/seat-link"),
    ("GET", "/api/games/{}/board-data"),
    ("GET", "/api/messages/{}"),
    ("GET", "/api/leaderboard/{}"),
    ("GET", "/api/rules/{}"),
    ("GET", "/api/rules/mesopotamia/{}"),
    ("GET", "/api/users/{}"),
    ("GET", "/api/unsubscribe/{}"),
    ("POST", "/unsubscribe/{}"),
    ("GET", "/api/tutorials/{}"),
    ("POST", "/api/tutorials/mesopotamia/lessons/{}"),
    ("GET", "/api/tutorials/sessions/{}"),
    ("POST", "/api/tutorials/sessions/{}/actions"),
    ("GET", "/table/{}"),
    ("GET", "/replay/{}"),
    ("GET", "/static/{}"),
    ("GET", "/{}"),
]

BODY_ROUTES = [
    "/api/tables",
    "/api/tables/lookup",
    "/api/tables/{play}/explain",
    "/api/tables/{lobby}/join",
    "/api/tables/{lobby}/start",
    "/api/account/signup",
    "/api/account/signin",
    "/api/account/preferences",
    "/api/tutorials/sessions/nope/actions",
]


@dataclass(frozen=True)
class Request:
    """One hand-made request: its kind (for the counts), method, path, headers and body, and
    whether a 2xx answer would mean a wrong token was obeyed."""

    kind: str
    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None = None
    wrong_token_changes: bool = False
    junk_lookup: bool = False


JSON = {"content-type": "application/json"}

RAW_REQUESTS = [
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    b"POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
    b"\x00\x01\x02\x03\r\n\r\n",
    b"GET /\r\n\r\n",
    b"FOO /api/tables HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/tables/x HTTP/1.1\r\nHost: x\r\nX-Ziggurat-Token: a\x00b\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Long: " + b"a" * 100_000 + b"\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(500)) + b"\r\n",
    b"GET /ws/abc HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 99\r\n\r\n",
    b"GET /ws/abc HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 13\r\n\r\n",
    b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\nGET /api/games HTTP/1.1\r\nHost: x\r\n\r\n" * 50,
    b"GET /api/tables/%ZZ HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/tables/\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/tables/x?\xff=\xfe&token=%ff HTTP/1.1\r\nHost: x\r\n\r\n",
]
"""Requests no HTTP client would send: broken lengths and chunking, binary request lines, huge
or many headers, a NUL in a header, broken WebSocket upgrades, pipelining, raw non-UTF-8 paths.
Each is written on its own connection, which may be cut half-way."""


def make_request(rng: random.Random, fx: Fixture) -> Request:
    """One hostile request of a kind picked at random."""
    play, other, lobby = fx.play, fx.other, fx.lobby
    body_route = rng.choice(BODY_ROUTES).format(play=play.id, lobby=lobby.id)
    mover = play.seat_tokens[play.mover if play.mover is not None else 0]
    roll = rng.randrange(11)
    if roll == 0:
        return Request(
            "http_malformed_json",
            "POST",
            body_route,
            {**JSON, "X-Ziggurat-Token": mover},
            malformed_json(rng).encode("utf-8", "surrogatepass"),
        )
    if roll == 1:
        body = rng.choice(
            [
                junk_json(rng),
                {"game": junk_json(rng), "players": junk_json(rng), "seats": junk_json(rng)},
                {"tokens": junk_json(rng)},
                {"action": junk_json(rng)},
                {"name": junk_json(rng), "password": junk_json(rng)},
                {"fill": junk_json(rng), "seat": junk_json(rng)},
                {"game": "mesopotamia", "options": {junk_text(rng)[:30]: junk_json(rng)}},
                {"game": "mesopotamia", "time_control": junk_json(rng)},
            ]
        )
        if body_route.endswith("/join") and isinstance(body, dict) and isinstance(body.get("name"), str):
            body["name"] = [body["name"]]  # a guest with a name may take a seat: anyone may
        return Request(
            "http_wrong_types",
            "POST",
            body_route,
            {**JSON, "X-Ziggurat-Token": mover},
            json.dumps(body).encode(),
        )
    if roll == 2:
        size = rng.choice((64 * 1024 + 1, 100_000, 1_000_000))
        return Request("http_oversized_body", "POST", body_route, JSON, b"[" + b"1," * (size // 2) + b"1]")
    if roll == 3:
        levels = rng.choice((100, 1000, 10_000, 30_000))
        return Request(
            "http_deep_nesting",
            "POST",
            body_route,
            {**JSON, "X-Ziggurat-Token": mover},
            deep_json(rng, levels).encode(),
        )
    if roll == 4:
        body_bytes = rng.choice(
            [
                b"\xff\xfe\xfd",
                b'{"game": "\xc3"}',
                b'{"tokens": ["\xed\xa0\x80"]}',
                bytes(rng.randrange(256) for _ in range(64)),
            ]
        )
        ctype = rng.choice(
            [
                "application/json",
                "text/plain",
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                "",
                "application/json; charset=latin-1",
            ]
        )
        return Request("http_invalid_body", "POST", body_route, {"content-type": ctype}, body_bytes)
    if roll == 5:  # a read with a token that opens nothing here
        token = rng.choice([junk_token(rng), *other.seat_tokens.values(), other.spectator])
        path = rng.choice(
            ["/api/tables/{}", "/api/tables/{}/record", "/api/tables/{}/chat", "/api/tables/{}/replay"]
        ).format(play.id)
        return Request("http_wrong_token", "GET", path, {"X-Ziggurat-Token": _header_safe(token)})
    if roll == 6:  # a change asked with a token that may not make it
        token = rng.choice([junk_token(rng), play.spectator, *other.seat_tokens.values(), other.spectator])
        path = rng.choice(["/api/tables/{}/rematch", "/api/tables/{}/take-back"]).format(play.id)
        if rng.random() < 0.4:  # only the host's seat starts a lobby table
            path = f"/api/tables/{lobby.id}/start"
            token = rng.choice([junk_token(rng), lobby.spectator, *play.seat_tokens.values()])
        return Request(
            "http_change_wrong_token",
            "POST",
            path,
            {**JSON, "X-Ziggurat-Token": _header_safe(token)},
            b"{}",
            wrong_token_changes=True,
        )
    if roll == 7:
        count = rng.choice((0, 1, 10, 100, 101, 1000))
        tokens: list[Any] = [junk_token(rng) for _ in range(min(count, 200))]
        if rng.random() < 0.2:
            tokens = [junk_json(rng) for _ in range(5)]
        return Request(
            "http_lookup_junk",
            "POST",
            "/api/tables/lookup",
            JSON,
            json.dumps({"tokens": tokens}).encode(),
            junk_lookup=True,
        )
    if roll == 8:
        method, route = rng.choice(PATH_ROUTES)
        segment = rng.choice(ODD_SEGMENTS) if rng.random() < 0.7 else quote(junk_text(rng), safe="")
        return Request(
            "http_odd_path",
            method,
            route.format(segment),
            {**JSON, "X-Ziggurat-Token": _header_safe(junk_token(rng))},
            b"{}" if method == "POST" else None,
        )
    if roll == 9:
        ply = rng.choice(
            ["-1", "1e99", "abc", "99999999999999999999999999", "%00", "", "0x10", "1&ply=2", "NaN"]
        )
        token = rng.choice([mover, play.spectator, junk_token(rng)])
        return Request(
            "http_odd_query",
            "GET",
            f"/api/tables/{play.id}/replay?ply={ply}",
            {"X-Ziggurat-Token": _header_safe(token)},
        )
    action = junk_text(rng)[:200] or "x"
    token = rng.choice([mover, play.spectator, junk_token(rng)])
    return Request(
        "http_explain_junk",
        "POST",
        f"/api/tables/{play.id}/explain",
        {**JSON, "X-Ziggurat-Token": _header_safe(token)},
        json.dumps({"action": action}).encode(),
    )


def _header_safe(token: str) -> str:
    """A header value carries no line break or non-Latin-1 character: junk tokens are cut to
    what a header can hold (the raw ones go in bodies and URLs)."""
    return "".join(c for c in token if 0x20 < ord(c) < 0x7F)


class HttpAttack:
    """Sends hand-made hostile requests to ``base`` until ``budget`` is spent."""

    def __init__(self, base: str, fixture: Fixture, tally: Tally, seed: int) -> None:
        self.base = base
        self.fixture = fixture
        self.tally = tally
        self.seed = seed
        self.budget = 0

    async def run(self, budget: int, workers: int) -> None:
        self.budget = budget
        limits = httpx.Limits(max_connections=workers)
        async with httpx.AsyncClient(base_url=self.base, timeout=60, limits=limits) as client:
            await asyncio.gather(
                *(self._worker(client, random.Random(self.seed * 7919 + i)) for i in range(workers))
            )

    async def _worker(self, client: httpx.AsyncClient, rng: random.Random) -> None:
        while self.budget > 0:
            self.budget -= 1
            if rng.random() < 0.05:
                await self._raw(rng)
                continue
            req = make_request(rng, self.fixture)
            self.tally.count(req.kind)
            try:
                res = await client.request(req.method, req.path, headers=req.headers, content=req.body)
            except httpx.HTTPError as exc:
                self.tally.fault("http_no_answer", f"{req.method} {req.path[:100]}: {exc!r}")
                continue
            self.tally.statuses[res.status_code] += 1
            what = f"{req.kind}: {req.method} {req.path[:100]} -> {res.status_code} {res.text[:120]}"
            if res.status_code >= 500:
                self.tally.fault("http_5xx", what)
            elif (
                req.wrong_token_changes
                and res.status_code < 300
                or req.junk_lookup
                and res.status_code == 200
                and res.json()
            ):
                self.tally.fault("accepted_wrong_token", what)

    async def _raw(self, rng: random.Random) -> None:
        """One malformed request on a connection of its own; the answer (if any) must be below 500."""
        self.tally.count("http_raw_malformed")
        data = rng.choice(RAW_REQUESTS)
        host, port = self.base.removeprefix("http://").rsplit(":", 1)
        try:
            reader, writer = await asyncio.open_connection(host, int(port))
        except OSError as exc:
            self.tally.fault("http_no_answer", f"raw request: {exc!r}")
            return
        try:
            cut = rng.random() < 0.3  # hang up half-way through (the server waits for the rest)
            writer.write(data[: len(data) // 2] if cut else data)
            await writer.drain()
            if cut:
                return
            head = await asyncio.wait_for(reader.read(4096), 20)
            status = head.split(b" ", 2)[1] if head.startswith(b"HTTP/1.1 ") else b""
            if status.isdigit():
                self.tally.statuses[int(status)] += 1
                if int(status) >= 500:
                    self.tally.fault("http_5xx", f"raw {data[:60]!r} -> {head[:100]!r}")
        except (OSError, TimeoutError):
            pass  # the server may drop a connection that broke the protocol
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()


def run_schemathesis(base: str, tally: Tally, examples: int, seed: int, log: Callable[[str], None]) -> None:
    """schemathesis' generated requests against every operation of ``base``'s ``/openapi.json``
    (``examples`` per operation, schema-conforming then schema-violating ones), each checked for
    no 5xx, a documented status code and an answer matching its declared schema."""
    import requests
    import schemathesis
    from hypothesis.errors import Unsatisfiable
    from schemathesis import GenerationMode

    schema = schemathesis.openapi.from_url(base + "/openapi.json")
    session = requests.Session()
    for result in schema.get_all_operations():
        operation = result.ok()
        modes = [GenerationMode.POSITIVE]
        if len(operation.body) or len(operation.query):  # path and header strings have no wrong value
            modes.append(GenerationMode.NEGATIVE)
        for mode in modes:
            test = _operation_test(base, session, operation, mode, tally, examples)
            with contextlib.suppress(Unsatisfiable):  # no schema-violating input exists (no parameters)
                test()
        log(f"schemathesis: {operation.label} done")


def _operation_test(base: str, session: Any, operation: Any, mode: Any, tally: Tally, examples: int) -> Any:
    """A hypothesis test sending ``examples`` generated requests of ``operation``."""
    from hypothesis import HealthCheck, Phase, given, settings
    from schemathesis.checks import not_a_server_error
    from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

    checks = {
        "http_5xx": not_a_server_error,
        "schema_status_code": status_code_conformance,
        "schema_response": response_schema_conformance,
    }

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def test(case: Any) -> None:
        _calm_bots(case)
        tally.count("http_schemathesis")
        response = case.call(base_url=base, session=session, timeout=60)
        tally.statuses[response.status_code] += 1
        for name, check in checks.items():
            try:
                case.validate_response(response, checks=[check])
            except (Exception, BaseExceptionGroup) as exc:  # schemathesis' failures (a group)
                tally.fault(name, f"{operation.label} -> {response.status_code}: {_first_line(exc)}")

    return test


def _calm_bots(case: Any) -> None:
    """Tables the generated requests create get ``random`` bots: the run is about input, and a
    generated ``hard`` bot at every seat would only load the machine."""
    body = getattr(case, "body", None)
    if (
        case.operation.path == "/api/tables"
        and isinstance(body, dict)
        and isinstance(body.get("seats"), list)
    ):
        for seat in body["seats"]:
            if isinstance(seat, dict) and isinstance(seat.get("bot"), str):
                seat["bot"] = "random"


def _first_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return " / ".join(lines[:3])[:250]
