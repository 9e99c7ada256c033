"""A table's changes as paths, and folding them: for any two JSON tables, folding the
changes of one into the other gives the other; a seat's own part goes apart and back."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from euchre.table.actor.delta import Folder, Gap, changes, fold, implied, put_you, you_of

leaves = st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(["9H", "play", "x"])
trees = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.sampled_from(["a", "b", "view", "history", "0", "1"]), inner,
                      max_size=4),
    max_leaves=25)
tables = st.dictionaries(st.sampled_from(["a", "b", "view", "seats", "to_act"]), trees,
                         max_size=5)


def without_nulls(x: Any) -> Any:
    """A null field is an absent one."""
    if isinstance(x, dict):
        return {k: without_nulls(v) for k, v in x.items() if v is not None}
    if isinstance(x, list):
        return [without_nulls(v) for v in x]
    return x


@given(tables, tables)
def test_folding_the_changes_gives_the_table_after(before: dict[str, Any],
                                                   after: dict[str, Any]) -> None:
    delta = changes(before, after)
    folded = fold(copy.deepcopy(before), copy.deepcopy(delta))
    assert without_nulls(folded) == without_nulls(after)
    assert changes(after, after) == {}


def test_a_grown_list_is_appended_and_a_hidden_play_is_set_by_index() -> None:
    before = {"view": {"history": [[1, "play JC"], [2, "play 9H"], [3, "play AS"],
                                   [0, "play TD"]], "to_act": 1}}
    after = {"view": {"history": [[1, "play"], [2, "play"], [3, "play AS"], [0, "play TD"],
                                  [1, "play KS"]], "to_act": 2}}
    assert changes(before, after) == {
        "view.history.0": [1, "play"], "view.history.1": [2, "play"],
        "view.history+": [[1, "play KS"]], "view.to_act": 2}
    assert changes(None, {"a": 1}) == {"a": 1}
    assert changes({"a": 1, "b": 2}, {"a": 1}) == {"b": None}  # gone: null


def test_a_seats_own_part_goes_apart_and_back() -> None:
    public = {"seat": None, "view": {"seat": None, "hand": [], "legal": [], "discard": None,
                                     "farmer_gave": [], "history": [[3, "discard"], [0, "pass"]]}}
    mine = {"seat": 3, "view": {"seat": 3, "hand": ["9H", "JD"], "legal": ["play 9H"],
                                "discard": "TC", "farmer_gave": [],
                                "history": [[3, "discard TC"], [0, "pass"]]}}
    you = you_of(3, mine, public)
    assert you == {"seat": 3, "hand": ["9H", "JD"], "legal": ["play 9H"], "discard": "TC",
                   "farmer_gave": [], "own": [[0, [3, "discard TC"]]]}
    assert put_you(copy.deepcopy(public), you) == mine
    assert you_of(1, {"view": None}, {"view": None}) == {"seat": 1}


def test_a_folder_takes_a_snapshot_then_each_event_in_order() -> None:
    folder = Folder()
    with pytest.raises(Gap):
        folder.receive({"type": "event", "version": 3})
    table = {"seat": 0, "version": 2, "clock_played": [1],
             "view": {"seat": 0, "hand": ["9H"], "legal": ["play 9H"], "discard": None,
                      "farmer_gave": [], "history": [], "trick": []}}
    you = {"seat": 0, "hand": ["9H"], "legal": ["play 9H"], "discard": None,
           "farmer_gave": [], "own": []}
    assert folder.receive({"type": "snapshot", "version": 2, "table": table, "you": you})
    assert folder.receive({"type": "event", "version": 3,  # the action appends its line
                           "event": {"kind": "action", "seat": 0, "action": "play 9H"},
                           "changes": {"version": 3},
                           "you": {"hand": [], "legal": []}})
    assert folder.receive({"type": "event", "version": 4})  # nothing it may see
    assert not folder.receive({"type": "pong"})
    assert folder.table is not None and folder.version == 4
    assert folder.table["version"] == 3  # set by a move's changes (none came with 4)
    assert "clock_played" not in folder.table
    assert folder.table["view"] == {"seat": 0, "hand": [], "legal": [], "discard": None,
                                    "farmer_gave": [], "history": [[0, "play 9H"]],
                                    "trick": ["9H"], "last_trick": None}  # (it led)
    with pytest.raises(Gap):
        folder.receive({"type": "event", "version": 6})


def test_a_lead_hides_the_last_trick_and_a_trick_names_its_winner() -> None:
    """What a play and a trick say themselves (so the changes need not): a play that leads
    a trick takes the last trick off the view (table law 11: its plays show as ``play``);
    a trick counts for its winner's side, who leads next."""
    table = {"view": {"history": [[1, "pass"], [0, "play 9H"], [1, "play TH"], [2, "play JH"],
                                  [3, "play QH"]],
                      "trick": [], "last_trick": {"leader": 0, "cards": ["9H", "TH", "JH", "QH"],
                                                  "winner": 2},
                      "tricks_won": [1, 0], "tricks_played": 1, "leader": 2, "to_act": 2}}
    led = implied(table, {"kind": "action", "seat": 2, "action": "play AS"})
    assert led["view"]["history"] == [[1, "pass"], [0, "play"], [1, "play"], [2, "play"],
                                      [3, "play"], [2, "play AS"]]
    assert led["view"]["last_trick"] is None and led["view"]["trick"] == ["AS"]
    assert table["view"]["history"][1] == [0, "play 9H"]  # the table before is not changed
    followed = implied(led, {"kind": "action", "seat": 3, "action": "play KS"})
    assert followed["view"]["history"][-2:] == [[2, "play AS"], [3, "play KS"]]
    won = implied(followed, {"kind": "trick", "leader": 2, "cards": ["AS", "KS"], "winner": 3})
    assert won["view"]["tricks_won"] == [1, 1] and followed["view"]["tricks_won"] == [1, 0]
    assert (won["view"]["leader"], won["view"]["to_act"], won["view"]["tricks_played"]) == (3, 3, 2)
    assert won["view"]["last_trick"] == {"leader": 2, "cards": ["AS", "KS"], "winner": 3}
    over = implied({**won, "commitment": "c0ffee"},
                   {"kind": "hand_over", "points": [0, 2], "score": [3, 2], "summary": {}})
    assert over["commitment"] is None and over["score"] == [3, 2]
    assert (over["view"]["phase"], over["view"]["to_act"], over["view"]["points"]) == (
        "over", None, [0, 2])
