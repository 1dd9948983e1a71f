// The leaderboard page /leaderboard/{game}: the accounts with a rated game, best first, and the
// bot levels at their place on the same scale (GET /api/leaderboard/{game}, docs/server.md).

import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

let games = []; // GET /api/games
let board = null; // GET /api/leaderboard/{game}
let error = null; // {key, params}: worded again when the language changes

const num = (x, digits) => Number(x).toLocaleString(lang(), { minimumFractionDigits: digits, maximumFractionDigits: digits });

function renderGames() {
  const nav = clear($("board-games"));
  for (const g of games) {
    const current = g.id === gameId;
    nav.append(
      h("a", { class: current ? "button primary" : "button", href: `/leaderboard/${encodeURIComponent(g.id)}`, "aria-current": current ? "page" : null, dataset: { game: g.id } }, t(`game.${g.id}`)),
    );
  }
}

function renderBoard() {
  const known = t(`game.${gameId}`);
  const name = known === `game.${gameId}` ? gameId : known;
  document.title = `${t("rating.leaderboardOf", { game: name })} · Ziggurat`;
  $("board-title").textContent = t("rating.leaderboardOf", { game: name });
  $("board-scale").textContent = t("rating.scale");
  $("board-scale").hidden = Boolean(error);
  const banner = $("board-error");
  banner.hidden = !error;
  banner.textContent = error ? t(error.key, error.params) : "";
  const table = clear($("board-table"));
  const entries = board?.entries || [];
  table.hidden = !entries.length;
  const empty = $("board-empty");
  empty.hidden = !board || entries.some((e) => e.kind === "account");
  empty.textContent = t("rating.noneYet");
  const bots = $("board-bots");
  bots.hidden = !board?.bots;
  if (board?.bots) {
    const date = new Date(board.bots.date).toLocaleDateString(lang(), { year: "numeric", month: "long", day: "numeric" });
    bots.textContent = t("rating.botsMeasured", { games: board.bots.games, players: board.bots.players, date });
  }
  if (!entries.length) return;
  table.append(
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", class: "num" }, "#"),
        h("th", { scope: "col" }, t("rating.player")),
        h("th", { scope: "col", class: "num" }, t("rating.rating")),
        h("th", { scope: "col", class: "num", title: t("rating.muHelp") }, "μ"),
        h("th", { scope: "col", class: "num", title: t("rating.sigmaHelp") }, "σ"),
        h("th", { scope: "col", class: "num" }, t("rating.games")),
      ),
    ),
    h(
      "tbody",
      {},
      entries.map((e) =>
        h(
          "tr",
          { class: e.kind === "bot" ? "bot-row" : "", dataset: { kind: e.kind, name: e.name } },
          h("td", { class: "num" }, e.rank ?? ""),
          h(
            "th",
            { scope: "row" },
            e.kind === "bot" ? [h("span", { class: "bot-tag" }, t("rating.bot")), " ", t("rating.botLevel", { level: t(`bot.${e.name}`) })] : e.name,
          ),
          h("td", { class: "num rating" }, num(e.rating, 1)),
          h("td", { class: "num" }, num(e.mu, 1)),
          h("td", { class: "num" }, num(e.sigma, 1)),
          h("td", { class: "num", title: e.kind === "bot" ? t("rating.botGames") : null }, e.games),
        ),
      ),
    ),
  );
}

function renderAll() {
  applyStatic(document);
  renderGames();
  renderBoard();
}

async function main() {
  $("lang").append(langSwitch());
  onLangChange(renderAll);
  renderAll();
  const [gameList, found] = await Promise.allSettled([api("GET", "/api/games"), api("GET", `/api/leaderboard/${encodeURIComponent(gameId)}`)]);
  if (gameList.status === "fulfilled") games = gameList.value;
  if (found.status === "fulfilled") board = found.value;
  else {
    const e = found.reason;
    error = e instanceof ApiError && e.status === 404 ? { key: "rating.noGame", params: { game: gameId } } : { key: "rating.loadFailed", params: { detail: e instanceof ApiError ? e.detail : String(e) } };
  }
  renderAll();
  document.body.dataset.ready = "1";
}

main();
