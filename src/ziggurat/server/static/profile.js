// The profile page /profile/{name}: an account's public facts from GET /api/users/{name}: when
// it joined, its rating in each game (mu - 3 sigma, the leaderboards' scale) and its games with
// their results. Nothing secret is shown: no seat or spectator link.

import { gameItem, dateText } from "./account.js";
import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";
import { loadMessages } from "./messages.js";

const $ = (id) => document.getElementById(id);

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let profile = null;
let failure = null;

function fixed(x, digits) {
  return Number(x).toLocaleString(lang() === "fr" ? "fr-FR" : "en-GB", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function renderHead() {
  const el = clear($("profile-head"));
  el.hidden = !profile;
  if (!profile) return;
  el.append(h("h2", { id: "profile-name" }, t("profile.title", { name: profile.name })), h("p", { class: "muted" }, t("profile.memberSince", { date: dateText(profile.member_since) })));
}

function renderRatings() {
  const el = clear($("profile-ratings"));
  el.hidden = !profile;
  if (!profile) return;
  el.append(h("h2", {}, t("profile.ratings")));
  if (!profile.ratings.length) {
    el.append(h("p", { class: "muted" }, t("profile.noRatings")));
    return;
  }
  const head = h("tr", {}, h("th", {}, t("profile.game")), h("th", { class: "num" }, t("profile.rating")), h("th", { class: "num" }, "μ"), h("th", { class: "num" }, "σ"), h("th", { class: "num" }, t("profile.rated")));
  const rows = profile.ratings.map((r) =>
    h(
      "tr",
      { dataset: { game: r.game } },
      h("td", {}, t(`game.${r.game}`)),
      h("td", { class: "num shown" }, fixed(r.rating, 1)),
      h("td", { class: "num" }, fixed(r.mu, 2)),
      h("td", { class: "num" }, fixed(r.sigma, 2)),
      h("td", { class: "num" }, String(r.games)),
    ),
  );
  el.append(h("div", { class: "outcome-wrap" }, h("table", { class: "rating-table" }, h("thead", {}, head), h("tbody", {}, rows))), h("p", { class: "muted" }, t("profile.ratingHelp")));
}

function renderGames() {
  const el = clear($("profile-games"));
  el.hidden = !profile;
  if (!profile) return;
  el.append(h("h2", {}, t("profile.games"), h("span", { class: "muted" }, ` (${profile.games.length})`)));
  if (!profile.games.length) {
    el.append(h("p", { class: "muted" }, t("profile.noGames")));
    return;
  }
  el.append(h("ul", { class: "profile-games" }, profile.games.map((g) => gameItem(g))));
}

function renderAll() {
  applyStatic(document);
  const fatal = $("fatal");
  fatal.hidden = !failure;
  fatal.textContent = failure ? failure() : "";
  document.title = profile ? `${t("profile.title", { name: profile.name })} — Ziggurat` : "Ziggurat";
  renderHead();
  renderRatings();
  renderGames();
}

async function main() {
  $("lang").append(langSwitch());
  onLangChange((l) => {
    renderAll();
    loadMessages(l).then(renderAll);
  });
  try {
    profile = await api("GET", `/api/users/${encodeURIComponent(name)}`);
  } catch (e) {
    failure = e instanceof ApiError && e.status === 404 ? () => t("profile.notFound", { name }) : () => t("profile.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) });
  }
  await loadMessages(lang()).catch(() => null);
  renderAll();
  document.body.dataset.ready = "1";
}

main();
