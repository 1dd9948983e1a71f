"""An account's mail preferences and unsubscribing (docs/server.md, "Mail").

``GET /api/account/preferences`` and ``POST`` (sign-in cookie; the POST needs the CSRF token):
the account's e-mail address and whether it is mailed when it is its turn at a turn-based
table, and whether this server sends mail at all. ``POST /unsubscribe/{token}`` (the page's
button, and the one-click POST of RFC 8058 that mail programs send) turns the mail off without
signing in; ``GET /api/unsubscribe/{token}`` says whose token it is. An unknown token changes
nothing and answers 404. The pages are ``/account/preferences`` and ``/unsubscribe/{token}``.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, status
from pydantic import BaseModel, Field

from ziggurat.server.accounts import require_user, require_user_csrf
from ziggurat.server.mail import preferences_of, set_preferences, unsubscribe, unsubscriber, valid_address
from ziggurat.server.store import Store

router = APIRouter(tags=["accounts"])


class PreferencesIn(BaseModel):
    email: str | None = Field(default=None, max_length=254, description="the address; empty or null: none")
    mail_turns: bool = Field(description="mail me when it is my turn at a turn-based table")
    lang: Literal["en", "fr"] | None = Field(
        default=None, description="the language of the mails (the page sends its own); null: unchanged"
    )


class PreferencesOut(BaseModel):
    email: str | None
    mail_turns: bool
    mail_enabled: bool = Field(description="whether this server sends mail at all (SMTP settings)")


class UnsubscribeOut(BaseModel):
    name: str = Field(description="the account the token belongs to")
    unsubscribed: bool = Field(description="mail is off now (after the POST)")


def _store(request: Request) -> Store:
    store: Store = request.app.state.manager.store
    return store


def _enabled(request: Request) -> bool:
    return getattr(request.app.state, "mailer", None) is not None


_UNKNOWN: dict[int | str, dict[str, Any]] = {
    404: {"description": "unknown unsubscribe token: nothing changed"}
}


@router.get(
    "/api/account/preferences",
    response_model=PreferencesOut,
    responses={401: {"description": "nobody is signed in"}},
)
async def get_preferences(request: Request) -> PreferencesOut:
    """The signed-in account's mail preferences."""
    who = await require_user(request)
    store = _store(request)
    prefs = await store.run(preferences_of, store, who.user_id)
    return PreferencesOut(email=prefs.email, mail_turns=prefs.mail_turns, mail_enabled=_enabled(request))


@router.post(
    "/api/account/preferences",
    response_model=PreferencesOut,
    responses={
        400: {"description": "not an e-mail address"},
        401: {"description": "nobody is signed in"},
        403: {"description": "no CSRF token"},
    },
)
async def post_preferences(body: PreferencesIn, request: Request) -> PreferencesOut:
    """Set the signed-in account's address (empty: none) and whether it is mailed on its turn."""
    who = await require_user_csrf(request)
    email = (body.email or "").strip() or None
    if email is not None and not valid_address(email):
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST, f"{email!r} is not an e-mail address (name@example.org)"
        )
    store = _store(request)
    prefs = await store.run(set_preferences, store, who.user_id, email, body.mail_turns, body.lang)
    return PreferencesOut(email=prefs.email, mail_turns=prefs.mail_turns, mail_enabled=_enabled(request))


@router.get("/api/unsubscribe/{token}", response_model=UnsubscribeOut, responses=_UNKNOWN)
async def unsubscribe_state(token: str, request: Request) -> UnsubscribeOut:
    """Whose unsubscribe token this is (nothing changes)."""
    store = _store(request)
    name = await store.run(unsubscriber, store, token[:128])
    if name is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "this unsubscribe link is unknown or out of date")
    return UnsubscribeOut(name=name, unsubscribed=False)


@router.post("/unsubscribe/{token}", response_model=UnsubscribeOut, responses=_UNKNOWN)
async def unsubscribe_post(token: str, request: Request) -> UnsubscribeOut:
    """Stop the "your turn" mails of the token's account (no sign-in; also the RFC 8058
    one-click POST, whose form body ``List-Unsubscribe=One-Click`` is not needed)."""
    store = _store(request)
    name = await store.run(unsubscribe, store, token[:128])
    if name is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "this unsubscribe link is unknown or out of date")
    return UnsubscribeOut(name=name, unsubscribed=True)
