"""Practice tables: the person South with their own token, computer players of the levels
asked for West, North and East, the rules of the preset with the changes asked for, and,
when asked, the guide's example hand dealt first (no shuffle, so no seed)."""

from __future__ import annotations

import pytest

from euchre.rules import Rules, RulesError
from euchre.table.actor.kind import PRACTICE
from euchre.table.actor.seats import BOT, HUMAN, hash_token
from euchre.table.kinds.examples import ExampleError, examples
from euchre.table.kinds.practice import (
    DEFAULT_LEVEL,
    PracticeOptions,
    practice_start,
    practice_table,
)


def test_the_person_sits_south_with_computers_of_the_levels_asked_for() -> None:
    options = PracticeOptions(partner="hard", left="easy", right="expert", name="Ann")
    config, token = practice_table(options)
    assert config.kind == PRACTICE and config.seat_of(token) == 0
    south = config.seats[0]
    assert (south.kind, south.name, south.level) == (HUMAN, "Ann", None)
    assert south.token_hash == hash_token(token) and token not in str(config.to_json())
    assert [(s.kind, s.name, s.level) for s in config.seats[1:]] == [
        (BOT, "West (easy)", "easy"), (BOT, "North (hard)", "hard"),
        (BOT, "East (expert)", "expert")]
    assert all(s.bot_seed is not None for s in config.seats[1:])
    assert config.extra == {} and config.first_draw  # the first dealer is drawn


def test_defaults_are_classic_rules_medium_computers_at_normal_speed() -> None:
    options = PracticeOptions()
    config, _ = practice_table(options, table_id="p1", token="secret", first_dealer=2)
    assert (config.id, config.preset, config.rules) == ("p1", "classic",
                                                        Rules.preset("classic"))
    assert {s.level for s in config.seats[1:]} == {DEFAULT_LEVEL}
    assert config.seat_of("secret") == 0 and config.seats[0].name == "You"
    assert (config.first_dealer, config.first_draw) == (2, ())  # a given dealer stands
    assert practice_start(config) == {}  # shuffled and dealt as usual


def test_the_preset_with_the_changes_asked_for() -> None:
    options = PracticeOptions("short", {"stick_the_dealer": True})
    config, _ = practice_table(options)
    assert config.rules == Rules.preset("short", stick_the_dealer=True)
    assert config.preset == "short" and config.rules.game_to == 5
    with pytest.raises(RulesError, match="unknown preset"):
        practice_table(PracticeOptions("nope"))
    with pytest.raises(RulesError, match="unknown rule"):
        practice_table(PracticeOptions(rules={"no_such_rule": 1}))


def test_a_speed_other_than_normal_is_kept_with_the_table() -> None:
    assert practice_table(PracticeOptions(speed="fast"))[0].extra == {"speed": "fast"}
    assert practice_table(PracticeOptions(speed="normal"))[0].extra == {}


def test_an_example_hand_is_dealt_first_by_its_own_dealer_with_no_seed() -> None:
    for ex in examples().values():
        config, _ = practice_table(PracticeOptions(example=ex.id), first_dealer=0)
        assert config.extra == {"example": ex.id}
        assert config.first_dealer == ex.dealer and config.first_draw == ()
        start = practice_start(config)
        assert start["seeds"] == [""]
        game = start["game"]
        assert game.current is not None and game.current.dealer == ex.dealer
        dealt = ex.first_hand(config.rules).current
        assert dealt is not None and game.current.deal == dealt.deal


def test_an_unknown_example_opens_no_table() -> None:
    with pytest.raises(ExampleError, match="no example hand"):
        practice_table(PracticeOptions(example="no-such-hand"))
