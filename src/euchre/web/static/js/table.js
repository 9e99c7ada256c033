// The table page: connects to the table, keeps the latest table object, and redraws.
// Everything shown comes from the server's table object; every move is sent as notation.
// Without a token the same page watches (a spectator, /watch/{id}): no seat, no hand, no
// controls, no hints, no shuffle seeds; seats by name and the score from no side.

import { renderCoinPanel } from "../account/coin-table.js";
import { me as account, setBalance } from "../account/session.js";
import { createPractice } from "./api.js";
import { TableConnection } from "./connection.js";
import { controlButtons, farmerSwapButton, isControlAction } from "./controls.js";
import { fill, h } from "./dom.js";
import { renderHand } from "./hand.js";
import { navigate } from "./nav.js";
import { closedPanel, gameOverPanel, lastTrickPanel, summaryPanel, watchedOverPanel } from "./panels.js";
import { SPEEDS, SPEED_FACTORS, resultHoldMs, setSound, setSpeed, soundOn, speed } from "./prefs.js";
import { scoreBox } from "./score.js";
import { renderPile, renderSeats, renderUpcardNote, seatBoxes } from "./seats.js";
import { commitmentFor, downloadCommitments, downloadRecord, keepCommitments, verifySection } from "./shuffle.js";
import { factRows, hintContent, stripParts } from "./side.js";
import { MY_ACCOUNT, forgetSeat, rememberFinished, rememberSeat, seatToken } from "./storage.js";
import { offerNextSteps } from "./my-games.js";
import { ratingChangeSection } from "./rating-change.js";
import { RematchBox, rematchEventText } from "./rematch.js";
import { playSound, showSoundState } from "./sound.js";
import { TRICK_HOLD_MS, TRICK_SWEEP_MS, currentPlays, lastTrickPlays, renderTrick } from "./trick.js";
import { cardName } from "./cards.js";
import { bidLabel, describeAction, gameOverText, handSummary, position, prompt, seatName, setSeatNames, sideName, sideOf, timedOutText } from "./words.js";
import { firstDrawText, isPlay } from "./law.js";
import { FairDeal } from "./fair-deal.js";
import { recordPracticeGame } from "./my-stats.js";
import { awayLine, awaySeats, leaveGame, leaveQuestion, presenceEventText, stakeLine } from "./presence.js";
import { TALK_CODES, TalkBox } from "./talk.js";

/** Why a practice table nobody played for an hour is closed (server: table/hosting/retire.py). */
const ABANDONED_TEXT = "Nobody played at this table for an hour, so it was put away.";
/** Why a tournament round's table ended after a hand (server: tournaments' ROUND_TIME). */
const ROUND_TIME_TEXT = "The round's time is up: the table ended after the hand in play.";
const ANNOUNCED = 40; // lines kept in the screen reader's log region
/** The felt's banner while the clock plays this person's moves at computer speed (rule 9). */
const CLOCK_PLAYS_TEXT = "The clock is playing for you — make a move to take your seat back";

export function mountTable(main, tableId) {
  const token = seatToken(tableId);
  let page = null;
  let stopped = false;
  const open = (seatToken_) => {
    page = new TablePage(main, tableId, seatToken_, {
      onNotSeated: () => notYours(main, tableId, true),
      onMissing: () => noSuchTable(main),
    });
    page.start();
  };
  if (token) open(token);
  else {
    // No token in this browser: a signed-in person's seat opens with their account.
    fill(main, h("p", { class: "page", role: "status" }, "Finding your seat…"));
    account()
      .catch(() => null)
      .then((who) => {
        if (stopped) return;
        if (who) open(MY_ACCOUNT);
        else whetherTableExists(tableId, (exists) => {
          if (!stopped) (exists ? notYours(main, tableId, false) : noSuchTable(main));
        });
      });
  }
  return () => {
    stopped = true;
    page?.stop();
  };
}

/** No seat here for this browser (or this account): say why, and what to do next. */
function notYours(main, tableId, signedIn) {
  const id = encodeURIComponent(tableId);
  fill(
    main,
    h(
      "section",
      { class: "page notice not-yours" },
      h("h1", {}, "This table is not yours"),
      h("p", {}, signedIn
        ? "Your account has no seat at this table."
        : "This browser holds no seat at that table. If you sat down signed in, sign in here and your seat opens."),
      h("p", { class: "next-steps" },
        signedIn ? null : h("a", { href: "/account", class: "button-link" }, "Sign in"), " ",
        h("a", { href: `/watch/${id}`, class: "button-link" }, "Watch this game"), " ",
        h("a", { href: "/", class: "button-link" }, "Back to the start page")),
    ),
  );
  if (signedIn) offerNextSteps(main.querySelector(".not-yours"));
}

/** Ask the table's socket (as a spectator would) whether `tableId` exists: `then(bool)`.
 * The socket, not the API, so a missing table is no failed request in the console. */
function whetherTableExists(tableId, then) {
  let told = false;
  const tell = (exists) => {
    if (told) return;
    told = true;
    probe.close();
    then(exists);
  };
  const probe = new TableConnection(tableId, null, {
    onTable: () => tell(true),
    onError: (_message, _fatal, code) => tell(code !== "no_table"), // no spectators: it exists
  });
  probe.open();
}

/** A table id that names no table (never made, or long gone). */
function noSuchTable(main) {
  fill(
    main,
    h(
      "section",
      { class: "page notice no-such-table" },
      h("h1", {}, "This table does not exist"),
      h("p", {}, "No table has this address: the link may be mistyped, or the table was put away long ago."),
      h("p", { class: "next-steps" },
        h("a", { href: "/lobby", class: "button-link" }, "Find a game"), " ",
        h("a", { href: "/", class: "button-link" }, "Back to the start page")),
    ),
  );
}

/**
 * Watch a table from no seat in `main`; `onGone(code, message)` is called when the socket
 * says the table cannot be watched ("no_spectators", "no_table"). Returns a function that stops.
 */
export function watchTable(main, tableId, onGone) {
  const page = new TablePage(main, tableId, null, { onGone });
  page.start();
  return () => page.stop();
}

/** "1 spectator" / "3 spectators" (none: ""). */
function spectatorsText(count) {
  return count ? `${count} ${count === 1 ? "spectator" : "spectators"}` : "";
}

