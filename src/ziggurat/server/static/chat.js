// The table's chat panel (protocol: docs/server.md, "Chat"), beside the game log. Seats write,
// spectators read. Every message is shown as text (textContent through dom.js h(), never as
// HTML): a "<script>" in a message is just characters on the screen.
//   createChat(panel, send) -> {handle(socketMessage) -> bool, update(stateMessage, tableInfo)}
//   send(obj) sends a socket message and returns false when the socket is not open.
//   handle() takes the socket's chat, chat_history and chat_* error messages (true: handled).
//   update() follows the table: a spectator gets no input; names and times follow the language.

import { clear, h } from "./dom.js";
import { lang, t } from "./i18n.js";
import { messagesReady } from "./messages.js";
import { seatName } from "./tablehelp.js";

/** The server's limit (server/chat.py MAX_CHARS), in characters after trimming. */
export const MAX_CHARS = 500;
/** Messages kept on the page (the server sends its last 200 on connect). */
const KEEP = 200;

/** A message's length as the server counts it: characters (code points), ends trimmed. */
export function chatLength(text) {
  return [...String(text).trim()].length;
}

export function createChat(panel, send) {
  const $ = (sel) => panel.querySelector(sel);
  const list = $(".chat-list");
  const form = $(".chat-form");
  const input = $(".chat-input");
  const counter = $(".chat-counter");
  const error = $(".chat-error");
  const fold = $(".chat-fold");
  const unreadBadge = $(".chat-unread");
  let messages = [];
  let state = null;
  let info = null;
  let refusal = null; // {code, message, retry_after}
  let unread = 0;
  let retryTimer = null;
  let shownAs = "";
  let pending = null; // the text last sent: put back in the input if it is refused

  const spectator = () => !state || state.seat === null || state.seat === undefined;
  const folded = () => panel.dataset.folded === "1";

  function colourOf(seat) {
    return state?.view?.players?.[seat]?.colour || info?.seats?.[seat]?.colour || "none";
  }

  function nameOf(m) {
    if (m.label && messagesReady(lang())) return seatName(m.label) || m.name;
    return m.name;
  }

  function timeOf(m) {
    const at = new Date(m.at);
    if (Number.isNaN(at.getTime())) return { short: "", long: "" };
    return {
      short: at.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" }),
      long: at.toLocaleString(lang()),
    };
  }

  function line(m) {
    const when = timeOf(m);
    const mine = !spectator() && m.seat === state.seat;
    return h(
      "li",
      { class: mine ? "chat-msg mine" : "chat-msg", dataset: { id: String(m.id), seat: String(m.seat) } },
      h("span", { class: "chat-meta" },
        h("time", { class: "chat-time", datetime: m.at, title: when.long }, when.short),
        h("span", { class: `swatch sw-${colourOf(m.seat)}` }),
        h("span", { class: "chat-name" }, nameOf(m)),
        mine ? h("span", { class: "chat-you muted" }, t("chat.you")) : null,
      ),
      h("span", { class: "chat-text" }, m.text),
    );
  }

  function renderList() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    clear(list);
    for (const m of messages) list.append(line(m));
    $(".chat-empty").hidden = messages.length > 0;
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function renderUnread() {
    unreadBadge.hidden = !(folded() && unread > 0);
    unreadBadge.textContent = String(unread);
    unreadBadge.title = t("chat.unread", { n: unread });
    unreadBadge.setAttribute("aria-label", unreadBadge.title);
  }

  function refusalText() {
    if (!refusal) return "";
    const key = `chat.err.${refusal.code}`;
    const text = t(key, { max: MAX_CHARS, s: refusal.retry_after ?? "" });
    return text === key ? refusal.message : text;
  }

  function renderInput() {
    const seat = !spectator();
    form.hidden = !seat;
    $(".chat-readonly").hidden = seat || !state;
    const n = chatLength(input.value);
    counter.textContent = t("chat.counter", { n, max: MAX_CHARS });
    counter.dataset.level = n > MAX_CHARS ? "over" : n > MAX_CHARS * 0.9 ? "near" : "";
    $(".chat-send").disabled = n === 0 || n > MAX_CHARS;
    error.hidden = !refusal;
    error.textContent = refusalText();
  }

  function render() {
    renderList();
    renderInput();
    renderUnread();
  }

  function showRefusal(r) {
    refusal = r;
    clearTimeout(retryTimer);
    if (r?.retry_after) retryTimer = setTimeout(() => showRefusal(null), r.retry_after * 1000);
    renderInput();
  }

  function add(m) {
    if (messages.some((x) => x.id === m.id)) return;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    messages.push(m);
    // only the new line is added: the list is a live region, and a screen reader reads additions
    list.append(line(m));
    while (messages.length > KEEP) {
      messages.shift();
      list.firstElementChild?.remove();
    }
    $(".chat-empty").hidden = true;
    if (atBottom) list.scrollTop = list.scrollHeight;
    if (folded()) unread += 1;
    const mine = !spectator() && m.seat === state.seat;
    renderUnread();
    if (mine) {
      pending = null;
      list.scrollTop = list.scrollHeight;
    }
  }

  function submit() {
    const n = chatLength(input.value);
    if (n === 0) return;
    if (n > MAX_CHARS) {
      showRefusal({ code: "chat_too_long", message: "" });
      return;
    }
    if (!send({ type: "chat", text: input.value })) {
      showRefusal({ code: "not_connected", message: t("ui.notConnected") });
      return;
    }
    pending = input.value;
    input.value = "";
    showRefusal(null);
  }

  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    submit();
  });
  input.addEventListener("keydown", (ev) => {
    // Enter sends, Shift+Enter starts a new line (and an IME's Enter picks its word)
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) {
      ev.preventDefault();
      submit();
    }
  });
  input.addEventListener("input", renderInput);
  fold.addEventListener("click", () => setFolded(!folded()));

  function setFolded(on) {
    panel.dataset.folded = on ? "1" : "0";
    fold.setAttribute("aria-expanded", String(!on));
    if (!on) {
      unread = 0;
      list.scrollTop = list.scrollHeight;
    }
    renderUnread();
  }
  // on a phone the chat starts folded under the log; its heading unfolds it
  setFolded(window.matchMedia("(max-width: 600px)").matches);

  return {
    handle(m) {
      if (m.type === "chat") {
        add(m);
        return true;
      }
      if (m.type === "chat_history") {
        const known = new Set(messages.map((x) => x.id));
        const fresh = (m.messages || []).filter((x) => !known.has(x.id)).length;
        messages = (m.messages || []).slice(-KEEP);
        if (folded()) unread += fresh;
        render();
        list.scrollTop = list.scrollHeight;
        return true;
      }
      if (m.type === "error" && typeof m.code === "string" && m.code.startsWith("chat_")) {
        if (!input.value && pending) input.value = pending;
        pending = null;
        showRefusal({ code: m.code, message: m.message, retry_after: m.retry_after });
        return true;
      }
      return false;
    },
    update(stateMessage, tableInfo) {
      state = stateMessage;
      info = tableInfo;
      // the list is drawn again only when what it shows changes (the language, who reads it)
      const look = `${lang()}|${messagesReady(lang())}|${state?.seat}|${info ? 1 : 0}`;
      if (look !== shownAs) {
        shownAs = look;
        render();
      } else renderInput();
    },
  };
}
