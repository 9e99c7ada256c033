"""Game records: the rules, each deal, and every action; written, read and replayed exactly.

Text format (one item per line; ``#`` starts a comment; blank lines are ignored)::

    euchre-record 1
    rules stick_the_dealer=yes game_to=10
    hand 1
    dealer 3
    deal 3-2
    hands KC 9D AD TH QH | 9C JD QD 9H KS | TC JC KD AH AS | QC TD JH 9S TS
    kitty KH AC JS QS
    seed 5f2c…                (optional: the revealed seed of a verifiable shuffle)
    client_seeds 0:9a1b… 2:77c0…   (optional: the players' seeds mixed into it, by seat)
    0 order
    3 discard JH
    0 play QH
    …
    result 1 0
    end 10 7

``rules`` holds :meth:`Rules.to_text` (a preset name and/or ``key=value`` words).
``hands`` lists seats 0-3 in the order each received its cards; ``kitty`` starts with
the upcard. An action line is the acting seat and the action notation
(:mod:`euchre.actions`); a renege claim is written ``renege S by C`` with no seat in
front. ``result`` (points of seats 0 & 2, seats 1 & 3) and ``end`` (final score) are
checked on replay. The JSON form (:meth:`GameRecord.to_json`) holds the same fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .actions import RENEGE, Action, ActionError, parse_action
from .cards import CardError, card_text, parse_card
from .errors import DealError, IllegalActionError, RecordError
from .game import GameState
from .hand import Deal, HandState
from .rules import Rules, RulesError

MAGIC = "euchre-record 1"
"""The first line of every text record."""


@dataclass
class HandRecord:
    """One hand: who dealt, the cards, and the actions as (seat, action)."""

    dealer: int
    """The dealer's seat."""
    deal: Deal
    """The cards as dealt."""
    actions: list[tuple[int, Action]] = field(default_factory=list)
    """Every action in order."""
    result: tuple[int, int] | None = None
    """Points the hand scored, if recorded (checked on replay)."""
    seed: str | None = None
    """The revealed seed of a verifiable shuffle, if any."""
    client_seeds: dict[int, str] = field(default_factory=dict)
    """The players' seeds mixed with :attr:`seed` (``shuffle.mixed_seed``), by seat."""


