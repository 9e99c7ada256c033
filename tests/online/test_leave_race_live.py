"""The leave against the deciding card through the real endpoint of a live server: four
people play over their table sockets until the next card ends the game; then that card
goes over its socket while a winning person's ``POST /api/online/{id}/leave-game`` goes
over HTTP. Whichever the table saw first decides, and the answer and the ledger agree:
200 (left, fee charged, the share to nobody, ``replaced`` before ``game_over``) or 409
(the game had already ended: nothing charged, the payout kept). SQLite, and PostgreSQL
when ``EUCHRE_TEST_DATABASE_URL`` is set."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from typing import Any

import httpx
from stake_helpers import (
    Person,
    Players,
    check_no_coin_created_or_lost,
    pot_figures,
    stake_app,
    stake_table,
)
from websockets.exceptions import ConnectionClosed

from euchre.server.online.stakes import GAME_ENDED
from euchre.server.root import root_of
from ledger_fixtures import db_url
from live_server import live_server

__all__ = ["db_url"]

STAKE = 100


def _to_the_last_card(app: Any, players: Players, table_id: str, rng: random.Random
                      ) -> tuple[int, str, int]:
    """Play random legal moves (chosen from the table's own state, sent over the seats'
    sockets) until the next card would end the game: (its seat, the card, the winner)."""
    manager = root_of(app).manager
    for _ in range(100_000):
        for seat in list(players.sockets):
            while players._read(seat, 0.0):
                pass
        actor = manager.peek(table_id)
        assert actor is not None and not actor.game.is_over
        game = actor.game
        seat = game.to_act
        if seat is None:
            players._read(0, 0.05)  # a deal on its way
            continue
        legal = game.legal_actions()
        action = rng.choice(legal)
        after = game.apply(action, seat=seat)
        if after.is_over:
            assert len(legal) == 1 and after.winner is not None  # the hand's last card
            return seat, str(action), after.winner
        players.sockets[seat].send(json.dumps({"type": "action", "action": str(action)}))
        while manager.peek(table_id).game is game:  # until the table took it
            players._read(seat, 0.05)
    raise AssertionError("the game did not get there")


MODES = ("card, then the leave at once", "the leave, then the card at once",
         "the leave answered, then the card", "the game over, then the leave")
"""How the two are sent: two races, and each order made certain."""


def _race(base: str, app: Any, people: list[Person], run: int) -> str:
    table_id, tokens = stake_table(people, STAKE)
    r = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
    assert r.status_code == 200, r.text
    before = [p.balance() for p in people]
    rng = random.Random(run)
    players = Players(base, table_id, tokens, seed=run)
    try:
        mover, card, winner = _to_the_last_card(app, players, table_id, rng)
        winners = [s for s in range(4) if s % 2 == winner]
        leaver = winners[run % 2]
        answer: dict[str, Any] = {}

        def leave() -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                res = http.post(f"/api/online/{table_id}/leave-game",
                                json={"token": tokens[leaver]})
                answer.update(status=res.status_code, body=res.json())

        def play_card() -> None:
            try:
                players.sockets[mover].send(json.dumps({"type": "action", "action": card}))
            except ConnectionClosed:
                # The leaver's own socket, closed by the leave it sent first: the computer
                # that took the seat plays the card.
                assert mover == leaver and run == 2

        leaving = threading.Thread(target=leave)
        if run == 0:
            play_card()
            leaving.start()
        elif run == 1:
            leaving.start()
            play_card()
        elif run == 2:
            leaving.start()
            leaving.join(60)
            play_card()  # refused if it was the leaver's: a computer plays it
        else:
            play_card()
            players.play(lambda p: p.over(), idle=frozenset({leaver}))
            leaving.start()
        leaving.join(60)
        players.play(lambda p: p.over(), idle=frozenset({leaver}))
        # Someone who stayed and saw the end (a socket of theirs may have been moved or
        # closed under load meanwhile; any one of them tells the order).
        watcher = next(s for s in range(4) if s != leaver
                       and "game_over" in [e["kind"] for e in players.events[s]])
        kinds = [e["kind"] for e in players.events[watcher]]
    finally:
        players.close()
    figures = asyncio.run(pot_figures(root_of(app).settings.database_url, table_id))
    assert figures["status"] == "settled" and figures["winner"] == winner
    check_no_coin_created_or_lost(figures, 4 * STAKE)
    after = [p.balance() for p in people]
    delta = [a - b for a, b in zip(after, before, strict=True)]
    if answer["status"] == 409:
        assert answer["body"]["code"] == "game_ended"
        assert answer["body"]["error"] == GAME_ENDED
        assert "replaced" not in kinds and "fee" not in figures["sums"]
        assert delta[leaver] == 2 * STAKE and figures["house"] == 0  # the payout kept
        return "ended"
    assert answer["status"] == 200, answer
    body = answer["body"]
    assert (body["left"], body["already"], body["fee"]) == (True, False, STAKE // 10)
    assert kinds.index("replaced") < kinds.index("game_over")
    assert figures["sums"]["fee"] == -(STAKE // 10)
    assert delta[leaver] == -(STAKE // 10) and figures["house"] == 2 * STAKE
    return "left"


def test_a_leave_against_the_deciding_card_over_http(db_url: str) -> None:
    app = stake_app(db_url)
    with live_server(app) as base:
        people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
        try:
            outcomes = [_race(base, app, people, run) for run in range(len(MODES))]
        finally:
            for p in people:
                p.close()
    assert set(outcomes[:2]) <= {"left", "ended"}  # the races: either, consistently
    assert outcomes[2:] == ["left", "ended"]
