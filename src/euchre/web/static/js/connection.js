// The table's WebSocket (protocol 2, docs/protocol.md): join with our token (and last version),
// then a snapshot (the whole table) and events. An event carries what changed, not the table:
// what it says itself is folded in here (an action's line in the history and a play's card in
// the trick, a trick as the last trick, a hand's result, a deal's commitments), the last event
// of a move brings the rest of what the move changed in the public table ("changes", as paths,
// the table's version among them: table.version === message.version marks a move's whole
// result), and the first, to our seat only, what changed of our
// own part ("you": our hand, our legal moves, our own discard). One event, one render, and no
// rule of the game here. Reconnects by itself; a rejoin sends the last version seen, and the
// server answers with exactly the missed events while it keeps them (its last 64), else a
// snapshot. With no token it watches instead (a spectator: no seat, the public view).

import { MY_ACCOUNT } from "./storage.js";

/** The close code of a socket refused by a cap on connections (server/tables/socket_guard.py). */
const TOO_MANY = 4429;
/** The close code of a socket whose page speaks an older table protocol (server/tables/ws.py). */
const OLD_PROTOCOL = 4426;
/** The table protocol this page speaks. */
const PROTOCOL = 2;

/** Set the value at `path` ("view.trick", "seats.1.connected"; "view.history+" appends). */
function setPath(table, path, value) {
  const append = path.endsWith("+");
  const keys = (append ? path.slice(0, -1) : path).split(".");
  let node = table;
  for (const key of keys.slice(0, -1)) node = node[Array.isArray(node) ? Number(key) : key];
  const last = keys[keys.length - 1];
  if (Array.isArray(node)) node[Number(last)] = value;
  else if (append) node[last].push(...value);
  else node[last] = value;
}

/** Fold in what an event says itself (the changes leave it out: src/euchre/table/actor/delta.py). */
function implied(table, event) {
  const view = table.view;
  switch (event.kind) {
    case "action":
      if (view) {
        if (event.action.startsWith("play ")) {
          if (view.trick.length === 0) {
            // A lead: table law 11, the last trick leaves the view (earlier plays show no card).
            view.history = view.history.map(([seat, action]) =>
              typeof action === "string" && action.startsWith("play ") ? [seat, "play"] : [seat, action]);
            view.last_trick = null;
          }
          view.trick.push(event.action.slice(5)); // its card
        }
        view.history.push([event.seat, event.action]);
      }
      break;
    case "trick":
      if (view) {
        view.last_trick = { leader: event.leader, cards: event.cards, winner: event.winner };
        view.trick = [];
        view.tricks_played += 1;
        view.tricks_won[event.winner % 2] += 1;
        view.leader = event.winner;
        view.to_act = event.winner;
      }
      break;
    case "hand_over":
      table.score = event.score;
      table.summary = event.summary;
      table.commitment = null; // the seed is out
      if (view) {
        view.phase = "over";
        view.to_act = null;
        view.points = event.points;
      }
      break;
    case "deal":
      table.hand_number = event.hand_number;
      table.dealer = event.dealer;
      table.commitment = event.commitment ?? null;
      table.next_commitment = event.next_commitment ?? null;
      break;
    default:
      break;
  }
}

/** Put our own part ("you") into a table: our seat, hand, legal moves, discard, own hidden actions. */
function putYou(table, you) {
  table.seat = you.seat;
  const view = table.view;
  if (!view) return;
  view.seat = you.seat;
  for (const key of ["hand", "legal", "discard", "farmer_gave"]) if (key in you) view[key] = you[key];
  for (const [index, entry] of you.own ?? []) if (index < view.history.length) view.history[index] = entry;
}

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token (null: watch as a spectator)
   * @param {{onTable: Function, // (table, event|null): one call per snapshot or event
   *    onError: Function, onHint: Function, onState: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
    this.table = null; // the table as folded so far
    this.you = null; // our own part of it (null: watching)
    this.socket = null;
    this.closed = false;
    this.retries = 0;
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retries = 0;
      // MY_ACCOUNT: no token, the server seats the signed-in person at their own seat.
      const hello = this.token === null
        ? { type: "watch", since: this.version, protocol: PROTOCOL }
        : this.token === MY_ACCOUNT
          ? { type: "join", since: this.version, protocol: PROTOCOL }
          : { type: "join", token: this.token, since: this.version, protocol: PROTOCOL };
      socket.send(JSON.stringify(hello));
      this.handlers.onState?.("open");
    });
    socket.addEventListener("message", (message) => this.receive(JSON.parse(message.data)));
    socket.addEventListener("close", (close) => {
      if (this.socket !== socket) return;
      this.handlers.onState?.("closed");
      if (this.closed) return;
      if (close.code === OLD_PROTOCOL) {
        this.closed = true; // the error message said to reload
        return;
      }
      if (close.code === TOO_MANY) {
        // A cap on connections (this seat open in too many tabs, say): retrying would not help.
        this.closed = true;
        this.handlers.onError?.(close.reason || "Too many connections: close another tab and reload.", false, "too_many");
        return;
      }
      const wait = Math.min(5000, 300 * 2 ** this.retries++);
      setTimeout(() => !this.closed && this.open(), wait);
    });
  }

  receive(message) {
    switch (message.type) {
      case "snapshot":
        this.version = message.version;
        this.table = message.table;
        this.you = message.you ?? null;
        this.handlers.onTable(this.table, null);
        break;
      case "event": {
        if (this.table === null || message.version !== this.version + 1) {
          // A gap (never expected: the server sends every version): rejoin from what we have.
          this.socket?.close();
          break;
        }
        this.version = message.version;
        const table = structuredClone(this.table); // a new object: the page compares with the last
        delete table.clock_played; // a snapshot's own: events mark timed-out moves themselves
        if (message.event) implied(table, structuredClone(message.event));
        const changes = message.changes ?? {};
        for (const [path, value] of Object.entries(changes)) setPath(table, path, value);
        // The table's to_act is its view's unless the changes say otherwise.
        if (table.view && Object.keys(changes).length && !("to_act" in changes)) table.to_act = table.view.to_act;
        if (message.you) this.you = { ...this.you, ...message.you };
        if (this.you) putYou(table, this.you);
        this.table = table;
        this.handlers.onTable(table, message.event ?? null);
        break;
      }
      case "also_open":
        // The same seat was opened in another window or device: both stay live.
        this.handlers.onAlsoOpen?.();
        break;
      case "hint":
        this.handlers.onHint?.(message.hints, message.version);
        break;
      case "error": {
        // "replaced": this seat's person left; a computer plays it to the end.
        const fatal = ["no_table", "bad_token", "no_spectators", "replaced", "old_protocol"].includes(message.code);
        if (fatal) this.closed = true;
        this.handlers.onError?.(message.message, fatal, message.code);
        break;
      }
      default:
        break;
    }
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** Send an action in the notation ("play JH"). */
  act(action) {
    return this.send({ type: "action", action });
  }

  /** Ask for the hard player's estimates of every legal action. */
  askHint() {
    return this.send({ type: "hint" });
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}
