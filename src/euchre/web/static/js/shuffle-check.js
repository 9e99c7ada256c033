// The verifiable shuffle written again for the browser, so a player checks each finished hand
// without trusting the site: the same SHA-256 Fisher–Yates as euchre.shuffle, the same mix of
// the table's seed with the players' seeds, the same deal (docs/verify.md, "The scheme").
// Only Web Crypto and BigInt: no page, no network; a test runs it in Node against the engine.

const SUITS = ["C", "D", "H", "S"];
const RANKS = ["9", "T", "J", "Q", "K", "A"];
const TWO_64 = 1n << 64n;
const encoder = new TextEncoder();

/** SHA-256 of a text (UTF-8) as bytes. */
async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of a text as lower-case hex (a commitment is this of the table's seed). */
export async function sha256Hex(text) {
  return hex(await sha256(text));
}

/** A fresh seed for this player: 32 random bytes from crypto.getRandomValues, as hex. */
export function newClientSeed() {
  return hex(crypto.getRandomValues(new Uint8Array(32)));
}

/** The seed a hand is dealt from: the table's seed alone, or mixed with the players' by seat. */
export async function mixedSeed(serverSeed, clientSeeds) {
  const seats = Object.keys(clientSeeds || {}).map(Number).sort((a, b) => a - b);
  if (!seats.length) return serverSeed;
  const lines = [serverSeed, ...seats.map((seat) => `${seat}:${clientSeeds[seat]}`)];
  return sha256Hex(lines.join("\n"));
}

/** The fresh deck in card order (9C TC … AS), then the joker with the Benny. */
export function newDeck(benny = false) {
  const deck = [];
  for (const suit of SUITS) for (const rank of RANKS) deck.push(rank + suit);
  if (benny) deck.push("JK");
  return deck;
}

/** The deck a seed gives: Fisher–Yates from the last position down, drawing j in 0..i by
 *  rejection sampling on 8-byte blocks SHA-256(seed + ":" + counter). */
export async function deckFromSeed(seed, benny = false) {
  const deck = newDeck(benny);
  let counter = 0;
  for (let i = deck.length - 1; i > 0; i -= 1) {
    const bound = BigInt(i + 1);
    const limit = TWO_64 - (TWO_64 % bound);
    let x;
    do {
      const block = (await sha256(`${seed}:${counter}`)).slice(0, 8);
      counter += 1;
      x = block.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
    } while (x >= limit);
    const j = Number(x % bound);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** Deal clockwise from the dealer's left, one pattern for everyone ("3-2": three each, then
 *  two each; "2-3" the other way): {hands: [seat 0..3], kitty} with the upcard first. */
export function dealFromDeck(deck, dealer, pattern = "3-2") {
  const rounds = pattern === "3-2" ? [3, 2] : [2, 3];
  const hands = [[], [], [], []];
  let pos = 0;
  for (const count of rounds) {
    for (let i = 0; i < 4; i += 1) {
      hands[(dealer + 1 + i) % 4].push(...deck.slice(pos, pos + count));
      pos += count;
    }
  }
  return { hands, kitty: deck.slice(pos) };
}

/**
 * Check one finished hand as one seat saw it; the list of problems (empty: verified).
 * hand: {commitment, seed, clientSeeds, dealer, pattern, benny, seat, dealt, upcard, mySeed}
 * — `commitment` as published before the hand, `seed` and `clientSeeds` as revealed after it,
 * `dealt` this seat's five cards as dealt (in any order), `upcard`, and `mySeed` the seed this
 * browser sent for the hand; any of those it does not have may be null.
 */
export async function checkHand(hand) {
  const problems = [];
  if (!hand.seed) return ["the table revealed no seed for this hand"];
  if (hand.commitment && (await sha256Hex(hand.seed)) !== hand.commitment) {
    problems.push("the revealed seed does not match the commitment published before the hand");
  }
  const clientSeeds = hand.clientSeeds || {};
  if (hand.mySeed && clientSeeds[hand.seat] !== hand.mySeed) {
    problems.push("the seed this browser sent was not the one mixed into the deal");
  }
  const deck = await deckFromSeed(await mixedSeed(hand.seed, clientSeeds), hand.benny);
  const deal = dealFromDeck(deck, hand.dealer, hand.pattern || "3-2");
  const want = [...deal.hands[hand.seat]].sort().join(" ");
  if (hand.dealt && [...hand.dealt].sort().join(" ") !== want) {
    problems.push(`you were dealt ${[...hand.dealt].sort().join(" ")}, the seeds deal ${want}`);
  }
  if (hand.upcard && deal.kitty[0] !== hand.upcard) {
    problems.push(`the upcard was ${hand.upcard}, the seeds turn up ${deal.kitty[0]}`);
  }
  return problems;
}