class TablePage {
  constructor(main, tableId, token, { onGone = null, onNotSeated = null, onMissing = null } = {}) {
    this.main = main;
    this.tableId = tableId;
    this.token = token;
    this.left = null; // once this person left the game (online tables): what it cost
    this.away = []; // people away: [{seat, ends}]
    this.awayTimer = null;
    this.watching = token === null; // a spectator: no seat, nothing to send but the watch
    this.onGone = onGone;
    this.table = null; // the latest TABLE object (folded by the connection)
    this.pending = false; // a move was sent and not yet answered
    this.showLastTrick = false;
    this.hints = null; // null, "thinking", or the list of hints for the decision in hintFor
    this.hintFor = null;
    this.picked = new Set(); // cards chosen for a farmer's swap
    this.handKey = null;
    this.timedOut = new Map(); // "hand:history index" -> the sentence for a move the clock made
    this.announcedTurn = null;
    this.focusedGameOver = false;
    this.dismissedSummary = null;
    this.closedReason = null;
    this.message = "";
    this.error = "";
    this.fatal = false;
    this.clockTimer = null;
    // The result of a hand holds the display (`held`) until Continue or its time is up;
    // what arrives meanwhile waits in `queue` and is shown after it, in order.
    this.held = null; // {hand, timer}
    this.heldHand = null; // the last hand whose result was held
    this.overSettling = null; // the game just ended: its last trick settles before the panel
    this.queue = [];
    this.receivedAt = Date.now(); // when the table drawn now arrived (for the clocks)
    this.connection = new TableConnection(tableId, token, {
      onTable: (table, event) => this.receive(table, event),
      onHint: (hints, version) => this.showHints(hints, version),
      // A seed refused (sent too late for its hand) is not the player's doing: the hand's
      // check reports it. Other refusals are shown.
      onError: (message, fatal, code) => {
        if (code === "bad_seed") this.fairDeal?.refused();
        else if (TALK_CODES.includes(code)) this.talk.refused(message); // beside the row: no page error
        else if (code === "bad_token" && token === MY_ACCOUNT && onNotSeated && !this.table) onNotSeated();
        else if (code === "no_table" && !this.watching && onMissing && !this.table) onMissing();
        else if (this.watching && this.onGone && (code === "no_spectators" || code === "no_table")) this.onGone(code, message);
        else this.showError(message, fatal);
      },
      onState: (state) => this.setConnected(state === "open"),
      onAlsoOpen: () => {
        this.alsoOpenBox.hidden = false;
      },
    });
    // This browser's seed in every deal, and its own check of each finished hand (a
    // spectator has no seed to give: the people at the table make the deal).
    this.fairDeal = this.watching ? null : new FairDeal(tableId, (message) => this.connection.send(message), () => this.table && this.render());
    this.build();
  }

  start() {
    this.connection.open();
  }

  stop() {
    this.talk.stop();
    clearTimeout(this.held?.timer);
    this.rematchBox?.stop();
    this.connection.close();
    clearInterval(this.clockTimer);
    clearInterval(this.awayTimer);
    setSeatNames(null); // the next page starts from positions
  }

  /** The viewer's seat (it sits South); null for a spectator (seat 0 South, no "You"). */
  get me() {
    if (this.watching) return null;
    return this.table ? (this.table.seat ?? this.table.view?.seat ?? 0) : 0;
  }

  get gameId() {
    return this.tableId; // the game id is the table id
  }

  /** Which decision of the game we are at (hints belong to one decision). */
  get decision() {
    const view = this.table?.view;
    return view ? `${this.table.hand_number}:${view.history.length}` : null;
  }

  // ---- layout, built once -------------------------------------------------------------------

