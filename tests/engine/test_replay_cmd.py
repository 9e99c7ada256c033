"""``euchre replay FILE``: text and JSON records, hand by hand, or the first illegal action.

docs/examples/sample-game.txt is a random game with a fixed seed; regenerate it with
``python tests/engine/test_replay_cmd.py`` (the test below checks it is still that game).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from engine_helpers import play_random_game

import euchre
from euchre.cli import main
from euchre.record import GameRecord

SAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "sample-game.txt"
SAMPLE_SEED = 2024
SAMPLE_RULES = "stick-the-dealer"


def sample_record(seed: int = SAMPLE_SEED, rules: str = SAMPLE_RULES) -> GameRecord:
    """A whole game of uniformly random legal actions from a seeded generator."""
    rng = random.Random(seed)
    game = play_random_game(euchre.Rules.preset(rules), rng.randrange(4), rng)
    return GameRecord.from_game(game)


def test_replay_sample_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The sample record replays: every hand, every trick, the running and final score."""
    assert main(["replay", str(SAMPLE)]) == 0
    out = capsys.readouterr().out
    record = GameRecord.from_text(SAMPLE.read_text(encoding="utf-8"))
    game = record.replay()
    assert out.count("\nHand ") + out.startswith("Hand ") == len(record.hands)
    assert f"Final score: South/North {game.score[0]}, West/East {game.score[1]}" in out
    assert "won the game." in out and "trick led by" in out
    assert "  bidding: " in out and " discards " in out and "(makers euchred)" in out


def test_sample_game_is_the_seeded_game() -> None:
    """docs/examples/sample-game.txt is exactly the seeded random game."""
    assert SAMPLE.read_text(encoding="utf-8") == sample_record().to_text()


def test_replay_json_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A JSON record replays the same way as its text form."""
    record = sample_record(seed=7, rules="kitchen-table")
    text_file, json_file = tmp_path / "g.txt", tmp_path / "g.json"
    text_file.write_text(record.to_text(), encoding="utf-8")
    json_file.write_text(json.dumps(record.to_json()), encoding="utf-8")
    assert main(["replay", str(text_file)]) == 0
    from_text = capsys.readouterr().out
    assert main(["replay", str(json_file)]) == 0
    assert capsys.readouterr().out == from_text


def test_replay_reports_the_first_illegal_action(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """An illegal action: the hand, the action number, the action and why; exit 1."""
    text = SAMPLE.read_text(encoding="utf-8").splitlines()
    first_play = next(i for i, line in enumerate(text) if " play " in line)
    seat = text[first_play].split()[0]
    text[first_play] = f"{seat} play JK"
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("illegal: hand 1, action ")
    assert f"({seat} play JK): you do not hold the Joker" in out


def test_replay_reports_out_of_turn_and_wrong_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A seat acting out of turn, or a result line that disagrees, is reported; exit 1."""
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("kitty")) + 1
    seat = int(lines[first].split()[0])
    lines[first] = f"{(seat + 1) % 4} {lines[first].split(' ', 1)[1]}"
    bad = tmp_path / "turn.txt"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "acted out of turn" in capsys.readouterr().out
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("result"))
    lines[at] = "result 9 9"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(bad)]) == 1
    assert "the record says 9-9" in capsys.readouterr().out


def test_replay_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A missing file or one that is not a record: a clear message, exit 1."""
    assert main(["replay", str(tmp_path / "missing.txt")]) == 1
    assert "cannot read" in capsys.readouterr().out
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n", encoding="utf-8")
    assert main(["replay", str(junk)]) == 1
    assert "not a euchre record" in capsys.readouterr().out
    binary = tmp_path / "binary.txt"
    binary.write_bytes(bytes([0x88, 0xFF, 0x00, 0x9C]))
    assert main(["replay", str(binary)]) == 1
    assert "not UTF-8 text" in capsys.readouterr().out
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "euchre-record", "hands": [{}]}', encoding="utf-8")
    assert main(["replay", str(broken)]) == 1
    assert "malformed JSON record" in capsys.readouterr().out


if __name__ == "__main__":
    SAMPLE.parent.mkdir(parents=True, exist_ok=True)
    SAMPLE.write_text(sample_record().to_text(), encoding="utf-8")
    print(f"wrote {SAMPLE}", file=sys.stderr)
