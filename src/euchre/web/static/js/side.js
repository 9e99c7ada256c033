// The side panel's contents: facts about the hand, the phone's score strip, and hints.

import { cardName, suitMark, suitName } from "./cards.js";
import { h } from "./dom.js";
import { actionLabel, seatName, sideName, sideOf, sideShort, sidesFor } from "./words.js";

/** The hand at a glance, as <dl> rows: hand, dealer, trump, makers, loners, tricks. */
export function factRows(view, handNumber, me) {
  const rows = [];
  const row = (term, ...value) => rows.push(h("div", { class: "fact" }, h("dt", {}, term), h("dd", {}, ...value)));
  row("Hand", String(handNumber ?? ""));
  row("Dealer", seatName(view.dealer, me));
  if (view.trump) row("Trump", suitMark(view.trump), ` ${suitName(view.trump)}`);
  else row("Trump", "not named yet");
  if (view.maker !== null) {
    row("Makers", `${sideName(sideOf(view.maker), me)}${view.alone ? ` (${seatName(view.maker, me)} alone)` : ""}`);
  }
  if (view.lone_defender !== null) row("Defending alone", seatName(view.lone_defender, me));
  if (view.discard) row("Your discard", cardName(view.discard));
  if (view.sitting_out.length) row("Sitting out", view.sitting_out.map((s) => seatName(s, me)).join(", "));
  const [a, b] = sidesFor(me);
  row("Tricks this hand", h("span", { class: "trick-count" }, `${sideShort(a, me)} ${view.tricks_won[a]} · ${sideShort(b, me)} ${view.tricks_won[b]}`));
  return rows;
}

/** One line of score, trump and tricks, for small screens. */
export function stripParts(score, view, me) {
  const [a, b] = sidesFor(me);
  // Sides named by people can be long: each name is one line, shortened with an ellipsis.
  const label = (side) => h("b", { class: "strip-side", title: sideShort(side, me) }, sideShort(side, me));
  const parts = [h("span", { class: "strip-score" }, label(a), ` ${score[a]}`, h("b", {}, " · "), label(b), ` ${score[b]}`)];
  if (view?.trump) parts.push(h("span", {}, h("b", {}, "Trump "), suitMark(view.trump)));
  if (view && view.phase === "play") {
    parts.push(h("span", {}, h("b", {}, "Tricks "), `${view.tricks_won[a]}–${view.tricks_won[b]}`));
    // Where the upcard went (the felt's corner note on a laptop; a phone's felt has no room).
    if (view.upcard) {
      const took = view.upcard_taken ? `${view.dealer === me ? "you" : seatName(view.dealer, me)} took it` : "turned down";
      parts.push(h("span", { class: "strip-upcard" }, h("b", {}, "Upcard "), upcardShort(view.upcard), ` ${took}`));
    }
  }
  return parts;
}

/** "9♥" for the strip (the suit mark is a picture; the strip is hidden from screen readers). */
function upcardShort(card) {
  if (card === "JK") return "Joker";
  const rank = { T: "10" }[card[0]] ?? card[0];
  return h("span", { class: "strip-card" }, rank, suitMark(card[1]));
}

/**
 * The hints in the order shown: the recommended move first (the server's first), then the
 * others from the highest estimate down, so every comparison agrees with the order.
 */
export function hintOrder(hints) {
  const [best, ...others] = hints;
  const value = (hint) => (hint.expected_points === null || hint.expected_points === undefined ? -Infinity : hint.expected_points);
  return [best, ...others.map((hint, i) => [hint, i]).sort(([a, i], [b, j]) => value(b) - value(a) || i - j).map(([hint]) => hint)];
}

/** The hint panel's contents: "Thinking…", or every choice with its estimate, best first. */
export function hintContent(hints, { compact = false } = {}) {
  if (hints === "thinking") return [h("p", {}, "Thinking…")];
  if (!hints.length) return [h("h2", {}, "Hint"), h("p", {}, "Nothing to choose here.")];
  const ordered = hintOrder(hints);
  const best = ordered[0];
  const words = compact ? shortHintWords : hintWords;
  return [
    h("h2", {}, "Hint"),
    h("ol", { class: "hint-list" }, ordered.map((hint, i) => h("li", { class: i === 0 ? "best" : "" }, ...words(hint, best, ordered[1])))),
  ];
}

/** A hint in a line, for a phone: "Jack of Diamonds: the best choice, 0.3 points better than
 * Jack of Hearts", "Jack of Hearts: 0.3 points worse" (said against the first, as listed). */
export function shortHintWords(hint, best, second) {
  const known = (x) => x !== null && x !== undefined;
  const name = (x) => (x.action.startsWith("play ") || x.action.startsWith("discard ") ? cardName(x.action.split(" ")[1]) : hintLabel(x));
  let estimate = "";
  if (hint === best) {
    estimate = "the best choice";
    if (second && known(hint.expected_points) && known(second.expected_points)) {
      const gap = hint.expected_points - second.expected_points;
      estimate += gap < 0.05 ? `, about as good as ${name(second)}` : `, ${points(gap)} better than ${name(second)}`;
    }
  } else if (known(hint.expected_points) && known(best.expected_points)) {
    const gap = best.expected_points - hint.expected_points;
    estimate = gap < 0.05 ? "about as good" : `${points(gap)} worse`;
  }
  return [h("strong", {}, name(hint)), estimate ? `: ${estimate}` : ""];
}

function points(x) {
  const size = Math.abs(x);
  return `${size.toFixed(1)} point${size.toFixed(1) === "1.0" ? "" : "s"}`;
}

/** A hint's move in the words of its button ("Call Spades", "Order up alone", "Play the Ace of Spades"). */
function hintLabel(hint) {
  return actionLabel(hint.action);
}

/**
 * A hint as words, said against the alternatives and in the buttons' own words: the best
 * move "the best choice, about 0.3 points better than Pass", the others "about 0.3 points
 * worse than Order up" (or "about as good as" it within 0.05 points). The expert may
 * prefer its usual play within a small margin, so a later choice can be estimated a
 * little higher: it is then "about as good as" the first, never "better".
 */
export function hintWords(hint, best, second) {
  const text = hint.text || "";
  const cut = text.indexOf(": ");
  const rest = (cut > 0 ? text.slice(cut + 2) : "").split("; ").filter((part) => part && !/ about .* on average$/.test(part));
  const known = (x) => x !== null && x !== undefined;
  let estimate = "";
  if (hint === best) {
    estimate = "the best choice";
    if (second && known(hint.expected_points) && known(second.expected_points)) {
      const gap = hint.expected_points - second.expected_points;
      estimate += gap < 0.05 ? `, about as good as ${hintLabel(second)}` : `, about ${points(gap)} better than ${hintLabel(second)}`;
    }
  } else if (known(hint.expected_points) && known(best.expected_points)) {
    const gap = best.expected_points - hint.expected_points;
    estimate = gap < 0.05 ? `about as good as ${hintLabel(best)}` : `about ${points(gap)} worse than ${hintLabel(best)}`;
  }
  const details = [estimate, ...rest].filter(Boolean).join("; ");
  return [h("strong", {}, hintLabel(hint)), details ? `: ${details}` : ""];
}
