"""Checking a verifiable shuffle: each hand's deal against its revealed seed and commitment.

A table deals each hand from ``deck_from_seed(seed)`` and publishes ``commitment(seed)``
(SHA-256) with the deal; the seed is revealed in the record once the hand is over.
:func:`verify_record` recomputes each seeded hand's deal, compares it with the recorded
deal, and, when the player kept the commitments (:func:`parse_commitments`), checks that
each seed hashes to the commitment published before the hand was played.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, card_text
from .hand import PATTERNS, Deal
from .record import GameRecord, HandRecord, ReplayError
from .shuffle import commitment, deal_from_deck, deck_from_seed, is_client_seed, mixed_seed

VERIFIED = "verified"
"""The deal came from the seed (and the seed matches any commitment kept)."""
FAILED = "failed"
"""A check failed: the deal is not the seed's, or the seed is not the one committed to."""
NO_SEED = "no seed"
"""The hand has no seed, so its shuffle cannot be checked."""

_HEX64 = re.compile(r"[0-9a-f]{64}")


class CommitmentsError(ValueError):
    """Raised when a commitments file cannot be read; the message names the line."""


@dataclass(frozen=True)
class HandCheck:
    """The verdict on one hand."""

    number: int
    """The hand number, from 1."""
    status: str
    """:data:`VERIFIED`, :data:`FAILED` or :data:`NO_SEED`."""
    problems: tuple[str, ...] = ()
    """Why the hand failed, one sentence each."""
    committed: bool = False
    """Whether a kept commitment was checked against the seed."""

    def describe(self) -> str:
        """One line for people: ``hand 3: verified (the seed matches the commitment)``."""
        if self.status == FAILED:
            return f"hand {self.number}: FAILED: " + "; ".join(self.problems)
        if self.status == NO_SEED:
            return f"hand {self.number}: no seed in the record, so the shuffle cannot be checked"
        how = ("the seed matches the commitment" if self.committed
               else "no commitment kept to check the seed against")
        return f"hand {self.number}: verified: the deal comes from its seed ({how})"


@dataclass(frozen=True)
class Report:
    """The verdict on a whole record."""

    hands: tuple[HandCheck, ...]
    """One check per hand of the record."""
    replay_error: str | None = None
    """Why the record's actions do not replay, if they do not."""
    unmatched: tuple[int, ...] = ()
    """Hand numbers with a kept commitment but no such hand in the record."""
    notes: tuple[str, ...] = field(default=())
    """Further remarks (strict mode's missing commitments)."""

    @property
    def verified(self) -> int:
        """How many hands were verified."""
        return sum(1 for h in self.hands if h.status == VERIFIED)

    @property
    def failed(self) -> int:
        """How many hands failed."""
        return sum(1 for h in self.hands if h.status == FAILED)

    @property
    def unseeded(self) -> int:
        """How many hands carry no seed."""
        return sum(1 for h in self.hands if h.status == NO_SEED)

    @property
    def ok(self) -> bool:
        """True when at least one hand was verified, none failed, and the record replays."""
        return self.verified > 0 and self.failed == 0 and self.replay_error is None

    def lines(self) -> list[str]:
        """The report for people, one line per hand and a last line with the totals."""
        out = [h.describe() for h in self.hands]
        out.extend(f"hand {n}: a commitment was kept but the record has no such hand"
                   for n in self.unmatched)
        out.append(f"play: the actions do not replay: {self.replay_error}" if self.replay_error
                   else "play: every action replays legally")
        out.extend(self.notes)
        verdict = "OK" if self.ok else "NOT VERIFIED"
        if self.verified == 0 and self.failed == 0:
            verdict += " (no hand carries a seed: nothing was checked)"
        out.append(f"{verdict}: {self.verified} of {len(self.hands)} hands verified, "
                   f"{self.failed} failed, {self.unseeded} without a seed")
        return out

    def to_json(self) -> dict[str, Any]:
        """The report as a JSON-ready dict."""
        return {
            "ok": self.ok,
            "hands": [{"hand": h.number, "status": h.status, "committed": h.committed,
                       "problems": list(h.problems)} for h in self.hands],
            "replay_error": self.replay_error,
            "unmatched_commitments": list(self.unmatched),
            "notes": list(self.notes),
            "verified": self.verified,
            "failed": self.failed,
            "without_seed": self.unseeded,
        }


