// A person's rating and statistics: the rating's number (js/rating-words.js), and a table of counts and
// rates by kind of table. Used by the account page (from /api/me/stats) and, for
// practice without an account, with the counts this browser keeps.

import { h } from "../js/dom.js";
import { ratingExplained, ratingHelp, ratingNumber } from "../js/rating-words.js";

const ROWS = [
  ["games", "Games", "count"],
  ["wins", "Wins", "count"],
  ["win_rate", "Games won", "percent"],
  ["hands", "Hands played", "count"],
  ["points_per_hand", "Points per hand", "number"],
  ["make_trump_rate", "Made trump (per hand)", "percent"],
  ["euchred_rate", "Euchred (per hand made trump)", "percent"],
  ["alone_rate", "Went alone (per hand)", "percent"],
  ["march_rate", "Marched (per hand)", "percent"],
];

const KIND_NAMES = { all: "All tables", practice: "Practice", coin: "Coin", online: "Online" };

function cell(value, format) {
  if (value === null || value === undefined) return "–";
  if (format === "percent") return `${Math.round(value * 100)}%`;
  if (format === "number") return value.toFixed(2);
  return String(value);
}

/** A table of statistics: one column per kind of table (`columns`: [[kind, counts]]). */
export function statsTable(columns, label) {
  return h(
    "table",
    { class: "account-table person-stats", "aria-label": label },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), columns.map(([kind]) => h("th", { scope: "col" }, KIND_NAMES[kind] ?? kind)))),
    h(
      "tbody",
      {},
      ROWS.map(([key, name, format]) =>
        h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, name), columns.map(([kind, counts]) => h("td", { dataset: { kind, personStat: key } }, cell(counts[key], format)))),
      ),
    ),
  );
}

/** Which games the table below counts, in words that agree with its "Games" row. */
export function countedText(counted, unfinished = 0) {
  const left = unfinished
    ? ` ${unfinished === 1 ? "One game" : `${unfinished} games`} that ended without a result (left or closed early) ${unfinished === 1 ? "is" : "are"} not counted.`
    : "";
  if (!counted) return `No finished games yet: the table fills in as you finish games.${left}`;
  const games = counted === 1 ? "your one finished game" : `your ${counted} finished games`;
  return `From ${games} at every kind of table${counted >= 200 ? " (the newest 200)" : ""}.${left}`;
}

/** Why a rating is provisional, and what is still needed before it is listed. */
export function provisionalWhy(standing) {
  const games = `${standing.games} of ${standing.games_needed} rated games`;
  const met = `${standing.opponents} of ${standing.opponents_needed} different opponents`;
  return `Your rating is provisional until you have played ${standing.games_needed} rated games against at least ${standing.opponents_needed} different people (so far ${games}, ${met}); then it is listed on the leaderboard. This keeps a few games among friends, or one person's several accounts, off the top.`;
}

/** The account page's rating and statistics (the /api/me/stats answer). */
export function personSection(data) {
  const { rating, rank, stats, standing } = data;
  const provisional = rating && standing && standing.provisional;
  const kinds = [["all", stats.all], ...Object.entries(stats.by_kind)];
  return h(
    "section",
    { "aria-label": "Rating and statistics", class: "person-section" },
    h("h2", {}, "Rating"),
    rating
      ? h(
          "p",
          { class: "rating-line" },
          h("strong", { dataset: { rating: "number" }, title: ratingHelp(rating, provisional) }, ratingNumber(rating, provisional)),
          `, ${rating.games} rated game${rating.games === 1 ? "" : "s"}; `,
          provisional ? "provisional: not on the leaderboard yet" : h("a", { href: "/leaders" }, `#${rank} on the leaderboard`),
        )
      : h("p", { class: "rating-line" }, "No rating yet: play a rated online table with three other signed-in people. ", h("a", { href: "/leaders" }, "See the leaderboard")),
    provisional ? h("p", { class: "provisional-line" }, provisionalWhy(standing)) : null,
    rating ? ratingExplained(rating, provisional) : null,
    h("h2", {}, "Statistics by table"),
    h("p", { class: "field-help" }, countedText(stats.games_counted, stats.games_unfinished)),
    statsTable(kinds, "Statistics by table"),
  );
}
