"""Rule coverage: every numbered rule and ruling of the three rules specs is cited by a test.

The specs live in ``docs/rules/``; ``ziggurat.rules`` parses them (the same parser serves the
rules pages of the browser client). A spec *defines* an id on the line that starts with it (a
heading ``### E12 Combat``, a bold lead ``**M4.3 ...**``, a list item ``- S1. ...`` or the first
cell of a row of an id table, one whose header names its first column ``ID``, ``Id`` or ``#``
(``| D15 | ...``); rows of other tables, such as a worked example's ``| H1 | Red | ...``, and
fenced code define nothing. A test *cites* an id by naming it (``M4.3``, or ``M4_3`` in a test
name; a range such as ``M7.1–M7.5`` cites every id between its ends); lint codes after
``noqa`` cite nothing. An id with sub-ids (``N0.4`` over ``N0.4.1``) is covered when it or one
of its sub-ids is cited.

An id that no test can check says so on its own line of the spec, with the reason:
``[not testable: why]``.

Usage: ``python tools/rule_coverage.py`` prints the count per spec and lists every uncited id;
it exits with 1 when one is uncited. ``--json`` prints the same as JSON.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))  # the parser of the checkout whose specs this reads

from ziggurat.rules import definition_lines  # noqa: E402 - needs the path above

# spec file -> the test folders whose files may cite its ids
SPECS: dict[str, tuple[str, ...]] = {
    "docs/rules/mesopotamia.md": ("tests/games/mesopotamia",),
    "docs/rules/mesopotamia-epochs.md": ("tests/games/mesopotamia_epochs",),
    "docs/rules/mare-nostrum.md": ("tests/games/mare_nostrum",),
}

NOQA = re.compile(r"#[ \t]*noqa:[ \tA-Z0-9,]*")
NOT_TESTABLE = re.compile(r"\[not testable: [^\]]+\]")
CITE = re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,2}\d+(?:[._]\d+)*)(?:\s*[–-]\s*([A-Z]{1,2}\d+(?:[._]\d+)*))?")


@dataclass
class Coverage:
    spec: str
    defined: list[str] = field(default_factory=list)
    cited: set[str] = field(default_factory=set)
    exempt: set[str] = field(default_factory=set)

    def uncited(self) -> list[str]:
        out = []
        for rule in self.defined:
            if rule in self.exempt or rule in self.cited:
                continue
            if any(c.startswith(rule + ".") for c in self.cited):
                continue
            out.append(rule)
        return out


def definitions(text: str) -> tuple[list[str], set[str]]:
    """Ids defined by a spec, in order, and those marked not testable (the parser the rules
    pages use: ``ziggurat.rules.definition_lines``)."""
    defined: list[str] = []
    exempt: set[str] = set()
    for d in definition_lines(text):
        if d.rule not in defined:
            defined.append(d.rule)
        if not d.testable:
            exempt.add(d.rule)
    return defined, exempt


def _expand(start: str, end: str | None) -> list[str]:
    start = start.replace("_", ".")
    if end is None:
        return [start]
    end = end.replace("_", ".")
    a, b = (
        start.rsplit(".", 1) if "." in start else ("", start),
        end.rsplit(".", 1) if "." in end else ("", end),
    )
    (pa, la), (pb, lb) = a, b
    # same stem and numeric leaves: M7.1–M7.5, R1–R3
    ma, mb = re.match(r"([A-Z]*)(\d+)$", la), re.match(r"([A-Z]*)(\d+)$", lb)
    if pa == pb and ma and mb and ma.group(1) == mb.group(1) and int(mb.group(2)) - int(ma.group(2)) < 50:
        lead = (pa + ".") if pa else ""
        return [f"{lead}{ma.group(1)}{k}" for k in range(int(ma.group(2)), int(mb.group(2)) + 1)]
    return [start, end]


def citations(paths: list[Path]) -> set[str]:
    cited: set[str] = set()
    for path in paths:
        for m in CITE.finditer(NOQA.sub("", path.read_text(encoding="utf-8"))):
            cited.update(_expand(m.group(1), m.group(2)))
    return cited


def coverage(root: Path = ROOT, specs: dict[str, tuple[str, ...]] = SPECS) -> list[Coverage]:
    """The coverage of each of ``specs`` (spec -> test folders), paths relative to ``root``."""
    out = []
    for spec, folders in specs.items():
        defined, exempt = definitions((root / spec).read_text(encoding="utf-8"))
        files = [p for folder in folders for p in sorted((root / folder).rglob("*.py"))]
        out.append(Coverage(spec, defined, citations(files), exempt))
    return out


def main(argv: list[str], root: Path = ROOT, specs: dict[str, tuple[str, ...]] = SPECS) -> int:
    results = coverage(root, specs)
    if "--json" in argv:
        print(
            json.dumps(
                {
                    c.spec: {
                        "ids": len(c.defined),
                        "not_testable": len(c.exempt),
                        "uncited": c.uncited(),
                    }
                    for c in results
                },
                indent=2,
            )
        )
    else:
        for c in results:
            missing = c.uncited()
            print(
                f"{c.spec}: {len(c.defined)} ids, {len(c.defined) - len(c.exempt) - len(missing)} cited by tests, "
                f"{len(c.exempt)} not testable, {len(missing)} uncited"
            )
            if missing:
                print("  uncited: " + " ".join(missing))
    return 1 if any(c.uncited() for c in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
