"""Socket relays between the processes of a site: a socket (or a request) that reaches a
process which does not run its table reaches the one that does, through the broker.

:mod:`.messages` holds the relay messages (msgspec tagged unions, one per direction),
:mod:`.host` the side of the process that runs the table, :mod:`.edge` the side of the
process the socket reached. Callers do not use them: they open a table through the door
(:mod:`..door`), which relays, hands over and asks behind one handle.
"""

from __future__ import annotations

from dataclasses import dataclass

from .edge import RelayEdge
from .host import BROKEN, MOVED, RelayHost

__all__ = ["BROKEN", "MOVED", "RelayEdge", "RelayHost", "Relays"]


@dataclass(frozen=True)
class Relays:
    """One process's two sides of the relays."""

    host: RelayHost
    """Its inbox: the relayed sockets of its tables, its answers to other processes."""
    edge: RelayEdge
    """The sockets it relays to other processes, and its questions to them."""
