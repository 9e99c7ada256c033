"""Display names are refused when they could pass for a seat or a computer player: a seat
name, a computer word or a level, compared without case, spaces or punctuation, or any name
ending in a level or computer word in brackets. Other names are kept exactly as given."""

from __future__ import annotations

import pytest

from euchre.bots import LEVELS
from euchre.hand import SEAT_NAMES
from euchre.table.kinds.names import COMPUTER_WORDS, NameRefused, check_display_name

REFUSED = ["North", "north", "SOUTH", "East", "West", "the North", "N o r t h", "Computer",
           "bot", "AI", "Hard", "North (hard)", "north(HARD)", "Ann (easy)", "Zed [Computer]",
           "Ann (very hard)", "West (random)"]
ALLOWED = ["Ann", "You", "Northrop", "Eastwood", "Ann (my team)", "Bo (aix)", "Westie"]


@pytest.mark.parametrize("name", REFUSED)
def test_names_like_seats_or_computers_are_refused(name: str) -> None:
    with pytest.raises(NameRefused, match="could be taken for a seat or a computer player"):
        check_display_name(name)


@pytest.mark.parametrize("name", ALLOWED)
def test_other_names_are_kept_as_given(name: str) -> None:
    assert check_display_name(name) == name


def test_every_seat_name_computer_word_and_level_is_refused_in_any_dress() -> None:
    words = [*SEAT_NAMES, *COMPUTER_WORDS, *LEVELS]
    for word in words:
        for dressed in (word, word.upper(), f" {word}. ", "-".join(word), f"_{word}_"):
            with pytest.raises(NameRefused):
                check_display_name(dressed)
    # "The" before a seat's name is the seat too ("The East"), not before any other word.
    for seat in SEAT_NAMES:
        with pytest.raises(NameRefused):
            check_display_name(f"The {seat}")
    assert check_display_name("The Ann") == "The Ann"


@pytest.mark.parametrize("name", ["Ann (bot)", "Ann {cpu}", "Ann <expert>", "Ann (Easy, bot)",
                                  "Ann [robot]", "Ann( medium )", "Bo (random; hard)",
                                  "Ann (my bot team)"])
def test_a_level_or_computer_word_in_closing_brackets_is_refused(name: str) -> None:
    with pytest.raises(NameRefused):
        check_display_name(name)


@pytest.mark.parametrize("name", ["Ann (easygoing)", "(hard) Ann", "Ann (aibo)",
                                  "Hardy", "Botany", "Airy", "Freda (the best)"])
def test_a_mark_only_counts_as_a_whole_word_at_the_end_in_brackets(name: str) -> None:
    assert check_display_name(name) == name


def test_the_refusal_names_the_name_and_says_what_to_choose() -> None:
    with pytest.raises(NameRefused) as refused:
        check_display_name("East (medium)")
    text = str(refused.value)
    assert "'East (medium)'" in text and "choose another" in text
    assert isinstance(refused.value, ValueError)  # callers answer it as bad input


# Issue 34 item 6: look-alikes, by Unicode's confusable skeletons (UTS #39), NFKC, marks
# and scripts.
LOOKALIKES = ["Nоrth",  # Cyrillic о
              "Ann（hard）", "C0mputer", "B0T", "0pen", "the n0rth", "Ｗｅｓｔ",
              "Ann (ｅａｓｙ)", "Sоuth (hаrd)", "ЕAST", "Cοmputer"]  # Greek ο


@pytest.mark.parametrize("name", LOOKALIKES)
def test_look_alikes_of_seats_levels_and_computers_are_refused(name: str) -> None:
    with pytest.raises(NameRefused, match="could be taken for a seat or a computer player"):
        check_display_name(name)


@pytest.mark.parametrize("name", ["Аnn",  # Cyrillic А
                                  "Вob", "Ωmega", "Jοhn"])  # Greek ο
def test_names_mixing_alphabets_are_refused_naming_them(name: str) -> None:
    with pytest.raises(NameRefused, match=r"mixes alphabets \(\w+ and \w+\)"):
        check_display_name(name)


def test_stacked_accents_are_refused_and_ordinary_ones_kept() -> None:
    with pytest.raises(NameRefused, match="stacks more than 2 accents"):
        check_display_name("Ann" + "\u0301" * 20)
    for name in ("Zoë", "José", "Ἀθηνᾶ", "Đặng", "山田太郎", "やまだ タロウ", "김민준",
                 "Ann-Marie"):
        assert check_display_name(name) == name


def test_names_are_kept_in_nfkc_form() -> None:
    assert check_display_name("Ｂｏｂ") == "Bob"
    assert check_display_name("Jose\u0301") == "José"
