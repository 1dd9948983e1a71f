// Strings of the Mare Nostrum board's own controls, in English and French, added to the page's
// catalogue (i18n.js) when the board module loads.

import { STRINGS } from "../../i18n.js";

Object.assign(STRINGS.en, {
  "mn.choicesOnMap": "Choose next to the area on the map (Esc to cancel).",
  "mn.levelPlus": "Level {n}: the 15+ marker on space {k} (N0.7.5)",
});
Object.assign(STRINGS.fr, {
  "mn.choicesOnMap": "Choisissez à côté de la zone, sur la carte (Échap pour annuler).",
  "mn.levelPlus": "Niveau {n} : le marqueur 15+ sur la case {k} (N0.7.5)",
});
