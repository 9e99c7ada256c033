"""``euchre.verify``: seeded deals check out; tampered deals, seeds and commitments do not."""

from __future__ import annotations

import json
import random

import pytest

import euchre
from euchre.hand import Deal
from euchre.record import GameRecord
from euchre.shuffle import commitment, deal_from_deck, deck_from_seed
from euchre.verify import (
    FAILED,
    NO_SEED,
    VERIFIED,
    CommitmentsError,
    check_hand,
    deal_of_seed,
    parse_commitments,
    verify_record,
)


def seeded_game(prefix: str = "g", preset: str = "classic", pattern: str = "3-2",
                play_seed: int = 1) -> GameRecord:
    """A whole game of random legal actions, each hand dealt from the seed ``prefix:N``."""
    rng = random.Random(play_seed)
    game = euchre.GameState(euchre.Rules.preset(preset), first_dealer=2)
    seeds: list[str | None] = []
    while not game.is_over:
        if game.needs_deal:
            seed = f"{prefix}:{len(seeds) + 1}"
            seeds.append(seed)
            game = game.deal(deck_from_seed(seed, game.rules.benny), pattern)
        else:
            game = game.apply(rng.choice(game.legal_actions()))
    return GameRecord.from_game(game, seeds)


def commitments_of(record: GameRecord) -> dict[int, tuple[str, ...]]:
    """What a player who kept every deal event would hold."""
    return {n: (commitment(h.seed),) for n, h in enumerate(record.hands, 1) if h.seed}


@pytest.mark.parametrize(("preset", "pattern"), [("classic", "3-2"), ("benny", "2-3"),
                                                 ("kitchen-table", "3-2")])
def test_a_genuine_seeded_record_verifies(preset: str, pattern: str) -> None:
    record = seeded_game(preset=preset, pattern=pattern)
    report = verify_record(record, commitments_of(record))
    assert report.ok and report.failed == 0 and report.unseeded == 0
    assert report.verified == len(record.hands) > 1
    assert all(h.status == VERIFIED and h.committed for h in report.hands)
    assert report.lines()[-1].startswith(f"OK: {len(record.hands)} of {len(record.hands)}")


def test_without_commitments_the_deal_is_still_checked_against_the_seed() -> None:
    report = verify_record(seeded_game())
    assert report.ok and not any(h.committed for h in report.hands)
    assert "no commitment kept" in report.hands[0].describe()


def swap_cards(deal: Deal, a: tuple[int, int], b: tuple[int, int]) -> Deal:
    """The deal with card a[1] of seat a[0] and card b[1] of seat b[0] exchanged."""
    hands = [list(h) for h in deal.hands]
    hands[a[0]][a[1]], hands[b[0]][b[1]] = hands[b[0]][b[1]], hands[a[0]][a[1]]
    return Deal(tuple(tuple(h) for h in hands), deal.kitty, deal.pattern)


def test_a_tampered_deal_fails_naming_the_seats() -> None:
    record = seeded_game()
    hand = record.hands[2]
    hand.deal = swap_cards(hand.deal, (1, 0), (3, 4))
    report = verify_record(record, commitments_of(record))
    assert not report.ok and report.failed == 1
    bad = report.hands[2]
    assert bad.status == FAILED and bad.number == 3
    message = bad.describe()
    assert message.startswith("hand 3: FAILED: the deal does not come from its seed: ")
    assert "seat 1 was dealt" in message and "seat 3 was dealt" in message
    assert "seat 0" not in message and "seat 2" not in message
    assert all(h.status == VERIFIED for i, h in enumerate(report.hands) if i != 2)


def test_reordered_cards_are_told_apart_from_other_cards() -> None:
    record = seeded_game()
    hand = record.hands[0]
    hand.deal = swap_cards(hand.deal, (0, 0), (0, 1))
    problem = check_hand(1, hand, False).problems[0]
    assert "seat 0 was dealt" in problem and "the same cards in the order" in problem


