// Mesopotamia board: drawing (draw) and the interaction layer (createBoard).
// A board module exports: id, draw(view, opts), actionLabel(t, text, view), actionGroup(text),
// createBoard(elements, ctx) -> {update(msg, tableInfo), render(), clearSelection()}. Log entries and
// refusals come as messages (an entry's `event`), which the table renders with messages.js.

import { boardStyles, clear, h } from "../dom.js";
import { draw, hexCenter } from "./mesopotamia/draw.js";
import { actionLabel, hutText, pendingQuestion, tribeText } from "./mesopotamia/labels.js";
import { actionGroup, parseAction, parseTribe } from "./mesopotamia/notation.js";
import { renderGeneral, renderPlayers, renderStatus } from "./mesopotamia/panels.js";

export const id = "mesopotamia";
export { actionGroup, actionLabel, draw, hexCenter };

// the board's own styles, next to its modules: pages await `styled` before drawing the board
export const styled = boardStyles("mesopotamia", new URL("./mesopotamia/board.css", import.meta.url).pathname);

const CARGO_CODES = { 0: "", 1: "w", 2: "s" }; // the engine's cargo codes in pending decisions
const GLOBAL_ORDER = ["pile", "offer", "order", "first", "income", "draw", "play", "pass", "stop", "end"];

function index(legal) {
  const byTribe = new Map();
  const byHut = new Map();
  const byHex = new Map();
  const globals = [];
  const push = (m, k, a) => {
    if (!m.has(k)) m.set(k, []);
    m.get(k).push(a);
  };
  for (const text of legal || []) {
    const a = parseAction(text);
    for (const tr of a.tribes) push(byTribe, tr, a);
    for (const hu of a.huts) push(byHut, hu, a);
    if (a.hex) push(byHex, a.hex, a);
    if (!a.tribes.length && !a.huts.length && !a.hex) globals.push(a);
  }
  globals.sort((x, y) => GLOBAL_ORDER.indexOf(x.kind) - GLOBAL_ORDER.indexOf(y.kind));
  return { byTribe, byHut, byHex, globals };
}

const PENDING_ACTION = { volcano: "volcano", shares: "share", teleport: "to", expel: "to" };

/** The action a click on an unlit hex `k` would mean now, to ask the engine why it is refused:
 * the selected tribe's step there (M2), or the hex a pending volcano, share, Teleport or
 * Expulsion asks for (D14, D15, D28, D29); null when a click there means nothing. */
export function intentOf(view, k, selectedTribe) {
  const kind = view?.pending?.[0];
  if (PENDING_ACTION[kind]) return `${PENDING_ACTION[kind]} ${k}`;
  if (selectedTribe && view?.phase === "movement") return `move ${selectedTribe} ${k}`;
  return null;
}

const LOAD_CODES = { wood: "w", stone: "s" };

/** The tribe an action leaves to go on with, to keep it selected: a move's tribe at its
 * destination, or a tribe that picked up, dropped, swapped or donated its load, on its tile
 * ({colour, key, spent, cargo}: cargo null for an offering, whose value the token shows); null
 * after any other action. */
export function followAfter(a) {
  const tr = parseTribe(a.tribes[0]);
  if (!tr) return null;
  const same = { colour: tr.colour, key: tr.key, spent: tr.spent };
  if (a.kind === "move") return { ...same, key: a.dest, cargo: tr.cargo };
  if (a.kind === "pickup" || a.kind === "exchange") return LOAD_CODES[a.arg] ? { ...same, cargo: LOAD_CODES[a.arg] } : null;
  if (a.kind === "drop" || a.kind === "donate") return { ...same, cargo: "" };
  if (a.kind === "offering") return { ...same, cargo: null };
  return null;
}

/** Whether the tribe token `tok` is the one `follow` describes. */
export function isFollowed(follow, tok) {
  const tr = parseTribe(tok);
  if (!tr || tr.colour !== follow.colour || tr.key !== follow.key || tr.spent !== follow.spent) return false;
  return follow.cargo === null ? tr.cargo.startsWith("o") : tr.cargo === follow.cargo;
}

