// A table's phone at a euchre night (/score, /score/{code}): the table's code, then its card.
// One pair enters each hand (who made trump, their tricks, a loner); once every hand is in,
// the other pair confirms on the same phone or their own. Entering a hand again replaces it.

import { request } from "./api.js";
import { fill, h } from "./dom.js";
import { navigate } from "./nav.js";

const REFRESH_MS = 5000;

/** Mount /score (`code` null: ask for it) or /score/{code}. */
export function mountScore(main, code) {
  if (!code) {
    const input = h("input", { id: "table-code", name: "code", autocomplete: "off", autocapitalize: "characters", maxlength: "12", required: true, inputmode: "text" });
    const form = h(
      "form",
      { class: "score-code" },
      h("label", { for: "table-code" }, "Your table's code"),
      input,
      h("button", { type: "submit", class: "start-button" }, "Open the table's card"),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      navigate(`/score/${encodeURIComponent(input.value.trim().toUpperCase())}`);
    });
    fill(main, h("div", { class: "page notice score-page" }, h("h1", {}, "Score a table"), h("p", { class: "field-help" }, "The host's screen shows each table's code for the round."), form));
    return null;
  }
  let alive = true;
  let timer = null;
  let card = null;
  let pair = 0; // the pair holding the phone: 0 seats 0 & 2, 1 seats 1 & 3
  let choice = { makers: 0, tricks: null, lone: null };
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the card…");
  const body = h("div");
  fill(main, h("div", { class: "page notice score-page" }, status, body));
  const path = `/api/score/${encodeURIComponent(code)}`;

  // Asked again every few seconds: the other pair may enter or confirm on their own phone.
  // The card is drawn again only when it changed, so a hand being chosen is not lost.
  async function load() {
    clearTimeout(timer);
    let fresh;
    try {
      fresh = await request("GET", path);
    } catch (error) {
      if (card) {
        timer = setTimeout(load, REFRESH_MS);
        return;
      }
      status.textContent = error.status === 404 ? "No table has that code: check it with the host." : `Could not load the card: ${error.message}`;
      fill(body, h("p", {}, h("a", { href: "/score" }, "Enter another code")));
      return;
    }
    if (!alive) return;
    status.textContent = "";
    if (JSON.stringify(fresh) !== JSON.stringify(card)) {
      card = fresh;
      draw();
    }
    if (card.open) timer = setTimeout(load, REFRESH_MS);
  }

  async function send(suffix, payload, message) {
    try {
      card = await request("POST", path + suffix, payload);
      choice = { makers: choice.makers, tricks: null, lone: null };
      draw();
    } catch (error) {
      message.textContent = error.message;
    }
  }

  const pairName = (p) => `${card.seats[p]} & ${card.seats[p + 2]}`;

  function draw() {
    const message = h("p", { class: "error", role: "alert" });
    const entered = new Map(card.hands.map((x) => [x.hand, x]));
    const next = Array.from({ length: card.hands_per_round }, (_, i) => i + 1).find((n) => !entered.has(n)) ?? null;
    const totals = [0, 0, 0, 0];
    for (const x of card.hands) x.points.forEach((p, seat) => (totals[seat] += p));
    fill(
      body,
      h("h1", {}, `Round ${card.round} · Table ${card.table}`),
      h("p", { class: "field-help" }, card.name),
      h("div", { class: "score-pairs" },
        [0, 1].map((p) => h("div", { class: "score-pair", dataset: { pair: String(p) } }, h("strong", {}, pairName(p)), h("span", {}, pointsText(p, totals))))),
      h("ol", { class: "score-hands", "aria-label": "Hands" }, Array.from({ length: card.hands_per_round }, (_, i) => {
        const x = entered.get(i + 1);
        return h("li", { dataset: { hand: String(i + 1) } }, x ? handText(x) : h("span", { class: "field-help" }, "not entered yet"));
      })),
      card.open ? entryForm(next, message) : h("p", { class: "night-over" }, "This round is over: the host can correct a hand."),
      card.open ? confirmBox(next, message) : null,
      message,
    );
  }

  // Partners score alike unless a loner bonus split them: then each is named.
  function pointsText(p, totals) {
    const plural = (n) => `${n} point${n === 1 ? "" : "s"}`;
    if (totals[p] === totals[p + 2]) return plural(totals[p]);
    return `${card.seats[p]} ${plural(totals[p])}, ${card.seats[p + 2]} ${plural(totals[p + 2])}`;
  }

  function handText(x) {
    const makers = pairName(x.makers);
    const alone = x.lone_seat === null ? "" : ` (${card.seats[x.lone_seat]} alone)`;
    const who = x.tricks >= 3 ? `${makers}${alone} made it, ${x.tricks} tricks` : `${makers}${alone} euchred`;
    return `Hand ${x.hand}: ${who}`;
  }

  function toggle(label, pressed, onclick) {
    return h("button", { type: "button", class: "tool", "aria-pressed": String(pressed), onclick }, label);
  }

  function entryForm(next, message) {
    const hand = h("select", { id: "score-hand", name: "hand" }, Array.from({ length: card.hands_per_round }, (_, i) => h("option", { value: String(i + 1), selected: i + 1 === (next ?? card.hands_per_round) }, `Hand ${i + 1}`)));
    const makersSeats = [choice.makers, choice.makers + 2];
    return h(
      "form",
      { class: "score-entry", "data-form": "hand", onsubmit: (event) => {
        event.preventDefault();
        if (choice.tricks === null) {
          message.textContent = "Choose how many tricks the makers took.";
          return;
        }
        send("/hands", { by_pair: pair, hand: Number(hand.value), makers: choice.makers, tricks: choice.tricks, lone_seat: choice.lone }, message);
      } },
      h("fieldset", { class: "score-group" }, h("legend", {}, "Who holds the phone"),
        [0, 1].map((p) => toggle(pairName(p), pair === p, () => { pair = p; draw(); }))),
      h("label", { for: "score-hand" }, "Hand"),
      hand,
      h("fieldset", { class: "score-group" }, h("legend", {}, "Who made trump"),
        [0, 1].map((p) => toggle(pairName(p), choice.makers === p, () => { choice = { ...choice, makers: p, lone: null }; draw(); }))),
      h("fieldset", { class: "score-group score-tricks" }, h("legend", {}, "Tricks the makers took"),
        [0, 1, 2, 3, 4, 5].map((n) => toggle(String(n), choice.tricks === n, () => { choice = { ...choice, tricks: n }; draw(); }))),
      h("fieldset", { class: "score-group" }, h("legend", {}, "Alone"),
        toggle("Nobody", choice.lone === null, () => { choice = { ...choice, lone: null }; draw(); }),
        makersSeats.map((seat) => toggle(card.seats[seat], choice.lone === seat, () => { choice = { ...choice, lone: seat }; draw(); }))),
      h("button", { type: "submit", class: "start-button" }, "Save the hand"),
    );
  }

  function confirmBox(next, message) {
    if (card.confirmed_by) return h("p", { class: "score-confirmed" }, `Confirmed by ${card.confirmed_by}.`);
    if (next !== null) return h("p", { class: "field-help" }, `When all ${card.hands_per_round} hands are in, the other pair confirms them. A hand entered again replaces it.`);
    return h("div", { class: "score-confirm" },
      h("p", {}, "All hands are in. The pair that did not enter them checks the card and confirms:"),
      [0, 1].map((p) => h("button", { type: "button", class: "tool", onclick: () => send("/confirm", { by_pair: p }, message) }, `${pairName(p)} confirm`)));
  }

  load();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}
