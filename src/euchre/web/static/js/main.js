// The client's entry point: a small router over the paths the server serves index.html for
// (/, /table/{id}, /watch/{id}, /replay/{id}, /rules) that mounts one page at a time.

import { mountAccount } from "../account/account.js";
import { mountCoins } from "../account/coins.js";
import { initAccountSlot, onMe } from "../account/session.js";
import { mountLeaders } from "./leaders.js";
import { drawHeaderLink } from "./my-games.js";
import { mountLobbyPage } from "./lobby.js";
import { navigate } from "./nav.js";
import { mountOnlineLobby, mountOnlinePage } from "./online.js";
import { mountPerson } from "./played-games.js";
import { mountBotDocs } from "./bot-docs.js";
import { mountReplay } from "./replay.js";
import { mountLearn } from "./learn.js";
import { mountScore } from "./night-score.js";
import { mountNight, mountNightScreen, mountNights } from "./nights.js";
import { mountTournament, mountTournaments } from "./tournaments.js";
import { mountRules } from "./rules-page.js";
import { mountStart } from "./start.js";
import { mountTable } from "./table.js";
import { mountWatch } from "./watch.js";

const ROUTES = [
  [/^\/$/, (main) => mountStart(main), "Euchre", "/"],
  [/^\/table\/([\w.~-]+)$/, (main, id) => mountTable(main, id), "Euchre: your table", null],
  [/^\/watch\/([\w.~-]+)$/, (main, id) => mountWatch(main, id), "Euchre: watching", null],
  [/^\/rules$/, (main) => mountRules(main, new URLSearchParams(location.search).get("table")), "Euchre: rules", "/rules"],
  [/^\/learn$/, (main) => mountLearn(main), "Euchre: strategy guide", "/learn"],
  [/^\/replay\/([\w.~-]+)$/, (main, id) => mountReplay(main, id), "Euchre: replay", null],
  [/^\/account$/, (main) => mountAccount(main), "Euchre: your account", "/account"],
  [/^\/coins$/, (main) => mountCoins(main), "Euchre: coin tables", "/coins"],
  [/^\/leaders$/, (main) => mountLeaders(main), "Euchre: leaderboard", "/leaders"],
  [/^\/bots$/, (main) => mountBotDocs(main, "bots"), "Euchre: bots", null],
  [/^\/bots\/engine$/, (main) => mountBotDocs(main, "engine"), "Euchre: the engine protocol", null],
  [/^\/people\/([^/]+)$/, (main, name) => mountPerson(main, name), "Euchre: a player", null],
  [/^\/lobby$/, (main) => mountLobbyPage(main), "Euchre: lobby", "/lobby"],
  [/^\/online$/, (main) => mountOnlinePage(main), "Euchre: online tables", "/online"],
  [/^\/online\/([\w.~-]+)$/, (main, id) => mountOnlineLobby(main, id), "Euchre: online table", "/online"],
  [/^\/nights$/, (main) => mountNights(main), "Euchre: euchre nights", "/nights"],
  [/^\/nights\/([\w.~-]+)$/, (main, id) => mountNight(main, id), "Euchre: euchre night", "/nights"],
  [/^\/nights\/([\w.~-]+)\/screen$/, (main, id) => mountNightScreen(main, id), "Euchre: standings", "/nights"],
  [/^\/tournaments$/, (main) => mountTournaments(main), "Euchre: tournaments", "/tournaments"],
  [/^\/tournaments\/([\w.~-]+)$/, (main, id) => mountTournament(main, id), "Euchre: tournament", "/tournaments"],
  [/^\/score$/, (main) => mountScore(main, null), "Euchre: score a table", "/nights"],
  [/^\/score\/([\w.~-]+)$/, (main, code) => mountScore(main, code), "Euchre: score a table", "/nights"],
];

const main = document.getElementById("main");
let unmount = null;

// On a phone the site's links sit behind the Menu button.
const menuButton = document.querySelector(".menu-button");
function openMenu(open) {
  menuButton.setAttribute("aria-expanded", String(open));
  document.querySelector(".site-header").classList.toggle("menu-open", open);
}
menuButton.addEventListener("click", () => openMenu(menuButton.getAttribute("aria-expanded") !== "true"));
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && menuButton.getAttribute("aria-expanded") === "true") {
    openMenu(false);
    menuButton.focus();
  }
});

function route() {
  openMenu(false);
  unmount?.();
  unmount = null;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  for (const [pattern, mount, title, nav] of ROUTES) {
    const match = path.match(pattern);
    if (!match) continue;
    document.title = title;
    document.body.dataset.page = path.split("/")[1] || "start";
    for (const link of document.querySelectorAll(".site-nav a")) {
      if (link.getAttribute("href") === nav) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    unmount = mount(main, ...match.slice(1).map(decodeURIComponent)) || null;
    drawHeaderLink(myGamesSlot); // "Back to your table" in the header, on every page
    return;
  }
  navigate("/", { replace: true });
}

// Links inside the client change pages without a reload.
document.addEventListener("click", (event) => {
  const link = event.target.closest?.("a[href]");
  if (!link || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target || link.hasAttribute("download")) return;
  if (link.getAttribute("href").startsWith("#")) return; // an anchor on this page (the skip link)
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/static/")) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});

// The header's link to the signed-in person's game in progress (js/my-games.js).
const myGamesSlot = document.createElement("div");
myGamesSlot.className = "my-games-slot";
document.getElementById("account")?.before(myGamesSlot);
// Signed in or out: their games, or none (with the account given: a guest's null never
// asks /api/me again, which would tell the listeners again).
onMe((who) => drawHeaderLink(myGamesSlot, who));

window.addEventListener("popstate", route);
initAccountSlot();
route();

// The table fills the window under the header: keep the header's height in a CSS variable.
const header = document.querySelector(".site-header");
function measureHeader() {
  document.documentElement.style.setProperty("--header-h", `${header.offsetHeight}px`);
}
new ResizeObserver(measureHeader).observe(header);
measureHeader();
