"""``euchre engine``: the engine protocol over stdin and stdout, one JSON object per line.

See ``docs/engine_protocol.md``. The protocol itself is
:class:`euchre.engine_protocol.ProtocolSession`; this module only reads lines, writes the
answers and flushes after each one.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import BinaryIO, TextIO

from ..engine_protocol.fields import ProtocolError
from ..engine_protocol.session import ProtocolSession, error_response


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``euchre engine`` takes no arguments: everything is a request on stdin."""
    parser.epilog = ('Send one JSON request per line, e.g. {"cmd": "info"}; '
                     "see docs/engine_protocol.md.")


def serve(stdin: BinaryIO, stdout: TextIO) -> int:
    """Answer requests from ``stdin`` until ``quit`` or the end of input; returns 0."""
    session = ProtocolSession()
    while not session.closed:
        raw = stdin.readline()
        if not raw:
            break
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            bad = ProtocolError(f"a request must be UTF-8 text: {e}", "bad_json")
            out = [json.dumps(error_response(None, bad), separators=(",", ":"))]
        else:
            out = session.feed(line)
        for text in out:
            stdout.write(text + "\n")
        stdout.flush()
    return 0


def run(args: argparse.Namespace) -> int:
    """Run the protocol on the process's stdin and stdout."""
    try:
        return serve(sys.stdin.buffer, sys.stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