  build() {
    // The visible line says what just happened and whose turn it is; screen readers hear
    // every event, in order, from the log region below (so the status itself is not live).
    this.status = h("p", { class: "status", role: "status", "aria-live": "off" }, this.watching ? "Connecting to the table…" : "Joining the table…");
    // How many watch: told to the players and to the spectators themselves.
    this.watchers = h("p", { class: "watchers", "aria-live": "polite", hidden: true });
    this.announcer = h("div", { class: "visually-hidden", role: "log", "aria-live": "polite", "aria-relevant": "additions", "aria-label": "Table announcements" });
    this.errorBox = h("p", { class: "error", role: "alert", hidden: true });
    // A one-line score for small screens, where the side panel sits below the table.
    this.strip = h("p", { class: "score-strip", "aria-hidden": "true" });

    this.seats = seatBoxes();
    this.pile = h("div", { class: "pile" });
    this.trick = h("div", { class: "trick", role: "group", "aria-label": "The trick" });
    this.overlay = h("div", { class: "centre-overlay" });
    this.upcardNote = h("p", { class: "upcard-note", hidden: true });
    // On the felt, while the clock plays this person's moves at computer speed (rule 9).
    this.clockBanner = h("p", { class: "clock-banner", hidden: true }, CLOCK_PLAYS_TEXT);
    this.clockPlaysForMe = false;
    const felt = h(
      "section",
      { class: "felt", "aria-label": "The table" },
      this.seats.north.box,
      this.seats.west.box,
      h("div", { class: "centre" }, this.pile, this.trick),
      this.seats.east.box,
      this.seats.south.box,
      this.upcardNote,
      this.clockBanner,
      this.overlay,
    );
    this.prompt = h("p", { class: "prompt" });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your choices" });
    this.controls = h("section", { class: "controls", "aria-label": "Your move" }, this.prompt, this.actions);
    // tabindex -1: after a move the focus waits on the hand itself, not the page, so the
    // arrow keys and Tab go on from there.
    this.hand = h("div", { class: "hand", role: "group", "aria-label": "Your hand", tabindex: "-1" });
    this.hand.addEventListener("keydown", (event) => arrowKeys(event, this.hand, ".card-button"));
    this.actions.addEventListener("keydown", (event) => arrowKeys(event, this.actions, "button"));

    const tool = (label, key, onclick) => h("button", { type: "button", class: "tool", dataset: { key }, onclick }, label);
    this.hintButton = tool("Hint", "tool:hint", () => this.askHint());
    this.lastTrickButton = tool("Last trick", "tool:last", () => this.toggleLastTrick());
    this.lastTrickButton.setAttribute("aria-expanded", "false");
    this.soundButton = tool("Sound", "tool:sound", () => this.toggleSound());
    // The speed, changed at any time: the computers' pace at a practice table, and how long
    // a hand's result holds the display everywhere (remembered in this browser).
    this.speedSelect = h(
      "select",
      { id: "table-speed", class: "speed-select", dataset: { key: "tool:speed" }, onchange: (event) => this.changeSpeed(event.target.value) },
      SPEEDS.map(([name, label]) => h("option", { value: name }, label)),
    );
    this.speedSelect.value = speed();
    this.speedTool = h("span", { class: "speed-tool" }, h("label", { for: "table-speed" }, "Speed"), this.speedSelect);
    showSoundState(this.soundButton, soundOn());
    // Online tables: leave a started game (a computer plays the seat to the end).
    // In the toolbar only while there is a game to leave.
    this.leaveButton = tool("Leave", "tool:leave", () => this.leaveGame());
    this.leaveButton.classList.add("game-leave");
    // Who is away, with the time before a computer takes their seat ("Ann is away — 0:42").
    this.awayBox = h("p", { class: "away-line", hidden: true });
    // Told when this seat opens in another window or device (both stay live, as on Lichess).
    this.alsoOpenBox = h("p", { class: "also-open", role: "status", hidden: true },
      "Your seat is also open in another window or device: moves from either count.");
    this.bidsBox = h("ol", { class: "bids" });
    this.clock = h("p", { class: "clock", hidden: true });
    this.coinSlot = h("section", { class: "coin-slot", "aria-label": "Coins", hidden: true });
    this.scoreSlot = h("div", { class: "score-slot" });
    this.facts = h("dl", { class: "facts" });
    this.hintPanel = h("section", { class: "hints", "aria-label": "Hints", "aria-live": "polite", hidden: true });
    this.phoneHint = h("section", { class: "phone-hint", "aria-label": "Hints", "aria-live": "polite", hidden: true });
    // A box of its own that scrolls (focusable, so a keyboard can scroll it too): beside the
    // felt the newest lines stay in view under the score however long the hand's log is.
    this.logList = h("ol", { class: "log", tabindex: "0", "aria-label": "This hand's moves" });
    // The hand's shuffle commitment, kept in this browser to check the deals after the game.
    this.commitmentLine = h("p", { class: "commitment-line" });
    this.verdictLine = h("p", { class: "shuffle-verdict", "aria-live": "polite" });
    this.shuffleBox = h(
      "section",
      { class: "shuffle-box", "aria-label": "Shuffle commitment", hidden: true },
      this.commitmentLine,
      this.verdictLine,
      tool("Save commitments", "tool:commitments", () => downloadCommitments(this.gameId)),
    );
    const watching = this.watching;
    // Quick messages between hands (online tables): the row, a short log, mute controls.
    this.talk = new TalkBox(this.tableId, { watching, send: (message) => this.connection.send(message), seats: this.seats });
    const side = h(
      "aside",
      { class: "side" },
      watching ? null : this.coinSlot,
      this.scoreSlot,
      this.facts,
      watching ? null : this.hintPanel,
      h("section", { class: "bids-box", "aria-label": "Bidding" }, h("h2", {}, "Bidding"), this.bidsBox),
      h("section", { class: "log-box", "aria-label": "What happened" }, h("h2", {}, "This hand"), this.logList),
      h(
        "div",
        { class: "tools" },
        h("a", { class: "tool", href: `/rules?table=${encodeURIComponent(this.tableId)}` }, "Rules"),
        h("a", { class: "tool", href: "/learn" }, "Strategy guide"),
        watching ? null : tool("Download record", "tool:record", () => this.downloadRecord()),
      ),
      watching ? null : this.shuffleBox,
    );
    // The tools used while playing sit above the felt, in view at every size (a spectator
    // gets no hint: it has no move to make).
    this.toolbar = h("div", { class: "table-tools", role: "group", "aria-label": "Table tools" }, watching ? null : this.hintButton, this.lastTrickButton, this.soundButton, this.speedTool);
    this.page = h(
      "div",
      { class: `table-page${watching ? " watching" : ""}` },
      h(
        "div",
        { class: "play-area" },
        h("h1", { class: "visually-hidden" }, watching ? "Watching a table" : "Your table"),
        h("div", { class: "status-row" }, this.status, this.strip, this.watchers, this.toolbar),
        this.clock,
        this.awayBox,
        this.alsoOpenBox,
        this.errorBox,
        felt,
        watching ? null : this.phoneHint,
        watching ? null : this.controls,
        watching ? null : this.hand,
        this.talk.element,
        this.announcer,
      ),
      side,
    );
    fill(this.main, this.page);
  }

  // ---- incoming ------------------------------------------------------------------------------

  /** A message from the table: drawn now, or kept until a hand's result is read. */
  receive(table, event) {
    // A quick message shows at once, even while a hand's result holds the display; the row
    // follows the latest table (disabled as soon as the next deal comes).
    const me = this.watching ? null : table.seat ?? table.view?.seat ?? 0;
    if (event?.kind === "say") this.talk.heard(event, table, me);
    this.renderTalk(table, me);
    const item = { table, event, at: Date.now() };
    if (this.held || this.queue.length) this.queue.push(item);
    else this.update(table, event, item.at);
  }

  /** How long a hand's result holds this page (ms): the table's speed at practice tables. */
  get resultHold() {
    const practice = this.table?.kind === "practice";
    return resultHoldMs(practice ? this.table.extra?.speed ?? "normal" : speed());
  }

  /** Hold the display on the result of the hand just over (once per hand). */
  holdResult(table) {
    const summary = table.summary;
    const view = table.view;
    if (!summary || !view || view.phase !== "over" || table.game_over || table.closed || this.closedReason || this.left) return;
    if (this.heldHand === summary.hand_number || summary.hand_number !== table.hand_number) return;
    this.heldHand = summary.hand_number;
    // The final trick settles (lingers, then sweeps) before the result is shown over it.
    this.held = { hand: summary.hand_number, shownAt: null, timer: setTimeout(() => this.showResult(), this.settleMs) };
  }

  /** How long the last trick of a hand takes to settle: its linger, then its sweep. */
  get settleMs() {
    return this.trickHold + TRICK_SWEEP_MS;
  }

  /** Show the held result, in view; its hold counts from the frame it is first painted in. */
  showResult() {
    const held = this.held;
    if (!held || held.shownAt !== null) return;
    held.shownAt = 0; // drawn, not yet painted
    this.render();
    const panel = this.overlay.querySelector(".summary-panel");
    if (panel) scrollToSee(panel);
    requestAnimationFrame(() => {
      if (this.held !== held) return;
      held.shownAt = performance.now();
      if (panel) panel.dataset.shownAt = String(held.shownAt);
      held.timer = setTimeout(() => this.release(), this.resultHold);
    });
  }

