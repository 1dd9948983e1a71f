"""The rules at hand: each game's rules spec as a page and as JSON (docs/server.md, "Rules").

``GET /rules/{game}`` is the whole spec (``ziggurat.rules``) as a readable page with a table of
contents and an anchor per rule (``#rule-M4.3``); ``GET /api/rules/{game}`` is the same for the
table's rules panel, and ``GET /api/rules/{game}/{rule_id}`` one rule's text, which the client
shows where a refusal or a log line names that rule.
"""

from __future__ import annotations

import asyncio
import html
from typing import Any

from fastapi import APIRouter, HTTPException, status
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from ziggurat import rules
from ziggurat.server.schemas import ErrorOut

router = APIRouter()

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorOut, "description": "no rules spec for that game, or no such rule in it"}
}


class SectionOut(BaseModel):
    level: int
    title: str
    anchor: str


class RulesOut(BaseModel):
    game: str
    title: str
    sections: list[SectionOut]
    rules: list[str]
    html: str


class RuleOut(BaseModel):
    game: str
    id: str
    title: str
    section: str
    anchor: str
    html: str
    text: str


async def _index(game: str) -> rules.RulesIndex:
    try:
        # parsed once per game (cached); the first parse renders a spec of ~100 KB
        return await asyncio.to_thread(rules.index, game)
    except rules.UnknownSpec as err:
        raise HTTPException(status.HTTP_404_NOT_FOUND, str(err)) from None


@router.get("/api/rules/{game}", response_model=RulesOut, responses=_NOT_FOUND, tags=["rules"])
async def rules_spec(game: str) -> RulesOut:
    """The rules spec of ``game`` as HTML, with its headings and the ids of its rules."""
    ix = await _index(game)
    return RulesOut(
        game=game,
        title=ix.title,
        sections=[SectionOut(level=s.level, title=s.title, anchor=s.anchor) for s in ix.sections],
        rules=list(ix.rules),
        html=ix.html,
    )


@router.get("/api/rules/{game}/{rule_id}", response_model=RuleOut, responses=_NOT_FOUND, tags=["rules"])
async def rule(game: str, rule_id: str) -> RuleOut:
    """One rule of ``game``'s spec: its title, the section it stands in, its text (HTML and plain)."""
    ix = await _index(game)
    try:
        r = ix.rule(rule_id)
    except rules.UnknownSpec as err:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"{err} for {game!r}") from None
    return RuleOut(
        game=game, id=r.id, title=r.title, section=r.section, anchor=r.anchor, html=r.html, text=r.text
    )


@router.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
async def rules_page(game: str) -> HTMLResponse:
    """The whole spec as a page of the site."""
    try:
        ix = await _index(game)
    except HTTPException as err:
        return HTMLResponse(_shell(game, "", html.escape(str(err.detail)), "", ""), status_code=404)
    return HTMLResponse(page(game, ix))


def page(game: str, ix: rules.RulesIndex) -> str:
    """The HTML page of a parsed spec: the site's top bar, the contents, the spec."""
    return _shell(game, ix.title, "", contents(ix), ix.html)


def contents(ix: rules.RulesIndex) -> str:
    """The table of contents: the spec's level 2 headings, each with its level 3 ones."""
    tree: list[tuple[rules.Section, list[rules.Section]]] = []
    for s in ix.sections:
        if s.level == 2:
            tree.append((s, []))
        elif s.level == 3 and tree:
            tree[-1][1].append(s)

    def link(s: rules.Section) -> str:
        return f'<a href="#{html.escape(s.anchor)}">{html.escape(s.title)}</a>'

    items = []
    for top, subs in tree:
        inner = "".join(f"<li>{link(s)}</li>" for s in subs)
        items.append(f"<li>{link(top)}{f'<ol>{inner}</ol>' if inner else ''}</li>")
    return f'<ol class="toc">{"".join(items)}</ol>'


def _shell(game: str, title: str, error: str, toc: str, body: str) -> str:
    name = html.escape(title or game)
    main = (
        f'<p class="error-banner" role="alert">{error}</p>'
        if error
        else (
            '<nav class="rules-toc" aria-labelledby="toc-title"><details open>'
            f'<summary id="toc-title" data-i18n="rules.contents">Contents</summary>{toc}</details></nav>'
            f'<article class="rules-body" lang="en">{body}</article>'
        )
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{name} — Ziggurat</title>
  <link rel="stylesheet" href="/style.css">
  <link rel="stylesheet" href="/rules.css">
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
</head>
<body class="rules-page" data-game="{html.escape(game)}">
  <header class="topbar">
    <a class="brand" href="/"><svg class="logo" viewBox="0 0 24 24" aria-hidden="true"><path d="M2 21h20v-3H2zM5 17h14v-3H5zM8 13h8v-3H8zM10.5 9h3V6h-3z"/></svg> Ziggurat</a>
    <span class="tagline"><span data-i18n="rules.title">Rules</span> · <span data-i18n="game.{html.escape(game)}">{name}</span></span>
    <span id="lang" class="lang"></span>
  </header>
  <main class="rules-main">
    <p class="rules-lang-note" data-i18n="rules.englishOnly" hidden>The rules are in English.</p>
    {main}
  </main>
  <script type="module">
    import {{ initRulesPage }} from "/rules.js";
    initRulesPage();
  </script>
</body>
</html>
"""
