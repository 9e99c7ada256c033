"""Display names people choose, refused when they could pass for a seat or a computer.

The table shows computers as "North (hard)" and seats by their compass names, so a person
called "North (hard)", "Computer" or "East" could pass for one. Compared without case,
spaces or punctuation, and by their confusable skeletons (:mod:`.lookalike`: ``Nоrth``
with a Cyrillic о, ``C0mputer``), a name is refused when it is a seat name, a computer word
or a level, or ends in a level or computer word in brackets ("Ann (easy)", "Ann（hard）").
A name is kept in NFKC form, and refused when it stacks accents or mixes alphabets.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from ...bots import LEVELS
from ...hand import SEAT_NAMES
from .lookalike import MAX_MARKS_IN_A_ROW, lookalike_keys, mixes_scripts, scripts_of, too_many_marks

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


def _keys(text: str) -> set[str]:
    """``text`` without case, spaces or punctuation, read every way it looks."""
    return {_plain(k) for k in lookalike_keys(_plain(text))}


@cache
def _keys_of(words: frozenset[str]) -> frozenset[str]:
    return frozenset(k for w in words for k in _keys(w))


def check_display_name(name: str) -> str:
    """``name`` in NFKC form unless it could pass for a seat, a computer or another name
    (:class:`NameRefused`, saying why)."""
    name = unicodedata.normalize("NFKC", name)
    if too_many_marks(name):
        raise NameRefused(f"the name {name!r} stacks more than {MAX_MARKS_IN_A_ROW} accents "
                          "on one letter: choose another")
    bracket = _BRACKETED.search(name)
    words = re.split(r"[\s,;/]+", bracket.group(1)) if bracket else []
    inner = {k for w in words for k in _keys(w)}
    before = _keys(name[:bracket.start()]) if bracket else set()
    reserved = _keys_of(_RESERVED)
    if _keys(name) & reserved or before & reserved or inner & _keys_of(_MARKS):
        raise NameRefused(
            f"the name {name!r} could be taken for a seat or a computer player: "
            "choose another (not a seat name like North, not Computer, not a level in "
            "brackets)")
    if mixes_scripts(name):
        used = " and ".join(sorted(s.title() for s in scripts_of(name)))
        raise NameRefused(f"the name {name!r} mixes alphabets ({used}), so it can pass for "
                          "another name: write it in one")
    return name
