"""``euchre verify RECORD``: check each hand's deal against its revealed shuffle seed.

Exit status: 0 when at least one hand was verified, none failed and the record replays;
1 when a check failed (or nothing could be checked); 2 when a file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..errors import RecordError
from ..record import GameRecord, load
from ..verify import CommitmentsError, parse_commitments, parse_sent_seeds, verify_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre verify``."""
    parser.add_argument("record", help="a game record (text or JSON), e.g. from "
                        "/api/games/ID/record; - reads it from stdin")
    parser.add_argument("--commitments", metavar="FILE",
                        help="the commitments kept during play (see docs/verify.md)")
    parser.add_argument("--strict", action="store_true",
                        help="also fail any hand without both a seed and a kept commitment")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def run(args: argparse.Namespace) -> int:
    """Verify the record and print a verdict per hand."""
    try:
        record = _read_stdin() if args.record == "-" else load(args.record)
    except (OSError, UnicodeDecodeError, RecordError) as e:
        print(f"cannot read {args.record}: {e}")
        return 2
    commitments = sent = None
    if args.commitments:
        try:
            with open(args.commitments, encoding="utf-8") as f:
                text = f.read()
            commitments, sent = parse_commitments(text), parse_sent_seeds(text)
        except (OSError, UnicodeDecodeError, CommitmentsError) as e:
            print(f"cannot read {args.commitments}: {e}")
            return 2
    report = verify_record(record, commitments, strict=args.strict, sent=sent)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for line in report.lines():
            print(line)
    return 0 if report.ok else 1


def _read_stdin() -> GameRecord:
    text = sys.stdin.read()
    if text.lstrip().startswith("{"):
        return GameRecord.from_json(text)
    return GameRecord.from_text(text)
