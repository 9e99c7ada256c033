// Cards: names from the two-letter notation ("JH", "TD", "JK") and faces drawn as inline SVG.

import { h } from "./dom.js";

const RANK_NAMES = { 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
const RANK_INDEX = { 9: "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
export const SUIT_NAMES = { C: "Clubs", D: "Diamonds", H: "Hearts", S: "Spades" };
export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export const JOKER = "JK";

/** The full English name of a card: "Jack of Hearts", "Joker". */
export function cardName(card) {
  if (card === JOKER) return "Joker";
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

/** The name of a suit letter: "Hearts". */
export function suitName(suit) {
  return SUIT_NAMES[suit];
}

export function isRed(card) {
  return card === JOKER || card[1] === "H" || card[1] === "D";
}

// Suit shapes in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 29 2 13 14 2 28 2c10 0 18 6 22 15C54 8 62 2 72 2c14 0 26 11 26 27 0 21-20 39-48 63z",
  D: "M50 2 88 50 50 98 12 50z",
  S: "M50 2C78 30 98 44 98 63c0 14-11 24-24 24-10 0-17-5-21-12 1 11 6 18 15 23H32c9-5 14-12 15-23-4 7-11 12-21 12C13 87 2 77 2 63 2 44 22 30 50 2z",
  C:
    "M50 6a21 21 0 1 1 0 42 21 21 0 1 1 0-42zM28 40a21 21 0 1 1 0 42 21 21 0 1 1 0-42z" +
    "M72 40a21 21 0 1 1 0 42 21 21 0 1 1 0-42zM46 50h8c0 22 4 36 14 46H32c10-10 14-24 14-46z",
};

function suitShape(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rotate = flip ? ` rotate(180 50 50)` : "";
  return `<path d="${SUIT_PATHS[suit]}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${s})${rotate}"/>`;
}

// Pip positions on a 60 x 84 card for the number cards.
const PIPS = {
  9: [[21, 19], [39, 19], [21, 35], [39, 35], [30, 42], [21, 49], [39, 49], [21, 65], [39, 65]],
  T: [[21, 19], [39, 19], [30, 27], [21, 35], [39, 35], [21, 49], [39, 49], [30, 57], [21, 65], [39, 65]],
  A: [[30, 42]],
};

// The letters and numbers drawn on cards live once in a hidden sprite, and each card shows
// them with <use>: so a card button's only text is its accessible name ("King of Hearts"),
// not "KKK" beside it (axe's label-content-name-mismatch; WCAG 2.5.3).
const GLYPHS = {
  9: ["9", 12, "sans"], T: ["10", 12, "sans"], J: ["J", 12, "sans"], Q: ["Q", 12, "sans"],
  K: ["K", 12, "sans"], A: ["A", 12, "sans"], star: ["★", 12, "sans"],
  courtJ: ["J", 24, "serif"], courtQ: ["Q", 24, "serif"], courtK: ["K", 24, "serif"],
  joker: ["JOKER", 10, "sans"],
};
const FONTS = { sans: '"DejaVu Sans", "Liberation Sans", sans-serif', serif: '"DejaVu Serif", "Liberation Serif", serif' };

function glyphSprite() {
  const defs = Object.entries(GLYPHS).map(([id, [text, size, font]]) => {
    const fit = text === "10" ? ' textLength="11" lengthAdjust="spacingAndGlyphs"' : id === "joker" ? ' letter-spacing="1"' : "";
    return `<text id="card-glyph-${id}" x="0" y="0" text-anchor="middle" font-weight="700" font-size="${size}" font-family='${FONTS[font]}'${fit}>${text}</text>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" class="card-sprite" width="0" height="0" aria-hidden="true" focusable="false"><defs>${defs.join("")}</defs></svg>`;
}

/** Put the glyph sprite in the page once (card faces refer to it). */
function ensureSprite() {
  if (typeof document === "undefined" || document.getElementById("card-glyph-K")) return;
  document.body.insertAdjacentHTML("afterbegin", glyphSprite());
}

function glyph(id, x, y, extra = "") {
  return `<use href="#card-glyph-${id}" x="${x}" y="${y}"${extra}/>`;
}

function corner(card) {
  return glyph(card[0], 7.5, 13) + suitShape(card[1], 7.5, 20, 8);
}

function centre(card) {
  const rank = card[0];
  const suit = card[1];
  if (rank === "A") return suitShape(suit, 30, 42, 26);
  if (PIPS[rank]) {
    return PIPS[rank].map(([x, y]) => suitShape(suit, x, y, 9.5, y > 42)).join("");
  }
  // Court cards: a framed panel with the letter and the suit.
  return (
    `<rect x="13" y="15" width="34" height="54" rx="3" class="card-court"/>` +
    glyph(`court${rank}`, 30, 44) +
    suitShape(suit, 30, 57, 13)
  );
}

/** An SVG drawing of a card face (decorative: the button around it carries the name). */
export function cardFace(card) {
  ensureSprite();
  const colour = isRed(card) ? "card-red" : "card-black";
  let body;
  if (card === JOKER) {
    body =
      glyph("joker", 30, 40) +
      `<path d="M30 48l4 9 10 1-8 6 3 10-9-6-9 6 3-10-8-6 10-1z" class="card-star"/>` +
      glyph("star", 7.5, 13);
  } else {
    const rotated = `<g transform="rotate(180 30 42)">${corner(card)}</g>`;
    body = corner(card) + rotated + centre(card);
  }
  return (
    `<svg class="card-svg ${colour}" data-card="${card}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" class="card-paper"/>` +
    body +
    `</svg>`
  );
}

/** An SVG drawing of a card back. */
export function cardBack() {
  const lines = [];
  for (let i = -84; i < 84; i += 8) {
    lines.push(`M${i} 0l84 84`, `M${i + 84} 0l-84 84`);
  }
  return (
    `<svg class="card-svg card-back" viewBox="0 0 60 84" aria-hidden="true" focusable="false">` +
    `<rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" class="card-paper"/>` +
    `<rect x="5" y="5" width="50" height="74" rx="3" class="card-back-field"/>` +
    `<svg x="5" y="5" width="50" height="74" viewBox="0 0 50 74"><path d="${lines.join("")}" class="card-back-lattice"/></svg>` +
    `<rect x="5" y="5" width="50" height="74" rx="3" class="card-back-frame"/>` +
    `<circle cx="30" cy="42" r="9" class="card-back-medal"/>` +
    `</svg>`
  );
}

/** A suit symbol in its colour, as an element (decorative: write the suit's name beside it). */
export function suitMark(suit) {
  return h("span", { class: `suit-mark ${suit === "H" || suit === "D" ? "red" : "black"}`, "aria-hidden": "true" }, SUIT_SYMBOLS[suit]);
}
