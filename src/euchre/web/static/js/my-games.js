// A signed-in person's games in progress, from any browser (GET /api/me/live): listed first
// on the start page and the lobby with "Back to your table" and "Leave", linked from the
// header, and offered as the next step when a request is refused. A guest has none (their
// seats live in this browser's storage): nothing is asked of the server for them.

import { call, me, setBalance } from "../account/session.js";
import { fill, h } from "./dom.js";

const KINDS = { practice: "Practice", coin: "Coin table", online: "Online table" };

/** The person's games in progress, newest first ([] for a guest or on any failure);
 * `known`: who is signed in, when the caller knows (then /api/me is not asked again). */
export async function liveGames(known) {
  const account = known === undefined ? await me().catch(() => null) : known;
  if (!account) return [];
  try {
    return (await call("GET", "/api/me/live")).games;
  } catch {
    return [];
  }
}

/** "Online table, quick play, 25-coin stake: waiting for players". */
export function gameText(game) {
  const parts = [KINDS[game.kind] ?? game.kind];
  if (game.quick) parts.push("quick play");
  if (game.rated) parts.push("rated");
  if (game.stake) parts.push(`${game.stake}-coin stake`);
  return `${parts.join(", ")}: ${game.status === "waiting" ? "waiting for players" : "being played"}`;
}

/** What leaving costs, asked before a started game is given up (null: nothing to ask). */
function leaveQuestion(game) {
  if (game.status === "waiting") return null;
  if (game.kind === "practice") return "Leave this practice game? The table is put away.";
  const stake = game.stake ? ` You lose the ${game.stake}-coin stake and pay the leaving fee.` : "";
  return `Leave this game? A computer plays your seat to the end.${stake}`;
}

/** Give up a seat: a waiting table's, or a started online, coin or practice game's. */
export async function leaveGame(game) {
  const id = encodeURIComponent(game.id);
  if (game.status === "waiting") return call("POST", `/api/online/${id}/leave`, {});
  if (game.kind === "coin" || game.kind === "practice") return call("POST", `/api/tables/${id}/leave`, {});
  return call("POST", `/api/online/${id}/leave-game`, {});
}

function row(game, redraw, error) {
  const question = leaveQuestion(game);
  const leave = h(
    "button",
    {
      type: "button",
      class: "tool my-game-leave",
      onclick: async () => {
        if (question && !window.confirm(question)) return;
        leave.disabled = true;
        try {
          const left = await leaveGame(game);
          if (typeof left?.balance === "number") setBalance(left.balance); // a stake and fee paid
          redraw();
          const slot = document.querySelector(".my-games-slot");
          if (slot) drawHeaderLink(slot); // the header's "Back to your table" goes with it
        } catch (e) {
          error.textContent = `Could not leave: ${e.message}`;
          error.hidden = false;
          leave.disabled = false;
        }
      },
    },
    game.status === "waiting" ? "Leave" : "Leave the game",
  );
  return h(
    "li",
    { class: "lobby-row my-game", dataset: { id: game.id } },
    h("div", { class: "lobby-what" }, h("strong", {}, gameText(game))),
    h("a", { class: "button-link my-game-back", href: game.url }, "Back to your table"),
    leave,
  );
}

/**
 * A "Your games" section that fills itself (hidden while there are none): the person's
 * waiting tables and games in play, each with "Back to your table" and, set apart, "Leave".
 */
export function myGamesSection() {
  const list = h("ul", { class: "game-list lobby-list", "aria-label": "Your games" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const section = h("section", { class: "choose-box my-games", id: "your-games", hidden: true },
    h("h2", {}, "Your games"), error, list);
  const redraw = async () => {
    const games = await liveGames();
    section.hidden = games.length === 0;
    fill(list, games.map((g) => row(g, redraw, error)));
  };
  redraw();
  return section;
}

/**
 * After a refusal: the person's games as next steps ("Back to your table" and "Leave"
 * links), added under `box`, which already says what went wrong.
 */
export async function offerNextSteps(box) {
  const games = await liveGames();
  if (!games.length) return;
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const redraw = async () => {
    const left = await liveGames();
    fill(list, left.map((g) => row(g, redraw, error)));
  };
  const list = h("ul", { class: "game-list next-steps", "aria-label": "Your games" }, games.map((g) => row(g, redraw, error)));
  box.append(list, error);
}

/** The header's link to the person's game (one: straight there; several: the lobby list);
 * none on the page of that game itself. */
export function drawHeaderLink(slot, known) {
  liveGames(known).then((games) => {
    const href = games.length === 1 ? games[0].url : "/lobby#your-games";
    if (!games.length || location.pathname === href) {
      fill(slot);
      return;
    }
    const text = games.length === 1 ? "Back to your table" : `Your games (${games.length})`;
    // A phone's one-row header shows the short words; the link's name stays the same.
    const short = games.length === 1 ? "Your table" : `Games (${games.length})`;
    fill(slot, h("a", { href, class: "my-games-link", "aria-label": text },
      h("span", { class: "my-games-long" }, text), h("span", { class: "my-games-short", "aria-hidden": "true" }, short)));
  });
}
