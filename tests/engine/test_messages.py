"""Messages: the ICU-subset formatter (Python and the browser's messages.js agree), the
catalogues (every key in every language, the same parameters), and every message the code can
emit (found in the source, not by sampling games) has a pattern in every language that uses
only the parameters the code gives it."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import shutil
import subprocess
from pathlib import Path

import pytest

import ziggurat
from ziggurat.engine import messages as M
from ziggurat.engine.errors import IllegalAction

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "ziggurat"
CASES = json.loads((Path(__file__).with_name("message_cases.json")).read_text(encoding="utf-8"))


def _case_id(case: dict) -> str:
    return f"{case['lang']}:{case['pattern'][:30]}"


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_python_formatter(case: dict) -> None:
    params = {k: M._from_json_param(v) for k, v in case["params"].items()}
    assert M.format_pattern(case["pattern"], params, case["lang"]) == case["out"]


def test_browser_formatter_agrees_with_python(tmp_path: Path) -> None:
    """static/messages.js renders every case exactly as the Python formatter (run by Node)."""
    node = shutil.which("node")
    assert node, "Node.js is needed to run the browser's formatter"
    module = (SRC / "server" / "static" / "messages.js").as_uri()
    catalogues = {lang: M.catalogue(lang) for lang in M.LANGS}
    script = tmp_path / "run.mjs"
    script.write_text(
        f"import {{ format }} from {json.dumps(module)};\n"
        f"const cases = {json.dumps(CASES)};\n"
        f"const catalogues = {json.dumps(catalogues)};\n"
        "globalThis.fetch = async (url) => ({ ok: true, json: async () => catalogues[url.split('/').pop()] });\n"
        f"const {{ loadMessages }} = await import({json.dumps(module)});\n"
        "for (const l of Object.keys(catalogues)) await loadMessages(l);\n"
        "console.log(JSON.stringify(cases.map((c) => format(c.pattern, c.params, c.lang))));\n",
        encoding="utf-8",
    )
    out = subprocess.run([node, str(script)], capture_output=True, text=True, check=True, timeout=60)
    assert json.loads(out.stdout) == [c["out"] for c in CASES]


def test_formatter_refuses_broken_patterns() -> None:
    with pytest.raises(ValueError, match="unclosed"):
        M.format_pattern("{who", {"who": "x"}, "en")
    with pytest.raises(ValueError, match="other"):
        M.format_pattern("{n, plural, one {x}}", {"n": 2}, "en")
    with pytest.raises(KeyError, match="who"):
        M.format_pattern("{who} moves", {}, "en")


def test_message_is_its_english_text_and_round_trips() -> None:
    m = M.message("engine.illegal", action="end", reason=M.message("colour.red"))
    assert m == "illegal: end: Red"
    assert M.from_json(json.loads(json.dumps(m.to_json()))) == m
    assert M.render(m.to_json(), "fr") == "coup illégal : end : Rouge"
    with pytest.raises(ValueError, match="language"):
        M.render(m, "xx")
    with pytest.raises(KeyError, match="no en message"):
        M.message("no.such.key")


def test_a_refusal_keeps_its_message() -> None:
    """The engine's errors carry the Message they were raised with (the server sends it)."""
    reason = M.message("engine.illegal", action="end", reason=M.message("colour.blue"))
    exc = IllegalAction(reason)
    assert str(exc) == "illegal: end: Blue"
    assert isinstance(exc.args[0], M.Message) and exc.args[0].key == "engine.illegal"


# --- the catalogues ---------------------------------------------------------------------------


def _base_keys(lang: str) -> set[str]:
    return {k for k in M.catalogue(lang) if "@" not in k}


def test_every_language_has_every_key() -> None:
    reference = _base_keys(M.DEFAULT_LANG)
    for lang in M.LANGS:
        assert _base_keys(lang) == reference, (
            f"{lang}: missing {sorted(reference - _base_keys(lang))[:10]}, extra {sorted(_base_keys(lang) - reference)[:10]}"
        )


def test_every_pattern_parses_and_languages_use_the_same_parameters() -> None:
    en = M.catalogue("en")
    for lang in M.LANGS:
        for key, text in M.catalogue(lang).items():
            if "@" in key:
                assert text in ("masc", "fem", "other"), f"{lang} {key}: gender {text!r}"
                continue
            used = M.arguments(text)
            base = {a[: -len("_gender")] if a.endswith("_gender") else a for a in used}
            expected = {a[: -len("_gender")] if a.endswith("_gender") else a for a in M.arguments(en[key])}
            assert base <= expected | set(), (
                f"{lang} {key} uses {sorted(base - expected)} that English does not"
            )


# --- what the code emits ----------------------------------------------------------------------


def _calls() -> list[tuple[str, int, ast.Call]]:
    out = []
    for path in sorted(SRC.rglob("*.py")):
        if path == SRC / "engine" / "messages.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if name in ("message", "noun", "Message"):
                    out.append((str(path.relative_to(ROOT)), node.lineno, node))
    return out


def _import_games() -> None:
    """Import every module of the games so their vocabularies are declared."""
    for game_id in ziggurat.games():
        package = type(ziggurat.load(game_id)).__module__.rpartition(".")[0]
        pkg = importlib.import_module(package)
        for info in pkgutil.iter_modules(pkg.__path__, package + "."):
            importlib.import_module(info.name)


def test_every_emitted_message_has_a_pattern_in_every_language_with_its_parameters() -> None:
    """Every ``message("key", ...)`` in the source names a key every catalogue has, passes every
    parameter the patterns use (and no splat that hides them); every ``noun(domain, value)``
    names a declared vocabulary whose every value has a message in every language."""
    _import_games()
    declared = M.domains()
    problems: list[str] = []
    used_domains: set[str] = set()
    for where, line, call in _calls():
        name = call.func.id if isinstance(call.func, ast.Name) else call.func.attr  # type: ignore[union-attr]
        at = f"{where}:{line}"
        first = call.args[0] if call.args else None
        if name == "noun":
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                problems.append(f"{at}: noun() needs a literal domain")
                continue
            used_domains.add(first.value)
            if first.value not in declared:
                problems.append(f"{at}: vocabulary {first.value!r} is not declared (declare_domain)")
            continue
        if name == "Message":
            problems.append(f"{at}: build messages with message() or noun(), not Message()")
            continue
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            problems.append(f"{at}: message() needs a literal key (use noun() for a vocabulary)")
            continue
        key = first.value
        if any(k.arg is None for k in call.keywords):
            problems.append(f"{at}: message({key!r}) hides its parameters behind **")
            continue
        given = {k.arg for k in call.keywords if k.arg}
        for lang in M.LANGS:
            text = M.catalogue(lang).get(key)
            if text is None:
                problems.append(f"{at}: {lang} has no message {key!r}")
                continue
            needed = {
                a for a in M.arguments(text) if not (a.endswith("_gender") and a[: -len("_gender")] in given)
            }
            if needed - given:
                problems.append(
                    f"{at}: {lang} {key!r} uses {sorted(needed - given)} that the code does not give"
                )
    for domain in sorted(used_domains & set(declared)):
        for value in sorted(declared[domain]):
            for lang in M.LANGS:
                if f"{domain}.{value}" not in M.catalogue(lang):
                    problems.append(f"{lang} has no message {domain}.{value} (vocabulary {domain})")
    assert not problems, "\n".join(problems)
