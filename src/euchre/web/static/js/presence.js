// Leaving and coming back at an online table: who is away (and for how long), who left and
// is played by a computer, the stake line, and the Leave request.

import { call } from "../account/session.js";
import { request } from "./api.js";
import { MY_ACCOUNT } from "./storage.js";
import { seatName, verb } from "./words.js";

/** "0:42" for a number of seconds. */
export function clockText(seconds) {
  const left = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}

/** The seats whose person is away: [{seat, ends}] (`ends`: Date.now() milliseconds). */
export function awaySeats(table, receivedAt) {
  if (!table || table.game_over || table.closed) return [];
  return (table.seats || [])
    .filter((s) => s.away_ms_left !== undefined && s.away_ms_left !== null && !s.replaced)
    .map((s) => ({ seat: s.seat, ends: receivedAt + s.away_ms_left }));
}

/** The status line of the people away: "Ann is away — 0:42 (then a computer plays the seat)". */
export function awayLine(away, me, now = Date.now()) {
  return away
    .map(({ seat, ends }) => `${verb(seat, me, "are", "is")} away — ${clockText((ends - now) / 1000)}`)
    .join(" · ");
}

/** The words of an away, back or replaced event (null for other events). */
export function presenceEventText(event, me) {
  const who = seatName(event.seat, me);
  switch (event.kind) {
    case "away":
      if (event.seat === me) return `You are away: a computer takes your seat for the rest of the game in ${clockText(event.ms_left / 1000)} unless you come back.`;
      return `${who} is away: a computer takes the seat for the rest of the game in ${clockText(event.ms_left / 1000)} unless they come back.`;
    case "back":
      return `${verb(event.seat, me, "are", "is")} back.`;
    case "replaced":
      if (event.seat === me) return "You left this game: a computer plays your seat to the end.";
      return event.reason === "left"
        ? `${who} left the game: a computer plays the seat to the end.`
        : `${who} was away too long: a computer plays the seat to the end.`;
    default:
      return null;
  }
}

/** What leaving costs at this table, for the confirmation. */
export function leaveQuestion(table) {
  const stake = table.extra?.stake ?? 0;
  const fee = Math.ceil(stake / 10);
  const base = "Leave this game? A computer plays your seat to the end and you cannot come back to it.";
  if (!stake) return base;
  return `${base} You forfeit your ${stake}-coin stake and pay a ${fee}-coin leaving fee.`;
}

/** "Stake 100 coins each · pot 400 · the winning side's people share it". */
export function stakeLine(table) {
  const stake = table.extra?.stake ?? 0;
  if (!stake) return "";
  const pot = table.extra?.pot ?? 0;
  return `Stake ${stake} coins each · pot ${pot} · the winning side's people share it`;
}

/** Leave a started online game with the seat's token, or as the signed-in person (their
 * session's CSRF token instead); charged once however often sent. */
export function leaveGame(tableId, token) {
  const path = `/api/online/${encodeURIComponent(tableId)}/leave-game`;
  return token === MY_ACCOUNT ? call("POST", path, {}) : request("POST", path, { token });
}
