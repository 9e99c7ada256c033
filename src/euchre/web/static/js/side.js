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
  // An onlooker's strip names the sides by compass, briefly (the seats carry the names).
  const label = (side) => (me === null || me === undefined ? (side === 0 ? "N–S" : "E–W") : sideShort(side, me));
  const parts = [h("span", {}, h("b", {}, `${label(a)} `), String(score[a]), h("b", {}, ` · ${label(b)} `), String(score[b]))];
  if (view?.trump) parts.push(h("span", {}, h("b", {}, "Trump "), suitMark(view.trump)));
  if (view && view.phase === "play") {
    parts.push(h("span", {}, h("b", {}, "Tricks "), `${view.tricks_won[a]}–${view.tricks_won[b]}`));
  }
  return parts;
}

/** The hint panel's contents: "Thinking…", or every choice with its estimate, best first. */
export function hintContent(hints) {
  if (hints === "thinking") return [h("p", {}, "Thinking…")];
  const best = hints[0];
  return [
    h("h2", {}, "Hint"),
    h("ol", { class: "hint-list" }, hints.map((hint, i) => h("li", { class: i === 0 ? "best" : "" }, ...hintWords(hint, best, hints[1])))),
  ];
}

function points(x) {
  const size = Math.abs(x);
  return `${size.toFixed(1)} point${size.toFixed(1) === "1.0" ? "" : "s"}`;
}

/**
 * A hint as words, said against the alternatives: the best move "is the best choice: about
 * 0.3 points better than Pass", the others "about 0.3 points worse than Order up".
 */
function hintWords(hint, best, second) {
  const text = hint.text || "";
  const cut = text.indexOf(": ");
  const label = cut > 0 ? text.slice(0, cut) : actionLabel(hint.action);
  const rest = (cut > 0 ? text.slice(cut + 2) : text).split("; ").filter((part) => !/ about .* on average$/.test(part));
  const bestLabel = (best.text || "").split(": ")[0] || actionLabel(best.action);
  let estimate = "";
  if (hint === best) {
    estimate = "the best choice";
    if (second && hint.expected_points !== null && second.expected_points !== null) {
      const gap = hint.expected_points - second.expected_points;
      const secondLabel = (second.text || "").split(": ")[0] || actionLabel(second.action);
      estimate += gap < 0.05 ? `, about as good as ${secondLabel}` : `, about ${points(gap)} better than ${secondLabel}`;
    }
  } else if (hint.expected_points !== null && best.expected_points !== null) {
    const gap = best.expected_points - hint.expected_points;
    estimate = gap < 0.05 ? `about as good as ${bestLabel}` : `about ${points(gap)} worse than ${bestLabel}`;
  }
  const details = [estimate, ...rest].filter(Boolean).join("; ");
  return [h("strong", {}, label), details ? `: ${details}` : ""];
}
