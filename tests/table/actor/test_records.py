"""Records as the public may see them: a running game's record holds no card of the hand in
progress (nor its secret seed); a finished game replays open-handed, one frame per deal and
per action, ending on the game's own score."""

from __future__ import annotations

import random

from euchre.cards import card_text
from euchre.game import GameState
from euchre.record import GameRecord
from euchre.rules import Rules
from euchre.table.actor.records import game_record, hand_json, public_record, replay_frames


def _play(game: GameState, rng: random.Random, moves: int | None = None) -> GameState:
    """Random legal moves (dealing when due) until the game ends or ``moves`` were made."""
    while not game.is_over and moves != 0:
        if game.needs_deal:
            game = game.deal_random(rng)
            continue
        game = game.apply(rng.choice(game.legal_actions()))
        moves = None if moves is None else moves - 1
    return game


def _mid_game(seed: int) -> GameState:
    """A game two hands in, with a few moves made in its third hand."""
    rng = random.Random(seed)
    game = GameState(Rules.preset("classic"), 1)
    while len(game.all_hands()) < 3 or game.needs_deal:
        game = _play(game, rng, 1)
    return _play(game, rng, 3)


def test_the_public_record_of_a_running_game_drops_the_hand_in_progress() -> None:
    game = _mid_game(4)
    hands = game.all_hands()
    assert not hands[-1].is_over and hands[-1].history()
    seeds = [f"seed-{i}" for i in range(len(hands))]
    private = game_record(game, seeds, [{0: "ann"}] * len(hands))
    public = public_record(private)
    assert len(public.hands) == len(hands) - 1
    assert all(h.result is not None for h in public.hands)
    text = str(public.to_json())
    assert seeds[-1] not in text and seeds[0] in text  # the running hand's seed stays secret
    assert all(h.deal != hands[-1].deal for h in public.hands)  # no card of it
    assert public.hands == private.hands[:-1] and private.hands[-1].seed == seeds[-1]
    # the record itself is left whole
    assert len(private.hands) == len(hands)


def test_the_public_record_of_a_finished_game_is_the_whole_record() -> None:
    game = _play(GameState(Rules.preset("classic"), 0), random.Random(8))
    record = game_record(game, ["a"] * len(game.all_hands()))
    public = public_record(record)
    assert public.to_json() == record.to_json()
    assert public.final == game.score and public.replay().score == game.score


def test_the_game_record_keeps_each_hands_seeds() -> None:
    game = _mid_game(5)
    record = game_record(game, ["s0", "s1"], [{0: "mine"}])
    assert [h.seed for h in record.hands] == ["s0", "s1", None]
    assert [h.client_seeds for h in record.hands] == [{0: "mine"}, {}, {}]
    assert record.final is None
    assert game_record(game, []).hands[0].client_seeds == {}


def test_one_hand_as_json_is_that_hand_of_the_whole_record() -> None:
    game = _mid_game(6)
    record = GameRecord.from_game(game, ["x", "y", "z"], [{}, {2: "cy"}, {}]).to_json()
    for number, hand in enumerate(game.all_hands()):
        seed = "xyz"[number]
        mine = {2: "cy"} if number == 1 else None
        assert hand_json(hand, seed, mine) == record["hands"][number]
    last = game.all_hands()[-1]
    assert hand_json(last, None)["result"] is None and "seed" not in hand_json(last, None)


def test_replay_frames_step_through_every_deal_and_action_to_the_final_score() -> None:
    game = _play(GameState(Rules.preset("classic"), 2), random.Random(11))
    frames = replay_frames(game_record(game, []))
    hands = game.all_hands()
    assert len(frames) == sum(1 + len(h.history()) for h in hands)
    at = 0
    for number, hand in enumerate(hands, 1):
        start = frames[at]
        assert (start["hand_number"], start["dealer"], start["last"]) == (number, hand.dealer,
                                                                          None)
        assert [sorted(h) for h in start["hands"]] == \
            [sorted(card_text(c) for c in cards) for cards in hand.deal.hands]
        assert start["upcard"] == card_text(hand.upcard) and start["trick"] == []
        for step, (seat, action) in enumerate(hand.history(), 1):
            assert frames[at + step]["last"] == {"seat": seat, "action": str(action)}
            assert frames[at + step]["hand_number"] == number
        at += 1 + len(hand.history())
        assert frames[at - 1]["phase"] == "over"
        assert frames[at - 1]["points"] == list(hand.points)
    assert frames[-1]["score"] == list(game.score)
    assert frames[0]["score"] == [0, 0]
