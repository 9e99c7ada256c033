// Online tournaments (progressive, at the site's own tables): the list and the form for a new
// one (/tournaments), a tournament's live page (/tournaments/{id}: who is in, registration,
// each round's tables with watch links, points by round, standings with the tie-breaks, the
// final table), the short lists the lobby and the home page show, and a person's results.
// The pages ask the server again every few seconds.

import { call, me } from "../account/session.js";
import { fill, h } from "./dom.js";
import { navigate } from "./nav.js";
import { isTeam, teamFormFields, teamPage, teamSettingsText, teamStage } from "./tournament-teams.js";

const REFRESH_MS = 4000;

function when(iso) {
  return new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function stage(t) {
  if (isTeam(t)) return teamStage(t);
  if (t.status === "registering") return `starts ${when(t.starts_at)} · ${t.people} registered`;
  if (t.status === "playing") return `round ${t.current_round} of ${t.rounds} · ${t.field} players`;
  return t.status;
}

function settingsText(t) {
  if (isTeam(t)) return teamSettingsText(t);
  const movement = t.movement === "kings" ? "king's table" : "rotating partners";
  const limit = t.round_minutes ? ` (or ${t.round_minutes} minutes, then the hand in play finishes)` : "";
  return `Progressive, ${movement}: ${t.rounds} rounds of ${t.hands} hands${limit}, ${t.seconds_per_move} s a move${t.loner_bonus ? ", loner bonuses" : ""}. Unrated.${t.entry_fee ? ` Entry fee ${t.entry_fee} coins.` : ""}${t.allow_bots ? " Outside bots may enter." : ""}`;
}

/** A short list of tournaments open for registration and running now (lobby, home page). */
export function tournamentsList(onItsPage = false) {
  const title = onItsPage ? "Open and running" : "Tournaments";
  const box = h("section", { class: "tournaments-list", "aria-label": "Tournaments" }, h("h2", {}, title));
  (async () => {
    let list;
    try {
      list = await call("GET", "/api/tournaments");
    } catch {
      return;
    }
    const item = (t) => h("li", {}, h("a", { href: t.url }, t.name), " ", h("span", { class: "field-help", "data-format": t.format }, `${t.format_name} · ${stage(t)}`));
    fill(
      box,
      h("h2", {}, title),
      list.open.length ? h("h3", {}, "Open for registration") : null,
      list.open.length ? h("ul", { class: "game-list" }, list.open.map(item)) : null,
      list.running.length ? h("h3", {}, "Running now") : null,
      list.running.length ? h("ul", { class: "game-list" }, list.running.map(item)) : null,
      list.open.length || list.running.length ? null : h("p", { class: "field-help" }, "No tournament is open right now."),
      onItsPage ? null : h("p", {}, h("a", { href: "/tournaments" }, "All tournaments, or create one")),
    );
  })();
  return box;
}

/** Mount /tournaments: open and running tournaments, and the form for a new one. */
export function mountTournaments(main) {
  let alive = true;
  const body = h("div");
  fill(
    main,
    h("div", { class: "page tournaments-page" },
      h("h1", {}, "Tournaments"),
      h("p", { class: "field-help" }, "Progressive euchre at this site's tables: partners change every round, everyone keeps their own score, and the most points after the last round wins. Or a team event: fixed pairs in a round robin, Swiss rounds, or single or double elimination."),
      tournamentsList(true),
      body),
  );
  (async () => {
    const who = await me();
    if (!alive) return;
    fill(body, who ? newTournamentForm() : h("p", {}, h("a", { href: "/account" }, "Sign in"), " to create a tournament or to register."));
  })();
  return () => {
    alive = false;
  };
}

function field(label, input, help) {
  return h("div", { class: "field" }, h("label", { for: input.id }, label), input, help ? h("span", { class: "field-help" }, help) : null);
}

function check(id, label) {
  const input = h("input", { id, type: "checkbox" });
  return [input, h("label", { class: "field-check", for: id }, input, ` ${label}`)];
}

function newTournamentForm() {
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const name = h("input", { id: "tour-name", required: true, maxlength: "80", value: "Euchre night" });
  const preset = h("select", { id: "tour-preset" }, ["classic", "stick-the-dealer", "redeal", "canadian", "kitchen-table", "benny"].map((p) => h("option", { value: p }, p)));
  const hands = h("input", { id: "tour-hands", type: "number", min: "1", max: "16", value: "8", inputmode: "numeric" });
  const rounds = h("input", { id: "tour-rounds", type: "number", min: "1", max: "16", value: "4", inputmode: "numeric" });
  const clock = h("input", { id: "tour-clock", type: "number", min: "5", max: "600", value: "30", inputmode: "numeric" });
  const limit = h("input", { id: "tour-limit", type: "number", min: "1", max: "240", inputmode: "numeric" });
  const movement = h("select", { id: "tour-movement" }, h("option", { value: "rotating" }, "Rotating partners (the most different partners)"), h("option", { value: "kings" }, "King's table (winners move up and split)"));
  const starts = h("input", { id: "tour-starts", type: "datetime-local" });
  const fee = h("input", { id: "tour-fee", type: "number", min: "0", max: "10000", value: "0", inputmode: "numeric" });
  const table = h("input", { id: "tour-prizes", value: "50/30/20", pattern: "[0-9]+(/[0-9]+)*" });
  const fillTo = h("input", { id: "tour-fill", type: "number", min: "0", max: "64", step: "4", value: "0", inputmode: "numeric" });
  const [bonus, bonusRow] = check("tour-bonus", "Loner bonuses: 5 to a lone player who takes all five, 4 to the partner, 3 for setting a loner");
  const [invite, inviteRow] = check("tour-private", "By invitation: listed nowhere, reached by its link");
  const [bots, botsRow] = check("tour-bots", "Outside bots may register");
  const [late, lateRow] = check("tour-late", "Late comers may take a computer's seat between rounds");
  const roundsRow = field("Rounds", rounds);
  const movementRow = field("Movement between rounds", movement);
  const fillRow = field("Fill with computers to", fillTo, "0: only to whole tables of four.");
  const team = teamFormFields(field, [movementRow, fillRow, bonusRow, botsRow, lateRow], roundsRow);
  const form = h(
    "form",
    { class: "night-form", "data-form": "new-tournament" },
    h("h2", {}, "Create a tournament"),
    field("Name", name),
    team.rows,
    field("Rules", preset),
    h("div", { class: "night-numbers" }, roundsRow, field("Hands a round", hands), field("Seconds a move", clock)),
    field("Round time limit (minutes)", limit, "Empty: none. When it passes, each table finishes the hand in play and the round ends."),
    movementRow,
    field("Start time", starts, "Empty: you start it when you are ready."),
    fillRow,
    h("div", { class: "night-numbers" }, field("Entry fee (coins)", fee, "0: free. Fees make the prize pool."), field("Prizes (% of the pool)", table, "First place first; what is left, and computers' places, go to the house.")),
    bonusRow, inviteRow, botsRow, lateRow,
    error,
    h("button", { type: "submit", class: "start-button" }, "Create the tournament"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    error.hidden = true;
    try {
      const made = await call("POST", "/api/tournaments", {
        name: name.value, preset: preset.value, hands: Number(hands.value), rounds: Number(rounds.value),
        seconds_per_move: Number(clock.value), movement: movement.value,
        starts_at: starts.value ? new Date(starts.value).toISOString() : null,
        fill_to: Number(fillTo.value), loner_bonus: bonus.checked, private: invite.checked,
        allow_bots: bots.checked, late_comers: late.checked,
        round_minutes: limit.value ? Number(limit.value) : null,
        entry_fee: Number(fee.value), prize_table: table.value.split("/").map(Number),
        ...team.values(),
        ...(team.isTeam() ? { loner_bonus: false, allow_bots: false, late_comers: false, fill_to: 0 } : {}),
      });
      navigate(made.url);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
    }
  });
  return form;
}

function pairs(seats) {
  return [h("p", { class: "night-pair" }, `${seats[0]} & ${seats[2]}`), h("p", { class: "night-versus" }, "v"), h("p", { class: "night-pair" }, `${seats[1]} & ${seats[3]}`)];
}

function roundTables(round, mine) {
  return h("ol", { class: "night-tables" }, round.tables.map((t) =>
    h("li", { class: "night-table", dataset: { table: String(t.table) } },
      h("h3", {}, `Table ${t.table}`),
      pairs(t.seats),
      h("p", { class: "field-help" }, t.over ? `Over · ${t.side_points[0]}–${t.side_points[1]}` : "Playing"),
      h("p", {}, t.seats.includes(mine) && !t.over ? h("a", { class: "button-link", href: t.play }, "Take your seat") : null, " ", h("a", { href: t.watch }, "Watch")))));
}

function poolSection(t) {
  const p = t.pool;
  if (!p) return null;
  const places = p.prize_table.map((pct, i) => `${i + 1}${["st", "nd", "rd"][i] || "th"} ${pct}%`).join(", ");
  const house = 100 - p.prize_table.reduce((a, b) => a + b, 0);
  return h("section", { class: "tournament-pool", "aria-label": "Prize pool", "data-pool": "" },
    h("h2", {}, "Prize pool"),
    h("p", {}, `Entry fee ${p.fee} coins. Pool: ${p.pool} coins from ${p.entries} entr${p.entries === 1 ? "y" : "ies"}${p.forfeit ? ` (${p.forfeit} forfeit by people who withdrew)` : ""}.`),
    h("p", { "data-prize-table": "" }, `Prizes: ${places}${house ? `; ${house}% to the house` : ""}. Tied places share; a computer's place wins nothing (its prize goes to the house).`),
    p.status === "cancelled" ? h("p", {}, "The tournament was cancelled: every entry fee was refunded.") : null,
    p.status === "paid" ? [
      h("p", {}, `Paid out ${p.paid_out} coins; the house's share ${p.house}.`),
      h("table", { class: "account-table", "aria-label": "Prizes" },
        h("thead", {}, h("tr", {}, ["#", "Name", "Prize"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, p.prizes.map((w) => h("tr", {}, h("td", {}, w.place === null ? "" : String(w.place)), h("td", {}, w.name), h("td", { class: "amount" }, `${w.prize} coins`))))),
    ] : null);
}

function standingsTable(t) {
  const played = t.round_tables.length;
  return [
    h("h2", {}, t.status === "finished" ? "Final standings" : "Standings"),
    h("p", { class: "field-help", "data-tie-breaks": "" }, `Most points wins; ties are broken by ${t.tie_breaks.slice(1).join(", then ")}.`),
    h("div", { class: "table-scroll" },
      h("table", { class: "account-table night-table-standings", "aria-label": "Standings", tabindex: "0" },
        h("thead", {}, h("tr", {}, ["#", "Name", "Points", ...Array.from({ length: played }, (_, i) => `R${i + 1}`), "Loners", "Euchred"].map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, t.standings.map((s) =>
          h("tr", {}, h("td", {}, String(s.place)), h("td", {}, s.name), h("td", { class: "amount" }, String(s.points)), s.rounds.map((p) => h("td", { class: "amount" }, String(p))), h("td", { class: "amount" }, String(s.loners_made)), h("td", { class: "amount" }, String(s.euchred))))))),
  ];
}

/** Mount /tournaments/{id}: the live page. */
export function mountTournament(main, id) {
  let alive = true;
  let timer = null;
  const message = h("p", { class: "error", role: "alert" });
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the tournament…");
  const body = h("div");
  fill(main, h("div", { class: "page night-page tournament-page" }, status, message, body));
  const path = `/api/tournaments/${encodeURIComponent(id)}`;

  async function act(action, data = {}) {
    message.textContent = "";
    try {
      await call("POST", `${path}/${action}`, data);
      await me(true); // an entry fee, a refund: the balance in the header moves
    } catch (e) {
      message.textContent = e.message;
    }
    load();
  }

  async function load() {
    clearTimeout(timer);
    let t;
    let who;
    try {
      [t, who] = await Promise.all([call("GET", path), me()]);
    } catch (e) {
      if (alive) status.textContent = e.message;
      return;
    }
    if (!alive) return;
    status.textContent = "";
    const mine = who ? who.username : null;
    const current = t.round_tables.length ? t.round_tables[t.round_tables.length - 1] : null;
    if (isTeam(t)) {
      fill(
        body,
        h("h1", {}, t.name),
        h("p", {}, settingsText(t)),
        h("p", { class: "field-help" }, t.status === "registering" ? `Starts ${when(t.starts_at)}.` : t.status === "playing" ? `Round ${t.current_round}.` : `The tournament is ${t.status}.`),
        !who && t.status === "registering" ? h("p", {}, h("a", { href: "/account" }, "Sign in"), " to register a pair.") : null,
        teamPage(t, who, act),
        poolSection(t),
        h("details", {}, h("summary", {}, "The rules"), h("ul", {}, t.rules_text.map((line) => h("li", {}, line)))),
      );
      if (t.status === "registering" || t.status === "playing") timer = setTimeout(load, REFRESH_MS);
      return;
    }
    const buttons = [];
    if (who && t.status === "registering") {
      buttons.push(t.registered
        ? h("button", { type: "button", onclick: () => act("unregister") }, t.entry_fee ? `Withdraw (your ${t.entry_fee}-coin entry fee is forfeit)` : "Withdraw")
        : h("button", { type: "button", class: "start-button", onclick: () => act("register") }, t.entry_fee ? `Register (pay ${t.entry_fee} coins)` : "Register"));
      if (t.is_creator) buttons.push(h("button", { type: "button", onclick: () => act("start") }, "Start now"), h("button", { type: "button", onclick: () => act("cancel") }, t.entry_fee ? "Cancel the tournament (every fee is refunded)" : "Cancel the tournament"));
    }
    fill(
      body,
      h("h1", {}, t.name),
      h("p", {}, settingsText(t)),
      h("p", { class: "field-help" }, t.status === "registering" ? `Starts ${when(t.starts_at)}.` : t.status === "playing" ? `Round ${t.current_round} of ${t.rounds}.${t.round_ends_at ? ` Its time is up at ${when(t.round_ends_at)}: then each table finishes the hand in play.` : ""}` : `The tournament is ${t.status}.`),
      t.filled ? h("p", { "data-filled": "" }, `${t.filled}.`) : null,
      buttons.length ? h("div", { class: "panel-actions" }, buttons) : null,
      who && t.registered && t.entry_fee && t.status === "registering" ? h("p", { class: "field-help", "data-forfeit": "" }, `Withdrawing forfeits your ${t.entry_fee}-coin entry fee: it stays in the prize pool, and you cannot register again.`) : null,
      poolSection(t),
      !who && t.status === "registering" ? h("p", {}, h("a", { href: "/account" }, "Sign in"), " to register.") : null,
      h("h2", {}, `Who is in (${t.people})`),
      t.people_in.length ? h("ul", { class: "game-list" }, t.people_in.map((p) => h("li", {}, p.kind === "bot" ? `${p.name} (bot)` : p.name))) : h("p", { class: "field-help" }, "Nobody yet."),
      t.final_table ? [h("h2", {}, "The final table"), roundTables({ tables: [t.final_table] }, null)] : null,
      current ? [h("h2", {}, t.status === "finished" ? `Round ${current.round} (the last)` : `Round ${current.round}`), roundTables(current, mine)] : null,
      t.round_tables.length ? standingsTable(t) : null,
      h("details", {}, h("summary", {}, "The rules"), h("ul", {}, t.rules_text.map((line) => h("li", {}, line)))),
    );
    if (t.status === "registering" || t.status === "playing") timer = setTimeout(load, REFRESH_MS);
  }
  load();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}

/** A person's finished tournaments, for their page (/people/{name}). */
export function personTournaments(name) {
  const box = h("section", { class: "person-tournaments", "aria-label": "Tournaments" });
  (async () => {
    let answer;
    try {
      answer = await call("GET", `/api/people/${encodeURIComponent(name)}/tournaments`);
    } catch {
      return;
    }
    if (!answer.results.length) return;
    fill(box, h("h2", {}, "Tournaments"), h("ul", { class: "game-list" }, answer.results.map((r) =>
      h("li", {}, h("a", { href: r.url }, r.name), r.partner
        ? ` · with ${r.partner} · place ${r.place} of ${r.field / 2} pairs · ${r.points} points over ${r.rounds} round${r.rounds === 1 ? "" : "s"}`
        : ` · place ${r.place} of ${r.field} · ${r.points} points over ${r.rounds} rounds`))));
  })();
  return box;
}
