// Statistics of practice games played without an account, kept in this browser
// (localStorage). When a practice game ends the table page asks the server for that game's
// counts (computed from its record) and adds our seat's once per game.

import { request } from "./api.js";

const KEY = "euchre.practiceStats";
const MAX_IDS = 500;
export const COUNT_NAMES = ["games", "wins", "hands", "points", "made_trump", "made", "euchred", "alone", "marches"];

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { counts: data.counts ?? {}, ids: Array.isArray(data.ids) ? data.ids : [] };
  } catch {
    return { counts: {}, ids: [] };
  }
}

/** The rates shown beside the counts (the server's definitions, /api/me/stats). */
export function withRates(counts) {
  const c = Object.fromEntries(COUNT_NAMES.map((k) => [k, counts[k] ?? 0]));
  const per = (n, d) => (d ? Math.round((n / d) * 1000) / 1000 : null);
  return {
    ...c,
    win_rate: per(c.wins, c.games),
    points_per_hand: per(c.points, c.hands),
    make_trump_rate: per(c.made_trump, c.hands),
    euchred_rate: per(c.euchred, c.made_trump),
    alone_rate: per(c.alone, c.hands),
    march_rate: per(c.marches, c.hands),
  };
}

/** This browser's practice statistics, with rates. */
export function practiceStats() {
  return withRates(load().counts);
}

/** Add our seat's counts of a finished practice game, once; a seat that belongs to an
 * account is counted on the account instead. Resolves to whether it was added. */
export async function recordPracticeGame(gameId, seat) {
  if (load().ids.includes(gameId)) return false;
  const game = await request("GET", `/api/games/${encodeURIComponent(gameId)}/stats`);
  const mine = game?.seats?.[seat];
  if (!mine || game.kind !== "practice" || mine.signed_in) return false;
  const data = load(); // read again: another tab may have counted it meanwhile
  if (data.ids.includes(gameId)) return false;
  for (const key of COUNT_NAMES) data.counts[key] = (data.counts[key] ?? 0) + (mine[key] ?? 0);
  data.ids = [...data.ids, gameId].slice(-MAX_IDS);
  localStorage.setItem(KEY, JSON.stringify(data));
  return true;
}
