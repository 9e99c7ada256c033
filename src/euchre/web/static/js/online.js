// Online tables against real people: the "Play online" section (create a table, list the open
// ones), the /online page, and the waiting page /online/{id} (invite link, seats, start).
// Once the game starts the ordinary table page plays it, from whichever seat we hold.

import { ratingBadge } from "./rating-words.js";
import { call as accountCall, me } from "../account/session.js";
import { getPresets } from "./api.js";
import { fill, h } from "./dom.js";
import { openLive } from "./live.js";
import { navigate } from "./nav.js";
import { liveGames, offerNextSteps } from "./my-games.js";
import { rememberSeat } from "./storage.js";
import { cover, coverText, leavingFee } from "./cover.js";
import { botLabel } from "./words.js";

const KEY = "euchre.online";
export const NAME_KEY = "euchre.onlineName";
const POSITIONS = ["South", "West", "North", "East"];

// Calls that change something carry the session's CSRF token when someone is signed in
// (a signed-in person sits under their account; rated tables require it).
export async function call(method, path, body) {
  if (method !== "GET") await me().catch(() => null);
  return accountCall(method, path, body);
}

async function signedIn() {
  return me().catch(() => null);
}

function held() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

/** Our seat at an online table before its start: {token, seat}, or null. */
function heldSeat(id) {
  return held()[id] ?? null;
}

export function holdSeat(id, seat, token) {
  const all = held();
  all[id] = { seat, token, at: Date.now() };
  const recent = Object.entries(all).sort((a, b) => b[1].at - a[1].at).slice(0, 30);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(recent)));
}

