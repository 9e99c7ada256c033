"""The ``euchre engine`` protocol: JSON lines that drive the rules engine and the bots.

:class:`ProtocolSession` answers request lines with response lines and does no I/O;
``euchre engine`` (:mod:`euchre.cli.engine`) runs one over stdin and stdout. See
``docs/engine_protocol.md``.
"""

from .fields import ProtocolError
from .session import PROTOCOL, ProtocolSession, command_names, error_response

__all__ = ["PROTOCOL", "ProtocolError", "ProtocolSession", "command_names", "error_response"]