const TOUCH_PX = 32; // a piece's tap target on touch screens, in CSS px

/** Sizes the pieces' touch discs (draw.js) to TOUCH_PX on screen, never below the piece's own
 * hit radius. */
function sizeTouchHits(svg) {
  const width = svg.viewBox?.baseVal?.width;
  const shown = svg.getBoundingClientRect().width;
  if (!width || !shown) return;
  const r = TOUCH_PX / 2 / (shown / width);
  for (const c of svg.querySelectorAll(".touch-hit")) c.setAttribute("r", Math.max(Number(c.dataset.r), r).toFixed(1));
}

function tileAt(view, k) {
  for (const [q, r, type] of view.tiles || []) if (`${q},${r}` === k) return type;
  return null;
}

/**
 * The interactive board. elements: {board, choice, status, players, general} (containers);
 * ctx: {t: () => translate function, send(actionText) -> bool}.
 */
export function createBoard(els, ctx) {
  let msg = null;
  let info = null;
  let idx = index([]);
  let sel = null; // {type: "tribe" | "hut" | "hex", token | key}
  let follow = null; // {colour, key, spent, cargo}: the tribe to select after the next update (one that just moved or took, dropped or swapped its load)
  let acted = false; // an action was sent: the next position ends the selection (unless `follow` keeps a tribe)

  const t = (...args) => ctx.t()(...args);

  // the selection stays until the next position comes: a refused action (the refusal box
  // explains it) leaves the player's selection as it was
  function send(text) {
    follow = followAfter(parseAction(text));
    if (ctx.send(text)) acted = true;
    render();
  }

  function moveTargets() {
    const out = new Map();
    if (sel?.type !== "tribe") return out;
    for (const a of idx.byTribe.get(sel.token) || []) if (a.kind === "move" && a.tribes[0] === sel.token) out.set(a.dest, a);
    return out;
  }

  function litMap() {
    const lit = new Map();
    const view = msg?.view;
    if (!view) return lit;
    const moves = moveTargets();
    if (moves.size) {
      for (const k of moves.keys()) lit.set(k, tileAt(view, k) ? "move" : "explore");
      return lit;
    }
    if (sel?.type === "tribe" || sel?.type === "hut") return lit;
    for (const k of idx.byHex.keys()) lit.set(k, "choice");
    return lit;
  }

  function tribesOnHex(k) {
    return [...idx.byTribe.keys()].filter((tok) => parseTribe(tok)?.key === k);
  }

  function onHex(k) {
    const moves = moveTargets();
    if (moves.has(k)) {
      send(moves.get(k).text);
      return;
    }
    const acts = idx.byHex.get(k) || [];
    if (acts.length === 1 && !(sel && sel.type === "hex" && sel.key === k)) {
      send(acts[0].text);
      return;
    }
    const tribes = tribesOnHex(k);
    if (acts.length > 1) {
      sel = { type: "hex", key: k };
    } else if (tribes.length === 1) {
      sel = { type: "tribe", token: tribes[0] };
    } else if (tribes.length > 1) {
      sel = { type: "hex", key: k };
    } else {
      // not lit: ask the engine why what a click there would mean is refused
      const text = msg.seat === null || msg.seat === undefined ? null : intentOf(msg.view, k, sel?.type === "tribe" ? sel.token : null);
      sel = null;
      if (text && ctx.explain) ctx.explain(text);
    }
    render();
  }

  function onClick(ev) {
    if (!msg) return;
    // a tap on a piece's wider touch disc (draw.js) is a tap on the piece
    const touch = ev.target.closest("[data-touch-tribe], [data-touch-hut]")?.dataset;
    const tribeTok = ev.target.closest("[data-tribe]")?.dataset.tribe ?? touch?.touchTribe;
    const hutTok = ev.target.closest("[data-hut]")?.dataset.hut ?? touch?.touchHut;
    const hexEl = ev.target.closest("[data-hex]");
    if (tribeTok) {
      // a click on one of the player's own tribes that can act selects it (again: deselects),
      // even on a hex the selected tribe could move to: that move is a click beside the tribe
      const tok = tribeTok;
      const k = parseTribe(tok)?.key;
      if (idx.byTribe.has(tok)) {
        sel = sel?.type === "tribe" && sel.token === tok ? null : { type: "tribe", token: tok };
        render();
        return;
      }
      if (k) onHex(k);
      return;
    }
    if (hutTok) {
      const tok = hutTok;
      const k = hexEl?.dataset.hex;
      if (moveTargets().has(k)) {
        onHex(k);
        return;
      }
      if (idx.byHut.has(tok)) {
        sel = sel?.type === "hut" && sel.token === tok ? null : { type: "hut", token: tok };
        render();
        return;
      }
      if (k) onHex(k);
      return;
    }
    if (hexEl) onHex(hexEl.dataset.hex);
  }

  function onKey(ev) {
    if (ev.key === "Escape" && sel) {
      sel = null;
      render();
    }
  }

  function onBoardKey(ev) {
    if ((ev.key === "Enter" || ev.key === " ") && ev.target.closest?.("[data-tribe], [data-hut], [data-hex]")) {
      ev.preventDefault();
      onClick(ev);
    }
  }

  // the touch discs are a finger wide on screen whatever the board's size and zoom
  const resized = new ResizeObserver((entries) => entries.forEach((e) => sizeTouchHits(e.target)));

  els.board.addEventListener("click", onClick);
  els.board.addEventListener("keydown", onBoardKey);
  document.addEventListener("keydown", onKey);

  function actionButton(a, extraClass = "") {
    return h(
      "button",
      { type: "button", class: `act ${extraClass}`.trim(), dataset: { action: a.text }, title: a.text, onclick: () => send(a.text) },
      actionLabel(t, a.text, msg.view),
    );
  }

  function renderBoard() {
    const view = msg.view;
    const p = view.pending;
    // the piece a pending Teleport or Expulsion is moving is shown selected
    let pendingTribe = null;
    let pendingHut = null;
    if (p && p[0] === "teleport" && Array.isArray(p[2])) {
      const cargo = CARGO_CODES[p[3]] ?? (p[3] >= 10 ? `o${p[3] - 10}` : "");
      pendingTribe = `${"byrg"[p[1]]}${cargo}@${p[2][0]},${p[2][1]}${p[4] ? "*" : ""}`;
    } else if (p && p[0] === "expel" && Array.isArray(p[1])) {
      pendingHut = `${p[1][0] < 0 ? "n" : "byrg"[p[1][0]]}${p[1][1]}`;
    }
    const opts = {
      t,
      lit: litMap(),
      target: p && ["pile", "volcano", "draw"].includes(p[0]) && Array.isArray(p[4]) ? `${p[4][0]},${p[4][1]}` : null,
      selectedTribe: sel?.type === "tribe" ? sel.token : pendingTribe,
      selectedHut: sel?.type === "hut" ? sel.token : pendingHut,
      actionableTribes: new Set(idx.byTribe.keys()),
      actionableHuts: new Set(idx.byHut.keys()),
    };
    // keep keyboard focus on the same piece or hex across re-renders
    const active = document.activeElement;
    const focusKey = active && els.board.contains(active) ? ["tribe", "hut", "hex"].find((a) => active.dataset?.[a]) : null;
    const focusVal = focusKey ? active.dataset[focusKey] : null;
    const svg = draw(view, opts);
    clear(els.board).append(svg);
    sizeTouchHits(svg);
    resized.disconnect();
    resized.observe(svg);
    if (focusKey) {
      const again = [...svg.querySelectorAll(`[data-${focusKey}]`)].find((e) => e.dataset[focusKey] === focusVal && e.hasAttribute("tabindex"));
      if (again) again.focus({ preventScroll: true });
    }
  }

  function renderChoice() {
    const view = msg.view;
    const el = clear(els.choice);
    const legal = msg.legal || [];
    const over = msg.status === "over" || view.phase === "over";
    let prompt;
    if (over) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    if (msg.seat === null || msg.seat === undefined) prompt = t("meso.spectating");
    else if (!legal.length) prompt = t("meso.waiting", { colour: t(`colour.${view.to_move}`) });
    else prompt = pendingQuestion(t, view) || t(`meso.hint.${view.phase}`);
    el.append(h("p", { class: "prompt", role: "status" }, prompt));
    if (!legal.length) return;

    if (sel) {
      let title = "";
      let acts = [];
      const extra = [];
      if (sel.type === "tribe") {
        title = tribeText(t, sel.token, view);
        acts = idx.byTribe.get(sel.token) || [];
      } else if (sel.type === "hut") {
        title = hutText(t, sel.token);
        acts = idx.byHut.get(sel.token) || [];
      } else {
        title = t("meso.atHex", { c: sel.key });
        acts = idx.byHex.get(sel.key) || [];
        for (const tok of tribesOnHex(sel.key)) {
          extra.push(
            h(
              "button",
              { type: "button", class: "act select", dataset: { select: tok }, onclick: () => ((sel = { type: "tribe", token: tok }), render()) },
              t("meso.selectTribe", { tribe: tribeText(t, tok, view) }),
            ),
          );
        }
      }
      const moves = acts.filter((a) => a.kind === "move");
      const others = acts.filter((a) => a.kind !== "move");
      el.append(
        h(
          "div",
          { class: "selection" },
          h("div", { class: "sel-head" }, h("strong", {}, title.charAt(0).toUpperCase() + title.slice(1)), h("button", { type: "button", class: "link", onclick: () => ((sel = null), render()) }, t("ui.cancel"))),
          moves.length ? h("p", { class: "muted" }, t("meso.clickLit")) : null,
          h("div", { class: "buttons" }, others.map((a) => actionButton(a)), extra, moves.map((a) => actionButton(a, "small"))),
        ),
      );
    } else if (idx.byHex.size && view.pending) {
      el.append(h("p", { class: "muted" }, t("meso.clickLitOrChoose")));
      el.append(h("div", { class: "buttons" }, [...idx.byHex.values()].flat().map((a) => actionButton(a, "small"))));
    } else if (idx.byHex.size || idx.byTribe.size) {
      el.append(h("p", { class: "muted" }, t(idx.byTribe.size ? "meso.clickTribe" : "meso.clickLitOrChoose")));
      if (idx.byHex.size && !idx.byTribe.size) el.append(h("div", { class: "buttons" }, [...idx.byHex.values()].flat().map((a) => actionButton(a, "small"))));
    }
    if (idx.globals.length) el.append(h("div", { class: "buttons globals" }, idx.globals.map((a) => actionButton(a, a.kind === "end" || a.kind === "pass" || a.kind === "stop" ? "primary" : ""))));
  }

  function render() {
    if (!msg) return;
    renderBoard();
    renderChoice();
    if (els.status) renderStatus(els.status, msg, t);
    if (els.players) renderPlayers(els.players, msg, t, info);
    if (els.general) renderGeneral(els.general, msg, t);
  }

  return {
    update(newMsg, tableInfo) {
      const changed = !msg || newMsg.version !== msg.version;
      msg = newMsg;
      if (tableInfo) info = tableInfo;
      idx = index(msg.legal);
      if (changed) {
        const followed = follow && [...idx.byTribe.keys()].find((tok) => isFollowed(follow, tok));
        if (followed) sel = { type: "tribe", token: followed };
        else if (acted) sel = null;
        else if (sel?.type === "tribe" && !idx.byTribe.has(sel.token)) sel = null;
        else if (sel?.type === "hut" && !idx.byHut.has(sel.token)) sel = null;
        else if (sel?.type === "hex") sel = null;
        follow = null;
        acted = false;
      }
      render();
    },
    setInfo(tableInfo) {
      info = tableInfo;
      if (msg && els.players) renderPlayers(els.players, msg, t, info);
    },
    render,
    clearSelection() {
      sel = null;
      follow = null;
      acted = false;
      render();
    },
    destroy() {
      resized.disconnect();
      els.board.removeEventListener("click", onClick);
      els.board.removeEventListener("keydown", onBoardKey);
      document.removeEventListener("keydown", onKey);
    },
  };
}
