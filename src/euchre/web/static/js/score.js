// The score, drawn the kitchen-table way: each side keeps a Four and a Six as markers,
// and the pips showing count the points (pips still covered are drawn faint).

import { h } from "./dom.js";
import { sideName, sideShort, sidesFor } from "./words.js";

const FOUR = [[14, 14], [34, 14], [14, 42], [34, 42]];
const SIX = [[14, 12], [34, 12], [14, 28], [34, 28], [14, 44], [34, 44]];

function markerCard(pips, lit, suitClass) {
  const dots = pips
    .map(([x, y], i) => `<circle cx="${x}" cy="${y}" r="5.5" class="${i < lit ? "pip-lit" : "pip-dim"}"/>`)
    .join("");
  return `<svg class="marker ${suitClass}" viewBox="0 0 48 56" aria-hidden="true" focusable="false">` +
    `<rect x="1" y="1" width="46" height="54" rx="5" class="marker-paper"/>${dots}</svg>`;
}

/** One side's score with its Four and Six markers. */
function sideScore(side, points, me, gameTo) {
  const mine = side === sidesFor(me)[0];
  const four = Math.min(points, 4);
  const six = Math.max(0, Math.min(points - 4, 6));
  const suitClass = mine ? "marker-red" : "marker-black";
  return h(
    "div",
    { class: `score-side ${mine ? "score-us" : "score-them"}` },
    h("div", { class: "score-label", title: sideShort(side, me) }, sideShort(side, me)),
    h("div", { class: "score-markers", html: markerCard(FOUR, four, suitClass) + markerCard(SIX, six, suitClass) }),
    h(
      "div",
      { class: "score-points", "aria-label": `${sideName(side, me)}: ${points} of ${gameTo} points` },
      String(points),
    ),
  );
}

/** The score box: both sides, ours first; `handsLimit` (a tournament round of N hands) says
 * the round's length instead of the game's target. */
export function scoreBox(score, me, gameTo, handsLimit = 0) {
  const [mine] = sidesFor(me);
  return h(
    "section",
    { class: "score", "aria-label": "Score" },
    h("h2", { class: "visually-hidden" }, "Score"),
    sideScore(mine, score[mine], me, gameTo),
    sideScore(1 - mine, score[1 - mine], me, gameTo),
    h("div", { class: "score-target" }, handsLimit ? `A round of ${handsLimit} hand${handsLimit === 1 ? "" : "s"}` : `Game to ${gameTo}`),
  );
}
