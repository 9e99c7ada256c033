"""A game's record as stored: a base (the record as JSON, written whole now and then) and
the lines appended since, one row each.

A table saves after every move. Writing the whole record each time would make a move's
cost grow with the game, so a save carries only the record's lines added since the last
save (:class:`RecordTail`, in the text format of :mod:`euchre.record`: ``hand 3``,
``dealer 2``, ``0 play QH``, ``result 1 0`` ...). A store keeps the base, the lines, and
how many of the lines count (a save that starts at line ``n`` makes every line from ``n``
on its own, so lines left by a save the table undid are never read). Reading a game folds
the lines into the base: :func:`fold_lines`. The state is still derived by replaying the
record; the base is only a starting point.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import parse_action


@dataclass(slots=True)
class RecordTail:
    """The record's lines from ``start`` on (counted after the base); read-only by
    convention (not frozen: one is made for every save, and a plain ``__init__`` is
    several times cheaper)."""

    start: int
    """The index of the first line (lines before it are stored already)."""
    lines: tuple[str, ...]
    """The lines, in the text format of :mod:`euchre.record`."""

    @property
    def end(self) -> int:
        """How many lines the journal holds once this is written."""
        return self.start + len(self.lines)

    def then(self, later: RecordTail) -> RecordTail:
        """This tail followed by ``later`` (written after it): one tail that writes both."""
        if later.start <= self.start:
            return later
        if later.start > self.end:
            raise ValueError(f"journal lines {self.end} to {later.start - 1} are missing")
        return RecordTail(self.start, self.lines[:later.start - self.start] + later.lines)


def fold_lines(base: dict[str, Any], lines: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """The record (as :meth:`GameRecord.to_json` gives it) of ``base`` with ``lines``
    appended; ``base`` is not changed. Raises ValueError on a line it cannot read."""
    if not lines:
        return base
    record = {**base, "hands": [dict(h, actions=list(h.get("actions", [])))
                                for h in base.get("hands", [])]}
    hands: list[dict[str, Any]] = record["hands"]
    for line in lines:
        word, _, rest = line.partition(" ")
        if word == "hand":
            hands.append({"dealer": 0, "pattern": "3-2", "hands": [], "kitty": [],
                          "actions": [], "result": None})
            continue
        if word == "end":
            a, b = rest.split()
            record["final"] = [int(a), int(b)]
            continue
        if not hands:
            raise ValueError(f"journal line before any hand: {line!r}")
        hand = hands[-1]
        if word == "dealer":
            hand["dealer"] = int(rest)
        elif word == "deal":
            hand["pattern"] = rest
        elif word == "hands":
            hand["hands"] = [part.split() for part in rest.split("|")]
        elif word == "kitty":
            hand["kitty"] = rest.split()
        elif word == "seed":
            hand["seed"] = rest
        elif word == "client_seeds":
            hand["client_seeds"] = dict(pair.split(":", 1) for pair in rest.split())
        elif word == "result":
            a, b = rest.split()
            hand["result"] = [int(a), int(b)]
        elif word == "renege":
            hand["actions"].append([parse_action(line).by, line])
        elif word in ("0", "1", "2", "3"):
            hand["actions"].append([int(word), rest])
        else:
            raise ValueError(f"unknown journal line: {line!r}")
    return record
