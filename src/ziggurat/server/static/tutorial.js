// The tutorial page, /tutorial/<game>: a game's lessons (/api/tutorials/<game>), played one at a
// time through /api/tutorials/sessions/<id>. The board, the legal actions and the log are drawn
// as at a table, by the game's board module (boards/<game>.js) and the message catalogues; the
// lesson panel shows the step to play, the hint after a legal move the step does not ask for,
// the engine's refusal after an illegal one, and the lesson's end. Lesson texts come in English
// and French and follow the page's language switch.

import { ApiError, api } from "./api.js";
import { clear, h } from "./dom.js";
import { notationPlaceholder, renderLegalGroups } from "./legal.js";
import { applyStatic, lang, langSwitch, onLangChange, t } from "./i18n.js";
import { loadMessages, messagesReady, refusalReason, renderMessage } from "./messages.js";
import { linkRules, setupRules } from "./rules.js";
import { logItem } from "./loglines.js";

const $ = (id) => document.getElementById(id);
const DONE_KEY = "ziggurat.tutorials.done";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

let tutorial = null; // GET /api/tutorials/<game>
let answer = null; // the last answer of the session
let feedback = null; // {kind: "hint" | "refused", hint?, error?, action}
let board = null;
let boardModule = null;
let busy = false;
let answers = 0; // answers shown so far (body[data-answers]: tests wait on it)

const pick = (text) => (text ? text[lang()] ?? text.en : "");

function fatal(text) {
  const el = $("fatal");
  el.hidden = false;
  el.textContent = text;
}

