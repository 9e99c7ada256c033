"""The open-hand solver: C and pure Python against a plain minimax, and hand-checked positions."""

from __future__ import annotations

import random

import pytest

from euchre.bots import solver
from euchre.cards import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    JOKER,
    SPADES,
    effective_suit,
    mask_of,
    parse_cards,
    trick_rank,
)

Position = tuple[list[int], int, int, list[int], int, int, int, list[int]]

STANDARD = [-2, -2, -2, 1, 1, 2]
ALONE = [-2, -2, -2, 1, 1, 4]
DEFENDER_ALONE = [-4, -4, -4, 1, 1, 4]

needs_c = pytest.mark.skipif(not solver.HAS_C_SOLVER, reason="C solver not built")


def hand(text: str) -> int:
    """A hand's mask from notation like ``"JH JD AC"``."""
    return mask_of(parse_cards(text))


def random_payoff(rng: random.Random) -> list[int]:
    """A standard payoff, or a random non-decreasing one."""
    choice = rng.randrange(4)
    if choice == 0:
        return list(STANDARD)
    if choice == 1:
        return list(ALONE)
    if choice == 2:
        return list(DEFENDER_ALONE)
    return sorted(rng.randint(-4, 4) for _ in range(6))


def random_position(rng: random.Random, out_kind: str, plies: int, joker: bool) -> Position:
    """Deal five cards each, then play ``plies`` random legal cards from the opening lead.

    ``out_kind``: "none", "one" (a lone maker's partner sits out) or "two" (a lone
    maker and a lone defender). Plays stop short of the end of the hand.
    """
    deck = list(range(25 if joker else 24))
    rng.shuffle(deck)
    hands = [mask_of(deck[5 * s : 5 * s + 5]) for s in range(4)]
    trump = rng.randrange(4)
    maker_side = rng.randrange(2)
    out = 0
    if out_kind in ("one", "two"):
        maker = maker_side + 2 * rng.randrange(2)
        out |= 1 << ((maker + 2) % 4)
    if out_kind == "two":
        defender = 1 - maker_side + 2 * rng.randrange(2)
        out |= 1 << ((defender + 2) % 4)
    playing = [s for s in range(4) if not (out >> s) & 1]
    leader = rng.choice(playing)
    plies = min(plies, 5 * len(playing) - 1)
    trick: list[int] = []
    maker_tricks = 0
    seat = leader
    for _ in range(plies):
        mine = [c for c in range(25) if (hands[seat] >> c) & 1]
        if trick:
            led = effective_suit(trick[0], trump)
            mine = [c for c in mine if effective_suit(c, trump) == led] or mine
        card = rng.choice(mine)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        if len(trick) == len(playing):
            led = effective_suit(trick[0], trump)
            ranks = [trick_rank(c, trump, led) for c in trick]
            seat = playing[(playing.index(leader) + ranks.index(max(ranks))) % len(playing)]
            leader = seat
            maker_tricks += seat % 2 == maker_side
            trick = []
        else:
            seat = playing[(playing.index(seat) + 1) % len(playing)]
    return hands, trump, leader, trick, out, maker_side, maker_tricks, random_payoff(rng)


def check_against_reference(position: Position) -> None:
    """Both solvers give exactly the reference's per-card values and position value."""
    expected = solver.minimax_reference(*position)
    seat_to_act_is_maker = _seat_to_act(position) % 2 == position[5]
    best = max(expected.values()) if seat_to_act_is_maker else min(expected.values())
    backends = [False, True] if solver.HAS_C_SOLVER else [False]
    for use_c in backends:
        values, _ = solver.solve_counted(*position, use_c=use_c)
        assert values == expected, f"use_c={use_c} {position}"
        value, _ = solver.solve_value_counted(*position, use_c=use_c)
        assert value == best, f"use_c={use_c} {position}"


def _seat_to_act(position: Position) -> int:
    _, _, leader, trick, out, *_ = position
    seat = leader
    for _ in trick:
        seat = (seat + 1) % 4
        while (out >> seat) & 1:
            seat = (seat + 1) % 4
    return seat


# ---------------------------------------------------------------------------
# Random positions against the plain minimax


@pytest.mark.parametrize("seed", range(6))
def test_opening_lead_full_hand(seed: int) -> None:
    rng = random.Random(1000 + seed)
    check_against_reference(random_position(rng, "none", 0, joker=seed % 2 == 1))


@pytest.mark.parametrize("seed", range(130))
def test_mid_hand_four_players(seed: int) -> None:
    rng = random.Random(2000 + seed)
    plies = rng.randint(4, 19)  # from the second trick on, often mid-trick
    check_against_reference(random_position(rng, "none", plies, joker=seed % 3 == 0))


