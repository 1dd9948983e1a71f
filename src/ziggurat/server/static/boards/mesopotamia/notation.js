// Mesopotamia action notation (docs/mesopotamia.md), parsed for the client.

export const COLOURS = ["blue", "yellow", "red", "green"];
export const LETTER_COLOUR = { b: "blue", y: "yellow", r: "red", g: "green", n: "neutral" };

export const key = (q, r) => `${q},${r}`;

export function parseCoord(text) {
  const m = /^(-?\d+),(-?\d+)$/.exec(text || "");
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function tribeToken(colour, q, r, cargo, spent) {
  return `${colour[0]}${cargo || ""}@${q},${r}${spent ? "*" : ""}`;
}

/** "bw@1,-1*" -> {colour, cargo: "w", q, r, key, spent} */
export function parseTribe(tok) {
  const m = /^([byrg])(w|s|o\d+)?@(-?\d+),(-?\d+)(\*?)$/.exec(tok || "");
  if (!m) return null;
  return {
    token: tok,
    colour: LETTER_COLOUR[m[1]],
    cargo: m[2] || "",
    q: Number(m[3]),
    r: Number(m[4]),
    key: `${m[3]},${m[4]}`,
    spent: m[5] === "*",
  };
}

export function hutToken(owner, num) {
  return `${owner === "neutral" ? "n" : owner[0]}${num}`;
}

export function parseHut(tok) {
  const m = /^([byrgn])(\d+)$/.exec(tok || "");
  return m ? { token: tok, owner: LETTER_COLOUR[m[1]], num: Number(m[2]) } : null;
}

/**
 * Structure of one action text:
 * {text, kind, card, tribes: [tokens], huts: [tokens], hex: "q,r" (where it happens on the board,
 *  for actions chosen by clicking a tile), dest: "q,r" (move destination), arg}
 */
export function parseAction(text) {
  const w = String(text).trim().split(/\s+/);
  const a = { text, kind: w[0], card: null, tribes: [], huts: [], hex: null, dest: null, arg: null };
  switch (a.kind) {
    case "move":
      a.tribes = [w[1]];
      a.dest = w[2];
      break;
    case "pickup":
    case "exchange":
      a.tribes = [w[1]];
      a.arg = w[2];
      break;
    case "drop":
    case "donate":
      a.tribes = [w[1]];
      break;
    case "handoff":
    case "steal":
      a.tribes = [w[1], w[2]];
      break;
    case "offering":
      a.tribes = [w[1]];
      a.huts = [w[2]];
      break;
    case "volcano":
    case "share":
    case "to":
      a.hex = w[1];
      break;
    case "hut":
    case "holy":
      a.hex = w[1];
      a.tribes = [w[2], w[3]];
      break;
    case "grow":
      a.hex = w[1];
      a.huts = [w[2]];
      a.tribes = [w[3], w[4]];
      a.arg = w[5] === "fertility" ? "fertility" : null;
      break;
    case "play":
      a.card = w[1];
      if (a.card === "priest") a.hex = w[2];
      else if (a.card === "teleport") a.tribes = [w[2]];
      else if (a.card === "expulsion") a.huts = [w[2]];
      else a.arg = w[2] ?? null;
      break;
    default:
      a.arg = w[1] ?? null;
  }
  a.tribes = a.tribes.filter(Boolean);
  a.huts = a.huts.filter(Boolean);
  return a;
}

/** Group of an action for the side list (an i18n key suffix). */
export function actionGroup(text) {
  const kind = String(text).split(" ")[0];
  if (kind === "move") return "move";
  if (["pickup", "drop", "exchange", "handoff", "offering", "donate"].includes(kind)) return "carry";
  if (kind === "steal") return "steal";
  if (["pile", "volcano", "share"].includes(kind)) return "discovery";
  if (["hut", "holy", "grow", "offer"].includes(kind)) return "build";
  if (kind === "play") return "cards";
  if (["to", "order", "first"].includes(kind)) return "choice";
  return "turn";
}

export const NEIGHBOURS = [
  [0, -1],
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
];
