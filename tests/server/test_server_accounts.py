"""Accounts (docs/server.md, "Accounts"): sign up, sign in, sign out, the session cookie and CSRF."""

from __future__ import annotations

from typing import Any

from server_helpers import TestClient

from ziggurat.server.accounts import COOKIE, CSRF_HEADER


def signup(client: TestClient, name: str = "Gilgamesh", password: str = "cedar forest 7") -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def test_signup_signs_in_with_an_httponly_lax_cookie(client: TestClient) -> None:
    r = signup(client)
    assert r.status_code == 201, r.text
    assert r.json()["name"] == "Gilgamesh" and r.json()["csrf"]
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert "Secure" not in cookie  # plain http here
    me = client.get("/api/account").json()
    assert me == {"signed_in": True, "name": "Gilgamesh", "csrf": r.json()["csrf"]}


def test_taken_name_weak_password_and_bad_name_are_refused_and_nothing_is_stored(client: TestClient) -> None:
    assert signup(client).status_code == 201
    client.cookies.clear()
    taken = signup(client, name="gilgamesh")
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    weak = signup(client, name="Enkidu", password="short")
    assert weak.status_code == 400 and "too weak" in weak.json()["detail"]
    guessable = signup(client, name="Enkidu", password="password1")
    assert guessable.status_code == 400 and "too weak" in guessable.json()["detail"]
    bad = signup(client, name="en kidu", password="cedar forest 7")
    assert bad.status_code == 400 and "user name" in bad.json()["detail"]
    assert client.get("/api/account").json() == {"signed_in": False, "name": None, "csrf": None}
    wrong = client.post("/api/account/signin", json={"name": "Enkidu", "password": "cedar forest 7"})
    assert wrong.status_code == 401  # Enkidu was never stored


def test_signin_wrong_password_signout_needs_csrf(client: TestClient) -> None:
    assert signup(client).status_code == 201
    client.cookies.clear()
    wrong = client.post("/api/account/signin", json={"name": "Gilgamesh", "password": "not the one"})
    assert wrong.status_code == 401 and wrong.json()["detail"] == "wrong user name or password"
    ok = client.post("/api/account/signin", json={"name": "GILGAMESH", "password": "cedar forest 7"})
    assert ok.status_code == 200 and ok.json()["name"] == "Gilgamesh"
    no_csrf = client.post("/api/account/signout")
    assert no_csrf.status_code == 403 and CSRF_HEADER in no_csrf.json()["detail"]
    assert client.get("/api/account").json()["signed_in"] is True
    out = client.post("/api/account/signout", headers={CSRF_HEADER: ok.json()["csrf"]})
    assert out.status_code == 200
    assert client.get("/api/account").json()["signed_in"] is False


def test_signin_attempts_are_rate_limited(client: TestClient) -> None:
    assert signup(client).status_code == 201
    client.cookies.clear()
    codes = [
        client.post("/api/account/signin", json={"name": "Gilgamesh", "password": f"guess {i}"}).status_code
        for i in range(11)
    ]
    assert codes[:10] == [401] * 10
    assert codes[10] == 429
    limited = client.post("/api/account/signin", json={"name": "Gilgamesh", "password": "cedar forest 7"})
    assert limited.status_code == 429 and "Retry-After" in limited.headers