function completed() {
  try {
    const v = JSON.parse(localStorage.getItem(DONE_KEY) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

function markCompleted(lessonId) {
  const all = completed();
  const mine = new Set(all[gameId] || []);
  mine.add(lessonId);
  all[gameId] = [...mine];
  try {
    localStorage.setItem(DONE_KEY, JSON.stringify(all));
  } catch {
    /* storage disabled: progress is simply not remembered */
  }
}

function lessonOf(id) {
  return tutorial?.lessons.find((l) => l.id === id) || null;
}

// ---- the lesson panel ------------------------------------------------------------------------

function rulesText(rules, said) {
  // the rules a step's text does not already name
  const more = (rules || []).filter((r) => !said.includes(r));
  return more.length ? ` (${more.join(", ")})` : "";
}

function renderLessons() {
  const nav = clear($("lessons"));
  const done = new Set(completed()[gameId] || []);
  tutorial.lessons.forEach((l, i) => {
    const current = answer?.lesson === l.id;
    nav.append(
      h(
        "button",
        {
          type: "button",
          class: `lesson-link${done.has(l.id) ? " completed" : ""}`,
          dataset: { lesson: l.id },
          "aria-current": current ? "step" : null,
          onclick: () => startLesson(l.id),
        },
        `${i + 1}. ${pick(l.title)}`,
      ),
    );
  });
}

function refusalText(error) {
  // the engine's reasons start "illegal: <action>: "; the reason alone is what the learner needs
  let reason = String(error.message || "");
  const ev = error.event;
  if (ev && messagesReady(lang())) reason = refusalReason(lang(), ev);
  return reason;
}

function renderLesson() {
  const lesson = lessonOf(answer?.lesson);
  if (!lesson) return;
  const index = tutorial.lessons.indexOf(lesson);
  $("tutorial-title").textContent = `${t("tut.title")} · ${t(`game.${gameId}`)}`;
  document.title = `${t("tut.title")} · ${t(`game.${gameId}`)} — Ziggurat`;
  $("lesson-title").textContent = t("tut.lessonN", { n: index + 1, total: tutorial.lessons.length, title: pick(lesson.title) });
  $("lesson-intro").textContent = pick(lesson.intro);
  const step = clear($("step"));
  step.hidden = answer.finished;
  if (!answer.finished) {
    step.append(
      h("span", { class: "count" }, t("tut.stepN", { n: answer.step + 1, total: answer.steps })),
      h("span", { class: "say" }, pick(answer.say)),
      h("span", { class: "rules" }, rulesText(answer.rules, pick(answer.say))),
    );
  }
  const fb = clear($("feedback"));
  fb.hidden = !feedback;
  if (feedback) {
    fb.className = `feedback ${feedback.kind}`;
    fb.dataset.kind = feedback.kind;
    if (feedback.kind === "hint") {
      fb.append(h("strong", {}, t("tut.notThisMove"), " "), h("span", { class: "hint" }, pick(feedback.hint)));
    } else {
      fb.append(h("strong", {}, t("ui.refused"), ": "), h("span", { class: "reason" }, refusalText(feedback.error)));
    }
    if (feedback.action) fb.append(h("span", { class: "muted" }, " — ", h("code", {}, feedback.action)));
  }
  const done = clear($("done"));
  done.hidden = !answer.finished;
  if (answer.finished) {
    done.append(h("span", {}, pick(answer.done)));
    if (!answer.next) done.append(h("span", {}, " ", t("tut.allDone")));
  }
  $("next").hidden = !(answer.finished && answer.next);
  document.body.dataset.lesson = answer.lesson;
  document.body.dataset.step = String(answer.step);
  document.body.dataset.finished = answer.finished ? "1" : "";
}

// ---- the table part: legal actions and log, as table.js draws them --------------------------

function label(text) {
  if (boardModule?.actionLabel && answer) return boardModule.actionLabel(t, text, answer.table.view);
  return text;
}

function group(text) {
  return boardModule?.actionGroup ? boardModule.actionGroup(text) : text.split(" ")[0];
}

function renderLegal() {
  const el = clear($("legal"));
  const legal = answer?.table.legal || [];
  $("legal-count").textContent = legal.length ? `(${legal.length})` : "";
  $("notation-form").hidden = Boolean(answer?.finished);
  const list = clear($("legal-datalist"));
  for (const a of legal) list.append(h("option", { value: a }));
  $("notation").placeholder = notationPlaceholder(legal);
  // an empty list draws no button but counts as a list shown (legal.js holds actions that come back)
  renderLegalGroups(el, legal, { group, label, send });
  if (!legal.length) el.append(h("p", { class: "muted" }, t(answer?.finished ? "tut.lessonOver" : "ui.noLegal")));
}

function sentence(entry) {
  if (entry.event && messagesReady(lang())) return renderMessage(lang(), entry.event);
  const text = entry.sentence || entry.text || "";
  return boardModule?.translateSentence ? boardModule.translateSentence(t, lang(), text) : text;
}

function renderLog() {
  const el = clear($("log-list"));
  let prev = null;
  for (const e of answer?.table.log || []) {
    el.append(logItem(e, prev, { title: e.text || "" }, sentence(e)));
    prev = e;
  }
  el.scrollTop = el.scrollHeight;
}

function renderAll() {
  applyStatic(document);
  if (!tutorial) return;
  renderLessons();
  if (!answer) return;
  renderLesson();
  renderLegal();
  renderLog();
  linkRules($("lesson"));
  linkRules($("log-list"));
  if (board) board.render();
  if (answer.finished) {
    // the board would say it waits for the next seat or for chance (the next draw, a roll):
    // nothing moves after the last step, the lesson is over instead (a game over stays so)
    const choice = clear($("choice"));
    choice.hidden = false;
    choice.append(h("p", { class: "prompt" }, t("tut.lessonOver")));
    if (answer.table.status !== "over") {
      const status = clear($("status"));
      status.append(h("strong", { class: "lesson-over" }, t("tut.lessonOver")));
    }
  }
}

function tableInfo() {
  // lessonOver: nothing moves after the last step, so a board shows no one to move
  return { game: gameId, options: tutorial?.options || {}, players: tutorial?.players, lessonOver: Boolean(answer?.finished) };
}

function show(next, fb = null) {
  answer = next;
  feedback = fb;
  if (answer.finished) markCompleted(answer.lesson);
  if (board) board.update(answer.table, tableInfo());
  renderAll();
  document.body.dataset.version = String(answer.table.version);
  document.body.dataset.answers = String(++answers);
  // the learner may have scrolled down to the legal actions: bring what they must read into view
  if (fb || answer.finished) $("lesson").scrollIntoView({ block: "nearest" });
  document.body.dataset.ready = "1";
}

// ---- talking to the server -------------------------------------------------------------------

async function call(method, path, body) {
  busy = true;
  document.body.dataset.busy = "1";
  try {
    return await api(method, path, body);
  } finally {
    busy = false;
    delete document.body.dataset.busy;
  }
}

async function startLesson(lessonId) {
  if (busy) return;
  try {
    const next = await call("POST", `/api/tutorials/${encodeURIComponent(gameId)}/lessons/${encodeURIComponent(lessonId)}`);
    history.replaceState(null, "", `#lesson=${encodeURIComponent(lessonId)}`);
    if (board?.clearSelection) board.clearSelection();
    show(next);
  } catch (e) {
    fatal(t("tut.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
  }
}

async function restart() {
  if (busy || !answer) return;
  try {
    show(await call("POST", `/api/tutorials/sessions/${encodeURIComponent(answer.session)}/restart`));
  } catch (e) {
    // a restarted server forgets lessons under way: start this one afresh
    if (e instanceof ApiError && e.status === 404) startLesson(answer.lesson);
    else fatal(t("tut.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
  }
}

function send(action) {
  if (busy || !answer || answer.finished) return false;
  const session = answer.session;
  call("POST", `/api/tutorials/sessions/${encodeURIComponent(session)}/actions`, { action })
    .then((next) => {
      if (next.outcome === "played") $("notation").value = "";
      if (next.outcome === "hint") show(next, { kind: "hint", hint: next.hint, action });
      else if (next.outcome === "refused") show(next, { kind: "refused", error: next.error, action });
      else show(next);
    })
    .catch((e) => {
      if (e instanceof ApiError && e.status === 404) startLesson(answer.lesson);
      else fatal(t("tut.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
    });
  return true;
}

async function loadBoard() {
  try {
    boardModule = await import(`/boards/${gameId}.js`);
    await boardModule.styled; // the board is first drawn with its own styles
  } catch {
    boardModule = null;
  }
  const els = { board: $("board"), choice: $("choice"), status: $("status"), players: $("players"), general: $("general") };
  if (boardModule?.createBoard) board = boardModule.createBoard(els, { t: () => t, send });
  else $("board").append(h("p", { class: "muted" }, t("ui.noBoard")));
}

async function main() {
  $("lang").append(langSwitch());
  applyStatic(document);
  onLangChange((l) => {
    renderAll();
    if (!messagesReady(l)) loadMessages(l).then(renderAll);
  });
  $("restart").addEventListener("click", restart);
  $("notation-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("notation").value.trim();
    if (text) send(text);
  });
  $("next").addEventListener("click", () => answer?.next && startLesson(answer.next));
  try {
    tutorial = await api("GET", `/api/tutorials/${encodeURIComponent(gameId)}`);
  } catch (e) {
    fatal(e instanceof ApiError && e.status === 404 ? t("tut.noTutorial") : t("tut.loadFailed", { detail: e instanceof ApiError ? e.detail : String(e) }));
    return;
  }
  await Promise.all([loadBoard(), loadMessages(lang()), loadMessages("en"), setupRules(gameId)]);
  const wanted = new URLSearchParams(location.hash.slice(1)).get("lesson");
  await startLesson(lessonOf(wanted) ? wanted : tutorial.lessons[0].id);
  window.__zigguratTutorial = { get answer() { return answer; }, get tutorial() { return tutorial; } };
}

main();
