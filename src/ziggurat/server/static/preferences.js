// The mail preferences page /account/preferences: the signed-in account's e-mail address and
// "mail me when it is my turn" (GET and POST /api/account/preferences; docs/server.md, "Mail").
// A server without SMTP settings says that mail is off.

import { ApiError, accountApi, currentAccount } from "./api.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

let prefs = null; // {email, mail_turns, mail_enabled}
let failure = null; // () => text
let status = null; // () => text
let statusKind = "ok"; // "ok" or "error"

function render() {
  applyStatic(document);
  document.title = `${t("mail.title")} — Ziggurat`;
  const fatal = $("fatal");
  fatal.hidden = !failure;
  fatal.textContent = failure ? failure() : "";
  $("prefs").hidden = !prefs;
  if (!prefs) return;
  $("mail-off").hidden = prefs.mail_enabled;
  $("prefs-status").textContent = status ? status() : "";
  $("prefs-status").dataset.kind = statusKind;
}

async function save(event) {
  event.preventDefault();
  const email = $("prefs-email").value.trim();
  const button = $("prefs-save");
  button.disabled = true;
  status = null;
  render();
  try {
    prefs = await accountApi("POST", "/api/account/preferences", { email, mail_turns: $("prefs-turns").checked, lang: lang() });
    $("prefs-email").value = prefs.email || "";
    $("prefs-turns").checked = prefs.mail_turns;
    $("prefs-email").removeAttribute("aria-invalid");
    status = () => t("mail.saved");
    statusKind = "ok";
  } catch (e) {
    statusKind = "error";
    if (e instanceof ApiError && e.status === 400) {
      $("prefs-email").setAttribute("aria-invalid", "true");
      status = () => t("mail.err.bad");
    } else {
      const detail = e instanceof ApiError ? e.detail : String(e);
      status = () => t("mail.err.failed", { detail });
    }
  } finally {
    button.disabled = false;
  }
  render();
}

async function main() {
  $("lang").append(langSwitch());
  onLangChange(render);
  $("prefs-form").addEventListener("submit", save);
  const me = await currentAccount();
  if (!me.signed_in) {
    failure = () => t("mail.signIn");
  } else {
    try {
      prefs = await accountApi("GET", "/api/account/preferences");
      $("prefs-email").value = prefs.email || "";
      $("prefs-turns").checked = prefs.mail_turns;
    } catch (e) {
      const detail = e instanceof ApiError ? e.detail : String(e);
      failure = () => t("mail.err.failed", { detail });
    }
  }
  render();
  document.body.dataset.ready = "1";
}

main();
