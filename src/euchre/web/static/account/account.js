// The account page (/account): sign up or sign in; then the balance, the free top-up, the
// coin history, the coin games with their replays, and the statistics.

import { fill, h } from "../js/dom.js";
import { navigate } from "../js/nav.js";
import { heldSeats, rememberSeat } from "../js/storage.js";
import { practiceStats } from "../js/my-stats.js";
import { playedGamesSection } from "../js/played-games.js";
import { ratingDelta, ratingHelp } from "../js/rating-words.js";
import { botsSection } from "./bots.js";
import { personSection, statsTable } from "./person-stats.js";
import { NOTICE, call, coins, me, setMe } from "./session.js";

const REASONS = {
  welcome: "Welcome coins",
  topup: "Free daily top-up",
  stake: "Stake held",
  payout: "Win paid",
  fee: "Leaving fee",
  refund: "Stake refunded",
  entry: "Tournament entry",
  prize: "Tournament prize",
  entry_refund: "Tournament entry refunded",
};

const STATS = [
  ["games", "Games"],
  ["wins", "Wins"],
  ["losses", "Losses"],
  ["left", "Left early"],
  ["hands", "Hands played"],
  ["trump_called", "Trump called"],
  ["hands_made", "Hands made"],
  ["euchred", "Times euchred"],
  ["euchres", "Euchres"],
  ["loners_tried", "Loners tried"],
  ["loners_made", "Loners made"],
  ["loner_marches", "Lone marches"],
];

/** Mount the account page. */
export function mountAccount(main) {
  const page = h("div", { class: "page account-page" });
  fill(main, page);
  let alive = true;
  const show = async () => {
    fill(page, h("p", { role: "status" }, "Loading your account…"));
    let account;
    try {
      account = await me(true);
    } catch (error) {
      fill(page, h("p", { class: "error", role: "alert" }, error.message));
      return;
    }
    if (!alive) return;
    if (!account) signInForms(page, show);
    else await accountView(page, account, show);
  };
  show();
  return () => {
    alive = false;
  };
}

function signInForms(page, done) {
  const form = (title, path, submitLabel, autocomplete) => {
    const signUp = path === "/api/accounts";
    const error = h("p", { class: "error", role: "alert", hidden: true });
    const username = h("input", { name: "username", required: true, autocomplete: "username", minlength: 3, maxlength: 24, "aria-describedby": signUp ? "username-rule" : null });
    const password = h("input", { name: "password", type: "password", required: true, autocomplete, minlength: 8, maxlength: 200, "aria-describedby": signUp ? "password-rule" : null });
    const button = h("button", { type: "submit", class: "start-button" }, submitLabel);
    const element = h(
      "form",
      {
        class: "choose-box account-form",
        dataset: { form: path === "/api/accounts" ? "sign-up" : "sign-in" },
        onsubmit: async (event) => {
          event.preventDefault();
          button.disabled = true;
          error.hidden = true;
          try {
            const who = await call("POST", path, { username: username.value, password: password.value });
            setMe(who);
            // Seats taken here as a guest become the account's: they open from any browser.
            const held = heldSeats();
            if (held.length) {
              await call("POST", "/api/me/seats", { seats: held }).catch(() => null);
              setMe({ ...who }); // redraw what lists the person's games
            }
            done();
          } catch (e) {
            error.textContent = e.message;
            error.hidden = false;
            button.disabled = false;
          }
        },
      },
      h("h2", {}, title),
      h("label", { class: "field" }, h("span", {}, "Username"), username),
      signUp ? h("p", { class: "field-help", id: "username-rule" }, "3 to 24 letters, digits, _, - or ., starting with a letter or digit.") : null,
      h("label", { class: "field" }, h("span", {}, "Password"), password),
      // The rules up front, not only after a refused sign-up (the server's rules: 8 to 200
      // characters; accounts/service.py).
      signUp ? h("p", { class: "field-help", id: "password-rule" }, "At least 8 characters (up to 200). A short sentence is easy to remember and hard to guess.") : null,
      error,
      button,
    );
    return element;
  };
  fill(
    page,
    h("h1", {}, "Your account"),
    h(
      "p",
      { class: "notice" },
      "Practice tables need no account. Coin tables use play coins: a new account starts with 1,000. ",
      NOTICE,
    ),
    h(
      "div",
      { class: "account-forms" },
      form("Sign in", "/api/session", "Sign in", "current-password"),
      form("Create an account", "/api/accounts", "Create account", "new-password"),
    ),
    practiceSection(),
  );
}

