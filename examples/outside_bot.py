"""A tiny outside bot: plays a seat at a real table through ``euchre bot connect``.

The bridge sends one JSON request per line on stdin (the ``euchre engine`` framing, see
docs/outside_bots.md) and reads one answer per line on stdout. At each turn the request
carries the seat's view (only its own cards); this bot answers with one of ``view.legal``:
it orders up or calls with three or more trumps, leads its highest card, follows with its
lowest, and otherwise picks at random (seeded by ``--seed``).

    euchre bot connect http://127.0.0.1:8000/online/TABLE_ID eb_... -- \\
        python examples/outside_bot.py --seed 7
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

RANKS = "9TJQKA"
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def trumps(hand: list[str], suit: str) -> int:
    """How many of ``hand`` are trump if ``suit`` is named (both bowers count)."""
    return sum(c[1] == suit or c == "J" + SAME_COLOUR[suit] or c == "JK" for c in hand)


def strength(card: str) -> int:
    """A rough order of cards for leading and following (not trump-aware: a tiny bot)."""
    return 10 if card == "JK" else RANKS.index(card[0])


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """One of ``view["legal"]``."""
    legal: list[str] = view["legal"]
    hand: list[str] = view.get("hand") or []
    upcard = view.get("upcard")
    if "order" in legal and upcard and trumps(hand, upcard[1]) >= 3:
        return "order"
    calls = [a for a in legal if a.startswith("call ") and not a.endswith("alone")]
    best = max(calls, key=lambda a: trumps(hand, a.split()[1]), default=None)
    if best is not None and (trumps(hand, best.split()[1]) >= 3 or "pass" not in legal):
        return best
    if "pass" in legal:
        return "pass"
    plays = [a for a in legal if a.startswith("play ")]
    if plays:
        leading = not view.get("trick")
        pick = max if leading else min
        return pick(plays, key=lambda a: strength(a.split()[1]))
    return rng.choice(legal)


def main() -> int:
    """Answer requests until ``quit`` or the end of input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=None)
    rng = random.Random(parser.parse_args().seed)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        answer: dict[str, Any] = {"id": request.get("id"), "ok": True, "cmd": request["cmd"]}
        if request["cmd"] == "bot":
            answer.update(seat=request["seat"], action=choose(request["view"], rng))
        elif request["cmd"] == "quit":
            answer["bye"] = True
        else:
            answer = {"id": request.get("id"), "ok": False, "code": "unknown_command",
                      "error": f"this bot only answers bot and quit, not {request['cmd']!r}",
                      "cmd": request["cmd"]}
        print(json.dumps(answer), flush=True)
        if request["cmd"] == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
