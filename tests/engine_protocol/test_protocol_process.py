"""``euchre engine`` as a process: the stdin/stdout loop, and the example client."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from euchre.cli.engine import serve
from euchre.record import load
from euchre.verify import verify_record

ROOT = Path(__file__).resolve().parents[2]


def run_lines(data: bytes) -> tuple[int, list[dict[str, object]]]:
    """Feed bytes to the loop; return its exit status and the response objects."""
    out = io.StringIO()
    status = serve(io.BytesIO(data), out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def test_one_response_per_request_until_the_end_of_input() -> None:
    status, responses = run_lines(
        b'{"id": 1, "cmd": "new_game"}\n\n{"id": 2, "cmd": "deal"}\n{"id": 3, "cmd": "legal"}'
    )
    assert status == 0
    assert [r["id"] for r in responses] == [1, 2, 3]
    assert all(r["ok"] for r in responses)


def test_quit_stops_reading() -> None:
    status, responses = run_lines(b'{"cmd": "quit"}\n{"cmd": "info"}\n')
    assert status == 0 and responses == [{"ok": True, "cmd": "quit", "bye": True}]


def test_bytes_that_are_not_utf8_get_an_error_and_the_loop_goes_on() -> None:
    _, responses = run_lines(b'\xff\xfe{"cmd"\n{"id": 2, "cmd": "info"}\n')
    assert responses[0]["ok"] is False and responses[0]["code"] == "bad_json"
    assert "UTF-8" in str(responses[0]["error"])
    assert responses[1]["id"] == 2 and responses[1]["ok"]


def test_the_example_client_plays_a_whole_game_through_a_pipe(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "drive_engine.py"), "--level", "random",
         "--seed", "11", "--record", str(record)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("final score ") and last.endswith(" win")
    game = load(str(record)).replay()
    assert game.is_over
    assert f"{game.score[0]}-{game.score[1]}" in last
    report = verify_record(load(str(record)))
    assert report.ok and report.verified == len(game.all_hands())
