// The leaderboard (/leaders): rated people, best first, a page at a time from /api/leaders.

import { request } from "./api.js";
import { fill, h } from "./dom.js";
import { ratingExplained, ratingHelp, ratingNumber } from "./rating-words.js";
import { botLabel } from "./words.js";

const PAGE = 25;

/** Mount the leaderboard page. */
export function mountLeaders(main) {
  let alive = true;
  const status = h("p", { role: "status", "aria-live": "polite" }, "Loading the leaderboard…");
  const body = h("div", { class: "leaders" });
  const rule = h("p", { class: "field-help provisional-rule" });
  fill(
    main,
    h(
      "div",
      { class: "page notice" },
      h("h1", {}, "Leaderboard"),
      h("p", { class: "field-help" }, "Ratings from rated online tables (four signed-in people): each partnership is rated as a team, and a rating goes up when your side wins and down when it loses. Highest rating first."),
      rule,
      ratingExplained(),
      status,
      body,
    ),
  );

  async function show(offset) {
    let page;
    try {
      page = await request("GET", `/api/leaders?limit=${PAGE}&offset=${offset}`);
    } catch (error) {
      status.textContent = `Could not load the leaderboard: ${error.message}`;
      return;
    }
    if (!alive) return;
    const waiting = page.provisional ? ` ${page.provisional} more ${page.provisional === 1 ? "is" : "are"} provisional.` : "";
    status.textContent = page.total ? `${page.total} rated ${page.total === 1 ? "person" : "people"}.${waiting}` : `Nobody is listed yet: play rated online tables.${waiting}`;
    rule.textContent = `Provisional ratings are not listed: a person appears here after ${page.games_needed} rated games against at least ${page.opponents_needed} different people, so a few games among friends, or one person's several accounts, cannot top the board.`;
    const rows = page.leaders.map((x) =>
      h("tr", { dataset: { rank: String(x.rank) } }, h("td", {}, String(x.rank)), h("td", {}, h("a", { href: `/people/${encodeURIComponent(x.username)}` }, botLabel(x.username, x.bot))), h("td", { class: "rating-number", title: ratingHelp(x, false) }, ratingNumber(x, false)), h("td", {}, String(x.games))),
    );
    const prev = offset > 0 ? h("button", { type: "button", class: "tool", onclick: () => show(Math.max(0, offset - PAGE)) }, "Previous page") : null;
    const next = page.next !== null ? h("button", { type: "button", class: "tool", onclick: () => show(page.next) }, "Next page") : null;
    fill(
      body,
      page.leaders.length
        ? h(
            "table",
            { class: "account-table leaders-table", "aria-label": "Leaderboard" },
            h("thead", {}, h("tr", {}, ["Rank", "Name", "Rating", "Rated games"].map((t) => h("th", { scope: "col" }, t)))),
            h("tbody", {}, rows),
          )
        : null,
      h("p", { class: "pager" }, prev, " ", next),
    );
  }

  show(0);
  return () => {
    alive = false;
  };
}
