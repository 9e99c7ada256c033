"""Deterministic search: work budgets, not seconds; the C solver lets other threads run.

- The pure-Python solver visits exactly the nodes the C solver visits, so a node budget
  stops both at the same place.
- The same view and seed give the same move: again, from another thread while the
  machine is busy, with either solver, and as recorded here (a golden list: another
  machine must give the same moves).
- The time cap, when it fires, is logged.
- While the C solver searches, another Python thread keeps running (the GIL is
  released): checked with a counter, never with a clock.
"""

from __future__ import annotations

import logging
import random
import sys
import threading

import pytest

import euchre
from euchre.bots import make, solver
from euchre.bots.base import decision_rng
from euchre.bots.expert import ExpertBot
from euchre.bots.hard import Budget, HardBot, evaluate_plays, out_mask, payoffs
from euchre.bots.sampling import knowledge, sample_hands
from euchre.rules import Rules
from euchre.view import HandView

needs_c = pytest.mark.skipif(not solver.HAS_C_SOLVER, reason="the C solver is not built")


def play_views(seed: int, hands: int = 3) -> list[HandView]:
    """Card-play views with a real choice from a few hands of medium players."""
    rng = random.Random(seed)
    medium = make("medium", seed=seed)
    out = []
    for i in range(hands):
        deck = list(range(24))
        rng.shuffle(deck)  # hands sliced straight from the deck: no dealing pattern involved
        hands = [deck[5 * s : 5 * s + 5] for s in range(4)]
        state = euchre.deal(Rules(), i % 4, hands, deck[20:])
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if view.phase == "play" and len(view.legal) > 1:
                out.append(view)
            state = state.apply(medium.choose(view))
    return out


def solver_args(view: HandView, rng: random.Random) -> tuple[object, ...]:
    """A sampled deal of a view as solver arguments (score-aware payoff)."""
    hands = sample_hands(knowledge(view), rng)
    pay = payoffs(view, view.maker, view.alone, view.lone_defender)[0]
    maker = view.maker % 2
    return (hands, view.trump, view.leader, list(view.trick), out_mask(view), maker,
            view.tricks_won[maker], pay)


@needs_c
def test_both_solvers_visit_the_same_nodes() -> None:
    rng = random.Random(11)
    checked = 0
    for view in play_views(3):
        for _ in range(3):
            args = solver_args(view, rng)
            c = solver.solve_counted(*args, use_c=True)  # type: ignore[arg-type]
            py = solver.solve_counted(*args, use_c=False)  # type: ignore[arg-type]
            assert c == py
            checked += 1
    assert checked > 30


def test_the_same_view_and_seed_give_the_same_move_from_another_thread() -> None:
    views = play_views(5, hands=2)[:8]
    quiet = [HardBot(seed=3).choose(v) for v in views]
    results: list[object] = []

    def busy() -> None:  # other work on the machine: solver searches in a loop
        rng = random.Random(1)
        for v in views * 3:
            solver.solve(*solver_args(v, rng))  # type: ignore[arg-type]

    def decide() -> None:
        results.extend(HardBot(seed=3).choose(v) for v in views)

    threads = [threading.Thread(target=busy), threading.Thread(target=decide)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == quiet


def test_the_pure_python_solver_gives_the_same_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    views = play_views(8, hands=2)[:6]
    bot = HardBot(seed=4, samples=20)
    with_c = [bot.choose(v) for v in views]
    monkeypatch.setattr(solver, "HAS_C_SOLVER", False)
    assert [bot.choose(v) for v in views] == with_c


GOLDEN_MOVES = ["play AH", "play TS", "play JS", "play 9C", "play 9S", "play JC", "play AS",
                "play 9D", "play JD", "play 9H"]
"""Moves of hard and expert (seed 7) for the first ten card-play views of ``play_views(21)``.

Recorded on the build machine; another machine must give the same. (They change only if
the bots, the view's public content or Python's ``random`` change.)"""
GOLDEN_WORTH = [
    [(16, -0.7516), (17, -0.7516), (7, -0.8837), (1, -1.0565), (21, -1.0736)],
    [(19, 1.4631), (2, 0.9631), (20, 0.9631), (10, 0.8137), (4, 0.6897)],
    [(2, 1.5027), (20, 1.5027), (10, 1.2072), (4, 1.1575)],
]
"""Hard's worth of each card (best first) in the first three of those views."""


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_moves_match_the_recorded_ones(level: str) -> None:
    views = play_views(21, hands=2)[:10]
    bot = HardBot(seed=7) if level == "hard" else ExpertBot(seed=7)
    assert [str(bot.choose(v)) for v in views] == GOLDEN_MOVES


def test_card_worths_match_the_recorded_ones() -> None:
    for view, want in zip(play_views(21, hands=2)[:3], GOLDEN_WORTH, strict=True):
        est = evaluate_plays(view, decision_rng(7, view), Budget())
        assert [(e.card, round(e.worth, 4)) for e in est] == want


def test_a_node_budget_stops_the_search_the_same_way_each_time() -> None:
    view = play_views(2, hands=1)[0]
    picks = {HardBot(seed=1, samples=10_000, nodes=3_000).choose(view) for _ in range(3)}
    assert len(picks) == 1


def test_the_time_cap_is_logged_when_it_fires(caplog: pytest.LogCaptureFixture) -> None:
    view = play_views(2, hands=1)[0]
    with caplog.at_level(logging.WARNING, logger="euchre.bots"):
        HardBot(seed=1, time_cap=0.0).choose(view)
    assert any("time cap" in r.getMessage() for r in caplog.records)


@needs_c
def test_another_thread_runs_while_the_c_solver_searches() -> None:
    # The interpreter never takes the GIL from the searching thread here (the switch
    # interval is far longer than the test), so the counter thread can only count while
    # the searching thread has released the GIL, inside the C search. One call searches
    # a few hundred deals, long enough for the counter thread to wake up.
    rng = random.Random(2)
    views = [v for v in play_views(4, hands=2) if not v.tricks]
    batch = [solver_args(v, rng) for v in views for _ in range(60)]
    counter = [0]
    stop = threading.Event()
    started = threading.Event()

    def count() -> None:
        started.set()
        while not stop.is_set():
            counter[0] += 1
            stop.wait(1e-6)  # waiting releases the GIL, so the searcher can take it back

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    advanced = []
    try:
        counter_thread = threading.Thread(target=count)
        counter_thread.start()
        started.wait()
        for _ in range(5):
            before = counter[0]
            results = solver.solve_many(batch, use_c=True)  # type: ignore[arg-type]
            advanced.append(counter[0] - before)
    finally:
        stop.set()
        counter_thread.join()
        sys.setswitchinterval(old)
    assert len(results) == len(batch)
    assert results == [solver.solve_counted(*a) for a in batch]  # type: ignore[arg-type]
    assert sum(advanced) > 0
