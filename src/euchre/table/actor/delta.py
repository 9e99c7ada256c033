"""What changed in a table, as paths: how an event message carries the table without
sending it whole, and how a client folds it back.

A table (the TABLE object of docs/protocol.md) is a tree of JSON values. :func:`changes`
lists what turns one table into the next as ``{path: value}``: a path is the keys and list
indexes from the root joined by ``.`` (``"view.trick"``, ``"seats.1.connected"``,
``"view.history.3"``); a path ending in ``+`` appends the values to that list
(``"view.trick+": ["JC"]``); a key that went away is set to null. :func:`fold` applies
them, in order. What the event says itself is left out: each event's own fields are
folded in as it comes (:func:`implied`: an action's line in the history and a play's card
in the trick, a trick as the last trick, a hand's result, a deal's commitments), and the
last event of a move brings the rest, its ``version`` included: a table whose version is
the message's is the move's whole result. None of it knows a rule of the
game: the browser (``static/js/connection.js``), the bot bridge and the tests fold with
these same steps (:class:`Folder`).

A seat's own table is the public one (a spectator's) with what only that seat sees put in:
:data:`PRIVATE` fields of its view, and its own hidden actions (a discard, a farmer's swap)
in the history in full. That part travels apart, as ``you`` (:func:`you_of`,
:func:`put_you`), so the public changes are the same for everyone.
"""

from __future__ import annotations

import copy
from typing import Any

Json = dict[str, Any]
"""A JSON object."""

PRIVATE = ("hand", "legal", "discard", "farmer_gave")
"""The fields of a seat's view that only that seat sees."""

PLAY = "play "
"""How a play's notation starts (``play JC``): the card follows."""

OVER = "over"
"""The phase of a hand that is over (``view.phase``)."""

PLAYED = "play"
"""A play off the view (table law 11): its card is not shown."""


def _shows_card(line: list[Any]) -> bool:
    """Whether a history line is a play that shows its card."""
    text = line[1]
    return isinstance(text, str) and text.startswith(PLAY)


def changes(before: Json | None, after: Json) -> Json:
    """What turns ``before`` into ``after`` (None: nothing yet, every field is set)."""
    out: Json = {}
    _object(before or {}, after, "", out)
    return out


def _object(before: Json, after: Json, prefix: str, out: Json) -> None:
    for key, new in after.items():
        old = before.get(key)
        if old is new or old == new:
            continue
        value_changes(old, new, prefix + key, out)
    for key in before:
        if key not in after and before[key] is not None:
            out[prefix + key] = None


def value_changes(old: Any, new: Any, path: str, out: Json) -> None:
    """The changes at ``path`` from ``old`` to ``new`` (two values that differ), into
    ``out``: an object's changed keys, a list's replaced or appended items, else ``new``."""
    if isinstance(new, dict) and isinstance(old, dict):
        _object(old, new, path + ".", out)
    elif isinstance(new, list) and isinstance(old, list) and old:
        _list(old, new, path, out)
    else:
        out[path] = new


def _list(before: list[Any], after: list[Any], path: str, out: Json) -> None:
    """A list that grew (appended), had a few items replaced (table law 11 hides an old
    play), or both; else it is set whole."""
    if len(after) < len(before):
        out[path] = after
        return
    changed = [i for i in range(len(before)) if before[i] != after[i]]
    if 2 * len(changed) > len(before):
        out[path] = after
        return
    for i in changed:
        out[f"{path}.{i}"] = after[i]
    if len(after) > len(before):
        out[path + "+"] = after[len(before):]


def fold(table: Json, delta: Json) -> Json:
    """``table`` with ``delta`` applied (in place; returned)."""
    for path, value in delta.items():
        append = path.endswith("+")
        keys = (path[:-1] if append else path).split(".")
        node: Any = table
        for key in keys[:-1]:
            node = node[int(key)] if isinstance(node, list) else node[key]
        last = keys[-1]
        if isinstance(node, list):
            node[int(last)] = value
        elif append:
            node[last].extend(value)
        else:
            node[last] = value
    return table


def implied(table: Json, event: Json) -> Json:
    """``table`` as ``event`` (decoded, as its reader sees it) says it changes, without
    changing ``table`` (what differs is copied): an ``action`` appends ``[seat, action]`` to
    ``view.history`` (a play, its card to ``view.trick`` too; a play that leads a trick, to
    an empty ``view.trick``, first hides the card of every earlier play in the history, as
    ``play``, and empties ``view.last_trick``: table law 11); a ``trick`` is
    ``view.last_trick``, one more of ``view.tricks_played`` and of its winner's side's
    ``view.tricks_won``, no card left in ``view.trick``, and its winner ``view.leader`` and
    ``view.to_act``; a ``hand_over`` sets ``score`` and ``summary``, no ``commitment``
    (the seed is out), and ``view.points``, ``view.phase`` ``over`` and no
    ``view.to_act``; a ``deal`` sets ``hand_number``, ``dealer``, ``commitment`` and
    ``next_commitment``. A move's changes
    leave out what this gives."""
    kind = event.get("kind")
    view = table.get("view")
    if kind == "action" and view is not None:
        action = event["action"]
        seen = {**view}
        history = view["history"]
        if action.startswith(PLAY):  # the card it names goes to the trick
            if not view["trick"]:  # a lead: table law 11, the last trick leaves the view
                history = [[line[0], PLAYED] if _shows_card(line) else line
                           for line in history]
                seen["last_trick"] = None
            seen["trick"] = [*view["trick"], action[len(PLAY):]]
        seen["history"] = [*history, [event["seat"], action]]
        return {**table, "view": seen}
    if kind == "trick" and view is not None:
        winner = event["winner"]
        last = {"leader": event["leader"], "cards": event["cards"], "winner": winner}
        won = list(view["tricks_won"])
        won[winner % 2] += 1
        return {**table, "view": {**view, "last_trick": last, "trick": [],
                                  "tricks_played": view["tricks_played"] + 1,
                                  "tricks_won": won, "leader": winner, "to_act": winner}}
    if kind == "hand_over":
        over = {**table, "score": event["score"], "summary": event["summary"],
                "commitment": None}
        if view is not None:
            over["view"] = {**view, "phase": OVER, "to_act": None, "points": event["points"]}
        return over
    if kind == "deal":
        return {**table, "hand_number": event["hand_number"], "dealer": event["dealer"],
                "commitment": event.get("commitment"),
                "next_commitment": event.get("next_commitment")}
    return table


