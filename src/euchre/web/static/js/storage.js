// Seats this browser holds: table id -> seat token, kept in localStorage so a reload resumes.

const KEY = "euchre.seats";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/** The token that stands for "the seat of the signed-in account" (a join without a token):
 * never a real token (those are URL-safe base64, without "@"). */
export const MY_ACCOUNT = "@account";

/** Remember the token of our seat at a table. */
export function rememberSeat(tableId, token) {
  const seats = load();
  seats[tableId] = { token, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(seats));
  localStorage.setItem("euchre.lastTable", tableId);
}

/** Every seat this browser holds by token, newest first: [{id, token}] (at most 50). */
export function heldSeats() {
  return Object.entries(load())
    .filter(([, entry]) => entry && typeof entry.token === "string" && entry.token !== MY_ACCOUNT)
    .sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0))
    .slice(0, 50)
    .map(([id, entry]) => ({ id, token: entry.token }));
}

/** The token of our seat at a table, or null. */
export function seatToken(tableId) {
  const entry = load()[tableId];
  return entry ? entry.token : null;
}

/** The table this browser played at most recently, or null. */
export function lastTable() {
  const id = localStorage.getItem("euchre.lastTable");
  return id && seatToken(id) ? id : null;
}

/** The table to offer to resume: the last one, unless its game is over. */
export function unfinishedTable() {
  const id = lastTable();
  return id && !finishedGames().some((g) => g.id === id) ? id : null;
}

/** Forget a table (after the game, or when the server no longer knows it). */
export function forgetSeat(tableId) {
  const seats = load();
  delete seats[tableId];
  localStorage.setItem(KEY, JSON.stringify(seats));
  if (localStorage.getItem("euchre.lastTable") === tableId) localStorage.removeItem("euchre.lastTable");
}

const FINISHED_KEY = "euchre.finished";

/** Remember a finished game, for the list of replays on the start page. */
export function rememberFinished(gameId, score, winner, seat) {
  const games = finishedGames().filter((g) => g.id !== gameId);
  games.unshift({ id: gameId, score, winner, seat, at: Date.now() });
  localStorage.setItem(FINISHED_KEY, JSON.stringify(games.slice(0, 30)));
}

/** Finished games, newest first: [{id, score, winner, seat, at}]. */
export function finishedGames() {
  try {
    return JSON.parse(localStorage.getItem(FINISHED_KEY) || "[]");
  } catch {
    return [];
  }
}

const COMMITMENTS_KEY = "euchre.commitments";
const COMMITMENT = /^[0-9a-f]{64}$/;

function loadCommitments() {
  try {
    const all = JSON.parse(localStorage.getItem(COMMITMENTS_KEY) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch {
    return {};
  }
}

/**
 * Keep the shuffle commitment a table published for one of its hands (kept as it was sent:
 * if a hand ever shows a second, different one, both are kept, and `euchre verify` fails it).
 * Returns true when it was not kept already.
 */
export function keepCommitment(tableId, handNumber, hex) {
  const value = typeof hex === "string" ? hex.toLowerCase() : "";
  if (!COMMITMENT.test(value) || !Number.isInteger(handNumber) || handNumber < 1) return false;
  const all = loadCommitments();
  const entry = all[tableId] ?? { hands: {}, at: 0 };
  const seen = entry.hands[handNumber] ?? [];
  if (seen.includes(value)) return false;
  entry.hands[handNumber] = [...seen, value];
  entry.at = Date.now();
  all[tableId] = entry;
  // Keep the 50 most recent tables.
  const recent = Object.entries(all).sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0)).slice(0, 50);
  localStorage.setItem(COMMITMENTS_KEY, JSON.stringify(Object.fromEntries(recent)));
  return true;
}

/** The commitments kept for a table, hand by hand: [[handNumber, [hex, …]], …] in hand order. */
export function keptCommitments(tableId) {
  const hands = loadCommitments()[tableId]?.hands ?? {};
  return Object.entries(hands)
    .map(([n, list]) => [Number(n), Array.isArray(list) ? list : []])
    .filter(([n, list]) => Number.isInteger(n) && list.length)
    .sort((a, b) => a[0] - b[0]);
}
