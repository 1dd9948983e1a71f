// The choices for a clicked area, in a small box next to that area on the map (not in the panel
// below the board): fixed on the page, placed beside the area's box, kept inside the viewport,
// and placed again when the board or the page scrolls, or when the board's stylesheet arrives
// (it is loaded by the board's module and may come after the first click).

import { clear, h } from "../../dom.js";

const MARGIN = 8; // from the viewport's edges
const GAP = 6; // between the area and the box
const MAX_WIDTH = 340; // px, the box's widest

/**
 * Where a box of size w x h goes next to ``rect`` (the area's box on screen) in a viewport of
 * vw x vh: to its right, else its left, else below, else above, centred on it along the other
 * axis, and always clamped inside the viewport.
 */
export function placeNextTo(rect, w, h, vw, vh) {
  const clamp = (x, lo, hi) => Math.max(lo, Math.min(x, Math.max(lo, hi)));
  const midY = clamp(rect.top + rect.height / 2 - h / 2, MARGIN, vh - h - MARGIN);
  const midX = clamp(rect.left + rect.width / 2 - w / 2, MARGIN, vw - w - MARGIN);
  if (rect.right + GAP + w + MARGIN <= vw) return { left: rect.right + GAP, top: midY };
  if (rect.left - GAP - w >= MARGIN) return { left: rect.left - GAP - w, top: midY };
  if (rect.bottom + GAP + h + MARGIN <= vh) return { left: midX, top: rect.bottom + GAP };
  if (rect.top - GAP - h >= MARGIN) return { left: midX, top: rect.top - GAP - h };
  return { left: midX, top: clamp(rect.bottom + GAP, MARGIN, vh - h - MARGIN) };
}

/** One popover for a board: show(anchor element, label, content...), hide() and focusFirst();
 * `frame` (the board's scrolling box): the popover is hidden while its area is scrolled out of it. */
export function createPopover(className, frame = null) {
  const el = h("div", { class: `mn-popover ${className || ""}`.trim(), role: "dialog", hidden: true });
  // fixed on the page even before board.css has loaded: the placement below depends on it
  el.style.position = "fixed";
  document.body.append(el);
  let anchor = null;

  function place() {
    if (el.hidden || !anchor) return;
    if (!anchor.isConnected) {
      el.hidden = true;
      return;
    }
    const r = anchor.getBoundingClientRect();
    const f = frame?.getBoundingClientRect();
    const seen = !f || (r.right > f.left && r.left < f.right && r.bottom > f.top && r.top < f.bottom);
    el.style.visibility = seen ? "" : "hidden";
    const vw = document.documentElement.clientWidth || window.innerWidth;
    const vh = window.innerHeight;
    // at most MAX_WIDTH (as board.css says), and no wider than the viewport on a narrow screen
    el.style.maxWidth = `${Math.max(160, Math.min(MAX_WIDTH, vw - 2 * MARGIN))}px`;
    const { left, top } = placeNextTo(r, el.offsetWidth, el.offsetHeight, vw, vh);
    el.style.left = `${Math.round(left)}px`;
    el.style.top = `${Math.round(top)}px`;
  }

  window.addEventListener("scroll", place, true);
  window.addEventListener("resize", place);
  // a stylesheet still loading changes the box's size (board.css gives it its padding, border
  // and font): place it again once it has arrived
  for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
    if (!link.sheet) link.addEventListener("load", place, { once: true });
  }

  return {
    el,
    show(anchorEl, label, ...content) {
      anchor = anchorEl;
      clear(el).append(...content.flat().filter(Boolean));
      el.setAttribute("aria-label", label);
      el.dataset.area = anchorEl?.dataset?.area || "";
      el.hidden = !anchorEl;
      place();
    },
    hide() {
      anchor = null;
      el.hidden = true;
      clear(el);
    },
    place,
    focusFirst() {
      if (!el.hidden) el.querySelector("button[data-action]")?.focus();
    },
  };
}
