"""The house rules a table plays by, as one frozen value with named presets.

Every place where the rule documents disagree, or name a house rule, is a field
here; nothing about them is decided silently elsewhere.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

FarmerRule = Literal["off", "nines-and-tens", "three-nines-two-tens"]
LeadRule = Literal["dealer-left", "loner-left"]
RenegeRule = Literal["hand", "flat"]
AllPassRule = Literal["next-dealer", "same-dealer"]

GAME_LENGTHS = (5, 7, 10, 11)
"""The game lengths the documents name."""
MAX_HANDS_LIMIT = 64
"""The longest round of hands a game may be limited to (:attr:`Rules.hands_limit`)."""


class RulesError(ValueError):
    """Raised for an unknown preset, an unknown rule, or a value a rule does not take."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of one table; the defaults are the classic game."""

    stick_the_dealer: bool = False
    """If all four pass twice the dealer must name a suit (off: the hand is thrown in)."""
    all_pass: AllPassRule = "next-dealer"
    """After a throw-in the deal passes left, or the same dealer deals again."""
    defend_alone: bool = False
    """A defender may announce alone before the first lead; a lone euchre scores 4."""
    canadian_loner: bool = False
    """The dealer's partner who orders up the upcard must go alone."""
    farmers_hand: FarmerRule = "off"
    """Which hands are a farmer's hand: only nines and tens, or three nines and two tens."""
    benny: bool = False
    """A joker is added as the highest trump of all."""
    game_to: int = 10
    """Points that win the game: 5, 7, 10 or 11."""
    lead_when_sitting_out: LeadRule = "dealer-left"
    """Who leads first when a player sits out: left of the dealer skipping the absent seat,
    or left of the lone player."""
    dealer_exchanges_when_partner_alone: bool = True
    """Whether the dealer still takes the upcard and discards when the partner goes alone."""
    renege_penalty: RenegeRule = "hand"
    """Renege in a recorded live game: the claimers score as if they had won the hand, 2, or 4
    when they played the lone hand ("hand"); or always 2 ("flat")."""
    hands_limit: int = 0
    """A tournament round: the game ends after this many hands are played out, whatever the
    score (a thrown-in hand does not count), and ``game_to`` does not end it; 0: off."""

    def __post_init__(self) -> None:
        if self.game_to not in GAME_LENGTHS:
            raise RulesError(f"game_to must be one of {GAME_LENGTHS}, not {self.game_to!r}")
        if (isinstance(self.hands_limit, bool) or not isinstance(self.hands_limit, int)
                or not 0 <= self.hands_limit <= MAX_HANDS_LIMIT):
            raise RulesError(f"hands_limit must be 0 (off) to {MAX_HANDS_LIMIT}, "
                             f"not {self.hands_limit!r}")
        choices: dict[str, tuple[str, ...]] = {
            "farmers_hand": ("off", "nines-and-tens", "three-nines-two-tens"),
            "lead_when_sitting_out": ("dealer-left", "loner-left"),
            "renege_penalty": ("hand", "flat"),
            "all_pass": ("next-dealer", "same-dealer"),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise RulesError(f"{name} must be one of {', '.join(allowed)}")
        for f in dataclasses.fields(self):
            if f.type in ("bool", bool) and not isinstance(getattr(self, f.name), bool):
                raise RulesError(f"{f.name} must be true or false")

    @classmethod
    def preset(cls, name: str, **changes: Any) -> Rules:
        """The rules of a named preset, with any fields changed."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(
                "unknown preset " + repr(name) + ": choose one of " + ", ".join(PRESETS)
            ) from None
        return base.replace(**changes) if changes else base

    def replace(self, **changes: Any) -> Rules:
        """A copy with some rules changed; unknown names raise :class:`RulesError`."""
        names = {f.name for f in dataclasses.fields(self)}
        for key in changes:
            if key not in names:
                raise RulesError(f"unknown rule {key!r}")
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Every rule as a plain dict (JSON-ready)."""
        return {name: getattr(self, name) for name in _FIELD_NAMES}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing fields take the defaults."""
        return cls().replace(**data)

    def to_text(self) -> str:
        """The rules as ``key=value`` words, only those that differ from classic."""
        default = Rules()
        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                parts.append(f"{f.name}={_format_value(value)}")
        return " ".join(parts) if parts else "classic"

    @classmethod
    def from_text(cls, text: str) -> Rules:
        """Parse :meth:`to_text` output (an optional preset name first, then key=value words)."""
        words = text.split()
        rules = cls()
        if words and "=" not in words[0]:
            rules = cls.preset(words.pop(0))
        changes: dict[str, Any] = {}
        types = {f.name: f.type for f in dataclasses.fields(cls)}
        for word in words:
            key, sep, raw = word.partition("=")
            if not sep or key not in types:
                raise RulesError(f"not a rule setting: {word!r}")
            changes[key] = _parse_value(str(types[key]), raw)
        return rules.replace(**changes)

    def describe(self, *, claims: bool = False) -> list[str]:
        """The rules in force, one plain-English sentence each, for rules pages. Where every
        card is checked as it is played (the site's tables, the terminal) nobody can renege,
        and the last sentence says so; ``claims``: a game played with real cards, whose
        record may carry a renege claim, so the last sentence gives the renege penalty."""
        if self.hands_limit:
            out = [f"A round of {self.hands_limit} hands: the game ends when that many hands "
                   "have been played out (a thrown-in hand does not count), whatever the score."]
        else:
            out = [f"Game to {self.game_to} points."]
        if self.stick_the_dealer:
            out.append("Stick the dealer: if everyone passes twice, the dealer must name trump.")
        elif self.all_pass == "same-dealer":
            out.append("If everyone passes twice, the same dealer deals a new hand.")
        else:
            out.append("If everyone passes twice, the hand is thrown in and the deal passes left.")
        if self.canadian_loner:
            out.append("Canadian loner: the dealer's partner who orders up must go alone.")
        if self.defend_alone:
            out.append("Defending alone is allowed: a lone defender who euchres the makers "
                       "scores 4.")
        if self.farmers_hand != "off":
            which = (
                "only nines and tens"
                if self.farmers_hand == "nines-and-tens"
                else "three nines and two tens"
            )
            out.append(
                f"Farmer's hand: a player dealt {which} may swap three cards for the kitty "
                "or throw the hand in."
            )
        if self.benny:
            out.append(
                "The Benny: a joker is the highest trump. If it is turned up, the dealer "
                "picks it up, names trump and discards."
            )
        if self.lead_when_sitting_out == "loner-left":
            out.append("When a player goes alone, the player on the lone player's left leads.")
        else:
            out.append("The player on the dealer's left leads, skipping a player who sits out.")
        if self.dealer_exchanges_when_partner_alone:
            out.append("When the dealer's partner goes alone, the dealer still takes the upcard.")
        else:
            out.append("When the dealer's partner goes alone, the dealer does not take the upcard.")
        if not claims:
            out.append(CHECKED_PLAY)
        elif self.renege_penalty == "flat":
            out.append("A renege costs 2 points.")
        else:
            out.append("A renege gives the other side 2 points, or 4 if they played a lone hand.")
        return out


CHECKED_PLAY = "Every card is checked as it is played, so nobody can renege at these tables."
"""The renege sentence wherever play is checked (the web client's rules summary says the
same words: web/static/js/rules-words.js)."""

_FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _parse_value(type_name: str, raw: str) -> object:
    if type_name == "bool":
        if raw.lower() in ("yes", "true", "on", "1"):
            return True
        if raw.lower() in ("no", "false", "off", "0"):
            return False
        raise RulesError(f"not yes or no: {raw!r}")
    if type_name == "int":
        try:
            return int(raw)
        except ValueError:
            raise RulesError(f"not a number: {raw!r}") from None
    return raw


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "stick-the-dealer": Rules(stick_the_dealer=True),
    "redeal": Rules(all_pass="same-dealer"),
    "canadian": Rules(canadian_loner=True),
    "kitchen-table": Rules(
        stick_the_dealer=True,
        defend_alone=True,
        farmers_hand="nines-and-tens",
    ),
    "benny": Rules(benny=True),
    "short": Rules(game_to=5),
}
"""The named presets. ``classic`` is doc 002's game without house rules (no stick, a throw-in
passes the deal left); ``redeal`` is doc 000's (the same dealer deals again); ``stick-the-dealer``
is doc 001's. Each other preset adds one house rule of doc 002 section 10 (``kitchen-table``
several), and none adds a rule a document does not tie to it."""
