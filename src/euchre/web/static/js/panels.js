// Panels over the felt: the end of a hand, the end of the game, the last trick, a closed table.

import { cardFace, cardName, suitMark, suitName } from "./cards.js";
import { h } from "./dom.js";
import { lastTrickPlays } from "./trick.js";
import { gameOverText, handSummary, seatName, sharedTable, sideName, sideOf, sidesFor } from "./words.js";

/** What a finished hand came to (the server's SUMMARY), with a Continue button. */
export function summaryPanel(summary, me, onContinue) {
  const words = handSummary(summary, me);
  const [mine] = sidesFor(me);
  // "us 3, them 2" for a player; "Ann and North 3, West and East 2" for an onlooker.
  const onlooker = me === null || me === undefined;
  const pair = ([a, b]) => (onlooker
    ? `${sideName(0, me)} ${a}, ${sideName(1, me)} ${b}`
    : `us ${a}, them ${b}`);
  const made =
    summary.trump && summary.maker !== null
      ? h(
          "p",
          {},
          `${seatName(summary.maker, me)} made `,
          suitMark(summary.trump),
          ` ${suitName(summary.trump)} trump${summary.alone ? ", alone" : ""}. `,
          `Tricks: ${pair([summary.tricks_won[mine], summary.tricks_won[1 - mine]])}.`,
        )
      : null;
  return h(
    "section",
    { class: "panel summary-panel", "aria-label": "End of the hand" },
    // The words scroll on their own above Continue, so the button never covers a line.
    h(
      "div",
      { class: "summary-text" },
      h("h2", {}, `Hand ${summary.hand_number}`),
      h("p", { class: "summary-headline" }, words.headline),
      made,
      words.detail ? h("p", { class: "summary-points" }, words.detail) : null,
      summary.score
        ? h("p", { class: "summary-score" }, `Score: ${pair([summary.score[mine], summary.score[1 - mine]])}.`)
        : null,
    ),
    h("button", { type: "button", class: "panel-close", dataset: { key: "panel:summary" }, onclick: onContinue }, "Continue"),
  );
}

/** Who won the game, the final score, where to go next, and how to verify the shuffle. */
export function gameOverPanel(table, me, { replayUrl, onAgain, verify }) {
  const mine = sideOf(me);
  const won = table.winner === mine;
  const online = table.kind === "online";
  return h(
    "section",
    { class: `panel game-over-panel ${won ? "won" : "lost"}`, "aria-label": "Game over" },
    h("h2", {}, table.winner === null ? "The round ended level" : won && !sharedTable() ? "You won the game!" : `${sideName(table.winner, me)} won the game${won ? "!" : ""}`),
    h("p", { class: "final-score" }, `${table.score[mine]} – ${table.score[1 - mine]}`),
    potLine(table, me),
    h(
      "div",
      { class: "panel-actions" },
      h("a", { class: "button-link", href: replayUrl, dataset: { key: "panel:replay" } }, "Watch the replay"),
      // Against people, another game is found in the lobby (Play again would open a
      // practice table against computers).
      table.extra?.tournament
        ? h("a", { class: "button-link", href: `/tournaments/${table.extra.tournament}`, dataset: { key: "panel:again" } }, "Back to the tournament")
        : online
        ? h("a", { class: "button-link", href: "/lobby", dataset: { key: "panel:again" } }, "Find another game")
        : h("button", { type: "button", dataset: { key: "panel:again" }, onclick: onAgain }, "Play again"),
      h("a", { class: "button-link", href: "/" }, "New game"),
    ),
    verify,
  );
}

/** At an online table with a stake: what the pot paid this person ("You won 100 coins from
 * the pot of 200."), or that their stake went to the winners; null elsewhere. */
function potLine(table, me) {
  const stake = table.extra?.stake ?? 0;
  if (table.kind !== "online" || !stake) return null;
  const pot = table.extra?.pot ?? 0;
  const seats = table.seats || [];
  // The winning side's seats where a person staked (one who left keeps a part nobody gets).
  const staked = [table.winner, table.winner + 2].filter((seat) => {
    const info = seats.find((s) => s.seat === seat);
    return info && (info.kind === "human" || info.replaced);
  }).length;
  const text = table.winner === sideOf(me) && staked
    ? `You won ${Math.floor(pot / staked)} coins from the pot of ${pot}.`
    : `Your ${stake}-coin stake went to the pot of ${pot}; the winners share it.`;
  return h("p", { class: "pot-result" }, text);
}

/** The end of a game watched from no seat: who won, the score, the replay and the way out. */
export function watchedOverPanel(table, replayUrl) {
  const [a, b] = [0, 1];
  return h(
    "section",
    { class: "panel game-over-panel watched", "aria-label": "Game over" },
    h("h2", {}, "The game is over"),
    h("p", {}, gameOverText(table.winner, table.score, null)),
    h("p", { class: "final-score" }, `${table.score[a]} – ${table.score[b]}`),
    h(
      "div",
      { class: "panel-actions" },
      h("a", { class: "button-link", href: replayUrl, dataset: { key: "panel:replay" } }, "Watch the replay"),
      h("a", { class: "button-link", href: "/lobby" }, "Find another game"),
    ),
  );
}

/** The last completed trick, card by card, and who won it (table law 11). */
export function lastTrickPanel(view, me, onClose) {
  const last = lastTrickPlays(view);
  return h(
    "section",
    { class: "panel last-trick-panel", "aria-label": "Last trick" },
    h("h2", {}, "Last trick"),
    h(
      "ul",
      { class: "last-trick-cards" },
      last.plays.map((p) =>
        h(
          "li",
          { class: p.seat === last.winner ? "winner" : "" },
          h("div", { class: "mini-card", html: cardFace(p.card), "aria-hidden": "true" }),
          // The name on one line (shortened with an ellipsis, whole in the title), then the card.
          h("span", { class: "last-trick-who" }, h("span", { class: "last-trick-name", title: seatName(p.seat, me) }, `${seatName(p.seat, me)}:`), ` ${cardName(p.card)}`),
        ),
      ),
    ),
    h("p", {}, `${seatName(last.winner, me)} won it.`),
    h("button", { type: "button", class: "panel-close", dataset: { key: "panel:last" }, onclick: onClose }, "Close"),
  );
}

/** The table was closed before its game ended (with why, when there is more to say). */
export function closedPanel(why = null) {
  return h(
    "section",
    { class: "panel", "aria-label": "Table closed" },
    h("h2", {}, "This table is closed"),
    why ? h("p", {}, why) : null,
    h("div", { class: "panel-actions" }, h("a", { class: "button-link", href: "/" }, "New game")),
  );
}