async function accountView(page, account, refresh) {
  const [ledger, games, person, ratingHistory] = await Promise.all([
    call("GET", "/api/me/ledger?limit=100"),
    call("GET", "/api/me/games"),
    call("GET", "/api/me/stats").catch(() => null),
    call("GET", "/api/me/ratings").catch(() => null),
  ]);
  const active = account.active_table;
  if (active) rememberSeat(active.id, active.token);
  const topUp = account.can_top_up
    ? h(
        "button",
        {
          type: "button",
          class: "start-button",
          onclick: async (event) => {
            event.target.disabled = true;
            try {
              await call("POST", "/api/me/topup");
            } finally {
              refresh();
            }
          },
        },
        `Take today's free top-up (to ${coins(account.top_up_to)})`,
      )
    : null;
  fill(
    page,
    h("h1", {}, account.username),
    h(
      "section",
      { class: "choose-box balance-box", "aria-label": "Balance" },
      h("p", { class: "balance" }, h("span", { class: "balance-label" }, "Balance "), h("strong", { dataset: { balance: String(account.balance) } }, coins(account.balance))),
      h("p", { class: "notice" }, NOTICE),
      active
        ? h("p", {}, `You are playing a coin game for ${coins(active.stake)}. `, h("a", { href: active.url }, "Back to your table"))
        : h("p", {}, h("a", { href: "/coins" }, "Play a coin table against the computer")),
      topUp,
      h(
        "button",
        {
          type: "button",
          class: "tool",
          onclick: async () => {
            await call("DELETE", "/api/session");
            setMe(null);
            navigate("/account", { replace: true });
          },
        },
        "Sign out",
      ),
    ),
    playedGamesSection("/api/me/played"),
    h("p", { class: "field-help" }, h("a", { href: `/people/${encodeURIComponent(account.username)}` }, "Your public page"), " (your games at public online tables, as others see them)"),
    person ? personSection(person) : null,
    ratingHistory?.changes?.length ? ratingHistorySection(ratingHistory.changes) : null,
    statsSection(games.stats),
    gamesSection(games.games),
    ledgerSection(ledger.entries),
    botsSection(),
  );
}

function practiceSection() {
  const stats = practiceStats();
  return h(
    "section",
    { "aria-label": "Practice statistics", class: "person-section" },
    h("h2", {}, "Your practice statistics"),
    stats.games || stats.hands
      ? [h("p", { class: "field-help" }, "Kept in this browser only. Sign in and your games count on your account, from every browser."), statsTable([["practice", stats]], "Practice statistics")]
      : h("p", {}, "Finish a practice game and your statistics appear here (kept in this browser)."),
  );
}

function statsSection(stats) {
  return h(
    "section",
    { "aria-label": "Statistics" },
    h("h2", {}, "Coin table statistics"),
    h("p", { class: "field-help" }, "Coin tables only (a stake against the computer), finished or left early; every kind of table is counted above."),
    h("dl", { class: "stats" }, STATS.flatMap(([key, label]) => [h("dt", {}, label), h("dd", { dataset: { stat: key } }, String(stats[key] ?? 0))])),
  );
}

function gamesSection(games) {
  const rows = games.map((g) =>
    h(
      "tr",
      {},
      h("td", {}, new Date(g.started).toLocaleString()),
      h("td", {}, coins(g.stake)),
      h("td", {}, statusText(g)),
      h("td", {}, g.score ? `${g.score[0]}–${g.score[1]}` : "–"),
      h("td", {}, g.replay ? h("a", { href: g.replay }, "Replay") : g.status === "active" ? h("a", { href: `/table/${g.id}` }, "Play on") : "–"),
    ),
  );
  return h(
    "section",
    { "aria-label": "Coin games" },
    h("h2", {}, "Coin games"),
    games.length
      ? h("table", { class: "account-table games" }, h("thead", {}, h("tr", {}, ["Started", "Stake", "Result", "Score", ""].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows))
      : h("p", {}, "No coin games yet."),
  );
}

function statusText(game) {
  return {
    active: "Playing",
    won: `Won ${coins(game.payout)}`,
    lost: "Lost the stake",
    left: `Left (stake and ${coins(game.leaving_fee)} fee)`,
    refunded: "Refunded",
  }[game.status] ?? game.status;
}

function ledgerSection(entries) {
  const rows = entries.map((e) =>
    h(
      "tr",
      { dataset: { reason: e.reason } },
      h("td", {}, new Date(e.time).toLocaleString()),
      h("td", {}, REASONS[e.reason] ?? e.reason),
      h("td", { class: e.amount < 0 ? "amount minus" : "amount plus" }, `${e.amount > 0 ? "+" : ""}${e.amount.toLocaleString("en-US")}`),
      h("td", { class: "amount" }, e.balance_after.toLocaleString("en-US")),
    ),
  );
  return h(
    "section",
    { "aria-label": "Coin history" },
    h("h2", {}, "Coin history"),
    h("p", { class: "notice" }, NOTICE),
    h("table", { class: "account-table ledger" }, h("thead", {}, h("tr", {}, ["When", "What", "Coins", "Balance"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)),
  );
}

/** The rating before and after each rated game, newest first, with its replay. */
function ratingHistorySection(changes) {
  return h(
    "section",
    { "aria-label": "Rating history", class: "person-section rating-history" },
    h("h2", {}, "Rating history"),
    h(
      "table",
      { class: "account-table ledger" },
      h("thead", {}, h("tr", {}, ["When", "Game", "Result", "Before", "After", "Change"].map((t) => h("th", { scope: "col" }, t)))),
      h(
        "tbody",
        {},
        changes.map((c) => {
          return h(
            "tr",
            { dataset: { game: c.game_id } },
            h("td", {}, new Date(c.at).toLocaleString()),
            h("td", {}, h("a", { href: `/replay/${encodeURIComponent(c.game_id)}` }, "Replay")),
            h("td", {}, c.won ? "Won" : "Lost"),
            h("td", { title: ratingHelp(c.before, false) }, String(c.before.number)),
            h("td", { title: ratingHelp(c.after, false) }, String(c.after.number)),
            h("td", {}, ratingDelta(c.before, c.after)),
          );
        }),
      ),
    ),
  );
}
