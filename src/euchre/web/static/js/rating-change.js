// Each person's rating before and after a rated game, for the game-over panel
// (GET /api/games/{id}/ratings). The result is applied just after the last card: while it is
// pending the section says so and asks again a few times.

import { request } from "./api.js";
import { fill, h } from "./dom.js";
import { ratingDelta, ratingHelp, ratingNumber } from "./rating-words.js";

const TRIES = 10;
const WAIT_MS = 700;

function row(change, me) {
  const who = me !== null && change.seat === me ? `You (${change.name})` : change.name;
  return h(
    "li",
    { class: `rating-change-row ${change.won ? "won" : "lost"}`, dataset: { seat: String(change.seat) } },
    h("span", { class: "rating-who" }, who),
    " ",
    h("span", { class: "rating-before", title: ratingHelp(change.before, false) }, String(change.before.number)),
    " → ",
    h("strong", { class: "rating-after", title: ratingHelp(change.after, change.provisional) }, ratingNumber(change.after, change.provisional)),
    " ",
    h("span", { class: "rating-delta" }, `(${ratingDelta(change.before, change.after)})`),
    change.provisional ? h("span", { class: "rating-provisional" }, " provisional") : null,
  );
}

/** A section that fills itself with the game's rating changes (`me`: the viewer's seat, or
 * null for a spectator). */
export function ratingChangeSection(gameId, me) {
  const status = h("p", { class: "rating-status", role: "status" }, "Working out the new ratings…");
  const list = h("ul", { class: "rating-changes", "aria-label": "Ratings before and after" });
  const section = h("section", { class: "rating-change" }, h("h3", {}, "Ratings"), status, list);
  let tries = 0;
  const ask = () => {
    if (!section.isConnected && tries > 0) return; // the panel went away
    tries += 1;
    request("GET", `/api/games/${encodeURIComponent(gameId)}/ratings`)
      .then((answer) => {
        if (answer.status === "applied" && answer.changes.length) {
          const note = answer.changes.some((c) => c.provisional) ? " A ? marks a provisional rating: fewer than 10 rated games or 6 different opponents so far." : "";
          status.textContent = `Each person's rating, before → after.${note}`;
          fill(list, answer.changes.map((c) => row(c, me)));
        } else if (answer.status === "pending" && tries < TRIES) {
          setTimeout(ask, WAIT_MS);
        } else {
          status.textContent = "The ratings will change once the result is recorded; see your account page.";
        }
      })
      .catch(() => {
        status.textContent = "The new ratings could not be loaded; see your account page.";
      });
  };
  ask();
  return section;
}
