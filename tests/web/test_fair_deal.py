"""A shuffle nobody can choose, in the browser: the page adds its own seed to every deal
(the first deal waits for it), checks each finished hand itself, and shows "Shuffle verified";
the record it could download carries its seeds and passes `euchre verify`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    GAME_OVER,
    continue_after_result,
    next_turn,
    start_table,
    take_turn,
)

from euchre.record import GameRecord
from euchre.verify import verify_record

pytestmark = pytest.mark.browser


@pytest.mark.quick_pace
def test_the_page_seeds_every_deal_and_verifies_every_hand(page: Page) -> None:
    url = start_table(page, "short")
    table_id = url.rsplit("/", 1)[1]
    verdict = page.locator(".shuffle-verdict")
    for _ in range(400):
        turn = next_turn(page)
        if turn.over:
            break
        if turn.summary is not None:
            continue_after_result(page)  # read: not its 2 s hold
            continue
        take_turn(page, turn)
    expect(page.locator(GAME_OVER)).to_be_visible()
    expect(verdict).to_contain_text(re.compile(r"Shuffle verified: hands 1–\d+"))
    assert "FAILED" not in verdict.inner_text()
    sent = page.evaluate(f"JSON.parse(localStorage.getItem('euchre.fair-deal'))['{table_id}']")
    response = page.request.get(f"/api/games/{table_id}/record?format=json")
    record = GameRecord.from_json(response.json())
    assert len(record.hands) >= 2
    for number, hand in enumerate(record.hands, 1):
        assert hand.client_seeds == {0: sent["seeds"][str(number)]}, f"hand {number}"
        assert sent["results"][str(number)] == [], f"the page checked hand {number}"
    assert verify_record(record).ok
