// The lobby (/lobby): "Play now" (rules, clock, stake, rated) and, pushed live over /ws/lobby,
// the open tables (with a Join button) and the games anyone may watch (a Watch link).

import { tournamentsList } from "./tournaments.js";
import { me } from "../account/session.js";
import { getPresets } from "./api.js";
import { myGamesSection, offerNextSteps } from "./my-games.js";
import { fill, h } from "./dom.js";
import { openLive } from "./live.js";
import { navigate } from "./nav.js";
import { call, holdSeat, humanise, savedName, NAME_KEY } from "./online.js";
import { cover } from "./cover.js";
import { ratingBadge } from "./rating-words.js";
import { botLabel } from "./words.js";

const CLOCKS = [15, 30, 60];
const STAKES = [0, 10, 50, 100, 500];

function clockText(seconds) {
  return `${seconds} s a move`;
}

function stakeText(stake) {
  return stake ? `${stake} coins` : "no stake";
}

/** "Ann, Bob" (names, never compass points) or "nobody yet". */
function seatedNames(table) {
  const names = table.seats.filter((s) => s.taken).map((s) => botLabel(s.name, s.bot));
  return names.length ? names.join(", ") : "nobody yet";
}

/** The seated names, each signed-in person's rating beside their name ("Ann 1620?, Bob"). */
function seatedWithRatings(table) {
  const seated = table.seats.filter((s) => s.taken);
  if (!seated.length) return "nobody yet";
  return seated.flatMap((s, i) => [i ? ", " : "", h("span", { class: "lobby-name" }, botLabel(s.name, s.bot)), ...(s.rating ? [" ", ratingBadge(s.rating)] : [])]);
}

function facts(table) {
  return [
    humanise(table.preset),
    clockText(table.seconds_per_move),
    stakeText(table.stake),
    table.rated ? "rated" : "unrated",
    table.quick ? "quick play" : "public table", // a private table is never listed here
    table.talk === false ? "silent table" : null, // no quick messages there
  ].filter(Boolean).join(" · ");
}

function openRow(table) {
  const free = table.free === 1 ? "1 seat free" : `${table.free} seats free`;
  return h(
    "li",
    { class: "lobby-row", dataset: { id: table.id } },
    h("div", { class: "lobby-what" },
      h("strong", { class: "lobby-names" }, seatedWithRatings(table)),
      h("span", { class: "lobby-facts" }, facts(table)),
      h("span", { class: "lobby-free" }, free)),
    h("a", { class: "button-link lobby-join", href: table.url, "aria-label": `Join ${seatedNames(table)}: ${facts(table)}` }, "Join"),
  );
}

function gameRow(game) {
  const computers = game.free === 1 ? "and 1 computer" : game.free ? `and ${game.free} computers` : null;
  return h(
    "li",
    { class: "lobby-row", dataset: { id: game.id } },
    h("div", { class: "lobby-what" },
      h("strong", { class: "lobby-names" }, seatedWithRatings(game)),
      computers ? h("span", { class: "lobby-free" }, computers) : null,
      h("span", { class: "lobby-facts" }, facts(game))),
    h("a", { class: "button-link lobby-watch", href: game.watch ?? `/watch/${encodeURIComponent(game.id)}`, "aria-label": `Watch ${seatedNames(game)}` }, "Watch"),
  );
}