def test_a_tampered_kitty_fails() -> None:
    record = seeded_game()
    deal = record.hands[0].deal
    kitty = (deal.kitty[1], deal.kitty[0], *deal.kitty[2:])
    record.hands[0].deal = Deal(deal.hands, kitty, deal.pattern)
    check = verify_record(record).hands[0]
    assert check.status == FAILED and "the kitty is" in check.problems[0]


def test_a_tampered_seed_fails_against_the_deal_and_the_commitment() -> None:
    record = seeded_game()
    kept = commitments_of(record)
    record.hands[1].seed = "g:99"
    report = verify_record(record, kept)
    problems = " ".join(report.hands[1].problems)
    assert report.hands[1].status == FAILED and not report.ok
    assert "the deal does not come from its seed" in problems
    assert f"sha256(seed) is {commitment('g:99')}" in problems
    assert f"the commitment was {kept[2][0]}" in problems


def test_a_seed_that_deals_the_record_but_was_not_committed_fails() -> None:
    """A table that picked its seed after the fact: the deal matches, the commitment does not."""
    record = seeded_game()
    kept = commitments_of(record)
    kept[1] = (commitment("something else"),)
    check = verify_record(record, kept).hands[0]
    assert check.status == FAILED
    assert check.problems == (
        "the seed does not match the commitment published with the deal: sha256(seed) is "
        f"{commitment('g:1')}, the commitment was {commitment('something else')}",)


def test_two_commitments_for_one_hand_fail() -> None:
    record = seeded_game()
    kept = commitments_of(record)
    kept[1] = (*kept[1], commitment("other"))
    check = verify_record(record, kept).hands[0]
    assert check.status == FAILED and "2 different commitments" in check.problems[0]


def test_a_committed_hand_whose_seed_is_withheld_fails() -> None:
    record = seeded_game()
    kept = commitments_of(record)
    record.hands[0].seed = None
    check = verify_record(record, kept).hands[0]
    assert check.status == FAILED and "reveals no seed" in check.problems[0]


def test_hands_without_seeds_are_reported_not_failed() -> None:
    record = seeded_game()
    record.hands[0].seed = None
    record.hands[3].seed = None
    report = verify_record(record)
    assert [h.status for h in report.hands[:4]] == [NO_SEED, VERIFIED, VERIFIED, NO_SEED]
    assert report.ok and report.unseeded == 2
    assert "hand 1: no seed in the record" in report.lines()[0]


def test_a_record_with_no_seed_at_all_is_not_called_verified() -> None:
    record = seeded_game()
    for hand in record.hands:
        hand.seed = None
    report = verify_record(record)
    assert not report.ok and report.failed == 0
    assert "nothing was checked" in report.lines()[-1]


def test_strict_wants_a_commitment_for_every_hand() -> None:
    record = seeded_game()
    kept = commitments_of(record)
    del kept[2]
    report = verify_record(record, kept, strict=True)
    assert not report.ok and report.hands[1].problems == ("strict: no commitment was kept",)
    assert verify_record(record, commitments_of(record), strict=True).ok


def test_a_record_whose_play_does_not_replay_fails() -> None:
    record = seeded_game()
    seat, _ = record.hands[0].actions[0]
    record.hands[0].actions[0] = (seat, euchre.parse_action("call H"))
    report = verify_record(record)
    assert report.failed == 0 and not report.ok
    assert report.replay_error is not None and report.replay_error.startswith("hand 1, action 1")


def test_commitments_for_hands_not_in_the_record_are_listed() -> None:
    record = seeded_game()
    kept = commitments_of(record)
    extra = len(record.hands) + 1
    kept[extra] = (commitment("next"),)
    report = verify_record(record, kept)
    assert report.ok and report.unmatched == (extra,)
    assert f"hand {extra}: a commitment was kept but the record has no such hand" in report.lines()


