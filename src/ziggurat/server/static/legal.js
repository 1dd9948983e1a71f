// The legal-actions list shared by the table page and the tutorial page: the actions grouped
// by the board module's group key, each a button with its readable label and its notation.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Append to `el` one group per `group(action)` key, each action a button calling `send`. */
export function renderLegalGroups(el, legal, { group, label, send }) {
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
                { type: "button", class: "act legal-act", dataset: { action: a }, onclick: () => send(a) },
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
