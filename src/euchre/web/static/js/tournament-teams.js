// Team events (fixed pairs: round robin, Swiss, single and double elimination) on the
// tournament pages: the format's fields of the form for a new tournament, and a team event's
// page (pairs, invitations to be a partner, each round's matches with watch links, the
// bracket's byes, the team standings with their order stated, the final placing).

import { h } from "./dom.js";

/** The team formats: the form's short name, and what each means. */
export const TEAM_FORMATS = {
  round_robin: ["Round robin (pairs)", "Every pair meets every other once."],
  swiss: ["Swiss (pairs)", "Each round pairs meet others on the same score; no rematch while one can be avoided."],
  single_elimination: ["Single elimination (pairs)", "One loss and a pair is out."],
  double_elimination: ["Double elimination (pairs)", "Two losses and a pair is out (a losers bracket, then a grand final)."],
};
const PROGRESSIVE_HELP = "Partners change every round and everyone keeps their own score.";

/** Whether a tournament is a team event. */
export function isTeam(t) {
  return Object.hasOwn(TEAM_FORMATS, t.format);
}

function length(t) {
  if (t.game_to) return `games to ${t.game_to} points`;
  return t.hands === 1 ? "rounds of 1 hand" : `rounds of ${t.hands} hands`;
}

/** A team event's settings in one line. */
export function teamSettingsText(t) {
  const rounds = t.format === "swiss" ? `${t.rounds} rounds, ` : "";
  return `${t.format_name}: ${rounds}${length(t)}, ${t.seconds_per_move} s a move. ${t.rated ? "Rated (games of four people)." : "Unrated."}${t.entry_fee ? ` Entry fee ${t.entry_fee} coins each.` : ""}`;
}

/** The lobby's and the list's line for a team event (after its format's name). */
export function teamStage(t) {
  if (t.status === "registering") return `starts ${new Date(t.starts_at).toLocaleString([], { dateStyle: "medium", timeStyle: "short" })} · ${t.people / 2} pair${t.people === 2 ? "" : "s"} registered`;
  if (t.status === "playing") return `round ${t.current_round}`;
  return t.status;
}

/**
 * The form's format choice and the fields a team event adds: the game length (a game to N
 * points, or a round of hands) and rated. `progressiveOnly` are the rows that only a
 * progressive event takes (hidden for a team event); `rounds` is shown for Swiss too.
 */
export function teamFormFields(field, progressiveOnly, roundsRow) {
  const format = h("select", { id: "tour-format" },
    h("option", { value: "progressive" }, "Progressive"),
    Object.entries(TEAM_FORMATS).map(([value, [label]]) => h("option", { value }, label)));
  const formatRow = field("Format", format, PROGRESSIVE_HELP);
  const formatHelp = formatRow.querySelector(".field-help");
  const gameTo = h("select", { id: "tour-game-to" },
    h("option", { value: "0" }, "A round of hands (as below)"),
    [5, 7, 10, 11].map((n) => h("option", { value: String(n) }, `A game to ${n} points`)));
  const rated = h("input", { id: "tour-rated", type: "checkbox" });
  const ratedRow = h("label", { class: "field-check", for: "tour-rated" }, rated, " Rated: each game of four people counts for ratings");
  const gameRow = field("Each match", gameTo, "Pairs sit as partners (North and South against East and West).");
  const note = h("p", { class: "field-help", "data-team-note": "" }, "Pairs register together: one invites a partner by name, and the pair is in when the partner accepts. Computer pairs fill a count the format cannot seat (elimination gives byes to the top seeds instead).");
  function show() {
    const team = format.value !== "progressive";
    formatHelp.textContent = team ? TEAM_FORMATS[format.value][1] : PROGRESSIVE_HELP;
    for (const row of progressiveOnly) row.hidden = team;
    roundsRow.hidden = team && format.value !== "swiss";
    gameRow.hidden = !team;
    ratedRow.hidden = !team;
    note.hidden = !team;
    if (!team) rated.checked = false;
  }
  format.addEventListener("change", show);
  show();
  return {
    rows: [formatRow, note, gameRow, ratedRow],
    values: () => {
      const team = format.value !== "progressive";
      return { format: format.value, game_to: team ? Number(gameTo.value) : 0, rated: team && rated.checked };
    },
    isTeam: () => format.value !== "progressive",
  };
}

