// The table page: connects to the table, keeps the latest table object, and redraws.
// Everything shown comes from the server's table object; every move is sent as notation.

import { renderCoinPanel } from "../account/coin-table.js";
import { createPractice } from "./api.js";
import { TableConnection } from "./connection.js";
import { controlButtons, farmerSwapButton, isControlAction } from "./controls.js";
import { fill, h } from "./dom.js";
import { renderHand } from "./hand.js";
import { navigate } from "./nav.js";
import { closedPanel, gameOverPanel, lastTrickPanel, summaryPanel } from "./panels.js";

/** Why a practice table nobody played for an hour is closed (server: table/retire.py). */
const ABANDONED_TEXT = "Nobody played at this table for an hour, so it was put away.";
import { scoreBox } from "./score.js";
import { renderPile, renderSeats, seatBoxes } from "./seats.js";
import { commitmentFor, downloadCommitments, downloadRecord, keepCommitments, verifySection } from "./shuffle.js";
import { factRows, hintContent, stripParts } from "./side.js";
import { forgetSeat, rememberFinished, rememberSeat, seatToken } from "./storage.js";
import { currentPlays, lastTrickPlays, renderTrick } from "./trick.js";
import { describeAction, gameOverText, handSummary, prompt, seatName } from "./words.js";
import { firstDrawText, forgetEarlierPlays, isPlay, logEntry } from "./law.js";
import { FairDeal } from "./fair-deal.js";
import { recordPracticeGame } from "./my-stats.js";

const LOG_LENGTH = 8;

export function mountTable(main, tableId) {
  const token = seatToken(tableId);
  if (!token) {
    fill(
      main,
      h(
        "section",
        { class: "page notice" },
        h("h1", {}, "This table is not yours"),
        h("p", {}, "This browser holds no seat at that table. Start a new practice table instead."),
        h("p", {}, h("a", { href: "/", class: "button-link" }, "Back to the start page")),
      ),
    );
    return () => {};
  }
  const page = new TablePage(main, tableId, token);
  page.start();
  return () => page.stop();
}

class TablePage {
  constructor(main, tableId, token) {
    this.main = main;
    this.tableId = tableId;
    this.table = null; // the latest settled TABLE object
    this.pending = false; // a move was sent and not yet answered
    this.showLastTrick = false;
    this.hints = null; // null, "thinking", or the list of hints for the decision in hintFor
    this.hintFor = null;
    this.picked = new Set(); // cards chosen for a farmer's swap
    this.log = [];
    this.handKey = null;
    this.dismissedSummary = null;
    this.closedReason = null;
    this.message = "";
    this.error = "";
    this.fatal = false;
    this.clockTimer = null;
    this.connection = new TableConnection(tableId, token, {
      onTable: (table, event, settled) => this.update(table, event, settled),
      onHint: (hints, version) => this.showHints(hints, version),
      // A seed refused (sent too late for its hand) is not the player's doing: the hand's
      // check reports it. Other refusals are shown.
      onError: (message, fatal, code) => (code === "bad_seed" ? this.fairDeal.refused() : this.showError(message, fatal)),
      onState: (state) => this.setConnected(state === "open"),
    });
    // This browser's seed in every deal, and its own check of each finished hand.
    this.fairDeal = new FairDeal(tableId, (message) => this.connection.send(message), () => this.table && this.render());
    this.build();
  }

  start() {
    this.connection.open();
  }

  stop() {
    this.connection.close();
    clearInterval(this.clockTimer);
  }