  /** The result was read (Continue, or its time is up): tell the table, show what waited. */
  release() {
    if (!this.held) return;
    clearTimeout(this.held.timer);
    const hand = this.held.hand;
    this.held = null;
    this.dismissedSummary = hand;
    const hadFocus = this.overlay.contains(document.activeElement);
    if (!this.watching && !this.fatal) this.connection.send({ type: "continue", hand_number: hand });
    while (this.queue.length && !this.held) {
      const { table, event, at } = this.queue.shift();
      this.update(table, event, at);
    }
    this.render();
    // Continue pressed from the keyboard: the focus goes back to the hand, not the page.
    if (hadFocus && !this.overlay.contains(document.activeElement)) this.focusHand();
  }

  /** Put the focus on the first choice if there is one, else on the hand itself. */
  focusHand() {
    const first = this.actions.querySelector("button:not([disabled])") || this.hand.querySelector("button:not([disabled])");
    (first ?? this.handPlace).focus({ preventScroll: true });
  }

  /** The hand, or while no hand is in play at an online table the quick messages in its place. */
  get handPlace() {
    if (!this.hand.classList.contains("talk-open")) return this.hand;
    return this.talk.element.querySelector("button:not([disabled])") ?? this.hand;
  }

  /** Choose the speed at the table (kept for the next tables too). */
  changeSpeed(name) {
    setSpeed(name);
    if (this.table?.kind === "practice" && !this.watching) {
      this.connection.send({ type: "pace", speed: name });
      this.table = { ...this.table, extra: { ...this.table.extra, speed: name } };
    }
  }

  update(table, event, at = Date.now()) {
    const previous = this.table;
    if (!this.watching) keepCommitments(this.tableId, table, event);
    setSeatNames(table.seats);
    if (event) {
      const line = this.describeEvent(event, table);
      if (line) {
        this.message = line;
        this.announce(line);
      }
      this.soundFor(event, table);
    }
    // One event, one render (the connection folded the event into the table).
    for (const i of table.clock_played ?? []) {  // a snapshot: moves the clock played
      const [seat, action] = table.view?.history?.[i] ?? [];
      if (seat !== undefined) this.timedOut.set(`${table.hand_number}:${i}`, timedOutText(seat, action, this.watching ? null : table.seat ?? table.view?.seat ?? 0, table.view));
    }
    this.table = table;
    this.receivedAt = at;
    this.rematchBox?.update(table.rematch, at, table.seats);
    this.away = awaySeats(table, at);
    this.pending = false;
    this.error = "";
    this.fairDeal?.update(table, table.seat);
    const view = table.view;
    const me = this.me;
    if (!event && !previous) {
      // A table drawn anew (a reload): the status line starts from the last move, as the
      // log's last line says it (a card table law 11 hides is not one: it is never last).
      const [seat, action] = view?.history?.at(-1) ?? [];
      this.message = seat === undefined || action === "play" ? "" : describeAction(seat, action, me, view);
    }
    if (view && me !== null && view.to_act === me && !table.game_over && !table.closed && !this.closedReason) {
      const decision = this.decision;
      if (this.announcedTurn !== decision) {
        this.announcedTurn = decision;
        this.announce(prompt(view, me));
        if (event) playSound("turn");
        if (table.extra?.example && table.kind === "practice") this.autoHint = decision;
      }
    }
    if (table.game_over && previous && !previous.game_over) {
      // The last trick settles before the game's end is shown over it.
      this.overSettling = setTimeout(() => {
        this.overSettling = null;
        this.render();
      }, this.settleMs);
    }
    if (table.game_over && !previous?.game_over && !this.watching) {
      rememberFinished(this.gameId, table.score, table.winner, me);
      if (table.kind === "practice") recordPracticeGame(this.gameId, me).catch(() => {}); // this browser's statistics
    }
    if (this.hintFor !== this.decision) {
      this.hints = null;
      this.hintFor = null;
    }
    if (!view || view.phase !== "farmer") this.picked.clear();
    if (view && !view.last_trick) this.showLastTrick = false;
    // A hand's result holds the display: nothing of the next deal is shown behind it.
    this.holdResult(table);
    this.render();
  }

  describeEvent(event, table) {
    const me = this.me;
    switch (event.kind) {
      case "deal":
        return `${seatName(event.dealer, me)} ${event.dealer === me ? "deal" : "deals"} hand ${event.hand_number}.`;
      case "action": {
        if (event.timed_out) {
          const line = timedOutText(event.seat, event.action, me, table.view);
          const history = table.view?.history ?? [];
          this.timedOut.set(`${table.hand_number}:${history.length - 1}`, line);
          return line;
        }
        return describeAction(event.seat, event.action, me, table.view);
      }
      case "trick":
        return `${seatName(event.winner, me)} ${event.winner === me ? "win" : "wins"} the trick.`;
      case "hand_over": {
        const summary = event.summary ?? table.summary;
        if (!summary) return "The hand is over.";
        const words = handSummary(summary, me);
        const score = event.score ?? summary.score;
        const mine = sideOf(me ?? 0);
        const us = me === null ? `${sideName(0, me)} ${score?.[0]}, ${sideName(1, me)} ${score?.[1]}` : `us ${score?.[mine]}, them ${score?.[1 - mine]}`;
        const line = score ? ` Score: ${us}.` : "";
        return `${words.headline} ${words.detail}${line}`.trim();
      }
      case "game_over":
        return gameOverText(event.winner ?? table.winner, table.score, me);
      case "closed":
        this.closedReason = event.reason ?? "closed";
        if (event.reason === "abandoned") return ABANDONED_TEXT;
        if (event.reason === "round_time") return ROUND_TIME_TEXT;
        return event.reason === "left" ? "You left the table; it is closed." : "The table was closed.";
      case "replaced":
        if (event.seat === me && !this.left) this.left = { reason: event.reason };
        return presenceEventText(event, me);
      case "rematch":
        return rematchEventText(event, table.rematch, me);
      default:
        return presenceEventText(event, me) ?? "";
    }
  }

  /** Add a line to the screen reader's log region (every line is read, in order). */
  announce(line) {
    if (!line) return;
    this.announcer.append(h("p", {}, line));
    while (this.announcer.childElementCount > ANNOUNCED) this.announcer.firstElementChild.remove();
  }

  soundFor(event, table) {
    if (event.kind === "deal") playSound("deal");
    else if (event.kind === "action" && String(event.action).startsWith("play")) playSound("play");
    else if (event.kind === "trick") setTimeout(() => playSound("trick"), 250);
  }

