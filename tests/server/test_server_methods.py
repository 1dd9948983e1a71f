"""A request on a route's path with a method none of that path's routes answers gets ``405``
with ``Allow`` (docs/server.md), not the static client's ``404``: every HTTP route of the app,
every method it does not take."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from server_helpers import TestClient, create_app
from starlette.routing import Route

from ziggurat.server import api

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def _routes() -> list[tuple[str, set[str]]]:
    """(path, methods) of every HTTP route: the API's, from the OpenAPI document, and the
    routes left out of it (the pages, the documentation)."""
    app = create_app("sqlite://", bot_delay=0, static_dir="/nonexistent")
    routes = [(r.path, set(r.methods or ())) for r in app.routes if isinstance(r, Route)]
    for path, operations in app.openapi()["paths"].items():
        routes.append((path, {method.upper() for method in operations}))
    return routes


def _concrete(path: str) -> str:
    """The route's path with each ``{parameter}`` filled in."""
    return re.sub(r"\{[^}]+\}", "x1", path)


def _matches(route_path: str, path: str) -> bool:
    """Whether ``path`` is one of the paths of the route path ``route_path``."""
    pattern = "[^/]+".join(re.escape(part) for part in re.split(r"\{[^}]+\}", route_path))
    return re.fullmatch(pattern, path) is not None


def _wrong_methods() -> list[tuple[str, str, str]]:
    """(method, path, the methods the routes of that path take, comma-separated) for every
    route and every method none of the routes matching its path takes."""
    routes = _routes()
    cases: dict[tuple[str, str], str] = {}
    for route_path, _ in routes:
        path = _concrete(route_path)
        allowed: set[str] = set()
        for other_path, methods in routes:
            if _matches(other_path, path):
                allowed |= methods
        for method in METHODS:
            if method not in allowed:
                cases[method, path] = ", ".join(sorted(allowed))
    return [(method, path, allow) for (method, path), allow in sorted(cases.items())]


def test_the_routes_cover_the_api() -> None:
    paths = {path for path, _ in _routes()}
    assert {"/healthz", "/api/games", "/api/tables", "/api/tables/{table_id}", "/api/tables/lookup"} <= paths
    assert {r.path for r in api.router.routes if isinstance(r, Route)} <= paths


@pytest.mark.sqlite_only  # the 405 comes before any route runs: the database plays no part
@pytest.mark.parametrize(("method", "path", "allow"), _wrong_methods())
def test_a_wrong_method_answers_405_with_allow(client: Any, method: str, path: str, allow: str) -> None:
    r = client.request(method, path)
    assert (r.status_code, r.headers["Allow"]) == (405, allow), r.text
    if method != "HEAD":
        assert r.json() == {"detail": f"method {method} is not allowed on {path}; allowed: {allow}"}


@pytest.mark.sqlite_only  # as above
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/api/tables", "POST"),
        ("GET", "/api/tables", "POST"),
        ("PUT", "/api/games", "GET"),
        ("POST", "/healthz", "GET"),
        ("DELETE", "/api/tables/abc", "GET"),
        ("PUT", "/api/tables/abc/rematch", "POST"),
        ("GET", "/api/tables/abc/rematch", "POST"),
    ],
)
def test_the_examples_answer_405(client: Any, method: str, path: str, allow: str) -> None:
    r = client.request(method, path, json={"game": "mesopotamia"})
    assert (r.status_code, r.headers.get("Allow")) == (405, allow)


def test_right_methods_and_other_paths_are_unchanged(client: Any, tmp_path: Path) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/tables/lookup").status_code == 404  # GET /api/tables/{table_id}: no such table
    assert client.post("/api/tables/lookup", json={"tokens": []}).json() == []
    assert client.get("/no/such/file.js").status_code == 404
    static = tmp_path / "client"
    static.mkdir()
    (static / "app.js").write_text("export {};\n")
    with TestClient(create_app(f"sqlite:///{tmp_path / 's.db'}", bot_delay=0, static_dir=static)) as http:
        assert http.get("/app.js").text == "export {};\n"
        assert http.get("/static/app.js").status_code == 200
        r = http.delete("/api/tables")
        assert (r.status_code, r.headers["Allow"]) == (405, "POST")
