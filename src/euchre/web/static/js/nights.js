// Euchre nights in a room (host mode): the host's nights and the form for a new one
// (/nights), a night's page (/nights/{id}: names, each round's tables and codes, corrections,
// standings, the log) and the standings to project (/nights/{id}/screen). The pages ask the
// server again every few seconds, so what the tables enter shows up by itself.

import { call, me } from "../account/session.js";
import { fill, h } from "./dom.js";
import { navigate } from "./nav.js";

const REFRESH_MS = 4000;

/** "Ann & Cy v Bob & Dee": seats 0 and 2 against seats 1 and 3. */
export function pairsText(seats) {
  return `${seats[0]} & ${seats[2]} v ${seats[1]} & ${seats[3]}`;
}

/** Mount /nights: the host's nights and the form for a new one. */
export function mountNights(main) {
  let alive = true;
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading…");
  const body = h("div", { class: "nights-body" });
  fill(
    main,
    h(
      "div",
      { class: "page nights-page" },
      h("h1", {}, "Euchre nights"),
      h("p", { class: "field-help" }, "Host a progressive euchre night in a room of real tables: enter the names, the site seats every round so partners change, each table scores its hands from a phone with its code, and the standings update on a screen you can project."),
      h("p", {}, h("a", { href: "/score" }, "Scoring a table? Enter its code here.")),
      status,
      body,
    ),
  );
  (async () => {
    const who = await me();
    if (!alive) return;
    if (!who) {
      status.textContent = "";
      fill(body, h("p", {}, h("a", { href: "/account" }, "Sign in"), " to host a euchre night (the people in the room need no accounts)."));
      return;
    }
    let list;
    try {
      list = await call("GET", "/api/nights");
    } catch (error) {
      status.textContent = `Could not load your nights: ${error.message}`;
      return;
    }
    if (!alive) return;
    status.textContent = list.nights.length ? "" : "You have not hosted a night yet.";
    fill(
      body,
      list.nights.length
        ? h("ul", { class: "game-list nights-list" }, list.nights.map((n) => h("li", {}, h("a", { href: `/nights/${encodeURIComponent(n.id)}` }, n.name), " ", h("span", { class: "field-help" }, nightStage(n)))))
        : null,
      newNightForm(),
    );
  })();
  return () => {
    alive = false;
  };
}

function nightStage(n) {
  if (n.status === "registering") return "registering";
  if (n.status === "finished") return "finished";
  return `round ${n.current_round} of ${n.rounds}`;
}

