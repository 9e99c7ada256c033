"""The trick pause: a computer's lead after a completed trick waits for the sweep, and a
practice table's speed scales every pause (fake time, no sleeping)."""

from __future__ import annotations

import asyncio

from euchre.table.actor.pacing import SPEEDS, Pacing, pacing_for_speed
from table_helpers import make_table


def test_speed_scales_every_pause() -> None:
    base = Pacing(bot_delay=0.6, hand_pause=2.0, trick_pause=1.2)
    assert pacing_for_speed(base, None) is base
    assert pacing_for_speed(base, "normal") is base
    fast = pacing_for_speed(base, "fast")
    assert fast == Pacing(bot_delay=0.6 * SPEEDS["fast"], hand_pause=2.0 * SPEEDS["fast"],
                          trick_pause=1.2 * SPEEDS["fast"])
    slow = pacing_for_speed(base, "slow")
    assert slow.trick_pause > base.trick_pause > fast.trick_pause


def test_bot_wait_is_longer_only_for_a_lead_after_a_trick() -> None:
    pacing = Pacing(bot_delay=0.5, hand_pause=2.0, trick_pause=1.2)
    assert pacing.bot_wait(after_trick=False) == 0.5
    assert pacing.bot_wait(after_trick=True) == 1.2


def test_a_computer_lead_after_a_trick_waits_for_the_trick_pause() -> None:
    async def run() -> None:
        pacing = Pacing(bot_delay=0.5, hand_pause=2.0, trick_pause=1.2)
        actor, _, sched = make_table(pacing=pacing)
        actor.start()
        checked = 0
        try:
            for _ in range(4000):
                await actor.settle()
                game = actor.game
                if game.is_over or checked >= 3:
                    break
                hand = game.current
                seat = game.to_act
                if seat == 0:
                    view = actor.view(0)
                    assert view is not None
                    await actor.act(0, str(view.legal[0]))
                    continue
                after_trick = (hand is not None and not hand.is_over and bool(hand.tricks)
                               and not hand.trick[1])
                due = sched.next_due()
                assert due is not None
                wait = due - sched.now()
                if after_trick and seat is not None:
                    # The lead is not made before the trick pause, and is made at it: the
                    # pause plus jitter (1e-9 either side: the fake clock sums floats).
                    assert 1.2 - 1e-9 <= wait <= 1.2 * 1.15 + 1e-9
                    tricks = len(hand.tricks)
                    sched.advance(1.1)
                    await actor.settle()
                    assert len(actor.game.current.trick[1]) == 0  # type: ignore[union-attr]
                    assert len(actor.game.current.tricks) == tricks  # type: ignore[union-attr]
                    sched.advance(due - sched.now())
                    await actor.settle()
                    assert len(actor.game.current.trick[1]) == 1  # type: ignore[union-attr]
                    checked += 1
                    continue
                if seat is not None and hand is not None and not hand.is_over:
                    assert 0.5 - 1e-9 <= wait <= 0.5 * 1.15 + 1e-9
                sched.advance(wait)
            assert checked >= 1
        finally:
            await actor.stop()

    asyncio.run(run())
