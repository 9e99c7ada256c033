"""Rare moments at the table, from fixed deals: a farmer's hand and the Joker turned up.

The table socket is answered inside the browser by a small stand-in that keeps a real
engine hand: it sends the seat's real view (with `legal`), applies the client's moves with
the engine (so a move the engine refuses fails the test), and moves the other seats by
taking their first legal action.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from web_helpers import screenshot

from euchre.hand import HandState, deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

TABLE_ID = "scripted"
ME = 0


class ScriptedTable:
    """One hand of a table, played through a routed WebSocket."""

    def __init__(
        self,
        state: HandState,
        preset: str,
        bots_order: bool = False,
        drop_first: bool = False,
        clock: bool = False,
    ) -> None:
        self.state = state
        self.preset = preset
        self.bots_order = bots_order
        self.drop_first = drop_first
        self.clock = clock
        self.joins: list[int | None] = []
        self.version = 1
        self.received: list[str] = []
        self.errors: list[str] = []

    def table(self) -> dict[str, Any]:
        state = self.state
        rules = state.rules
        return {
            "id": TABLE_ID,
            "kind": "practice",
            "version": self.version,
            "seat": ME,
            "seats": [
                {"seat": s, "name": n, "kind": k, "level": lv, "connected": True}
                for s, n, k, lv in [
                    (0, "You", "human", None),
                    (1, "West", "bot", "easy"),
                    (2, "North", "bot", "easy"),
                    (3, "East", "bot", "easy"),
                ]
            ],
            "preset": self.preset,
            "rules": rules.to_dict(),
            "rules_text": rules.describe(),
            "score": [0, 0],
            "hand_number": 1,
            "dealer": state.dealer,
            "to_act": state.to_act,
            "commitment": None,
            "game_over": False,
            "winner": None,
            "view": state.view(ME).to_json(),
            "clock": {"seat": state.to_act, "deadline_ms_left": 90_000} if self.clock else None,
            "summary": None,
        }

    def on_message(self, ws: WebSocketRoute, raw: str | bytes) -> None:
        message = json.loads(raw)
        if message["type"] == "join":
            since = message.get("since")
            self.joins.append(since)
            ws.send(
                json.dumps(
                    {"type": "joined", "table_id": TABLE_ID, "seat": ME, "version": self.version}
                )
            )
            if since != self.version:
                ws.send(
                    json.dumps({"type": "snapshot", "version": self.version, "table": self.table()})
                )
            if self.drop_first and len(self.joins) == 1:
                ws.close()  # the connection drops before anything else happens
                return
        elif message["type"] == "action":
            self.received.append(message["action"])
            if not self.state.is_legal(message["action"]) or self.state.to_act != ME:
                self.errors.append(message["action"])
                ws.send(json.dumps({"type": "error", "code": "illegal", "message": "not legal"}))
                return
            self.act(ws, ME, message["action"])
        self.run_bots(ws)

    def run_bots(self, ws: WebSocketRoute) -> None:
        """Let the other seats move until it is our turn."""
        while not self.state.is_over and self.state.to_act not in (ME, None):
            self.act(ws, self.state.to_act, self.bot_move())

    def bot_move(self) -> str:
        """The other seats' move: the first legal one (or ordering up, if asked to)."""
        legal = [str(a) for a in self.state.legal_actions()]
        return "order" if self.bots_order and "order" in legal else legal[0]

    def act(self, ws: WebSocketRoute, seat: int, action: str) -> None:
        self.state = self.state.apply(action)
        self.version += 1
        shown = action
        if seat != ME and action.startswith(("discard ", "farmer swap ")):
            shown = "discard" if action.startswith("discard") else "farmer swap"
        ws.send(
            json.dumps(
                {
                    "type": "event",
                    "version": self.version,
                    "event": {"kind": "action", "seat": seat, "action": shown},
                    "table": self.table(),
                }
            )
        )


@pytest.fixture
def scripted(page: Page) -> Iterator[Any]:
    """Open the table page for a scripted hand: returns a function taking the hand."""

    def open_table(state: HandState, preset: str, **options: bool) -> ScriptedTable:
        table = ScriptedTable(state, preset, **options)
        page.add_init_script(
            f"localStorage.setItem('euchre.seats', "
            f"JSON.stringify({{{json.dumps(TABLE_ID)}: {{token: 't', at: 0}}}}))"
        )
        page.route_web_socket(
            f"**/ws/tables/{TABLE_ID}",
            lambda ws: ws.on_message(lambda raw: table.on_message(ws, raw)),
        )
        page.goto(f"/table/{TABLE_ID}")
        return table

    yield open_table


