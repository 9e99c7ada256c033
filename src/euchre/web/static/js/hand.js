// Our hand: one button per card, named by the card's full name. Enabled only when the server
// lists an action for that card (play, discard), or while choosing cards for a farmer's swap.

import { cardFace, cardName } from "./cards.js";
import { h } from "./dom.js";

// Display order only (no rules): suits alternate colours, high cards first.
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
const RANK_ORDER = { A: 0, K: 1, Q: 2, J: 3, T: 4, 9: 5 };

export function displayOrder(cards) {
  const key = (card) => (card === "JK" ? -1 : SUIT_ORDER[card[1]] * 10 + RANK_ORDER[card[0]]);
  return [...cards].sort((a, b) => key(a) - key(b));
}

/**
 * Render the hand into `container`.
 * @param {string[]} cards the cards held
 * @param {Map<string, string>} cardActions card -> action in the notation ("play JH")
 * @param {{picking: boolean, picked: Set<string>, deal: boolean, onCard: Function}} options
 */
export function renderHand(container, cards, cardActions, { picking, picked, deal, onCard, fresh }) {
  const ordered = displayOrder(cards);
  const existing = new Map([...container.children].map((el) => [el.dataset.card, el]));
  const buttons = ordered.map((card, i) => {
    const action = cardActions.get(card);
    let button = deal ? null : existing.get(card);
    if (!button) {
      button = h("button", {
        type: "button",
        class: `card-button${deal ? " dealt" : ""}`,
        "aria-label": cardName(card),
        dataset: { card, key: `card:${card}` },
        html: cardFace(card),
        onclick: () => onCard(card),
      });
      if (deal) {
        button.style.setProperty("--i", String(i));
        button.addEventListener("animationend", () => button.classList.remove("dealt"), { once: true });
      }
    }
    const enabled = picking || Boolean(action);
    button.disabled = !enabled;
    button.classList.toggle("playable", enabled && !picking);
    button.classList.toggle("picked-up", Boolean(fresh && fresh.has(card)));
    button.classList.toggle("selected", picking && picked.has(card));
    if (picking) button.setAttribute("aria-pressed", String(picked.has(card)));
    else button.removeAttribute("aria-pressed");
    return button;
  });
  // Touch only what changed: moving a card in the DOM would restart its animation.
  const wanted = new Set(buttons);
  for (const el of [...container.children]) if (!wanted.has(el)) el.remove();
  let next = container.firstElementChild;
  for (const button of buttons) {
    if (button === next) next = next.nextElementSibling;
    else container.insertBefore(button, next);
  }
  container.style.setProperty("--count", String(buttons.length));
}
