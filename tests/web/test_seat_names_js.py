"""One name per seat, run in Node on words.js itself: a computer is named by its real seat the
same for every viewer ("North (computer)" where other people sit, plain "North" at a practice
table), and a game's result reads the same for every seat from its own side ("You and Cy won"
for one side, "Ann and Cy won" for the other)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

WORDS = Path(__file__).resolve().parents[2] / "src/euchre/web/static/js/words.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

RUNNER = """
import { gameOverText, seatName, setSeatNames } from %(words)s;
const seen = (table) => {
  setSeatNames(table.map((name, seat) => name
    ? { seat, kind: "human", name } : { seat, kind: "bot", name: "x (easy)", level: "easy" }));
  return {
    names: [0, 1, 2, 3, null].map((me) => [0, 1, 2, 3].map((seat) => seatName(seat, me))),
    over: [0, 1, 2, 3, null].map((me) => gameOverText(0, [10, 7], me)),
  };
};
console.log(JSON.stringify({
  four: seen(["Ann", "Bob", "Cy", "Di"]),
  two: seen(["Ann", "Bob", null, null]),
  practice: seen(["Ann", null, null, null]),
}));
"""


def _run() -> dict[str, dict[str, list[Any]]]:
    assert NODE is not None
    done = subprocess.run([NODE, "--input-type=module", "-e",
                           RUNNER % {"words": json.dumps(WORDS.as_uri())}],
                          capture_output=True, text=True, timeout=60, check=True)
    out: dict[str, dict[str, list[Any]]] = json.loads(done.stdout)
    return out


def test_a_result_reads_the_same_for_all_four_from_their_side() -> None:
    over = _run()["four"]["over"]
    assert over == ["You and Cy won the game, 10 to 7.", "Ann and Cy won the game, 10 to 7.",
                    "You and Ann won the game, 10 to 7.", "Ann and Cy won the game, 10 to 7.",
                    "Ann and Cy won the game, 10 to 7."]


def test_a_computer_has_one_name_on_every_screen_where_people_meet() -> None:
    two = _run()["two"]
    others = [[name for seat, name in enumerate(row) if seat != me]
              for me, row in enumerate(two["names"][:2])]
    assert others == [["Bob", "North (computer)", "East (computer)"],
                      ["Ann", "North (computer)", "East (computer)"]]
    assert two["names"][4] == ["Ann", "Bob", "North (computer)", "East (computer)"]
    assert two["over"][:2] == ["You and North (computer) won the game, 10 to 7.",
                               "Ann and North (computer) won the game, 10 to 7."]


def test_a_practice_table_keeps_its_plain_compass_names() -> None:
    practice = _run()["practice"]
    assert practice["names"][0] == ["You", "West", "North", "East"]
    assert practice["over"][0] == "You won the game, 10 to 7."
