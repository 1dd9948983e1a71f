// Who sits at a seat, as the player panels say it: a bot's level, a free seat of a public table
// still waiting for players, or the player's name (an account's or a guest's) when known.

/** `seatInfo` is a seat of GET /api/tables/{id} (kind, bot, name); `human` is the word for a
 * player without a known name ("" to say nothing). */
export function seatKindText(t, seatInfo, human = t("seat.human")) {
  if (!seatInfo) return "";
  if (seatInfo.kind === "bot") return t("seat.botKind", { bot: t(`bot.${seatInfo.bot}`) });
  if (seatInfo.kind === "open") return t("seat.open");
  return seatInfo.name || human;
}
