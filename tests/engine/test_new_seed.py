"""A table's secret seeds: 64 hex digits each, drawn from the operating system's secure
generator many at a time, never handed out twice (not across a refill, not to a forked
child), and the deck a seed deals never changes (a fixed seed deals the deck it always did)."""

from __future__ import annotations

import multiprocessing
import re

import pytest

from euchre import shuffle
from euchre.cards import card_text
from euchre.shuffle import deck_from_seed, new_seed


def test_seeds_are_64_hex_digits_and_never_repeat_across_refills() -> None:
    seeds = [new_seed() for _ in range(5 * shuffle._SEEDS_AT_ONCE + 3)]
    assert all(re.fullmatch(r"[0-9a-f]{64}", s) for s in seeds)
    assert len(set(seeds)) == len(seeds)


def test_the_seeds_come_from_the_os_secure_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    shuffle._drawn.clear()
    asked: list[int] = []

    def urandom(n: int) -> bytes:
        asked.append(n)
        return bytes(range(256)) * (n // 256) + bytes(n % 256)

    monkeypatch.setattr(shuffle.os, "urandom", urandom)
    first = [new_seed() for _ in range(shuffle._SEEDS_AT_ONCE)]
    assert asked == [32 * shuffle._SEEDS_AT_ONCE]  # one draw for them all
    assert first[0] == bytes(range(32)).hex()  # the first 32 bytes drawn
    assert sorted(first) == sorted(bytes(range(256)).hex()[i:i + 64] for i in range(0, 512, 64)
                                   for _ in range(shuffle._SEEDS_AT_ONCE // 8))
    new_seed()
    assert len(asked) == 2  # used up: drawn again
    shuffle._drawn.clear()


def _child_seed(out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    out.put(new_seed())


def test_a_forked_child_never_gets_its_parents_next_seed() -> None:
    new_seed()  # the parent holds seeds drawn but not handed out
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_child_seed, args=(out,))
    child.start()
    theirs = out.get(timeout=60)
    child.join(timeout=60)
    assert theirs != new_seed()


def test_a_fixed_seed_deals_the_deck_it_always_did() -> None:
    """Known answers (from the shuffle before its hashing was made cheaper)."""
    assert " ".join(card_text(c) for c in deck_from_seed("ab" * 32)) == (
        "9H JS TS KD TH QH TC QC QD KH JH TD JC AH 9C 9D QS AD AC KC JD KS 9S AS")
    assert " ".join(card_text(c) for c in deck_from_seed("server-0", True)) == (
        "9S JK TD TC JD TH KH AD AC JS KC 9H JH 9C QC 9D KD AS QS QD TS KS AH JC QH")