@pytest.mark.parametrize("seed", range(30))
def test_opening_lead_lone_maker(seed: int) -> None:
    rng = random.Random(3000 + seed)
    check_against_reference(random_position(rng, "one", 0, joker=seed % 2 == 0))


@pytest.mark.parametrize("seed", range(90))
def test_mid_hand_lone_maker(seed: int) -> None:
    rng = random.Random(4000 + seed)
    plies = rng.randint(1, 14)
    check_against_reference(random_position(rng, "one", plies, joker=seed % 3 == 0))


@pytest.mark.parametrize("seed", range(80))
def test_lone_maker_and_lone_defender(seed: int) -> None:
    rng = random.Random(5000 + seed)
    plies = rng.randint(0, 9)
    check_against_reference(random_position(rng, "two", plies, joker=seed % 2 == 0))


@needs_c
@pytest.mark.parametrize("out_kind", ["none", "one", "two"])
def test_c_and_python_agree_on_opening_leads(out_kind: str) -> None:
    rng = random.Random(6000 + len(out_kind))
    for i in range(150):
        position = random_position(rng, out_kind, 0, joker=i % 2 == 0)
        c_values, _ = solver.solve_counted(*position, use_c=True)
        py_values, _ = solver.solve_counted(*position, use_c=False)
        assert c_values == py_values, position
        c_value, _ = solver.solve_value_counted(*position, use_c=True)
        py_value, _ = solver.solve_value_counted(*position, use_c=False)
        assert c_value == py_value, position


def test_default_backend_matches() -> None:
    rng = random.Random(7)
    position = random_position(rng, "none", 5, joker=True)
    assert solver.solve(*position) == solver.solve_counted(*position, use_c=False)[0]
    assert solver.solve_value(*position) == solver.solve_value_counted(*position, use_c=False)[0]


# ---------------------------------------------------------------------------
# Hand-checked positions


def march_deal() -> list[int]:
    """Seat 0 holds both bowers and three off-suit aces; hearts trump; the other
    trumps are spread so that two rounds of bowers draw them all from the defenders."""
    return [
        hand("JH JD AC AS AD"),
        hand("AH 9C TC QC KC"),
        hand("QH TH 9H 9S TS"),
        hand("KH 9D TD QD KD"),
    ]


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_bowers_and_three_aces_march(use_c: bool) -> None:
    hands = march_deal()
    values, _ = solver.solve_counted(hands, HEARTS, 0, [], 0, 0, 0, STANDARD, use_c=use_c)
    assert max(values.values()) == 2
    # Leading the right bower (or the left) marches; an ace first lets the defenders trump it.
    assert values[parse_cards("JH")[0]] == 2
    assert values[parse_cards("JD")[0]] == 2
    assert values[parse_cards("AC")[0]] == 1
    assert solver.solve_value_counted(hands, HEARTS, 0, [], 0, 0, 0, STANDARD, use_c=use_c)[0] == 2
    # The same hand alone (partner out) scores four.
    alone, _ = solver.solve_value_counted(hands, HEARTS, 0, [], 4, 0, 0, ALONE, use_c=use_c)
    assert alone == 4


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_top_five_trumps_march_whatever_the_lead(use_c: bool) -> None:
    hands = [
        hand("9C TC QC KC AC"),
        hand("JS JC AS KS QS"),
        hand("9D TD QD KD AD"),
        hand("9H TH JH QH KH"),
    ]
    for leader in range(4):
        value, _ = solver.solve_value_counted(
            hands, SPADES, leader, [], 0, 1, 0, STANDARD, use_c=use_c
        )
        assert value == 2
        # Makers with no trump and nothing that wins are euchred when the other side makes it.
        value, _ = solver.solve_value_counted(
            hands, SPADES, leader, [], 0, 0, 0, STANDARD, use_c=use_c
        )
        assert value == -2


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_left_bower_must_follow_trump(use_c: bool) -> None:
    # Hearts trump, queen of hearts led by seat 0: seat 1's jack of diamonds is a trump.
    hands = [0, hand("JD 9D"), hand("9C TC"), hand("9S TS")]
    hands[0] = hand("AC")
    position = (hands, HEARTS, 0, parse_cards("QH"), 0, 0, 0, STANDARD)
    values, _ = solver.solve_counted(*position, use_c=use_c)
    assert set(values) == set(parse_cards("JD"))


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_left_bower_does_not_follow_its_printed_suit(use_c: bool) -> None:
    # Hearts trump, ten of diamonds led: jack of diamonds is no diamond, so seat 1 is void.
    hands = [hand("AC"), hand("JD 9C"), hand("9H TC"), hand("9S TS")]
    position = (hands, HEARTS, 0, parse_cards("TD"), 0, 0, 0, STANDARD)
    values, _ = solver.solve_counted(*position, use_c=use_c)
    assert set(values) == set(parse_cards("JD 9C"))


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_joker_is_the_highest_trump(use_c: bool) -> None:
    # Clubs trump, last trick: the right bower led; a defender's joker must follow, and wins.
    hands = [0, 1 << JOKER, hand("9D"), hand("9H")]
    position = (hands, CLUBS, 0, parse_cards("JC"), 0, 0, 4, STANDARD)
    values, _ = solver.solve_counted(*position, use_c=use_c)
    assert values == {JOKER: 1}  # makers end with 4 tricks, not 5
    hands = [0, hand("AC"), hand("9D"), hand("9H")]
    position = (hands, CLUBS, 0, [JOKER], 0, 0, 4, STANDARD)
    assert solver.solve_counted(*position, use_c=use_c)[0] == {parse_cards("AC")[0]: 2}


