// The rating people read, everywhere a rating shows: one whole number (the server's
// `number`, 1500 + 60 × (μ − 25): docs/ratings.md) with "?" while it is provisional, and the
// model's own figures (μ, σ, ordinal) only in a help text.

import { h } from "./dom.js";

/** "1620" or "1620?" (provisional: not on the leaderboard yet). */
export function ratingNumber(rating, provisional = Boolean(rating.provisional)) {
  return `${rating.number}${provisional ? "?" : ""}`;
}

/** "−1.5" (a true minus sign) or "3.2". */
function signed(x) {
  return x < 0 ? `−${Math.abs(x).toFixed(1)}` : x.toFixed(1);
}

/** The model's figures behind the number, in words, for a title or a details box. */
export function ratingHelp(rating, provisional = Boolean(rating.provisional)) {
  const games = rating.games === undefined ? "" : `, ${rating.games} rated game${rating.games === 1 ? "" : "s"}`;
  const why = provisional ? "; provisional (the ?): not on the leaderboard yet" : "";
  return `Rating ${rating.number}: skill μ ${rating.mu.toFixed(1)}, uncertainty σ ${rating.sigma.toFixed(1)}, ordinal μ − 3σ ${signed(rating.ordinal)}${games}${why}`;
}

/** A rating as a small mark beside a name: the number, the figures in its title. */
export function ratingBadge(rating) {
  if (!rating) return null;
  return h(
    "span",
    { class: "rating-badge", title: ratingHelp(rating), dataset: { number: String(rating.number), provisional: String(Boolean(rating.provisional)) } },
    ratingNumber(rating),
  );
}

/** "+32" / "−18" / "±0": how far the number moved. */
export function ratingDelta(before, after) {
  const d = after.number - before.number;
  return d === 0 ? "±0" : `${d > 0 ? "+" : "−"}${Math.abs(d)}`;
}

/** What the number is, for a page that shows ratings (a details box); with `rating`, that
 * rating's own figures too. */
export function ratingExplained(rating = null, provisional = false) {
  return h(
    "details",
    { class: "rating-explained" },
    h("summary", {}, "What the rating means"),
    h("p", {}, "One number: 1500 for a newcomer, up when your side wins and down when it loses, by more while the rating is new. A ? after it means provisional: fewer than 10 rated games, or fewer than 6 different opponents, so it still says little and is not on the leaderboard."),
    h("p", {}, "It comes from openskill, which keeps a skill μ (25 to start) and its uncertainty σ (8.3 to start, smaller with each game): the number is 1500 + 60 × (μ − 25). The ordinal μ − 3σ is a skill you very likely have at least. Point at a rating to see its μ, σ and ordinal."),
    rating ? h("p", { class: "rating-figures" }, `Yours: ${ratingHelp(rating, provisional)}.`) : null,
  );
}
