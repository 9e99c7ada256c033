// A shuffle nobody can choose, from this browser's side: for each hand it adds its own seed
// (crypto.getRandomValues) once the table has committed to its seed for that hand, remembers
// the cards it was dealt, and when the hand is over checks the deal itself with the same
// shuffle as the engine (shuffle-check.js). Kept in localStorage, so a reload loses nothing.

import { checkHand, newClientSeed } from "./shuffle-check.js";
import { commitmentOf } from "./shuffle.js";

const KEY = "euchre.fair-deal";
const BEFORE_EXCHANGE = ["farmer", "order", "benny", "call"];

function load() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch {
    return {};
  }
}

function save(all) {
  // Keep the 50 most recent tables.
  const recent = Object.entries(all).sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0)).slice(0, 50);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent)));
}

export class FairDeal {
  /** `send(message)` sends on the table socket; `onChange()` redraws when a check finishes. */
  constructor(tableId, send, onChange) {
    this.tableId = tableId;
    this.send = send;
    this.onChange = onChange;
    this.checking = new Set();
  }

  entry() {
    return load()[this.tableId] ?? { seeds: {}, dealt: {}, results: {}, at: 0 };
  }

  store(entry) {
    const all = load();
    all[this.tableId] = { ...entry, at: Date.now() };
    save(all);
  }

  /** Called with every settled TABLE (of this browser's own seat). */
  update(table, me) {
    if (me == null || !table) return;
    const entry = this.entry();
    let changed = false;
    const ahead = table.next_commitment;
    if (ahead && !entry.seeds[ahead.hand_number]) {
      entry.seeds[ahead.hand_number] = newClientSeed();
      changed = true;
    }
    // (Re)send the seed for the next hand: a refused repeat ("already taken") changes nothing.
    if (ahead && !this.sentFor?.has(ahead.hand_number)) {
      this.sentFor = this.sentFor ?? new Set();
      if (this.send({ type: "seed", hand_number: ahead.hand_number, seed: entry.seeds[ahead.hand_number] })) {
        this.sentFor.add(ahead.hand_number);
      }
    }
    const view = table.view;
    const hand = table.hand_number;
    if (view && BEFORE_EXCHANGE.includes(view.phase) && !view.farmer_gave.length && !entry.dealt[hand]) {
      entry.dealt[hand] = { cards: [...view.hand], upcard: view.upcard };
      changed = true;
    }
    if (changed) this.store(entry);
    const summary = table.summary;
    if (summary && summary.seed && !entry.results[summary.hand_number] && !this.checking.has(summary.hand_number)) {
      this.check(summary, table, me);
    }
  }

  async check(summary, table, me) {
    const n = summary.hand_number;
    this.checking.add(n);
    const entry = this.entry();
    const dealt = entry.dealt[n];
    const problems = await checkHand({
      commitment: commitmentOf(this.tableId, n),
      seed: summary.seed,
      clientSeeds: summary.client_seeds || {},
      dealer: summary.dealer,
      pattern: summary.pattern,
      benny: Boolean(table.rules?.benny),
      seat: me,
      dealt: dealt?.cards ?? null,
      upcard: dealt?.upcard ?? null,
      mySeed: entry.seeds[n] ?? null,
    });
    const now = this.entry();
    now.results[n] = problems;
    this.store(now);
    this.checking.delete(n);
    this.onChange();
  }

  /** {verified: [hand…], failed: [{hand, problems}]} for the hands checked so far. */
  results() {
    const verified = [];
    const failed = [];
    for (const [n, problems] of Object.entries(this.entry().results)) {
      if (problems.length) failed.push({ hand: Number(n), problems });
      else verified.push(Number(n));
    }
    return { verified: verified.sort((a, b) => a - b), failed: failed.sort((a, b) => a.hand - b.hand) };
  }

  /** The line the page shows: "Shuffle verified: hands 1–3" or the first failing hand. */
  text() {
    const { verified, failed } = this.results();
    if (failed.length) return `Shuffle check FAILED for hand ${failed[0].hand}: ${failed[0].problems.join("; ")}`;
    if (!verified.length) return "";
    const range = verified.length === 1 ? `hand ${verified[0]}` : `hands ${verified[0]}–${verified.at(-1)}`;
    return `Shuffle verified: ${range}, each dealt from the committed seed mixed with yours.`;
  }
}