function dropSeat(id) {
  const all = held();
  delete all[id];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function savedName() {
  return localStorage.getItem(NAME_KEY) || "";
}

export function humanise(name) {
  const text = String(name).replaceAll("-", " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describe(table) {
  const host = table.seats.find((s) => s.taken)?.name ?? "Someone"; // a quick table's South may have left
  const free = table.free === 1 ? "1 seat free" : `${table.free} seats free`;
  const rated = table.rated ? "rated, " : "";
  const stake = table.stake ? `stake ${table.stake} coins, ` : "";
  return `${host}'s table: ${rated}${stake}${humanise(table.preset)}, ${table.seconds_per_move} s a move, ${free}`;
}

/** The "Play online" section: a form to open a table and the list of open tables. */
export function mountOnlineSection(section) {
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const name = h("input", { id: "online-name", name: "name", maxlength: "24", required: true, autocomplete: "nickname", value: savedName() });
  const preset = h("select", { id: "online-preset", name: "preset" }, h("option", { value: "classic" }, "Classic"));
  const seconds = h("input", { id: "online-seconds", name: "seconds", type: "number", min: "5", max: "600", step: "1", value: "30", required: true });
  const level = h("select", { id: "online-level", name: "level" },
    ["easy", "medium", "hard", "expert"].map((l) => h("option", { value: l, selected: l === "medium" }, humanise(l))));
  const rated = h("input", { id: "online-rated", name: "rated", type: "checkbox" });
  // Outside bots (programs with a bot token) may sit at unrated tables; at a rated one only if allowed.
  const allowBots = h("input", { id: "online-allow-bots", name: "allow_bots", type: "checkbox" });
  // A coin stake (signed-in people only): each person stakes it at the start, the winners share the pot.
  const stake = h("select", { id: "online-stake", name: "stake" },
    [0, 10, 50, 100, 500].map((c) => h("option", { value: String(c) }, c ? `${c} coins (sitting needs ${cover(c)})` : "No stake")));
  // Two choices apart: who can find the table (listed or private), and whether people not
  // seated may watch its game (the API's `private` and `spectators`).
  const listedChoice = h("input", { id: "online-listed", name: "visibility", type: "radio", value: "listed", checked: true });
  const privateChoice = h("input", { id: "online-private", name: "visibility", type: "radio", value: "private" });
  const watchers = h("input", { id: "online-watchers", name: "spectators", type: "checkbox", checked: true });
  // Quick messages ("Hello", "Good game" …) before the first deal, between hands and after
  // the game, never during a hand; unticked: a silent table (the API's `talk`).
  const talk = h("input", { id: "online-talk", name: "talk", type: "checkbox", checked: true });
  const create = h("button", { type: "submit", class: "start-button" }, "Create an online table");
  // Signed in, the table seats you under your account's name: no name to ask. A guest cannot
  // tick Rated, allow bots or choose a stake (those are for signed-in people).
  const nameField = h("div", { class: "field" }, h("label", { for: "online-name" }, "Your name"), name);
  const guestNote = h("p", { class: "field-help guest-note" }, "Rated tables and stakes are for signed-in people. ", h("a", { href: "/account" }, "Sign in"));
  const forAccounts = [rated, allowBots, stake];
  for (const control of forAccounts) control.disabled = true;
  signedIn().then((who) => {
    nameField.hidden = Boolean(who);
    name.required = !who;
    guestNote.hidden = Boolean(who);
    for (const control of forAccounts) control.disabled = !who;
  });
  const form = h(
    "form",
    { class: "choose", "aria-label": "Create an online table" },
    nameField,
    h("div", { class: "field" }, h("label", { for: "online-preset" }, "Rules to play by"), preset),
    h("div", { class: "field" }, h("label", { for: "online-seconds" }, "Seconds per move"), seconds),
    h("div", { class: "field" }, h("label", { for: "online-level" }, "Computer players in empty seats"), level),
    h("div", { class: "field field-check" }, rated, h("label", { for: "online-rated" }, "Rated: signed-in people only, four of them, no computers")),
    h("div", { class: "field field-check" }, allowBots, h("label", { for: "online-allow-bots" }, "Allow outside bots at a rated table (they are rated with you)")),
    h("div", { class: "field" }, h("label", { for: "online-stake" }, "Coin stake (signed-in people; the winners share the pot)"), stake),
    guestNote,
    h("fieldset", { class: "visibility-choice" },
      h("legend", {}, "Who can find the table"),
      h("div", { class: "field field-check" }, listedChoice, h("label", { for: "online-listed" }, "Public: listed in the lobby, anyone may join")),
      h("div", { class: "field field-check" }, privateChoice, h("label", { for: "online-private" }, "Private: not listed; only people you send the link to can join"))),
    h("div", { class: "field field-check" }, watchers, h("label", { for: "online-watchers" }, "Let people who are not playing watch the game")),
    h("div", { class: "field field-check" }, talk, h("label", { for: "online-talk" }, "Quick messages between hands (Hello, Good game …); untick for a silent table")),
    create,
  );
  const list = h("ul", { class: "game-list online-list", "aria-label": "Open online tables" });
  const refresh = h("button", { type: "button", class: "tool", onclick: () => loadList() }, "Refresh the list");
  // The list comes a page at a time (GET /api/online?cursor=...): "More tables" asks for the next.
  let next = null;
  const more = h("button", { type: "button", class: "tool", id: "online-more", hidden: true, onclick: () => loadList(next) }, "More tables");
  fill(
    section,
    h("h2", {}, "Play online"),
    h("p", { class: "field-help" }, "Play against real people: ", h("a", { href: "/lobby" }, "Play now in the lobby"), ", open a table and share its invite link, or join an open table. Each move has its own clock; when it runs out the table plays that move for you."),
    form,
    errorBox,
    h("h3", {}, "Open tables"),
    list,
    more,
    refresh,
  );

  getPresets()
    .then((data) => {
      const names = (data?.presets ?? []).map((p) => p.name);
      if (names.length) fill(preset, names.map((n) => h("option", { value: n }, humanise(n))));
    })
    .catch(() => {});

  // Bumped by every load of the first page: an answer asked for before a newer refresh
  // (a first page, or the next page of the list it replaced) is dropped, never drawn over it.
  let listAsked = 0;
  async function loadList(cursor = null) {
    const asked = cursor ? listAsked : ++listAsked;
    try {
      const page = await call("GET", cursor ? `/api/online?cursor=${encodeURIComponent(cursor)}` : "/api/online");
      if (asked !== listAsked) return;
      const items = page.tables.map((t) =>
        h(
          "li",
          { dataset: { rated: String(Boolean(t.rated)) } },
          h("a", { href: t.url, "aria-label": `Join ${describe(t)}` }, describe(t)),
          t.rated ? h("span", { class: "rated-mark" }, " Rated") : null,
          seatedPeople(t),
        ),
      );
      if (cursor) list.append(...items);
      else fill(list, items.length ? items : h("li", {}, "No table is waiting for players right now."));
      next = page.next ?? null;
      more.hidden = !next;
    } catch (error) {
      if (asked !== listAsked) return;
      fill(list, h("li", { class: "error" }, `Could not load the open tables: ${error.message}`));
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    create.disabled = true;
    try {
      const guest = !nameField.hidden; // signed in: the account's name, none to send
      if (guest) localStorage.setItem(NAME_KEY, name.value.trim());
      const made = await call("POST", "/api/tables", {
        kind: "online", ...(guest ? { name: name.value.trim() } : {}), preset: preset.value,
        seconds_per_move: Number(seconds.value), level: level.value, rated: rated.checked,
        stake: Number(stake.value), allow_bots: rated.checked && allowBots.checked,
        private: privateChoice.checked, spectators: watchers.checked, talk: talk.checked,
      });
      holdSeat(made.id, made.seat, made.token);
      navigate(made.url);
    } catch (error) {
      errorBox.textContent = `Could not open an online table: ${error.message}`;
      errorBox.hidden = false;
      create.disabled = false;
    }
  });
  loadList();
}

/** The people seated at a listed table, each with their rating when they have one. */
function seatedPeople(table) {
  const seated = table.seats.filter((s) => s.taken);
  if (!seated.length) return null;
  const parts = seated.flatMap((s, i) => [i ? ", " : "", botLabel(s.name, s.bot), ...(s.rating ? [" ", ratingBadge(s.rating)] : [])]);
  return h("span", { class: "seated" }, " — ", parts);
}

/** The /online page: the same section on its own. */
export function mountOnlinePage(main) {
  const section = h("section", { class: "choose-box online-box" });
  fill(main, h("div", { class: "page notice" }, h("h1", {}, "Online tables"), section));
  mountOnlineSection(section);
  return () => {};
}

/** The waiting page of one online table: invite link, seats, and the start, pushed live over
 * /ws/online/{id} (no polling). */
export function mountOnlineLobby(main, id) {
  let stopped = false;
  let last = null; // the table as last pushed
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the table…");
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const body = h("div", { class: "online-lobby" });
  const nameInput = h("input", { id: "lobby-name", maxlength: "24", autocomplete: "nickname", value: savedName() });
  let shown = "";
  let account = null; // who is signed in (a rated table seats only signed-in people)
  signedIn().then((who) => {
    account = who;
    redraw(); // draw again with what we now know
  });
  // A signed-in person's seat here, taken in another browser: theirs here too (no token:
  // the server knows them by their account).
  liveGames().then((games) => {
    const game = games.find((g) => g.id === id && g.status === "waiting");
    if (stopped || !game || heldSeat(id)) return;
    holdSeat(id, game.seat, null);
    redraw();
  });
  // Why a quick table with a stake did not start when it could (pushed: someone seated can
  // no longer cover the stake); shown while the same people sit.
  const refusedBox = h("p", { class: "error start-refused", role: "alert", hidden: true });
  let refusedFor = null;
  fill(main, h("div", { class: "page notice" }, h("h1", {}, "Online table"), status, errorBox, refusedBox, body));

  function enterTable() {
    const mine = heldSeat(id);
    if (!mine) return false;
    rememberSeat(id, mine.token);
    navigate(`/table/${encodeURIComponent(id)}`, { replace: true });
    return true;
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  }

  async function claim(seat) {
    const account = await signedIn();
    const name = account ? account.username : nameInput.value.trim();
    if (!name) {
      showError("Write your name first.");
      nameInput.focus();
      return;
    }
    showError("");
    try {
      localStorage.setItem(NAME_KEY, name);
      // A refusal the server can foresee (someone at this rated table plays from here) is
      // asked first: said on the page, not a refused claim in the browser's console.
      const listing = await call("GET", `/api/online/${encodeURIComponent(id)}/listing`);
      if (listing.seat_refused) {
        showError(`Could not take that seat: ${listing.seat_refused}`);
        redraw();
        return;
      }
      const got = await call("POST", `/api/tables/${encodeURIComponent(id)}/seats`, account ? { seat } : { seat, name });
      holdSeat(id, got.seat, got.token);
    } catch (error) {
      showError(`Could not take that seat: ${error.message}`);
      offerNextSteps(errorBox); // where they already sit: "Back to your table", "Leave"
    }
    redraw();
  }

  async function start() {
    showError("");
    try {
      await call("POST", `/api/tables/${encodeURIComponent(id)}/start`, { token: heldSeat(id)?.token });
      enterTable();
    } catch (error) {
      showError(`Could not start the game: ${error.message}`);
    }
  }

  async function agree() {
    showError("");
    try {
      const done = await call("POST", `/api/online/${encodeURIComponent(id)}/fill`, { token: heldSeat(id)?.token });
      if (done.table.status === "started") enterTable();
    } catch (error) {
      showError(`Could not agree: ${error.message}`);
    }
  }

  async function leave() {
    showError("");
    try {
      await call("POST", `/api/online/${encodeURIComponent(id)}/leave`, { token: heldSeat(id)?.token });
      dropSeat(id);
    } catch (error) {
      showError(`Could not leave the seat: ${error.message}`);
    }
    redraw();
  }

  async function cancel() {
    if (!window.confirm("Cancel this table? Everyone seated is told it was cancelled.")) return;
    showError("");
    try {
      await call("POST", `/api/online/${encodeURIComponent(id)}/cancel`, { token: heldSeat(id)?.token });
    } catch (error) {
      showError(`Could not cancel the table: ${error.message}`);
    }
  }

  function redraw() {
    shown = "";
    if (last) receive(last);
  }

  function render(table) {
    const mine = heldSeat(id);
    const key = JSON.stringify([table, mine, account?.username ?? null]);
    // Rated and stake tables seat signed-in people only.
    const guestAtRated = (table.rated || table.stake > 0) && !account && !mine;
    if (key === shown) return; // nothing changed: keep focus and typing as they are
    shown = key;
    const host = table.seats[0]?.name ?? "the host";
    const copy = h("button", {
      type: "button",
      class: "tool",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(table.invite);
          copy.textContent = "Copied";
        } catch {
          invite.select();
        }
      },
    }, "Copy the invite link");
    const invite = h("input", { id: "invite-link", readonly: true, value: table.invite, onfocus: (e) => e.target.select() });
    const seats = h(
      "ul",
      { class: "game-list", "aria-label": "Seats" },
      table.seats.map((s) =>
        h(
          "li",
          {},
          `${s.position}: `,
          s.taken ? h("strong", {}, botLabel(s.name, s.bot)) : "free",
          s.rating ? [" ", ratingBadge(s.rating)] : null,
          mine && mine.seat === s.seat ? " (you)" : null,
          table.quick && s.taken && s.fill ? h("span", { class: "fill-mark" }, " agreed to fill") : null,
          !mine && !s.taken && !guestAtRated ? h("button", { type: "button", class: "tool", onclick: () => claim(s.seat) }, `Sit ${s.position}`) : null,
        ),
      ),
    );
    const filler = table.rated
      ? `Rated: four signed-in ${table.allow_bots ? "players (outside bots allowed: they are rated with you)" : "people play (no bots)"}, no computers; the game starts when every seat is taken, and everyone's rating changes when it ends.`
      : table.quick
        ? `The game starts when four people sit, or when everyone seated agrees to fill the empty seats with ${table.level} computer players.`
        : `Free seats are played by ${table.level} computer players.`;
    const agreedAlready = mine && table.seats[mine.seat]?.fill;
    const waitingFor = table.seats.filter((s) => s.taken && !s.fill && (!mine || s.seat !== mine.seat)).map((s) => botLabel(s.name, s.bot));
    fill(
      body,
      h("div", { class: "invite" }, h("label", { for: "invite-link" }, "Invite link"), invite, copy),
      h("p", {}, `${humanise(table.preset)} rules, ${table.seconds_per_move} seconds a move. ${filler}`),
      h("p", { class: "visibility-line", dataset: { private: String(Boolean(table.private)) } },
        table.private ? "Private table: not listed in the lobby; only people with the invite link can join." : table.quick ? "Public table: listed in the lobby for Play now." : "Public table: listed in the lobby, anyone may join.",
        " ",
        table.spectators ? "People who are not playing may watch the game." : "No watching: only the people at the table see the game."),
      h("p", { class: "talk-line" },
        table.talk === false ? "Silent table: no quick messages." : "Quick messages (Hello, Good game …) between hands, never during one."),
      h("ul", { class: "rules-list" }, (table.rules_text ?? []).map((line) => h("li", {}, line))),
      h("h2", {}, "Seats"),
      seats,
      table.stake ? h("p", { class: "notice stake-notice" }, `Stake: ${table.stake} coins each, taken when the game starts; the winning side's people share the pot. Leaving a started game forfeits the stake plus a ${leavingFee(table.stake)}-coin leaving fee. ${coverText(table.stake)}`) : null,
      guestAtRated ? h("p", { class: "notice rated-sign-in" }, `This table is ${table.rated ? "rated" : "played for coins"}: only signed-in people may sit. `, h("a", { href: "/account" }, "Sign in or create an account")) : null,
      !mine && !account && !guestAtRated ? h("div", { class: "field" }, h("label", { for: "lobby-name" }, "Your name"), nameInput) : null,
      !mine && account ? h("p", {}, `You sit as ${account.username}.`) : null,
      mine && table.quick && !table.rated && !agreedAlready && table.free > 0 ? h("button", { type: "button", class: "start-button fill-button", onclick: agree }, "Fill the empty seats with computers") : null,
      mine && table.quick && agreedAlready ? h("p", { class: "fill-wait" }, waitingFor.length ? `You agreed to fill with computers. Waiting for ${waitingFor.join(", ")} to agree, or for more people.` : "You agreed to fill with computers.") : null,
      mine && !table.quick && mine.seat === 0 ? h("button", { type: "button", class: "start-button", onclick: start }, "Start the game") : null,
      mine && !table.quick && mine.seat === 0 ? h("button", { type: "button", class: "tool", onclick: cancel }, "Cancel the table") : null,
      mine && (table.quick || mine.seat !== 0) ? h("button", { type: "button", class: "tool", onclick: leave }, "Leave my seat") : null,
    );
    const people = table.seats.filter((s) => s.taken).map((s) => botLabel(s.name, s.bot)).join(", ");
    status.textContent = !mine
      ? (table.quick ? `Choose a free seat at the table with ${people}.` : `Choose a free seat at ${host}'s table.`)
      : table.quick
        ? table.free
          ? `You sit ${POSITIONS[mine.seat]}. Waiting for more people (${table.free} ${table.free === 1 ? "seat" : "seats"} free).`
          : `You sit ${POSITIONS[mine.seat]}. Every seat is taken, but the game has not started.`
        : mine.seat === 0
          ? "Share the invite link; start the game when you are ready."
          : `You sit ${POSITIONS[mine.seat]}. Waiting for ${host} to start the game.`;
  }

  function closedPage(text) {
    status.textContent = text;
    fill(body, h("p", {}, h("a", { class: "button-link", href: "/lobby" }, "Back to the lobby")));
  }

  const seatedKey = (table) => table.seats.map((s) => (s.taken ? s.name : "")).join("\u0000");

  function receive(table) {
    last = table;
    if (refusedFor !== null && seatedKey(table) !== refusedFor) {
      refusedFor = null;
      refusedBox.hidden = true;
    }
    if (table.status === "cancelled") {
      dropSeat(id);
      closedPage(`${table.seats[0]?.name ?? "The host"} cancelled this table.`);
      return;
    }
    if (table.status === "started") {
      if (enterTable()) return;
      status.textContent = "Looking for your seat…";
      liveGames().then((games) => {
        if (stopped) return;
        const game = games.find((g) => g.id === id); // seated from another browser
        if (game) {
          holdSeat(id, game.seat, null);
          enterTable();
          return;
        }
        status.textContent = "This game has started without you.";
        fill(body, h("p", {},
          table.watch ? h("a", { class: "button-link", href: table.watch }, "Watch the game") : null, " ",
          h("a", { class: "button-link", href: "/lobby" }, "Back to the lobby")));
        if (games.length) offerNextSteps(body); // the person's own games, to go back to or leave
      });
      return;
    }
    render(table);
  }

  // The table and every change to it come over the socket: no polling.
  const close = openLive(`/ws/online/${encodeURIComponent(id)}`, (message) => {
    if (stopped) return;
    if (message.type === "table") receive(message.table);
    else if (message.type === "start_refused") {
      refusedBox.textContent = message.message;
      refusedBox.hidden = false;
      refusedFor = last ? seatedKey(last) : null;
    } else if (message.type === "gone") {
      last = null;
      if (enterTable()) return; // a finished or vanished table: the table page knows
      dropSeat(id);
      closedPage(message.reason === "empty" ? "Everyone left this table, so it closed." : "There is no open online table with that link.");
    }
  }, (state) => {
    if (state === "closed" && !stopped) showError("Connection lost: reconnecting…");
    if (state === "open") showError("");
  });

  return () => {
    stopped = true;
    close();
  };
}
