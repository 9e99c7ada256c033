"""The ``euchre`` command: the only part of the package that prints.

Each subcommand lives in its own module and exposes ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them together, importing lazily so that
``euchre replay`` never loads the web server.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "serve": ("euchre.cli.serve", "start the web platform (http://127.0.0.1:8000)"),
    "play": ("euchre.cli.play", "play a game in the terminal with a computer partner"),
    "replay": ("euchre.cli.replay", "replay a game record hand by hand"),
    "bench": ("euchre.cli.bench", "measure engine and solver speed"),
    "arena": ("euchre.cli.arena", "play duplicate matches between computer players"),
    "engine": ("euchre.cli.engine", "drive the engine and bots with JSON lines on stdin"),
    "verify": ("euchre.cli.verify", "check that a record's deals came from its shuffle seeds"),
    "bot": ("euchre.cli.bot", "outside bots: 'euchre bot connect URL TOKEN -- COMMAND' plays "
                              "a seat at a real table with a program"),
    "db": ("euchre.cli.db", "database chores: 'euchre db upgrade' runs the migrations"),
}
"""Subcommand name -> (module, one-line help)."""

PROGRAM_AFTER_DASHES = {"bot"}
"""Subcommands that take a program to run after ``--`` (as ``args.program``)."""


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``euchre`` command."""
    parser = argparse.ArgumentParser(prog="euchre", description="Euchre: play, replay, measure.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    argv = sys.argv[1:] if argv is None else argv
    chosen = next((a for a in argv if not a.startswith("-")), None)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == chosen:
            try:
                mod = importlib.import_module(module)
            except ImportError as e:
                print(f"euchre {name} is not available: {e}", file=sys.stderr)
                return 2
            mod.add_arguments(p)
            p.set_defaults(_run=mod.run)
    program: list[str] = []
    if chosen in PROGRAM_AFTER_DASHES and "--" in argv:  # argparse mishandles -- below a
        cut = argv.index("--")                           # subcommand: split it off here
        argv, program = argv[:cut], argv[cut + 1:]
    args = parser.parse_args(argv)
    args.program = program
    if not hasattr(args, "_run"):
        parser.print_help()
        return 0 if args.command is None else 2
    result: int = args._run(args)
    return result


