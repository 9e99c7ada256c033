// What a coin table adds to the table page: the stake and payout, how the clock stands
// (moves played for you, computer speed), the leave button with what leaving costs, and
// the coin notice. The countdown itself is the table's clock.

import { fill, h } from "../js/dom.js";
import { NOTICE, call, coins, me, setBalance } from "./session.js";

const panels = new WeakMap(); // slot -> the parts drawn for one table

/** Draw the coin panel for `table` into `slot` (hidden for other kinds of table). */
export function renderCoinPanel(slot, table) {
  if (!table || table.kind !== "coin") {
    fill(slot);
    slot.hidden = true;
    return;
  }
  slot.hidden = false;
  let parts = panels.get(slot);
  if (!parts || parts.id !== table.id) {
    parts = build(slot, table);
    panels.set(slot, parts);
  }
  const clock = table.clock;
  if (clock && clock.seat === (table.seat ?? 0)) {
    parts.misses.dataset.misses = String(clock.misses);
    parts.misses.textContent = clock.computer_speed
      ? "Three or more missed moves in a row: this hand runs at computer speed. Make a move to get the full clock back."
      : clock.misses > 0
        ? `Time ran out on your last ${clock.misses === 1 ? "move" : `${clock.misses} moves`}: the table played for you. Nothing extra was charged.`
        : "";
  }
  const over = Boolean(table.game_over || table.closed);
  if (over && !parts.settled) parts.leave.hidden = true;
  if (over && !parts.refreshed) {
    parts.refreshed = true; // a win was paid before the end was announced: show the balance
    me(true).catch(() => {});
  }
}

/** "Rules: redeal — If everyone passes twice, the same dealer deals a new hand. The dealer
 * is never forced to call.": the rules this table plays, from its snapshot. */
export function rulesLine(table) {
  const name = (table.preset ?? "custom").replace(/-/g, " ");
  const pass = (table.rules_text ?? []).find((s) => s.includes("passes twice"));
  if (!pass) return `Rules: ${name}`;
  const never = table.rules?.stick_the_dealer ? "" : " The dealer is never forced to call.";
  return `Rules: ${name} — ${pass}${never}`;
}

function build(slot, table) {
  const stake = table.extra?.stake ?? 0;
  const fee = Math.ceil(stake / 10);
  const parts = { id: table.id, settled: false };
  parts.misses = h("p", { class: "field-help coin-misses", dataset: { misses: "0" } });
  parts.result = h("p", { class: "coin-result", role: "status", "aria-live": "polite" });
  parts.leave = h(
    "button",
    {
      type: "button",
      class: "tool leave-button",
      onclick: async () => {
        const ok = window.confirm(`Leave this game? You forfeit your ${coins(stake)} stake and pay a ${coins(fee)} leaving fee.`);
        if (!ok) return;
        parts.leave.disabled = true;
        try {
          const left = await call("POST", `/api/tables/${encodeURIComponent(table.id)}/leave`);
          setBalance(left.balance);
          parts.settled = true;
          parts.leave.hidden = true;
          parts.result.dataset.fee = String(left.fee);
          parts.result.textContent = left.left
            ? `You left the game: your ${coins(left.stake_forfeit)} stake is forfeit and a ${coins(left.fee)} leaving fee was charged. Balance: ${coins(left.balance)}.`
            : `The game was already over: nothing was charged. Balance: ${coins(left.balance)}.`;
        } catch (e) {
          parts.result.textContent = e.message;
          parts.leave.disabled = false;
        }
      },
    },
    `Leave game (costs ${coins(stake + fee)})`,
  );
  fill(
    slot,
    h("p", { class: "coin-stake" }, `Coin table · stake ${coins(stake)} · a win pays ${coins(2 * stake)}`),
    h("p", { class: "coin-rules" }, rulesLine(table)),
    parts.misses,
    parts.leave,
    parts.result,
    h("p", { class: "field-help" }, NOTICE),
  );
  return parts;
}