def check_hand(number: int, hand: HandRecord, benny: bool,
               committed: tuple[str, ...] = (), sent: dict[int, str] | None = None) -> HandCheck:
    """Check one hand: its deal against its seeds, its seed against commitments, and the seeds
    a player kept as sent (``sent``: seat -> seed) against those mixed in."""
    if not hand.seed:
        if committed:
            return HandCheck(number, FAILED, ("a commitment was published for this hand but the "
                                              "record reveals no seed",))
        return HandCheck(number, NO_SEED)
    problems = _deal_problems(hand, benny)
    for seat, seed in sorted(hand.client_seeds.items()):
        if not is_client_seed(seed):
            problems.append(f"seat {seat}'s client seed {seed!r} is not 16 to 128 hex digits")
    for seat, seed in sorted((sent or {}).items()):
        mixed = hand.client_seeds.get(seat)
        if mixed != seed:
            problems.append(f"seat {seat} sent the seed {seed[:16]}… for this hand, but "
                            + (f"{mixed[:16]}… was mixed in" if mixed else "none was mixed in"))
    if len(committed) > 1:
        problems.append(f"{len(committed)} different commitments were published for this hand: "
                        + ", ".join(committed))
    elif committed and commitment(hand.seed) != committed[0]:
        problems.append(f"the seed does not match the commitment published with the deal: "
                        f"sha256(seed) is {commitment(hand.seed)}, the commitment was "
                        f"{committed[0]}")
    return HandCheck(number, FAILED if problems else VERIFIED, tuple(problems), bool(committed))


def _deal_problems(hand: HandRecord, benny: bool) -> list[str]:
    assert hand.seed is not None
    deal = hand.deal
    if deal.pattern not in PATTERNS:
        return [f"unknown dealing pattern {deal.pattern!r}"]
    want = deal_of_seed(mixed_seed(hand.seed, hand.client_seeds), hand.dealer, benny,
                        deal.pattern)
    if want == deal:
        return []
    out = []
    for seat in range(4):
        got, should = _at(deal.hands, seat), want.hands[seat]
        if got != should:
            out.append(_difference(f"seat {seat} was dealt", got, should))
    if deal.kitty != want.kitty:
        out.append(_difference("the kitty is", deal.kitty, want.kitty))
    what = "its seed" if not hand.client_seeds else "its seed mixed with the players' seeds"
    return [f"the deal does not come from {what}: {'; '.join(out)}"]


def _at(hands: tuple[tuple[Card, ...], ...], seat: int) -> tuple[Card, ...]:
    return hands[seat] if seat < len(hands) else ()


def _difference(what: str, got: tuple[Card, ...], should: tuple[Card, ...]) -> str:
    def text(cards: tuple[Card, ...]) -> str:
        return " ".join(card_text(c) for c in cards) or "nothing"

    if sorted(got) == sorted(should):
        return f"{what} {text(got)}, the seed deals the same cards in the order {text(should)}"
    return f"{what} {text(got)}, the seed deals {text(should)}"


def verify_record(record: GameRecord, commitments: dict[int, tuple[str, ...]] | None = None,
                  strict: bool = False, sent: dict[int, dict[int, str]] | None = None) -> Report:
    """Check every hand of a record; ``strict`` also fails seeded hands with no kept commitment;
    ``sent`` (hand -> seat -> seed, :func:`parse_sent_seeds`) must be the seeds mixed in."""
    kept = commitments or {}
    checks = []
    notes = []
    for number, hand in enumerate(record.hands, 1):
        check = check_hand(number, hand, record.rules.benny, kept.get(number, ()),
                           (sent or {}).get(number))
        if strict and check.status != FAILED and not check.committed:
            why = "no commitment was kept" if check.status == VERIFIED else "no seed"
            check = HandCheck(number, FAILED, (f"strict: {why}",))
        checks.append(check)
    if strict and not record.hands:
        notes.append("strict: the record has no hands")
    try:
        record.replay()
        replay_error = None
    except ReplayError as e:
        replay_error = str(e)
    unmatched = tuple(sorted(n for n in kept if n > len(record.hands)))
    return Report(tuple(checks), replay_error, unmatched, tuple(notes))


def deal_of_seed(seed: str, dealer: int, benny: bool = False, pattern: str = "3-2") -> Deal:
    """The deal a seed gives: ``deal_from_deck(deck_from_seed(seed, benny), dealer, pattern)``."""
    return deal_from_deck(deck_from_seed(seed, benny), dealer, pattern)


# -- commitments kept by a player -------------------------------------------------------------