@dataclass
class GameRecord:
    """A whole game (or a game so far)."""

    rules: Rules
    """The rules it was played under."""
    hands: list[HandRecord] = field(default_factory=list)
    """The hands, in order."""
    final: tuple[int, int] | None = None
    """The final score, if recorded (checked on replay)."""

    @classmethod
    def from_game(cls, game: GameState, seeds: list[str | None] | None = None,
                  client_seeds: list[dict[int, str]] | None = None) -> GameRecord:
        """The record of a game state (finished or not), with each hand's shuffle seeds."""
        hands = []
        for i, hand in enumerate(game.all_hands()):
            seed = seeds[i] if seeds and i < len(seeds) else None
            mixed = client_seeds[i] if client_seeds and i < len(client_seeds) else {}
            hands.append(
                HandRecord(
                    hand.dealer,
                    hand.deal,
                    hand.history(),
                    hand.points if hand.is_over else None,
                    seed,
                    dict(mixed),
                )
            )
        return cls(game.rules, hands, game.score if game.is_over else None)

    @classmethod
    def from_hand(cls, hand: HandState) -> GameRecord:
        """The record of a single hand."""
        result = hand.points if hand.is_over else None
        return cls(hand.rules, [HandRecord(hand.dealer, hand.deal, hand.history(), result)])

    # -- replay --------------------------------------------------------------------------

    def replay(self) -> GameState:
        """Replay every hand; raises :class:`ReplayError` at the first illegal action."""
        first = self.hands[0].dealer if self.hands else 0
        game = GameState(self.rules, first)
        for number, hand in enumerate(self.hands, 1):
            if game.is_over:
                raise ReplayError(number, 0, None, "the game was already over")
            if hand.dealer != game.next_dealer:
                raise ReplayError(
                    number, 0, None,
                    f"seat {hand.dealer} dealt out of turn: seat {game.next_dealer} deals",
                )
            try:
                game = game.deal(hand.deal)
            except DealError as e:
                raise ReplayError(number, 0, None, str(e)) from None
            for index, (seat, action) in enumerate(hand.actions, 1):
                try:
                    if action.kind != RENEGE and game.to_act != seat:
                        raise IllegalActionError(
                            f"seat {seat} acted out of turn (seat {game.to_act} was to act)"
                        )
                    game = game.apply(action)
                except IllegalActionError as e:
                    raise ReplayError(number, index, (seat, action), str(e)) from None
            current = game.current
            assert current is not None
            if hand.result is not None:
                if not current.is_over:
                    raise ReplayError(number, 0, None, "the record says the hand ended, "
                                      "but it is not over")
                if current.points != hand.result:
                    raise ReplayError(
                        number, 0, None,
                        f"the record says {hand.result[0]}-{hand.result[1]}, "
                        f"the hand scored {current.points[0]}-{current.points[1]}",
                    )
        if self.final is not None and game.score != self.final:
            raise ReplayError(len(self.hands), 0, None,
                              f"the record's final score {self.final} is not {game.score}")
        return game

    # -- text ----------------------------------------------------------------------------

    def to_text(self) -> str:
        """The record in the text format."""
        lines = [MAGIC, f"rules {self.rules.to_text()}"]
        for number, hand in enumerate(self.hands, 1):
            lines += opening_lines(number, hand.dealer, hand.deal, hand.seed, hand.client_seeds)
            lines += (action_line(seat, action) for seat, action in hand.actions)
            if hand.result is not None:
                lines.append(result_line(hand.result))
        if self.final is not None:
            lines.append(f"end {self.final[0]} {self.final[1]}")
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Parse the text format; raises :class:`RecordError` with the line at fault."""
        rows = []
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if line:
                rows.append((number, line))
        if not rows or rows[0][1] != MAGIC:
            raise RecordError(f"not a euchre record: the first line must be {MAGIC!r}")
        record: GameRecord | None = None
        hand: dict[str, Any] | None = None
        hands: list[HandRecord] = []

        def finish() -> None:
            if hand is None:
                return
            for key in ("dealer", "hands", "kitty"):
                if key not in hand:
                    raise RecordError(f"hand {len(hands) + 1} has no {key!r} line")
            deal = Deal(hand["hands"], hand["kitty"], hand.get("pattern", "3-2"))
            hands.append(
                HandRecord(hand["dealer"], deal, hand["actions"], hand.get("result"),
                           hand.get("seed"), hand.get("client_seeds", {}))
            )

        for number, line in rows[1:]:
            word, _, rest = line.partition(" ")
            try:
                if word == "rules":
                    record = cls(Rules.from_text(rest))
                elif word == "hand":
                    finish()
                    hand = {"actions": []}
                elif word == "end":
                    finish()
                    hand = None
                    a, b = rest.split()
                    if record is None:
                        raise RecordError("no rules line")
                    record.final = (int(a), int(b))
                elif hand is None:
                    raise RecordError("expected 'hand N' before this line")
                elif word == "dealer":
                    hand["dealer"] = _seat(rest)
                elif word == "deal":
                    hand["pattern"] = rest.strip()
                elif word == "hands":
                    parts = rest.split("|")
                    hand["hands"] = tuple(
                        tuple(parse_card(c) for c in p.split()) for p in parts
                    )
                elif word == "kitty":
                    hand["kitty"] = tuple(parse_card(c) for c in rest.split())
                elif word == "seed":
                    hand["seed"] = rest.strip()
                elif word == "client_seeds":
                    hand["client_seeds"] = _client_seeds(
                        dict(pair.split(":", 1) for pair in rest.split()))
                elif word == "result":
                    a, b = rest.split()
                    hand["result"] = (int(a), int(b))
                elif word == RENEGE:
                    action = parse_action(line)
                    hand["actions"].append((action.by, action))
                else:
                    hand["actions"].append((_seat(word), parse_action(rest)))
            except (CardError, ActionError, RulesError, ValueError) as e:
                if isinstance(e, RecordError):
                    raise RecordError(f"line {number}: {e}") from None
                raise RecordError(f"line {number}: {line!r}: {e}") from None
        finish()
        if record is None:
            raise RecordError("the record has no rules line")
        record.hands = hands
        return record

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready dict."""
        return {
            "format": "euchre-record",
            "version": 1,
            "rules": self.rules.to_dict(),
            "hands": [
                {
                    "dealer": h.dealer,
                    "pattern": h.deal.pattern,
                    "hands": [[card_text(c) for c in cards] for cards in h.deal.hands],
                    "kitty": [card_text(c) for c in h.deal.kitty],
                    "actions": [[s, str(a)] for s, a in h.actions],
                    "result": list(h.result) if h.result is not None else None,
                    **({"seed": h.seed} if h.seed else {}),
                    **({"client_seeds": {str(s): c for s, c in sorted(h.client_seeds.items())}}
                       if h.client_seeds else {}),
                }
                for h in self.hands
            ],
            "final": list(self.final) if self.final is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | str) -> GameRecord:
        """Read :meth:`to_json` output (a dict or a JSON string)."""
        try:
            obj = json.loads(data) if isinstance(data, str) else data
            if obj.get("format") != "euchre-record":
                raise RecordError("not a euchre record (format must be 'euchre-record')")
            hands = []
            for h in obj["hands"]:
                deal = Deal(
                    tuple(tuple(parse_card(c) for c in cards) for cards in h["hands"]),
                    tuple(parse_card(c) for c in h["kitty"]),
                    h.get("pattern", "3-2"),
                )
                actions = [(int(s), parse_action(a)) for s, a in h["actions"]]
                result = tuple(h["result"]) if h.get("result") is not None else None
                hands.append(HandRecord(int(h["dealer"]), deal, actions,
                                        result, h.get("seed"),
                                        _client_seeds(h.get("client_seeds") or {})))
            final = tuple(obj["final"]) if obj.get("final") is not None else None
            return cls(Rules.from_dict(obj["rules"]), hands, final)
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise RecordError(f"malformed JSON record: {e}") from None


