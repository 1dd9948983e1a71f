// Tiny DOM helpers: h() builds HTML elements, s() builds SVG elements.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(el, attrs, children, isSvg) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.setAttribute("class", v);
    else if (k === "text") el.textContent = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (!isSvg && (k === "value" || k === "checked" || k === "disabled" || k === "open")) el[k] = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** h("button", {class: "x", onclick}, "text", child...) */
export function h(tag, attrs = {}, ...children) {
  return apply(document.createElement(tag), attrs, children, false);
}

/** s("circle", {r: 3}) */
export function s(tag, attrs = {}, ...children) {
  return apply(document.createElementNS(SVG_NS, tag), attrs, children, true);
}

const BOARD_STYLES = new Map(); // name -> the promise boardStyles gave for it

/**
 * A board's stylesheet, added to the page once (by `name`). The promise settles when the sheet
 * has arrived or failed, or after `waitMs`: a page shows its board once it is styled (a layout
 * that changes under a click would send the click elsewhere) and never hangs on a sheet that
 * does not come.
 */
export function boardStyles(name, href, waitMs = 4000) {
  if (!BOARD_STYLES.has(name)) {
    const link =
      document.querySelector(`link[data-board-css='${name}']`) ??
      document.head.appendChild(h("link", { rel: "stylesheet", href, dataset: { boardCss: name } }));
    const styled = new Promise((done) => {
      if (link.sheet) done();
      link.addEventListener("load", () => done(), { once: true });
      link.addEventListener("error", () => done(), { once: true });
      setTimeout(done, waitMs);
    });
    BOARD_STYLES.set(name, styled);
  }
  return BOARD_STYLES.get(name);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** Copy text to the clipboard, with a fallback for non-secure pages. */
export async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall through */
  }
  const ta = h("textarea", { style: "position:fixed;left:-9999px;top:0", readonly: true });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}