def parse_commitments(text: str) -> dict[int, tuple[str, ...]]:
    """Read kept commitments: hand number -> the distinct commitments seen for it.

    Accepted: text lines ``HEX``, ``N HEX`` or ``hand N HEX`` (``#`` comments; a bare
    ``HEX`` is the hand after the previous line's); a JSON list of hex strings (hand 1
    first); a JSON object ``{"1": HEX, ...}``; or the server's messages as saved by a
    client, one JSON document or one per line, where every object holding both
    ``hand_number`` and a ``commitment`` string counts (``deal`` events, table snapshots),
    also inside strings of JSON (a browser's HAR file keeps socket messages as text).
    """
    found: dict[int, list[str]] = {}
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        for doc in _json_documents(text):
            _collect_json(doc, found)
    else:
        _collect_text(text, found)
    return {n: tuple(cs) for n, cs in sorted(found.items())}


def _add(found: dict[int, list[str]], number: int, value: str, where: str) -> None:
    hexed = value.strip().lower()
    if not _HEX64.fullmatch(hexed):
        raise CommitmentsError(f"{where}: not a SHA-256 commitment (64 hex digits): {value!r}")
    if number < 1:
        raise CommitmentsError(f"{where}: hand numbers start at 1, not {number}")
    seen = found.setdefault(number, [])
    if hexed not in seen:
        seen.append(hexed)


def parse_sent_seeds(text: str) -> dict[int, dict[int, str]]:
    """The seeds a player kept as sent, from ``seed N SEAT HEX`` lines of a commitments file
    (hand -> seat -> seed); other lines are ignored. Raises :class:`CommitmentsError`."""
    out: dict[int, dict[int, str]] = {}
    if text.lstrip().startswith(("{", "[")):
        return out
    for index, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words or words[0].lower() != "seed":
            continue
        if len(words) != 4 or not words[1].isdigit() or words[2] not in ("0", "1", "2", "3") \
                or not is_client_seed(words[3].lower()):
            raise CommitmentsError(f"line {index}: expected 'seed N SEAT HEX' (SEAT 0-3, 16 to "
                                   f"128 hex digits), not {raw.strip()!r}")
        out.setdefault(int(words[1]), {})[int(words[2])] = words[3].lower()
    return out


def _collect_text(text: str, found: dict[int, list[str]]) -> None:
    number = 0
    for index, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words or words[0].lower() == "seed":  # a seed sent: parse_sent_seeds
            continue
        if words[0].lower() == "hand":
            words = words[1:]
        if len(words) == 1:
            number += 1
        elif len(words) == 2 and words[0].isdigit():
            number = int(words[0])
        else:
            raise CommitmentsError(f"line {index}: expected 'HEX', 'N HEX' or 'hand N HEX', "
                                   f"not {raw.strip()!r}")
        _add(found, number, words[-1], f"line {index}")


def _json_documents(text: str) -> list[Any]:
    try:
        return [json.loads(text)]
    except ValueError:
        pass
    docs = []
    for index, raw in enumerate(text.splitlines(), 1):
        if raw.strip():
            try:
                docs.append(json.loads(raw))
            except ValueError as e:
                raise CommitmentsError(f"line {index}: not JSON: {e}") from None
    return docs


def _collect_json(doc: Any, found: dict[int, list[str]]) -> None:
    if isinstance(doc, list) and doc and all(isinstance(x, str) for x in doc):
        for i, value in enumerate(doc, 1):
            _add(found, i, value, f"item {i}")
        return
    if isinstance(doc, dict) and doc and all(
        isinstance(k, str) and k.isdigit() and isinstance(v, str) for k, v in doc.items()
    ):
        for key, value in doc.items():
            _add(found, int(key), value, f"hand {key}")
        return
    _walk(doc, found)


def _walk(obj: Any, found: dict[int, list[str]]) -> None:
    if isinstance(obj, dict):
        number, value = obj.get("hand_number"), obj.get("commitment")
        if isinstance(number, int) and not isinstance(number, bool) and isinstance(value, str):
            _add(found, number, value, f"hand_number {number}")
        for child in obj.values():
            _walk(child, found)
    elif isinstance(obj, list):
        for child in obj:
            _walk(child, found)
    elif isinstance(obj, str) and obj.startswith("{") and "commitment" in obj:
        try:  # a message saved as text inside another document (a browser's HAR file)
            inner = json.loads(obj)
        except ValueError:
            return
        _walk(inner, found)
