"""The rules specs as data: each game's spec split into sections and rule ids, rendered to HTML.

The specs are ``docs/rules/<game>.md`` (the one copy people edit); the package ships them as
package data (``ziggurat/specs``, a link to that folder that a wheel copies), so an installed
Ziggurat reads them with :mod:`importlib.resources`.

A spec *defines* a rule id on the line that starts with it: a heading (``### E12 Combat``), a
bold lead (``**M4.3 ...**``), a list item (``- S1. ...``) or the first cell of a row of an id
table, one whose header names its first column ``ID``, ``Id`` or ``#`` (``| D15 | ...``). Rows
of other tables and fenced code define nothing. ``tools/rule_coverage.py`` reads the specs with
the same parser (:func:`definition_lines`), so the rules a test must cite are the rules the
browser links to. An id defined twice keeps its first definition; :attr:`RulesIndex.duplicates`
names the others.

:func:`parse` renders a spec with markdown-it-py, raw HTML off (a spec's ``<script>`` is shown as
text), and gives every rule definition an anchor ``id="rule-M4.3"`` and every other heading
``id="sec-..."``; a rule id named in the text (``(M5)``) links to its anchor.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from importlib import resources

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ziggurat.engine.errors import ZigguratError

SPEC_PACKAGE = "ziggurat"
SPEC_FOLDER = "specs"

ID = r"[A-Z]\d+(?:\.\d+)*"
DEFINITION = re.compile(
    rf"^(?:#{{2,4}}\s+|\s*[-*]\s+(?:\*\*)?|\*\*|\|\s*(?:\*\*)?)({ID})(?:\*\*)?(?=[\s.:|*)]|$)"
)
TABLE_ROW = re.compile(r"^\|")
ID_TABLE_HEADER = re.compile(r"^\|\s*(?:ID|Id|#)\s*\|")
NOT_TESTABLE = re.compile(r"\[not testable: [^\]]+\]")
# a rule id named in running text: not part of a longer word, number or id
REFERENCE = re.compile(r"(?<![A-Za-z0-9.])([A-Z]\d+(?:\.\d+)*)(?![A-Za-z0-9]|\.\d)")
FENCE = "```"
MARKER = re.compile(r'<span id="rule-([^"]+)" class="rule rule-marker">')

_BLOCK_OPENS = ("heading_open", "list_item_open", "paragraph_open", "tr_open")
_BLOCK_TAGS = {"p", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "ul", "ol", "pre", "blockquote"}


class UnknownSpec(ZigguratError, LookupError):
    """No rules spec for that game, or no such rule id in it."""


@dataclass(frozen=True, slots=True)
class Definition:
    """One line of a spec that defines a rule id (``line`` counts from 0)."""

    rule: str
    line: int
    text: str

    @property
    def testable(self) -> bool:
        return not NOT_TESTABLE.search(self.text)


def definition_lines(text: str) -> list[Definition]:
    """Every line of ``text`` that defines a rule id, in order (duplicates included)."""
    found: list[Definition] = []
    fenced = False
    in_table = id_table = False
    for number, line in enumerate(text.splitlines()):
        if line.lstrip().startswith(FENCE):
            fenced = not fenced
            continue
        if fenced:
            continue
        if TABLE_ROW.match(line):
            if not in_table:  # a table's first row is its header
                id_table = bool(ID_TABLE_HEADER.match(line))
            in_table = True
            if not id_table:
                continue
        else:
            in_table = False
        m = DEFINITION.match(line)
        if m:
            found.append(Definition(m.group(1), number, line))
    return found


@dataclass(frozen=True, slots=True)
class Section:
    """A heading of the spec: its level (2 for ``##``), text and anchor."""

    level: int
    title: str
    anchor: str


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule id with its definition: ``title`` is its own (``M4 Stealing`` -> ``Stealing``,
    empty when it has none), ``section`` the heading it stands under, ``html`` and ``text`` its
    definition (a heading's: the section it opens)."""

    id: str
    title: str
    section: str
    line: int
    html: str
    text: str

    @property
    def anchor(self) -> str:
        return f"rule-{self.id}"


@dataclass(frozen=True)
class RulesIndex:
    """A parsed spec: its title, headings, rules by id (in spec order) and the whole HTML."""

    title: str
    sections: list[Section]
    rules: dict[str, Rule]
    html: str
    duplicates: list[str] = field(default_factory=list)

    def rule(self, rule_id: str) -> Rule:
        """The rule ``rule_id``; :class:`UnknownSpec` when the spec does not define it."""
        try:
            return self.rules[rule_id]
        except KeyError:
            raise UnknownSpec(f"the rules define no {rule_id!r}") from None


def _markdown() -> MarkdownIt:
    # commonmark with tables; raw HTML off, so a tag in a spec is text, never markup
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _inline_text(tokens: list[Token]) -> str:
    parts = []
    for tok in tokens:
        if tok.type == "inline":
            parts.append(_inline_text(tok.children or []))
        elif tok.type in ("text", "code_inline"):
            parts.append(tok.content)
        elif tok.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


class _PlainText(HTMLParser):
    """HTML to readable plain text: blocks on their own lines, table cells apart."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

        self.first_cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.first_cell = True
        elif tag in ("td", "th"):
            self.parts.append("" if self.first_cell else " | ")
            self.first_cell = False

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data.replace("\n", " "))  # markdown's line breaks are not the text's


def plain_text(fragment: str) -> str:
    """The text of an HTML fragment, one block a line."""
    parser = _PlainText()
    parser.feed(fragment)
    parser.close()
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)


def _dedent(lines: list[str]) -> list[str]:
    """A list item's lines without its marker's indentation, so it renders on its own."""
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    return [x[indent:] for x in lines]


def _link_references(tokens: list[Token], ids: set[str]) -> None:
    """Turn every rule id named in running text into a link to its anchor."""
    defining: list[str | None] = []  # the rule each open block defines (a self-reference stays text)
    for block in tokens:
        if block.nesting == 1:
            anchor = block.attrGet("id")
            defining.append(
                str(anchor)[5:] if isinstance(anchor, str) and anchor.startswith("rule-") else None
            )
        elif block.nesting == -1 and defining:
            defining.pop()
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        in_link = 0
        marked: set[str] = set()  # rules whose marker stands earlier in this text
        for tok in block.children:
            m = MARKER.search(tok.content) if tok.type == "html_inline" else None
            if m:
                marked.add(m.group(1))
            if tok.type == "link_open":
                in_link += 1
            elif tok.type == "link_close":
                in_link -= 1
            if tok.type != "text" or in_link:
                children.append(tok)
                continue
            at = 0
            for m in REFERENCE.finditer(tok.content):
                if m.group(1) not in ids or m.group(1) in defining or m.group(1) in marked:
                    continue
                if m.start() > at:
                    children.append(_text(tok.content[at : m.start()]))
                link = Token("link_open", "a", 1)
                link.attrs = {"href": f"#rule-{m.group(1)}", "class": "rule-ref", "data-rule": m.group(1)}
                children += [link, _text(m.group(1)), Token("link_close", "a", -1)]
                at = m.end()
            if at == 0:
                children.append(tok)
            elif at < len(tok.content):
                children.append(_text(tok.content[at:]))
        block.children = children


def _text(content: str) -> Token:
    tok = Token("text", "", 0)
    tok.content = content
    return tok


def parse(text: str) -> RulesIndex:
    """Index and render one spec's markdown ``text``."""
    md = _markdown()
    tokens = md.parse(text)
    lines = text.splitlines()
    definitions = definition_lines(text)
    first: dict[str, Definition] = {}
    duplicates: list[str] = []
    for d in definitions:
        if d.rule in first:
            if d.rule not in duplicates:
                duplicates.append(d.rule)
        else:
            first[d.rule] = d
    by_line = {d.line: d.rule for d in first.values()}

    # the block each definition opens: the first block token starting on its line
    opening: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        if tok.type in _BLOCK_OPENS and tok.map and tok.map[0] in by_line:
            rule = by_line[tok.map[0]]
            if rule not in opening:
                opening[rule] = i
                tok.attrSet("id", f"rule-{rule}")
                tok.attrJoin("class", "rule")

    # a definition on a line markdown reads as the next line of a block (a paragraph's lazy
    # continuation) gets an empty marker where that line starts
    markers: list[tuple[int, int, str]] = []  # (inline token, line within it, rule)
    starts: dict[str, tuple[int, int]] = {}  # rule -> its lines
    for rule, d in first.items():
        if rule in opening:
            continue
        inline = next(
            (
                i
                for i, tok in enumerate(tokens)
                if tok.type == "inline" and tok.map and tok.map[0] <= d.line < tok.map[1]
            ),
            None,
        )
        if inline is None:
            continue
        span = tokens[inline].map or (d.line, d.line + 1)
        markers.append((inline, d.line - span[0], rule))
        starts[rule] = (d.line, span[1])

    # headings: anchors, titles, and the section each line stands under
    title = ""
    sections: list[Section] = []
    headings: list[tuple[int, int, str]] = []  # (line, level, title)
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open" or not tok.map:
            continue
        level = int(tok.tag[1])
        heading = _inline_text([tokens[i + 1]])
        if level == 1 and not title:
            title = heading
        if tok.attrGet("id") is None:
            anchor = f"sec-{_slug(heading)}"
            taken = {s.anchor for s in sections}
            n = 2
            while anchor in taken:
                anchor, n = f"sec-{_slug(heading)}-{n}", n + 1
            tok.attrSet("id", anchor)
        sections.append(Section(level, heading, str(tok.attrGet("id"))))
        headings.append((tok.map[0], level, heading))

    rules: dict[str, Rule] = {}
    next_definition = {
        a.rule: b.line for a, b in zip(definitions, definitions[1:], strict=False) if first[a.rule] is a
    }
    for rule, d in first.items():
        at = opening.get(rule)
        if at is None and rule not in starts:
            continue  # a definition in no block at all: none in the specs (tested)
        tok = tokens[at] if at is not None else Token("paragraph_open", "p", 1)
        start, end = starts.get(rule) or tok.map or (d.line, d.line + 1)
        if tok.type != "heading_open":
            # a rule's text stops where the next rule's starts (a sub-rule has its own)
            end = min(end, max(next_definition.get(rule, end), start + 1))
        under = [h for h in headings if h[0] <= d.line]
        section = under[-1][2] if under else title
        own = ""
        if tok.type == "heading_open":
            level = int(tok.tag[1])
            end = next((h[0] for h in headings if h[0] > start and h[1] <= level), len(lines))
            own = (
                _inline_text(tokens[at + 1 : at + 2] if at is not None else [])
                .removeprefix(rule)
                .strip(" .:")
            )
            above = [h for h in headings if h[0] < start and h[1] < level]
            section = above[-1][2] if above else title
            chunk = lines[start + 1 : end]
        elif tok.type == "tr_open":
            chunk = _table_header(lines, start) + [lines[start]]
        elif tok.type == "list_item_open" or rule in starts:
            chunk = _dedent(lines[start:end])
            chunk[0] = re.sub(r"^[-*]\s+", "", chunk[0])
        else:
            chunk = lines[start:end]
        if tok.type != "heading_open":
            own = _own_title(d.text, rule)
        fragment = md.render("\n".join(chunk)) if any(x.strip() for x in chunk) else ""
        if not fragment:
            fragment = f"<p>{html.escape(own or rule)}</p>\n"
        rules[rule] = Rule(rule, own, section, d.line, fragment, plain_text(fragment))

    for at, k, rule in sorted(markers, reverse=True):
        _insert_marker(tokens[at], k, rule)
    _link_references(tokens, set(rules))
    body = md.renderer.render(tokens, md.options, {})
    return RulesIndex(title, sections, rules, body, duplicates)


def _insert_marker(inline: Token, k: int, rule: str) -> None:
    """An empty anchor for ``rule`` where line ``k`` of ``inline`` starts."""
    children = inline.children or []
    at, seen = 0, 0
    while seen < k and at < len(children):
        if children[at].type in ("softbreak", "hardbreak"):
            seen += 1
        at += 1
    marker = Token("html_inline", "", 0)
    marker.content = f'<span id="rule-{html.escape(rule)}" class="rule rule-marker"></span>'
    inline.children = [*children[:at], marker, *children[at:]]


def _table_header(lines: list[str], row: int) -> list[str]:
    """The header and delimiter rows of the table holding line ``row``."""
    top = row
    while top > 0 and TABLE_ROW.match(lines[top - 1]):
        top -= 1
    return lines[top : top + 2]


def _own_title(line: str, rule: str) -> str:
    """The title a bold lead gives its rule: ``- **R1 First player.** ...`` -> ``First player``."""
    m = re.search(rf"\*\*{re.escape(rule)}\.?\s+([^*]+?)\.?\*\*", line)
    return m.group(1).strip() if m else ""


def spec_names() -> list[str]:
    """The games whose rules spec the package ships (their game ids)."""
    folder = resources.files(SPEC_PACKAGE) / SPEC_FOLDER
    return sorted(p.name[: -len(".md")] for p in folder.iterdir() if p.name.endswith(".md"))


def spec_text(game: str) -> str:
    """The markdown of ``game``'s rules spec; :class:`UnknownSpec` for a game without one."""
    if game not in spec_names():
        raise UnknownSpec(f"no rules spec for {game!r}; specs: {', '.join(spec_names())}")
    return (resources.files(SPEC_PACKAGE) / SPEC_FOLDER / f"{game}.md").read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def index(game: str) -> RulesIndex:
    """The parsed rules spec of ``game`` (read and rendered once)."""
    return parse(spec_text(game))
