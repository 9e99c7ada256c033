"""``euchre verify RECORD``: a verdict per hand, exit 0 only when the checks pass."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from test_verify_shuffle import commitments_of, seeded_game

from euchre.cli import main
from euchre.record import GameRecord


def write(tmp_path: Path, name: str, text: str) -> str:
    """A file in the test's directory."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def kept_file(tmp_path: Path, record: GameRecord) -> str:
    """The commitments a player kept, one ``N HEX`` line per hand."""
    lines = [f"{n} {c[0]}" for n, c in commitments_of(record).items()]
    return write(tmp_path, "kept.txt", "\n".join(lines) + "\n")


def test_a_genuine_record_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = seeded_game()
    path = write(tmp_path, "game.txt", record.to_text())
    assert main(["verify", path, "--commitments", kept_file(tmp_path, record)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hand 1: verified: the deal comes from its seed (the seed matches the " \
                     "commitment)"
    assert out[-2] == "play: every action replays legally"
    assert out[-1] == f"OK: {len(record.hands)} of {len(record.hands)} hands verified, " \
                      "0 failed, 0 without a seed"


def test_a_json_record_and_a_json_report(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    record = seeded_game(preset="benny")
    path = write(tmp_path, "game.json", json.dumps(record.to_json()))
    assert main(["verify", path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["verified"] == len(record.hands)
    assert report["hands"][0] == {"hand": 1, "status": "verified", "committed": False,
                                  "problems": []}


def test_a_tampered_seed_exits_1_with_the_reason(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    record = seeded_game()
    kept = kept_file(tmp_path, record)
    text = record.to_text().replace("seed g:2\n", "seed g:3\n")
    assert main(["verify", write(tmp_path, "game.txt", text), "--commitments", kept]) == 1
    out = capsys.readouterr().out
    assert "hand 2: FAILED: the deal does not come from its seed: seat" in out
    assert "the seed does not match the commitment published with the deal" in out
    assert "NOT VERIFIED" in out.splitlines()[-1]


def test_a_tampered_deal_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = seeded_game()
    lines = record.to_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("hands "))
    cards = lines[at].split()
    cards[1], cards[-1] = cards[-1], cards[1]  # seat 0's first card <-> seat 3's last
    lines[at] = " ".join(cards)
    assert main(["verify", write(tmp_path, "game.txt", "\n".join(lines) + "\n")]) == 1
    out = capsys.readouterr().out
    assert "hand 1: FAILED: the deal does not come from its seed: seat 0 was dealt" in out


def test_no_seed_anywhere_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sample = Path(__file__).resolve().parents[2] / "docs" / "examples" / "sample-game.txt"
    assert main(["verify", str(sample)]) == 1
    out = capsys.readouterr().out
    assert "hand 1: no seed in the record, so the shuffle cannot be checked" in out
    assert "nothing was checked" in out


@pytest.mark.parametrize(
    ("record_text", "kept_text", "words"),
    [
        ("not a record\n", None, "cannot read"),
        (None, "hand 1 2 3\n", "line 1: expected"),
    ],
)
def test_unreadable_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 record_text: str | None, kept_text: str | None,
                                 words: str) -> None:
    path = write(tmp_path, "game.txt", record_text or seeded_game().to_text())
    args = ["verify", path]
    if kept_text is not None:
        args += ["--commitments", write(tmp_path, "kept.txt", kept_text)]
    assert main(args) == 2
    assert words in capsys.readouterr().out


def test_missing_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", str(tmp_path / "nope.txt")]) == 2
    path = write(tmp_path, "game.txt", seeded_game().to_text())
    assert main(["verify", path, "--commitments", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().out.count("cannot read") == 2


def test_strict_fails_without_commitments(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "game.txt", seeded_game().to_text())
    assert main(["verify", path, "--strict"]) == 1
    assert "strict: no commitment was kept" in capsys.readouterr().out


def test_the_record_can_come_from_stdin(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    record = seeded_game()
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record.to_json())))
    assert main(["verify", "-"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("OK: ")
