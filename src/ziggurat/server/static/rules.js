// The rules at hand. A "Rules" button opens the game's rules spec in a side panel (a new tab on a
// phone); every rule number a refusal or a log line names ("(M4.3)", "N0.8.3", "R41") becomes a
// link that opens the panel at that rule, highlighted, and shows its text on hover. Only ids the
// game's spec defines are linked (/api/rules/<game> lists them), so a coordinate or a name that
// merely looks like an id stays text. The spec comes from the server: /api/rules/<game> (the whole
// spec as HTML, anchors "rule-<id>"), /api/rules/<game>/<id> (one rule), /rules/<game> (the page).
//
// A page uses it with:
//   await setupRules(game)   once: loads the spec's ids and wires a #rules-button if the page has one
//   linkRules(element)       after rendering text that may name rules
//   openRules(id?)           opens the panel (at a rule)
//   initRulesPage()          the /rules/<game> page itself

import { clear, h } from "./dom.js";
import { STRINGS, applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";

Object.assign(STRINGS.en, {
  "rules.button": "Rules",
  "rules.title": "Rules",
  "rules.contents": "Contents",
  "rules.close": "Close the rules",
  "rules.newTab": "Open in a new tab",
  "rules.englishOnly": "The rules are in English.",
  "rules.loading": "Loading the rules…",
  "rules.failed": "The rules could not be loaded.",
});
Object.assign(STRINGS.fr, {
  "rules.button": "Règles",
  "rules.title": "Règles",
  "rules.contents": "Sommaire",
  "rules.close": "Fermer les règles",
  "rules.newTab": "Ouvrir dans un nouvel onglet",
  "rules.englishOnly": "Les règles sont en anglais.",
  "rules.loading": "Chargement des règles…",
  "rules.failed": "Impossible de charger les règles.",
});

// a rule id in running text: not part of a longer word, number or id (ziggurat.rules.REFERENCE)
const REFERENCE = /(?<![A-Za-z0-9.])([A-Z]\d+(?:\.\d+)*)(?![A-Za-z0-9]|\.\d)/g;
const PHONE = "(max-width: 700px)";
const SKIP = "a, code, button, script, style, textarea, .rule-tip";

let game = null;
let ids = new Set();
let spec = null; // the promise of /api/rules/<game>
const texts = new Map(); // id -> promise of /api/rules/<game>/<id>
let tip = null;
let tipLink = null; // the link the tip is shown for
let wired = false;

/** The rules page of `game`, at `id` if given. */
export function rulesHref(gameId, id) {
  return `/rules/${encodeURIComponent(gameId)}${id ? `#rule-${id}` : ""}`;
}

function loadSpec() {
  if (!spec) {
    spec = fetch(`/api/rules/${encodeURIComponent(game)}`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))));
    spec.catch(() => (spec = null)); // try again next time
  }
  return spec;
}

