"""A team event's pages in a real browser at 1366x657 and 390x844: the creator picks single
elimination and rated on the form, invites a partner by name, the partner accepts on the
tournament's page, a second pair declines once and then pairs up, the lobby lists the event
with its format, the creator starts it, the final's match shows with its watch link, each
person takes their seat (then leaves it to a computer, so the game ends without waiting on
the clock), and the page shows the final placing with its order stated, each person's page
their result with their partner. Screenshots go to test-artifacts/tournaments/; any console
error fails the test.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect
from test_tournaments_browser import SIZES, base_url, shot

pytestmark = pytest.mark.browser

__all__ = ["base_url"]


def sign_up(page: Page, name: str) -> dict[str, str]:
    """A new account signed in on ``page``; its CSRF header."""
    r = page.request.post("/api/accounts", data={"username": name, "password": "correct horse"})
    assert r.ok, r.text()
    return {"X-CSRF-Token": r.json()["csrf"]}


def invite(page: Page, partner: str) -> None:
    page.get_by_label("Your partner's name").fill(partner)
    page.get_by_role("button", name="Invite").click()
    expect(page.locator(".pair-invite")).to_contain_text(f"You asked {partner}")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_pair_event_from_the_form_to_the_final_placing(
    new_context: Callable[..., BrowserContext], base_url: str, size: str
) -> None:
    viewport = SIZES[size]
    names = [f"{n}{size[0]}" for n in ("ann", "bob", "cyd", "dee")]
    pages = [new_context(base_url=base_url, viewport=viewport).new_page() for _ in names]
    csrf = [sign_up(page, name) for page, name in zip(pages, names, strict=True)]
    ann, bob, cyd, dee = pages

    ann.goto("/tournaments")
    ann.get_by_label("Name", exact=True).fill(f"Pairs cup {size}")
    ann.get_by_label("Format").select_option("single_elimination")
    expect(ann.get_by_label("Movement between rounds")).to_be_hidden()
    expect(ann.get_by_label("Rounds", exact=True)).to_be_hidden()
    expect(ann.locator("#tour-bonus")).to_be_hidden()  # loner bonuses are progressive's
    ann.get_by_label("Hands a round").fill("1")
    ann.get_by_label("Seconds a move").fill("5")
    ann.locator("#tour-rated").check()
    shot(ann, f"t1-create-{size}.png")
    ann.get_by_role("button", name="Create the tournament").click()
    expect(ann.locator("h1")).to_have_text(f"Pairs cup {size}")
    expect(ann.locator(".tournament-page")).to_contain_text(
        "Single elimination (fixed pairs): rounds of 1 hand, 5 s a move. Rated")
    url = ann.url
    invite(ann, names[1])

    bob.goto(url)
    expect(bob.locator(".pair-invite")).to_contain_text(f"{names[0]} asks you")
    shot(bob, f"t2-invited-{size}.png")
    bob.get_by_role("button", name="Accept").click()
    expect(bob.get_by_text(f"You are registered with {names[0]}.")).to_be_visible()
    expect(bob.get_by_role("button", name="Withdraw our pair")).to_be_visible()

    cyd.goto(url)
    invite(cyd, names[3])
    dee.goto(url)
    dee.get_by_role("button", name="Decline").click()
    expect(dee.locator(".pair-invite")).to_have_count(0)
    cyd.reload()
    expect(cyd.locator(".pair-invite")).to_contain_text(f"{names[3]} declined")
    invite(cyd, names[3])
    dee.reload()
    dee.get_by_role("button", name="Accept").click()
    expect(dee.get_by_role("heading", name="Pairs (2)")).to_be_visible()
    expect(dee.locator("[data-pairs] li")).to_have_text(
        [f"{names[0]} & {names[1]}", f"{names[2]} & {names[3]}"])
    shot(dee, f"t3-pairs-{size}.png")

    dee.goto("/lobby")  # the lobby lists it with its format
    listed = dee.locator(".tournaments-list [data-format='single_elimination']")
    expect(listed).to_contain_text("Single elimination (fixed pairs) · starts")
    expect(listed).to_contain_text("· 2 pairs registered")

    ann.reload()
    ann.get_by_role("button", name="Start now").click()
    expect(ann.get_by_role("heading", name="Round 1", exact=True)).to_be_visible()
    match = ann.locator("[data-match='W1.1']").first
    expect(match).to_contain_text("Winners round 1, match 1")
    expect(match).to_contain_text(f"{names[0]} & {names[1]}")
    expect(match.get_by_role("link", name="Watch")).to_be_visible()
    shot(ann, f"t4-round-{size}.png")

    # Each takes their seat from the page, then leaves it to a computer (no waiting on the
    # move clock): partners sit North and South, East and West.
    for page, headers in zip(pages, csrf, strict=True):
        page.goto(url)
        page.get_by_role("link", name="Take your seat").click()
        expect(page.locator(".score-target")).to_have_text("A round of 1 hand")
        table_id = page.url.rstrip("/").split("/")[-1]
        r = page.request.post(f"/api/online/{table_id}/leave-game", headers=headers, data={})
        assert r.ok, r.text()
    ann.goto(url)
    expect(ann.get_by_role("heading", name="Final placing")).to_be_visible(timeout=120_000)
    expect(ann.locator("[data-tie-breaks]")).to_contain_text(
        "Placing: the champion first")
    rows = ann.get_by_role("table", name="Team standings").locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Champion")
    expect(ann.locator("[data-all-rounds] [data-match='W1.1']")).to_contain_text("won")
    shot(ann, f"t5-placing-{size}.png")
    ann.goto(f"/people/{names[0]}")
    expect(ann.locator(".person-tournaments")).to_contain_text(f"with {names[1]}")
    shot(ann, f"t6-person-{size}.png")
