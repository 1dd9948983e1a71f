"""Accounts: sign up, sign in, sign out, and who is signed in (docs/server.md, "Accounts").

Accounts are optional: every table keeps working by its secret seat links. An account has a
user name (3 to 32 letters, digits, ``_``, ``-`` or ``.``; unique without regard to case) and
a password kept only as its argon2id hash (argon2-cffi). Signing in sets a session cookie
(:data:`COOKIE`: HttpOnly, SameSite=Lax, Secure when the request came over https) whose
SHA-256 is stored with a CSRF token. A request authenticated by that cookie that changes
something must carry the CSRF token in ``X-CSRF-Token`` (:func:`require_csrf`); ``GET
/api/account`` gives it to the page. Sign-in attempts are limited per client address and per
user name (:data:`SIGNIN_ATTEMPTS` in :data:`SIGNIN_WINDOW` seconds), as are sign-ups.

Other modules ask who is signed in with :func:`signed_in` (``None`` for nobody) or
:func:`require_user` (401 for nobody), and check the CSRF token with :func:`require_csrf`.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Header, HTTPException, Request, Response, status
from pydantic import BaseModel, Field
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ziggurat.server.db import SessionRow, UserRow
from ziggurat.server.limits import CreationLimit, too_many_requests
from ziggurat.server.store import Store, now

COOKIE = "ziggurat_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_DAYS = 30
SIGNIN_ATTEMPTS = 10
SIGNIN_WINDOW = 300.0
SIGNUPS = 10
SIGNUP_WINDOW = 3600.0
NAME_RE = re.compile(r"[A-Za-z0-9_.\-]{3,32}")
MIN_PASSWORD = 8
MAX_PASSWORD = 256
COMMON_PASSWORDS = frozenset(
    {
        "password",
        "password1",
        "12345678",
        "123456789",
        "1234567890",
        "qwertyui",
        "qwertyuiop",
        "azertyui",
        "azertyuiop",
        "iloveyou",
        "sunshine",
        "football",
        "baseball",
        "letmein1",
        "abcdefgh",
        "motdepasse",
        "ziggurat",
        "mesopotamia",
    }
)

_hasher = PasswordHasher()

router = APIRouter(tags=["accounts"])


class AccountError(ValueError):
    """A refused sign-up or sign-in; nothing was stored."""


@dataclass(frozen=True, slots=True)
class SignedIn:
    """The account behind a request's session cookie."""

    user_id: int
    name: str
    csrf: str
    session_hash: str


# --- rules ------------------------------------------------------------------------------------
def name_key(name: str) -> str:
    """The form of a user name that must be unique (case-folded)."""
    return name.casefold()


def check_name(name: str) -> None:
    """:raises AccountError: for a user name outside :data:`NAME_RE`."""
    if not NAME_RE.fullmatch(name):
        raise AccountError("a user name has 3 to 32 characters: letters, digits, '_', '-' or '.' (no spaces)")


