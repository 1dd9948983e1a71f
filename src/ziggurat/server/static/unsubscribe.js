// The unsubscribe page /unsubscribe/{token} (the link of every "your turn" mail): names the
// account and stops its turn mails with one button, without signing in (POST
// /unsubscribe/{token}; docs/server.md, "Mail"). An unknown token changes nothing.

import { ApiError, api } from "./api.js";
import { applyStatic, langSwitch, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

const token = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let name = null;
let done = false;
let failure = null; // () => text

function render() {
  applyStatic(document);
  document.title = `${t("unsub.title")} — Ziggurat`;
  const fatal = $("fatal");
  fatal.hidden = !failure;
  fatal.textContent = failure ? failure() : "";
  $("unsub").hidden = name === null;
  if (name === null) return;
  $("unsub-text").textContent = done ? t("unsub.done", { name }) : t("unsub.ask", { name });
  $("unsub-button").hidden = done;
}

function failed(e) {
  if (e instanceof ApiError && e.status === 404) return () => t("unsub.unknown");
  const detail = e instanceof ApiError ? e.detail : String(e);
  return () => t("mail.err.failed", { detail });
}

async function unsubscribe() {
  const button = $("unsub-button");
  button.disabled = true;
  try {
    await api("POST", `/unsubscribe/${encodeURIComponent(token)}`);
    done = true;
  } catch (e) {
    failure = failed(e);
  } finally {
    button.disabled = false;
  }
  render();
}

async function main() {
  $("lang").append(langSwitch());
  onLangChange(render);
  $("unsub-button").addEventListener("click", unsubscribe);
  try {
    name = (await api("GET", `/api/unsubscribe/${encodeURIComponent(token)}`)).name;
  } catch (e) {
    failure = failed(e);
  }
  render();
  document.body.dataset.ready = "1";
}

main();
