// The table's WebSocket: join with our token (and last version), then receive snapshots and events.
// Reconnects by itself; a rejoin sends the last version seen so only missing events come back.
// With no token it watches instead (a spectator: no seat, the public view, nothing to send).

import { MY_ACCOUNT } from "./storage.js";

/** The close code of a socket refused by a cap on connections (server/tables/socket_guard.py). */
const TOO_MANY = 4429;

export class TableConnection {
  /**
   * @param {string} tableId
   * @param {string|null} token (null: watch as a spectator)
   * @param {{onTable: Function, onError: Function, onHint: Function, onState: Function}} handlers
   */
  constructor(tableId, token, handlers) {
    this.tableId = tableId;
    this.token = token;
    this.handlers = handlers;
    this.version = null;
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
        ? { type: "watch", since: this.version }
        : this.token === MY_ACCOUNT
          ? { type: "join", since: this.version }
          : { type: "join", token: this.token, since: this.version };
      socket.send(JSON.stringify(hello));
      this.handlers.onState?.("open");
    });
    socket.addEventListener("message", (message) => this.receive(JSON.parse(message.data)));
    socket.addEventListener("close", (close) => {
      if (this.socket !== socket) return;
      this.handlers.onState?.("closed");
      if (this.closed) return;
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
        this.handlers.onTable(message.table, null, true);
        break;
      case "event":
        // A move can make several events that all carry the settled table of the batch;
        // the last of the batch has message.version == table.version.
        this.version = message.version;
        this.handlers.onTable(message.table, message.event, message.version === message.table.version);
        break;
      case "also_open":
        // The same seat was opened in another window or device: both stay live.
        this.handlers.onAlsoOpen?.();
        break;
      case "hint":
        this.handlers.onHint?.(message.hints, message.version);
        break;
      case "error": {
        // "replaced": this seat's person left; a computer plays it to the end.
        const fatal = ["no_table", "bad_token", "private", "replaced"].includes(message.code);
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
