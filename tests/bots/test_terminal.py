"""``euchre play``: a whole game in the terminal, fed from a script of inputs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from euchre.cli import main
from euchre.cli.play import TerminalGame
from euchre.rules import Rules


def feed(monkeypatch: pytest.MonkeyPatch, lines: Iterator[str]) -> list[str]:
    """Answer input() from ``lines``; returns the prompts seen."""
    prompts: list[str] = []

    def fake_input(prompt: str = "") -> str:
        prompts.append(prompt)
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)
    return prompts


def always(answer: str) -> Iterator[str]:
    """The same answer forever."""
    while True:
        yield answer


def test_a_whole_game_choosing_the_first_move_every_time(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    prompts = feed(monkeypatch, always("1"))
    assert main(["play", "--seed", "4", "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert prompts
    assert "Your hand:" in out and "Upcard:" in out and "Trump:" in out


def test_a_short_game_with_rules_and_notation(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "pass" or the first card: notation is accepted as well as numbers
    answers = iter(["order", "pass", *(["2", "1"] * 400)])
    feed(monkeypatch, answers)
    code = main(["play", "--seed", "9", "--preset", "short", "--rule", "stick_the_dealer=yes",
                 "--level", "medium"])
    assert code == 0
    out = capsys.readouterr().out
    assert "Game to 5 points." in out
    assert "Game over" in out


def test_commands_help_score_last_hint_and_quit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, iter(["help", "score", "last", "hint", "play XX", "99", "", "quit"]))
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Commands:" in out
    assert "Score: you and North 0, West and East 0." in out
    assert "only until the next card is led" in out
    assert "not an action" in out
    assert "Choose a number from 1 to" in out
    assert "You leave the game." in out


def test_last_shows_the_trick_just_taken(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # answer "last" whenever a trick has just ended and we lead; then the first move
    seen: list[str] = []

    def answers() -> Iterator[str]:
        for _ in range(200):
            seen.append("last")
            yield "last"
            yield "1"

    feed(monkeypatch, answers())
    TerminalGame(Rules(game_to=5), "easy", 2).play()
    out = capsys.readouterr().out
    assert "Last trick, led by" in out


def test_bad_rule_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--rule", "game_to=12"]) == 2
    assert "game_to" in capsys.readouterr().out


def test_end_of_input_leaves_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, iter([]))
    assert main(["play", "--seed", "2"]) == 0
    assert "You leave the game." in capsys.readouterr().out


def test_kitchen_table_rules_ask_about_defending_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, always("1"))
    assert main(["play", "--seed", "5", "--preset", "kitchen-table", "--level", "easy"]) == 0
    out = capsys.readouterr().out
    assert "not defend alone" in out
    assert "Game over" in out


def test_describe_names_each_kind_of_move() -> None:
    from euchre.actions import parse_action
    from euchre.cli.play import describe

    assert describe(1, parse_action("order alone"), dealer=3) == (
        "West orders it up and goes alone."
    )
    assert describe(0, parse_action("order"), dealer=0) == "You pick it up."
    assert describe(3, parse_action("call H")) == "East calls Hearts."
    assert describe(2, None, "discard") == "North discards a card."
    assert describe(2, parse_action("pass"), made=True) == "North does not defend alone."
    assert describe(0, parse_action("farmer throw")) == "You throw in a farmer's hand."
