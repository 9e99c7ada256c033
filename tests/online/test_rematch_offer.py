"""A rematch at the end of an online game, on a fake clock (``table/actor/rematch.py``): Ann (South)
and Bob (West) with two computers. Every person's yes starts the new table through the kind's
hook, with the seats moved as the offer chose; a no, a person leaving or the minute running
out ends the offer for both, and nothing starts; a rematch before the end, from a seat
without a person, or with someone gone is refused and changes nothing."""

from __future__ import annotations

import dataclasses
import random

import pytest
from online_helpers import Recorder, Table

from euchre.errors import DomainError
from euchre.table.actor.actor import SeatReplaced
from euchre.table.actor.rematch import REMATCH_FOR, RematchError
from euchre.table.actor.seats import TableConfig
from euchre.table.kinds.online import ONLINE_KIND


class Hook:
    """The kind's rematch hook: notes each call; answers a new table id, or refuses."""

    def __init__(self, refuse: str | None = None) -> None:
        self.calls: list[tuple[TableConfig, tuple[int, int, int, int]]] = []
        self.refuse = refuse

    async def __call__(self, config: TableConfig, order: tuple[int, int, int, int]) -> str:
        self.calls.append((config, order))
        if self.refuse is not None:
            raise DomainError(self.refuse)
        return "again1"


async def _over(hook: Hook) -> tuple[Table, Recorder, Recorder]:
    """A game played to its end, Ann and Bob connected (random legal moves)."""
    t = Table(kind=dataclasses.replace(ONLINE_KIND, rematch=hook))
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    rng = random.Random(4)
    while (seat := await t.until_person()) is not None:
        view = t.actor.view(seat)
        assert view is not None
        await t.actor.act(seat, str(rng.choice(view.legal)))
    await t.actor.settle()
    return t, ann, bob


def _rematch_events(who: Recorder) -> list[dict[str, object]]:
    return [e for e in who.events() if e["kind"] == "rematch"]


async def test_everyone_accepts_and_the_new_table_starts_with_seats_moved() -> None:
    hook = Hook()
    t, ann, bob = await _over(hook)
    await t.actor.rematch(1, True, "keep")  # Bob offers (and so accepts)
    offer = ann.tables[-1]["rematch"]  # type: ignore[index]
    assert offer["status"] == "open" and offer["by"] == 1 and offer["people"] == [0, 1]
    assert offer["accepted"] == [1] and offer["ms_left"] == REMATCH_FOR * 1000
    assert offer["partners"] == "keep" and hook.calls == []
    t.scheduler.advance(20)
    await t.actor.rematch(0, True)  # Ann accepts: everyone has
    await t.actor.settle()
    [(config, order)] = hook.calls
    assert config is t.actor.config
    assert order == (3, 0, 1, 2)  # everyone one seat to the left: partners stay
    for who in (ann, bob):
        assert _rematch_events(who) == [
            {"kind": "rematch", "status": "open", "seat": 1},
            {"kind": "rematch", "status": "accepted", "seat": 0},
            {"kind": "rematch", "status": "started", "table": "again1"}]
        shown = who.tables[-1]["rematch"]  # type: ignore[index]
        assert shown["status"] == "started" and shown["table"] == "again1"
        assert shown["accepted"] == [1, 0] and shown["ms_left"] == 0
    # it is over: a late answer is refused
    with pytest.raises(RematchError, match="ended"):
        await t.actor.rematch(0, False)


async def test_changed_partners_swap_west_and_north() -> None:
    hook = Hook()
    t, _, _ = await _over(hook)
    await t.actor.rematch(0, True, "change")
    await t.actor.rematch(1, True, "keep")  # an answer's choice is not the offer's
    await t.actor.settle()
    assert [order for _, order in hook.calls] == [(0, 2, 1, 3)]


async def test_one_decline_ends_it_for_everyone_and_nothing_starts() -> None:
    hook = Hook()
    t, ann, bob = await _over(hook)
    await t.actor.rematch(0, True)
    await t.actor.rematch(1, False)
    await t.actor.settle()
    assert hook.calls == []
    for who in (ann, bob):
        assert _rematch_events(who)[-1] == {"kind": "rematch", "status": "declined", "seat": 1}
        assert who.tables[-1]["rematch"]["status"] == "declined"  # type: ignore[index]
    with pytest.raises(RematchError, match="ended"):
        await t.actor.rematch(0, True)  # one offer a game
    t.scheduler.advance(REMATCH_FOR * 2)  # its timer was stopped: nothing more is said
    await t.actor.settle()
    assert _rematch_events(ann)[-1]["status"] == "declined"


