// The four seats around the felt, and the upcard on the kitty in the middle while bidding.

import { cardBack, cardFace, cardName } from "./cards.js";
import { fill, h } from "./dom.js";
import { isPlay } from "./law.js";
import { POSITIONS, actionLabel, bidLabel, position, seatName } from "./words.js";

const BIDDING = ["farmer", "order", "benny", "call", "discard", "defend"];

/** Build the seat boxes once: {south: {box, name, tags, cards, said, talk}, west: …}. */
export function seatBoxes() {
  const seats = {};
  for (const where of POSITIONS) {
    const seat = {
      box: h("div", { class: `seat seat-${where}` }),
      name: h("div", { class: "seat-name" }),
      tags: h("div", { class: "seat-tags" }),
      cards: h("div", { class: "seat-cards", "aria-hidden": "true" }),
      said: h("div", { class: "seat-said", "aria-hidden": "true" }),
      // A quick message, shown a few seconds (talk.js; the talk log reads it out).
      talk: h("div", { class: "seat-talk", "aria-hidden": "true", hidden: true }),
      clock: h("span", { class: "seat-clock", hidden: true }),
    };
    seat.box.append(
      h("div", { class: "seat-core" }, h("div", { class: "seat-label" }, seat.name, seat.tags, seat.clock, seat.talk), seat.cards, seat.said),
    );
    seats[where] = seat;
  }
  return seats;
}

function tagsFor(seat, view, said) {
  const tags = [];
  // Once the bidding is over, each seat keeps its bid in view for the whole hand.
  const bid = !BIDDING.includes(view.phase) && said && !said.startsWith("discard") ? bidLabel(said, seat, view) : "";
  if (bid && view.maker !== seat) tags.push(h("span", { class: "tag tag-bid" }, bid));
  if (seat === view.dealer) tags.push(h("span", { class: "tag tag-dealer" }, "Dealer"));
  if (view.maker === seat) {
    const how = bid ? `${bid}: maker` : "Maker";
    tags.push(h("span", { class: "tag tag-maker" }, view.alone && !bid.endsWith("alone") ? `${how}, alone` : how));
  }
  if (view.lone_defender === seat) tags.push(h("span", { class: "tag tag-maker" }, "Defends alone"));
  if (view.sitting_out.includes(seat)) tags.push(h("span", { class: "tag tag-out" }, "Sits out"));
  return tags;
}

/** Names, tags, the cards still held (face down) and each seat's last bid. */
export function renderSeats(seats, view, table, me) {
  const playedCount = [0, 0, 0, 0];
  // Count every play, those table law 11 shows only as "play" included.
  for (const [seat, action] of view.history) if (isPlay(action)) playedCount[seat] += 1;
  const lastSaid = new Map();
  for (const [seat, action] of view.history) {
    if (!isPlay(action) && !action.startsWith("discard")) lastSaid.set(seat, action);
  }
  for (let seat = 0; seat < 4; seat += 1) {
    const box = seats[position(seat, me)];
    const info = (table.seats || []).find((s) => s.seat === seat);
    const out = view.sitting_out.includes(seat);
    const partner = me !== null && seat === (me + 2) % 4;
    const bot = info?.kind === "bot";
    // The mark says a computer plays this seat, and how well, on every screen size; a person
    // who left keeps their name, marked "(left)" (or "(away)" when gone past the grace).
    const mark = bot ? (info.level ? `computer · ${info.level}` : "computer") : null;
    const gone = info?.replaced ? ` (${info.replaced === "left" ? "left" : "away"})` : "";
    const away = !gone && info?.away_ms_left !== undefined && info?.away_ms_left !== null;
    const markTitle = gone
      ? `A computer player${info.level ? `, level ${info.level},` : ""} plays this seat to the end: its person ${info.replaced === "left" ? "left" : "was away too long"}`
      : `A computer player${info?.level ? `, level ${info.level}` : ""}`;
    fill(
      box.name,
      // One line: a long name ends in an ellipsis (CSS) and the whole name is in the title.
      h("span", { class: "seat-title", title: `${seat === me ? "You" : seatName(seat, me)}${gone}` }, `${seat === me ? "You" : seatName(seat, me)}${gone}`),
      partner ? h("span", { class: "seat-detail" }, "partner") : null,
      mark ? h("span", { class: `seat-mark${gone ? " seat-mark-left" : ""}`, title: markTitle }, mark) : null,
      away ? h("span", { class: "seat-away", dataset: { seat: String(seat) }, title: "Away: a computer takes the seat when the time runs out, unless they come back" }, "away") : null,
    );
    box.box.classList.toggle("away", away);
    fill(box.tags, tagsFor(seat, view, lastSaid.get(seat)));
    box.box.classList.toggle("to-act", view.to_act === seat);
    box.box.classList.toggle("sitting-out", out);
    if (seat !== me) {
      let held = out ? 0 : 5 - playedCount[seat];
      if (view.phase === "discard" && seat === view.dealer) held += 1;
      renderBacks(box.cards, held, table.hand_number);
    }
    // A speech bubble with the seat's bid, during the bidding only.
    const said = lastSaid.get(seat);
    const bubble = BIDDING.includes(view.phase) && said && !said.startsWith("discard") ? actionLabel(said) : "";
    box.said.textContent = bubble;
    box.said.hidden = !bubble;
  }
}