def opening_lines(number: int, dealer: int, deal: Deal, seed: str | None,
                  client_seeds: dict[int, str]) -> list[str]:
    """The text lines that open hand ``number`` (from 1): its dealer, cards and seeds."""
    lines = [f"hand {number}", f"dealer {dealer}", f"deal {deal.pattern}",
             "hands " + " | ".join(" ".join(card_text(c) for c in h) for h in deal.hands),
             "kitty " + " ".join(card_text(c) for c in deal.kitty)]
    if seed:
        lines.append(f"seed {seed}")
    if client_seeds:
        lines.append("client_seeds " + " ".join(
            f"{seat}:{client_seeds[seat]}" for seat in sorted(client_seeds)))
    return lines


_ACTION_LINES: dict[tuple[int, Action], str] = {}
"""Lines already made, by (seat, action): a table's save writes one for each move, and the
moves a game can hold are few (hashing the pair costs a fraction of writing its text)."""
_ACTION_LINES_MOST = 8192
"""No more are kept (farmer swaps alone could name many more)."""


def action_line(seat: int, action: Action) -> str:
    """The text line of one action (a renege claim names its seats itself)."""
    key = (seat, action)
    line = _ACTION_LINES.get(key)
    if line is None:
        line = str(action) if action.kind == RENEGE else f"{seat} {action}"
        if len(_ACTION_LINES) < _ACTION_LINES_MOST:
            _ACTION_LINES[key] = line
    return line


def result_line(points: tuple[int, int]) -> str:
    """The text line of a hand's result (checked on replay)."""
    return f"result {points[0]} {points[1]}"


class ReplayError(RecordError):
    """A record's first illegal action: which hand, which action, and why."""

    def __init__(
        self, hand: int, index: int, action: tuple[int, Action] | None, reason: str
    ) -> None:
        where = f"hand {hand}" + (f", action {index} ({action[0]} {action[1]})" if action else "")
        super().__init__(f"{where}: {reason}")
        self.hand = hand
        """The hand number (from 1)."""
        self.index = index
        """The action number within the hand (from 1), 0 if not an action."""
        self.action = action
        """The offending (seat, action), if any."""
        self.reason = reason
        """Why it was refused."""


def _client_seeds(raw: dict[Any, Any]) -> dict[int, str]:
    """Players' seeds by seat, from text or JSON (seats as strings)."""
    out = {}
    for seat, seed in raw.items():
        if not isinstance(seed, str) or not seed:
            raise RecordError(f"seat {seat}'s client seed is not text")
        out[_seat(str(seat))] = seed
    return out


def _seat(text: str) -> int:
    text = text.strip()
    if text not in ("0", "1", "2", "3"):
        raise RecordError(f"not a seat: {text!r}")
    return int(text)


def load(path: str) -> GameRecord:
    """Read a record file, text or JSON (by its first character)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise RecordError("not a euchre record: the file is not UTF-8 text") from None
    if text.lstrip().startswith("{"):
        return GameRecord.from_json(text)
    return GameRecord.from_text(text)