def test_deal_of_seed_is_the_shuffle_dealt_from_the_dealers_left() -> None:
    assert deal_of_seed("s", 1, True, "2-3") == deal_from_deck(deck_from_seed("s", True), 1,
                                                               "2-3")


def test_an_unknown_pattern_fails_clearly() -> None:
    record = seeded_game()
    hand = record.hands[0]
    hand.deal = Deal(hand.deal.hands, hand.deal.kitty, "1-4")
    assert check_hand(1, hand, False).problems == ("unknown dealing pattern '1-4'",)


def test_an_empty_record() -> None:
    record = GameRecord(euchre.Rules())
    assert not verify_record(record).ok
    assert verify_record(record, strict=True).notes == ("strict: the record has no hands",)


# -- reading kept commitments -------------------------------------------------------------------

A, B, C = commitment("a"), commitment("b"), commitment("c")


def test_commitments_as_text_lines() -> None:
    text = f"# kept during play\n{A}\nhand 3 {B.upper()}\n{C}  # the next one\n\n2 {A}\n"
    assert parse_commitments(text) == {1: (A,), 2: (A,), 3: (B,), 4: (C,)}


def test_commitments_as_json_list_and_object() -> None:
    assert parse_commitments(json.dumps([A, B])) == {1: (A,), 2: (B,)}
    assert parse_commitments(json.dumps({"2": B, "1": A})) == {1: (A,), 2: (B,)}


def test_commitments_from_saved_server_messages() -> None:
    """Every socket message a client saved, one per line: deal events and table snapshots."""
    messages = [
        {"type": "snapshot", "version": 1, "table": {"hand_number": 1, "commitment": A}},
        {"type": "event", "version": 9, "event": {"kind": "hand_over", "summary": {
            "hand_number": 1, "seed": "a"}}, "table": {"hand_number": 1, "commitment": None}},
        {"type": "event", "version": 10, "event": {"kind": "deal", "dealer": 1,
                                                   "hand_number": 2, "commitment": B},
         "table": {"hand_number": 2, "commitment": B}},
    ]
    lines = "\n".join(json.dumps(m) for m in messages)
    assert parse_commitments(lines) == {1: (A,), 2: (B,)}
    assert parse_commitments(json.dumps(messages)) == {1: (A,), 2: (B,)}


def test_commitments_from_a_browsers_har_file() -> None:
    """Developer tools save socket messages as strings of JSON inside the HAR document."""
    event = {"type": "event", "event": {"kind": "deal", "hand_number": 1, "commitment": A}}
    har = {"log": {"entries": [{"_webSocketMessages": [
        {"type": "receive", "data": json.dumps(event)},
        {"type": "send", "data": '{"type": "ping"}'},
        {"type": "receive", "data": "{not json, commitment"},
    ]}]}}
    assert parse_commitments(json.dumps(har)) == {1: (A,)}


def test_a_second_commitment_for_a_hand_is_kept_as_evidence() -> None:
    assert parse_commitments(f"1 {A}\n1 {B}\n1 {A}\n") == {1: (A, B)}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{A}\nnot-hex\n", "line 2: not a SHA-256 commitment"),
        (f"1 2 {A}\n", "line 1: expected"),
        (f"0 {A}\n", "hand numbers start at 1"),
        ('{"hand_number": 1}\n{broken\n', "line 2: not JSON"),
        (json.dumps([A, "abc"]), "item 2: not a SHA-256 commitment"),
    ],
)
def test_unreadable_commitments_say_where(text: str, words: str) -> None:
    with pytest.raises(CommitmentsError, match=words):
        parse_commitments(text)


def test_hand_records_keep_their_seed_through_text_and_json() -> None:
    record = seeded_game()
    for copy in (GameRecord.from_text(record.to_text()),
                 GameRecord.from_json(json.dumps(record.to_json()))):
        assert verify_record(copy, commitments_of(record)).ok
