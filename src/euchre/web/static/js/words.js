// Words: seat names, button labels for actions, and sentences about what happened.
// Only phrasing lives here; which actions are allowed always comes from the server.

import { cardName, suitName } from "./cards.js";

export const POSITIONS = ["south", "west", "north", "east"];
const POSITION_NAMES = ["South", "West", "North", "East"];

// `me` is the viewer's seat, who always sits South; null means an onlooker (seat 0 South).

/** Where a seat sits on screen, seen from seat `me`. */
export function position(seat, me) {
  return POSITIONS[(seat - (me ?? 0) + 4) % 4];
}

// The people at the table by seat (null: a computer, or nobody named), from the last snapshot.
// People are named everywhere. A computer is named by its real seat (seat 0 South), never by
// where it shows on one viewer's screen, so every screen and log at a table agrees.
let people = [null, null, null, null];

/** Name the people at the table from a snapshot's `seats` ([] or null: positions only). */
export function setSeatNames(seats) {
  people = [0, 1, 2, 3].map((seat) => {
    const info = (seats || []).find((s) => s.seat === seat);
    // A person who left keeps their name (a computer plays their seat: the seat's mark says so).
    if (!(info && (info.kind === "human" || info.replaced) && info.name)) return null;
    return botLabel(info.name, info.outside_bot);
  });
}

/** A name as shown: an outside bot's (a program with a bot token) carries "(bot)". */
export function botLabel(name, isBot) {
  return isBot ? `${name} (bot)` : name;
}

/** Whether anyone but a lone person at seat 0 (a practice table's) sits here by name: then a
 * computer is "North (computer)" and results name both partners. */
export function sharedTable() {
  return people.some((name, seat) => name && seat !== 0);
}

/** "You", a person's name, or a computer's name by its real seat: "North" at a practice
 * table (its person sits South), "North (computer)" where other people sit (the compass
 * first, so a label cut short on a phone still tells the computers apart). */
export function seatName(seat, me) {
  if (seat === me) return "You";
  if (people[seat]) return people[seat];
  return sharedTable() ? `${POSITION_NAMES[seat]} (computer)` : POSITION_NAMES[seat];
}

/** The compass name even for the viewer ("South"). */
export function compassName(seat, me) {
  return POSITION_NAMES[(seat - (me ?? 0) + 4) % 4];
}

/** The side (0: seats 0 & 2, 1: seats 1 & 3) of a seat. */
export function sideOf(seat) {
  return seat % 2;
}

/** "You and North" for the viewer's side; another side in one order for every viewer, people
 * first, then by seat ("Ann and Cy", "Ann and North (computer)", "West and East"). */
export function sideName(side, me) {
  if (me !== null && me !== undefined && side === sideOf(me)) return `You and ${seatName((me + 2) % 4, me)}`;
  const [a, b] = people[side + 2] && !people[side] ? [side + 2, side] : [side, side + 2];
  return `${seatName(a, me)} and ${seatName(b, me)}`;
}

/** The short label of a side for the score: its people by name ("Ann & Cyd", "You & Cyd";
 * a computer by its compass name), or "Us" / "Them" at a table of one person and computers. */
export function sideShort(side, me) {
  if (me === null || me === undefined) return `${seatName(side, null)} & ${seatName(side + 2, null)}`;
  if (!people.some((name, seat) => name && seat !== me)) return side === sideOf(me) ? "Us" : "Them";
  if (side === sideOf(me)) return `You & ${seatName((me + 2) % 4, me)}`;
  return `${seatName((me + 1) % 4, me)} & ${seatName((me + 3) % 4, me)}`;
}

export function verb(seat, me, youForm, otherForm) {
  return `${seatName(seat, me)} ${seat === me ? youForm : otherForm}`;
}

function listCards(cards) {
  const names = cards.map(cardName);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
}

/** The text on the button for an action in the notation ("call H alone" -> "Call Hearts alone"). */
export function actionLabel(action) {
  const words = action.split(" ");
  switch (words[0]) {
    case "pass":
      return "Pass";
    case "order":
      return words[1] === "alone" ? "Order up alone" : "Order up";
    case "call":
      return `Call ${suitName(words[1])}${words[2] === "alone" ? " alone" : ""}`;
    case "defend":
      return "Defend alone";
    case "discard":
      return `Discard the ${cardName(words[1])}`;
    case "play":
      return `Play the ${cardName(words[1])}`;
    case "farmer":
      if (words[1] === "keep") return "Keep this hand";
      if (words[1] === "throw") return "Throw this hand in";
      return `Swap the ${listCards(words.slice(2))} for the kitty`;
    default:
      return action;
  }
}

