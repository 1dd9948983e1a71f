// Being told it is your turn on the table page (docs/server.md, "The table page"): the tab's
// title and favicon while this seat has a decision, an optional chime when the turn begins, and a
// browser notification when it begins while the tab is hidden. The browser's permission is asked
// for only when the player clicks "Notify me", never on load; nothing is played or shown for a
// turn that was already this seat's when the page opened. table.js calls setupTurnNotices once,
// setTitle from its header and turnUpdate with every state message; the lobby's "My games"
// counts the games waiting for the account's move in its tab (markGamesToPlay).

import { clear, h } from "./dom.js";
import { onLangChange, t } from "./i18n.js";

const SOUND_KEY = "ziggurat.turnSound"; // "on" | "off" (off unless turned on)
const NOTIFY_KEY = "ziggurat.turnNotify"; // "off" once the player turned notifications off here
const ICON = "/favicon.svg";
const TURN_ICON = "/favicon-turn.svg";
const MARKER = "•"; // in front of the title: the turn came while the tab was hidden

let box = null; // the settings area (#turn-settings)
let tableId = "";
let baseTitle = document.title;
let gameName = "";
let seen = false; // a state message has come: later turns are new ones
let mine = false; // this seat has a decision now
let marked = false; // the turn came while the tab was hidden; kept until the tab is visible
let shown = null; // the notification of the current turn, closed when the turn ends
let audio = null; // one AudioContext, made on first use
let shownPermission = null; // the permission the settings area shows

function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* storage disabled: the setting lasts as long as the page */
  }
}

export function soundOn() {
  return stored(SOUND_KEY) === "on";
}

/** "unsupported" | "default" | "granted" | "denied": what the browser allows for this site
 * (the Notification API exists only on secure pages: https or localhost). */
function permission() {
  return "Notification" in window ? Notification.permission : "unsupported";
}

function notifyOn() {
  return permission() === "granted" && stored(NOTIFY_KEY) !== "off";
}

/** True while `m` (a state message) gives this seat a decision: a seated player, a game in
 * play, some legal action. */
export function isMyTurn(m) {
  if (!m || m.seat === null || m.seat === undefined) return false;
  if (m.status === "over" || m.status === "open") return false;
  return (m.legal || []).length > 0;
}

// ---- title and favicon -------------------------------------------------------------------------

/** The page's own title ("<game> — Ziggurat"); the turn's mark is put in front of it. */
export function setTitle(text) {
  baseTitle = text;
  renderTitle();
}

function renderTitle() {
  const mark = mine ? `${t("notify.titleMark")} ` : marked ? `${MARKER} ` : "";
  document.title = mark + baseTitle;
  setIcon(mine || marked);
}

/** The lobby's tab: how many of the account's games wait for its move ("My games", account.js)
 * in front of the title, and the turn's favicon while there is one. */
export function markGamesToPlay(count) {
  document.title = count > 0 ? `${t("notify.gamesMark", { n: count })} Ziggurat` : "Ziggurat";
  setIcon(count > 0);
}

function setIcon(turn) {
  const href = turn ? TURN_ICON : ICON;
  let link = document.querySelector("link[rel~='icon']");
  if (!link) {
    link = h("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
}

// ---- the chime ---------------------------------------------------------------------------------

/** The page's AudioContext, made (and woken) on first use; null without Web Audio. */
function audioContext() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio) audio = new Context();
  return audio;
}

/** Two short rising notes, made with the Web Audio API (no sound file). A browser starts sound
 * only after the player has used the page: before that nothing plays, and a chime held back is
 * dropped rather than played late. */
async function chime() {
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  const ctx = audioContext();
  if (!ctx) return;
  if (ctx.state !== "running") {
    const asked = performance.now();
    try {
      await ctx.resume();
    } catch {
      return;
    }
    if (ctx.state !== "running" || performance.now() - asked > 1000) return;
  }
  const start = ctx.currentTime + 0.02;
  for (const [freq, at] of [
    [659.25, 0],
    [987.77, 0.15],
  ]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + at);
    osc.stop(start + at + 0.45);
  }
}

// ---- the browser notification ------------------------------------------------------------------

function notify() {
  if (!notifyOn()) return;
  try {
    const n = new Notification(t("notify.notice", { game: gameName }), {
      body: t("notify.noticeBody", { id: tableId }),
      icon: TURN_ICON,
      tag: `ziggurat-turn-${tableId}`,
    });
    n.onclick = () => {
      window.focus();
      n.close();
    };
    shown = n;
  } catch {
    /* a browser that shows notifications only from a service worker (Chrome on Android) */
  }
}

async function askPermission() {
  if (permission() === "default") {
    try {
      await Notification.requestPermission();
    } catch {
      /* an old browser's callback form: the state is read again below */
    }
    store(NOTIFY_KEY, "on");
  } else if (permission() === "granted") {
    store(NOTIFY_KEY, notifyOn() ? "off" : "on");
  }
  renderSettings();
}

// ---- the settings area -------------------------------------------------------------------------

function renderSettings() {
  if (!box) return;
  clear(box);
  const sound = h("input", { type: "checkbox", id: "turn-sound" });
  sound.checked = soundOn();
  sound.addEventListener("change", () => {
    store(SOUND_KEY, sound.checked ? "on" : "off");
    if (sound.checked) chime(); // what it sounds like; this click also lets the page play sound
  });
  const state = permission();
  shownPermission = state;
  const on = notifyOn();
  const button = h(
    "button",
    { type: "button", id: "turn-notify", "aria-pressed": String(on), "aria-describedby": "turn-notify-help", onclick: askPermission },
    on ? t("notify.buttonOn") : t("notify.button"),
  );
  button.disabled = state === "unsupported" || state === "denied";
  const help = state === "granted" ? (on ? "notify.helpOn" : "notify.helpOff") : `notify.help.${state}`;
  box.dataset.permission = state;
  box.append(
    h("h3", { class: "turn-settings-title" }, t("notify.heading")),
    h("label", { class: "setting-row turn-sound", for: "turn-sound" }, sound, h("span", {}, t("notify.sound"))),
    h("div", { class: "turn-notify-row" }, button, h("span", { id: "turn-notify-help", class: "turn-notify-help muted" }, t(help))),
  );
}

/** Build the settings area in `element` (the chime, "Notify me") for the table `id`. */
export function setupTurnNotices(element, id) {
  box = element;
  tableId = id;
  renderSettings();
  onLangChange(() => {
    renderSettings();
    renderTitle();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState !== "visible") return;
    marked = false;
    renderTitle();
    shown?.close(); // the player is here: the notification has done its work
    shown = null;
    // the player may have allowed (or blocked) notifications in the browser's settings meanwhile
    if (permission() !== shownPermission) renderSettings();
  });
}

/** A state message came: mark the title while this seat has a decision, and when its turn
 * begins (not on the page's first state), chime and, in a hidden tab, notify. */
export function turnUpdate(m, game) {
  gameName = game;
  const now = isMyTurn(m);
  const begins = now && !mine && seen;
  seen = true;
  mine = now;
  if (box) box.hidden = !m || m.seat === null || m.seat === undefined || m.status === "over";
  if (begins) {
    if (document.visibilityState === "hidden") {
      marked = true;
      notify();
    }
    if (soundOn()) chime();
  }
  if (!now && shown) {
    shown.close();
    shown = null;
  }
  renderTitle();
}
