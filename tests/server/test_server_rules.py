"""The rules routes (docs/server.md, "Rules"): the page of a game's spec, the spec and one rule as
JSON, 404 for an unknown game or rule, and a spec's markup shown as text."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from ziggurat import rules
from ziggurat.server import rules_pages


def test_rules_page_has_contents_anchors_and_the_site_style(client: TestClient) -> None:
    r = client.get("/rules/mesopotamia")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    page = r.text
    assert "<title>Mesopotamia (Klaus-Jürgen Wrede, 2005): rules specification — Ziggurat</title>" in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert (
        '<link rel="stylesheet" href="/style.css">' in page
        and '<link rel="stylesheet" href="/rules.css">' in page
    )
    assert '<li id="rule-M4.3" class="rule">' in page
    assert '<h3 id="rule-M4" class="rule">M4 Stealing</h3>' in page
    # the contents link to the headings: "4. Rules" and, under it, "M4 Stealing"
    toc = re.search(r'<ol class="toc">.*?</nav>', page, re.S)
    assert toc is not None
    assert '<a href="#sec-4-rules">4. Rules</a>' in toc.group(0)
    assert '<a href="#rule-M4">M4 Stealing</a>' in toc.group(0)
    # the note for French readers is on the page, shown by the client in French only
    assert 'class="rules-lang-note" data-i18n="rules.englishOnly" hidden' in page


def test_every_game_has_its_rules_page(client: TestClient) -> None:
    for game in ("mesopotamia", "mesopotamia-epochs", "mare-nostrum"):
        r = client.get(f"/rules/{game}")
        assert r.status_code == 200, game
        assert f'data-game="{game}"' in r.text


def test_rules_page_of_an_unknown_game_is_404(client: TestClient) -> None:
    r = client.get("/rules/chess")
    assert r.status_code == 404
    assert "no rules spec for &#x27;chess&#x27;" in r.text


def test_spec_as_json_lists_its_rules_and_sections(client: TestClient) -> None:
    r = client.get("/api/rules/mare-nostrum")
    assert r.status_code == 200
    spec = r.json()
    ix = rules.index("mare-nostrum")
    assert spec["game"] == "mare-nostrum"
    assert spec["title"] == ix.title
    assert spec["rules"] == list(ix.rules)
    assert "N0.8.1" in spec["rules"]
    assert spec["html"] == ix.html
    assert 'id="rule-N0.8.1"' in spec["html"]
    assert {"level": 2, "title": ix.sections[1].title, "anchor": ix.sections[1].anchor} in spec["sections"]
    assert client.get("/api/rules/chess").status_code == 404


def test_one_rule_as_json_M2_4(client: TestClient) -> None:
    r = client.get("/api/rules/mesopotamia/M2.4")
    assert r.status_code == 200
    assert r.json() == {
        "game": "mesopotamia",
        "id": "M2.4",
        "title": "",
        "section": "M2 Movement points and steps",
        "anchor": "rule-M2.4",
        "html": "<p><strong>M2.4</strong> A tribe may never enter a volcano.</p>\n",
        "text": "M2.4 A tribe may never enter a volcano.",
    }
    r1 = client.get("/api/rules/mesopotamia/R1").json()
    assert r1["title"] == "First player" and r1["section"] == "5. Rulings"


def test_unknown_rule_or_game_is_404_naming_it(client: TestClient) -> None:
    r = client.get("/api/rules/mesopotamia/M99")
    assert r.status_code == 404
    assert r.json() == {"detail": "the rules define no 'M99' for 'mesopotamia'"}
    r = client.get("/api/rules/chess/M1")
    assert r.status_code == 404
    assert r.json()["detail"].startswith("no rules spec for 'chess'")


def test_rules_routes_take_get_only(client: TestClient) -> None:
    r = client.post("/api/rules/mesopotamia/M2.4")
    assert r.status_code == 405
    assert r.headers["allow"] == "GET"


def test_a_script_in_a_spec_is_shown_not_run() -> None:
    tiny = '# Tiny <script>alert("t")</script>\n\n## 1. Play\n\n- **T1** Move <script>alert(1)</script> <img src=x onerror=alert(2)>.\n'
    ix = rules.parse(tiny)
    page = rules_pages.page("tiny", ix)
    assert "<script>alert" not in page and "<img" not in page
    assert "<title>Tiny &lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; — Ziggurat</title>" in page
    assert "Move &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;." in page
    # the page's only script is the client's own module
    assert page.count("<script") == 1 and '<script type="module">' in page
