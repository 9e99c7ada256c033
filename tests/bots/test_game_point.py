"""No game-point blunders: clear-cut hands bid right at every score of every game length.

For each game length (5, 7, 10, 11), every score pair, and every bidding position in
both rounds, against ``medium``, ``hard`` and ``expert``:

- a sure lone march is never passed; it goes alone unless a plain call's march reaches
  the game, and then it is not alone: five top trumps (from any seat), or both bowers,
  the ace and king of trump and an off ace from the seat that leads (left of the dealer);
  from another seat that hand is a sure make (a defender may trump the ace);
- a sure make (the three top trumps and junk) is never passed, never alone when a march
  reaches the game, and alone when only a loner can save the game (the opponents need
  one point, a plain call's two cannot win, a lone march's four can);
- a hopeless hand (nines and tens, no trump) never orders or calls.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_conventions import position

import euchre
from euchre import HandState, Rules
from euchre.actions import Action
from euchre.bots import make
from euchre.rules import GAME_LENGTHS

LEVELS = ("medium", "hard", "expert")

LAY_DOWN = "JH JD AH KH AS"
"""A sure lone march with hearts trump on lead (we hold the top four of the seven trumps)."""
FIVE_TRUMPS = "JH JD AH KH QH"
"""A sure lone march with hearts trump whoever leads."""
THREE_TOP = "JH JD AH 9S TC"
"""A sure make with hearts trump (three tricks whatever happens), not a sure march."""
HOPELESS = "9S TS 9D TD TC"
"""No trump in hearts, no ace, no bower in any suit."""
HEARTS = 2


def scores(game: int) -> Iterator[tuple[int, int]]:
    """Every score pair before the game is won: (the bidder's side, the other side)."""
    for ours in range(game):
        for theirs in range(game):
            yield ours, theirs


def at(hand: str, upcard: str, seat: int, passes: int, ours: int, theirs: int,
       game: int) -> HandState:
    """The bidder at ``seat`` (dealer 0) holding ``hand`` after ``passes`` passes."""
    score = (ours, theirs) if seat % 2 == 0 else (theirs, ours)
    return position({seat: hand}, upcard, ["pass"] * passes, score=score,
                     rules=Rules(game_to=game))


def seats_round(round_: int) -> list[tuple[int, int]]:
    """(seat, passes before it) for each bidding position of a round, dealer 0."""
    first = 0 if round_ == 1 else 4
    return [(1, first), (2, first + 1), (3, first + 2), (0, first + 3)]


def choose(level: str, state: HandState) -> Action:
    """The level's bid (seeded)."""
    assert state.to_act is not None
    return make(level, seed=5).choose(state.view(state.to_act))


def check_all(level: str, game: int, hand: str, round_: int,
              expect: dict[str, object]) -> list[str]:
    """Every score and position; the failures as lines (empty when none)."""
    upcard = "9H" if round_ == 1 else "9C"
    kind = "order" if round_ == 1 else "call"
    bad: list[str] = []
    for seat, passes in seats_round(round_):
        for ours, theirs in scores(game):
            state = at(hand, upcard, seat, passes, ours, theirs, game)
            action = choose(level, state)
            march_wins = ours + 2 >= game
            save = theirs + 1 >= game and ours + 2 < game <= ours + 4
            why = ""
            if expect.get("never_call"):
                if action.kind != "pass":
                    why = "called a hopeless hand"
            elif action.kind != kind or (round_ == 2 and action.suit != HEARTS):
                why = "did not make the sure call"
            elif march_wins and action.alone:
                why = "went alone though a plain march wins the game"
            elif (expect.get("alone_unless_march_wins") and not march_wins
                  and not action.alone and (seat == 1 or not expect.get("on_lead_only"))):
                why = "did not go alone with a sure lone march"
            elif save and not action.alone:
                why = "did not go alone when only a loner saves the game"
            if why:
                bad.append(f"seat {seat} {ours}-{theirs} to {game}: {action} ({why})")
    return bad


@pytest.mark.parametrize("game", GAME_LENGTHS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("round_", [1, 2])
def test_sure_lone_march_at_every_score(level: str, game: int, round_: int) -> None:
    bad = check_all(level, game, LAY_DOWN, round_,
                    {"alone_unless_march_wins": True, "on_lead_only": True})
    bad += check_all(level, game, FIVE_TRUMPS, round_, {"alone_unless_march_wins": True})
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("game", GAME_LENGTHS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("round_", [1, 2])
def test_sure_make_at_every_score(level: str, game: int, round_: int) -> None:
    bad = check_all(level, game, THREE_TOP, round_, {})
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("game", GAME_LENGTHS)
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("round_", [1, 2])
def test_hopeless_hand_never_calls(level: str, game: int, round_: int) -> None:
    bad = check_all(level, game, HOPELESS, round_, {"never_call": True})
    assert not bad, "\n".join(bad[:20])


def test_the_lay_down_from_the_report() -> None:
    # first to bid at 9-9 (game to 10): hard once passed this hand
    state = position({1: "JS JC AS KS AH"}, "9S", score=(9, 9))
    for level in LEVELS:
        assert str(choose(level, state)) == "order", level
    assert euchre.Rules().game_to == 10
