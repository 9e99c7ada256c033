// A person's finished games, newest first, a page at a time: "Your games" on the account page
// (GET /api/me/played) and a person's own page /people/{name} (GET /api/people/{name}/games:
// their games at public online tables, no coins). One entry per game: result and score from
// their side, kind and rules, when, partner and opponents, rating change, coins, the replay.

import { personTournaments } from "./tournaments.js";
import { request } from "./api.js";
import { fill, h } from "./dom.js";
import { ratingBadge, ratingExplained } from "./rating-words.js";

const KINDS = { practice: "Practice", coin: "Coin table", online: "Online" };
const RESULTS = { won: "Won", lost: "Lost", ended: "Ended early" };

function humanise(name) {
  const text = String(name).replaceAll("-", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Bob", "North (computer)" (the server names a computer as the table did), "annbot (bot)". */
function who(seat) {
  return seat.bot ? `${seat.name} (bot)` : seat.name;
}

function signedNumber(n) {
  return n === 0 ? "±0" : `${n > 0 ? "+" : "−"}${Math.abs(n).toLocaleString("en-US")}`;
}

function entry(game) {
  const when = new Date(game.finished);
  const score = game.score ? ` ${game.score[0]}–${game.score[1]}` : "";
  const facts = [
    game.rating ? h("span", { class: "played-rating" }, `Rating ${game.rating.before} → ${game.rating.after} (${signedNumber(game.rating.after - game.rating.before)})`) : null,
    game.coins !== null && game.coins !== undefined ? h("span", { class: "played-coins" }, `Coins ${signedNumber(game.coins)}`) : null,
    h("a", { href: game.replay, "aria-label": `Replay the game of ${when.toLocaleDateString()}` }, "Replay"),
  ].filter(Boolean);
  return h(
    "li",
    { class: `played-game ${game.result}`, dataset: { game: game.id } },
    h("p", { class: "played-head" },
      h("strong", { class: "played-result" }, `${RESULTS[game.result] ?? game.result}${score}`),
      " · ", `${KINDS[game.kind] ?? humanise(game.kind)}, ${humanise(game.preset)} rules`,
      " · ", h("time", { datetime: game.finished }, when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }))),
    h("p", { class: "played-people" }, `With ${who(game.partner)}, against ${game.opponents.map(who).join(" and ")}`),
    h("p", { class: "played-facts" }, facts.flatMap((f, i) => (i ? [" · ", f] : [f]))),
  );
}

/** A section listing the finished games `path` answers, a page at a time. */
export function playedGamesSection(path, { title = "Your games", empty = "No finished games yet." } = {}) {
  const list = h("ul", { class: "played-list", "aria-label": title });
  const status = h("p", { class: "field-help", role: "status" }, "Loading the games…");
  const pager = h("p", { class: "pager" });
  const section = h("section", { class: "person-section played-games", "aria-label": title }, h("h2", {}, title), status, list, pager);
  const PAGE = 10;
  const offsets = []; // where each page before this one started, for Previous

  async function show(offset) {
    let page;
    try {
      page = await request("GET", `${path}?limit=${PAGE}&offset=${offset}`);
    } catch (error) {
      status.textContent = `Could not load the games: ${error.message}`;
      return;
    }
    status.textContent = page.games.length || offset ? "" : empty;
    status.hidden = !status.textContent;
    fill(list, page.games.map(entry));
    const prev = offsets.length
      ? h("button", { type: "button", class: "tool", onclick: () => show(offsets.pop()) }, "Newer games")
      : null;
    const next = page.next !== null
      ? h("button", { type: "button", class: "tool", onclick: () => { offsets.push(offset); show(page.next); } }, "Older games")
      : null;
    fill(pager, prev, " ", next);
  }
  show(0);
  return section;
}

/** A person's page (/people/{name}): their rating and their public games. */
export function mountPerson(main, username) {
  const heading = h("h1", {}, username);
  const rating = h("p", { class: "rating-line" });
  const path = `/api/people/${encodeURIComponent(username)}/games`;
  const page = h("div", { class: "page notice person-page" }, heading, rating);
  fill(main, page);
  request("GET", `/api/people/${encodeURIComponent(username)}`)
    .then(({ person }) => {
      if (!person) {
        heading.textContent = "Nobody by that name";
        fill(rating, `There is no one called “${username}” here.`);
        return;
      }
      heading.textContent = person.username;
      document.title = `Euchre: ${person.username}`;
      fill(rating, person.rating ? ["Rating ", ratingBadge(person.rating)] : "No rating yet.");
      // Asked only for someone who exists: an unknown name's 404 is no error of the page.
      rating.after(personTournaments(person.username));
      page.append(
        person.rating ? ratingExplained() : "",
        playedGamesSection(path, { title: "Public games", empty: "No finished games at public tables yet." }),
      );
    })
    .catch((error) => {
      fill(rating, `Could not load the page: ${error.message}`);
    });
  return () => {};
}
