// The clocks of a timed table (docs/server.md, "Time controls"): one chip per seat with the
// time it has left, counting down here between the server's messages (each `state` message
// re-syncs them: `remaining` seconds as of the message, `running`), red under 10% of the
// time control or 30 s; a badge while a bot plays a seat whose clock ran out, and for that
// seat's own player a "Take my seat back" button; while a real-time table waits for a player
// to come to it for the first time, no clock counts and that seat's chip says so. Also the
// clock texts of "My games".

import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";

/** `seconds` as a clock reads: 4:05, 1:02:09, or 2 d 3 h for long turn-based clocks. */
export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds - 1e-9));
  if (s >= 86400) {
    const d = Math.floor(s / 86400);
    const hr = Math.floor((s % 86400) / 3600);
    return hr ? t("clock.dh", { d, h: hr }) : t("clock.d", { d });
  }
  const hr = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return hr ? `${hr}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** The time control in words: "15 min + 20 s" or "24 h per turn". */
export function describeTimeControl(tc) {
  if (!tc) return "";
  const span = (sec) => {
    const parts = [];
    let left = Math.round(sec);
    for (const [size, unit] of [[86400, "d"], [3600, "h"], [60, "min"], [1, "s"]]) {
      if (left >= size) {
        parts.push(`${Math.floor(left / size)} ${t(`clock.unit.${unit}`)}`);
        left %= size;
      }
    }
    return parts.join(" ") || `0 ${t("clock.unit.s")}`;
  };
  if (tc.kind === "realtime") return tc.increment ? `${span(tc.budget)} + ${span(tc.increment)}` : span(tc.budget);
  return t("clock.perTurn", { time: span(tc.per_turn) });
}

/** The clock is low: under 10% of its full time, or under 30 s. */
export function isLow(seconds, tc) {
  const full = tc?.kind === "realtime" ? tc.budget : tc?.per_turn;
  return seconds < 30 || (full > 0 && seconds < full * 0.1);
}

let synced = null; // { clocks, tc, at: performance.now() of the message }
let ticker = null;
let args = null;

function leftNow(clock) {
  if (!clock.running) return clock.remaining;
  return Math.max(0, clock.remaining - (performance.now() - synced.at) / 1000);
}

function graceNow(clock) {
  if (clock.grace === null || clock.grace === undefined) return null;
  return Math.max(0, clock.grace - (performance.now() - synced.at) / 1000);
}

/**
 * Fill `el` from the last `state` message `msg` (a table without a clock hides it).
 * `name(seat)` names a seat; `onTakeBack()` asks the server to give the seat back.
 */
export function renderClocks(el, msg, name, onTakeBack) {
  if (!msg?.clocks || !msg.time_control || msg.status === "open") {
    el.hidden = true;
    clear(el);
    clearInterval(ticker);
    ticker = null;
    synced = null;
    return;
  }
  if (!synced || synced.version !== msg.version || synced.msg !== msg) {
    synced = { msg, version: msg.version, at: performance.now() };
  }
  args = [el, msg, name];
  // rebuilt only when what it shows changes (not the times): a button being clicked stays put;
  // the seats' names are part of it (a game's names arrive with its catalogue, after a switch
  // of language)
  const shape = JSON.stringify([lang(), msg.seat, msg.status, msg.time_control, msg.clocks.map((c, seat) => c && [c.bot, c.bot_since_ply, c.timed_out, c.arrived, name(seat)])]);
  if (el.dataset.shape !== shape || !el.childElementCount) {
    el.dataset.shape = shape;
    draw(el, msg, name, onTakeBack);
  }
  tick(el, msg, name);
  // between messages only the times change: the chips (and the button) stay the same elements
  if (!ticker) ticker = setInterval(() => args && tick(...args), 250);
}

function tick(el, msg, name) {
  const over = msg.status === "over";
  for (const chip of el.querySelectorAll(".clock")) {
    const seat = Number(chip.dataset.seat);
    const clock = msg.clocks[seat];
    if (!clock) continue;
    const left = leftNow(clock);
    const text = formatClock(left);
    chip.querySelector(".clock-time").textContent = text;
    chip.dataset.remaining = left.toFixed(1);
    chip.classList.toggle("low", !over && isLow(left, msg.time_control));
    chip.classList.toggle("running", clock.running && !over);
    chip.setAttribute("aria-label", t("clock.aria", { seat: name(seat), time: text }));
    const note = chip.querySelector(".clock-note");
    const grace = graceNow(clock);
    if (note && grace !== null) note.textContent = t("clock.timedOut", { s: Math.ceil(grace) });
  }
}

function draw(el, msg, name, onTakeBack) {
  const tc = msg.time_control;
  const over = msg.status === "over";
  el.hidden = false;
  clear(el);
  el.append(h("span", { class: "clocks-tc muted", title: t("clock.title") }, describeTimeControl(tc)));
  // a real-time table's clocks wait until every player has come to the table once
  const awaited = !over && msg.clocks.some((c) => c && c.arrived === false);
  msg.clocks.forEach((clock, seat) => {
    if (!clock) return; // a bot seat has no clock
    const left = leftNow(clock);
    const low = !over && isLow(left, tc);
    const chip = h(
      "span",
      {
        class: `clock${clock.running && !over ? " running" : ""}${low ? " low" : ""}${clock.bot ? " bot" : ""}`,
        dataset: { seat: String(seat), remaining: left.toFixed(1) },
        role: "timer",
        "aria-label": t("clock.aria", { seat: name(seat), time: formatClock(left) }),
      },
      h("span", { class: `swatch sw-${msg.view?.players?.[seat]?.colour || ""}` }),
      h("span", { class: "clock-name" }, name(seat)),
      h("span", { class: "clock-time" }, formatClock(left)),
    );
    if (awaited && clock.arrived === false) chip.append(h("span", { class: "clock-away" }, t("clock.notHere")));
    const grace = graceNow(clock);
    if (clock.timed_out && !clock.bot && grace !== null && !over) {
      chip.append(h("span", { class: "clock-note" }, t("clock.timedOut", { s: Math.ceil(grace) })));
    }
    if (clock.bot) {
      const since = clock.bot_since_ply ? t("clock.botSince", { ply: clock.bot_since_ply }) : "";
      chip.append(h("span", { class: "clock-bot-badge" }, t("clock.botPlaying", { level: t(`bot.${clock.bot}`), since })));
      if (seat === msg.seat && !over) {
        chip.append(h("button", { type: "button", class: "primary take-back", onclick: onTakeBack }, t("clock.takeBack")));
      }
    }
    el.append(chip);
  });
  if (awaited) el.append(h("span", { class: "clocks-waiting muted" }, t("clock.waitingAll")));
}

/** "My games": the account's clock at a timed table, as text ("Your clock: 4:05"), or "". */
export function clockLine(clock) {
  if (!clock) return "";
  if (clock.bot) return t("clock.gamesBot", { level: t(`bot.${clock.bot}`) });
  const text = formatClock(clock.remaining);
  const tc = describeTimeControl(clock.time_control);
  return clock.running ? t("clock.gamesRunning", { time: text, tc }) : t("clock.gamesLeft", { time: text, tc });
}