/** A sentence about one action, from the history or an event, e.g. "West orders up the Nine of Hearts." */
export function describeAction(seat, action, me, view) {
  const words = action.split(" ");
  // A view between hands (or a page's summary) may hold no upcard: the bare word then.
  const upcard = view?.upcard ? cardName(view.upcard) : "upcard";
  const alone = words.at(-1) === "alone";
  const andAlone = alone ? (seat === me ? " and go alone" : " and goes alone") : "";
  switch (words[0]) {
    case "pass":
      return `${verb(seat, me, "pass", "passes")}.`;
    case "order":
      if (view && seat === view.dealer) {
        return `${verb(seat, me, "pick up", "picks up")} the ${upcard}${andAlone}.`;
      }
      return `${verb(seat, me, "order up", "orders up")} the ${upcard}${andAlone}.`;
    case "call":
      return `${verb(seat, me, "name", "names")} ${suitName(words[1])} trump${andAlone}.`;
    case "defend":
      return `${verb(seat, me, "defend", "defends")} alone.`;
    case "discard":
      return words[1]
        ? `${verb(seat, me, "discard", "discards")} the ${cardName(words[1])}.`
        : `${verb(seat, me, "discard", "discards")} a card.`;
    case "play":
      return `${verb(seat, me, "play", "plays")} the ${cardName(words[1])}.`;
    case "farmer":
      if (words[1] === "keep") return `${verb(seat, me, "keep", "keeps")} a farmer's hand.`;
      if (words[1] === "throw") return `${verb(seat, me, "throw", "throws")} a farmer's hand in.`;
      return `${verb(seat, me, "swap", "swaps")} three cards with the kitty.`;
    case "renege":
      return `${seatName(Number(words[3]), me)} claims that ${seatName(Number(words[1]), me)} reneged.`;
    default:
      return `${seatName(seat, me)}: ${action}.`;
  }
}

/**
 * What the seat to act is being asked to do, by phase, with the reason when a house rule
 * narrows the choices (the choices themselves are the server's `legal`).
 */
export function prompt(view, me) {
  const seat = view.to_act;
  if (seat === null || seat === undefined) return "";
  const yours = seat === me;
  const who = seatName(seat, me);
  const legal = yours ? view.legal || [] : [];
  const canPass = legal.includes("pass");
  const upcard = view.upcard ? cardName(view.upcard) : "upcard";
  switch (view.phase) {
    case "farmer":
      return yours ? "You hold a farmer's hand: keep it, swap three cards, or throw it in." : `${who} is looking at a farmer's hand.`;
    case "order": {
      if (!yours) return `${who} to bid.`;
      const dealing = view.dealer === me;
      const plain = legal.includes("order");
      const alone = legal.includes("order alone");
      if (!plain && alone) {
        return `Your partner deals, and under the Canadian loner rule you may order up only by going alone: order up the ${upcard} alone${canPass ? " or pass" : ""}.`;
      }
      return dealing
        ? `Your turn: pick up the ${upcard} or pass.`
        : `Your turn: order up the ${upcard} or pass.`;
    }
    case "benny":
      return yours ? "The Joker was turned up: as dealer you must name trump." : `${who} to name trump for the Joker.`;
    case "call": {
      if (!yours) return `${who} to name trump.`;
      const turned = view.upcard && view.upcard !== "JK" ? ` (not ${suitName(view.upcard[1])}, turned down)` : "";
      if (!canPass) return `You are stuck (stick the dealer): everyone passed, so you must name a suit${turned}.`;
      return `Your turn: name a trump suit${turned} or pass.`;
    }
    case "discard":
      return yours ? `You took the ${upcard}: choose a card to discard.` : `${who} is discarding.`;
    case "defend":
      return yours ? "Defend alone against the lone hand, or pass." : `${who} may defend alone.`;
    case "play": {
      if (!yours) return view.trick.length ? `${who} to play.` : `${who} to lead.`;
      if (!view.trick.length) return "Your lead: play a card.";
      const plays = legal.filter((a) => a.startsWith("play ")).length;
      if (plays && plays < view.hand.length) return "Your turn: you must follow suit; the cards you may play are raised.";
      return "Your turn: play a card.";
    }
    default:
      return "";
  }
}

