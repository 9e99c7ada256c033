"""Names that look alike: Unicode's confusable skeletons (UTS #39), scripts and marks.

Two names that a reader cannot tell apart (``North`` and ``Nоrth`` with a Cyrillic о,
``C0mputer`` and ``Computer``) must be treated as one. The confusable data is Unicode's
``confusables.txt`` as the maintained ``confusable-homoglyphs`` package ships it (its
``confusables.json``): each source character listed with its prototype, and each prototype
with its sources. Every prototype and its sources make one class; :func:`skeleton` writes
each character as its class's representative (the multi-character prototype when there is
one, so ``m`` reads as ``rn``; else the smallest ASCII member, else the smallest), as UTS
#39's skeleton does, and :func:`lookalike_keys` adds the upper- and lower-case readings so
that ``0`` meets ``o`` as it meets ``O``.

Besides, a name is refused when it holds more than :data:`MAX_MARKS_IN_A_ROW` combining
marks on one letter (stacked accents that draw over the row above), or mixes scripts
beyond what one language writes (UTS #39's "highly restrictive" level: one script, or
Latin with Han and the Japanese or Korean scripts).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories, confusables

MAX_MARKS_IN_A_ROW = 2
"""Combining marks allowed on one character (after NFKC, which composes the usual accents)."""

_NEUTRAL = frozenset({"COMMON", "INHERITED", "Unknown"})
"""Script aliases shared by every script (digits, punctuation, marks)."""

_TOGETHER = (frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
             frozenset({"LATIN", "HAN", "BOPOMOFO"}),
             frozenset({"LATIN", "HAN", "HANGUL"}))
"""Scripts one name may mix (UTS #39, highly restrictive)."""

_STRIP = "\u200e\u200f"  # the data's direction marks around right-to-left entries


@cache
def _representatives() -> dict[str, str]:
    """Each confusable character's class representative (built once, on first use)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    for key, entries in data.items():
        a = key.strip(_STRIP)
        for entry in entries:
            b = entry["c"].strip(_STRIP)
            if a and b:
                parent[find(a)] = find(b)
    members: dict[str, list[str]] = {}
    for node in list(parent):
        members.setdefault(find(node), []).append(node)
    out: dict[str, str] = {}
    for group in members.values():
        longer = sorted(n for n in group if len(n) > 1)
        ascii_ = sorted(n for n in group if n.isascii())
        chosen = longer[0] if longer else (ascii_ or sorted(group))[0]
        for node in group:
            if len(node) == 1:
                out[node] = chosen
    return out


def prepare() -> None:
    """Build the confusable classes now (about 0.4 s, once a process) rather than in the
    first request that checks a name."""
    _representatives()


def skeleton(text: str) -> str:
    """``text``'s confusable skeleton: NFKC, then each character as its class's
    representative (UTS #39 ``skeleton``, with NFKC for NFD)."""
    reps = _representatives()
    folded = unicodedata.normalize("NFKC", text)
    return unicodedata.normalize("NFC", "".join(reps.get(c, c) for c in folded))


def lookalike_keys(text: str) -> frozenset[str]:
    """The skeletons of ``text`` as written, in upper and in lower case: two names that
    share one look alike."""
    folded = unicodedata.normalize("NFKC", text)
    return frozenset({skeleton(folded), skeleton(folded.upper()),
                      skeleton(folded.casefold()), skeleton(skeleton(folded).casefold())})


def too_many_marks(text: str) -> bool:
    """Whether some character of ``text`` (NFKC) carries more than
    :data:`MAX_MARKS_IN_A_ROW` combining marks."""
    run = 0
    for c in unicodedata.normalize("NFKC", text):
        run = run + 1 if unicodedata.category(c).startswith("M") else 0
        if run > MAX_MARKS_IN_A_ROW:
            return True
    return False


def scripts_of(text: str) -> frozenset[str]:
    """The scripts ``text`` is written in (digits, punctuation and marks belong to all)."""
    found = {categories.alias(c) for c in unicodedata.normalize("NFKC", text)}
    return frozenset(found - _NEUTRAL)


def mixes_scripts(text: str) -> bool:
    """Whether ``text`` mixes scripts beyond what one language writes."""
    used = scripts_of(text)
    return len(used) > 1 and not any(used <= allowed for allowed in _TOGETHER)
