// Messages the games send (log events, refusals, results) as {key, params}, rendered in the
// reader's language from the message catalogues the server serves (/api/messages/<lang>: the
// engine's catalogue and every game's, merged). The pattern language is the ICU MessageFormat
// subset of ziggurat.engine.messages, implemented the same way (no quoting; "#" in a plural;
// "x_gender" is the gender of a message parameter x, from "<key>@gender").

const catalogues = {};
const loading = {};

/** Fetch the catalogue of `lang` once; resolves when it can be used. */
export function loadMessages(lang) {
  if (catalogues[lang]) return Promise.resolve(catalogues[lang]);
  if (!loading[lang]) {
    loading[lang] = fetch(`/api/messages/${encodeURIComponent(lang)}`)
      .then((r) => (r.ok ? r.json() : {}))
      .then((data) => {
        catalogues[lang] = data;
        return data;
      });
  }
  return loading[lang];
}

/** True once the catalogue of `lang` is here. */
export function messagesReady(lang) {
  return Boolean(catalogues[lang]);
}

/** The pattern of `key` in `lang` (English if that language lacks it), or undefined. */
export function messagePattern(lang, key) {
  return catalogues[lang]?.[key] ?? catalogues.en?.[key];
}

/** A {key, params} message (or a plain string) in `lang`. */
export function renderMessage(lang, msg) {
  if (msg === null || msg === undefined) return "";
  if (typeof msg !== "object") return String(msg);
  const text = messagePattern(lang, msg.key);
  if (text === undefined) return msg.key;
  try {
    return format(text, msg.params || {}, lang);
  } catch (err) {
    console.warn("message", msg.key, err);
    return msg.key;
  }
}

/** Fill an ICU-subset pattern with params. */
export function format(text, params, lang) {
  return block(text, 0, params, lang, null, true)[0];
}

function number(n) {
  return Number.isInteger(n) ? String(n) : String(n);
}

function matching(text, i) {
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    if (text[j] === "{") depth++;
    else if (text[j] === "}") {
      depth--;
      if (depth === 0) return j;
    }
  }
  throw new Error(`unclosed '{' in ${text}`);
}

function block(text, i, params, lang, num, top) {
  let out = "";
  while (i < text.length) {
    const ch = text[i];
    if (ch === "}") {
      if (top) throw new Error(`unbalanced '}' in ${text}`);
      return [out, i];
    }
    if (ch === "#" && num !== null) {
      out += number(num);
      i++;
      continue;
    }
    if (ch !== "{") {
      out += ch;
      i++;
      continue;
    }
    const close = matching(text, i);
    out += argument(text.slice(i + 1, close), params, lang);
    i = close + 1;
  }
  if (!top) throw new Error(`unclosed '{' in ${text}`);
  return [out, i];
}

function splitArgument(body) {
  const parts = [];
  let rest = body;
  for (let k = 0; k < 2; k++) {
    const at = rest.indexOf(",");
    if (at < 0) break;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  parts.push(rest);
  return parts;
}

function options(text) {
  const out = {};
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && text[i] !== "{" && !/\s/.test(text[i])) i++;
    const selector = text.slice(start, i);
    while (i < text.length && /\s/.test(text[i])) i++;
    if (i >= text.length || text[i] !== "{" || !selector) throw new Error(`bad options: ${text}`);
    const close = matching(text, i);
    out[selector] = text.slice(i + 1, close);
    i = close + 1;
  }
  return out;
}

function lookup(name, params, lang) {
  if (name in params) return params[name];
  if (name.endsWith("_gender")) {
    const base = params[name.slice(0, -"_gender".length)];
    if (base && typeof base === "object" && !Array.isArray(base)) {
      return messagePattern(lang, `${base.key}@gender`) ?? "other";
    }
  }
  throw new Error(`message parameter ${name} missing`);
}

function display(value, lang) {
  if (Array.isArray(value)) return value.map((v) => display(v, lang)).join(", ");
  if (value && typeof value === "object") return renderMessage(lang, value);
  if (typeof value === "number") return number(value);
  return String(value);
}

const pluralRules = {};

function argument(body, params, lang) {
  const parts = splitArgument(body);
  const name = parts[0].trim();
  const value = lookup(name, params, lang);
  if (parts.length === 1) return display(value, lang);
  const kind = parts[1].trim();
  const opts = options(parts.length > 2 ? parts[2] : "");
  if (kind === "plural") {
    if (typeof value !== "number") throw new Error(`plural ${name} is not a number`);
    pluralRules[lang] ??= new Intl.PluralRules(lang);
    let choice = opts[`=${number(value)}`];
    if (choice === undefined) choice = opts[pluralRules[lang].select(Math.abs(value))] ?? opts.other;
    if (choice === undefined) throw new Error(`plural ${name} has no other`);
    return block(choice, 0, params, lang, value, true)[0];
  }
  if (kind === "select") {
    const choice = opts[String(value)] ?? opts.other;
    if (choice === undefined) throw new Error(`select ${name} has no case for ${value}`);
    return block(choice, 0, params, lang, null, true)[0];
  }
  throw new Error(`unknown argument type ${kind}`);
}

/**
 * The reason of a refusal's event, without the action it refuses (the page shows the action
 * beside it): unwraps the engine's "illegal: <action>: <reason>" and a game's
 * "<action>: <reason>" (keys ending in ".refusal.because").
 */
export function refusalReason(language, ev) {
  let inner = ev;
  if (inner?.key === "engine.illegal" && inner.params?.reason) inner = inner.params.reason;
  if (typeof inner?.key === "string" && inner.key.endsWith(".refusal.because") && inner.params?.reason) {
    inner = inner.params.reason;
  }
  return typeof inner === "string" ? inner : renderMessage(language, inner);
}
