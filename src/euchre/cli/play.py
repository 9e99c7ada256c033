"""``euchre play``: a game in the terminal, you (South) and a computer partner against two.

Reads moves with :func:`input`: an action in notation (``order``, ``call H``, ``play JH``)
or its number in the menu, or a command: ``hint``, ``last`` (the last trick, only until
the next card is led: table law 11), ``score``, ``help``, ``quit``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from .. import actions as A
from ..actions import Action, ActionError, parse_action
from ..bots import Bot, make
from ..cards import card_text, cards_text, sort_for_display, suit_name
from ..errors import IllegalActionError
from ..game import GameState
from ..hand import SEAT_NAMES, HandState
from ..rules import Rules, RulesError
from ..view import HandView

YOU = 0
"""Your seat: South."""

HELP = """\
Type the number of a move from the menu, or the move itself:
  pass | order | order alone | call H | call H alone | discard 9C | play JH
  defend alone | farmer keep | farmer swap 9C TD 9H | farmer throw
Commands:
  hint   what the computer would do, and why
  last   the last trick (only until the next card is led)
  score  the game score and this hand's tricks
  help   this text
  quit   leave the game"""
"""The text of the ``help`` command."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre play``."""
    parser.add_argument("--preset", default="classic", help="rules preset (default classic)")
    parser.add_argument("--level", default="medium", help="computer players' level")
    parser.add_argument(
        "--rule", action="append", default=[], metavar="KEY=VALUE",
        help="change one rule, e.g. --rule game_to=5 --rule stick_the_dealer=yes",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the cards and players")
    parser.add_argument("--delay", type=float, default=0.0,
                        help="seconds to pause after each computer move (default 0)")


def seat_name(seat: int) -> str:
    """A seat's name from your point of view: ``You`` for South."""
    return "You" if seat == YOU else SEAT_NAMES[seat]


def describe(
    seat: int, action: Action | None, kind: str = "", dealer: int = -1, made: bool = False
) -> str:
    """One line telling what a seat did (``None``: an action you may not see).

    ``made``: trump is already made (a pass then declines to defend alone).
    """
    who = seat_name(seat)
    s, es = ("", "") if seat == YOU else ("s", "es")  # you play, West plays
    if action is None:
        return f"{who} discards a card." if kind == A.DISCARD else f"{who} swaps three cards."
    k = action.kind
    if k == A.PASS_KIND and made:
        return f"{who} do{es} not defend alone."
    if k == A.PASS_KIND:
        return f"{who} pass{es}."
    if k == A.ORDER:
        verb = "pick" if dealer == seat else "order"
        alone = f" and go{es} alone" if action.alone else ""
        return f"{who} {verb}{s} it up{alone}."
    if k == A.CALL:
        alone = " alone" if action.alone else ""
        return f"{who} call{s} {suit_name(action.suit)}{alone}."
    if k == A.DISCARD:
        return f"{who} discard{s} the {card_text(action.card)}."
    if k == A.PLAY:
        return f"{who} play{s} {card_text(action.card)}."
    if k == A.DEFEND:
        return f"{who} defend{s} alone."
    if k == A.FARMER_KEEP:
        return f"{who} keep{s} a farmer's hand."
    if k == A.FARMER_THROW:
        return f"{who} throw{s} in a farmer's hand."
    if k == A.FARMER_SWAP:
        return f"{who} swap{s} {cards_text(action.cards)} for the kitty."
    return f"{who}: {action}."


def status_lines(view: HandView) -> list[str]:
    """What you see at your turn: score, trump, the trick, your hand."""
    us, them = view.score
    lines = [f"Score: you and North {us}, West and East {them} (game to {view.rules.game_to})."]
    if view.trump >= 0:
        alone = " alone" if view.alone else ""
        lines.append(
            f"Trump: {suit_name(view.trump)}, made by {seat_name(view.maker)}{alone}. "
            f"Tricks: you and North {view.tricks_won[0]}, West and East {view.tricks_won[1]}."
        )
    else:
        taken = " (turned down)" if view.phase == "call" else ""
        lines.append(f"Dealer: {seat_name(view.dealer)}. Upcard: {card_text(view.upcard)}{taken}.")
    if view.trick:
        seats = [s for s in range(view.leader, view.leader + 4) if s % 4 not in view.sitting_out]
        played = ", ".join(
            f"{seat_name(s % 4)} {card_text(c)}" for s, c in zip(seats, view.trick, strict=False)
        )
        lines.append(f"Trick {len(view.tricks) + 1}: {played}.")
    lines.append(f"Your hand: {cards_text(sort_for_display(view.hand, view.trump))}")
    return lines


def menu(view: HandView) -> list[Action]:
    """Your legal moves in menu order (cards as you hold them)."""
    legal = view.legal_actions()
    order = {c: i for i, c in enumerate(sort_for_display(view.hand, view.trump))}
    return sorted(legal, key=lambda a: order.get(a.card, -1) if a.card >= 0 else -1) \
        if all(a.kind in (A.PLAY, A.DISCARD) for a in legal) else legal


def hint_lines(view: HandView) -> list[str]:
    """The hard player's explanation of the position, if it is available."""
    try:
        from ..bots.hints import explain  # type: ignore[attr-defined, unused-ignore]
    except ImportError:
        return ["Hints need the hard computer player, which is not available."]
    lines: list[str] = list(explain(view))
    return lines


class TerminalGame:
    """One game in the terminal: reads your moves, plays the computers', prints the table."""

    def __init__(
        self,
        rules: Rules,
        level: str,
        seed: int | None,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
        delay: float = 0.0,
    ) -> None:
        """A session; ``read`` and ``write`` default to the terminal."""
        self.rules = rules
        self.rng = random.Random(seed)
        base = self.rng.getrandbits(32) if seed is not None else None
        self.bots: dict[int, Bot] = {
            s: make(level, seed=None if base is None else base + s) for s in (1, 2, 3)
        }
        self.read: Callable[[str], str] = read or (lambda prompt: input(prompt))
        self.write: Callable[[str], None] = write or (lambda line: print(line))
        self.delay = delay
        self.game = GameState(rules, first_dealer=self.rng.randrange(4))

    def play(self) -> int:
        """Play to the end of the game (or ``quit``); returns the exit status."""
        self.write(f"Euchre: you are South, partnered with North ({self.bots[2].name}). "
                   "Type help for commands.")
        self.write("Rules: " + " ".join(self.rules.describe()))
        while not self.game.is_over:
            if self.game.needs_deal:
                self.game = self.game.deal_random(self.rng)
                self.announce_deal()
                continue
            hand = self.game.current
            assert hand is not None and hand.to_act is not None
            seat = hand.to_act
            if seat == YOU:
                action = self.ask(hand.view(YOU))
                if action is None:
                    self.write("You leave the game.")
                    return 0
            else:
                action = self.bots[seat].choose(hand.view(seat))
                if self.delay > 0:
                    time.sleep(self.delay)
            self.game = self.game.apply(action, seat)
            assert self.game.current is not None
            self.report(self.game.current)
        us, them = self.game.score
        won = self.game.winner == 0
        self.write(f"Game over: you and North {us}, West and East {them}. "
                   f"{'You win!' if won else 'West and East win.'}")
        return 0

    def announce_deal(self) -> None:
        """Tell who deals, the upcard, and your cards."""
        hand = self.game.current
        assert hand is not None
        view = hand.view(YOU)
        us, them = self.game.score
        self.write("")
        self.write(f"--- Hand {len(self.game.hands) + 1}: {seat_name(view.dealer)} deal"
                   f"{'' if view.dealer == YOU else 's'}. Score {us}-{them}. ---")
        self.write(f"Upcard: {card_text(view.upcard)}. "
                   f"Your hand: {cards_text(sort_for_display(view.hand))}")

    def report(self, hand: HandState) -> None:
        """Print the last action (as South may see it) and what it finished."""
        view = hand.view(YOU)
        seat, action = view.history[-1]
        kind = view.hidden_kinds[-1] if action is None and view.hidden_kinds else ""
        self.write(describe(seat, action, kind, view.dealer, view.maker >= 0))
        if action is not None and action.kind == A.PLAY and not view.trick and view.tricks:
            _, cards, winner = view.tricks[-1]
            self.write(f"  {seat_name(winner)} take{'' if winner == YOU else 's'} the trick "
                       f"({cards_text(cards)}). Tricks: you and North {view.tricks_won[0]}, "
                       f"West and East {view.tricks_won[1]}.")
        made = action is not None and action.kind in (A.ORDER, A.CALL, A.DISCARD, A.DEFEND)
        if view.sitting_out and view.phase in ("play", "defend") and (made or action is None):
            out = ", ".join(seat_name(s) for s in view.sitting_out)
            self.write(f"  {out} sit{'' if YOU in view.sitting_out else 's'} out this hand.")
        if view.is_over:
            if view.thrown_in:
                self.write("  The hand is thrown in.")
            else:
                us, them = view.points
                who = "You and North score" if us else "West and East score"
                self.write(f"  Hand over: {who} {max(us, them)}. "
                           f"Score {view.score[0] + us}-{view.score[1] + them}.")

    def ask(self, view: HandView) -> Action | None:
        """Prompt until you give a legal move (None: you quit)."""
        for line in status_lines(view):
            self.write(line)
        choices = menu(view)
        self.write("Moves: " + "  ".join(f"{i}) {a}" for i, a in enumerate(choices, 1)))
        while True:
            try:
                raw = self.read("> ").strip()
            except EOFError:
                return None
            word = raw.lower()
            if not word:
                continue
            if word in ("quit", "exit", "q"):
                return None
            if word in ("help", "?"):
                self.write(HELP)
                continue
            if word == "score":
                us, them = view.score
                self.write(f"Score: you and North {us}, West and East {them}. This hand's "
                           f"tricks: {view.tricks_won[0]}-{view.tricks_won[1]}.")
                continue
            if word == "hint":
                for line in hint_lines(view):
                    self.write(line)
                continue
            if word == "last":
                last = view.last_trick
                if last is None:
                    self.write("No trick to look at: the last trick may be seen only until "
                               "the next card is led.")
                else:
                    leader, cards, winner = last
                    self.write(f"Last trick, led by {seat_name(leader)}: {cards_text(cards)}; "
                               f"won by {seat_name(winner)}.")
                continue
            if word.isdigit():
                n = int(word)
                if 1 <= n <= len(choices):
                    return choices[n - 1]
                self.write(f"Choose a number from 1 to {len(choices)}.")
                continue
            try:
                action = parse_action(raw)
            except ActionError as e:
                self.write(str(e))
                continue
            if action in choices:
                return action
            hand = self.game.current
            assert hand is not None
            try:
                hand.apply(action, YOU)
            except (IllegalActionError, ValueError) as e:
                self.write(f"Not allowed: {e}")
                continue
            return action  # pragma: no cover - legal actions are all in the menu


def run(args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    try:
        rules = Rules.from_text(" ".join([args.preset, *args.rule]))
        make(args.level)
    except (RulesError, ValueError) as e:
        print(f"euchre play: {e}")
        return 2
    session = TerminalGame(rules, args.level, args.seed, delay=args.delay)
    try:
        return session.play()
    except KeyboardInterrupt:
        print("\nYou leave the game.")
        return 130
