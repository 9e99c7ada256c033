"""Display names people choose, refused when they could pass for a seat or a computer.

The table shows computers as "North (hard)" and seats by their compass names, so a person
called "North (hard)", "Computer" or "East" could pass for one. Compared without case,
spaces or punctuation, a name is refused when it is a seat name, a computer word or a level,
or ends in a level or computer word in brackets ("Ann (easy)").
"""

from __future__ import annotations

import re

from ..bots import LEVELS
from ..hand import SEAT_NAMES

COMPUTER_WORDS = frozenset({"computer", "bot", "robot", "cpu", "ai", "dealer", "nobody",
                            "empty", "free", "open"})
"""Words the table uses, or could, for a seat nobody holds or a computer holds."""

_RESERVED = (frozenset(n.lower() for n in SEAT_NAMES) | COMPUTER_WORDS
             | frozenset(LEVELS) | frozenset(f"{w}{n}" for w in ("", "the") for n in
                                             (s.lower() for s in SEAT_NAMES)))
_MARKS = COMPUTER_WORDS | frozenset(LEVELS)
_BRACKETED = re.compile(r"[(\[{<]\s*([^)\]}>]*?)\s*[)\]}>]\s*$")


class NameRefused(ValueError):
    """A display name that could pass for a seat or a computer; the message says why."""


def _plain(text: str) -> str:
    return re.sub(r"[\W_]+", "", text.casefold())


def check_display_name(name: str) -> str:
    """``name`` unless it could pass for a seat or a computer (:class:`NameRefused`)."""
    plain = _plain(name)
    bracket = _BRACKETED.search(name)
    inner = {_plain(w) for w in re.split(r"[\s,;/]+", bracket.group(1))} if bracket else set()
    before = _plain(name[:bracket.start()]) if bracket else plain
    if plain in _RESERVED or before in _RESERVED or inner & _MARKS:
        raise NameRefused(
            f"the name {name!r} could be taken for a seat or a computer player: "
            "choose another (not a seat name like North, not Computer, not a level in "
            "brackets)")
    return name
