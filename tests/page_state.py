"""Waiting in a browser page for what it shows next, in one WebDriver call: the page itself
watches its changes (a MutationObserver) and answers as soon as the state is reached.

A test that waited for one of several things (its turn, a result, the game's end) and then
asked which one it was made three to five calls a move, each 0.1-0.5 s on a loaded machine;
and a click on a card still sliding in waits in Playwright's retries (20, 100, 100, 500 ms)
for the card to stand still.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page

REACHED_JS = """(read, timeoutMs) => new Promise((done) => {
  // read()'s first truthy value, or null after timeoutMs: read at once, after every change
  // to the page, and every 100 ms (a change no mutation shows, such as a layout).
  const now = read();
  if (now) { done(now); return; }
  let observer = null, tick = null, limit = null;
  const stop = () => { observer.disconnect(); clearInterval(tick); clearTimeout(limit); };
  const check = () => { const value = read(); if (value) { stop(); done(value); } };
  observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, attributes: true,
                               characterData: true });
  tick = setInterval(check, 100);
  limit = setTimeout(() => { stop(); done(null); }, Math.max(0, timeoutMs));
})"""
"""A JavaScript function ``(read, timeoutMs)`` waiting in the page, without polling every
frame, for ``read()`` to give a truthy value (null once ``timeoutMs`` pass): the one wait of
:func:`wait_for_state` and ``web_helpers.next_turn``."""


def wait_for_state(page: Page, state_js: str, *, settle: str = "",
                   timeout_ms: int = 30_000) -> str:
    """Wait until ``state_js`` (a JavaScript function returning a string) returns a
    non-empty one on ``page``; returns it. It is read as :data:`REACHED_JS` reads.
    ``settle``: a selector whose elements' animations (and their insides': cards dealt in)
    are let finish first, at most 2 s, and the state read again, so a click finds its
    target still. Raises (a Playwright error naming the wait) after ``timeout_ms``."""
    js = f"""async () => {{
      const read = {state_js};
      const until = performance.now() + {timeout_ms};
      const waitFor = {REACHED_JS};
      const reached = async () => {{
        const value = await waitFor(read, until - performance.now());
        if (!value) throw new Error("the page's state was not reached in {timeout_ms} ms");
        return value;
      }};
      const settle = {json.dumps(settle)};
      const settled = () => Promise.race([
        Promise.all([...document.querySelectorAll(settle)]
          .flatMap((el) => el.getAnimations({{ subtree: true }}))
          .map((a) => a.finished.catch(() => null))),
        new Promise((done) => setTimeout(done, 2000))]);
      for (;;) {{
        const value = await reached();
        if (!settle) return value;
        await settled();
        const still = read();
        if (still) return still;
      }}
    }}"""
    state: str = page.evaluate(js)
    return state


PLAYER_STATE_JS = """() => {
  const shown = (el) => el.checkVisibility({ visibilityProperty: true })
    && el.getClientRects().length > 0;
  const any = (selector) => [...document.querySelectorAll(selector)].some(shown);
  if (any(".game-over-panel")) return "over";
  if ([...document.querySelectorAll(".summary-panel button")].some(
    (b) => shown(b) && b.textContent.includes("Continue"))) return "result";
  const bids = [...document.querySelectorAll(".actions button:enabled")].filter(shown);
  if (bids.some((b) => (b.getAttribute("aria-label") || b.textContent).trim() === "Pass")) {
    return "pass";
  }
  if (bids.length) return "bid";
  return any(".hand .card-button:enabled") ? "card" : "";
}"""
"""What a player's table page offers now, for :func:`wait_for_state`: ``"over"`` (the game's
end), ``"result"`` (a hand's result with its Continue), ``"pass"`` (a bid to make, passing
among them), ``"bid"`` (a bid to make), ``"card"`` (a card to play), or empty while none."""

BID = ".actions button:enabled"
"""A bid the page offers now (the first one is the leftmost)."""

CARD = ".hand .card-button:enabled"
"""A card the page lets its player play now."""
