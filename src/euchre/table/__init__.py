"""Tables: one actor per table, the kinds of table, and hosting them, in three rooms.

- :mod:`euchre.table.actor`: the actor and its parts (its queue, its timer, saving, what
  each reader may see, the events and their wire types), knowing no kind of table by name;
- :mod:`euchre.table.kinds`: the kinds of table (practice, coin, online and its lobby) and
  what they need (the move clock, example hands, display names);
- :mod:`euchre.table.hosting`: the tables a server runs (the manager), who owns each when
  many processes serve one site, and retiring abandoned ones.

Each room imports only the rooms below it (hosting, then kinds, then the actor; checked by
``lint-imports``). The table layer stands between the server (sockets, HTTP) and the engine
and bots: it knows the rules only through :class:`~euchre.game.GameState` and knows nothing
of sockets.
"""
