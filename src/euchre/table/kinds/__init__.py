"""The kinds of table: practice, coin and online (with its lobby), each a
:class:`~euchre.table.actor.kind.TableKind` the actor runs, and what they need: the move
clock of rule 9, the strategy guide's example hands, display names that pass for no seat.
"""