/** Another seat's cards, face down: dealt in with a new hand, then only added or taken away. */
function renderBacks(container, held, handNumber) {
  const hand = String(handNumber);
  const fresh = container.dataset.hand !== hand;
  if (fresh) {
    container.dataset.hand = hand;
    container.replaceChildren();
  }
  while (container.childElementCount > held) container.lastElementChild.remove();
  while (container.childElementCount < held) {
    const i = container.childElementCount;
    container.append(h("div", { class: `back${fresh ? " dealt" : ""}`, vars: { "--i": i }, html: cardBack() }));
  }
}

/** Where the upcard went, for the rest of the hand: "Upcard 9♥: East picked it up". */
export function renderUpcardNote(note, view, me) {
  const bidding = ["farmer", "order", "benny", "call", "discard"].includes(view.phase);
  if (bidding || !view.upcard || view.phase === "over") {
    // Hidden and emptied: a hand thrown in never reaches play, so a note kept only hidden
    // would still hold a card face from two hands back while the next hand is bid.
    note.hidden = true;
    fill(note);
    delete note.dataset.text;
    return;
  }
  note.hidden = false;
  const upcard = cardName(view.upcard);
  const took = view.upcard_taken ? `${seatName(view.dealer, me)} picked it up` : "turned down";
  const text = `Upcard: ${upcard}, ${took}`;
  if (note.dataset.text === text) return;
  note.dataset.text = text;
  fill(note, h("span", { class: "mini-upcard", "aria-hidden": "true", html: cardFace(view.upcard) }), h("span", {}, text));
}

/** The upcard on the kitty while bidding (face down in round two); hidden once play starts. */
export function renderPile(pile, view, handNumber, me) {
  if (!["farmer", "order", "benny", "call", "discard"].includes(view.phase)) {
    pile.hidden = true;
    pile.dataset.key = "";
    return;
  }
  pile.hidden = false;
  const faceUp = view.phase !== "call";
  const key = `${handNumber}:${faceUp}:${view.upcard_taken}`;
  if (pile.dataset.key === key) return;
  pile.dataset.key = key;
  const upcard = cardName(view.upcard);
  const top = view.upcard_taken
    ? null
    : h("div", {
        class: `upcard${faceUp ? "" : " turned-down"}`,
        role: "img",
        "aria-label": faceUp ? `Upcard: ${upcard}` : `Turned down: ${upcard}`,
        html: faceUp ? cardFace(view.upcard) : cardBack(),
      });
  let caption = "Upcard";
  if (!faceUp) caption = `Turned down: the ${upcard}`;
  else if (view.upcard_taken) caption = `${seatName(view.dealer, me)} picked up the ${upcard}`;
  fill(
    pile,
    h("div", { class: "kitty", "aria-hidden": "true" }, h("div", { class: "back", html: cardBack() }), h("div", { class: "back", html: cardBack() })),
    top,
    h("p", { class: "pile-caption" }, caption),
  );
}
