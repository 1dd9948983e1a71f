"""The rules index (``ziggurat.rules``): every rule id the coverage tool finds is indexed with its
text and anchored in the rendered spec; ids are unique per spec; a spec's raw HTML is shown as
text, never run."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ziggurat import rules

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["mare-nostrum", "mesopotamia", "mesopotamia-epochs"]


def _coverage_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "rule_coverage_for_index", ROOT / "tools" / "rule_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


TINY = """# Tiny <script>alert("title")</script> game

## 1. Moving

### T1 Steps
- **T1.1 Step.** A piece steps to a neighbour <script>alert(1)</script>.
- **T1.2** A piece may jump over T1.1's piece, never over a wall (T1, T9, XT1).
  - a nested line
- **T1.1** A second definition of T1.1, which loses.

**T2 Winning.** The last piece standing wins.

| ID | Decision |
|---|---|
| D1 | Which piece <b>bold</b> |

| Piece | Owner |
|---|---|
| H1 | Red |

```
T9 inside fenced code
```
"""


def test_the_shipped_specs_are_the_docs_ones() -> None:
    assert rules.spec_names() == GAMES
    for game in GAMES:
        assert rules.spec_text(game) == (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES)
def test_every_id_the_coverage_tool_finds_is_indexed_with_text_and_an_anchor(game: str) -> None:
    defined, _ = _coverage_tool().definitions(
        (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    )
    ix = rules.index(game)
    assert list(ix.rules) == defined
    anchors = re.findall(r'\bid="rule-([^"]+)"', ix.html)
    assert anchors == defined  # one anchor per rule, in spec order, none twice
    for rule in ix.rules.values():
        assert rule.text.strip(), rule.id
        assert rule.html.strip(), rule.id
        assert rule.section, rule.id


@pytest.mark.parametrize("game", GAMES)
def test_rule_ids_are_unique_in_each_spec(game: str) -> None:
    # a duplicated id would keep its first definition; none of the specs has one
    assert rules.index(game).duplicates == []


def test_a_rule_knows_its_title_section_and_text_M4_3() -> None:
    ix = rules.index("mesopotamia")
    m4 = ix.rule("M4")
    assert (m4.title, m4.section) == ("Stealing", "4. Rules")
    assert "M4.3 A steal moves the resource" in m4.text  # a heading's text is its section
    m43 = ix.rule("M4.3")
    assert (m43.title, m43.section) == ("", "M4 Stealing")
    assert m43.text.startswith("M4.3 A steal moves the resource from one of that player's tribes")
    assert "M4.4" not in m43.text
    r1 = ix.rule("R1")
    assert (r1.title, r1.section) == ("First player", "5. Rulings")
    # a row of an id table: its header and its row
    d1 = ix.rule("D1")
    assert d1.text.splitlines()[1].startswith("D1 | Colour")
    assert "<table>" in d1.html


def test_an_unknown_game_or_rule_is_refused_with_its_name() -> None:
    with pytest.raises(rules.UnknownSpec, match="no rules spec for 'chess'"):
        rules.spec_text("chess")
    with pytest.raises(rules.UnknownSpec, match="'M99'"):
        rules.index("mesopotamia").rule("M99")
    # one of the engine's family of errors, and a LookupError
    assert issubclass(rules.UnknownSpec, ValueError) and issubclass(rules.UnknownSpec, LookupError)


def test_tiny_spec_definitions_anchors_and_duplicates() -> None:
    ix = rules.parse(TINY)
    assert list(ix.rules) == ["T1", "T1.1", "T1.2", "T2", "D1"]  # not H1 (a plain table), not T9 (code)
    assert ix.duplicates == ["T1.1"]
    assert ix.rule("T1.1").text == "T1.1 Step. A piece steps to a neighbour <script>alert(1)</script>."
    assert ix.rule("T1.1").title == "Step"
    assert (
        ix.rule("T1.2").text
        == "T1.2 A piece may jump over T1.1's piece, never over a wall (T1, T9, XT1).\na nested line"
    )
    for rule_id, tag in [("T1", "h3"), ("T1.1", "li"), ("T1.2", "li"), ("T2", "p"), ("D1", "tr")]:
        assert re.search(rf'<{tag} id="rule-{re.escape(rule_id)}" class="rule"', ix.html), rule_id
    assert [s.anchor for s in ix.sections] == [
        "sec-tiny-script-alert-title-script-game",
        "sec-1-moving",
        "rule-T1",
    ]


def test_references_to_defined_ids_link_to_their_anchor() -> None:
    ix = rules.parse(TINY)
    item = re.search(r'<li id="rule-T1.2".*?</li>', ix.html, re.S)
    assert item is not None
    refs = re.findall(r'<a href="#rule-([^"]+)" class="rule-ref"', item.group(0))
    assert refs == ["T1.1", "T1"]  # T9 is defined nowhere (fenced code), XT1 is another word
    # a definition does not link to itself
    assert 'href="#rule-T2"' not in ix.html


def test_raw_html_in_a_spec_is_shown_never_run() -> None:
    ix = rules.parse(TINY)
    assert "<script" not in ix.html and "<b>" not in ix.html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in ix.html
    assert "&lt;b&gt;bold&lt;/b&gt;" in ix.html
    assert "<script" not in ix.rule("T1.1").html
    assert ix.title == 'Tiny <script>alert("title")</script> game'  # text; escaped where it is written


def test_a_definition_on_a_paragraphs_next_line_gets_a_marker() -> None:
    spec = "## 1. Play\n\n**T1 One.** First rule.\n**T2 Two.** A line markdown joins to T1's paragraph.\n"
    assert [d.rule for d in rules.definition_lines(spec)] == ["T1", "T2"]
    ix = rules.parse(spec)
    assert '<p id="rule-T1" class="rule">' in ix.html
    assert '\n<span id="rule-T2" class="rule rule-marker"></span><strong>T2 Two.</strong>' in ix.html
    assert ix.rule("T1").text == "T1 One. First rule."
    assert ix.rule("T2").text == "T2 Two. A line markdown joins to T1's paragraph."
    assert ix.rule("T2").title == "Two"
