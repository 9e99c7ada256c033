// A shuffle nobody can choose, from this browser's side: for each hand it adds its own seed
// (crypto.getRandomValues) once the table has committed to its seed for that hand, remembers
// the cards it was dealt, and when the hand is over checks the deal itself with the same
// shuffle as the engine (shuffle-check.js). Kept in localStorage, so a reload loses nothing.

import { checkHand, newClientSeed } from "./shuffle-check.js";
import { keptCommitments } from "./storage.js";

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

/** The commitment kept for exactly hand `handNumber` (the first one published), or null. */
function commitmentOf(tableId, handNumber) {
  const kept = keptCommitments(tableId).find(([n]) => n === handNumber);
  return kept ? kept[1][0] : null;
}

/** `seed N SEAT HEX` lines for the commitments file: what `euchre verify` checks were mixed in. */
export function sentSeedLines(tableId) {
  const entry = load()[tableId];
  if (!entry || entry.seat == null) return [];
  return Object.entries(entry.seeds)
    .filter(([n]) => !entry.refused?.[n])
    .map(([n, hex]) => [Number(n), hex])
    .sort((a, b) => a[0] - b[0])
    .map(([n, hex]) => `seed ${n} ${entry.seat} ${hex}`);
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
    let changed = entry.seat !== me;
    entry.seat = me;
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
        this.lastSent = ahead.hand_number;
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

  /** The table refused the last seed sent (it came after the deal): that hand is dealt without
   *  it, which the verdict says; it is not claimed as mixed in. */
  refused() {
    if (this.lastSent == null) return;
    const entry = this.entry();
    entry.refused = { ...(entry.refused ?? {}), [this.lastSent]: true };
    this.store(entry);
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
      mySeed: entry.refused?.[n] ? null : entry.seeds[n] ?? null,
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
    const refused = Object.keys(this.entry().refused ?? {}).map(Number).filter((n) => verified.includes(n));
    const without = refused.length ? ` (your seed came too late for hand ${refused.join(", ")}: dealt without it)` : "";
    return `Shuffle verified: ${range}, each dealt from the committed seed mixed with yours${without}.`;
  }
}