function ruleText(id) {
  if (!texts.has(id)) {
    const p = fetch(`/api/rules/${encodeURIComponent(game)}/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.json() : null));
    texts.set(id, p);
  }
  return texts.get(id);
}

/** Load the ids of `gameId`'s rules and wire the page's #rules-button; resolves when links can be made. */
export async function setupRules(gameId) {
  game = gameId;
  if (!wired) {
    wired = true;
    document.addEventListener("click", onClick);
    document.addEventListener("mouseover", onHover);
    document.addEventListener("focusin", onHover);
    document.addEventListener("mouseout", onLeave);
    document.addEventListener("focusout", onLeave);
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "Escape") closeRules();
    });
    onLangChange(() => {
      applyStatic(document.getElementById("rules-panel") || document.createElement("div"));
      showNote(document.getElementById("rules-panel"));
    });
  }
  const button = document.getElementById("rules-button");
  try {
    ids = new Set((await loadSpec()).rules);
  } catch {
    ids = new Set(); // no spec: no button, and the texts stay as they are
    game = null;
    return;
  }
  if (button) {
    button.hidden = false;
    button.href = rulesHref(gameId);
  }
}

/** Make every rule id of the game's spec named under `root` a link to that rule. */
export function linkRules(root) {
  if (tipLink && !tipLink.isConnected) hideTip(); // its line was rendered again
  if (!root || !ids.size || !game) return root;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.parentElement?.closest(SKIP) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  for (const node of nodes) {
    const text = node.nodeValue;
    let at = 0;
    const parts = [];
    for (const m of text.matchAll(REFERENCE)) {
      if (!ids.has(m[1])) continue;
      if (m.index > at) parts.push(text.slice(at, m.index));
      parts.push(
        h("a", { class: "rule-link", href: rulesHref(game, m[1]), target: "_blank", rel: "noopener", dataset: { rule: m[1] } }, m[1]),
      );
      at = m.index + m[0].length;
    }
    if (!parts.length) continue;
    if (at < text.length) parts.push(text.slice(at));
    node.replaceWith(...parts);
  }
  return root;
}

function phone() {
  return window.matchMedia(PHONE).matches;
}

function onClick(ev) {
  const link = ev.target.closest?.("a.rule-link, #rules-button");
  if (link && game && !phone()) {
    // on a phone the link's default opens the rules page in a new tab
    ev.preventDefault();
    hideTip();
    openRules(link.dataset.rule || null);
    return;
  }
  const inner = ev.target.closest?.("#rules-panel a[href^='#']");
  if (inner) {
    // links inside the panel (contents, rule references) move the panel, never the page's hash
    ev.preventDefault();
    const id = inner.getAttribute("href").slice(1);
    if (id.startsWith("rule-")) highlight(id.slice(5));
    else document.getElementById(id)?.scrollIntoView({ block: "start" });
  }
}

function showNote(root) {
  for (const el of root?.querySelectorAll(".rules-lang-note") || []) el.hidden = lang() === "en";
}

function panel() {
  let el = document.getElementById("rules-panel");
  if (el) return el;
  el = h(
    "aside",
    { id: "rules-panel", class: "rules-panel", role: "complementary", "aria-labelledby": "rules-panel-title", hidden: true },
    h(
      "header",
      { class: "rules-panel-head" },
      h("h2", { id: "rules-panel-title", "data-i18n": "rules.title" }, t("rules.title")),
      h("a", { class: "rules-newtab", href: rulesHref(game), target: "_blank", rel: "noopener", "data-i18n": "rules.newTab" }, t("rules.newTab")),
      h("button", { type: "button", class: "link rules-close", "data-i18n-aria-label": "rules.close", "aria-label": t("rules.close"), onclick: closeRules }, "×"),
    ),
    h(
      "div",
      { class: "rules-panel-body", tabindex: "-1" },
      h("p", { class: "rules-lang-note", "data-i18n": "rules.englishOnly", hidden: true }, t("rules.englishOnly")),
      h("div", { class: "rules-panel-content" }, h("p", { class: "muted" }, t("rules.loading"))),
    ),
  );
  document.body.append(el);
  return el;
}

async function fill(el) {
  const content = el.querySelector(".rules-panel-content");
  if (content.dataset.game === game) return;
  let data;
  try {
    data = await loadSpec();
  } catch {
    clear(content).append(h("p", { class: "error-banner" }, t("rules.failed")));
    return;
  }
  const title = el.querySelector("#rules-panel-title");
  title.removeAttribute("data-i18n");
  title.textContent = data.title;
  const toc = h("details", { class: "rules-toc" }, h("summary", { "data-i18n": "rules.contents" }, t("rules.contents")), contents(data.sections));
  const body = h("article", { class: "rules-body", lang: "en" });
  body.innerHTML = data.html; // rendered by the server from the spec with raw HTML off
  clear(content).append(toc, body);
  content.dataset.game = game;
}

function contents(sections) {
  const top = h("ol", { class: "toc" });
  let sub = null;
  for (const s of sections) {
    const link = h("a", { href: `#${s.anchor}` }, s.title);
    if (s.level === 2) {
      sub = null;
      top.append(h("li", {}, link));
    } else if (s.level === 3 && top.lastChild) {
      if (!sub) top.lastChild.append((sub = h("ol")));
      sub.append(h("li", {}, link));
    }
  }
  return top;
}

function highlight(id) {
  const el = document.getElementById("rules-panel");
  for (const old of el.querySelectorAll(".rule-hl")) old.classList.remove("rule-hl");
  let target = id ? document.getElementById(`rule-${id}`) : null;
  const body = el.querySelector(".rules-panel-body");
  el.querySelector(".rules-newtab").href = rulesHref(game, target && el.contains(target) ? id : null);
  if (target && el.contains(target)) {
    // a rule defined on a line inside another's paragraph has an empty marker there
    if (target.classList.contains("rule-marker")) target = target.parentElement;
    target.classList.add("rule-hl");
    el.dataset.rule = id;
    target.scrollIntoView({ block: "start" });
  } else {
    delete el.dataset.rule;
    body.scrollTop = 0;
  }
}

/** Open the rules panel at rule `id` (highlighted), or at the top of the spec. */
export async function openRules(id = null) {
  if (!game) return;
  if (phone()) {
    window.open(rulesHref(game, id), "_blank", "noopener");
    return;
  }
  const el = panel();
  el.hidden = false;
  document.body.classList.add("rules-open");
  showNote(el);
  await fill(el);
  highlight(id);
  el.querySelector(".rules-panel-body").focus({ preventScroll: true });
}

/** Close the rules panel. */
export function closeRules() {
  const el = document.getElementById("rules-panel");
  if (!el || el.hidden) return;
  el.hidden = true;
  document.body.classList.remove("rules-open");
  document.getElementById("rules-button")?.focus({ preventScroll: true });
}

function onHover(ev) {
  const link = ev.target.closest?.("a.rule-link");
  if (!link || !game) return;
  const id = link.dataset.rule;
  ruleText(id).then((rule) => {
    if (!rule || !link.isConnected || !(link.matches(":hover") || link === document.activeElement)) return;
    showTip(link, rule);
  });
}

function onLeave(ev) {
  if (ev.target.closest?.("a.rule-link")) hideTip();
}

function showTip(link, rule) {
  if (!tip) {
    tip = h("div", { class: "rule-tip", role: "tooltip", id: "rule-tip" });
    document.body.append(tip);
  }
  // the text starts with the id and title the tip's heading already shows
  let text = rule.text;
  for (const lead of [rule.id, rule.title]) if (lead && text.startsWith(lead)) text = text.slice(lead.length).replace(/^[\s.:]+/, "");
  if (text.length > 600) text = `${text.slice(0, 600)}…`;
  clear(tip).append(h("strong", {}, [rule.id, rule.title].filter(Boolean).join(" ")), h("span", { class: "rule-tip-text" }, text));
  tip.dataset.rule = rule.id;
  tip.hidden = false;
  tipLink = link;
  link.setAttribute("aria-describedby", "rule-tip");
  const r = link.getBoundingClientRect();
  const width = Math.min(360, window.innerWidth - 16);
  tip.style.width = `${width}px`;
  tip.style.left = `${Math.max(8, Math.min(r.left, window.innerWidth - width - 8))}px`;
  const below = r.bottom + 6;
  tip.style.top = `${below}px`;
  const height = tip.offsetHeight;
  if (below + height > window.innerHeight - 8 && r.top - height - 6 > 8) tip.style.top = `${r.top - height - 6}px`;
}

function hideTip() {
  if (tip) tip.hidden = true;
  tipLink?.removeAttribute("aria-describedby");
  tipLink = null;
}

/** The /rules/<game> page: the language switch, the note on French pages, the highlighted rule. */
export function initRulesPage() {
  game = document.body.dataset.game || null;
  const box = document.getElementById("lang");
  if (box) box.append(langSwitch());
  const apply = () => {
    applyStatic(document);
    showNote(document);
  };
  apply();
  onLangChange(apply);
}
