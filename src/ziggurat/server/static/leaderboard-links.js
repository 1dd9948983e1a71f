// The lobby's links to each game's leaderboard (/leaderboard/{game}).

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

let games = [];

function render() {
  const el = document.getElementById("leaderboard-links");
  if (!el) return;
  clear(el);
  for (const g of games) {
    el.append(h("a", { class: "button", href: `/leaderboard/${encodeURIComponent(g.id)}`, dataset: { leaderboard: g.id } }, t(`game.${g.id}`)));
  }
}

onLangChange(render);
api("GET", "/api/games")
  .then((list) => ((games = list), render()))
  .catch(() => {}); // the lobby says itself when the games cannot be loaded