  /**
   * This hand's log, rebuilt from the view: the deal, every bid, and the cards of the
   * current and the last completed trick only (table law 11: earlier tricks' cards are
   * not shown again, just who won them). Entries are {text, play}; a play names a card.
   */
  handLog(view) {
    const me = this.me;
    const hand = this.table.hand_number;
    const lines = [];
    // In hand 1 the log opens with how the first dealer was found (doc 002 deal rule 1).
    if (hand === 1) lines.push(firstDrawText(this.table.first_draw, me));
    lines.push(`${seatName(view.dealer, me)} ${view.dealer === me ? "deal" : "deals"} hand ${hand}.`);
    const tricks = [];
    const leaders = []; // who led each trick (seats stay in the history when cards do not)
    let current = [];
    view.history.forEach(([seat, action], i) => {
      if (!isPlay(action)) {
        lines.push(this.timedOut.get(`${hand}:${i}`) ?? describeAction(seat, action, me, view));
        return;
      }
      if (!current.length) leaders.push(seat);
      // A play shown only as "play" is one table law 11 keeps from view: counted, not listed.
      current.push(action === "play" ? null : { text: this.timedOut.get(`${hand}:${i}`) ?? describeAction(seat, action, me, view), play: true });
      if (current.length === 4 - view.sitting_out.length) {
        tricks.push(current);
        current = [];
      }
    });
    const winners = this.trickWinners(view, tricks.length, leaders);
    tricks.forEach((plays, i) => {
      const won = winners[i] === undefined ? "" : ` ${seatName(winners[i], me)} ${winners[i] === me ? "win" : "wins"} it.`;
      const shown = plays.filter(Boolean);
      if (i < tricks.length - 1 || !shown.length) lines.push(`Trick ${i + 1}:${won || " played."}`);
      else lines.push(`Trick ${i + 1}, the last one played:`, ...shown, won.trim());
    });
    if (current.length) lines.push(`Trick ${tricks.length + 1}:`, ...current.filter(Boolean));
    return lines.filter(Boolean).map((line) => (typeof line === "string" ? { text: line, play: false } : line));
  }

  /**
   * Who won each of the `count` completed tricks: the winner leads the next one, so every
   * trick but the last is read from `leaders` (who led each, from the history: a table
   * drawn anew after a reload has them too), the last from the view's last trick while it
   * is on view (table law 11 shows it until the next lead, which `leaders` then has).
   */
  trickWinners(view, count, leaders) {
    const winners = leaders.slice(1, count + 1);
    if (view.last_trick && count) winners[count - 1] = view.last_trick.winner;
    return winners;
  }

  showHints(hints, version) {
    if (version !== undefined && this.table && version !== this.table.version) return;
    this.hints = hints;
    this.hintFor = this.decision;
    this.renderHints();
  }

  toggleSound() {
    setSound(!soundOn());
    showSoundState(this.soundButton, soundOn());
    if (soundOn()) playSound("turn");
  }

  /** How long a finished trick stays before it sweeps: the table's speed scales it. */
  get trickHold() {
    const factor = this.table?.kind === "practice" ? SPEED_FACTORS[this.table?.extra?.speed ?? "normal"] ?? 1 : 1;
    return TRICK_HOLD_MS * factor;
  }

  showError(message, fatal) {
    this.pending = false;
    if (this.hints === "thinking") this.hints = null;
    this.error = message;
    if (fatal) {
      this.fatal = true;
      forgetSeat(this.tableId);
      this.connection.close();
    }
    this.render();
  }

  setConnected(open) {
    this.page.classList.toggle("offline", !open);
    if (!open && !this.connection.closed) {
      this.status.textContent = "The connection dropped: reconnecting…";
    }
  }

  // ---- outgoing ------------------------------------------------------------------------------

  act(action) {
    if (this.pending) return;
    if (this.connection.act(action)) {
      this.pending = true;
      this.clockPlaysForMe = false; // their own move: the seat is theirs again
      this.picked.clear();
      this.hints = null;
      this.render();
    } else {
      this.showError("Not connected to the table. Reconnecting…", false);
    }
  }

  onCard(card) {
    const view = this.table?.view;
    if (!view || this.pending) return;
    if (view.legal.some((a) => a.startsWith("farmer swap "))) {
      if (this.picked.has(card)) this.picked.delete(card);
      else if (this.picked.size < 3) this.picked.add(card);
      this.render();
      return;
    }
    const action = view.legal.find((a) => a === `play ${card}` || a === `discard ${card}`);
    if (action) this.act(action);
  }

  askHint() {
    if (!this.connection.askHint()) return;
    this.hints = "thinking";
    this.hintFor = this.decision;
    this.renderHints();
  }

  toggleLastTrick() {
    this.showLastTrick = !this.showLastTrick;
    this.render();
  }

  async downloadRecord() {
    try {
      await downloadRecord(this.gameId);
    } catch (error) {
      this.showError(error.message, false);
    }
  }

  /** A new practice table with this table's rules and computer players. */
  async playAgain() {
    const seats = this.table.seats || [];
    const level = (seat) => seats.find((s) => s.seat === seat)?.level ?? undefined;
    const me = this.me;
    try {
      const seat = await createPractice({
        preset: this.table.preset ?? "classic",
        rules: this.table.rules ?? {},
        partner: level((me + 2) % 4),
        left: level((me + 1) % 4),
        right: level((me + 3) % 4),
        speed: speed(),
      });
      rememberSeat(seat.id, seat.token);
      navigate(`/table/${encodeURIComponent(seat.id)}`);
    } catch (error) {
      this.showError(`Could not start a new table: ${error.message}`, false);
    }
  }

  // ---- drawing -------------------------------------------------------------------------------

