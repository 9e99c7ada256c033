"""What a move makes, checked against the engine over whole games: the action always, a
trick exactly when one was completed, the end of a hand (with its summary and revealed seed)
exactly when the hand ended, the end of the game once; and the last finished hand's summary
a resumed table shows is the one its hand-over event carried."""

from __future__ import annotations

import itertools
import random

from euchre.game import GameState
from euchre.table.actor.dealing import Shuffle
from euchre.table.actor.moves import last_summary, move_events
from euchre.table.actor.wire import (
    ActionEvent,
    GameOverEvent,
    HandOverEvent,
    HandSummary,
    TrickEvent,
)
from euchre.table.kinds.practice import PracticeOptions, practice_table


def _start() -> tuple[GameState, Shuffle, bool]:
    config, _ = practice_table(PracticeOptions("classic", {}, "easy", "easy", "easy"),
                               table_id="m1", token="secret", first_dealer=1)
    counter = itertools.count()
    shuffle = Shuffle(lambda: f"seed-{next(counter)}")
    return GameState(config.rules, 1), shuffle, config.rules.benny


def test_each_move_makes_the_events_the_engine_says_it_did() -> None:
    game, shuffle, benny = _start()
    rng = random.Random(19)
    kinds = {"trick": 0, "hand_over": 0, "game_over": 0}
    summaries: list[HandSummary] = []
    while not game.is_over:
        if game.needs_deal:
            game = shuffle.deal(game, benny)
            continue
        seat = game.to_act
        assert seat is not None
        action = rng.choice(game.legal_actions())
        new = game.apply(action, seat)
        events, summary = move_events(game, new, seat, action, shuffle)
        before, hand = game.current, new.current
        assert before is not None and hand is not None
        assert events[0] == ActionEvent(seat=seat, action=str(action), timed_out=None)
        rest = events[1:]
        if len(hand.tricks) > len(before.tricks):
            trick = rest.pop(0)
            assert isinstance(trick, TrickEvent) and trick.winner == hand.tricks[-1][2]
            assert len(trick.cards) == len(hand.tricks[-1][1])
            kinds["trick"] += 1
        if hand.is_over:
            over = rest.pop(0)
            assert isinstance(over, HandOverEvent) and over.summary is summary
            assert summary is not None
            assert summary.hand_number == len(new.all_hands())
            assert summary.seed == shuffle.seeds[-1]  # the hand's secret seed revealed
            assert over.score == list(new.score)
            summaries.append(summary)
            kinds["hand_over"] += 1
        else:
            assert summary is None
        if new.is_over:
            done = rest.pop(0)
            assert isinstance(done, GameOverEvent) and done.winner == new.winner
            kinds["game_over"] += 1
        assert rest == []
        game = new
    assert kinds["trick"] >= 5 and kinds["hand_over"] >= 2 and kinds["game_over"] == 1
    assert last_summary(game, shuffle) == summaries[-1]


def test_a_move_for_a_person_out_of_time_says_so() -> None:
    game, shuffle, benny = _start()
    game = shuffle.deal(game, benny)
    seat = game.to_act
    assert seat is not None
    action = game.legal_actions()[0]
    events, summary = move_events(game, game.apply(action, seat), seat, action, shuffle,
                                  timed_out=True)
    assert events == [ActionEvent(seat=seat, action=str(action), timed_out=True)]
    assert summary is None


def test_no_summary_before_a_hand_is_finished() -> None:
    game, shuffle, benny = _start()
    assert last_summary(game, shuffle) is None
    assert last_summary(shuffle.deal(game, benny), shuffle) is None
