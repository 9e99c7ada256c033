"""Play a whole game of euchre by driving ``euchre engine`` over a pipe.

The engine speaks JSON lines on stdin/stdout (docs/engine_protocol.md); this client sends one
request per line and reads one response per line, as a program in any language would.

    python examples/drive_engine.py --level random --seed 7
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any


class Engine:
    """A running ``euchre engine`` process."""

    def __init__(self, command: list[str]) -> None:
        """Start the engine process."""
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.next_id = 0

    def ask(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one request and return its response; raise if the engine refused it."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, **fields}) + "\n")
        self.proc.stdin.flush()
        response: dict[str, Any] = json.loads(self.proc.stdout.readline())
        if response.get("id") != self.next_id or not response["ok"]:
            raise RuntimeError(f"{cmd} refused: {response}")
        return response

    def close(self) -> int:
        """Say goodbye and wait for the process to end."""
        self.ask("quit")
        return self.proc.wait(timeout=30)


def play(engine: Engine, level: str, seed: int, preset: str) -> dict[str, Any]:
    """Play one game with the engine's bots in all four seats; return the final state."""
    engine.ask("new_game", preset=preset, first_dealer=seed % 4, seed=seed)
    while True:
        legal = engine.ask("legal")
        if legal["game_over"]:
            break
        if legal["needs_deal"]:
            dealt = engine.ask("deal")
            print(f"hand {dealt['hand_number']}: seat {dealt['dealer']} deals, "
                  f"upcard {dealt['upcard']}, commitment {dealt['commitment'][:12]}…")
            continue
        result = engine.ask("bot", level=level, apply=True)
        if result["hand_over"]:
            print(f"  points {result['points']}, score {result['score']}")
    state: dict[str, Any] = engine.ask("state")["state"]
    return state


def main(argv: list[str] | None = None) -> int:
    """Start the engine, play a game, print the winner."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="random", help="bot level for all four seats")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed")
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--record", metavar="FILE", help="save the game's record here")
    parser.add_argument("--engine", default=f"{sys.executable} -m euchre.cli engine",
                        help="the command that starts the engine")
    args = parser.parse_args(argv)
    engine = Engine(args.engine.split())
    try:
        state = play(engine, args.level, args.seed, args.preset)
        if args.record:
            with open(args.record, "w", encoding="utf-8") as f:
                f.write(engine.ask("record", format="text")["record"])
    finally:
        code = engine.close()
    sides = ("South & North", "West & East")
    print(f"final score {state['score'][0]}-{state['score'][1]}: "
          f"{sides[state['winner']]} win")
    return code


if __name__ == "__main__":
    sys.exit(main())