  render() {
    this.renderError();
    const table = this.table;
    if (!table) return;
    const active = document.activeElement;
    const focusKey = active?.dataset?.key;
    const focusInPlay = this.actions.contains(active) || this.hand.contains(active);
    const view = table.view;
    const me = this.me;

    this.renderStatus();
    this.renderClock();
    if (this.watching) {
      // a spectator sees no coin panel
    } else if (table.kind === "online") this.renderStake(table);
    else renderCoinPanel(this.coinSlot, table);
    this.scoreSlot.replaceChildren(scoreBox(table.score, me, table.rules?.game_to ?? 10, table.rules?.hands_limit ?? 0));
    fill(this.strip, stripParts(table.score, view, me));
    if (view) {
      const over = table.game_over || table.closed || this.closedReason;
      renderSeats(this.seats, over ? { ...view, to_act: null } : view, table, me);
      renderPile(this.pile, view, table.hand_number, me);
      renderUpcardNote(this.upcardNote, view, me);
      this.renderBids(view);
      this.renderTrick(view);
      if (!this.watching) this.renderControls(view);
      fill(this.facts, factRows(view, table.hand_number, me));
    } else {
      fill(this.actions);
      fill(this.hand);
    }
    this.renderOverlay(view);
    this.renderAway(); // after the seats: it counts down on their marks too
    this.renderTools(view);
    this.renderTalk(this.connection.table ?? table, me);
    const shownSpeed = table.kind === "practice" ? table.extra?.speed ?? "normal" : speed();
    if (this.speedSelect.value !== shownSpeed && document.activeElement !== this.speedSelect) this.speedSelect.value = shownSpeed;
    if (!this.watching) {
      this.renderShuffle();
      this.renderHints();
    }
    fill(this.logList, view ? this.handLog(view).map((entry) => h("li", { class: entry.play ? "log-play" : null }, entry.text)) : []);
    this.logList.scrollTop = this.logList.scrollHeight; // the newest line in view
    if (this.autoHint && this.autoHint === this.decision && !this.hints && !this.pending) {
      this.autoHint = null;
      this.askHint(); // example hands from the guide play with hints on
    }

    // Keep keyboard focus steady across redraws; when it becomes our turn, go to the first choice.
    const again = focusKey ? this.main.querySelector(`[data-key="${CSS.escape(focusKey)}"]:not([disabled])`) : null;
    const unplaced = focusInPlay || active === document.body || active === this.main;
    const overHeading = table.game_over && !this.focusedGameOver ? this.overlay.querySelector(".game-over-panel h2") : null;
    if (overHeading) {
      // The game is over: the panel takes the focus once, so its choices come next, and
      // comes into view however the page was scrolled.
      this.focusedGameOver = true;
      overHeading.setAttribute("tabindex", "-1");
      overHeading.focus({ preventScroll: true });
      scrollToSee(overHeading.closest(".panel") ?? overHeading);
    } else if (again) {
      again.focus({ preventScroll: true });
    } else if (this.held && (focusInPlay || unplaced)) {
      // The hand is over: its result's Continue takes the focus from the hand.
      this.overlay.querySelector(".summary-panel .panel-close")?.focus({ preventScroll: true });
    } else if (unplaced && view && me !== null && view.to_act === me && !this.pending && !this.held) {
      this.focusHand();
    } else if (focusInPlay && !this.main.contains(document.activeElement)) {
      // The card or bid just chosen is gone: the focus waits on the hand, not the page.
      const close = this.overlay.querySelector(".summary-panel .panel-close");
      (close ?? this.handPlace).focus({ preventScroll: true });
    }
  }

  renderError() {
    this.errorBox.hidden = !this.error;
    fill(this.errorBox, this.error, this.fatal ? [" ", h("a", { href: this.watching ? "/lobby" : "/" }, this.watching ? "Find another game" : "Start a new table")] : null);
  }

  renderStatus() {
    const table = this.table;
    const view = table.view;
    const me = this.me;
    let text;
    if (table.game_over) {
      text = gameOverText(table.winner, table.score, me);
    } else if (this.left) {
      text = this.leftText();
    } else if (table.closed || this.closedReason) {
      // A closed table asks nobody to move: the reason only, no prompt.
      const reason = this.closedReason ?? table.closed;
      if (reason === "left") text = "You left the table; it is closed.";
      else if (reason === "abandoned") text = ABANDONED_TEXT;
      else if (reason === "round_time") text = ROUND_TIME_TEXT;
      else text = "The table was closed.";
    } else if (!view) {
      text = "Waiting for the deal…";
    } else {
      text = [this.message, this.pending ? "" : prompt(view, me)].filter(Boolean).join(" ");
    }
    if (this.watching && table.game_over) text = `The game is over: ${text}`;
    if (this.status.textContent !== text) this.status.textContent = text;
    const yourTurn = Boolean(view && me !== null && view.to_act === me && !table.game_over && !table.closed && !this.closedReason && !this.left);
    this.status.classList.toggle("your-turn", yourTurn);
    document.title = this.watching ? "Watching · Euchre" : yourTurn ? "Your turn · Euchre" : "Euchre: your table";
    const watchers = spectatorsText(table.spectators ?? 0);
    const count = this.watching ? `Watching · ${watchers || "1 spectator"}` : watchers ? `${watchers} watching` : "";
    this.watchers.hidden = !count;
    if (this.watchers.textContent !== count) this.watchers.textContent = count;
  }

