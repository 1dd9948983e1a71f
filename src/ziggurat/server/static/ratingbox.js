// The game-over box's ratings: what a rated table did to each account's rating
// (GET /api/tables/{id}/ratings, asked once the game is over), with a link to the leaderboard.

import { api } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

let found = null; // the answer, once it came
let asked = false;

const num = (x) => Number(x).toLocaleString(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const signed = (x) => (x > 0 ? `+${num(x)}` : x < 0 ? `−${num(-x)}` : `±${num(0)}`);

/**
 * Append the ratings of finished table `tableId` to the game-over `box` (nothing for an unrated
 * table). The first call asks the server and calls `rerender` when the answer is in.
 * `seatName(seat)` names a seat as the page does.
 */
export function renderRatings(box, tableId, seatName, rerender) {
  if (!asked) {
    asked = true;
    api("GET", `/api/tables/${encodeURIComponent(tableId)}/ratings`)
      .then((answer) => {
        found = answer;
        rerender();
      })
      .catch(() => {}); // without the ratings the box shows the result alone
  }
  if (!found || !found.rated) return;
  const cap = (text) => String(text).charAt(0).toUpperCase() + String(text).slice(1);
  box.append(
    h(
      "section",
      { class: "rating-changes", "aria-label": t("rating.changes") },
      h("h3", {}, t("rating.changes")),
      h(
        "ul",
        {},
        found.changes.map((c) =>
          h(
            "li",
            { dataset: { seat: c.seat, kind: c.bot ? "bot" : "account" } },
            h("span", { class: "who" }, cap(seatName(c.seat)), " · ", c.bot ? t("rating.botLevel", { level: t(`bot.${c.bot}`) }) : h("b", {}, c.name)),
            " ",
            c.bot
              ? h("span", { class: "muted" }, t("rating.fixed", { rating: num(c.after) }))
              : h(
                  "span",
                  { class: "change" },
                  `${num(c.before)} → ${num(c.after)} `,
                  h("span", { class: c.change > 0 ? "delta up" : c.change < 0 ? "delta down" : "delta" }, `(${signed(c.change)})`),
                  " ",
                  // the shown rating may barely move (a loss also makes it surer): mu says how it went
                  h("span", { class: "mu muted", title: t("rating.muHelp") }, `μ ${num(c.mu_before)} → ${num(c.mu_after)}`),
                ),
          ),
        ),
      ),
      h("a", { class: "leaderboard-link", href: `/leaderboard/${encodeURIComponent(found.game)}` }, t("rating.seeLeaderboard")),
    ),
  );
}
