// The coin tables page (/coins): choose a stake, see what a win pays and what leaving costs,
// and sit down against the computer. Needs an account.

import { fill, h } from "../js/dom.js";
import { navigate } from "../js/nav.js";
import { rememberSeat } from "../js/storage.js";
import { coverText } from "../js/cover.js";
import { CLOCK_PARAGRAPHS } from "./rules-text.js";
import { NOTICE, call, coins, me, setBalance } from "./session.js";

/** Mount the coin tables page. */
export function mountCoins(main) {
  const page = h("div", { class: "page coins-page" });
  fill(main, page);
  fill(page, h("p", { role: "status" }, "Loading the stakes…"));
  let alive = true;
  Promise.all([call("GET", "/api/stakes"), me(true)])
    .then(([stakes, account]) => alive && draw(page, stakes, account))
    .catch((error) => fill(page, h("p", { class: "error", role: "alert" }, error.message)));
  return () => {
    alive = false;
  };
}

function draw(page, stakes, account) {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const choices = stakes.stakes.map((s) => {
    // One request id per button: a double click sends the same id and opens one table.
    const requestId = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
    const affordable = account && account.balance >= s.cover; // the stake and the fee's cover
    const button = h(
      "button",
      {
        type: "button",
        class: "start-button stake-button",
        dataset: { stake: String(s.stake) },
        disabled: !account || !affordable || Boolean(account.active_table),
        onclick: async () => {
          button.disabled = true;
          error.hidden = true;
          try {
            const table = await call("POST", "/api/tables", { kind: "coin", stake: s.stake, request_id: requestId });
            rememberSeat(table.id, table.token);
            setBalance(table.balance);
            navigate(table.url);
          } catch (e) {
            error.textContent = e.message;
            error.hidden = false;
            button.disabled = false;
          }
        },
      },
      `Play for ${coins(s.stake)}`,
    );
    return h(
      "li",
      { class: "stake" },
      h("p", { class: "stake-line" }, h("strong", {}, coins(s.stake)), ` stake · a win pays ${coins(s.payout)} (your stake back plus ${coins(s.winnings)})`),
      h("p", { class: "field-help stake-cover" }, `${coverText(s.stake)} Leaving before the end costs the stake and the ${coins(s.leaving_fee)} leaving fee, always in full.`),
      button,
    );
  });
  const who = !account
    ? h("p", {}, "Coin tables need an account. ", h("a", { href: "/account" }, "Sign in or create one"), " (a new account starts with 1,000 coins).")
    : account.active_table
      ? h("p", {}, "You are already playing a coin game. ", h("a", { href: account.active_table.url }, "Back to your table"))
      : h("p", {}, `Your balance: ${coins(account.balance)}.`);
  fill(
    page,
    h("h1", {}, "Coin tables"),
    h("p", {}, "You and a computer partner against two computer players, game to 10. The coin site's rules: when all four pass twice, the same dealer deals a new hand; the dealer is never forced to call. ", stakes.rule),
    h("p", { class: "notice" }, NOTICE),
    who,
    error,
    h("ul", { class: "stake-list" }, choices),
    h("section", { class: "house-rules" }, h("h2", {}, "Your clock"), CLOCK_PARAGRAPHS.map((p) => h("p", {}, p))),
  );
}
