// Seats this browser holds: table id -> seat token, kept in localStorage so a reload resumes.

const KEY = "euchre.seats";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/** Remember the token of our seat at a table. */
export function rememberSeat(tableId, token) {
  const seats = load();
  seats[tableId] = { token, at: Date.now() };
  localStorage.setItem(KEY, JSON.stringify(seats));
  localStorage.setItem("euchre.lastTable", tableId);
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