HANDS = [
    ["9C", "9D", "9H", "TC", "TD"],
    ["JC", "QC", "KC", "AC", "TS"],
    ["JD", "QD", "KD", "AD", "TH"],
    ["JH", "QH", "KH", "AH", "9S"],
]


def test_farmers_hand_swaps_three_chosen_cards(page: Page, scripted: Any, artifacts: Path) -> None:
    state = deal(Rules.preset("kitchen-table"), 3, HANDS, ["JS", "QS", "KS", "AS"])
    table = scripted(state, "kitchen-table")
    expect(page.get_by_role("status")).to_contain_text("farmer's hand")
    expect(page.get_by_role("button", name="Keep this hand")).to_be_enabled()
    expect(page.get_by_role("button", name="Throw this hand in")).to_be_enabled()
    swap = page.locator(".bid-farmer-swap")
    expect(swap).to_have_text("Choose 3 more cards to swap")
    expect(swap).to_be_disabled()
    for name in ("Nine of Clubs", "Ten of Clubs", "Nine of Diamonds"):
        card = page.get_by_role("button", name=name, exact=True)
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
    expect(swap).to_be_enabled()
    expect(swap).to_contain_text("Swap the Nine of Clubs")
    screenshot(page, artifacts / "farmer.png")
    swap.click()
    expect(page.get_by_role("button", name="Nine of Clubs", exact=True)).to_have_count(0)
    assert table.received[0].startswith("farmer swap ")
    assert not table.errors


def test_joker_turned_up_lets_the_dealer_name_trump(
    page: Page, scripted: Any, artifacts: Path
) -> None:
    state = deal(Rules.preset("benny"), ME, HANDS, ["JK", "QS", "KS", "AS", "JS"])
    table = scripted(state, "benny")
    expect(page.get_by_role("img", name="Upcard: Joker")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Joker was turned up")
    for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
        expect(page.get_by_role("button", name=f"Call {suit}", exact=True)).to_be_enabled()
        expect(page.get_by_role("button", name=f"Call {suit} alone", exact=True)).to_be_enabled()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Call Spades", exact=True).click()
    joker = page.get_by_role("button", name="Joker", exact=True)
    expect(joker).to_be_enabled()
    expect(page.get_by_role("status")).to_contain_text("Choose a card to discard")
    screenshot(page, artifacts / "benny-discard.png")
    page.get_by_role("button", name="Nine of Hearts", exact=True).click()
    expect(page.get_by_role("button", name="Nine of Hearts", exact=True)).to_have_count(0)
    assert table.received[:2] == ["call S", "discard 9H"]
    assert not table.errors


def test_a_defender_may_defend_alone_after_the_dealer_discards(
    page: Page, scripted: Any, artifacts: Path
) -> None:
    hands = [
        ["JS", "AS", "AD", "KD", "QD"],
        ["JC", "QC", "KC", "AC", "TS"],
        ["JD", "9D", "TH", "9H", "TD"],
        ["JH", "QH", "KH", "AH", "9S"],
    ]
    state = deal(Rules.preset("kitchen-table"), ME, hands, ["9C", "QS", "KS", "TC"])
    table = scripted(state, "kitchen-table", bots_order=True)
    status = page.get_by_role("status")
    expect(status).to_contain_text("West orders up the Nine of Clubs.")
    expect(status).to_contain_text("Choose a card to discard.")
    page.get_by_role("button", name="Nine of Clubs", exact=True).click()
    defend = page.get_by_role("button", name="Defend alone", exact=True)
    expect(defend).to_be_enabled()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    screenshot(page, artifacts / "defend-alone.png")
    defend.click()
    expect(page.locator(".seat-south .tag")).to_contain_text(["Dealer", "Defends alone"])
    expect(page.locator(".seat-north .tag-out")).to_have_text("Sits out")
    expect(page.get_by_role("button", name="Ace of Spades", exact=True)).to_be_visible()
    assert table.received == ["discard 9C", "defend alone"]
    assert not table.errors


def test_a_dropped_connection_rejoins_with_the_last_version(page: Page, scripted: Any) -> None:
    # West bids first; the socket drops right after the first snapshot.
    state = deal(Rules.preset("classic"), ME, HANDS, ["JS", "QS", "KS", "AS"])
    table = scripted(state, "classic", drop_first=True)
    # Back online, the missing moves arrive and it is our turn.
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    expect(page.get_by_role("status")).to_contain_text("East passes.")
    assert table.joins == [None, 1]


def test_the_move_clock_counts_down_for_the_seat_to_act(page: Page, scripted: Any) -> None:
    state = deal(Rules.preset("classic"), 3, HANDS, ["JS", "QS", "KS", "AS"])
    scripted(state, "classic", clock=True)
    clock = page.locator(".clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^Your clock: 1:[0-3]\d$"))
