"""The strategy guide's example hands: read from the file the guide shows, each checked to be
a real deal of 24 different cards, dealt as the first hand of a practice game; an unknown id
or a malformed file is refused with a clear error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euchre.cards import card_text
from euchre.rules import Rules
from euchre.table.kinds import examples as examples_module
from euchre.table.kinds.examples import EXAMPLES_FILE, ExampleError, example, examples


@pytest.fixture
def example_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A file of examples of the test's own in place of the guide's (read afresh)."""
    path = tmp_path / "examples.json"
    monkeypatch.setattr(examples_module, "EXAMPLES_FILE", path)
    examples.cache_clear()
    yield path
    examples.cache_clear()


def _good() -> dict[str, Any]:
    return {"id": "mine", "dealer": 1,
            "hands": [["9C", "TC", "JC", "QC", "KC"], ["AC", "9D", "TD", "JD", "QD"],
                      ["KD", "AD", "9H", "TH", "JH"], ["QH", "KH", "AH", "9S", "TS"]],
            "kitty": ["JS", "QS", "KS", "AS"]}


def test_every_example_of_the_guide_is_a_deal_of_24_different_cards() -> None:
    found = examples()
    on_file = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))["examples"]
    assert list(found) == [e["id"] for e in on_file] and found
    for ex in found.values():
        cards = [c for hand in ex.hands for c in hand] + list(ex.kitty)
        assert len(cards) == len(set(cards)) == 24
        assert 0 <= ex.dealer < 4 and all(len(h) == 5 for h in ex.hands)
        assert example(ex.id) is ex


def test_an_example_is_dealt_as_the_first_hand_as_written() -> None:
    for ex in examples().values():
        game = ex.first_hand(Rules.preset(ex.preset))
        hand = game.current
        assert hand is not None and len(game.all_hands()) == 1
        assert hand.dealer == ex.dealer and game.score == (0, 0)
        assert [[card_text(c) for c in hand.deal.hands[s]] for s in range(4)] == \
            [list(h) for h in ex.hands]
        assert [card_text(c) for c in hand.deal.kitty] == list(ex.kitty)
        assert card_text(hand.upcard) == ex.kitty[0]
        assert game.to_act == (ex.dealer + 1) % 4  # bidding starts left of the dealer


def test_an_unknown_id_is_refused_naming_the_ones_there_are() -> None:
    with pytest.raises(ExampleError, match="no example hand 'nope'") as refused:
        example("nope")
    assert all(known in str(refused.value) for known in examples())


def test_an_example_file_with_a_good_deal_is_read(example_file: Path) -> None:
    example_file.write_text(json.dumps({"examples": [_good()]}), encoding="utf-8")
    ex = example("mine")
    assert (ex.preset, ex.dealer, ex.kitty[0]) == ("classic", 1, "JS")


@pytest.mark.parametrize("change", [
    {"dealer": 4}, {"dealer": -1}, {"kitty": ["JS", "QS", "KS"]},
    {"kitty": ["JS", "QS", "KS", "9C"]},  # a card twice
    {"hands": [["9C", "TC", "JC", "QC"], ["AC", "9D", "TD", "JD", "QD"],
               ["KD", "AD", "9H", "TH", "JH"], ["QH", "KH", "AH", "9S", "TS"]]},
])
def test_an_example_that_is_not_a_deal_is_refused(example_file: Path,
                                                  change: dict[str, Any]) -> None:
    example_file.write_text(json.dumps({"examples": [{**_good(), **change}]}),
                            encoding="utf-8")
    with pytest.raises(ExampleError, match="'mine' is not a deal of 24 different cards"):
        examples()


@pytest.mark.parametrize("change", [{"dealer": "first"}, {"hands": None}, {"kitty": 7}])
def test_a_malformed_example_is_refused(example_file: Path, change: dict[str, Any]) -> None:
    data = {**_good(), **change}
    example_file.write_text(json.dumps({"examples": [data]}), encoding="utf-8")
    with pytest.raises(ExampleError, match="a malformed example"):
        examples()


def test_an_example_without_an_id_is_refused(example_file: Path) -> None:
    data = _good()
    del data["id"]
    example_file.write_text(json.dumps({"examples": [data]}), encoding="utf-8")
    with pytest.raises(ExampleError, match="a malformed example"):
        examples()
