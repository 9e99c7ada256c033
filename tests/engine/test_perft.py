"""Perft: counts of distinct legal action sequences from fixed positions (tests/data/perft.json).

``perft(state, depth)`` counts the action sequences of exactly ``depth`` actions, plus the
shorter ones that end the hand. A wrong count is reported with the breakdown per first
action, as python-chess's perft does, so the faulty branch can be followed down.

Regenerate the file (only after checking a change is a fix): ``python tests/engine/test_perft.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import euchre
from euchre.hand import HandState

DATA = Path(__file__).resolve().parents[1] / "data" / "perft.json"

POSITIONS: list[dict[str, Any]] = [
    {
        "name": "classic, South orders up, play from the first lead",
        "rules": "classic",
        "dealer": 3,
        "hands": "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS",
        "kitty": "KH JH QH TH",
        "moves": ["order", "discard 9D"],
        "depth": 11,
    },
    {
        "name": "stick the dealer, the dealer is stuck and names clubs, to the end",
        "rules": "stick-the-dealer",
        "dealer": 1,
        "hands": "9H KS AD TC QC | JH 9D QS AC 9C | TH QH KD JS KC | AH TS 9S JD QD",
        "kitty": "KH AS TD JC",
        "moves": ["pass"] * 7 + ["call C"],
        "depth": 20,
    },
    {
        "name": "classic, West goes alone, to the end of the hand",
        "rules": "classic",
        "dealer": 0,
        "hands": "AC KC QC JC TC | JH QD AH KH 9S | AD KD 9H TD 9D | AS KS QS JS TS",
        "kitty": "QH 9C TH JD",
        "moves": ["order alone", "discard TC"],
        "depth": 15,
    },
    {
        "name": "kitchen table, lone maker against a lone defender, to the end",
        "rules": "kitchen-table",
        "dealer": 0,
        "hands": "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS",
        "kitty": "KH JH QH TH",
        "moves": ["order alone", "discard 9S", "pass", "defend alone"],
        "depth": 10,
    },
    {
        "name": "kitchen table, lone defender against two makers, loner-left lead, to the end",
        "rules": "kitchen-table lead_when_sitting_out=loner-left",
        "dealer": 2,
        "hands": "9H KS AD TC QC | JH 9D QS AC 9C | TH QH KD JS KC | AH TS 9S JD QD",
        "kitty": "KH AS TD JC",
        "moves": ["pass", "order", "discard KD", "defend alone"],
        "depth": 15,
    },
    {
        "name": "the Benny turned up: the dealer names trump, from the deal",
        "rules": "benny",
        "dealer": 2,
        "hands": "9H KS AD TC QC | JH 9D QS AC 9C | TH QH KD JS KC | AH TS 9S JD QD",
        "kitty": "JK KH AS TD JC",
        "moves": [],
        "depth": 9,
    },
    {
        "name": "kitchen table with a farmer's hand, from the deal",
        "rules": "kitchen-table",
        "dealer": 0,
        "hands": "AC KC QC JC 9S | AD KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH",
        "kitty": "AS KS QS JS",
        "moves": [],
        "depth": 8,
    },
]


def start(position: dict[str, Any]) -> HandState:
    """The position's state: the deal, then its moves."""
    state = euchre.deal(
        euchre.Rules.from_text(position["rules"]),
        position["dealer"],
        [h.split() for h in position["hands"].split("|")],
        position["kitty"].split(),
    )
    for move in position["moves"]:
        state = state.apply(move)
    return state


def perft(state: HandState, depth: int) -> int:
    """Action sequences of length ``depth`` from ``state``, plus shorter ones that end the hand."""
    if depth == 0 or state.is_over:
        return 1
    if depth == 1:
        return len(state.legal_actions())
    return sum(perft(state.apply(a), depth - 1) for a in state.legal_actions())


def breakdown(state: HandState, depth: int) -> dict[str, int]:
    """Perft of ``depth - 1`` after each first action."""
    return {str(a): perft(state.apply(a), depth - 1) for a in state.legal_actions()}


def compute() -> list[dict[str, Any]]:
    """Every position with its counts at depths 1..depth."""
    out = []
    for position in POSITIONS:
        state = start(position)
        counts = [perft(state, d) for d in range(1, position["depth"] + 1)]
        out.append({**position, "counts": counts})
    return out


def stored() -> list[dict[str, Any]]:
    """The positions and counts kept in tests/data/perft.json (none if it is missing)."""
    if not DATA.exists():
        return []
    data: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
    return data


def test_perft_file_matches_the_positions() -> None:
    """The data file holds exactly the positions listed here."""
    assert [{k: v for k, v in p.items() if k != "counts"} for p in stored()] == POSITIONS


@pytest.mark.parametrize("position", stored(), ids=lambda p: p["name"])
def test_perft(position: dict[str, Any]) -> None:
    """The deepest count is recomputed; on a mismatch, the shallowest wrong depth is shown
    with its breakdown per first action."""
    state = start(position)
    counts = position["counts"]
    if perft(state, len(counts)) == counts[-1]:
        return
    for depth, want in enumerate(counts, 1):
        got = perft(state, depth)
        if got != want:
            detail = "\n".join(f"  {a}: {n}" for a, n in breakdown(state, depth).items())
            pytest.fail(f"perft({depth}) = {got}, expected {want}; per first action:\n{detail}")

def test_perft_breakdown_adds_up_and_depth_two_by_hand() -> None:
    """The breakdown sums to the count; depth 2 of the first position, counted by hand."""
    state = start(POSITIONS[0])
    split = breakdown(state, 2)
    # West must follow the ace of diamonds with the queen (the jack is the left bower),
    # clubs with either club, and may play anything to a spade.
    assert split == {"play 9C": 2, "play TC": 2, "play AD": 1, "play 9S": 5, "play TS": 5}
    assert sum(split.values()) == perft(state, 2) == 15


def naive_perft(hands: list[list[int]], trump: int, seat: int, trick: list[tuple[int, int]],
                playing: list[int], depth: int) -> int:
    """Perft of the play phase written from the rules alone (no engine tables or states)."""
    if depth == 0 or not any(hands[s] for s in playing):
        return 1
    mine = list(hands[seat])
    if trick:
        led = euchre.effective_suit(trick[0][1], trump)
        follow = [c for c in mine if euchre.effective_suit(c, trump) == led]
        mine = follow or mine
    total = 0
    for card in mine:
        hands[seat].remove(card)
        now = [*trick, (seat, card)]
        if len(now) == len(playing):
            led = euchre.effective_suit(now[0][1], trump)
            nxt = max(now, key=lambda sc: euchre.trick_rank(sc[1], trump, led))[0]
            now = []
        else:
            nxt = playing[(playing.index(seat) + 1) % len(playing)]
        total += naive_perft(hands, trump, nxt, now, playing, depth - 1)
        hands[seat].append(card)
    return total


@pytest.mark.parametrize("index", [0, 2, 3, 4])
def test_perft_agrees_with_a_naive_play_generator(index: int) -> None:
    """Play-phase counts agree with a generator written from the rules alone."""
    position = POSITIONS[index]
    state = start(position)
    assert state.phase_name == "play"
    playing = [s for s in range(4) if not state.sits_out(s)]
    hands = [state.hand(s) for s in range(4)]
    depth = min(position["depth"], 9)
    leader = state.trick[0]
    assert naive_perft(hands, state.trump, leader, [], playing, depth) == perft(state, depth)


if __name__ == "__main__":
    DATA.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": "euchre-perft", "version": 1, "positions": compute()},
                      indent=1)
    DATA.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {DATA}", file=sys.stderr)
