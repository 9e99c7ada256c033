// A word to the table (issue 36 item 6): a row of quick messages ("Hello", "Good game" …)
// that carry nothing about the cards, sent as {"type": "say", "message": id} and heard as
// "say" events by every seat and spectator. Table law 10 (no table talk) is the server's to
// keep: it takes a message only before the first deal, between a hand's result and the next
// deal, and after the game; the row is enabled only then, from the latest table the socket
// folded. Spectators read the messages and do not send them. Muting is this browser's own:
// a whole table, or a person (by name, at every table), kept in localStorage ("euchre.mute").

import { fill, h } from "./dom.js";
import { position, seatName } from "./words.js";

/** Every quick message: [id, words] (the server's list: src/euchre/table/actor/talk.py). */
export const QUICK_MESSAGES = [
  ["hello", "Hello"],
  ["good_game", "Good game"],
  ["thanks", "Thanks"],
  ["well_played", "Well played"],
  ["brb", "Be right back"],
];
const WORDS = Object.fromEntries(QUICK_MESSAGES);

/** The socket's refusal codes of a say: shown beside the row, not as the page's error. */
export const TALK_CODES = ["talk_in_play", "talk_rate", "talk_off", "talk_people_only"];

const MUTE_KEY = "euchre.mute";
const BUBBLE_MS = 4000; // how long a message shows by its sender's seat
const LOG_KEPT = 6; // lines kept in the row's log

function loadMutes() {
  try {
    const kept = JSON.parse(localStorage.getItem(MUTE_KEY) || "{}");
    return { tables: kept.tables ?? {}, people: kept.people ?? {} };
  } catch {
    return { tables: {}, people: {} };
  }
}

function saveMutes(mutes) {
  // The 50 most recent tables; people are few.
  const tables = Object.entries(mutes.tables).sort((a, b) => b[1] - a[1]).slice(0, 50);
  localStorage.setItem(MUTE_KEY, JSON.stringify({ tables: Object.fromEntries(tables), people: mutes.people }));
}

/** Whether this browser muted the table. */
export function tableMuted(tableId) {
  return Boolean(loadMutes().tables[tableId]);
}

/** Whether this browser muted the person named `name` (at every table). */
export function personMuted(name) {
  return Boolean(name && loadMutes().people[name]);
}

function setMute(kind, key, on) {
  const mutes = loadMutes();
  if (on) mutes[kind][key] = Date.now();
  else delete mutes[kind][key];
  saveMutes(mutes);
}

/** Whether a hand is in play: dealt, not over, the game going on (no table talk then). */
function inPlay(table) {
  const view = table.view;
  return Boolean(view && view.phase !== "over" && !table.game_over && !table.closed);
}

/**
 * Whether `table` takes a message from this page now: {can, why} (why: a line saying why
 * not), or null where there is no talk at all (practice and coin tables).
 */
export function talkNow(table, { watching, gone }) {
  if (!table || table.kind !== "online") return null;
  if (table.extra?.talk === false) return { can: false, why: "Silent table: its creator turned quick messages off." };
  if (watching) return { can: false, why: "Only the people seated send messages; you see them here." };
  if (gone) return { can: false, why: "You left this game." };
  if (inPlay(table)) return { can: false, why: "No table talk during a hand: messages open again at its result." };
  return { can: true, why: "" };
}

export class TalkBox {
  /**
   * @param {string} tableId
   * @param {{watching: boolean, send: Function, seats: object}} options: `send(message)`
   *   sends on the table socket (false if not open); `seats` are the seat boxes (bubbles).
   */
  constructor(tableId, { watching, send, seats }) {
    this.tableId = tableId;
    this.watching = watching;
    this.send = send;
    this.seats = seats;
    this.timers = new Map(); // seat box -> the timer hiding its bubble
    this.state = null;
    this.buttons = QUICK_MESSAGES.map(([id, words]) =>
      h("button", { type: "button", class: "talk-button", dataset: { key: `talk:${id}`, message: id }, disabled: true, onclick: () => this.say(id) }, words));
    this.row = watching ? null : h("div", { class: "talk-row", role: "group", "aria-label": "Quick messages" }, this.buttons);
    // Polite, not a second role="status": the status line above the felt is the page's one.
    this.note = h("p", { class: "talk-note", "aria-live": "polite" });
    this.log = h("ol", { class: "talk-log", "aria-live": "polite", "aria-relevant": "additions", "aria-label": "Messages at the table" });
    this.muteTable = h("button", { type: "button", class: "tool talk-mute-table", dataset: { key: "talk:mute-table" }, "aria-pressed": "false", onclick: () => this.toggleTable() }, "Mute this table");
    this.mutePeople = h("span", { class: "talk-mute-people" });
    // Muting sits behind one small toggle, its menu over the felt (it takes no row of its own).
    this.mutes = h(
      "details",
      { class: "talk-mutes" },
      h("summary", { class: "tool", dataset: { key: "talk:mutes" } }, "Mute"),
      h("div", { class: "talk-mute-menu", role: "group", "aria-label": "Mute messages" }, this.muteTable, this.mutePeople),
    );
    this.element = h(
      "section",
      { class: `talk${watching ? " talk-watching" : ""}`, "aria-label": "Table talk", hidden: true },
      h("h2", { class: "visually-hidden" }, "Table talk"),
      this.row,
      h("div", { class: "talk-foot" }, h("div", { class: "talk-lines" }, this.note, this.log), this.mutes),
    );
    this.refusal = "";
  }

