"""A test program for ``euchre bot connect``: logs every request it gets (one JSON line each,
to the file named first), answers each new turn with a move that is no move at all, and only
when told it was refused, the first legal action."""

from __future__ import annotations

import json
import sys


def main() -> int:
    """Answer until ``quit``."""
    with open(sys.argv[1], "a", encoding="utf-8") as log:
        for line in sys.stdin:
            request = json.loads(line)
            log.write(line if line.endswith("\n") else line + "\n")
            log.flush()
            answer = {"id": request["id"], "ok": True, "cmd": request["cmd"]}
            if request["cmd"] == "bot":
                legal = request["view"]["legal"]
                answer.update(seat=request["seat"],
                              action=legal[0] if "refused" in request else "dance a jig")
            print(json.dumps(answer), flush=True)
            if request["cmd"] == "quit":
                break
    return 0


if __name__ == "__main__":
    sys.exit(main())
