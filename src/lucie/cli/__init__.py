"""The ``lucie`` command.

``lucie`` with no arguments opens the game (the terminal UI when it is
installed, else the plain line mode).  Sub-commands live in modules of this
package, each with a ``register(subparsers)`` function; a module imports its
optional dependencies (Textual, Starlette, the solver) only when its command
runs, so every command is listed and one whose dependencies are missing says
so when it is used.

Every user error is reported as ``lucie: error: <what is wrong>`` with exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from lucie.errors import LucieError

#: Sub-command modules, in the order ``lucie --help`` lists them.
COMMAND_MODULES = (
    "lucie.cli.game_cmds",
    "lucie.cli.solver_cmds",
    "lucie.cli.odds_cmds",
    "lucie.cli.review_cmds",
    "lucie.cli.store_cmds",
    "lucie.cli.web_cmds",
)


def build_parser() -> argparse.ArgumentParser:
    from lucie import __version__

    parser = argparse.ArgumentParser(
        prog="lucie",
        description="La Belle Lucie solitaire and its family. "
        "Run without a command to play.",
    )
    parser.add_argument("--version", action="version", version=f"lucie {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lucie`` console script; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not args_list or (
        args_list[0].startswith("-") and args_list[0] not in ("-h", "--help", "--version")
    ):
        args_list = ["play", *args_list]  # `lucie --deal 7` plays deal 7
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
    except LucieError as exc:
        print(f"lucie: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status
