// The rules page: how the game goes, in the project's own words, and the house rules in
// force at one table (the server's `rules_text`, so the page never guesses them).

import { COIN_SECTION } from "../account/rules-text.js";
import { getTable } from "./api.js";
import { fill, h } from "./dom.js";
import { lastTable, seatToken } from "./storage.js";

const HOW_TO_PLAY = [
  ["The cards", [
    "Four players sit in two partnerships; you sit South and your partner sits North, facing you.",
    "The deck has 24 cards: the Nine, Ten, Jack, Queen, King and Ace of each suit. Each player gets five; the next card is turned up and the other three stay face down as the kitty.",
  ]],
  ["Trump and the bowers", [
    "One suit is trump each hand. Its Jack, the right bower, is the best card. The Jack of the other suit of the same colour, the left bower, is second best and belongs to the trump suit for the whole hand.",
    "Below the bowers, trump runs Ace, King, Queen, Ten, Nine. Other suits run Ace down to Nine.",
  ]],
  ["Making trump", [
    "Starting on the dealer's left, each player either orders up the upcard, making its suit trump, or passes. When it is ordered up the dealer takes it and discards a card face down.",
    "If all four pass, the upcard is turned down and each player in turn may name another suit as trump, or pass.",
    "Whoever makes trump may go alone: their partner puts the hand down and sits out.",
  ]],
  ["Playing the tricks", [
    "The player on the dealer's left leads. Everyone must follow the suit led if they can (remember the left bower counts as trump); otherwise any card may be played.",
    "The highest trump wins the trick; with no trump in it, the highest card of the suit led wins. The winner leads next.",
    "You may look at the last trick until the next card is led; earlier tricks stay turned over.",
  ]],
  ["Scoring", [
    "The makers need three tricks. Three or four score 1 point; all five (a march) score 2, or 4 when the maker went alone.",
    "If the makers take fewer than three they are euchred and the defenders score 2.",
    "Each side keeps score with a Four and a Six: the pips showing count the points.",
  ]],
];

/** The rules page for a table (by default the last table played in this browser). */
export function mountRules(main, requested) {
  const tableId = requested || lastTable();
  const houseRules = h("section", { class: "house-rules", "aria-labelledby": "house-rules-title" },
    h("h2", { id: "house-rules-title" }, "House rules at this table"));
  fill(
    main,
    h(
      "article",
      { class: "page rules-page" },
      h("h1", {}, "How to play Euchre"),
      tableId ? h("p", {}, h("a", { href: `/table/${encodeURIComponent(tableId)}` }, "Back to your table")) : null,
      houseRules,
      [...HOW_TO_PLAY, COIN_SECTION].map(([title, paragraphs]) => h("section", {}, h("h2", {}, title), paragraphs.map((p) => h("p", {}, p)))),
    ),
  );
  const token = tableId ? seatToken(tableId) : null;
  if (!tableId || !token) {
    houseRules.append(h("p", {}, "Each table chooses its own house rules (stick the dealer, going alone on defence, the Benny and more) when it starts. Open this page from your table to see the ones in force there."));
    return () => {};
  }
  houseRules.append(h("p", {}, "Loading…"));
  getTable(tableId, token)
    .then((table) => {
      const sentences = table.rules_text ?? [];
      fill(houseRules, h("h2", { id: "house-rules-title" }, "House rules at this table"),
        h("ul", { class: "rules-list" }, sentences.map((s) => h("li", {}, s))));
    })
    .catch((error) => {
      fill(houseRules, h("h2", { id: "house-rules-title" }, "House rules at this table"),
        h("p", { class: "error" }, `Could not load this table's rules: ${error.message}`));
    });
  return () => {};
}
