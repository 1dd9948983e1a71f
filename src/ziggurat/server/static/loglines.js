// One entry of a table's log as a list item (the table, replay and tutorial pages): its ply
// number, the acting seat's swatch and its sentence. The sentences of one step share its ply:
// only the first shows the number, the others continue it.

import { h } from "./dom.js";

/** The list item of log entry `e`; `prev` is the entry before it (or null), `attrs` the item's
 * own attributes (its `class` replaces the seat's colour class), `sentence` what it says. */
export function logItem(e, prev, attrs, sentence) {
  const cont = !!prev && prev.ply === e.ply;
  const base = attrs.class ?? (e.colour ? `c-${e.colour}` : "chance");
  return h(
    "li",
    { ...attrs, class: cont ? `${base} cont` : base },
    h("span", { class: "ply", "aria-hidden": cont ? "true" : null }, e.ply),
    h("span", { class: `swatch sw-${e.colour || "none"}` }),
    h("span", { class: "sentence" }, sentence),
  );
}
