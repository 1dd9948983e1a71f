// Mesopotamia: Epochs action notation (docs/mesopotamia-epochs.md), parsed for the client.

/**
 * Structure of one action text: {text, kind, area, symbol, people, dice}
 *   kind: deal | draw | keep | pass | land | displace | remove | place | stop | roll
 *   area: where it happens on the map (land, displace, place); symbol: a player (deal, pass);
 *   people: a card (deal, draw); dice: {attack: [a, b], defence: [d] or [d, e]} (roll)
 */
export function parseAction(text) {
  const w = String(text).trim().split(/\s+/);
  const a = { text, kind: w[0], area: null, symbol: null, people: null, dice: null };
  switch (a.kind) {
    case "land":
    case "displace":
    case "place":
      a.area = w[1] || null;
      break;
    case "pass":
      a.symbol = w[1] || null;
      break;
    case "deal":
      a.symbol = w[1] || null;
      a.people = w[2] && w[2] !== "?" ? w[2] : null;
      break;
    case "draw":
      a.people = w[1] && w[1] !== "?" ? w[1] : null;
      break;
    case "roll": {
      const att = (w[1] || "").split(",").map(Number);
      const def = (w[2] || "").split(",").map(Number);
      if (att.length === 2 && def.length >= 1 && [...att, ...def].every((n) => Number.isInteger(n))) a.dice = { attack: att, defence: def };
      break;
    }
    default:
      break;
  }
  return a;
}

const GROUPS = {
  keep: "allocation",
  pass: "allocation",
  land: "placement",
  displace: "displacement",
  remove: "placement",
  place: "placement",
  stop: "turn",
};

/** The group of an action in the legal list (an i18n key `group.<name>`). */
export function actionGroup(text) {
  const kind = String(text).trim().split(/\s+/)[0];
  return GROUPS[kind] || "choice";
}
