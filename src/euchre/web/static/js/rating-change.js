// Each person's rating before and after a rated game, for the game-over panel
// (GET /api/games/{id}/ratings). The result is applied just after the last card: while it is
// pending the section says so and asks again a few times.

import { request } from "./api.js";
import { fill, h } from "./dom.js";

const TRIES = 10;
const WAIT_MS = 700;

/** "25.0 ± 8.3". */
function figures(rating) {
  return `${rating.mu.toFixed(1)} ± ${rating.sigma.toFixed(1)}`;
}

/** "+2.1" / "−1.4" (the change of the skill estimate, mu). */
function delta(change) {
  const d = change.after.mu - change.before.mu;
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(1)}`;
}

function row(change, me) {
  const who = me !== null && change.seat === me ? `You (${change.name})` : change.name;
  return h(
    "li",
    { class: `rating-change-row ${change.won ? "won" : "lost"}`, dataset: { seat: String(change.seat) } },
    h("span", { class: "rating-who" }, who),
    " ",
    h("span", { class: "rating-before" }, figures(change.before)),
    " → ",
    h("strong", { class: "rating-after" }, figures(change.after)),
    " ",
    h("span", { class: "rating-delta" }, `(${delta(change)})`),
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
          status.textContent = "Each person's rating (skill ± uncertainty), before → after:";
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