  get me() {
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
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite", "aria-atomic": "true" }, "Joining the table…");
    this.errorBox = h("p", { class: "error", role: "alert", hidden: true });
    // A one-line score for small screens, where the side panel sits below the table.
    this.strip = h("p", { class: "score-strip", "aria-hidden": "true" });

    this.seats = seatBoxes();
    this.pile = h("div", { class: "pile" });
    this.trick = h("div", { class: "trick", role: "group", "aria-label": "The trick" });
    this.overlay = h("div", { class: "centre-overlay" });
    const felt = h(
      "section",
      { class: "felt", "aria-label": "The table" },
      this.seats.north.box,
      this.seats.west.box,
      h("div", { class: "centre" }, this.pile, this.trick),
      this.seats.east.box,
      this.seats.south.box,
      this.overlay,
    );
    this.prompt = h("p", { class: "prompt" });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your choices" });
    this.controls = h("section", { class: "controls", "aria-label": "Your move" }, this.prompt, this.actions);
    this.hand = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });

    const tool = (label, key, onclick) => h("button", { type: "button", class: "tool", dataset: { key }, onclick }, label);
    this.hintButton = tool("Hint", "tool:hint", () => this.askHint());
    this.lastTrickButton = tool("Last trick", "tool:last", () => this.toggleLastTrick());
    this.lastTrickButton.setAttribute("aria-expanded", "false");
    this.clock = h("p", { class: "clock", hidden: true });
    this.coinSlot = h("section", { class: "coin-slot", "aria-label": "Coins", hidden: true });
    this.scoreSlot = h("div", { class: "score-slot" });
    this.facts = h("dl", { class: "facts" });
    this.hintPanel = h("section", { class: "hints", "aria-label": "Hints", "aria-live": "polite", hidden: true });
    this.logList = h("ol", { class: "log" });
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
    const side = h(
      "aside",
      { class: "side" },
      this.coinSlot,
      this.scoreSlot,
      this.facts,
      h(
        "div",
        { class: "tools" },
        this.hintButton,
        this.lastTrickButton,
        h("a", { class: "tool", href: `/rules?table=${encodeURIComponent(this.tableId)}` }, "Rules"),
        tool("Download record", "tool:record", () => this.downloadRecord()),
      ),
      this.shuffleBox,
      this.hintPanel,
      h("section", { class: "log-box", "aria-label": "What happened" }, h("h2", {}, "This hand"), this.logList),
    );
    this.page = h(
      "div",
      { class: "table-page" },
      h(
        "div",
        { class: "play-area" },
        h("h1", { class: "visually-hidden" }, "Your table"),
        this.status,
        this.clock,
        this.errorBox,
        this.strip,
        felt,
        this.controls,
        this.hand,
      ),
      side,
    );
    fill(this.main, this.page);
  }

  // ---- incoming ------------------------------------------------------------------------------

  update(table, event, settled) {
    const previous = this.table;
    keepCommitments(this.tableId, table, event);
    if (event) {
      const line = this.describeEvent(event, table);
      const play = event.kind === "action" && isPlay(event.action);
      // Table law 11: once the next card is led, earlier tricks leave the log.
      if (play && table.view && table.view.trick.length === 1) this.log = forgetEarlierPlays(this.log);
      if (line) {
        this.message = line;
        this.addLog(line, play);
      }
    }
    // Events of one batch all carry the settled table: draw once, at the last of them.
    if (!settled) return;
    this.table = table;
    this.pending = false;
    this.error = "";
    this.fairDeal.update(table, table.seat);
    const view = table.view;
    const me = this.me;
    if (!event && !previous) {
      this.message = "";
      if (view) this.rebuildLog(view);
    }
    if (table.game_over && !previous?.game_over) {
      rememberFinished(this.gameId, table.score, table.winner, me);
      if (table.kind === "practice") recordPracticeGame(this.gameId, me).catch(() => {}); // this browser's statistics
    }
    if (this.hintFor !== this.decision) {
      this.hints = null;
      this.hintFor = null;
    }
    if (!view || view.phase !== "farmer") this.picked.clear();
    if (view && !view.last_trick) this.showLastTrick = false;
    // The last hand's summary stays up until our first turn, or the first card, of the next hand.
    const summary = table.summary;
    if (summary && view && summary.hand_number !== table.hand_number) {
      const played = view.history.some(([, a]) => isPlay(a));
      if (view.to_act === me || played) this.dismissedSummary = summary.hand_number;
    }
    this.render();
  }

  describeEvent(event, table) {
    const me = this.me;
    switch (event.kind) {
      case "deal":
        this.log = [];
        if (event.hand_number === 1) this.addFirstDraw(table);
        return `${seatName(event.dealer, me)} ${event.dealer === me ? "deal" : "deals"} hand ${event.hand_number}.`;
      case "action":
        return describeAction(event.seat, event.action, me, table.view);
      case "trick":
        return `${seatName(event.winner, me)} ${event.winner === me ? "win" : "wins"} the trick.`;
      case "hand_over": {
        const summary = event.summary ?? table.summary;
        if (!summary) return "The hand is over.";
        const words = handSummary(summary, me);
        return `${words.headline} ${words.detail}`.trim();
      }
      case "game_over":
        return gameOverText(event.winner ?? table.winner, table.score, me);
      case "closed":
        this.closedReason = event.reason ?? "closed";
        if (event.reason === "abandoned") return ABANDONED_TEXT;
        return event.reason === "left" ? "You left the table; it is closed." : "The table was closed.";
      default:
        return "";
    }
  }

  addLog(line, play = false) {
    this.log.push(logEntry(line, play));
    if (this.log.length > LOG_LENGTH) this.log.shift();
  }

  /** In hand 1 the log opens with how the first dealer was found (doc 002 deal rule 1). */
  addFirstDraw(table) {
    const text = firstDrawText(table.first_draw, this.me);
    if (text) this.addLog(text);
  }

  rebuildLog(view) {
    const me = this.me;
    this.log = [];
    if (this.table.hand_number === 1) this.addFirstDraw(this.table);
    this.addLog(`${seatName(view.dealer, me)} ${view.dealer === me ? "deal" : "deals"} hand ${this.table.hand_number}.`);
    // A play shown only as "play" is one table law 11 keeps from view: it is not listed.
    for (const [seat, action] of view.history.filter(([, a]) => a !== "play").slice(-LOG_LENGTH)) {
      this.addLog(describeAction(seat, action, me, view), isPlay(action));
    }
  }

  showHints(hints, version) {
    if (version !== undefined && this.table && version !== this.table.version) return;
    this.hints = hints;
    this.hintFor = this.decision;
    this.renderHints();
    this.hintPanel.scrollIntoView({ block: "nearest", behavior: "smooth" });
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
    renderCoinPanel(this.coinSlot, table);
    this.scoreSlot.replaceChildren(scoreBox(table.score, me, table.rules?.game_to ?? 10));
    fill(this.strip, stripParts(table.score, view, me));
    if (view) {
      renderSeats(this.seats, view, table, me);
      renderPile(this.pile, view, table.hand_number, me);
      this.renderTrick(view);
      this.renderControls(view);
      fill(this.facts, factRows(view, table.hand_number, me));
    } else {
      fill(this.actions);
      fill(this.hand);
    }
    this.renderOverlay(view);
    this.renderTools(view);
    this.renderShuffle();
    this.renderHints();
    fill(this.logList, this.log.map((entry) => h("li", { class: entry.play ? "log-play" : null }, entry.text)));

    // Keep keyboard focus steady across redraws; when it becomes our turn, go to the first choice.
    const again = focusKey ? this.main.querySelector(`[data-key="${CSS.escape(focusKey)}"]:not([disabled])`) : null;
    const unplaced = focusInPlay || active === document.body || active === this.main;
    if (again) {
      again.focus();
    } else if (unplaced && view && view.to_act === me && !this.pending) {
      const first = this.actions.querySelector("button:not([disabled])") || this.hand.querySelector("button:not([disabled])");
      first?.focus({ preventScroll: true });
    }
  }

  renderError() {
    this.errorBox.hidden = !this.error;
    fill(this.errorBox, this.error, this.fatal ? [" ", h("a", { href: "/" }, "Start a new table")] : null);
  }

  renderStatus() {
    const table = this.table;
    const view = table.view;
    const me = this.me;
    let text;
    if (table.game_over) {
      text = gameOverText(table.winner, table.score, me);
    } else if (!view) {
      text = "Waiting for the deal…";
    } else {
      text = [this.message, this.pending ? "" : prompt(view, me)].filter(Boolean).join(" ");
    }
    if (this.status.textContent !== text) this.status.textContent = text;
    const yourTurn = Boolean(view && view.to_act === me && !table.game_over);
    this.status.classList.toggle("your-turn", yourTurn);
    document.title = yourTurn ? "Your turn · Euchre" : "Euchre: your table";
  }

  renderClock() {
    const clock = this.table.clock;
    clearInterval(this.clockTimer);
    this.clock.hidden = !clock;
    if (!clock) return;
    const ends = Date.now() + clock.deadline_ms_left;
    const who = clock.seat === this.me ? "Your" : `${seatName(clock.seat, this.me)}'s`;
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      this.clock.textContent = `${who} clock: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      this.clock.classList.toggle("low", left <= 10);
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
      renderTrick(this.trick, last.plays, last.winner, me, { gather: true });
    } else {
      renderTrick(this.trick, [], null, me);
    }
  }

  /** At most one panel over the felt: game over, table closed, hand summary, or last trick. */
  renderOverlay(view) {
    const table = this.table;
    const me = this.me;
    let panel = null;
    if (table.game_over) {
      panel = gameOverPanel(table, me, {
        replayUrl: `/replay/${encodeURIComponent(this.gameId)}`,
        onAgain: () => this.playAgain(),
        verify: verifySection(this.gameId, { onRecord: () => this.downloadRecord(), keyPrefix: "panel" }),
      });
    } else if (this.closedReason || table.closed) {
      panel = closedPanel((this.closedReason ?? table.closed) === "abandoned" ? ABANDONED_TEXT : null);
    } else if (view && this.summaryToShow(view)) {
      panel = summaryPanel(table.summary, me, () => {
        this.dismissedSummary = table.summary.hand_number;
        this.render();
      });
    } else if (view && this.showLastTrick && view.last_trick) {
      panel = lastTrickPanel(view, me, () => this.toggleLastTrick());
    }
    fill(this.overlay, panel);
    this.overlay.classList.toggle("game-over", Boolean(table.game_over));
  }

  /** The last hand's summary shows through the pause and the next deal, until dismissed. */
  summaryToShow(view) {
    const summary = this.table.summary;
    if (!summary || summary.hand_number === this.dismissedSummary) return false;
    return view.phase === "over" || summary.hand_number === this.table.hand_number - 1;
  }

  renderControls(view) {
    const me = this.me;
    const mine = view.to_act === me && !this.table.game_over;
    const legal = mine ? view.legal : [];
    const swaps = legal.filter((a) => a.startsWith("farmer swap "));
    const buttons = controlButtons(legal.filter(isControlAction), (a) => this.act(a));
    if (swaps.length) buttons.splice(1, 0, farmerSwapButton(swaps, this.picked, (a) => this.act(a)));
    if (this.pending) for (const b of buttons) b.disabled = true;
    fill(this.actions, buttons);
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
    const mine = Boolean(view && view.to_act === this.me && !this.table.game_over && view.legal.length);
    // No hints at coin and online tables (the server refuses them there): they are for practice.
    const noHints = ["coin", "online"].includes(this.table?.kind);
    this.hintButton.hidden = noHints;
    this.hintButton.disabled = noHints || !mine || this.pending;
    const last = Boolean(view && view.last_trick);
    this.lastTrickButton.disabled = !last;
    this.lastTrickButton.setAttribute("aria-expanded", String(this.showLastTrick && last));
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

  renderHints() {
    this.hintPanel.hidden = !this.hints;
    fill(this.hintPanel, this.hints ? hintContent(this.hints) : null);
  }
}
