// HTTP, WebSocket and token storage for the Ziggurat client (protocol: docs/server.md).

const TOKENS_KEY = "ziggurat.tokens";
const CREATED_KEY = "ziggurat.created";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/** JSON request; throws ApiError with the server's `detail` on failure. */
export async function api(method, path, body = undefined, token = undefined, extraHeaders = undefined) {
  const headers = { Accept: "application/json", ...extraHeaders };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Ziggurat-Token"] = token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, String(e && e.message ? e.message : e));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    let detail = data && typeof data === "object" ? data.detail : data;
    if (detail && typeof detail !== "string") detail = JSON.stringify(detail);
    throw new ApiError(res.status, detail || res.statusText);
  }
  return data;
}

// ---- the signed-in account (docs/server.md, "Accounts") ----

let accountAnswer = null; // the promise of GET /api/account: {signed_in, name, csrf}

/** Who is signed in here, asked once per page (again with `refresh`): {signed_in, name, csrf}. */
export function currentAccount(refresh = false) {
  if (refresh || !accountAnswer) {
    accountAnswer = api("GET", "/api/account").catch(() => ({ signed_in: false, name: null, csrf: null }));
  }
  return accountAnswer;
}

/** Remember the account a sign-up, sign-in or sign-out answered (it carries the new CSRF token),
 * and tell the page's other parts ("ziggurat:account" on window, the answer as its detail). */
export function setAccount(answer) {
  accountAnswer = Promise.resolve(answer);
  window.dispatchEvent(new CustomEvent("ziggurat:account", { detail: answer }));
}

/** A request made as the signed-in account: api() with its CSRF token in X-CSRF-Token, which
 * every change authenticated by the session cookie needs (and a seat token when given). */
export async function accountApi(method, path, body = undefined, token = undefined) {
  const me = await currentAccount();
  return api(method, path, body, token, me.csrf ? { "X-CSRF-Token": me.csrf } : undefined);
}

function readList(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

function writeList(key, list) {
  try {
    localStorage.setItem(key, JSON.stringify(list));
  } catch {
    /* storage full or disabled: the page still works from its link */
  }
}

/** Tokens this browser holds: [{table, token, added}] (newest last). */
export function storedTokens() {
  return readList(TOKENS_KEY).filter((e) => e && typeof e.token === "string" && typeof e.table === "string");
}

/** Remember a token; `seat` is its seat number, null for a spectator token, undefined if unknown. */
export function rememberToken(table, token, seat = undefined) {
  const list = storedTokens();
  const old = list.find((e) => e.token === token);
  if (old) {
    if (seat !== undefined && old.seat !== seat) {
      old.seat = seat;
      writeList(TOKENS_KEY, list);
    }
    return;
  }
  list.push({ table, token, seat, added: Date.now() });
  writeList(TOKENS_KEY, list.slice(-200));
}

export function forgetToken(token) {
  writeList(TOKENS_KEY, storedTokens().filter((e) => e.token !== token));
  writeList(CREATED_KEY, createdTables().filter((c) => c.spectator_token !== token));
}

/** The latest stored token for a table (used when a page is opened without its #token). */
export function tokenForTable(table) {
  const list = storedTokens().filter((e) => e.table === table);
  return list.length ? list[list.length - 1].token : null;
}

/** Tables created in this browser, with their invite links: the answers of POST /api/tables. */
export function createdTables() {
  return readList(CREATED_KEY).filter((c) => c && typeof c.table === "string");
}

export function rememberCreated(answer) {
  const list = createdTables().filter((c) => c.table !== answer.table);
  list.push({ ...answer, created_at: Date.now() });
  writeList(CREATED_KEY, list.slice(-50));
}

/** `#token=...` of the current page, or null. */
export function tokenFromHash(hash = location.hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token");
  return token && /^[A-Za-z0-9_-]{8,128}$/.test(token) ? token : null;
}

/**
 * A link to share. The server's links are absolute (its public URL, or the address it was
 * asked at) and are kept as they are; a relative one (kept in this browser by an older
 * version) is made absolute on this page's origin.
 */
export function absoluteLink(link) {
  return /^https?:\/\//i.test(link) ? link : new URL(link, location.origin).href;
}

/**
 * The same link on this page's own origin (path and #token only), to open it here: the
 * public URL may be an address this machine does not reach itself, and it may be another
 * origin, with other remembered tables.
 */
export function pageLink(link) {
  const url = new URL(link, location.origin);
  return url.pathname + url.search + url.hash;
}

/**
 * A table socket that reconnects by itself.
 * handlers: onMessage(msg), onStatus("connecting" | "open" | "closed" | "fatal", detail)
 * (detail: the close code, for "closed" and "fatal"; 1008: the address opened too many sockets)
 */
export class TableSocket {
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.pingTimer = null;
    this.stopped = false;
    this._onOnline = () => this.reconnectNow();
    window.addEventListener("online", this._onOnline);
    this._onVisible = () => {
      if (document.visibilityState === "visible") this.reconnectNow();
    };
    document.addEventListener("visibilitychange", this._onVisible);
  }

  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    return `${proto}://${location.host}/ws/${encodeURIComponent(this.tableId)}?token=${encodeURIComponent(this.token)}`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.handlers.onStatus("connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.schedule();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.handlers.onStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.handlers.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === 4403 || ev.code === 4404) {
        this.stopped = true;
        this.handlers.onStatus("fatal", ev.code);
        return;
      }
      this.handlers.onStatus("closed", ev.code);
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  schedule() {
    if (this.stopped) return;
    const delay = Math.min(5000, 400 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    this.retry = 0;
    this.connect();
  }

  isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  send(obj) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    window.removeEventListener("online", this._onOnline);
    document.removeEventListener("visibilitychange", this._onVisible);
    if (this.ws) this.ws.close();
  }
}