@pytest.mark.parametrize("use_c", [False, pytest.param(True, marks=needs_c)])
def test_equivalent_cards_get_equal_values(use_c: bool) -> None:
    # Clubs trump: seat 0's KD and QD touch, and so do 9S and TS: each pair is worth the same.
    hands = [
        hand("KD QD 9S TS AH"),
        hand("9C TC QC KC AC"),
        hand("JC JS AS 9H TH"),
        hand("9D TD AD QS KS"),
    ]
    values, _ = solver.solve_counted(hands, CLUBS, 0, [], 0, 0, 0, STANDARD, use_c=use_c)
    kd, qd, ns, ts = parse_cards("KD QD 9S TS")
    assert values[kd] == values[qd]
    assert values[ns] == values[ts]


def test_hand_over_has_no_moves() -> None:
    empty = [0, 0, 0, 0]
    assert solver.solve(empty, DIAMONDS, 0, [], 0, 0, 3, STANDARD) == {}
    assert solver.solve_value(empty, DIAMONDS, 0, [], 0, 0, 3, STANDARD) == 1


# ---------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"payoff": [2, 1, 1, 1, 1, 1]}, "non-decreasing"),
        ({"payoff": [1, 1]}, "6 payoffs"),
        ({"trump": 4}, "trump"),
        ({"out": 5}, "each side"),
        ({"leader": 2, "out": 4}, "leader"),
        ({"maker_tricks": 1}, "exceeds five"),
        ({"trick": [0, 1, 2, 3]}, "complete"),
    ],
)
def test_bad_positions_are_rejected(change: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "hands": march_deal(),
        "trump": HEARTS,
        "leader": 0,
        "trick": [],
        "out": 0,
        "maker_side": 0,
        "maker_tricks": 0,
        "payoff": STANDARD,
    }
    args.update(change)
    with pytest.raises(solver.SolverError, match=message):
        solver.solve(**args)  # type: ignore[arg-type]


def test_unequal_hands_are_rejected() -> None:
    hands = march_deal()
    hands[1] &= hands[1] - 1
    with pytest.raises(solver.SolverError, match="unequal"):
        solver.solve_value(hands, HEARTS, 0, [], 0, 0, 0, STANDARD)


# ---------------------------------------------------------------------------
# Threads


@pytest.mark.skipif(not solver.HAS_C_SOLVER, reason="the compiled solver is not built")
def test_the_compiled_search_lets_other_threads_run() -> None:
    """A hint or a computer's move solves in a worker thread: while the C search runs, the
    server's event loop (another thread) must be able to run too. With Python's own thread
    switching turned off, the main thread gets the interpreter back only when the worker lets
    it go: it then sees the worker's solves go by a few at a time. (A search holding the
    interpreter would let it see only the start and the end.)"""
    import sys
    import threading
    import time

    rng = random.Random(77)
    positions = [random_position(rng, "none", 0, joker=False) for _ in range(100)]

    def observe() -> set[int]:
        progress: list[int] = []
        seen: set[int] = set()

        def work() -> None:
            for i, position in enumerate(positions):
                progress.append(i)
                solver.solve_counted(*position, use_c=True)

        interval = sys.getswitchinterval()
        sys.setswitchinterval(1000.0)
        try:
            worker = threading.Thread(target=work)
            worker.start()
            while worker.is_alive():
                seen.add(len(progress))
                time.sleep(0)  # lets go of the interpreter; wants it back at once
            worker.join()
        finally:
            sys.setswitchinterval(interval)
        return seen

    # Holding the interpreter, the worker would let the main thread see at most two values
    # (before its first solve and during it), every time. On a loaded machine the main
    # thread may get no core while the worker searches, so a few tries are allowed.
    tries = [observe() for _ in range(5)]
    assert any(len(seen) > 2 for seen in tries), tries
