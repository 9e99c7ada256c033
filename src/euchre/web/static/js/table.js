// The table page: connects to the table, keeps the latest table object, and redraws.
// Everything shown comes from the server's table object; every move is sent as notation.

import { createPractice, getRecordText } from "./api.js";
import { cardBack, cardFace, cardName, suitMark, suitName } from "./cards.js";
import { TableConnection } from "./connection.js";
import { controlButtons, farmerSwapButton, isControlAction } from "./controls.js";
import { downloadText, fill, h } from "./dom.js";
import { renderHand } from "./hand.js";
import { scoreBox } from "./score.js";
import { navigate } from "./nav.js";
import { forgetSeat, rememberFinished, rememberSeat, seatToken } from "./storage.js";
import { currentPlays, lastTrickPlays, playsBySeat, renderTrick } from "./trick.js";
import {
  POSITIONS,
  actionLabel,
  compassName,
  describeAction,
  gameOverText,
  handSummary,
  position,
  prompt,
  seatName,
  sideName,
  sideOf,
} from "./words.js";

const LOG_LENGTH = 8;

export function mountTable(main, tableId) {
  const token = seatToken(tableId);
  if (!token) {
    fill(
      main,
      h("section", { class: "page notice" },
        h("h1", {}, "This table is not yours"),
        h("p", {}, "This browser holds no seat at that table. Start a new practice table instead."),
        h("p", {}, h("a", { href: "/", class: "button-link" }, "Back to the start page"))),
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
    this.table = null;
    this.pending = false;
    this.showLastTrick = false;
    this.hints = null; // null, "thinking", or the list of hints for the decision in hintFor
    this.hintFor = null;
    this.picked = new Set();
    this.log = [];
    this.handKey = null;
    this.dismissedSummary = null;
    this.message = "";
    this.error = "";
    this.clockTimer = null;
    this.connection = new TableConnection(tableId, token, {
      onTable: (table, event, settled) => this.update(table, event, settled),
      onHint: (hints, version) => this.showHints(hints, version),
      onError: (message, fatal) => this.showError(message, fatal),
      onState: (state) => this.setConnected(state === "open"),
    });
    this.build();
  }

  start() {
    this.connection.open();
  }

  stop() {
    this.connection.close();
    clearInterval(this.clockTimer);
  }

  // ---- layout, built once -------------------------------------------------------------------

  build() {
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite", "aria-atomic": "true" }, "Joining the table…");
    this.seats = {};
    for (const where of POSITIONS) {
      this.seats[where] = {
        box: h("div", { class: `seat seat-${where}` }),
        name: h("div", { class: "seat-name" }),
        tags: h("div", { class: "seat-tags" }),
        cards: h("div", { class: "seat-cards", "aria-hidden": "true" }),
        said: h("div", { class: "seat-said", "aria-hidden": "true" }),
      };
      const seat = this.seats[where];
      seat.box.append(h("div", { class: "seat-core" }, h("div", { class: "seat-label" }, seat.name, seat.tags), seat.cards, seat.said));
    }
    this.pile = h("div", { class: "pile" });
    this.trick = h("div", { class: "trick", "aria-label": "The trick", role: "group" });
    this.overlay = h("div", { class: "centre-overlay" });
    this.centre = h("div", { class: "centre" }, this.pile, this.trick);
    this.felt = h(
      "section",
      { class: "felt", "aria-label": "The table" },
      this.seats.north.box,
      this.seats.west.box,
      this.centre,
      this.seats.east.box,
      this.seats.south.box,
      this.overlay,
    );
    this.prompt = h("p", { class: "prompt" });
    this.actions = h("div", { class: "actions", role: "group", "aria-label": "Your choices" });
    this.controls = h("section", { class: "controls", "aria-label": "Your move" }, this.prompt, this.actions);
    this.hand = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });

    this.scoreSlot = h("div", { class: "score-slot" });
    this.facts = h("dl", { class: "facts" });
    this.hintButton = h("button", { type: "button", class: "tool", dataset: { key: "tool:hint" }, onclick: () => this.askHint() }, "Hint");
    this.lastTrickButton = h(
      "button",
      { type: "button", class: "tool", "aria-expanded": "false", dataset: { key: "tool:last" }, onclick: () => this.toggleLastTrick() },
      "Last trick",
    );
    this.recordButton = h("button", { type: "button", class: "tool", dataset: { key: "tool:record" }, onclick: () => this.downloadRecord() }, "Download record");
    this.rulesLink = h("a", { class: "tool", href: `/rules?table=${encodeURIComponent(this.tableId)}` }, "Rules");
    this.hintPanel = h("section", { class: "hints", "aria-label": "Hints", "aria-live": "polite", hidden: true });
    this.logList = h("ol", { class: "log" });
    this.clock = h("p", { class: "clock", hidden: true });
    this.side = h(
      "aside",
      { class: "side" },
      this.clock,
      this.scoreSlot,
      this.facts,
      h("div", { class: "tools" }, this.hintButton, this.lastTrickButton, this.rulesLink, this.recordButton),
      this.hintPanel,
      h("section", { class: "log-box", "aria-label": "What happened" }, h("h2", {}, "This hand"), this.logList),
    );
    this.errorBox = h("p", { class: "error", role: "alert", hidden: true });
    // A one-line score for small screens, where the side panel sits below the table.
    this.strip = h("p", { class: "score-strip", "aria-hidden": "true" });
    fill(
      this.main,
      h(
        "div",
        { class: "table-page" },
        h("div", { class: "play-area" }, h("h1", { class: "visually-hidden" }, "Your table"), this.status, this.errorBox, this.strip, this.felt, this.controls, this.hand),
        this.side,
      ),
    );
  }

  // ---- incoming ------------------------------------------------------------------------------

  update(table, event, settled) {
    const previous = this.table;
    if (event) {
      const line = this.describeEvent(event, table);
      if (line) {
        this.message = line;
        this.addLog(line);
      }
    }
    // Events of one batch all carry the settled table: draw once, at the last of them.
    if (!settled) return;
    this.table = table;
    this.pending = false;
    this.error = "";
    const view = table.view;
    const me = this.me;
    if (!event && !previous) {
      this.message = "";
      if (view) this.rebuildLog(view);
    }
    if (table.game_over && (!previous || !previous.game_over)) {
      rememberFinished(this.gameId, table.score, table.winner, me);
    }
    if (this.hintFor !== this.decision) {
      this.hints = null;
      this.hintFor = null;
    }
    if (!view || view.phase !== "farmer") this.picked.clear();
    // The last hand's summary stays up until our first turn, or the first card, of the next hand.
    const summary = table.summary;
    if (summary && view && summary.hand_number !== table.hand_number) {
      const played = view.history.some(([, a]) => a.startsWith("play "));
      if (view.to_act === me || played) this.dismissedSummary = summary.hand_number;
    }
    if (view && !view.last_trick) this.showLastTrick = false;
    this.render();
  }

  get me() {
    return this.table ? (this.table.seat ?? this.table.view?.seat ?? 0) : 0;
  }

  describeEvent(event, table) {
    const me = this.me;
    switch (event.kind) {
      case "deal":
        this.log = [];
        return `${seatName(event.dealer, me)} ${event.dealer === me ? "deal" : "deals"} hand ${event.hand_number}.`;
      case "action": {
        const view = table.view;
        return describeAction(event.seat, event.action, me, view);
      }
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
        return event.reason === "left" ? "You left the table; it is closed." : "The table was closed.";
      default:
        return "";
    }
  }

  addLog(line) {
    this.log.push(line);
    if (this.log.length > LOG_LENGTH) this.log.shift();
  }

  rebuildLog(view) {
    this.log = [`${seatName(view.dealer, this.me)} ${view.dealer === this.me ? "deal" : "deals"} hand ${this.table.hand_number}.`];
    for (const [seat, action] of view.history.slice(-LOG_LENGTH)) {
      this.addLog(describeAction(seat, action, this.me, view));
    }
  }

  /** Which decision of the game we are at (hints belong to one decision). */
  get decision() {
    const view = this.table?.view;
    return view ? `${this.table.hand_number}:${view.history.length}` : null;
  }

  showHints(hints, version) {
    if (version !== undefined && this.table && version !== this.table.version) return;
    this.hints = hints;
    this.hintFor = this.decision;
    this.renderHints();
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
    this.main.querySelector(".table-page")?.classList.toggle("offline", !open);
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
      const text = await getRecordText(this.gameId);
      downloadText(`euchre-${this.gameId}.txt`, text);
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

  get gameId() {
    return this.table?.game_id ?? this.tableId;
  }

  onCard(card) {
    const view = this.table?.view;
    if (!view || this.pending) return;
    if (view.phase === "farmer" && this.swapActions(view).length) {
      if (this.picked.has(card)) this.picked.delete(card);
      else if (this.picked.size < 3) this.picked.add(card);
      this.render();
      return;
    }
    const action = view.legal.find((a) => a === `play ${card}` || a === `discard ${card}`);
    if (action) this.act(action);
  }

  swapActions(view) {
    return view.legal.filter((a) => a.startsWith("farmer swap "));
  }

  // ---- drawing -------------------------------------------------------------------------------

  render() {
    const table = this.table;
    this.renderError();
    if (!table) return;
    const focusKey = document.activeElement?.dataset?.key;
    const focusInPlay = this.main.contains(document.activeElement) && (this.actions.contains(document.activeElement) || this.hand.contains(document.activeElement));
    const view = table.view;
    const me = this.me;

    this.renderStatus();
    this.scoreSlot.replaceChildren(scoreBox(table.score, me, table.rules?.game_to ?? view?.rules?.game_to ?? 10));
    this.renderClock();
    if (view) {
      this.renderSeats(view);
      this.renderCentre(view);
      this.renderControls(view);
      this.renderFacts(view);
    } else {
      fill(this.actions);
      fill(this.hand);
    }
    this.renderStrip(view);
    this.renderTools(view);
    this.renderHints();
    fill(this.logList, this.log.map((line) => h("li", {}, line)));

    // Keep keyboard focus steady across redraws; when it becomes our turn, go to the first choice.
    const again = focusKey ? this.main.querySelector(`[data-key="${CSS.escape(focusKey)}"]:not([disabled])`) : null;
    if (again) {
      again.focus();
    } else if ((focusInPlay || document.activeElement === document.body || document.activeElement === this.main) && view && view.to_act === me && !this.pending) {
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
      const ask = this.pending ? "" : prompt(view, me);
      text = [this.message, ask].filter(Boolean).join(" ");
    }
    if (this.status.textContent !== text) this.status.textContent = text;
    this.status.classList.toggle("your-turn", Boolean(view && view.to_act === me && !table.game_over));
  }

  renderClock() {
    const clock = this.table.clock;
    clearInterval(this.clockTimer);
    if (!clock) {
      this.clock.hidden = true;
      return;
    }
    const ends = Date.now() + clock.deadline_ms_left;
    const who = seatName(clock.seat, this.me);
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      this.clock.textContent = `${who === "You" ? "Your" : `${who}'s`} clock: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
      this.clock.classList.toggle("low", left <= 10);
    };
    this.clock.hidden = false;
    tick();
    this.clockTimer = setInterval(tick, 250);
  }

  seatInfo(seat) {
    return (this.table.seats || []).find((s) => s.seat === seat) || null;
  }

  renderSeats(view) {
    const me = this.me;
    const played = playsBySeat(view.history);
    const playedCount = [0, 0, 0, 0];
    for (const seat of played.values()) playedCount[seat] += 1;
    const lastSaid = new Map();
    for (const [seat, action] of view.history) {
      if (!action.startsWith("play ")) lastSaid.set(seat, action);
    }
    for (let seat = 0; seat < 4; seat += 1) {
      const where = position(seat, me);
      const box = this.seats[where];
      const info = this.seatInfo(seat);
      const out = view.sitting_out.includes(seat);
      const tags = [];
      if (seat === view.dealer) tags.push(h("span", { class: "tag tag-dealer", title: "Dealer" }, "Dealer"));
      if (view.maker === seat) tags.push(h("span", { class: "tag tag-maker" }, view.alone ? "Maker, alone" : "Maker"));
      if (view.lone_defender === seat) tags.push(h("span", { class: "tag tag-maker" }, "Defends alone"));
      if (out) tags.push(h("span", { class: "tag tag-out" }, "Sits out"));
      const title = seat === me ? "You" : compassName(seat, me);
      const partner = seat === (me + 2) % 4 ? "partner" : null;
      const who = info && seat !== me ? (info.kind === "bot" ? info.level : info.name) : null;
      const detail = [partner, who].filter(Boolean).join(" · ");
      fill(box.name, h("span", { class: "seat-title" }, title), detail ? h("span", { class: "seat-detail" }, detail) : null);
      fill(box.tags, tags);
      box.box.classList.toggle("to-act", view.to_act === seat);
      box.box.classList.toggle("sitting-out", out);
      box.box.classList.toggle("partner", seat === (me + 2) % 4);
      if (seat !== me) {
        let held = out ? 0 : 5 - playedCount[seat];
        if (view.phase === "discard" && seat === view.dealer) held += 1;
        if (out) held = 0;
        this.renderBacks(box.cards, held);
      }
      // A speech bubble with the seat's bid, during the bidding only.
      const said = lastSaid.get(seat);
      const bidding = ["farmer", "order", "benny", "call", "discard", "defend"].includes(view.phase);
      box.said.textContent = bidding && said && !said.startsWith("discard") ? actionLabel(said) : "";
      box.said.hidden = !box.said.textContent;
    }
  }

  /** Another seat's cards, face down: dealt in with a new hand, then only added or taken away. */
  renderBacks(container, held) {
    const hand = String(this.table.hand_number);
    const fresh = container.dataset.hand !== hand;
    if (fresh) {
      container.dataset.hand = hand;
      container.replaceChildren();
    }
    while (container.childElementCount > held) container.lastElementChild.remove();
    while (container.childElementCount < held) {
      const i = container.childElementCount;
      container.append(h("div", { class: `back${fresh ? " dealt" : ""}`, style: `--i:${i}`, html: cardBack() }));
    }
  }

  renderCentre(view) {
    const me = this.me;
    const table = this.table;
    const bidding = ["farmer", "order", "benny", "call", "discard"].includes(view.phase);
    // The upcard on the kitty while bidding; turned face down in the second round.
    if (bidding) {
      const faceUp = view.phase !== "call";
      const key = `${table.hand_number}:${faceUp}:${view.upcard_taken}`;
      if (this.pile.dataset.key !== key) {
        this.pile.dataset.key = key;
        const top = view.upcard_taken
          ? null
          : h("div", {
              class: `upcard${faceUp ? "" : " turned-down"}`,
              role: "img",
              "aria-label": faceUp ? `Upcard: ${cardName(view.upcard)}` : `Turned down: ${cardName(view.upcard)}`,
              html: faceUp ? cardFace(view.upcard) : cardBack(),
            });
        fill(
          this.pile,
          h("div", { class: "kitty", "aria-hidden": "true" }, h("div", { class: "back", html: cardBack() }), h("div", { class: "back", html: cardBack() })),
          top,
          h("p", { class: "pile-caption" }, faceUp ? (view.upcard_taken ? `${seatName(view.dealer, me)} picked up the ${cardName(view.upcard)}` : "Upcard") : `Turned down: the ${cardName(view.upcard)}`),
        );
      }
      this.pile.hidden = false;
    } else {
      this.pile.hidden = true;
      this.pile.dataset.key = "";
    }

    // The trick: cards in progress, or the trick just completed (gathered to its winner).
    if (view.trick.length) {
      renderTrick(this.trick, currentPlays(view), null, me);
    } else if (view.last_trick) {
      const last = lastTrickPlays(view);
      renderTrick(this.trick, last.plays, last.winner, me, { gather: true });
    } else {
      renderTrick(this.trick, [], null, me);
    }

    // Overlays: game over, the hand summary, or the last trick on request.
    if (table.game_over) {
      fill(this.overlay, this.gameOverPanel());
    } else if (this.closedReason || table.closed) {
      fill(
        this.overlay,
        h("section", { class: "panel", "aria-label": "Table closed" },
          h("h2", {}, "This table is closed"),
          h("div", { class: "panel-actions" }, h("a", { class: "button-link", href: "/" }, "New game"))),
      );
    } else if (this.summaryToShow(view)) {
      fill(this.overlay, this.summaryPanel(table.summary));
    } else if (this.showLastTrick && view.last_trick) {
      fill(this.overlay, this.lastTrickPanel(view));
    } else {
      fill(this.overlay);
    }
  }

  /** The last hand's summary stays up through the pause and the next deal, until our turn. */
  summaryToShow(view) {
    const summary = this.table.summary;
    if (!summary || summary.hand_number === this.dismissedSummary) return false;
    return view.phase === "over" || summary.hand_number === this.table.hand_number - 1;
  }

  summaryPanel(summary) {
    const me = this.me;
    const words = handSummary(summary, me);
    const mine = sideOf(me);
    return h(
      "section",
      { class: "panel summary-panel", "aria-label": "End of the hand" },
      h("h2", {}, `Hand ${summary.hand_number}`),
      h("p", { class: "summary-headline" }, words.headline),
      summary.trump && summary.maker !== null
        ? h(
            "p",
            {},
            `${seatName(summary.maker, me)} made `,
            suitMark(summary.trump),
            ` ${suitName(summary.trump)} trump${summary.alone ? ", alone" : ""}. Tricks: us ${summary.tricks_won[mine]}, them ${summary.tricks_won[1 - mine]}.`,
          )
        : null,
      words.detail ? h("p", { class: "summary-points" }, words.detail) : null,
      summary.score ? h("p", { class: "summary-score" }, `Score: us ${summary.score[mine]}, them ${summary.score[1 - mine]}.`) : null,
      h(
        "button",
        {
          type: "button",
          class: "panel-close",
          dataset: { key: "panel:summary" },
          onclick: () => {
            this.dismissedSummary = summary.hand_number;
            this.render();
          },
        },
        "Continue",
      ),
    );
  }

  gameOverPanel() {
    const table = this.table;
    const me = this.me;
    const won = table.winner === sideOf(me);
    return h(
      "section",
      { class: `panel game-over-panel ${won ? "won" : "lost"}`, "aria-label": "Game over" },
      h("h2", {}, won ? "You won the game!" : `${sideName(table.winner, me)} won the game`),
      h("p", { class: "final-score" }, `${table.score[sideOf(me)]} – ${table.score[1 - sideOf(me)]}`),
      h(
        "div",
        { class: "panel-actions" },
        h("a", { class: "button-link", href: `/replay/${encodeURIComponent(this.gameId)}`, dataset: { key: "panel:replay" } }, "Watch the replay"),
        h("button", { type: "button", dataset: { key: "panel:record" }, onclick: () => this.downloadRecord() }, "Download the record"),
        h("button", { type: "button", dataset: { key: "panel:again" }, onclick: () => this.playAgain() }, "Play again"),
        h("a", { class: "button-link", href: "/" }, "New game"),
      ),
    );
  }

  lastTrickPanel(view) {
    const me = this.me;
    const last = lastTrickPlays(view);
    return h(
      "section",
      { class: "panel last-trick-panel", "aria-label": "Last trick" },
      h("h2", {}, "Last trick"),
      h(
        "ul",
        { class: "last-trick-cards" },
        last.plays.map((p) =>
          h("li", { class: p.seat === last.winner ? "winner" : "" }, h("div", { class: "mini-card", html: cardFace(p.card), "aria-hidden": "true" }), h("span", {}, `${seatName(p.seat, me)}: ${cardName(p.card)}`)),
        ),
      ),
      h("p", {}, `${seatName(last.winner, me)} ${last.winner === me ? "won" : "won"} it.`),
      h("button", { type: "button", class: "panel-close", dataset: { key: "panel:last" }, onclick: () => this.toggleLastTrick() }, "Close"),
    );
  }

  renderControls(view) {
    const me = this.me;
    const mine = view.to_act === me && !this.table.game_over;
    const legal = mine ? view.legal : [];
    const controlActions = legal.filter(isControlAction);
    const swaps = legal.filter((a) => a.startsWith("farmer swap "));
    const buttons = controlButtons(controlActions, (a) => this.act(a));
    if (swaps.length) buttons.splice(1, 0, farmerSwapButton(swaps, this.picked, (a) => this.act(a)));
    for (const b of buttons) if (this.pending) b.disabled = true;
    fill(this.actions, buttons);
    this.prompt.textContent = mine && !this.pending ? prompt(view, me) : "";
    this.controls.classList.toggle("active", mine);

    const cardActions = new Map();
    for (const action of legal) {
      const [kind, card] = action.split(" ");
      if ((kind === "play" || kind === "discard") && card) cardActions.set(card, action);
    }
    if (this.pending) cardActions.clear();
    const handKey = `${this.table.hand_number}:${view.dealer}`;
    const deal = this.handKey !== handKey;
    const fresh = view.phase === "discard" && mine ? new Set([view.upcard]) : null;
    this.handKey = handKey;
    renderHand(this.hand, view.hand, cardActions, {
      picking: swaps.length > 0 && !this.pending,
      picked: this.picked,
      deal,
      fresh,
      onCard: (card) => this.onCard(card),
    });
    this.hand.classList.toggle("discarding", view.phase === "discard" && mine);
    this.hand.classList.toggle("choosing", cardActions.size > 0);
    this.hand.classList.toggle("sitting-out", view.sitting_out.includes(me));
  }

  renderFacts(view) {
    const me = this.me;
    const rows = [];
    const row = (term, ...value) => rows.push(h("div", { class: "fact" }, h("dt", {}, term), h("dd", {}, ...value)));
    row("Hand", String(this.table.hand_number ?? ""));
    row("Dealer", seatName(view.dealer, me));
    if (view.trump) {
      row("Trump", suitMark(view.trump), ` ${suitName(view.trump)}`);
    } else {
      row("Trump", "not named yet");
    }
    if (view.maker !== null) {
      row("Makers", `${sideName(sideOf(view.maker), me)}${view.alone ? ` (${seatName(view.maker, me)} alone)` : ""}`);
    }
    if (view.lone_defender !== null) row("Defending alone", seatName(view.lone_defender, me));
    if (view.discard) row("Your discard", cardName(view.discard));
    if (view.sitting_out.length) row("Sitting out", view.sitting_out.map((s) => seatName(s, me)).join(", "));
    const us = view.tricks_won[sideOf(me)];
    const them = view.tricks_won[1 - sideOf(me)];
    row("Tricks this hand", h("span", { class: "trick-count" }, `Us ${us} · Them ${them}`));
    fill(this.facts, rows);
  }

  renderStrip(view) {
    const mine = sideOf(this.me);
    const score = this.table.score;
    const parts = [h("span", {}, h("b", {}, "Us "), String(score[mine]), h("b", {}, " · Them "), String(score[1 - mine]))];
    if (view?.trump) {
      parts.push(h("span", {}, h("b", {}, "Trump "), suitMark(view.trump)));
    }
    if (view && view.phase === "play") {
      parts.push(h("span", {}, h("b", {}, "Tricks "), `${view.tricks_won[mine]}–${view.tricks_won[1 - mine]}`));
    }
    fill(this.strip, parts);
  }

  renderTools(view) {
    const mine = Boolean(view && view.to_act === this.me && !this.table.game_over && view.legal.length);
    this.hintButton.disabled = !mine || this.pending;
    const last = Boolean(view && view.last_trick);
    this.lastTrickButton.disabled = !last;
    this.lastTrickButton.setAttribute("aria-expanded", String(this.showLastTrick && last));
  }

  renderHints() {
    if (!this.hints) {
      this.hintPanel.hidden = true;
      fill(this.hintPanel);
      return;
    }
    if (this.hints === "thinking") {
      this.hintPanel.hidden = false;
      fill(this.hintPanel, h("p", {}, "Thinking…"));
      return;
    }
    this.hintPanel.hidden = false;
    fill(
      this.hintPanel,
      h("h2", {}, "Hint"),
      h(
        "ol",
        { class: "hint-list" },
        this.hints.map((hint, i) =>
          h(
            "li",
            { class: i === 0 ? "best" : "" },
            ...hintWords(hint),
          ),
        ),
      ),
    );
  }
}

/** A hint as words: the move in bold, then the estimate ("Order up the Jack of Clubs: loses …"). */
function hintWords(hint) {
  const text = hint.text || "";
  const cut = text.indexOf(": ");
  if (cut > 0) return [h("strong", {}, text.slice(0, cut)), `: ${text.slice(cut + 2)}`];
  const points = hint.expected_points === null ? "" : `: about ${Number(hint.expected_points).toFixed(1)} points on average`;
  return [h("strong", {}, actionLabel(hint.action)), text ? ` ${text}` : points];
}