function newNightForm() {
  const error = h("p", { class: "error", role: "alert" });
  const name = h("input", { id: "night-name", name: "name", required: true, maxlength: "80", value: "Euchre night" });
  const names = h("textarea", { id: "night-names", name: "names", rows: "10", required: true, placeholder: "One name a line: a multiple of four" });
  const count = h("span", { class: "field-help", "aria-live": "polite" });
  const rounds = h("input", { id: "night-rounds", name: "rounds", type: "number", min: "1", max: "16", value: "4", inputmode: "numeric" });
  const hands = h("input", { id: "night-hands", name: "hands", type: "number", min: "1", max: "16", value: "8", inputmode: "numeric" });
  const bonus = h("input", { id: "night-bonus", name: "loner_bonus", type: "checkbox" });
  const movement = h("select", { id: "night-movement", name: "movement" },
    h("option", { value: "rotating" }, "Rotating partners"),
    h("option", { value: "kings" }, "King's table"));
  const lines = () => names.value.split("\n").map((s) => s.trim()).filter(Boolean);
  names.addEventListener("input", () => {
    const n = lines().length;
    count.textContent = n % 4 ? `${n} names: ${4 - (n % 4)} more make whole tables` : `${n} names: ${n / 4} tables`;
  });
  const form = h(
    "form",
    { class: "night-form", "data-form": "new-night" },
    h("h2", {}, "Host a new night"),
    h("label", { for: "night-name" }, "Name of the night"),
    name,
    h("label", { for: "night-names" }, "Names in the room"),
    names,
    count,
    h("div", { class: "night-numbers" },
      h("label", { for: "night-rounds" }, "Rounds", rounds),
      h("label", { for: "night-hands" }, "Hands a round", hands)),
    h("label", { for: "night-movement" }, "Movement between rounds"),
    movement,
    h("span", { class: "field-help" }, "Rotating partners gives everyone the most different partners. King's table moves each table's winners up a table and its losers down, and splits them."),
    h("label", { class: "field-check", for: "night-bonus" }, bonus, " Loner bonuses: 5 to a lone player who takes all five, 4 to the partner, 3 for setting a loner"),
    error,
    h("button", { type: "submit", class: "start-button" }, "Create the night"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    try {
      const made = await call("POST", "/api/nights", { name: name.value, names: lines(), rounds: Number(rounds.value), hands: Number(hands.value), loner_bonus: bonus.checked, movement: movement.value });
      navigate(made.url);
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return form;
}

/** Mount /nights/{id}: the night for its host, or for anyone who follows it. */
export function mountNight(main, id) {
  let alive = true;
  let timer = null;
  let night = null;
  let hostKey = null; // the host's panel is drawn again only when the night moves on
  const message = h("p", { class: "error", role: "alert" });
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the night…");
  const head = h("div");
  const host = h("div", { class: "night-host" });
  const rounds = h("div", { class: "night-rounds" });
  const table = h("div", { class: "night-standings" });
  const log = h("div", { class: "night-log" });
  fill(main, h("div", { class: "page night-page" }, head, status, host, rounds, table, log));
  const path = `/api/nights/${encodeURIComponent(id)}`;

  async function load() {
    clearTimeout(timer);
    try {
      night = await call("GET", path);
    } catch (error) {
      status.textContent = `Could not load the night: ${error.message}`;
      return;
    }
    if (!alive) return;
    status.textContent = "";
    draw();
    if (night.status !== "finished") timer = setTimeout(load, REFRESH_MS);
  }

  async function act(method, suffix, body) {
    try {
      night = await call(method, path + suffix, body);
      message.textContent = "";
      draw();
      return true;
    } catch (error) {
      message.className = "error";
      message.textContent = error.message;
      return false;
    }
  }

  function draw() {
    fill(
      head,
      h("h1", {}, night.name),
      h("p", { class: "field-help night-settings" }, settingsText(night)),
      h("p", { class: "night-links" }, h("a", { href: `/nights/${encodeURIComponent(id)}/screen` }, "Standings screen"), " · ", h("a", { href: "/score" }, "Score a table")),
    );
    drawHost();
    drawRounds(rounds, night, true);
    drawStandings(table, night);
    if (night.is_host && night.current_round) drawLog();
  }

  function drawHost() {
    // Not on every refresh: a form the host is filling in keeps what was typed.
    const key = night.is_host ? `${night.status}:${night.current_round}:${night.people.join("|")}` : null;
    if (key === hostKey) return;
    hostKey = key;
    message.textContent = "";
    if (!night.is_host) {
      fill(host);
      return;
    }
    if (night.status === "registering") {
      const names = h("textarea", { id: "edit-names", rows: "10" });
      names.value = night.people.join("\n");
      fill(
        host,
        h("h2", {}, `${night.people.length} names`),
        h("label", { for: "edit-names" }, "Names in the room (one a line)"),
        names,
        h("div", { class: "night-actions" },
          h("button", { type: "button", class: "tool", onclick: () => act("PUT", "/people", { names: names.value.split("\n").map((s) => s.trim()).filter(Boolean) }) }, "Save the names"),
          h("button", { type: "button", class: "start-button", onclick: () => act("POST", "/advance", {}) }, "Start the night")),
        message,
      );
      return;
    }
    if (night.status === "finished") {
      fill(host, h("p", { class: "night-over" }, "The night is over: the standings below are final. You can still correct a hand."), correctionForm(), message);
      return;
    }
    const last = night.current_round === night.rounds;
    fill(
      host,
      h("div", { class: "night-actions" },
        h("button", { type: "button", class: "start-button", onclick: () => act("POST", "/advance", {}) }, last ? "Finish the night" : `Start round ${night.current_round + 1}`),
        h("button", { type: "button", class: "tool", onclick: () => window.print() }, "Print the tables")),
      message,
      correctionForm(),
    );
  }

  function correctionForm() {
    const number = (label, name, min, max, value) =>
      h("label", {}, label, h("input", { name, type: "number", min: String(min), max: String(max), value: String(value), inputmode: "numeric" }));
    const form = h(
      "form",
      { class: "night-correction", "data-form": "correction" },
      h("h2", {}, "Enter or correct a hand"),
      h("div", { class: "night-numbers" },
        number("Round", "round", 1, night.current_round || 1, night.current_round || 1),
        number("Table", "table", 1, night.people.length / 4, 1),
        number("Hand", "hand", 1, night.hands, 1)),
      h("div", { class: "night-numbers" },
        h("label", {}, "Made trump", h("select", { name: "makers" }, h("option", { value: "0" }, "The first pair (before the v)"), h("option", { value: "1" }, "The second pair (after the v)"))),
        number("Their tricks", "tricks", 0, 5, 3),
        h("label", {}, "Alone", h("select", { name: "lone" }, h("option", { value: "" }, "Nobody"), h("option", { value: "first" }, "The first of the pair"), h("option", { value: "second" }, "The second of the pair")))),
      h("button", { type: "submit", class: "tool" }, "Save the hand"),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const data = new FormData(form);
      const makers = Number(data.get("makers"));
      const lone = data.get("lone");
      const body = {
        round: Number(data.get("round")), table: Number(data.get("table")), hand: Number(data.get("hand")),
        makers, tricks: Number(data.get("tricks")),
        lone_seat: lone === "" ? null : makers + (lone === "second" ? 2 : 0),
      };
      if (await act("POST", "/corrections", body)) {
        message.className = "night-saved";
        message.textContent = "Saved, and kept in the log.";
      }
    });
    return form;
  }

  async function drawLog() {
    let entries;
    try {
      entries = (await call("GET", `${path}/log`)).entries;
    } catch {
      return;
    }
    if (!alive) return;
    const open = log.querySelector("details")?.open ?? false;
    fill(
      log,
      h("details", { open },
        h("summary", {}, `The log: ${entries.length} entries, corrections and confirmations`),
        h("ol", { class: "night-log-list" }, entries.map((e) => h("li", {}, logText(e))))),
    );
  }

  load();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}

function logText(e) {
  const where = `round ${e.round}, table ${e.table}`;
  if (e.kind === "confirmation") return `${where}: confirmed by ${e.by}`;
  const alone = e.lone_seat === null ? "" : ", alone";
  const pair = e.makers === 0 ? "first pair" : "second pair";
  return `${where}, hand ${e.hand}: ${pair} made trump, ${e.tricks} tricks${alone} (${e.kind === "correction" ? "corrected by" : "entered by"} ${e.by})`;
}

function settingsText(night) {
  const stage = night.status === "registering" ? "Registering" : night.status === "finished" ? "Finished" : `Round ${night.current_round} of ${night.rounds}`;
  const bonus = night.loner_bonus ? " Loner bonuses." : "";
  const movement = night.movement === "kings" ? " King's table: winners move up, losers move down (a tie goes to the pair that scored the last hand)." : "";
  return `${stage}. ${night.people.length} people, ${night.people.length / 4} tables, ${night.rounds} rounds of ${night.hands} hands.${bonus}${movement}`;
}

/** The current round's tables (with codes for the host); `all` adds the earlier rounds folded. */
function drawRounds(element, night, all) {
  if (!night.round_tables.length) {
    fill(element);
    return;
  }
  const current = night.round_tables[night.round_tables.length - 1];
  const tables = (round) =>
    h("ol", { class: "night-tables" }, round.tables.map((t) =>
      h("li", { class: "night-table", dataset: { table: String(t.table) } },
        h("h3", {}, `Table ${t.table}`),
        h("p", { class: "night-pair" }, `${t.seats[0]} & ${t.seats[2]}`),
        h("p", { class: "night-versus" }, "v"),
        h("p", { class: "night-pair" }, `${t.seats[1]} & ${t.seats[3]}`),
        t.code ? h("p", { class: "night-code" }, "Code ", h("strong", { dataset: { code: t.code } }, t.code)) : null,
        h("p", { class: "field-help" }, `${t.hands_entered} of ${night.hands} hands · ${t.side_points[0]}–${t.side_points[1]}`, t.confirmed_by ? ` · confirmed by ${t.confirmed_by}` : ""))));
  fill(
    element,
    h("h2", {}, `Round ${current.round}`),
    tables(current),
    all && night.round_tables.length > 1
      ? h("details", { class: "night-earlier" }, h("summary", {}, "Earlier rounds"), night.round_tables.slice(0, -1).map((r) => [h("h3", {}, `Round ${r.round}`), tables(r)]))
      : null,
  );
}

function drawStandings(element, night) {
  if (!night.round_tables.length) {
    fill(element, h("p", { class: "field-help" }, "The standings start with the first round."));
    return;
  }
  const played = night.round_tables.length;
  fill(
    element,
    h("h2", {}, night.status === "finished" ? "Final standings" : "Standings"),
    h("p", { class: "field-help" }, `Ties are broken by ${night.tie_breaks.slice(1).join(", then ")}.`),
    h("table", { class: "account-table night-table-standings", "aria-label": "Standings", tabindex: "0" },
      h("thead", {}, h("tr", {}, ["#", "Name", "Points", ...Array.from({ length: played }, (_, i) => `R${i + 1}`), "Loners", "Euchred"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, night.standings.map((s) =>
        h("tr", {}, h("td", {}, String(s.place)), h("td", {}, s.name), h("td", { class: "amount" }, String(s.points)), s.rounds.map((p) => h("td", { class: "amount" }, String(p))), h("td", { class: "amount" }, String(s.loners_made)), h("td", { class: "amount" }, String(s.euchred)))))),
  );
}

/** Mount /nights/{id}/screen: large standings and the round's tables, to project. */
export function mountNightScreen(main, id) {
  let alive = true;
  let timer = null;
  const title = h("h1", {}, "Euchre night");
  const status = h("p", { role: "status", "aria-live": "polite" });
  const tables = h("div", { class: "night-rounds" });
  const table = h("div", { class: "night-standings" });
  fill(main, h("div", { class: "page night-screen" }, title, status, table, tables));
  async function load() {
    clearTimeout(timer);
    let night;
    try {
      night = await call("GET", `/api/nights/${encodeURIComponent(id)}`);
    } catch (error) {
      status.textContent = `Could not load the night: ${error.message}`;
      timer = setTimeout(load, REFRESH_MS);
      return;
    }
    if (!alive) return;
    title.textContent = night.name;
    status.textContent = settingsText(night);
    drawStandings(table, night);
    drawRounds(tables, { ...night, round_tables: night.round_tables.map((r) => ({ ...r, tables: r.tables.map((t) => ({ ...t, code: null })) })) }, false);
    if (night.status !== "finished") timer = setTimeout(load, REFRESH_MS);
  }
  load();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}