  renderClock() {
    const clock = this.table.closed || this.closedReason || this.left ? null : this.table.clock;
    // The banner holds between this person's moves: it goes with their own move (act) or a
    // clock of theirs back at full speed.
    if (clock && clock.seat === this.me && !this.watching) {
      if (clock.computer_speed && !this.clockPlaysForMe) this.announce(CLOCK_PLAYS_TEXT);
      this.clockPlaysForMe = Boolean(clock.computer_speed);
    }
    if (this.table.game_over || !clock && (this.table.closed || this.closedReason || this.left)) this.clockPlaysForMe = false;
    this.clockBanner.hidden = !this.clockPlaysForMe;
    clearInterval(this.clockTimer);
    this.clock.hidden = !clock;
    for (const seat of Object.values(this.seats)) seat.clock.hidden = true;
    if (!clock) return;
    const ends = this.receivedAt + clock.deadline_ms_left; // shown late after a held result
    const who = clock.seat === this.me ? "Your" : `${seatName(clock.seat, this.me)}'s`;
    // Everyone sees the clock of whoever is to move, above the felt and at that seat.
    const seatClock = this.seats[position(clock.seat, this.me)].clock;
    seatClock.hidden = false;
    let warned = false;
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      this.clock.textContent = `${who} clock: ${time}`;
      seatClock.textContent = time;
      const low = left <= 10;
      this.clock.classList.toggle("low", low);
      seatClock.classList.toggle("low", low);
      if (low && !warned && clock.seat === this.me) {
        warned = true;
        playSound("low");
        this.announce(`Your clock: ${left} seconds left.`);
      }
    };
    tick();
    this.clockTimer = setInterval(tick, 250);
  }

  /** The trick in progress, or the one just completed (it sweeps to its winner). */
  renderTrick(view) {
    const me = this.me;
    if (view.trick.length) {
      renderTrick(this.trick, currentPlays(view), null, me);
    } else if (view.last_trick) {
      const last = lastTrickPlays(view);
      renderTrick(this.trick, last.plays, last.winner, me, { gather: true, hold: this.trickHold });
    } else {
      renderTrick(this.trick, [], null, me);
    }
  }

  /** At most one panel over the felt: game over, table closed, hand summary, or last trick. */
  renderOverlay(view) {
    const table = this.table;
    const me = this.me;
    let panel = null;
    // The game-over panel is drawn once: redrawing it would take the focus away from it.
    if (table.game_over && this.overlay.querySelector(".game-over-panel")) return;
    const over = table.game_over && !this.overSettling;
    if (table.game_over && !over) {
      // the last trick is settling: nothing over it yet
    } else if (table.game_over && this.watching) {
      panel = watchedOverPanel(table, `/replay/${encodeURIComponent(this.gameId)}`);
    } else if (table.game_over) {
      panel = gameOverPanel(table, me, {
        replayUrl: `/replay/${encodeURIComponent(this.gameId)}`,
        onAgain: () => this.playAgain(),
        verify: verifySection(this.gameId, { onRecord: () => this.downloadRecord(), keyPrefix: "panel" }),
      });
      this.mountRematch(panel);
    }
    // A rated game's panel shows each person's rating before and after.
    if (panel && table.game_over && table.extra?.rated) {
      panel.insertBefore(ratingChangeSection(this.gameId, this.watching ? null : me), panel.querySelector(".panel-actions"));
    } else if (this.closedReason || table.closed) {
      const why = this.closedReason ?? table.closed;
      panel = closedPanel(why === "abandoned" ? ABANDONED_TEXT : why === "round_time" ? ROUND_TIME_TEXT : null);
    } else if (view && this.summaryToShow(view)) {
      panel = summaryPanel(table.summary, me, () => this.release());
    } else if (view && this.showLastTrick && view.last_trick) {
      panel = lastTrickPanel(view, me, () => this.toggleLastTrick());
    }
    fill(this.overlay, panel);
    this.overlay.classList.toggle("game-over", Boolean(over));
    this.page.classList.toggle("game-over", Boolean(over));
  }

  /** At an online table, the game-over panel offers a rematch (rematch.js). */
  mountRematch(panel) {
    if (this.table.kind !== "online" || this.left || this.me === null) return;
    this.rematchBox?.stop();
    this.rematchBox = new RematchBox(this.me, (message) => this.connection.send(message), (id) => this.followRematch(id));
    this.rematchBox.mount(panel);
    this.rematchBox.update(this.table.rematch, this.receivedAt, this.table.seats);
  }

  /** Everyone accepted the rematch: this seat's token opens the person's seat there. */
  followRematch(tableId) {
    if (this.token) rememberSeat(tableId, this.token);
    navigate(`/table/${encodeURIComponent(tableId)}`);
  }

  /** The last hand's result shows while it holds the table. */
  summaryToShow() {
    const summary = this.table.summary;
    return Boolean(summary && this.held && this.held.shownAt !== null && this.held.hand === summary.hand_number);
  }

  renderControls(view) {
    const me = this.me;
    const mine = me !== null && view.to_act === me && !this.table.game_over && !this.table.closed && !this.closedReason && !this.left;
    const legal = mine ? view.legal : [];
    const swaps = legal.filter((a) => a.startsWith("farmer swap "));
    const buttons = controlButtons(legal.filter(isControlAction), (a) => this.act(a));
    if (swaps.length) buttons.splice(1, 0, farmerSwapButton(swaps, this.picked, (a) => this.act(a)));
    fill(this.actions, buttons);
    if (this.pending) for (const b of this.actions.querySelectorAll("button")) b.disabled = true;
    this.prompt.textContent = mine && !this.pending ? prompt(view, me) : "";

    const cardActions = new Map();
    if (!this.pending) {
      for (const action of legal) {
        const [kind, card] = action.split(" ");
        if (kind === "play" || kind === "discard") cardActions.set(card, action);
      }
    }
    const handKey = `${this.table.hand_number}:${view.dealer}`;
    const deal = this.handKey !== handKey;
    this.handKey = handKey;
    const discarding = view.phase === "discard" && mine;
    renderHand(this.hand, view.hand, cardActions, {
      picking: swaps.length > 0 && !this.pending,
      picked: this.picked,
      deal,
      fresh: discarding ? new Set([view.upcard]) : null,
      onCard: (card) => this.onCard(card),
    });
    this.hand.classList.toggle("discarding", discarding);
    this.hand.classList.toggle("choosing", cardActions.size > 0);
    this.hand.classList.toggle("sitting-out", view.sitting_out.includes(me));
  }

  renderTools(view) {
    const mine = Boolean(view && this.me !== null && view.to_act === this.me && !this.table.game_over && view.legal.length);
    // No hints at coin and online tables (the server refuses them there): they are for practice.
    const noHints = this.watching || ["coin", "online"].includes(this.table?.kind);
    this.hintButton.hidden = noHints;
    this.hintButton.disabled = noHints || !mine || this.pending;
    const started = this.table?.kind === "online" && !this.table.game_over && !this.table.closed && !this.watching;
    const leavable = started && !this.left && !this.fatal;
    if (leavable && !this.leaveButton.isConnected) this.toolbar.append(this.leaveButton);
    else if (!leavable && this.leaveButton.isConnected) this.leaveButton.remove();
    const last = Boolean(view && view.last_trick);
    this.lastTrickButton.disabled = !last;
    this.lastTrickButton.setAttribute("aria-expanded", String(this.showLastTrick && last));
  }

  /** The quick messages (online tables), from the latest table the socket folded: while no
   * hand is in play they take the hand's place below the felt (the hand is empty then). */
  renderTalk(latest, me) {
    const open = this.talk.render(latest, me, { gone: Boolean(this.left || this.fatal) });
    this.hand.classList.toggle("talk-open", open);
  }

  /** Who is away, counting down to the moment a computer takes their seat. */
  renderAway() {
    clearInterval(this.awayTimer);
    const away = this.left ? [] : this.away;
    this.awayBox.hidden = !away.length;
    if (!away.length) return;
    const tick = () => {
      const now = Date.now();
      const text = `${awayLine(away, this.me, now)} (then a computer plays the seat to the end)`;
      if (this.awayBox.textContent !== text) this.awayBox.textContent = text;
      for (const mark of this.main.querySelectorAll(".seat-away")) {
        const entry = away.find((a) => String(a.seat) === mark.dataset.seat);
        if (entry) mark.textContent = `away ${awayLine([{ seat: entry.seat, ends: entry.ends }], this.me, now).split("— ")[1]}`;
      }
    };
    tick();
    this.awayTimer = setInterval(tick, 500);
  }

  /** The stake and the pot of an online table with a stake, in the side panel. */
  renderStake(table) {
    const line = stakeLine(table);
    // The header's balance: the stake left it at the start, and the pot was paid before
    // the end was announced. Asked once for each (this page may have come without a reload).
    const moment = line ? `${table.id}:${table.game_over ? "over" : "on"}` : "";
    if (moment && this.balanceAsked !== moment) {
      this.balanceAsked = moment;
      account(true).catch(() => {});
    }
    this.coinSlot.hidden = !line;
    if (this.coinSlot.dataset.line === line) return;
    this.coinSlot.dataset.line = line;
    fill(this.coinSlot, line ? h("p", { class: "coin-stake" }, line) : null);
  }

  /** What the status line says once this person left the game. */
  leftText() {
    const left = this.left;
    const base = left.reason === "away"
      ? "You were away too long: a computer plays your seat to the end."
      : "You left this game: a computer plays your seat to the end.";
    if (!left.stake) return base;
    return `${base} Your ${left.stake}-coin stake is forfeit; leaving fee: ${left.fee} coins.`;
  }

  /** Leave a started online game, after asking (at a stake table it costs the stake and fee). */
  async leaveGame() {
    if (!this.table || !window.confirm(leaveQuestion(this.table))) return;
    this.leaveButton.disabled = true;
    try {
      const answer = await leaveGame(this.tableId, this.token);
      this.left = { reason: "left", stake: answer.stake_forfeit, fee: answer.fee };
      if (typeof answer.balance === "number") setBalance(answer.balance);
      this.connection.close();
      forgetSeat(this.tableId);
      this.render();
    } catch (error) {
      this.leaveButton.disabled = false;
      this.showError(`Could not leave: ${error.message}`, false);
    }
  }

  /** "Shuffle commitment for hand 3: 9f86d081884c7d65…" (the whole of it in the tooltip). */
  renderShuffle() {
    const kept = commitmentFor(this.tableId, this.table.hand_number);
    this.shuffleBox.hidden = !kept;
    if (!kept) return;
    const verdict = this.fairDeal.text();
    if (this.verdictLine.textContent !== verdict) this.verdictLine.textContent = verdict;
    this.verdictLine.classList.toggle("shuffle-failed", verdict.startsWith("Shuffle check FAILED"));
    const text = `Shuffle commitment for hand ${kept.hand}: ${kept.hex.slice(0, 16)}…`;
    if (this.commitmentLine.textContent !== text) {
      fill(this.commitmentLine, `Shuffle commitment for hand ${kept.hand}: `, h("code", { title: kept.hex }, `${kept.hex.slice(0, 16)}…`));
    }
  }

  /** Every bid of the hand, in order, kept through the play ("West: Passed"). */
  renderBids(view) {
    const me = this.me;
    const hand = this.table.hand_number;
    const items = [];
    view.history.forEach(([seat, action], i) => {
      if (String(action).startsWith("play ") || String(action).startsWith("discard")) return;
      const label = bidLabel(action, seat, view);
      if (!label) return;
      const clock = this.timedOut.has(`${hand}:${i}`) ? " (time ran out: played by the table)" : "";
      items.push(h("li", {}, h("b", {}, `${seatName(seat, me)}: `), `${label}${clock}`));
    });
    if (view.upcard) {
      const taken = view.upcard_taken ? `, taken by ${seatName(view.dealer, me)}` : view.phase === "order" ? "" : ", turned down";
      items.unshift(h("li", { class: "bid-upcard" }, h("b", {}, "Upcard: "), `${cardName(view.upcard)}${taken}`));
    }
    fill(this.bidsBox, items);
  }

  renderHints() {
    const here = Boolean(this.hints) && !narrow();
    this.hintPanel.hidden = !here;
    fill(this.hintPanel, here ? hintContent(this.hints) : null);
    // On a phone the side panel is below the table: the hint opens under the felt instead,
    // in the page's flow (the felt gives it room), so it never covers the trick.
    const phone = Boolean(this.hints) && narrow();
    this.phoneHint.hidden = !phone;
    fill(
      this.phoneHint,
      phone ? h("button", { type: "button", class: "panel-close", dataset: { key: "panel:hints" }, onclick: () => { this.hints = null; this.render(); } }, "Close") : null,
      phone ? hintContent(this.hints, { compact: true }) : null,
    );
  }
}

