// The replay viewer: steps through a finished game, one frame per deal and per action,
// with every hand face up (the server's replay frames). Also the list of games played here.

import { getReplay } from "./api.js";
import { cardFace, cardName, suitMark, suitName } from "./cards.js";
import { fill, h } from "./dom.js";
import { displayOrder } from "./hand.js";
import { scoreBox } from "./score.js";
import { downloadRecord, verifySection } from "./shuffle.js";
import { renderTrick } from "./trick.js";
import { finishedGames } from "./storage.js";
import { POSITIONS, describeAction, gameOverText, position, seatName, setSeatNames, sideName, sideOf } from "./words.js";

/** Autoplay speeds: milliseconds per step. */
const AUTOPLAY = [
  ["slow", "Slow", 1600],
  ["normal", "Normal", 900],
  ["fast", "Fast", 350],
];

/** Which seat played each card of a trick: clockwise from the leader, past seats sitting out. */
function trickSeats(leader, cards, sittingOut) {
  const seats = [];
  let seat = leader;
  for (let i = 0; i < cards.length; i += 1) {
    while (sittingOut.includes(seat)) seat = (seat + 1) % 4;
    seats.push(seat);
    seat = (seat + 1) % 4;
  }
  return cards.map((card, i) => ({ seat: seats[i], card }));
}

export function mountReplay(main, gameId) {
  setSeatNames(null); // a replay names seats by position, whatever table was open before
  const viewer = new ReplayViewer(main, gameId);
  viewer.load();
  return () => viewer.stop();
}

class ReplayViewer {
  constructor(main, gameId) {
    this.main = main;
    this.gameId = gameId;
    this.frames = [];
    this.index = 0;
    // Whoever played the game in this browser watches from their own seat, as "You";
    // anyone else watches as an onlooker with seat 0 in the South chair.
    const played = finishedGames().find((g) => g.id === gameId);
    this.me = played && Number.isInteger(played.seat) ? played.seat : null;
    this.timer = null;
    this.onKey = (event) => this.key(event);
    fill(main, h("section", { class: "page" }, h("h1", {}, "Replay"), h("p", { role: "status" }, "Loading the game…")));
  }

  async load() {
    try {
      const data = await getReplay(this.gameId);
      this.frames = data.frames ?? [];
      this.gameTo = data.rules?.game_to ?? 10;
    } catch (error) {
      fill(this.main, h("section", { class: "page" }, h("h1", {}, "Replay"), h("p", { class: "error", role: "alert" }, `Could not load the replay: ${error.message}`)));
      return;
    }
    if (!this.frames.length) {
      fill(this.main, h("section", { class: "page" }, h("h1", {}, "Replay"), h("p", {}, "This game has no hands to show yet.")));
      return;
    }
    this.build();
    this.show(0);
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    document.removeEventListener("keydown", this.onKey);
    this.pause();
  }

  /** Play the replay by itself at the chosen speed until the end (or Pause). */
  play() {
    if (this.index >= this.frames.length - 1) this.show(0);
    this.playing = true;
    this.playButton.textContent = "Pause";
    this.playButton.setAttribute("aria-pressed", "true");
    const step = () => {
      if (!this.playing) return;
      if (this.index >= this.frames.length - 1) {
        this.pause();
        return;
      }
      this.show(this.index + 1, { keepPlaying: true });
      this.timer = setTimeout(step, this.stepMs);
    };
    clearTimeout(this.timer);
    this.timer = setTimeout(step, this.stepMs);
  }

  pause() {
    this.playing = false;
    clearTimeout(this.timer);
    if (this.playButton) {
      this.playButton.textContent = "Play";
      this.playButton.setAttribute("aria-pressed", "false");
    }
  }

  get stepMs() {
    const chosen = AUTOPLAY.find(([name]) => name === this.speedSelect?.value) ?? AUTOPLAY[1];
    return chosen[2];
  }

  /** The next (dir 1) or previous (dir -1) frame where a trick was just completed or a
   *  hand began: jumping by trick. */
  trickStep(i, dir) {
    const frames = this.frames;
    const mark = (j) => j === 0 || frames[j].hand_number !== frames[j - 1].hand_number || frames[j].tricks.length > frames[j - 1].tricks.length;
    let j = i + dir;
    while (j > 0 && j < frames.length - 1 && !mark(j)) j += dir;
    return Math.max(0, Math.min(frames.length - 1, j));
  }