def check_password(name: str, password: str) -> None:
    """:raises AccountError: for a weak password, saying why."""
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"the password is too weak: use at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"the password is too long: at most {MAX_PASSWORD} characters")
    folded = password.casefold()
    if folded == name.casefold() or name.casefold() in folded:
        raise AccountError("the password is too weak: it must not contain the user name")
    if len(set(password)) < 4 or folded in COMMON_PASSWORDS:
        raise AccountError("the password is too weak: it is too easy to guess")


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (CPU work: about 50 ms)."""
    return _hasher.hash(password)


def verify_password(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def session_hash(cookie: str) -> str:
    return hashlib.sha256(cookie.encode("utf-8", "surrogatepass")).hexdigest()


# --- storage (run in the database thread through Store.run) -------------------------------------
def create_user(store: Store, name: str, password_hash: str) -> int:
    """Store a new account and answer its id. :raises AccountError: if the name is taken."""
    try:
        with store.sessions.begin() as s:
            row = UserRow(name=name, name_key=name_key(name), password_hash=password_hash, created=now())
            s.add(row)
            s.flush()
            return int(row.id)
    except IntegrityError as exc:
        raise AccountError(f"the user name {name!r} is taken") from exc


def name_taken(store: Store, name: str) -> bool:
    with store.sessions() as s:
        return s.scalar(select(UserRow.id).where(UserRow.name_key == name_key(name))) is not None


def find_user(store: Store, name: str) -> tuple[int, str, str] | None:
    """``(id, name, password hash)`` of the account called ``name`` (any case), or ``None``
    (at once for a name no account can have, e.g. with a NUL, which PostgreSQL refuses in a query)."""
    if NAME_RE.fullmatch(name) is None:
        return None
    with store.sessions() as s:
        row = s.scalar(select(UserRow).where(UserRow.name_key == name_key(name)))
        return None if row is None else (int(row.id), row.name, row.password_hash)


def user_name(store: Store, user_id: int) -> str | None:
    with store.sessions() as s:
        row = s.get(UserRow, user_id)
        return None if row is None else row.name


def create_session(store: Store, user_id: int, cookie_hash: str, csrf: str) -> None:
    at = now()
    with store.sessions.begin() as s:
        s.add(
            SessionRow(
                hash=cookie_hash,
                user_id=user_id,
                csrf=csrf,
                created=at,
                expires=at + timedelta(days=SESSION_DAYS),
            )
        )


def session_of(store: Store, cookie_hash: str) -> SignedIn | None:
    """The live session with this cookie hash (an expired one is deleted), or ``None``."""
    with store.sessions.begin() as s:
        row = s.get(SessionRow, cookie_hash)
        if row is None:
            return None
        if _aware(row.expires) <= now():
            s.delete(row)
            return None
        user = s.get(UserRow, row.user_id)
        if user is None:
            return None
        return SignedIn(int(user.id), user.name, row.csrf, cookie_hash)


def delete_session(store: Store, cookie_hash: str) -> None:
    with store.sessions.begin() as s:
        s.execute(delete(SessionRow).where(SessionRow.hash == cookie_hash))


def _aware(when: datetime) -> datetime:
    from datetime import UTC

    return when if when.tzinfo else when.replace(tzinfo=UTC)


# --- request helpers ---------------------------------------------------------------------------
def _store(request: Request) -> Store:
    store: Store = request.app.state.manager.store
    return store


async def signed_in(request: Request) -> SignedIn | None:
    """The account whose session cookie came with ``request``, or ``None`` (looked up once per
    request)."""
    cached: SignedIn | None | bool = getattr(request.state, "signed_in", False)
    if not isinstance(cached, bool):
        return cached
    cookie = request.cookies.get(COOKIE)
    who = None
    if cookie and len(cookie) <= 128:
        store = _store(request)
        who = await store.run(session_of, store, session_hash(cookie))
    request.state.signed_in = who
    return who


async def require_user(request: Request) -> SignedIn:
    """The signed-in account. :raises HTTPException: 401 when nobody is signed in."""
    who = await signed_in(request)
    if who is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "sign in first")
    return who


def require_csrf(request: Request, who: SignedIn) -> None:
    """:raises HTTPException: 403 unless ``X-CSRF-Token`` carries the session's CSRF token."""
    given = request.headers.get(CSRF_HEADER, "")
    if not secrets.compare_digest(given.encode(), who.csrf.encode()):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"missing or wrong {CSRF_HEADER} header (a change made with the sign-in cookie needs it)",
        )


async def require_user_csrf(request: Request) -> SignedIn:
    """The signed-in account of a request that changes something: 401 or 403 otherwise."""
    who = await require_user(request)
    require_csrf(request, who)
    return who


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _limit(request: Request, name: str, attempts: int, window: float) -> CreationLimit:
    limits: dict[str, CreationLimit] = request.app.state.__dict__.setdefault("account_limits", {})
    if name not in limits:
        limits[name] = CreationLimit(attempts, window)
    return limits[name]


def _check_rate(request: Request, which: str, keys: list[str], attempts: int, window: float) -> None:
    limit = _limit(request, which, attempts, window)
    for key in keys:
        wait = limit.acquire(key)
        if wait is not None:
            raise too_many_requests(
                request, f"{which} attempts", f"at most {attempts} every {window:g} seconds", wait
            )


# --- routes ------------------------------------------------------------------------------------
class Credentials(BaseModel):
    name: str = Field(max_length=64, description="3 to 32 letters, digits, '_', '-' or '.'")
    password: str = Field(max_length=1024)