/**
 * Arrow keys move the focus between the enabled buttons of a group (the legal cards, the
 * bids); from the group itself they go to its first or last one.
 */
function arrowKeys(event, group, selector) {
  const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
  if (!step) return;
  const buttons = [...group.querySelectorAll(`${selector}:not([disabled])`)];
  if (!buttons.length) return;
  event.preventDefault();
  const at = buttons.indexOf(document.activeElement);
  const next = at < 0 ? (step > 0 ? 0 : buttons.length - 1) : (at + step + buttons.length) % buttons.length;
  buttons[next].focus();
}

/** Whether the window is phone-narrow (the side panel sits below the table). */
function narrow() {
  return window.matchMedia("(max-width: 1020px)").matches;
}

/** Scroll `panel` into view however the page was scrolled, and again while the felt's size
 * settles in the next second (a trick still being swept when motion is reduced changed its
 * height after the first scroll), until the person scrolls or types themselves. */
function scrollToSee(panel) {
  placeInView(panel);
  const felt = panel.closest(".felt");
  if (!felt || typeof ResizeObserver === "undefined") return;
  const watch = new ResizeObserver(() => placeInView(panel));
  const stop = () => {
    watch.disconnect();
    for (const kind of ["wheel", "touchstart", "keydown"]) removeEventListener(kind, stop);
  };
  for (const kind of ["wheel", "touchstart", "keydown"]) addEventListener(kind, stop, { passive: true });
  watch.observe(felt);
  setTimeout(stop, 1000);
}

/** With the whole felt when the window holds it (the seats stay in sight), else from the
 * panel's top. */
function placeInView(panel) {
  if (!panel.isConnected) return;
  const felt = panel.closest(".felt");
  const fits = felt && felt.getBoundingClientRect().height <= window.innerHeight;
  if (fits) felt.scrollIntoView({ block: "nearest", inline: "nearest" });
  else panel.scrollIntoView({ block: panel.getBoundingClientRect().height <= window.innerHeight ? "nearest" : "start", inline: "nearest" });
}