  build() {
    this.status = h("p", { class: "status", role: "status", "aria-live": "polite" });
    this.seats = {};
    for (const where of POSITIONS) {
      const name = h("div", { class: "seat-name" });
      const tags = h("div", { class: "seat-tags" });
      const cards = h("div", { class: "seat-cards open", role: "list" });
      this.seats[where] = { box: h("div", { class: `seat seat-${where}` }, h("div", { class: "seat-label" }, name, tags), cards), name, tags, cards };
    }
    this.trick = h("div", { class: "trick", role: "group", "aria-label": "The trick" });
    this.pile = h("div", { class: "pile" });
    this.felt = h(
      "section",
      { class: "felt replay-felt", "aria-label": "The table" },
      this.seats.north.box, this.seats.west.box,
      h("div", { class: "centre" }, this.pile, this.trick),
      this.seats.east.box, this.seats.south.box,
    );
    const button = (label, step, key) => h("button", { type: "button", dataset: { key }, onclick: () => { this.pause(); this.show(step()); } }, label);
    this.position = h("span", { class: "replay-position" });
    this.playButton = h("button", { type: "button", class: "bid-button", dataset: { key: "play" }, "aria-pressed": "false", onclick: () => (this.playing ? this.pause() : this.play()) }, "Play");
    this.speedSelect = h("select", { id: "replay-speed", "aria-label": "Replay speed" }, AUTOPLAY.map(([name, label]) => h("option", { value: name }, label)));
    this.speedSelect.value = "normal";
    this.result = h("p", { class: "replay-result" });
    this.controls = h(
      "div",
      { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
      this.playButton,
      this.speedSelect,
      button("First", () => 0, "first"),
      button("Previous hand", () => this.handStart(this.index - 1, -1), "prev-hand"),
      button("Previous trick", () => this.trickStep(this.index, -1), "prev-trick"),
      button("Back", () => this.index - 1, "back"),
      button("Next", () => this.index + 1, "next"),
      button("Next trick", () => this.trickStep(this.index, 1), "next-trick"),
      button("Next hand", () => this.handStart(this.index, 1), "next-hand"),
      button("Last", () => this.frames.length - 1, "last"),
      this.position,
    );
    this.scoreSlot = h("div", { class: "score-slot" });
    this.facts = h("dl", { class: "facts" });
    fill(
      this.main,
      h(
        "div",
        { class: "table-page replay-page" },
        h("div", { class: "play-area" }, h("h1", { class: "replay-title" }, "Replay"), this.result, this.status, this.felt, this.controls),
        h(
          "aside",
          { class: "side" },
          this.scoreSlot,
          this.facts,
          h("div", { class: "tools" }, h("a", { class: "tool", href: "/" }, "Play a game")),
          h("p", { class: "hero-note" }, "Keys: ← and → step, Home and End jump, Space plays and pauses."),
          verifySection(this.gameId, { onRecord: () => this.download() }),
        ),
      ),
    );
  }

  /** The first frame of the hand after (dir 1) or of/before (dir -1) frame i. */
  handStart(i, dir) {
    const frames = this.frames;
    i = Math.max(0, Math.min(frames.length - 1, i));
    const number = frames[i].hand_number;
    if (dir > 0) {
      let j = i;
      while (j < frames.length && frames[j].hand_number === number) j += 1;
      return Math.min(j, frames.length - 1);
    }
    let j = i;
    while (j > 0 && frames[j - 1].hand_number === number) j -= 1;
    if (j === this.index && j > 0) return this.handStart(j - 1, -1);
    return j;
  }

  show(index) {
    const ME = this.me;
    this.index = Math.max(0, Math.min(this.frames.length - 1, index));
    const frame = this.frames[this.index];
    const final = this.frames.at(-1);
    const winner = final.score[0] > final.score[1] ? 0 : 1;
    const end = this.index === this.frames.length - 1;
    const over = ME === null
      ? `${sideName(winner, ME)} won the game, ${final.score[winner]} to ${final.score[1 - winner]}.`
      : gameOverText(winner, final.score, ME);
    this.result.textContent = `Result: ${over}`;
    for (let seat = 0; seat < 4; seat += 1) {
      const box = this.seats[position(seat, ME)];
      fill(box.name, h("span", { class: "seat-title" }, seatName(seat, ME)));
      const tags = [];
      if (seat === frame.dealer) tags.push(h("span", { class: "tag tag-dealer" }, "Dealer"));
      if (seat === frame.maker) tags.push(h("span", { class: "tag tag-maker" }, frame.alone ? "Maker, alone" : "Maker"));
      if (frame.sitting_out.includes(seat)) tags.push(h("span", { class: "tag tag-out" }, "Sits out"));
      fill(box.tags, tags);
      box.box.classList.toggle("to-act", frame.to_act === seat);
      fill(box.cards, displayOrder(frame.hands[seat]).map((card) => h("div", { class: "open-card", role: "listitem", "aria-label": cardName(card), html: cardFace(card) })));
    }
    const bidding = ["farmer", "order", "benny", "call"].includes(frame.phase);
    this.pile.hidden = !bidding;
    if (bidding) {
      // The upcard lies on the kitty's box, so it never covers its caption.
      fill(
        this.pile,
        h("div", { class: "kitty" }, h("div", { class: `upcard${frame.phase === "call" ? " turned-down" : ""}`, role: "img", "aria-label": `Upcard: ${cardName(frame.upcard)}`, html: cardFace(frame.upcard) })),
        h("p", { class: "pile-caption" }, frame.phase === "call" ? `Turned down: the ${cardName(frame.upcard)}` : "Upcard"),
      );
    }
    const done = frame.tricks.at(-1);
    if (frame.trick.length) {
      renderTrick(this.trick, trickSeats(frame.leader, frame.trick, frame.sitting_out), null, ME, { animate: false });
    } else if (done && frame.last && frame.last.action.startsWith("play ")) {
      renderTrick(this.trick, trickSeats(done.leader, done.cards, frame.sitting_out), done.winner, ME, { animate: false });
    } else {
      renderTrick(this.trick, [], null, ME);
    }
    this.scoreSlot.replaceChildren(scoreBox(frame.score, ME, this.gameTo));
    const rows = [];
    const row = (term, ...value) => rows.push(h("div", { class: "fact" }, h("dt", {}, term), h("dd", {}, ...value)));
    row("Hand", String(frame.hand_number));
    row("Dealer", seatName(frame.dealer, ME));
    row("Trump", frame.trump
      ? h("span", {}, suitMark(frame.trump), ` ${suitName(frame.trump)}`)
      : "not named yet");
    if (frame.maker !== null) row("Makers", `${sideName(sideOf(frame.maker), ME)}${frame.alone ? " (alone)" : ""}`);
    row("Tricks", `${sideName(0, ME)} ${frame.tricks_won[0]}, ${sideName(1, ME)} ${frame.tricks_won[1]}`);
    fill(this.facts, rows);
    const what = frame.last
      ? describeAction(frame.last.seat, frame.last.action, ME, { upcard: frame.upcard, dealer: frame.dealer })
      : `Hand ${frame.hand_number}: ${seatName(frame.dealer, ME)} ${frame.dealer === ME ? "deal" : "deals"}; the upcard is the ${cardName(frame.upcard)}.`;
    const handOver = frame.phase === "over" ? ` Hand over: ${sideName(0, ME)} ${frame.points[0]}, ${sideName(1, ME)} ${frame.points[1]}.` : "";
    this.status.textContent = `${what}${handOver}${end ? ` ${over}` : ""}`;
    this.position.textContent = `Step ${this.index + 1} of ${this.frames.length}`;
    for (const b of this.controls.querySelectorAll("button")) {
      if (b === this.playButton) continue;
      const back = ["first", "back", "prev-hand", "prev-trick"].includes(b.dataset.key);
      b.disabled = back ? this.index === 0 : this.index === this.frames.length - 1;
    }
  }

  async download() {
    try {
      await downloadRecord(this.gameId);
    } catch (error) {
      this.status.textContent = error.message;
    }
  }
}
