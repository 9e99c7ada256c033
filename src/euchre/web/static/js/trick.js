// The trick in the middle of the table: each card lies in front of the player who played it.
// Cards already on the table are kept, so only a newly played card slides in.

import { cardFace, cardName } from "./cards.js";
import { h } from "./dom.js";
import { position, seatName } from "./words.js";

/** How long a finished trick stays in view at normal speed before it sweeps (ms). */
export const TRICK_HOLD_MS = 1000;
/** How long a finished trick's sweep to its winner takes (the .trick-card transition). */
export const TRICK_SWEEP_MS = 250;
const gatherTimers = new WeakMap();

/**
 * Show `plays` ([{seat, card}], in play order) in `container`.
 * When `winner` is a seat the trick is complete: the winning card is marked, and
 * with `gather` the cards then slide towards the winner.
 */
export function renderTrick(container, plays, winner, me, { gather = false, animate = true, hold = TRICK_HOLD_MS } = {}) {
  const key = plays.map((p) => `${p.seat}:${p.card}`).join(" ");
  const oldKey = container.dataset.key || "";
  const extends_ = oldKey !== "" && key.startsWith(oldKey) && container.childElementCount > 0;
  if (!extends_) {
    container.replaceChildren();
    delete container.dataset.complete;
  }
  const already = extends_ ? container.childElementCount : 0;
  plays.slice(already).forEach((play) => {
    const where = position(play.seat, me);
    container.append(
      h("div", {
        class: `trick-card at-${where}${animate ? ` enter-${where}` : ""}`,
        role: "img",
        "aria-label": `${seatName(play.seat, me)}: ${cardName(play.card)}`,
        dataset: { seat: play.seat, card: play.card },
        html: cardFace(play.card),
      }),
    );
  });
  container.dataset.key = key;
  clearTimeout(gatherTimers.get(container));
  container.classList.remove("gather-south", "gather-west", "gather-north", "gather-east");
  for (const card of container.children) {
    card.classList.toggle("winning", winner !== null && Number(card.dataset.seat) === winner);
  }
  if (winner !== null && gather) {
    // Leave the finished trick in view a moment, then sweep it to the winner's side (the
    // server holds a computer's next lead until the sweep is done).
    if (container.dataset.complete !== key) {
      container.dataset.complete = key;
      container.dataset.shownAt = String(performance.now());
    }
    const left = Math.max(0, hold - (performance.now() - Number(container.dataset.shownAt)));
    const sweep = () => {
      if (container.dataset.key === key) container.classList.add(`gather-${position(winner, me)}`);
    };
    gatherTimers.set(container, setTimeout(sweep, left));
  }
}

/** The seat that played each card of the hand, from the view's history ("play JH" entries). */
export function playsBySeat(history) {
  const seats = new Map();
  for (const [seat, action] of history) {
    if (typeof action === "string" && action.startsWith("play ")) seats.set(action.slice(5), seat);
  }
  return seats;
}

/** The trick in progress as [{seat, card}]. */
export function currentPlays(view) {
  const seats = playsBySeat(view.history);
  return view.trick.map((card) => ({ seat: seats.get(card), card }));
}

/** The last completed trick as [{seat, card}] with its winner, or null. */
export function lastTrickPlays(view) {
  if (!view.last_trick) return null;
  const seats = playsBySeat(view.history);
  return {
    plays: view.last_trick.cards.map((card) => ({ seat: seats.get(card), card })),
    winner: view.last_trick.winner,
  };
}
