"""Publish/subscribe between the processes of a site, behind five methods.

:class:`Broker` has ``connect``, ``disconnect``, ``publish``, ``subscribe`` (an async
context manager giving an async iterator of messages) and ``ping``; :class:`MemoryBroker`
serves one process (and tests), :class:`~euchre.broker.redis.RedisBroker` every process
of a site through Redis pub/sub. :func:`open_broker` picks one (given the process's Redis
client, or None). Used to relay table sockets between the process a socket reached and
the process that owns the table.
"""

from .base import Broker, BrokerUnavailable
from .memory import MemoryBroker
from .open import open_broker
from .subscription import Subscription, SubscriptionOverflow

__all__ = ["Broker", "BrokerUnavailable", "MemoryBroker", "Subscription", "SubscriptionOverflow",
           "open_broker"]
