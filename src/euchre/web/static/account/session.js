// The signed-in account as the client knows it: GET /api/me, calls that carry the CSRF
// token, and the header slot with the name and the coin balance.

import { request } from "../js/api.js";
import { fill, h } from "../js/dom.js";

export const NOTICE = "Play coins have no cash value and cannot be cashed out.";

let current = null; // the last /api/me answer, or null when signed out
let version = 0; // bumped by every setMe: a fetch older than the last change is stale
const listeners = new Set();

/** Call the API; state-changing calls carry the session's CSRF token. */
export function call(method, path, body) {
  const csrf = method !== "GET" && current?.csrf ? { "X-CSRF-Token": current.csrf } : {};
  return request(method, path, body, csrf);
}

/** Who is signed in (fetched again when `fresh`); null when nobody is. */
export async function me(fresh = false) {
  if (current && !fresh) return current;
  // GET /api/session answers a guest with 200 (GET /api/me would refuse with a 401, which
  // the browser reports as an error in the console).
  const started = version;
  const answer = await call("GET", "/api/session");
  // A change recorded while the fetch was in flight (a leave's new balance, say) came from
  // an answer the server gave later than this one: keep it rather than go back.
  if (version === started) setMe(answer.signed_in ? answer.me : null);
  return current;
}

/** Remember a new /api/me answer (sign-in, sign-up, a balance change) and redraw. */
export function setMe(value) {
  version += 1;
  current = value;
  for (const listener of listeners) listener(current);
}

/** Be told whenever the account changes. Returns a function that stops it. */
export function onMe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Update the balance shown everywhere after a coin operation. */
export function setBalance(balance) {
  if (current) setMe({ ...current, balance });
}

export function coins(n) {
  return `${n.toLocaleString("en-US")} coin${n === 1 ? "" : "s"}`;
}

/** Fill the header's account slot: "Sign in", or the name and the balance. */
export function initAccountSlot() {
  const slot = document.getElementById("account");
  if (!slot) return;
  const draw = (account) => {
    if (!account) {
      fill(slot, h("a", { href: "/account", class: "account-link" }, "Sign in"));
      return;
    }
    fill(
      slot,
      h(
        "a",
        { href: "/account", class: "account-link", title: NOTICE },
        h("span", { class: "account-name" }, account.username),
        h("span", { class: "account-sep" }, " · "),
        h("span", { class: "account-balance", dataset: { balance: String(account.balance) } }, coins(account.balance)),
      ),
    );
  };
  onMe(draw);
  draw(current);
  me().catch(() => draw(null));
}