class AccountOut(BaseModel):
    signed_in: bool
    name: str | None = None
    csrf: str | None = Field(default=None, description=f"send it back in {CSRF_HEADER} with every change")


def _set_cookie(request: Request, response: Response, cookie: str) -> None:
    response.set_cookie(
        COOKIE,
        cookie,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


async def _start_session(request: Request, response: Response, user_id: int, name: str) -> AccountOut:
    cookie = secrets.token_urlsafe(32)
    csrf = secrets.token_urlsafe(24)
    store = _store(request)
    await store.run(create_session, store, user_id, session_hash(cookie), csrf)
    _set_cookie(request, response, cookie)
    return AccountOut(signed_in=True, name=name, csrf=csrf)


@router.get("/api/account", response_model=AccountOut)
async def account(request: Request) -> AccountOut:
    """Who is signed in here (``signed_in: false`` for nobody), with the CSRF token to send back."""
    who = await signed_in(request)
    if who is None:
        return AccountOut(signed_in=False)
    return AccountOut(signed_in=True, name=who.name, csrf=who.csrf)


@router.post(
    "/api/account/signup",
    response_model=AccountOut,
    status_code=status.HTTP_201_CREATED,
    responses={
        400: {"description": "a bad name or a weak password"},
        409: {"description": "the name is taken"},
        429: {"description": "too many sign-ups from this address; Retry-After says when to retry"},
    },
)
async def signup(body: Credentials, request: Request, response: Response) -> AccountOut:
    """Create an account and sign in. 400 for a bad name or a weak password, 409 for a taken
    name, 429 after too many sign-ups from one address; nothing is stored on failure."""
    _check_rate(request, "sign-up", [client_address(request)], SIGNUPS, SIGNUP_WINDOW)
    try:
        check_name(body.name)
        check_password(body.name, body.password)
    except AccountError as exc:
        _limit(request, "sign-up", SIGNUPS, SIGNUP_WINDOW).release(client_address(request))
        raise HTTPException(status.HTTP_400_BAD_REQUEST, str(exc)) from exc
    store = _store(request)
    if await store.run(name_taken, store, body.name):
        _limit(request, "sign-up", SIGNUPS, SIGNUP_WINDOW).release(client_address(request))
        raise HTTPException(status.HTTP_409_CONFLICT, f"the user name {body.name!r} is taken")
    hashed = await asyncio.to_thread(hash_password, body.password)
    try:
        user_id = await store.run(create_user, store, body.name, hashed)
    except AccountError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from exc
    return await _start_session(request, response, user_id, body.name)


@router.post(
    "/api/account/signin",
    response_model=AccountOut,
    responses={
        401: {"description": "a wrong name or password (the answer does not say which)"},
        429: {"description": "too many attempts from this address or for this name; see Retry-After"},
    },
)
async def signin(body: Credentials, request: Request, response: Response) -> AccountOut:
    """Sign in. 401 for a wrong name or password (the answer does not say which), 429 after
    too many attempts from one address or for one name."""
    keys = [f"address:{client_address(request)}", f"name:{name_key(body.name)}"]
    _check_rate(request, "sign-in", keys, SIGNIN_ATTEMPTS, SIGNIN_WINDOW)
    store = _store(request)
    found = await store.run(find_user, store, body.name)
    if found is None:
        await asyncio.to_thread(hash_password, body.password)  # the same time as a wrong password
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "wrong user name or password")
    user_id, name, stored = found
    if not await asyncio.to_thread(verify_password, stored, body.password):
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "wrong user name or password")
    return await _start_session(request, response, user_id, name)


@router.post(
    "/api/account/signout",
    response_model=AccountOut,
    responses={
        401: {"description": "nobody is signed in"},
        403: {"description": "no CSRF token, or not this session's"},
    },
)
async def signout(
    request: Request,
    response: Response,
    x_csrf_token: Annotated[str | None, Header(alias=CSRF_HEADER)] = None,
) -> AccountOut:
    """Sign out this browser (its session is deleted). Needs the CSRF token."""
    who = await require_user_csrf(request)
    store = _store(request)
    await store.run(delete_session, store, who.session_hash)
    response.delete_cookie(COOKIE, path="/")
    return AccountOut(signed_in=False)