async def test_no_answer_within_the_minute_ends_it() -> None:
    hook = Hook()
    t, ann, bob = await _over(hook)
    await t.actor.rematch(0, True)
    t.scheduler.advance(REMATCH_FOR - 1)
    await t.actor.settle()
    assert ann.tables[-1]["rematch"]["status"] == "open"  # type: ignore[index]
    t.scheduler.advance(1)
    await t.actor.settle()
    for who in (ann, bob):
        assert _rematch_events(who)[-1] == {"kind": "rematch", "status": "expired"}
        assert who.tables[-1]["rematch"]["status"] == "expired"  # type: ignore[index]
    with pytest.raises(RematchError, match="ended"):
        await t.actor.rematch(1, True)
    assert hook.calls == []


async def test_a_person_leaving_the_table_ends_it() -> None:
    hook = Hook()
    t, ann, bob = await _over(hook)
    await t.actor.rematch(0, True)
    t.actor.leave(bob)  # Bob's page closed
    await t.actor.settle()
    assert _rematch_events(ann)[-1] == {"kind": "rematch", "status": "left", "seat": 1}
    assert ann.tables[-1]["rematch"]["status"] == "left"  # type: ignore[index]
    assert hook.calls == []


async def test_someone_already_gone_means_no_offer() -> None:
    hook = Hook()
    t, ann, bob = await _over(hook)
    t.actor.leave(bob)
    await t.actor.settle()
    version = t.actor.version
    with pytest.raises(RematchError, match="Bob left the table"):
        await t.actor.rematch(0, True)
    assert t.actor.version == version and "rematch" not in (ann.tables[-1] or {})


async def test_a_person_replaced_during_the_game_cannot_offer_and_blocks_an_offer() -> None:
    hook = Hook()
    t = Table(kind=dataclasses.replace(ONLINE_KIND, rematch=hook))
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    await t.actor.replace(1)  # Bob left the game: a computer plays West to the end
    rng = random.Random(2)
    for _ in range(5000):  # Ann moves; a computer plays West now
        await t.actor.settle()
        if t.actor.game.is_over:
            break
        view = t.actor.view(0)
        if t.actor.game.to_act == 0 and view is not None:
            await t.actor.act(0, str(rng.choice(view.legal)))
        else:
            await t.step()
    assert t.actor.game.is_over
    with pytest.raises(SeatReplaced):
        await t.actor.rematch(1, True)
    with pytest.raises(RematchError, match="Bob left the table"):
        await t.actor.rematch(0, True)
    assert hook.calls == []


async def test_before_the_end_from_a_computer_seat_or_unoffered_is_refused() -> None:
    hook = Hook()
    t = Table(kind=dataclasses.replace(ONLINE_KIND, rematch=hook))
    ann = Recorder(0, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.until_person()
    version = t.actor.version
    with pytest.raises(RematchError, match="the game is not over"):
        await t.actor.rematch(0, True)
    assert t.actor.version == version
    t2, _, _ = await _over(hook)
    with pytest.raises(RematchError, match="nobody has offered"):
        await t2.actor.rematch(0, False)
    with pytest.raises(DomainError, match="no seat"):
        await t2.actor.rematch(2, True)  # North is a computer's
    with pytest.raises(RematchError, match="keep"):
        await t2.actor.rematch(0, True, "sideways")
    await t2.actor.rematch(0, True)
    with pytest.raises(RematchError, match="accepted the rematch already"):
        await t2.actor.rematch(0, True)
    assert hook.calls == []


async def test_a_refused_start_ends_it_saying_why() -> None:
    hook = Hook(refuse="Bob (West) cannot cover the 500-coin stake")
    t, ann, bob = await _over(hook)
    await t.actor.rematch(0, True)
    await t.actor.rematch(1, True)
    await t.actor.settle()
    for who in (ann, bob):
        shown = who.tables[-1]["rematch"]  # type: ignore[index]
        assert shown["status"] == "refused"
        assert shown["message"] == ("The rematch could not start: Bob (West) cannot cover "
                                    "the 500-coin stake")


async def test_a_practice_kind_has_no_rematch() -> None:
    t, _, _ = await _over(Hook())
    t.actor.kind = ONLINE_KIND  # the kind without a hook
    with pytest.raises(RematchError, match="tables with other people"):
        await t.actor.rematch(0, True)
