"""A player verifies a game from the site: keep every socket message, download the record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from euchre.bots import make
from euchre.cli import main
from euchre.record import GameRecord
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.practice import PracticeOptions, practice_table
from euchre.verify import parse_commitments, verify_record


class Client:
    """A seat's socket, saving every message as JSON lines (what a careful player keeps)."""

    def __init__(self) -> None:
        """South's connection, no messages yet."""
        self.seat: int | None = 0
        self.lines: list[str] = []

    def send(self, message: Outgoing) -> None:
        """Save one message as the client would receive it."""
        self.lines.append(message.text)


async def play(actor: TableActor, sched: ManualScheduler, hands: int | None = None) -> None:
    """Move fake time and play seat 0 at random until the game ends (or ``hands`` are done)."""
    rng = random.Random(5)
    for _ in range(100_000):  # a bound instead of a hang if the table stalls
        await actor.settle()
        if actor.game.is_over:
            return
        if hands is not None and len(actor.game.all_hands()) > hands:
            return
        if actor.game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(rng.choice(view.legal)))
            continue
        due = sched.next_due()
        assert due is not None, "nothing is due but nobody is to act"
        sched.advance(due - sched.now())
    raise AssertionError("the game did not end")


async def site_game(hands: int | None = None) -> tuple[TableActor, Client]:
    """A practice table with random computer players and real secret seeds."""
    config, _ = practice_table(PracticeOptions(), table_id="v1", token="secret", first_dealer=0)
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.1, 0.2),
                       store=MemoryStore(),
                       bot_factory=lambda level, seed: make("random", 3)))
    client = Client()
    actor.start()
    await actor.join(client)
    await play(actor, sched, hands)
    return actor, client


async def test_a_finished_site_game_verifies_against_the_kept_messages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    actor, client = await site_game()
    record = actor.public_record()
    kept = parse_commitments("\n".join(client.lines))
    # every hand, and the next one's table seed, committed with the last deal (never dealt)
    assert sorted(kept) == list(range(1, len(record.hands) + 2))
    report = verify_record(record, kept, strict=True)
    assert report.ok and all(h.committed for h in report.hands)
    (tmp_path / "game.txt").write_text(record.to_text(), encoding="utf-8")
    (tmp_path / "messages.jsonl").write_text("\n".join(client.lines), encoding="utf-8")
    assert main(["verify", str(tmp_path / "game.txt"), "--commitments",
                 str(tmp_path / "messages.jsonl"), "--strict"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("OK: ")
    await actor.stop()


async def test_a_running_game_verifies_its_finished_hands() -> None:
    actor, client = await site_game(hands=2)
    record = GameRecord.from_text(actor.public_record().to_text())
    kept = parse_commitments("\n".join(client.lines))
    report = verify_record(record, kept)
    assert report.ok and report.verified == len(record.hands) >= 2
    # the hand in progress (seed still secret) and the next hand, whose table seed is committed
    # in advance so that people can send theirs
    assert report.unmatched == (len(record.hands) + 1, len(record.hands) + 2)
    await actor.stop()
