// A rematch at the end of an online game (docs/protocol.md, "Rematch"): the Rematch button
// beside "Find another game", who accepted and who is still to answer, the minute counting
// down, and how it ended, said plainly. The table's `rematch` (folded from the events) is the
// offer as it stands; this only draws it and sends the person's answer. Once the new table
// starts, the page goes there with the same seat token (the seat follows the person).

import { h, fill } from "./dom.js";
import { seatName } from "./words.js";

/** "0:47" from milliseconds. */
function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "Ann", "Ann and Bob", "Ann, Bob and Cyd". */
function names(list) {
  return list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** How an offer ended, or what it is waiting for, in words (me: the reader's seat). */
export function rematchText(offer, me) {
  const who = (seat) => seatName(seat, me);
  switch (offer.status) {
    case "declined":
      return `${who(offer.seat)} declined the rematch.`;
    case "left":
      return `${who(offer.seat)} left the table: the rematch is off.`;
    case "expired":
      return "The rematch offer ran out: not everyone answered within the minute.";
    case "refused":
      return offer.message ?? "The rematch could not start.";
    case "started":
      return "Everyone accepted: the rematch is starting…";
    default: {
      const seats = offer.partners === "change" ? "new partners" : "the same partners, everyone one seat to the left";
      return `${offer.by === me ? "You offer" : `${who(offer.by)} offers`} a rematch with ${seats}.`;
    }
  }
}

/** What an event says to the log and the screen reader. */
export function rematchEventText(event, offer, me) {
  if (event.status === "open") return offer ? rematchText(offer, me) : "A rematch is offered.";
  if (event.status === "accepted") return `${seatName(event.seat, me)} ${event.seat === me ? "accept" : "accepts"} the rematch.`;
  return offer ? rematchText(offer, me) : "";
}

/** The rematch part of a game-over panel, drawn again in place as the offer changes. */
export class RematchBox {
  /** `send(message)` sends on the table socket; `onStarted(tableId)` follows the new table. */
  constructor(me, send, onStarted) {
    this.me = me;
    this.send = send;
    this.onStarted = onStarted;
    this.offer = null;
    this.deadline = 0; // when the offer runs out (Date.now() time)
    this.sent = false; // an answer is on its way
    this.gone = []; // the seats of people who played and left the table
    this.followed = false;
    this.timer = null;
    this.change = h("input", { type: "checkbox", id: "rematch-change", name: "partners" });
    this.choice = h("label", { class: "rematch-choice", for: "rematch-change" }, this.change, " New partners");
    this.button = h("button", { type: "button", class: "rematch-button", dataset: { key: "panel:rematch" }, onclick: () => this.answer(true) }, "Rematch");
    this.decline = h("button", { type: "button", class: "rematch-decline", dataset: { key: "panel:decline" }, onclick: () => this.answer(false) }, "Decline");
    // The table's own log reads each change out; the countdown is not read every second.
    this.status = h("p", { class: "rematch-status" });
    this.clock = h("span", { class: "rematch-clock", "aria-hidden": "true" });
    this.people = h("p", { class: "rematch-people" });
    this.box = h("div", { class: "rematch", role: "group", "aria-label": "Rematch" }, this.status, this.people);
  }

  /** Put the button beside "Find another game" and the status under the actions. */
  mount(panel) {
    const actions = panel.querySelector(".panel-actions");
    const again = actions?.querySelector('[data-key="panel:again"]');
    if (!actions || !again) return;
    again.after(this.button, this.decline);
    actions.after(this.box);
    this.box.prepend(this.choice);
    this.draw();
  }

  answer(accept) {
    if (this.sent) return;
    const partners = this.change.checked ? "change" : "keep";
    if (this.send({ type: "rematch", accept, ...(this.offer ? {} : { partners }) })) {
      this.sent = true;
      this.draw();
    }
  }

  /** The table's `rematch` changed (or not): draw it; `at`: when the table arrived; `seats`:
   * the TABLE's seats (a person who played and is gone means no offer can be made). */
  update(offer, at = Date.now(), seats = []) {
    this.gone = seats.filter((s) => s.seat !== this.me && (s.replaced || (s.kind === "human" && !s.connected)));
    // An answer is taken once the offer shows it (its clock's changes are not an answer).
    const state = (o) => (o ? `${o.status}|${o.accepted.join(",")}` : "");
    if (state(offer) !== state(this.offer)) this.sent = false;
    this.offer = offer ?? null;
    this.deadline = at + (offer?.ms_left ?? 0);
    this.draw();
    if (offer?.status === "started" && offer.table && !this.followed) {
      this.followed = true;
      this.onStarted(offer.table);
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }

  draw() {
    const offer = this.offer;
    const me = this.me;
    const open = offer?.status === "open";
    const mine = open && offer.people.includes(me) && !offer.accepted.includes(me);
    const gone = !offer && this.gone.length > 0;
    this.button.hidden = (Boolean(offer) && !mine) || gone;
    this.button.textContent = offer ? "Accept rematch" : "Rematch";
    this.button.disabled = this.sent;
    this.decline.hidden = !mine;
    this.decline.disabled = this.sent;
    this.choice.hidden = Boolean(offer) || gone;
    this.change.disabled = this.sent;
    if (gone) {
      fill(this.status, `${names(this.gone.map((s) => seatName(s.seat, me)))} left the table: a rematch needs everyone who played.`);
      fill(this.people);
    } else if (!offer) {
      fill(this.status, "Play again with the same people: everyone must accept within a minute.");
      fill(this.people);
    } else if (open) {
      this.clock.textContent = clock(this.deadline - Date.now());
      fill(this.status, rematchText(offer, me), " ", this.clock);
      const waiting = offer.people.filter((s) => !offer.accepted.includes(s));
      fill(this.people,
        `Accepted: ${names(offer.accepted.map((s) => seatName(s, me)))}.`,
        waiting.length ? ` Waiting for ${names(waiting.map((s) => seatName(s, me)))}.` : "");
    } else {
      fill(this.status, rematchText(offer, me));
      fill(this.people);
    }
    this.box.classList.toggle("ended", Boolean(offer) && !open && offer.status !== "started");
    if (open && !this.timer) {
      this.timer = setInterval(() => {
        this.clock.textContent = clock(this.deadline - Date.now());
      }, 250);
    } else if (!open) this.stop();
  }
}
