"""Players' seeds mixed into the shuffle (issue 13 item 9): a deal comes from the table's
committed seed mixed with a seed from every person, and ``euchre verify`` checks the mix."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

import pytest

import euchre
from euchre.cli import main
from euchre.record import GameRecord
from euchre.shuffle import commitment, deal_from_deck, deck_from_seed, is_client_seed, mixed_seed
from euchre.verify import (
    FAILED,
    VERIFIED,
    CommitmentsError,
    parse_commitments,
    parse_sent_seeds,
    verify_record,
)

PEOPLE = (0, 2)  # the seats played by people; computers contribute nothing


def client_seed(rng: random.Random) -> str:
    """What a browser sends: 32 random bytes as hex."""
    return rng.randbytes(32).hex()


def mixed_game(play_seed: int = 1, preset: str = "classic") -> GameRecord:
    """A whole game of random play, each hand dealt from ``server:N`` mixed with the people's."""
    rng = random.Random(play_seed)
    game = euchre.GameState(euchre.Rules.preset(preset), first_dealer=1)
    seeds: list[str | None] = []
    clients: list[dict[int, str]] = []
    while not game.is_over:
        if game.needs_deal:
            seed = f"server:{len(seeds) + 1}"
            mine = {seat: client_seed(rng) for seat in PEOPLE}
            seeds.append(seed)
            clients.append(mine)
            game = game.deal(deck_from_seed(mixed_seed(seed, mine), game.rules.benny))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
    return GameRecord.from_game(game, seeds, clients)


def commitments(record: GameRecord) -> dict[int, tuple[str, ...]]:
    """The server commitments a player kept."""
    return {n: (commitment(h.seed),) for n, h in enumerate(record.hands, 1) if h.seed}


def test_the_mix_is_sha256_of_the_seeds_in_seat_order() -> None:
    """The documented formula, computed here independently; no player seeds: the table's."""
    a, b = "ab" * 32, "cd" * 16
    want = hashlib.sha256(f"S\n0:{a}\n2:{b}".encode()).hexdigest()
    assert mixed_seed("S", {2: b, 0: a}) == want
    assert mixed_seed("S", {}) == mixed_seed("S") == "S"
    assert mixed_seed("S", {0: a}) != mixed_seed("S", {1: a}), "the seat is part of the mix"


def test_client_seed_format() -> None:
    assert is_client_seed("0f" * 8) and is_client_seed("a" * 128)
    for bad in ("0f" * 7, "a" * 129, "AB" * 16, "xyz" * 8, 42, None, ""):
        assert not is_client_seed(bad)


@pytest.mark.parametrize("preset", ["classic", "benny"])
def test_a_mixed_record_verifies_and_round_trips(preset: str) -> None:
    record = mixed_game(preset=preset)
    report = verify_record(record, commitments(record))
    assert report.ok and report.verified == len(record.hands) > 1
    for again in (GameRecord.from_text(record.to_text()),
                  GameRecord.from_json(json.loads(json.dumps(record.to_json())))):
        assert [h.client_seeds for h in again.hands] == [h.client_seeds for h in record.hands]
        assert verify_record(again, commitments(again)).ok
    assert "client_seeds 0:" in record.to_text()


def test_a_tampered_or_dropped_client_seed_fails() -> None:
    record = mixed_game()
    record.hands[1].client_seeds[2] = "00" * 32
    del record.hands[2].client_seeds[0]
    record.hands[3].client_seeds = {}
    report = verify_record(record, commitments(record))
    assert not report.ok
    assert [h.status for h in report.hands[:5]] == [VERIFIED, FAILED, FAILED, FAILED, VERIFIED]
    assert "mixed with the players' seeds" in report.hands[1].problems[0]
    assert "does not come from its seed" in report.hands[3].problems[0]


def test_a_malformed_client_seed_fails_and_a_tampered_server_seed_fails() -> None:
    record = mixed_game()
    kept = commitments(record)  # as published before the hands
    record.hands[0].client_seeds[0] = "not hex"
    record.hands[1].seed = "server:99"
    report = verify_record(record, kept)
    assert report.hands[0].status == FAILED and any("not 16 to 128 hex" in p
                                                    for p in report.hands[0].problems)
    assert report.hands[1].status == FAILED
    assert any("does not match the commitment" in p for p in report.hands[1].problems)


def test_the_seeds_a_player_kept_as_sent_must_be_the_ones_mixed_in() -> None:
    """The page's commitments file lists `seed N SEAT HEX` for the seeds it sent: a table that
    swapped one for another (and dealt from that) is caught."""
    record = mixed_game()
    kept_text = "".join(f"hand {n} {c[0]}\n" for n, c in commitments(record).items())
    sent_text = "".join(f"seed {n} 0 {h.client_seeds[0]}\n" for n, h in
                        enumerate(record.hands, 1))
    text = kept_text + "# the seeds this browser sent\n" + sent_text
    assert parse_commitments(text) == commitments(record), "seed lines are not commitments"
    sent = parse_sent_seeds(text)
    assert sent == {n: {0: h.client_seeds[0]} for n, h in enumerate(record.hands, 1)}
    assert verify_record(record, parse_commitments(text), sent=sent).ok
    # the table mixed in another seed for seat 0 in hand 2 and dealt from that: consistent
    # with itself, so only the kept seed shows it
    swapped = "ef" * 32
    record.hands[1].client_seeds[0] = swapped
    server_seed = record.hands[1].seed
    assert server_seed is not None
    deck = deck_from_seed(mixed_seed(server_seed, record.hands[1].client_seeds))
    record.hands[1].deal = deal_from_deck(deck, record.hands[1].dealer)
    assert verify_record(record, parse_commitments(text)).hands[1].status == VERIFIED
    report = verify_record(record, parse_commitments(text), sent=sent)
    assert report.hands[1].status == FAILED
    assert "seat 0 sent the seed" in report.hands[1].problems[0]
    with pytest.raises(CommitmentsError, match="seed N SEAT HEX"):
        parse_sent_seeds("seed 1 5 " + "ab" * 32)


def test_euchre_verify_command_on_a_mixed_record(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record = mixed_game(play_seed=4)
    path = tmp_path / "game.txt"
    path.write_text(record.to_text(), encoding="utf-8")
    kept = tmp_path / "kept.txt"
    kept.write_text("".join(f"hand {n} {c[0]}\n" for n, c in commitments(record).items())
                    + "".join(f"seed {n} 2 {h.client_seeds[2]}\n"
                              for n, h in enumerate(record.hands, 1)), encoding="utf-8")
    assert main(["verify", str(path), "--commitments", str(kept)]) == 0
    assert "OK:" in capsys.readouterr().out
    text = record.to_text()
    hand1 = text.index("client_seeds 0:") + len("client_seeds 0:")
    flipped = text[:hand1] + ("1" if text[hand1] != "1" else "2") + text[hand1 + 1:]
    path.write_text(flipped, encoding="utf-8")
    assert main(["verify", str(path), "--commitments", str(kept)]) == 1
    assert "hand 1: FAILED" in capsys.readouterr().out
