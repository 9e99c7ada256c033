"""A seat's snapshot is built as its type: the view in it is exactly what the engine's own
renderings give (``HandView.to_table_json`` for a seat, ``to_public_json`` for a spectator),
so table law 11 and the hidden cards hold in every position of many random games."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest

from euchre.cards import card_text
from euchre.game import GameState
from euchre.rules import PRESETS, Rules
from euchre.shuffle import deck_from_seed
from euchre.table.actor.delta import PRIVATE
from euchre.table.actor.events import Frame
from euchre.table.actor.kind import TurnPolicy
from euchre.table.actor.snapshot import Snapshots, moved_fields, seat_info, view_json
from euchre.table.actor.wire import HandViewJson
from euchre.table.kinds.practice import PracticeOptions, practice_table

RULES = [*PRESETS.values(), Rules.preset("classic", farmers_hand="nines-and-tens")]


def positions(rng: random.Random, rules: Rules) -> list[GameState]:
    """Every position of a random game with a hand in play."""
    game = GameState(rules, rng.randrange(4))
    out = []
    while not game.is_over:
        if game.needs_deal:
            game = game.deal(deck_from_seed(f"{rng.getrandbits(64):016x}", rules.benny))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
        if game.current is not None:
            out.append(game)
    return out


@pytest.mark.parametrize("index", range(len(RULES)))
def test_the_typed_view_keeps_law_11_and_the_public_view_holds_no_card_of_a_hand(
        index: int) -> None:
    rules = RULES[index]
    checked = 0
    for game in positions(random.Random(index), rules):
        hand = game.current
        assert hand is not None
        for seat in range(4):
            view = hand.view(seat)
            got = msgspec.to_builtins(view_json(view))
            shown = [a for _, a in got["history"] if a.startswith("play ")]
            assert len(shown) == view.plays_on_view  # table law 11: no earlier play
            assert got["hand"] == [card_text(c) for c in view.hand]
            assert got["legal"] == [str(a) for a in view.legal]
        public = msgspec.to_builtins(view_json(hand.view(hand.dealer), public=True))
        assert public["seat"] is None and public["hand"] == public["legal"] == []
        assert public["discard"] is None and public["farmer_gave"] == []
        assert all(a in ("discard", "farmer swap") or not a.startswith(("discard", "farmer swap"))
                   for _, a in public["history"])
        checked += 1
    assert checked > 20


def test_the_typed_view_round_trips_through_its_own_type() -> None:
    game = positions(random.Random(3), PRESETS["classic"])[30]
    assert game.current is not None
    view = view_json(game.current.view(1))
    text = msgspec.json.encode(view)
    assert msgspec.json.decode(text, type=HandViewJson) == view


@pytest.mark.parametrize("index", range(len(RULES)))
def test_a_tables_snapshots_show_what_the_engines_views_show(index: int) -> None:
    """One table's :class:`Snapshots`, asked in a random order of audiences through whole
    games (some positions skipped, and now and then an earlier position again), give each
    seat exactly ``view_json(hand.view(seat))`` and the spectators the public one; and the
    fields a plain move is told by (:func:`moved_fields`) are the public view's."""
    rules = RULES[index]
    rng = random.Random(100 + index)
    snapshots = Snapshots()
    checked = 0
    seen = positions(random.Random(index), rules)
    for n, game in enumerate(seen):
        if rng.random() < 0.3:
            continue
        if rng.random() < 0.05:
            game = seen[rng.randrange(n + 1)]
        hand = game.current
        assert hand is not None
        audiences: list[int | None] = [0, 1, 2, 3, None]
        rng.shuffle(audiences)
        for seat in audiences[:rng.randint(1, 5)]:
            got = msgspec.to_builtins(snapshots.view(hand, seat))
            if seat is None:
                assert got == msgspec.to_builtins(view_json(hand.view(hand.dealer), public=True))
                moved = moved_fields(hand)
                assert moved == {key: got[key] for key in moved}
            else:
                assert got == msgspec.to_builtins(view_json(hand.view(seat)))
            checked += 1
    assert checked > 100


def test_a_snapshots_seats_follow_presence_and_the_away_clock() -> None:
    """The seats are kept while nobody is away and rebuilt when who is connected or
    replaced changes; an away seat's time left follows the clock."""
    config, _ = practice_table(PracticeOptions(), table_id="t1", first_dealer=0)
    game = positions(random.Random(5), PRESETS["classic"])[3]
    policy = TurnPolicy()
    snapshots = Snapshots()

    def seats(frame: Frame, now: float) -> list[object]:
        got = snapshots.render(config, frame, 0, policy, now).seats
        assert got == [seat_info(config, frame, i, now) for i in range(4)]
        return msgspec.to_builtins(got)  # type: ignore[no-any-return]

    here = Frame(version=1, game=game, summary=None, commitment=None,
                 connected=(True, True, True, True))
    assert seats(here, 0.0)[0]["connected"] is True
    gone = dataclasses.replace(here, version=2, connected=(False, True, True, True),
                               away=((0, 30.0),))
    assert seats(gone, 10.0)[0]["away_ms_left"] == 20000
    assert seats(gone, 25.0)[0]["away_ms_left"] == 5000
    taken = dataclasses.replace(here, version=3, connected=(False, True, True, True),
                                replaced=((0, "away"),))
    assert seats(taken, 40.0)[0]["replaced"] == "away"
    assert seats(here, 41.0)[0] == {"seat": 0, "name": config.seats[0].name, "kind": "human",
                                    "level": None, "connected": True}


@pytest.mark.parametrize("index", range(len(RULES)))
def test_a_seats_own_part_is_what_its_view_shows_and_the_public_one_does_not(
        index: int) -> None:
    """:meth:`Snapshots.private`, move after move, is the seat's own part of
    ``view_json(hand.view(seat))``: its private fields, and each history line that differs
    from the public view's (its own discard or farmer's swap)."""
    snapshots = Snapshots()
    for game in positions(random.Random(200 + index), RULES[index]):
        hand = game.current
        assert hand is not None
        public = msgspec.to_builtins(snapshots.view(hand, None))["history"]
        for seat in range(4):
            view = msgspec.to_builtins(view_json(hand.view(seat)))
            mine = snapshots.private(hand, seat)
            assert {k: mine[k] for k in PRIVATE} == {k: view[k] for k in PRIVATE}
            assert mine["own"] == [[i, line] for i, line in enumerate(view["history"])
                                   if line != public[i]]
