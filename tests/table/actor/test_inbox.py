"""A table's inbox: first in, first out; the next item seen without taking it; a reader
that waits for an item; and ``join`` that waits until everything queued was handled."""

from __future__ import annotations

import asyncio

import pytest

from euchre.table.actor.inbox import Inbox


async def test_items_come_out_in_the_order_they_went_in_and_peek_takes_nothing() -> None:
    inbox: Inbox[str] = Inbox()
    assert inbox.empty() and inbox.peek() is None and len(inbox) == 0
    for item in ("a", "b", "c"):
        inbox.put(item)
    assert inbox.peek() == "a" and inbox.peek() == "a" and len(inbox) == 3
    assert inbox.take_now() == "a"
    assert await inbox.take() == "b"
    assert inbox.peek() == "c"
    assert inbox.take_now() == "c"
    assert inbox.empty() and inbox.peek() is None
    with pytest.raises(IndexError):
        inbox.take_now()


async def test_a_reader_waits_for_the_next_item() -> None:
    inbox: Inbox[int] = Inbox()
    reader = asyncio.ensure_future(inbox.take())
    await asyncio.sleep(0)  # the reader is waiting now (a turn of the loop, not time)
    assert not reader.done()
    inbox.put(7)
    assert await reader == 7
    # After the queue ran dry the reader waits again, and is woken by the next item.
    again = asyncio.ensure_future(inbox.take())
    await asyncio.sleep(0)
    assert not again.done()
    inbox.put(8)
    inbox.put(9)
    assert await again == 8
    assert inbox.take_now() == 9


async def test_join_waits_until_every_item_taken_was_handled() -> None:
    inbox: Inbox[str] = Inbox()
    await inbox.join()  # nothing queued: at once
    inbox.put("a")
    inbox.put("b")
    joined = asyncio.ensure_future(inbox.join())
    inbox.take_now()
    inbox.task_done()
    await asyncio.sleep(0)
    assert not joined.done()  # "b" is still queued
    inbox.take_now()
    await asyncio.sleep(0)
    assert not joined.done()  # "b" taken, not yet handled
    inbox.task_done()
    await joined
    with pytest.raises(ValueError):
        inbox.task_done()


async def test_a_cancelled_reader_loses_no_item() -> None:
    inbox: Inbox[str] = Inbox()
    reader = asyncio.ensure_future(inbox.take())
    await asyncio.sleep(0)
    reader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reader
    inbox.put("kept")
    assert await inbox.take() == "kept"


def test_what_parts_post_is_queued_only_while_the_inbox_is_open() -> None:
    inbox: Inbox[str] = Inbox()
    inbox.post("before the loop runs")  # a timer of a table not started: dropped
    assert inbox.empty()
    inbox.open = True
    inbox.post("due")
    inbox.put("a person's move")
    assert [inbox.take_now(), inbox.take_now()] == ["due", "a person's move"]
    inbox.open = False
    inbox.post("after the loop stopped")
    inbox.put("stop")  # the table's own inputs still go in (and are refused there)
    assert len(inbox) == 1 and inbox.peek() == "stop"
