// The legal-actions list shared by the table page and the tutorial page: the actions grouped
// by the board module's group key, each a button with its readable label and its notation.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** How long (ms) decision buttons wait, shown disabled, after the decision under way changed
 * under them: a step may end by itself (the engine plays the `done` of a step with nothing else
 * left) and the next decision's button may sit where the last one's was; a tap meant for the
 * decision that just ended is not taken for the new one. The one constant for every such hold:
 * the legal list's (here) and the Mare Nostrum board's own buttons (boards/mare-nostrum.js). */
export const STEP_HOLD_MS = 700;

/** The hold in use: STEP_HOLD_MS, unless the page set `window.zigguratStepHoldMs` (a number of
 * ms) before its scripts ran, as the browser tests that do not test the hold do (0: they click
 * as soon as a state has come, as the page did before the hold). */
export function stepHoldMs() {
  const set = globalThis.zigguratStepHoldMs;
  return typeof set === "number" ? set : STEP_HOLD_MS;
}

/** What each list element last showed and how long it holds: element -> {shown, until, timer}. */
const LISTS = new WeakMap();

/**
 * Hold the list in `el` when its actions are not the ones it showed last. The rule is the list
 * itself, not the state's version or whose turn it is: a list whose buttons did not change is
 * never held (every button still plays what it showed, and a list redrawn because someone else
 * moved, a clock ticked or the language changed does not blink disabled), while any change of
 * the actions or of their order holds it, whatever moved the state on. An empty list counts as
 * a list: actions that come back after none were shown (the turn came back) are held too. The
 * first list an element shows is not held (nothing was under a finger yet).
 */
function holdFor(el, legal) {
  const shown = legal.join("\n");
  const list = LISTS.get(el);
  if (!list) {
    LISTS.set(el, { shown, until: 0, timer: null });
    return;
  }
  if (shown === list.shown) return;
  list.shown = shown;
  if (!legal.length) return;
  const hold = stepHoldMs();
  if (!hold) return;
  list.until = Date.now() + hold;
  clearTimeout(list.timer);
  list.timer = setTimeout(() => {
    list.timer = null;
    // the held buttons are drawn again enabled, where they are (a redraw since drew them held)
    for (const b of el.querySelectorAll("button.legal-held")) {
      b.disabled = false;
      b.classList.remove("legal-held");
    }
  }, hold + 10);
}

const heldNow = (el) => Date.now() < (LISTS.get(el)?.until ?? 0);

/** Append to `el` one group per `group(action)` key, each action a button calling `send`. An
 * empty `legal` draws nothing but is remembered (holdFor): call it for every list shown in `el`.
 * Just after the actions changed the buttons are disabled for STEP_HOLD_MS, and a click that
 * still reaches one then sends nothing. */
export function renderLegalGroups(el, legal, { group, label, send }) {
  holdFor(el, legal);
  const wait = heldNow(el);
  const groups = new Map();
  for (const a of legal) {
    const g = group(a);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(a);
  }
  for (const [g, acts] of groups) {
    el.append(
      h(
        "div",
        { class: "legal-group", dataset: { group: g } },
        h("h4", {}, t(`group.${g}`), h("span", { class: "muted" }, ` (${acts.length})`)),
        h(
          "ul",
          {},
          acts.map((a) =>
            h(
              "li",
              {},
              h(
                "button",
                { type: "button", class: `act legal-act${wait ? " legal-held" : ""}`, dataset: { action: a }, disabled: wait, onclick: () => heldNow(el) || send(a) },
                h("span", { class: "label" }, label(a)),
                h("code", { class: "notation" }, a),
              ),
            ),
          ),
        ),
      ),
    );
  }
}

/** The notation box's placeholder: one of the current legal actions, in this game's notation. */
export function notationPlaceholder(legal) {
  const example = legal.length ? legal[Math.floor(legal.length / 2)] : null;
  return example ? t("ui.notationExample", { example }) : t("ui.notationWait");
}
