"""Words the pages build, run in Node on the modules themselves: the account page's
statistics line agrees with its table's "Games" row (one game is "your one finished game",
none says so), and a person coming back reads "You are back." for oneself."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "src" / "euchre" / "web" / "static"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

RUNNER = """
import { countedText } from %(stats)s;
import { presenceEventText, awayLine } from %(presence)s;
import { setSeatNames } from %(words)s;
const names = ["Ann", "Bob", "Cy", "Di"];
setSeatNames([0, 1, 2, 3].map((seat) => ({ seat, kind: "human", name: names[seat] })));
console.log(JSON.stringify({
  counted: [0, 1, 2, 200].map((n) => countedText(n)),
  unfinished: [countedText(0, 1), countedText(2, 3)],
  back: [presenceEventText({ kind: "back", seat: 0 }, 0),
         presenceEventText({ kind: "back", seat: 1 }, 0)],
  away: [presenceEventText({ kind: "away", seat: 0, ms_left: 60000 }, 0),
         awayLine([{ seat: 0, ends: 60000 }], 0, 0), awayLine([{ seat: 1, ends: 60000 }], 0, 0)],
}));
"""


def test_words() -> None:
    assert NODE is not None
    source = RUNNER % {
        "stats": json.dumps((STATIC / "account" / "person-stats.js").as_uri()),
        "presence": json.dumps((STATIC / "js" / "presence.js").as_uri()),
        "words": json.dumps((STATIC / "js" / "words.js").as_uri()),
    }
    done = subprocess.run([NODE, "--input-type=module", "-e", source], capture_output=True,
                          text=True, timeout=60, check=True)
    out = json.loads(done.stdout)
    assert out["counted"] == [
        "No finished games yet: the table fills in as you finish games.",
        "From your one finished game at every kind of table.",
        "From your 2 finished games at every kind of table.",
        "From your 200 finished games at every kind of table (the newest 200).",
    ]
    assert out["unfinished"] == [
        "No finished games yet: the table fills in as you finish games. One game that ended "
        "without a result (left or closed early) is not counted.",
        "From your 2 finished games at every kind of table. 3 games that ended without a "
        "result (left or closed early) are not counted.",
    ]
    assert out["back"] == ["You are back.", "Bob is back."]
    assert out["away"][0].startswith("You are away: a computer takes your seat")
    assert out["away"][1] == "You are away — 1:00"
    assert out["away"][2] == "Bob is away — 1:00"


ACTIONS = """
import { describeAction, setSeatNames } from %(words)s;
const names = ["Ann", "Bob", "Cy", "Di"];
setSeatNames([0, 1, 2, 3].map((seat) => ({ seat, kind: "human", name: names[seat] })));
const out = {};
for (const [key, view] of [["none", null], ["bare", { dealer: 0 }],
                           ["upcard", { dealer: 0, upcard: "9H" }]]) {
  try {
    out[key] = ["play JC", "order", "pass"].map((a) => describeAction(1, a, 0, view));
  } catch (e) {
    out[key] = String(e);
  }
}
console.log(JSON.stringify(out));
"""


def test_an_action_is_told_whatever_the_view_holds() -> None:
    # A view between hands holds no upcard: the log's lines were an uncaught TypeError
    # ("reading '0'") for every action of the hand, plays included.
    assert NODE is not None
    source = ACTIONS % {"words": json.dumps((STATIC / "js" / "words.js").as_uri())}
    done = subprocess.run([NODE, "--input-type=module", "-e", source], capture_output=True,
                          text=True, timeout=60, check=True)
    out = json.loads(done.stdout)
    assert out["upcard"][1] == "Bob orders up the Nine of Hearts.", out
    assert out["bare"][1] == "Bob orders up the upcard.", out
    assert out["none"][1] == "Bob orders up the upcard.", out
    assert out["bare"][0] == out["upcard"][0] and out["bare"][2] == "Bob passes.", out


TIMED_OUT = """
import { timedOutText, setSeatNames } from %(words)s;
const names = ["Ann", "Bob", "Cy", "Di"];
setSeatNames([0, 1, 2, 3].map((seat) => ({ seat, kind: "human", name: names[seat] })));
const view = { dealer: 0, upcard: "9H" };
console.log(JSON.stringify([
  timedOutText(1, "play JC", 0, view), timedOutText(1, "play", 0, view),
  timedOutText(0, "play", 0, view), timedOutText(1, "play", null, view)]));
"""


def test_a_move_the_clock_played_in_an_earlier_trick_reads_without_its_card() -> None:
    # A snapshot's clock_played can point at a play table law 11 now hides ("play"): a
    # reloaded page or a spectator joining then had the page's update throw.
    assert NODE is not None
    source = TIMED_OUT % {"words": json.dumps((STATIC / "js" / "words.js").as_uri())}
    done = subprocess.run([NODE, "--input-type=module", "-e", source], capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [
        "Time ran out for Bob: the table played the Jack of Clubs.",
        "Time ran out for Bob: the table played a card.",
        "Time ran out: the table played a card for you.",
        "Time ran out for Bob: the table played a card.",
    ]
