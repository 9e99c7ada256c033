"""One client cannot hold both hint slots: each address gets one analysis at a time."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from euchre import GameState, Rules
from euchre.limits import GateFull, ShareGate
from euchre.server import hints
from euchre.shuffle import deck_from_seed


def test_the_gate_keeps_a_share_per_client() -> None:
    gate = ShareGate(total=2, per_client=1)
    gate.take("a")
    with pytest.raises(GateFull) as own:
        gate.take("a")
    assert own.value.own_share
    with gate.place("b"):
        assert gate.in_use() == 2 and gate.in_use("b") == 1
        with pytest.raises(GateFull) as full:
            gate.take("c")
        assert not full.value.own_share
    gate.release("a")
    assert gate.in_use() == 0
    gate.release("a")  # one release too many changes nothing
    assert gate.in_use() == 0


async def test_a_client_with_a_hint_running_waits_for_it_and_others_still_get_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import euchre.bots.hints as analysis

    release = threading.Event()
    started = threading.Semaphore(0)

    def slow_analyse(view: Any, budget: float) -> list[Any]:
        started.release()
        release.wait(10)
        return []

    monkeypatch.setattr(analysis, "analyse", slow_analyse)
    game = GameState(Rules(), 0).deal(deck_from_seed("x"))
    view = game.current.view(game.to_act)  # type: ignore[union-attr]
    service = hints.HintService(5.0)  # one app's hints
    first = asyncio.create_task(service.for_view(view, "10.0.0.1"))
    await asyncio.to_thread(started.acquire)
    with pytest.raises(hints.HintUnavailable, match="already have a hint"):
        await service.for_view(view, "10.0.0.1")
    second = asyncio.create_task(service.for_view(view, "10.0.0.2"))
    await asyncio.to_thread(started.acquire)
    with pytest.raises(hints.HintUnavailable, match="busy"):
        await service.for_view(view, "10.0.0.3")
    release.set()
    assert await first == [] and await second == []
    assert await service.for_view(view, "10.0.0.1") == []  # the place was given back