def event_changes(before: Json | None, after: Json, events: list[Json]) -> Json:
    """The changes that take a reader holding ``before`` to ``after`` by folding
    ``events`` (decoded, as the reader sees them; the changes go with the last): what
    the events say themselves is left out (:func:`implied`), and ``to_act`` where it is the
    view's (:func:`follow_view`). The table's ``version`` is in them: a reader's table is
    a move's whole result when its version is the last event's."""
    if before is None:
        return changes(None, after)
    start = before
    for event in events:
        start = implied(start, event)
    delta = changes(follow_view(start, after), after)
    view = after.get("view")
    if delta and view is not None and after.get("to_act") != view.get("to_act"):
        delta["to_act"] = after.get("to_act")  # (a folder takes it from the view else)
    return delta


def follow_view(table: Json, after: Json) -> Json:
    """``table`` with its ``to_act`` as ``after``'s where that is its view's ``to_act``
    (always, while a hand is on the table): a folder sets it from the view, so the
    changes need not say it twice."""
    view = after.get("view")
    if view is not None and after.get("to_act") == view.get("to_act"):
        return {**table, "to_act": after.get("to_act")}
    return table


def you_of(seat: int, table: Json, public: Json) -> Json:
    """What ``seat`` sees of its ``table`` that the ``public`` table (a spectator's of the
    same version) does not: its seat, hand, legal moves, discard, the cards it gave in a
    farmer's swap, and ``own``: ``[index, action]`` of each of its own hidden actions in
    the history, in full."""
    you: Json = {"seat": seat}
    view, shown = table.get("view"), public.get("view")
    if view is None or shown is None:
        return you
    for key in PRIVATE:
        you[key] = view[key]
    history, seen = view["history"], shown["history"]
    you["own"] = [[i, entry] for i, entry in enumerate(history) if entry != seen[i]]
    return you


def put_you(table: Json, you: Json) -> Json:
    """``table`` (a public one, in place; returned) as the seat ``you`` describes sees it."""
    table["seat"] = you["seat"]
    view = table.get("view")
    if view is not None:
        view["seat"] = you["seat"]
        for key in PRIVATE:
            if key in you:
                view[key] = you[key]
        history = view["history"]
        for index, entry in you.get("own", ()):
            if index < len(history):
                history[index] = entry
    return table


def you_changes(before: Json | None, after: Json) -> Json:
    """The fields of ``after`` (a :func:`you_of`) that differ from ``before``."""
    if before is None:
        return after
    return {k: v for k, v in after.items() if before.get(k) != v}


class Gap(ValueError):
    """An event came whose version is not one more than the last one folded."""


class Folder:
    """A client's table, folded from the table socket's messages as the browser folds them
    (``static/js/connection.js``): a snapshot is taken whole, each event's changes and
    ``you`` are applied to it. No rule of the game is needed."""

    def __init__(self) -> None:
        """No table yet."""
        self.table: Json | None = None
        """The table as folded so far (None: no snapshot yet)."""
        self.you: Json | None = None
        """The seat's own part of it (None: a spectator, or nothing yet)."""
        self.version: int | None = None
        """The version of the last message folded."""

    def receive(self, message: Json) -> bool:
        """Fold ``message`` (decoded); True if it was a snapshot or an event. :class:`Gap`
        if an event does not follow the last one (rejoin with ``since``)."""
        kind = message.get("type")
        if kind == "snapshot":
            self.table = copy.deepcopy(message["table"])
            self.you = copy.deepcopy(message.get("you"))
            self.version = message.get("version")
            return True
        if kind != "event":
            return False
        if self.table is None or self.version is None or message["version"] != self.version + 1:
            raise Gap(f"event {message['version']} after {self.version}")
        self.version = message["version"]
        table = self.table
        table.pop("clock_played", None)  # a snapshot's: events mark timed-out moves
        event = message.get("event")
        if event is not None:
            table = self.table = implied(table, copy.deepcopy(event))
        delta = message.get("changes")
        if delta:
            fold(table, copy.deepcopy(delta))
            if table.get("view") is not None and "to_act" not in delta:
                table["to_act"] = table["view"].get("to_act")  # (:func:`follow_view`)
        mine = message.get("you")
        if mine:
            self.you = {**(self.you or {}), **copy.deepcopy(mine)}
        if self.you is not None and (delta or mine):
            put_you(table, self.you)
        return True