/** The lobby page. */
export function mountLobbyPage(main) {
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const status = h("p", { class: "lobby-status field-help", role: "status" }, "Connecting…");
  const name = h("input", { id: "quick-name", name: "name", maxlength: "24", autocomplete: "nickname", value: savedName() });
  const nameField = h("div", { class: "field" }, h("label", { for: "quick-name" }, "Your name"), name);
  const preset = h("select", { id: "quick-preset", name: "preset" }, h("option", { value: "classic" }, "Classic"));
  const clock = h("select", { id: "quick-clock", name: "clock" },
    CLOCKS.map((s) => h("option", { value: String(s), selected: s === 30 }, clockText(s))));
  const stake = h("select", { id: "quick-stake", name: "stake" },
    STAKES.map((s) => h("option", { value: String(s) }, s ? `${stakeText(s)} (sitting needs ${cover(s)})` : stakeText(s))));
  // Rated games and stakes are for signed-in people: a guest cannot tick or choose them.
  const rated = h("input", { id: "quick-rated", name: "rated", type: "checkbox", disabled: true });
  const play = h("button", { type: "submit", class: "big-button play-now" }, "Play now");
  const signedNote = h("p", { class: "field-help" }, "Stakes and rated games are for signed-in people. ", h("a", { href: "/account" }, "Sign in"));
  const form = h(
    "form",
    { class: "choose quick-form", "aria-label": "Play now" },
    nameField,
    h("div", { class: "field" }, h("label", { for: "quick-preset" }, "Rules"), preset),
    h("div", { class: "field" }, h("label", { for: "quick-clock" }, "Clock"), clock),
    h("div", { class: "field" }, h("label", { for: "quick-stake" }, "Stake"), stake),
    h("div", { class: "field field-check" }, rated, h("label", { for: "quick-rated" }, "Rated (four signed-in people, no computers)")),
    signedNote,
    play,
  );
  const openList = h("ul", { class: "game-list lobby-list", id: "lobby-open", "aria-label": "Open tables" });
  const gameList = h("ul", { class: "game-list lobby-list", id: "lobby-games", "aria-label": "Games to watch" });
  fill(
    main,
    h(
      "div",
      { class: "page lobby-page" },
      myGamesSection(), // the person's own waiting tables and games, first
      h("section", { class: "choose-box lobby-play" },
        h("h1", {}, "Lobby"),
        h("p", { class: "field-help" }, "Play now seats you at the next table with the same rules, clock and stake, or opens one. The game starts when four people sit, or when everyone seated agrees to fill the empty seats with computers."),
        form, errorBox,
        h("p", { class: "field-help" }, "Or ", h("a", { href: "/online" }, "open a table of your own"), ": public (listed here) or private (only people you send its link to can join).")),
      h("section", { class: "choose-box lobby-tables" },
        h("h2", {}, "Open tables"), status, openList,
        h("h2", {}, "Live games"), gameList),
      h("section", { class: "choose-box" }, tournamentsList()),
    ),
  );

  let account = null;
  me().then((who) => {
    account = who;
    nameField.hidden = Boolean(who);
    signedNote.hidden = Boolean(who);
    rated.disabled = !who;
    stake.disabled = !who;
  }).catch(() => {});

  getPresets()
    .then((data) => {
      const names = (data?.presets ?? []).map((p) => p.name);
      if (names.length) fill(preset, names.map((n) => h("option", { value: n }, humanise(n))));
    })
    .catch(() => {});

  const tables = new Map();
  const games = new Map();
  const order = new Map(); // table id -> when we first heard of it (or of its start): newest first
  const newest = (a, b) => (order.get(b.id) ?? 0) - (order.get(a.id) ?? 0);
  function render() {
    const open = [...tables.values()].sort(newest);
    fill(openList, open.length ? open.map(openRow) : h("li", { class: "lobby-empty" }, "No table is waiting for players. Press Play now to open one."));
    const live = [...games.values()].sort(newest);
    fill(gameList, live.length ? live.map(gameRow) : h("li", { class: "lobby-empty" }, "No game to watch just now."));
  }
  function put(table) {
    tables.delete(table.id);
    games.delete(table.id);
    if (table.status === "open") tables.set(table.id, table);
    else if (table.status === "started" && table.spectators) games.set(table.id, table);
  }
  let counter = 0;
  const close = openLive("/ws/lobby", (message) => {
    if (message.type === "lobby") {
      tables.clear();
      games.clear();
      order.clear();
      [...message.tables].reverse().forEach((t) => { order.set(t.id, ++counter); put(t); });
      [...message.games].reverse().forEach((t) => { order.set(t.id, ++counter); put(t); });
    } else if (message.type === "table") {
      if (!order.has(message.table.id) || message.table.status === "started") order.set(message.table.id, ++counter);
      put(message.table);
    } else if (message.type === "gone") {
      tables.delete(message.id);
      games.delete(message.id);
    }
    render();
  }, (state, reason) => {
    status.textContent = state === "open" ? "Live: tables appear and fill as people join."
      : state === "refused" ? (reason || "Too many connections from your address.")
      : "Reconnecting…";
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    // Pressed before the page knew who is signed in: ask now (else a signed-in person would
    // be asked for a name, and a stake sent without the CSRF token).
    if (!account) account = await me().catch(() => null);
    const guestName = name.value.trim();
    if (!account && !guestName) {
      errorBox.textContent = "Write your name first.";
      errorBox.hidden = false;
      name.focus();
      return;
    }
    play.disabled = true;
    try {
      if (!account) localStorage.setItem(NAME_KEY, guestName);
      const body = { preset: preset.value, seconds_per_move: Number(clock.value), stake: Number(stake.value), rated: rated.checked };
      if (!account) body.name = guestName;
      const got = await call("POST", "/api/online/quick", body);
      holdSeat(got.id, got.seat, got.token);
      navigate(got.url);
    } catch (error) {
      errorBox.textContent = `Could not find you a seat: ${error.message}`;
      errorBox.hidden = false;
      offerNextSteps(errorBox); // where they already sit: "Back to your table", "Leave"
      play.disabled = false;
    }
  });
  render();
  return close;
}
