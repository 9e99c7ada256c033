// The strategy guide (/learn): how to bid, lead, play with a partner and defend, in our own
// words, with example hands. Each example opens a practice table dealt that exact hand
// ("Play this hand"), with hints on. The hands come from /static/learn/examples.json, the
// same file the server deals them from.

import { createPractice } from "./api.js";
import { cardFace, cardName } from "./cards.js";
import { fill, h } from "./dom.js";
import { displayOrder } from "./hand.js";
import { navigate } from "./nav.js";
import { speed } from "./prefs.js";
import { rememberSeat } from "./storage.js";
import { compassName } from "./words.js";

const SECTIONS = [
  {
    id: "bidding",
    title: "Bidding: when to order up",
    paragraphs: [
      "Count your sure tricks with the upcard's suit as trump. The right bower (the Jack of trump) is the highest card, then the left bower (the other Jack of the same colour), then Ace, King, Queen, Ten and Nine of trump. Three trumps with a bower, or two high trumps and an off-suit Ace, usually make three tricks with your partner's help.",
      "Where you sit matters. Ordering up gives the upcard to the dealer: if the dealer is an opponent you hand them a trump, so you want a little more; if the dealer is your partner, the upcard helps your side and you can order with a little less. As dealer, picking up is strongest of all: you keep the upcard and throw away your worst card.",
      "Mind the score. Late in a game, at 8 or 9 points, a euchre that gives the other side two points can lose the game, so bid on solid hands; when they are about to win, a bold bid that might stop them is worth more.",
    ],
  },
  {
    id: "next",
    title: "Round two: calling next",
    paragraphs: [
      "When the upcard is turned down, its suit cannot be named. The other suit of the same colour, called next, is a good guess: the Jack of the turned-down suit becomes next's left bower, and the dealer's side has just shown it did not want the upcard's colour. First to speak in round two, call next with two trumps (a bower among them) and an Ace outside.",
      "Under stick the dealer, a dealer who has heard everyone pass twice must name a suit: pick the suit with the most high cards, even if it is only two.",
    ],
  },
  {
    id: "alone",
    title: "Going alone",
    paragraphs: [
      "Go alone when you expect to take all five tricks yourself: both bowers and the Ace of trump, or four trumps with an off-suit Ace. Your partner sits out, and a march alone scores 4 points instead of 2. Taking three or four tricks alone still scores 1, and a euchre costs the same 2 as ever, so a near lay-down hand loses little by trying.",
    ],
  },
  {
    id: "leading",
    title: "Leading",
    paragraphs: [
      "If your side made trump and you hold the right bower, lead it: each round of trump pulls two of the opponents' trumps, and then your side's Aces win. Without high trump, lead an off-suit Ace, or a short suit so you can trump it later.",
      "Defending, lead through the maker: lead a suit the player on your left (if that is the maker) will have to play before your partner, and avoid leading trump to the makers' strength.",
    ],
  },
  {
    id: "partner",
    title: "Playing with a partner",
    paragraphs: [
      "Do not trump your partner's winner: if your partner's card is winning the trick, play low. When your partner led, your partner often has the high card of that suit. Lead back the suit your partner showed strength in, and lead trump to a partner who made it.",
      "Count trumps. There are seven (with both bowers); once five have been played and you hold the last one, your other cards may be winners too.",
    ],
  },
  {
    id: "defending",
    title: "Defending",
    paragraphs: [
      "Defenders need only three tricks to euchre the makers, for 2 points. Save your trumps to beat the makers' Aces rather than leading them. As dealer when the other side orders you up, discard so that you are void in a suit: then you can trump the first lead of it.",
    ],
  },
];

export function mountLearn(main) {
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const sections = SECTIONS.map((section) =>
    h(
      "section",
      { class: "learn-section", id: section.id, "aria-labelledby": `${section.id}-title` },
      h("h2", { id: `${section.id}-title` }, section.title),
      section.paragraphs.map((text) => h("p", {}, text)),
      h("div", { class: "learn-examples", dataset: { section: section.id } }),
    ),
  );
  fill(
    main,
    h(
      "div",
      { class: "page learn-page" },
      h("h1", {}, "How to play well: a strategy guide"),
      h("p", { class: "tagline" }, "Bidding, leading, playing with a partner and defending, with example hands. Press ", h("b", {}, "Play this hand"), " to sit down at a practice table dealt that exact hand, with hints on."),
      h("nav", { class: "learn-toc", "aria-label": "Sections" }, h("ul", {}, SECTIONS.map((s) => h("li", {}, h("a", { href: `#${s.id}` }, s.title))))),
      errorBox,
      sections,
    ),
  );
  fetch("/static/learn/examples.json")
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`${response.status}`))))
    .then((data) => {
      for (const example of data.examples ?? []) {
        const slot = main.querySelector(`.learn-examples[data-section="${example.section}"]`);
        (slot ?? main.querySelector(".learn-examples")).append(exampleCard(example, errorBox));
      }
    })
    .catch((error) => {
      errorBox.textContent = `Could not load the example hands: ${error.message}`;
      errorBox.hidden = false;
    });
  return () => {};
}

function exampleCard(example, errorBox) {
  const hand = displayOrder(example.hands[0]);
  const upcard = example.kitty[0];
  const dealer = example.dealer === 0 ? "You deal" : `${compassName(example.dealer, 0)} deals`;
  const play = h("button", { type: "button", class: "bid-button play-example", onclick: () => start() }, "Play this hand");
  async function start() {
    play.disabled = true;
    errorBox.hidden = true;
    try {
      const seat = await createPractice({ example: example.id, speed: speed() });
      rememberSeat(seat.id, seat.token);
      navigate(`/table/${encodeURIComponent(seat.id)}`);
    } catch (error) {
      errorBox.textContent = `Could not start the example: ${error.message}`;
      errorBox.hidden = false;
      play.disabled = false;
    }
  }
  return h(
    "article",
    { class: "example", id: example.id, "aria-labelledby": `${example.id}-title` },
    h("h3", { id: `${example.id}-title` }, example.title),
    h(
      "div",
      { class: "example-deal" },
      h("ul", { class: "example-hand", "aria-label": "Your hand" }, hand.map((card) => h("li", {}, h("div", { class: "mini-card", role: "img", "aria-label": cardName(card), html: cardFace(card) })))),
      h("div", { class: "example-upcard" }, h("div", { class: "mini-card", role: "img", "aria-label": `Upcard: ${cardName(upcard)}`, html: cardFace(upcard) }), h("span", {}, `Upcard · ${dealer}`)),
    ),
    h("p", {}, example.lesson),
    play,
  );
}
