// Two rules of doc 002 as the table page shows them: how the first dealer was found (deal
// rule 1, the snapshot's `first_draw`), and table law 11 for the "This hand" log (a card played
// before the last completed trick is not listed once the next card is led).

import { cardName } from "./cards.js";
import { seatName } from "./words.js";

/** Whether a history entry's action is a play: "play JH", or "play" when law 11 hides the card. */
export function isPlay(action) {
  return action === "play" || action.startsWith("play ");
}

/** The sentence for the first-dealer draw, or null: "Cards dealt face up: You the Nine of …". */
export function firstDrawText(draw, me) {
  if (!draw || !draw.cards || !draw.cards.length) return null;
  const shown = draw.cards.map(({ seat, card }) => `${seatName(seat, me)} the ${cardName(card)}`);
  const who = draw.dealer === me ? "you deal" : `${seatName(draw.dealer, me)} deals`;
  return `First dealer, dealt face up until a black jack: ${shown.join(", ")}; ${who} first.`;
}

/** A log line, marked when it names a played card (so law 11 can take it away later). */
export function logEntry(text, play = false) {
  return { text, play };
}

/** The log once a new trick is led: the plays of earlier tricks go (table law 11). */
export function forgetEarlierPlays(log) {
  return log.filter((entry) => !entry.play);
}
