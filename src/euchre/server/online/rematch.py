"""A rematch's new table: the same people (and computers) as a finished online table, in
the seats the offer chose, started through the one start (``online_api.start_game``).

So a rematch is started like any online game: a rated one is registered and rated by the
same hooks, a staked one takes every person's stake into a new pot, all or none (refused
naming who cannot cover it, never a balance). Each person's seat keeps their token's hash
and account, so the token (or the session) that opened their old seat opens the new one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ...rules import Rules
from ...table.actor.seats import TableConfig, new_table_id
from ...table.kinds.online import DEFAULT_LEVEL, OnlineOptions, OpenTable
from .lobby_state import OnlineSite, lobby_of


def options_of(config: TableConfig) -> OnlineOptions:
    """The choices a started online table was opened with, read off its settings."""
    extra = config.extra
    preset = Rules.preset(config.preset).to_dict()
    changes = {k: v for k, v in config.rules.to_dict().items() if preset.get(k) != v}
    return OnlineOptions(
        preset=config.preset, rules=changes,
        seconds_per_move=float(extra.get("seconds_per_move", 30.0)),
        level=str(extra.get("level", DEFAULT_LEVEL)), name=config.seats[0].name,
        rated=bool(extra.get("rated", False)),
        spectators=extra.get("spectators", True) is not False,
        stake=int(extra.get("stake", 0)), allow_bots=bool(extra.get("allow_bots", False)),
        private=bool(extra.get("private", False)))


def rematch_table(config: TableConfig, order: tuple[int, int, int, int], now: float
                  ) -> OpenTable:
    """The waiting table of a rematch of ``config``: new seat ``i`` holds whoever sat at
    ``order[i]`` (a computer's seat stays free, filled by a computer at the start)."""
    people: list[tuple[str, str] | None] = []
    accounts: list[int | None] = []
    for old in order:
        seat = config.seats[old]
        if seat.is_bot() or seat.token_hash is None:
            people.append(None)
            accounts.append(None)
        else:
            people.append((seat.name, seat.token_hash))
            accounts.append(seat.account_id)
    return OpenTable(new_table_id(), options_of(config), now, people, accounts=accounts)


Start = Callable[[str], Awaitable[object]]
"""Starts a waiting table by its id (``online_api.start_game``, the one start)."""


async def start_rematch(site: OnlineSite, config: TableConfig, order: tuple[int, int, int, int],
                        start: Start) -> str:
    """Open the rematch of ``config`` and ``start`` it (the kind's rematch hook); its id. A
    stake someone cannot cover is refused (``StakeRefused``) and no table is left behind."""
    lobby = lobby_of(site)
    table = rematch_table(config, order, lobby.now())
    await lobby.add_started_soon(table)
    try:
        await start(table.id)
    except BaseException:
        await lobby.drop(table.id)
        raise
    return table.id

