"""The worked example runs end to end (a few hands) and draws its curve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_env_policy.py"


def test_the_training_example_runs_and_writes_its_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve.png"
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--hands", "100", "--batch", "50", "--eval-every", "50",
         "--eval-hands", "20", "--out", str(out)],
        capture_output=True, text=True, timeout=240, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "points per hand" in done.stdout and "policy" in done.stdout
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
