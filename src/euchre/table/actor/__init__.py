"""The table's actor and its parts: one queue, one loop, and what it saves and shows.

:class:`~euchre.table.actor.actor.TableActor` takes one input at a time from its
:mod:`~euchre.table.actor.inbox`, calls the engine, and holds, saves and shows the events
each input makes. Its parts (agenda, computers, dealing, presence, audience, outbox, saving,
observer) work for it; none knows a kind of table by name (a kind answers the questions of
:class:`~euchre.table.actor.kind.TableKind`).
"""
