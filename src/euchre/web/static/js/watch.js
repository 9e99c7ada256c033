// The watch page, /watch/{id}: a table seen from no seat (a spectator). Before the socket it
// asks the online list how the table stands, so it can say why there is nothing to watch yet:
// closed to spectators, cancelled, not found, or not started (then it offers to wait, and
// starts watching when the game starts: the table's waiting-page socket /ws/online/{id}
// pushes the start, no polling).

import { request } from "./api.js";
import { fill, h } from "./dom.js";
import { openLive } from "./live.js";
import { watchTable } from "./table.js";

export function mountWatch(main, tableId) {
  const page = new WatchPage(main, tableId);
  page.start();
  return () => page.stop();
}

/** The online table as the lobby lists it, or null if no open or recent one has that id.
 * The listing answers 200 either way, so a dead link logs no failed request. */
async function onlineTable(tableId) {
  const listing = await request("GET", `/api/online/${encodeURIComponent(tableId)}/listing`);
  return listing.table;
}

class WatchPage {
  constructor(main, tableId) {
    this.main = main;
    this.tableId = tableId;
    this.stopTable = null;
    this.stopLive = null;
    this.stopped = false;
  }

  async start() {
    this.notice("Looking for the table…", "");
    let table;
    try {
      table = await onlineTable(this.tableId);
    } catch (error) {
      this.notice("Could not reach the server", `${error.message}. Reload the page to try again.`);
      return;
    }
    if (this.stopped) return;
    this.decide(table, true);
  }

  stop() {
    this.stopped = true;
    this.stopLive?.();
    this.stopTable?.();
  }

  /** What to show for the table's listing (null: none listed; the socket has the last word). */
  decide(table, first) {
    if (table?.spectators === false) return this.noSpectators();
    if (table?.status === "cancelled") {
      return this.notice("This table was cancelled", "Its creator cancelled it before the game started.");
    }
    if (table?.status === "open") return first ? this.offerToWait(table) : null;
    return this.watch();
  }

  watch() {
    this.stopLive?.();
    this.stopLive = null;
    this.stopTable?.();
    this.stopTable = watchTable(this.main, this.tableId, (code) => this.gone(code));
  }

  /** The socket refused: no spectators allowed, or no such table (perhaps one not started yet). */
  async gone(code) {
    this.stopTable?.();
    this.stopTable = null;
    if (code === "no_spectators") return this.noSpectators();
    const table = await onlineTable(this.tableId).catch(() => null);
    if (this.stopped) return;
    if (table?.status === "open") return this.offerToWait(table);
    if (table?.status === "started") return this.waitFor(); // it is starting right now
    this.notice("No table here", "There is no table with that id to watch: it may have ended long ago, or the link is wrong.");
  }

  noSpectators() {
    this.notice("This table does not allow spectators", "It cannot be watched: practice tables never can, and the players of an online table may turn spectators off.");
  }

  offerToWait(table) {
    const creator = table.seats?.[0]?.name;
    const taken = table.seats?.filter((s) => s.taken).length ?? 1;
    const button = h("button", { type: "button", onclick: () => this.waitFor() }, "Wait and watch");
    this.notice(
      "This game has not started yet",
      `${creator ? `${creator}'s table` : "The table"} has ${taken} of 4 seats taken. ` +
        "Wait here and watching starts when the game starts.",
      button,
    );
  }

  /** Wait for the start on the table's waiting-page socket, which pushes every change. */
  waitFor() {
    this.notice("Waiting for the game to start…", "This page starts watching as soon as the game starts.");
    this.stopLive?.();
    this.stopLive = openLive(`/ws/online/${encodeURIComponent(this.tableId)}`, (message) => {
      if (this.stopped) return;
      if (message.type === "table" && message.table.status === "open") return;
      this.stopLive?.();
      this.stopLive = null;
      if (message.type === "table") this.decide(message.table, false);
      else if (message.type === "gone") this.watch(); // finished or forgotten: the table's socket knows
    });
  }

  notice(title, text, ...extra) {
    fill(
      this.main,
      h(
        "section",
        { class: "page notice watch-notice" },
        h("h1", {}, title),
        text ? h("p", { role: "status" }, text) : null,
        h("p", { class: "notice-actions" }, ...extra, h("a", { href: "/lobby", class: "button-link" }, "Find another game")),
      ),
    );
  }
}