  /**
   * Enable the row when the table takes a message; list the people who can be muted. The
   * section shows at online tables while no hand is in play (a spectator's, always): it
   * takes the hand's place below the felt then. Returns whether it shows for a seat.
   */
  render(table, me, { gone = false } = {}) {
    this.last = { table, me, gone };
    const state = talkNow(table, { watching: this.watching, gone });
    const shown = Boolean(state) && (this.watching || !inPlay(table));
    this.element.hidden = !shown;
    if (!state) return false;
    if (this.state?.can !== state.can) this.refusal = ""; // a refusal was about the moment before
    this.state = state;
    for (const button of this.buttons) button.disabled = !state.can;
    const note = this.refusal || state.why;
    if (this.note.textContent !== note) this.note.textContent = note;
    this.note.classList.toggle("talk-refused", Boolean(this.refusal));
    const muted = tableMuted(this.tableId);
    this.muteTable.setAttribute("aria-pressed", String(muted));
    this.muteTable.textContent = muted ? "Unmute this table" : "Mute this table";
    this.element.classList.toggle("muted", muted);
    const people = (table.seats ?? []).filter((s) => s.kind === "human" && !s.replaced && s.seat !== me && s.name);
    const key = JSON.stringify(people.map((s) => [s.name, personMuted(s.name)]));
    if (this.mutePeople.dataset.key === key) return shown && !this.watching;
    this.mutePeople.dataset.key = key;
    fill(this.mutePeople, people.map((s) => {
      const on = personMuted(s.name);
      return h("button", { type: "button", class: "tool talk-mute-person", "aria-pressed": String(on), dataset: { key: `talk:mute:${s.seat}` }, onclick: () => this.togglePerson(s.name) }, `${on ? "Unmute" : "Mute"} ${s.name}`);
    }));
    return shown && !this.watching;
  }

  say(id) {
    if (!this.state?.can) return;
    this.refusal = "";
    if (!this.send({ type: "say", message: id })) this.refusal = "Not connected to the table: try again in a moment.";
    this.note.textContent = this.refusal;
  }

  /** The table refused a message: say why beside the row (it is no error of the page). */
  refused(message) {
    this.refusal = `Not sent: ${message}.`;
    this.note.textContent = this.refusal;
    this.note.classList.add("talk-refused");
  }

  /** A "say" event: into the log and beside the sender's seat, unless muted here. */
  heard(event, table, me) {
    const words = WORDS[event.message];
    const name = (table.seats ?? []).find((s) => s.seat === event.seat)?.name;
    if (!words || tableMuted(this.tableId) || (event.seat !== me && personMuted(name))) return;
    const who = seatName(event.seat, me);
    this.log.append(h("li", {}, h("b", {}, `${who}: `), words));
    while (this.log.childElementCount > LOG_KEPT) this.log.firstElementChild.remove();
    const box = this.seats[position(event.seat, me)];
    if (!box?.talk) return;
    box.talk.textContent = words;
    box.talk.hidden = false;
    clearTimeout(this.timers.get(box));
    this.timers.set(box, setTimeout(() => {
      box.talk.hidden = true;
    }, BUBBLE_MS));
  }

  toggleTable() {
    setMute("tables", this.tableId, !tableMuted(this.tableId));
    if (tableMuted(this.tableId)) this.hideBubbles();
    this.muteTable.setAttribute("aria-pressed", String(tableMuted(this.tableId)));
    this.muteTable.textContent = tableMuted(this.tableId) ? "Unmute this table" : "Mute this table";
    this.element.classList.toggle("muted", tableMuted(this.tableId));
  }

  togglePerson(name) {
    setMute("people", name, !personMuted(name));
    const { table, me, gone } = this.last;
    this.render(table, me, { gone });
  }

  hideBubbles() {
    for (const [box, timer] of this.timers) {
      clearTimeout(timer);
      box.talk.hidden = true;
    }
    this.timers.clear();
  }

  stop() {
    this.hideBubbles();
  }
}
