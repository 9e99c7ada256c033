"""``table/actor/rematch.py`` on its own: the seats a rematch moves people to, and the offer's rules
(one offer a game, each person once, a no or the end closes it) with time handed in."""

from __future__ import annotations

import pytest

from euchre.table.actor.rematch import (
    CHANGE,
    DECLINED,
    EXPIRED,
    KEEP,
    REMATCH_FOR,
    STARTED,
    RematchError,
    RematchTracker,
    rematch_order,
)
from euchre.table.actor.wire import RematchEvent


def test_keep_moves_everyone_one_seat_left_and_change_swaps_west_and_north() -> None:
    keep = rematch_order(KEEP)
    assert keep == (3, 0, 1, 2)
    old_partners = {frozenset({0, 2}), frozenset({1, 3})}
    assert {frozenset({keep[0], keep[2]}), frozenset({keep[1], keep[3]})} == old_partners
    change = rematch_order(CHANGE)
    assert change == (0, 2, 1, 3)
    assert frozenset({change[0], change[2]}) == frozenset({0, 1})  # South's partner was West
    with pytest.raises(RematchError, match="keep"):
        rematch_order("shuffle")


def test_an_offer_counts_its_makers_yes_and_waits_for_the_others() -> None:
    rematch = RematchTracker()
    assert rematch.make(2, KEEP, (0, 2, 3), now=100.0, absent={}) == RematchEvent(
        status="open", seat=2)
    offer = rematch.offer
    assert offer is not None and offer.accepted == (2,) and offer.waiting() == (0, 3)
    assert offer.ends_at == 100.0 + REMATCH_FOR
    shown = offer.wire(now=130.0)
    assert (shown.status, shown.ms_left, shown.people, shown.accepted) == (
        "open", 30_000, [0, 2, 3], [2])
    assert rematch.answer(0, True) == RematchEvent(status="accepted", seat=0)
    assert not rematch.all_accepted()
    with pytest.raises(RematchError, match="accepted the rematch already"):
        rematch.answer(0, True)
    rematch.answer(3, True)
    assert rematch.all_accepted()
    assert rematch.end(STARTED, table="t2") == RematchEvent(status="started", table="t2")
    assert rematch.offer is not None and rematch.offer.wire(500.0).ms_left == 0
    assert rematch.end(EXPIRED) is None  # it ended already


def test_a_no_ends_it_and_no_second_offer_is_made() -> None:
    rematch = RematchTracker()
    with pytest.raises(RematchError, match="nobody has offered"):
        rematch.answer(0, True)
    rematch.make(0, CHANGE, (0, 1), now=0.0, absent={})
    with pytest.raises(RematchError, match="offered already"):
        rematch.make(1, KEEP, (0, 1), now=1.0, absent={})
    assert rematch.answer(1, False) == RematchEvent(status=DECLINED, seat=1)
    assert not rematch.all_accepted()
    with pytest.raises(RematchError, match="ended"):
        rematch.answer(0, True)
    with pytest.raises(RematchError, match="ended"):
        rematch.make(0, KEEP, (0, 1), now=2.0, absent={})


def test_no_offer_while_someone_who_played_is_gone() -> None:
    rematch = RematchTracker()
    with pytest.raises(RematchError, match="Bob and Cy left the table"):
        rematch.make(0, KEEP, (0, 1, 2), now=0.0, absent={1: "Bob", 2: "Cy"})
    assert rematch.offer is None
