"""Coin tables against the computer: the person's move clock (rule 9) as a turn policy.

The table actor asks :meth:`CoinTurnPolicy.deadline` when a person's turn starts; when the
deadline passes it has the ``expert`` computer player make that move on the merits and tells
:meth:`CoinTurnPolicy.moved` with ``timed_out=True``. Nothing about coins happens here: a
move played for the person costs nothing and leaves the stake and the payout unchanged.
The streak of misses is saved with the table, so a restarted server resumes it; the clock
of the move in progress starts again from the top (the full clock, or computer speed if
the hand was running at it).
"""

from __future__ import annotations

import copy
import math
import secrets
import time
from typing import Any

from ...rules import Rules
from ..actor.first_draw import choose_first_dealer
from ..actor.kind import FinishHook, TableKind, TurnPolicy
from ..actor.seats import BOT, HUMAN, Seat, TableConfig, hash_token
from ..actor.wire import Clock
from .clock import ClockPolicy, MoveClock

COIN = "coin"
"""The kind of a coin table."""

TIMEOUT_LEVEL = "expert"
"""The computer level that moves for a person whose clock ran out."""

COIN_OPPONENTS = "expert"
"""The level of the computer players at a coin table (partner and both opponents)."""

COIN_PRESET = "redeal"
"""The rules of a coin table: the coin site's (doc 000): when all four pass twice the hand
is redealt by the same dealer, who is never forced to call (``docs/rules.md``, presets).
The preset is stored with each table, so a table begun under other rules keeps them."""

NO_HINTS = "Hints are off at coin and online tables: they are for practice."
"""The refusal of a hint at a coin or online table (the play must be the person's own)."""


class CoinTurnPolicy(TurnPolicy):
    """A move clock for each person's seat (:class:`~euchre.table.kinds.clock.MoveClock`)."""

    def __init__(self, config: TableConfig, clock: ClockPolicy | None = None) -> None:
        """A clock with ``clock``'s parameters for every person seated at ``config``."""
        self.clock_policy = clock or ClockPolicy()
        """The clock's parameters (90 s a move at coin tables)."""
        self.clocks: dict[int, MoveClock] = {
            i: MoveClock(self.clock_policy)
            for i, seat in enumerate(config.seats)
            if not seat.is_bot()
        }
        """Each person's clock, by seat."""

    def deadline(self, seat: int, now: float) -> float | None:
        """Start (or keep) the seat's clock; the time its move runs out."""
        clock = self.clocks.get(seat)
        if clock is None:
            return None
        clock = clock.start(now)
        self.clocks[seat] = clock
        return clock.deadline

    def on_timeout(self, seat: int, now: float) -> str:
        """The expert computer player moves for the person, on the merits."""
        return TIMEOUT_LEVEL

    def moved(self, seat: int, now: float, *, timed_out: bool) -> None:
        """Count a miss, or put the full clock back after the person's own move."""
        clock = self.clocks.get(seat)
        if clock is not None:
            self.clocks[seat] = clock.missed() if timed_out else clock.moved()

    def hand_over(self, now: float) -> None:
        """Computer speed ends with the hand; the misses in a row carry on."""
        self.clocks = {seat: c.stop().new_hand() for seat, c in self.clocks.items()}

    def forget(self, seat: int) -> None:
        """A computer plays ``seat`` from now on: its clock is dropped."""
        self.clocks.pop(seat, None)

    def clock_json(self, seat: int | None, deadline: float | None, now: float
                   ) -> Clock | None:
        """The seat's clock (deadline, move time, seconds per move, misses, computer
        speed) while a person's move is timed, else None."""
        if seat is None or deadline is None or seat not in self.clocks:
            return None
        clock = self.clocks[seat]
        return Clock(seat=seat, running=True,
                     deadline_ms_left=max(0, math.ceil((deadline - now) * 1000)),
                     move_ms=round(clock.allowed * 1000) if clock.running else None,
                     seconds_per_move=clock.policy.seconds_per_move, misses=clock.misses,
                     computer_speed=clock.fast)

    def copy(self) -> CoinTurnPolicy:
        """The same clocks (each an immutable value), in a dict of its own."""
        twin = copy.copy(self)
        twin.clocks = dict(self.clocks)
        return twin

    def to_json(self) -> dict[str, Any]:
        """The streaks, to save with the table."""
        return {"clocks": {str(seat): c.state() for seat, c in self.clocks.items()}}

    def load_json(self, data: dict[str, Any]) -> None:
        """Restore :meth:`to_json` output (clocks stopped: the move in progress starts again)."""
        for key, state in (data.get("clocks") or {}).items():
            seat = int(key)
            if seat in self.clocks and isinstance(state, dict):
                self.clocks[seat] = MoveClock.from_state(self.clock_policy, state)


def coin_table(
    table_id: str,
    username: str,
    stake: int,
    token: str | None = None,
    first_dealer: int | None = None,
) -> tuple[TableConfig, str]:
    """The settings of a new coin table (the person South, expert computers elsewhere) and
    the person's seat token."""
    token = token or secrets.token_urlsafe(24)

    def bot(where: str) -> Seat:
        return Seat(BOT, f"{where} ({COIN_OPPONENTS})", COIN_OPPONENTS, secrets.randbits(62))

    dealer, draw = choose_first_dealer(first_dealer)
    config = TableConfig(
        id=table_id,
        kind=COIN,
        rules=Rules.preset(COIN_PRESET),
        seats=(
            Seat(HUMAN, username, None, None, hash_token(token), account=username),
            bot("West"),
            bot("North"),
            bot("East"),
        ),
        preset=COIN_PRESET,
        created_at=time.time(),
        first_dealer=dealer,
        first_draw=draw,
        extra={"stake": stake},
    )
    return config, token


def coin_kind(clock: ClockPolicy, finish: FinishHook) -> TableKind:
    """Coin tables: the move clock ``clock``, ``finish`` settling the stake, no hints."""
    return TableKind(COIN, hints=False, policy=lambda config: CoinTurnPolicy(config, clock),
                     finish=(finish,), no_hints=NO_HINTS)
