"""Confusable skeletons (UTS #39, from Unicode's data as confusable-homoglyphs ships it),
marks and scripts (:mod:`euchre.table.kinds.lookalike`)."""

from __future__ import annotations

import pytest

from euchre.table.kinds.lookalike import (
    lookalike_keys,
    mixes_scripts,
    scripts_of,
    skeleton,
    too_many_marks,
)


@pytest.mark.parametrize(("a", "b"), [
    ("North", "Nоrth"),  # Cyrillic о
    ("Computer", "C0mputer"), ("Computer", "Cοmputer"),  # Greek ο
    ("Ann", "Аnn"), ("Bill", "BiII"), ("mary", "rnary"), ("Bob", "Ｂｏｂ"), ("Bob", "𝐁𝐨𝐛"),
])
def test_look_alikes_share_a_key(a: str, b: str) -> None:
    assert lookalike_keys(a) & lookalike_keys(b)


@pytest.mark.parametrize(("a", "b"), [("Ann", "Anne"), ("Bob", "Rob"), ("North", "Norths")])
def test_different_names_share_none(a: str, b: str) -> None:
    assert not lookalike_keys(a) & lookalike_keys(b)


def test_the_skeleton_is_stable_and_leaves_plain_letters_alone() -> None:
    assert skeleton("Nоrth") == skeleton("North") == skeleton(skeleton("North"))
    assert skeleton("xyz") == "xyz"


def test_marks_and_scripts() -> None:
    # NFKC composes e + acute into é: three more marks are too many, two are not
    assert too_many_marks("e" + "\u0301" * 4) and not too_many_marks("e\u0301\u0308\u0323")
    assert scripts_of("Nоrth") == {"LATIN", "CYRILLIC"} and mixes_scripts("Nоrth")
    assert scripts_of("Ann 2") == {"LATIN"} and not mixes_scripts("Ann-2")
    assert not mixes_scripts("山田 タロウ") and not mixes_scripts("Kim 김민준")
    assert mixes_scripts("Ωmega")