function matchList(round, mine) {
  return h("ol", { class: "night-tables" }, round.tables.map((t) => {
    const first = `${t.seats[0]} & ${t.seats[2]}`;
    const second = `${t.seats[1]} & ${t.seats[3]}`;
    const result = t.over
      ? `${t.side_points[0]}–${t.side_points[1]} · ${t.winner === null ? "level" : `${t.winner === 0 ? first : second} won`}`
      : "Playing";
    return h("li", { class: "night-table", dataset: { table: String(t.table), match: t.match || "" } },
      h("h3", {}, t.match ? `${matchName(t.match)} · table ${t.table}` : `Table ${t.table}`),
      h("p", { class: "night-pair" }, first), h("p", { class: "night-versus" }, "v"), h("p", { class: "night-pair" }, second),
      h("p", { class: "field-help" }, result),
      h("p", {}, t.seats.includes(mine) && !t.over ? h("a", { class: "button-link", href: t.play }, "Take your seat") : null, " ", h("a", { href: t.watch }, "Watch")));
  }));
}

/** A bracket match's name in words: W1.2 "Winners round 1, match 2", GF "Grand final". */
export function matchName(name) {
  if (name === "GF") return "Grand final";
  if (name === "GF2") return "Grand final, second game";
  const found = /^([WL])(\d+)\.(\d+)$/.exec(name);
  if (!found) return name;
  return `${found[1] === "W" ? "Winners" : "Losers"} round ${found[2]}, match ${found[3]}`;
}

function standings(t) {
  const elimination = t.format.endsWith("elimination");
  const head = elimination ? ["#", "Pair", "Won", "Lost", "For", "Against"] : ["#", "Pair", "Won", "Drawn", "Lost", "For", "Against"];
  const order = elimination ? `Placing: ${t.tie_breaks.join("; ")}.` : `Ranked by ${t.tie_breaks.join(", then ")}.`;
  return [
    h("h2", {}, t.status === "finished" ? "Final placing" : "Standings"),
    h("p", { class: "field-help", "data-tie-breaks": "" }, `${order} For and Against: the points each pair made and conceded.`),
    h("div", { class: "table-scroll" },
      h("table", { class: "account-table night-table-standings team-standings", "aria-label": "Team standings", tabindex: "0" },
        h("thead", {}, h("tr", {}, head.map((x) => h("th", { scope: "col" }, x)))),
        h("tbody", {}, t.team_standings.map((s) => h("tr", { dataset: { pair: String(s.pair) } },
          h("td", {}, s.place === null ? "–" : String(s.place)),
          h("td", {}, s.name, elimination && s.status !== "in" ? h("span", { class: "field-help" }, s.status === "champion" ? " · Champion" : " · Out") : null),
          h("td", { class: "amount" }, String(s.wins)),
          elimination ? null : h("td", { class: "amount" }, String(s.draws)),
          h("td", { class: "amount" }, String(s.losses)),
          h("td", { class: "amount" }, String(s.points_for)),
          h("td", { class: "amount" }, String(s.points_against))))))),
  ];
}

