// Bidding and other non-card controls: one button per legal action the server sent.
// The only thing decided here is the order and look of the buttons.

import { suitMark } from "./cards.js";
import { h } from "./dom.js";
import { actionLabel } from "./words.js";

const SUIT_ORDER = "SHCD";

function sortKey(action) {
  const w = action.split(" ");
  if (w[0] === "order") return w[1] === "alone" ? 1 : 0;
  if (w[0] === "call") return 10 + SUIT_ORDER.indexOf(w[1]) * 2 + (w[2] === "alone" ? 1 : 0);
  if (w[0] === "farmer") return w[1] === "keep" ? 20 : 22;
  if (w[0] === "defend") return 30;
  if (w[0] === "pass") return 40;
  return 50;
}

/** The actions that are not about a single card (bids, farmer's choices). */
export function isControlAction(action) {
  return !action.startsWith("play ") && !action.startsWith("discard ") && !action.startsWith("farmer swap ");
}

function callSuitMark(action) {
  const w = action.split(" ");
  return w[0] === "call" ? suitMark(w[1]) : null;
}

function bidButton(action, onAction, short = false) {
  const label = actionLabel(action);
  return h(
    "button",
    {
      type: "button",
      class: `bid-button bid-${action.split(" ")[0]}${action.endsWith("alone") ? " bid-alone" : ""}`,
      dataset: { key: `action:${action}`, action },
      "aria-label": short ? label : null,
      onclick: () => onAction(action),
    },
    short ? null : callSuitMark(action),
    short ? "alone" : label,
  );
}

/**
 * Buttons for the control actions, in a steady order. A bid and its "alone" form sit
 * together as a pair ("♠ Call Spades" + "alone", named "Call Spades alone"), so round
 * two's calls fit on one line.
 * @param {string[]} actions control actions from the view's `legal`
 * @param {(action: string) => void} onAction
 */
export function controlButtons(actions, onAction) {
  const sorted = [...actions].sort((a, b) => sortKey(a) - sortKey(b));
  const out = [];
  for (const action of sorted) {
    if (action.endsWith(" alone") && action !== "defend alone" && sorted.includes(action.slice(0, -6))) continue;
    const alone = `${action} alone`;
    if (action !== "pass" && sorted.includes(alone)) {
      out.push(h("span", { class: "bid-pair" }, bidButton(action, onAction), bidButton(alone, onAction, true)));
    } else {
      out.push(bidButton(action, onAction));
    }
  }
  return out;
}

/**
 * The farmer's swap: when the chosen cards match one of the server's swap actions,
 * that action is offered; otherwise the button says how many cards to choose.
 */
export function farmerSwapButton(swaps, picked, onAction) {
  const chosen = [...picked].sort().join(" ");
  const match = swaps.find((action) => action.slice("farmer swap ".length).split(" ").sort().join(" ") === chosen);
  const left = 3 - picked.size;
  return h(
    "button",
    {
      type: "button",
      class: "bid-button bid-farmer-swap",
      disabled: !match,
      dataset: { key: "action:farmer swap" },
      onclick: () => match && onAction(match),
    },
    match ? actionLabel(match) : left > 0 ? `Choose ${left} more card${left === 1 ? "" : "s"} to swap` : "Swap three cards for the kitty",
  );
}