/** "Time ran out: the table played the Jack of Diamonds for you." for a move the clock made. */
export function timedOutText(seat, action, me, view) {
  const words = action.split(" ");
  let what;
  // A play of an earlier trick shows no card (table law 11): the table "played a card".
  if (words[0] === "play") what = words[1] ? `played the ${cardName(words[1])}` : "played a card";
  else if (words[0] === "discard") what = words[1] ? `discarded the ${cardName(words[1])}` : "discarded a card";
  else what = `chose "${actionLabel(action)}"`;
  if (words[0] === "order" && view) what = `chose "${view.dealer === seat ? "Pick up" : "Order up"}${words[1] === "alone" ? " alone" : ""}"`;
  return seat === me
    ? `Time ran out: the table ${what} for you.`
    : `Time ran out for ${seatName(seat, me)}: the table ${what}.`;
}

/** A bid as a short past-tense label for the seats during play ("Passed", "Called ♥ alone"). */
export function bidLabel(action, seat, view) {
  const words = action.split(" ");
  const alone = words.at(-1) === "alone" ? " alone" : "";
  switch (words[0]) {
    case "pass":
      return "Passed";
    case "order":
      return `${view && seat === view.dealer ? "Picked up" : "Ordered up"}${alone}`;
    case "call":
      return `Called ${suitName(words[1])}${alone}`;
    case "defend":
      return "Defends alone";
    case "farmer":
      return words[1] === "keep" ? "Kept a farmer's hand" : words[1] === "throw" ? "Threw in" : "Swapped three";
    default:
      return "";
  }
}

/** The two sides in the order a viewer reads them: their own first (0 then 1 for an onlooker). */
export function sidesFor(me) {
  const mine = me === null || me === undefined ? 0 : sideOf(me);
  return [mine, 1 - mine];
}

/** "You won the game, 10 to 7." from the viewer's side ("Ann and North won …" for an onlooker;
 * "You and Bob won …" where other people sit, so all four read one result from their side). */
export function gameOverText(winner, score, me) {
  // A tournament round of N hands may end level (no winner).
  if (winner === null || winner === undefined) return `The round ended level, ${score[0]} to ${score[1]}.`;
  if (me === null || me === undefined) return `${sideName(winner, me)} won the game, ${score[winner]} to ${score[1 - winner]}.`;
  const mine = sideOf(me);
  const a = score[winner];
  const b = score[1 - winner];
  if (winner === mine && !sharedTable()) return `You won the game, ${a} to ${b}.`;
  return `${sideName(winner, me)} won the game, ${a} to ${b}.`;
}

/**
 * Sentences about a finished hand, from the server's hand summary
 * ({maker, trump, alone, lone_defender, tricks_won, points, euchred, march, thrown_in, reneged}).
 */
export function handSummary(summary, me) {
  const points = summary.points;
  const scored = [0, 1]
    .filter((side) => points[side] > 0)
    .map((side) => `${sideName(side, me)} score ${points[side]} point${points[side] === 1 ? "" : "s"}.`)
    .join(" ");
  if (summary.thrown_in) {
    return { headline: "The hand was thrown in.", detail: "No points.", points };
  }
  if (summary.reneged) {
    const [cheat, claimer] = summary.reneged;
    return { headline: `${seatName(cheat, me)} reneged, caught by ${seatName(claimer, me)}.`, detail: scored, points };
  }
  const makerSide = sideOf(summary.maker);
  const tricks = summary.tricks_won[makerSide];
  const lone = summary.alone;
  const who = lone ? seatName(summary.maker, me) : sideName(makerSide, me);
  const one = lone && summary.maker !== me;
  let headline;
  if (summary.march) {
    headline = lone ? `${who} went alone and took all five tricks!` : `${who} marched: all five tricks!`;
  } else if (summary.euchred) {
    const defender = summary.lone_defender !== null && summary.lone_defender !== undefined
      ? ` by ${seatName(summary.lone_defender, me)} alone` : "";
    headline = `${who} ${one ? "was" : "were"} euchred${defender}, taking ${tricks} trick${tricks === 1 ? "" : "s"}.`;
  } else {
    headline = `${who} made it${lone ? " alone" : ""} with ${tricks} tricks.`;
  }
  return { headline, detail: scored, points };
}