function invitations(t, act) {
  const fee = t.entry_fee ? ` (pay ${t.entry_fee} coins; your partner pays too)` : "";
  // The asked see what waits for their answer; the asker sees their invitation, or the
  // last one declined until they ask again.
  const asking = t.invites.some((i) => i.sent && i.status === "pending");
  const declined = asking || t.registered ? null : t.invites.find((i) => i.sent && i.status === "declined");
  const shown = t.invites.filter((i) => i.status === "pending" || i === declined);
  return shown.map((i) => h("p", { class: "pair-invite", dataset: { invite: String(i.id) } },
    i.sent
      ? (i.status === "declined" ? `${i.to} declined your invitation.` : `You asked ${i.to} to be your partner: waiting for them to accept. `)
      : `${i.from} asks you to be their partner. `,
    i.status === "pending" && !i.sent ? h("button", { type: "button", class: "start-button", onclick: () => act(`invites/${i.id}/accept`) }, `Accept${fee}`) : null,
    i.status === "pending" ? " " : null,
    i.status === "pending" ? h("button", { type: "button", onclick: () => act(`invites/${i.id}/decline`) }, i.sent ? "Withdraw the invitation" : "Decline") : null));
}

function registration(t, who, act) {
  if (!who || t.status !== "registering") return null;
  if (t.registered) {
    return [
      h("p", {}, `You are registered with ${t.partner}.`),
      h("div", { class: "panel-actions" }, h("button", { type: "button", onclick: () => act("unregister") },
        t.entry_fee ? `Withdraw our pair (both ${t.entry_fee}-coin entry fees are forfeit)` : "Withdraw our pair")),
      h("p", { class: "field-help", "data-forfeit": "" }, t.entry_fee
        ? `Withdrawing withdraws you and ${t.partner}: both entry fees stay in the prize pool, and neither of you can register again.`
        : `Withdrawing withdraws you and ${t.partner} together.`),
    ];
  }
  const partner = h("input", { id: "pair-partner", required: true, maxlength: "40", autocomplete: "off" });
  const form = h("form", { class: "pair-form", "data-form": "invite" },
    h("div", { class: "field" }, h("label", { for: "pair-partner" }, "Your partner's name"), partner,
      h("span", { class: "field-help" }, t.entry_fee ? `When they accept, the pair is registered and each of you pays ${t.entry_fee} coins (or neither, if one cannot).` : "When they accept, the pair is registered.")),
    h("button", { type: "submit", class: "start-button" }, "Invite"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act("invite", { partner: partner.value });
  });
  const waiting = t.invites.some((i) => i.sent && i.status === "pending");
  return [waiting ? null : form];
}

/** The parts of a team event's page below its settings. */
export function teamPage(t, who, act) {
  const mine = who ? who.username : null;
  const rounds = t.round_tables;
  const current = rounds.length ? rounds[rounds.length - 1] : null;
  const elimination = t.format.endsWith("elimination");
  return [
    t.filled ? h("p", { "data-filled": "" }, `${t.filled}.`) : null,
    who && t.status === "registering" ? invitations(t, act) : null,
    registration(t, who, act),
    t.is_creator && t.status === "registering" ? h("div", { class: "panel-actions" },
      h("button", { type: "button", onclick: () => act("start") }, "Start now"),
      h("button", { type: "button", onclick: () => act("cancel") }, t.entry_fee ? "Cancel the tournament (every fee is refunded)" : "Cancel the tournament")) : null,
    h("h2", {}, `Pairs (${t.pairs.length || t.people / 2})`),
    t.pairs.length ? h("ol", { class: "game-list", "data-pairs": "" }, t.pairs.map((p) => h("li", {}, p.name))) : h("p", { class: "field-help" }, "No pair yet."),
    t.byes.length ? h("p", { class: "field-help", "data-byes": "" }, `Byes (through without playing): ${t.byes.map((b) => `${b.pair} (${matchName(b.match)})`).join("; ")}.`) : null,
    current && t.status !== "finished" ? [h("h2", {}, `Round ${current.round}`), matchList(current, mine)] : null,
    t.team_standings.length ? standings(t) : null,
    rounds.length ? h("details", { open: elimination && t.status === "finished" ? true : null, "data-all-rounds": "" },
      h("summary", {}, elimination ? "The bracket, round by round" : "Every round's matches"),
      rounds.flatMap((r) => [h("h3", {}, `Round ${r.round}`), matchList(r, mine)])) : null,
  ].flat(Infinity); // fill() flattens one level only
}
