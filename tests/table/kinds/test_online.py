"""Online tables before their start: the rules of claiming, leaving, starting, cancelling and
agreeing to fill (shared by both registries), rated and stake tables, outside bots, what is
shown and stored, the in-memory registry on an injected clock, and the settings a started
table gets. Every refusal says why and changes nothing."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable

import pytest

from euchre.rules import Rules
from euchre.table.actor.seats import BOT, HUMAN, AccountKey, hash_token
from euchre.table.kinds.coin import CoinTurnPolicy
from euchre.table.kinds.online import (
    ALONE_FOR,
    BOT_OWNER_REFUSED,
    BOT_RATED_REFUSED,
    BOT_SIBLING_REFUSED,
    BOT_STAKE_REFUSED,
    GUEST_REFUSED,
    GUEST_STAKE_REFUSED,
    ONLINE,
    ONLINE_KIND,
    OPEN_FOR,
    SAME_SOURCE_REFUSED,
    BotSeat,
    OnlineConflict,
    OnlineError,
    OnlineForbidden,
    OnlineNotFound,
    OnlineOptions,
    OpenTable,
    SameSource,
    check_bot_allowed,
    check_creator,
    online_policy,
    page_of,
    parse_cursor,
)
from online_registry import MemoryOnlineTables


def _table(options: OnlineOptions | None = None, *, quick: bool = False,
           account: int | None = None) -> OpenTable:
    """A table with its creator (token ``t0``) South."""
    return OpenTable("o1", options or OnlineOptions(name="Ann"), 100.0,
                     [("Ann", hash_token("t0")), None, None, None], quick=quick,
                     accounts=[account, None, None, None])


def _unchanged(table: OpenTable, refused: type[Exception], match: str,
               act: Callable[[], object]) -> None:
    """``act()`` is refused with ``refused`` (its message matching) and changes nothing."""
    before = copy.deepcopy(table.to_stored())
    with pytest.raises(refused, match=re.escape(match)):
        act()
    assert table.to_stored() == before


def test_claiming_a_taken_seat_is_refused() -> None:
    reg = MemoryOnlineTables(now=lambda: 0.0)
    table, ann = reg.create(OnlineOptions(name="Ann"))
    reg.claim(table.id, 2, "Cy")
    for seat in (0, 2):
        with pytest.raises(OnlineConflict, match="taken"):
            reg.claim(table.id, seat, "Dee")
    assert [p[0] if p else None for p in table.people] == ["Ann", None, "Cy", None]
    with pytest.raises(OnlineNotFound):
        reg.claim("nope", 1, "Dee")
    with pytest.raises(OnlineForbidden):
        reg.start(table.id, "not-the-token")
    reg.start(table.id, ann)
    with pytest.raises(OnlineConflict, match="started"):
        reg.claim(table.id, 1, "Dee")
    assert reg.open_tables() == []


def test_a_seat_opens_with_its_token_or_its_signed_in_account_never_a_bots() -> None:
    table = _table(account=5)
    table.take_seat(1, "Bo", "t1", 6)
    table.take_seat(2, "Zed", "t2", 7, bot=BotSeat(token_id=1, owner_id=7))
    assert [table.seat_of(t) for t in ("t0", "t1", "t2", "t3")] == [0, 1, 2, None]
    assert table.seat_of(AccountKey(6, "bo")) == 1
    assert table.seat_of(AccountKey(7, "zed")) is None  # the bot's seat: only its token
    assert table.seat_of(None) is None and table.seat_of(12) is None


def test_a_rated_table_takes_signed_in_people_one_seat_each() -> None:
    table = _table(OnlineOptions(rated=True), account=5)
    _unchanged(table, OnlineForbidden, GUEST_REFUSED, lambda: table.take_seat(1, "G", "g", None))
    _unchanged(table, OnlineConflict, "already have a seat at this rated table",
               lambda: table.take_seat(1, "Ann2", "x", 5))
    table.take_seat(1, "Bo", "t1", 6)
    _unchanged(table, OnlineConflict, "starts only with four people: 2 seats are still free",
               lambda: table.begin(200.0))
    table.take_seat(2, "Cy", "t2", 7)
    _unchanged(table, OnlineConflict, "1 seat is still free", lambda: table.begin(200.0))
    table.take_seat(3, "Di", "t3", 8)
    table.begin(200.0)
    assert table.started and table.started_at == 200.0 and table.status() == "started"


def test_one_network_or_browser_sits_once_at_a_rated_table() -> None:
    table = _table(OnlineOptions(rated=True), account=5)
    table.sources[0] = ["net-a", "browser-a"]
    _unchanged(table, SameSource, SAME_SOURCE_REFUSED,
               lambda: table.take_seat(1, "Bo", "t1", 6, sources=["net-b", "browser-a"]))
    table.take_seat(1, "Bo", "t1", 6, sources=["net-b", "browser-b"])
    assert table.clash(["net-b"]) == 1 and table.clash(["net-z"]) is None
    table.take_seat(2, "Cy", "t2", 7, sources=["net-c"])
    table.take_seat(3, "Di", "t3", 8, sources=["net-d"])
    table.sources[3] = ["net-c"]  # two seated from one network (say an address changed)
    _unchanged(table, SameSource, "North and East play from the same address",
               lambda: table.begin(1.0))
    unrated = _table()
    unrated.sources[0] = ["net-a"]
    unrated.take_seat(1, "Bo", "t1", None, sources=["net-a"])  # a family plays unrated
    assert unrated.clash(["net-a"]) is None and unrated.sources[1] == []


def test_a_table_stored_with_the_old_origins_key_keeps_its_sources() -> None:
    table = _table(OnlineOptions(rated=True), account=5)
    table.sources[0] = ["net-a", "browser-a"]
    stored = table.to_stored()
    stored["origins"] = stored.pop("sources")  # as stored before issue 34
    assert OpenTable.from_stored(stored).sources[0] == ["net-a", "browser-a"]


def test_a_stake_table_is_for_signed_in_people_and_its_pot_is_their_stakes() -> None:
    table = _table(OnlineOptions(stake=10), account=5)
    _unchanged(table, OnlineForbidden, GUEST_STAKE_REFUSED,
               lambda: table.take_seat(1, "G", "g", None))
    _unchanged(table, OnlineConflict, "already have a seat at this stake table",
               lambda: table.take_seat(1, "Ann", "x", 5))
    table.take_seat(2, "Cy", "t2", 7)
    assert table.pot() == 20 and table.stakers() == {0: 5, 2: 7}
    config = table.config(first_dealer=0)
    assert config.extra["stake"] == 10 and config.extra["pot"] == 20


def test_outside_bots_sit_only_where_they_are_allowed() -> None:
    bot = BotSeat(token_id=3, owner_id=9)
    check_bot_allowed(OnlineOptions(), bot)
    check_bot_allowed(OnlineOptions(rated=True, allow_bots=True), bot)
    check_bot_allowed(OnlineOptions(stake=5), None)
    with pytest.raises(OnlineForbidden, match=re.escape(BOT_STAKE_REFUSED)):
        check_bot_allowed(OnlineOptions(stake=5), bot)
    with pytest.raises(OnlineForbidden, match=re.escape(BOT_RATED_REFUSED)):
        check_bot_allowed(OnlineOptions(rated=True), bot)
    rated = _table(OnlineOptions(rated=True, allow_bots=True), account=9)
    _unchanged(rated, OnlineConflict, BOT_OWNER_REFUSED,
               lambda: rated.take_seat(1, "Zed", "z", 50, bot=bot))
    rated.take_seat(1, "Zed", "z", 50, bot=BotSeat(token_id=4, owner_id=11))
    _unchanged(rated, OnlineConflict, BOT_OWNER_REFUSED,  # nor the owner at their bot's
               lambda: rated.take_seat(2, "Owner", "o", 11))
    _unchanged(rated, OnlineConflict, BOT_SIBLING_REFUSED,  # nor a second bot of one owner
               lambda: rated.take_seat(2, "Zed2", "z2", 51,
                                       bot=BotSeat(token_id=5, owner_id=11)))
    unrated = _table(OnlineOptions(allow_bots=True), account=9)
    unrated.take_seat(1, "Zed", "z", 50, bot=BotSeat(token_id=4, owner_id=11))
    unrated.take_seat(2, "Zed2", "z2", 51, bot=BotSeat(token_id=5, owner_id=11))  # not rated


def test_a_same_origin_refusal_says_whether_it_is_the_address_or_the_browser() -> None:
    table = _table(OnlineOptions(rated=True), account=5)
    table.sources[0] = ["net-a", "browser-a"]
    _unchanged(table, SameSource, "(South sat down in this browser)",
               lambda: table.take_seat(1, "Bo", "t1", 6, sources=["net-b", "browser-a"]))
    _unchanged(table, SameSource, "(South sat down from your address)",
               lambda: table.take_seat(1, "Bo", "t1", 6, sources=["net-a", "browser-b"]))
    table.take_seat(1, "Bo", "t1", 6, sources=["net-b", "browser-b"])
    table.take_seat(2, "Cy", "t2", 7, sources=["net-c", "browser-c"])
    table.take_seat(3, "Di", "t3", 8, sources=["net-d", "browser-d"])
    table.sources[3] = ["net-d", "browser-b"]  # one browser, two accounts (a cookie copied)
    _unchanged(table, SameSource,
               "West and East play from the same address or browser (the same browser)",
               lambda: table.begin(1.0))


def test_leaving_before_the_start() -> None:
    table = _table()
    table.take_seat(1, "Bo", "t1", 6, holder="account:6")
    _unchanged(table, OnlineConflict, "creator cannot leave", lambda: table.give_up("t0"))
    _unchanged(table, OnlineForbidden, "holds no seat", lambda: table.give_up("nope"))
    assert table.give_up("t1") == 1
    assert (table.people[1], table.accounts[1], table.holders[1], table.agreed[1]) == \
        (None, None, None, False)
    quick = _table(quick=True)
    quick.take_seat(1, "Bo", "t1", 6)
    quick.agree_to_fill("t1")
    assert quick.give_up("t1") == 1 and not quick.agreed[1]
    assert quick.give_up("t0") == 0 and quick.seated() == 0  # no creator at a quick table
    started = _table()
    started.take_seat(1, "Bo", "t1", None)
    started.begin(1.0)
    _unchanged(started, OnlineConflict, "game has started", lambda: started.give_up("t1"))


def test_only_the_creator_cancels_and_then_nothing_changes() -> None:
    table = _table()
    table.take_seat(1, "Bo", "t1", None)
    _unchanged(table, OnlineForbidden, "only the table's creator", lambda: table.cancel_by("t1"))
    table.cancel_by("t0")
    assert table.status() == "cancelled" and not table.waiting()
    for act in (lambda: table.take_seat(2, "Cy", "t2", None), lambda: table.begin(1.0),
                lambda: table.give_up("t1"), lambda: table.cancel_by("t0")):
        _unchanged(table, OnlineConflict, "cancelled this table", act)
    quick = _table(quick=True)
    _unchanged(quick, OnlineForbidden, "leave your seat", lambda: quick.cancel_by("t0"))
    started = _table()
    started.begin(1.0)
    _unchanged(started, OnlineConflict, "cannot be cancelled", lambda: started.cancel_by("t0"))
    _unchanged(started, OnlineConflict, "already started", lambda: started.begin(2.0))


def test_only_the_creator_starts_an_invite_table_and_a_quick_one_starts_by_itself() -> None:
    table = _table()
    check_creator(table, "t0")
    with pytest.raises(OnlineForbidden, match="only the table's creator can start"):
        check_creator(table, "t1")
    with pytest.raises(OnlineForbidden, match="starts by itself"):
        check_creator(_table(quick=True), "t0")
    _unchanged(table, OnlineConflict, "creator starts the game",
               lambda: table.agree_to_fill("t0"))
    assert not table.ready()  # an invite table never starts by itself


def test_a_quick_table_is_ready_with_four_people_or_when_all_seated_agree() -> None:
    quick = _table(quick=True)
    assert not quick.ready()
    quick.take_seat(2, "Cy", "t2", None)
    assert quick.agree_to_fill("t0") == 0 and not quick.ready()
    quick.agree_to_fill("t2")
    assert quick.ready()
    quick.take_seat(1, "Bo", "t1", None)  # a newcomer has not agreed yet
    assert not quick.ready()
    quick.take_seat(3, "Di", "t3", None)
    assert quick.ready()  # four people
    rated = _table(OnlineOptions(rated=True), quick=True, account=5)
    _unchanged(rated, OnlineConflict, "cannot be filled with computers",
               lambda: rated.agree_to_fill("t0"))
    rated.agreed[0] = True
    assert not rated.ready()  # never a rated table short of four


def test_what_anyone_sees_has_no_token_and_what_is_stored_reads_back() -> None:
    table = _table(OnlineOptions(name="Ann", allow_bots=True, stake=5), account=5)
    table.take_seat(2, "Cy", "secret-token", 7, holder="account:7")
    shown = table.to_json()
    text = json.dumps(shown)
    assert "secret" not in text and hash_token("secret-token") not in text
    assert hash_token("t0") not in text
    assert shown["seats"][2] == {"seat": 2, "position": "North", "name": "Cy", "taken": True,
                                 "signed_in": True, "fill": False}
    assert (shown["free"], shown["pot"], shown["status"], shown["url"]) == \
        (2, 0, "open", "/online/o1")
    stored = json.loads(json.dumps(table.to_stored()))
    again = OpenTable.from_stored(stored)
    assert again == table
    assert again.seat_of("secret-token") == 2


def test_the_started_table_seats_people_where_they_sat_and_computers_elsewhere() -> None:
    options = OnlineOptions(preset="short", rules={"stick_the_dealer": True}, level="hard",
                            seconds_per_move=12.5, spectators=False, rated=False)
    table = _table(options, account=5)
    table.take_seat(2, "Zed", "t2", None, bot=BotSeat(token_id=8, owner_id=1))
    config = table.config(first_dealer=1)
    assert (config.id, config.kind, config.first_dealer) == ("o1", ONLINE, 1)
    assert config.rules == Rules.preset("short", stick_the_dealer=True)
    south, west, north, east = config.seats
    assert (south.kind, south.name, south.account_id, south.account) == (HUMAN, "Ann", 5, "Ann")
    assert config.seat_of("t0") == 0 and config.seat_of("t2") == 2
    assert north.bot_token == 8 and north.account is None
    assert [(s.kind, s.name, s.level) for s in (west, east)] == [
        (BOT, "West (hard)", "hard"), (BOT, "East (hard)", "hard")]
    assert config.extra == {"seconds_per_move": 12.5, "level": "hard", "spectators": False}


def test_the_move_clock_is_the_tables_own_and_no_hints() -> None:
    table = _table(OnlineOptions(seconds_per_move=20))
    table.take_seat(1, "Bo", "t1", None)
    policy = online_policy(table.config(first_dealer=0))
    assert isinstance(policy, CoinTurnPolicy) and set(policy.clocks) == {0, 1}
    assert policy.deadline(1, 50.0) == 70.0 and policy.deadline(2, 50.0) is None
    assert ONLINE_KIND.policy is online_policy and not ONLINE_KIND.hints
    quick = online_policy(table.config(first_dealer=0), pace=0.1)  # a test site's clock
    assert quick.deadline(1, 50.0) == 52.0 and quick.clock_policy.seconds_per_move == 20
    assert ONLINE_KIND.spectators and ONLINE_KIND.away_grace == 60.0


def test_the_registry_forgets_tables_nobody_joined_sooner_on_its_clock() -> None:
    now = [0.0]
    reg = MemoryOnlineTables(now=lambda: now[0])
    alone, _ = reg.create(OnlineOptions(name="Ann"), creator="ip:1")
    joined, _ = reg.create(OnlineOptions(name="Bo"), creator="ip:2")
    reg.claim(joined.id, 1, "Cy")
    assert reg.expires_at(alone) == ALONE_FOR and reg.expires_at(joined) == OPEN_FOR
    assert [t.id for t in reg.open_by("ip:1")] == [alone.id]
    now[0] = ALONE_FOR + 1
    assert [t.id for t in reg.open_tables()] == [joined.id]
    with pytest.raises(OnlineNotFound):
        reg.get(alone.id)
    now[0] = OPEN_FOR + 1
    assert reg.open_tables() == []


def test_the_registry_refuses_guests_at_rated_or_stake_tables_and_too_many_tables() -> None:
    reg = MemoryOnlineTables(now=lambda: 0.0, limit=2)
    with pytest.raises(OnlineForbidden, match=re.escape(GUEST_REFUSED)):
        reg.create(OnlineOptions(rated=True))
    with pytest.raises(OnlineForbidden, match=re.escape(GUEST_STAKE_REFUSED)):
        reg.create(OnlineOptions(stake=5))
    first, token = reg.create(OnlineOptions())
    reg.create(OnlineOptions(rated=True), account=4)
    with pytest.raises(OnlineConflict, match="too many"):
        reg.create(OnlineOptions())
    reg.cancel(first.id, token)  # a cancelled table no longer waits
    reg.create(OnlineOptions())
    assert len(reg.open_tables()) == 2


def test_the_registry_leaves_and_unstarts() -> None:
    reg = MemoryOnlineTables(now=lambda: 5.0)
    table, ann = reg.create(OnlineOptions())
    bo = reg.claim(table.id, 3, "Bo")
    assert reg.leave(table.id, bo) == 3 and table.free_seats() == [1, 2, 3]
    version = table.version
    reg.start(table.id, ann)
    assert table.started_at == 5.0 and table.version == version + 1
    reg.unstart(table.id)
    assert table.waiting() and table.started_at is None
    reg.unstart("nope")  # gone: nothing to undo


def test_pages_follow_the_cursor_not_the_position() -> None:
    tables = [OpenTable(f"id{i}", OnlineOptions(), float(i), [None] * 4) for i in range(5)]
    newest = sorted(tables, key=lambda t: t.created_at, reverse=True)
    page, cursor = page_of(newest, 2, None)
    assert [t.id for t in page] == ["id4", "id3"] and cursor is not None
    assert parse_cursor(cursor) == (3.0, "id3")
    # a table opened between pages moves nothing
    later = [OpenTable("new", OnlineOptions(), 9.0, [None] * 4), *newest]
    page, cursor = page_of(later, 2, cursor)
    assert [t.id for t in page] == ["id2", "id1"]
    page, cursor = page_of(later, 2, cursor)
    assert [t.id for t in page] == ["id0"] and cursor is None


@pytest.mark.parametrize("cursor", ["abc~id", "1.0", "1.0~", "nan~id", "inf~id",
                                    "1.0~" + "x" * 90])
def test_a_cursor_this_server_did_not_give_is_refused(cursor: str) -> None:
    with pytest.raises(OnlineError, match="start from the first page"):
        parse_cursor(cursor)
