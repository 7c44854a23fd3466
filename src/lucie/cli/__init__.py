"""The ``lucie`` command.

``lucie`` with no arguments opens the game (the terminal UI when it is
installed, else the plain line mode).  Sub-commands live in modules of this
package, each with a ``register(subparsers)`` function; a module imports its
optional dependencies (Textual, Starlette, the solver) only when its command
runs, so every command is listed and one whose dependencies are missing says
so when it is used.

Every user error is reported as ``lucie: error: <what is wrong>`` with exit
status 2, never a traceback.

Everything printed for people is in the language of ``--lang CODE`` (a
global option, before or after the sub-command), else of the user's locale
(see :mod:`lucie.cli.language`); ``--json`` output, move notation and card
codes are the same in every language.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from lucie import i18n
from lucie.cli.common import speak_placeholders
from lucie.cli.language import add_lang, argparse_speaks, chosen, skip_lang
from lucie.errors import LucieError
from lucie.i18n import _

#: Sub-command modules, in the order ``lucie --help`` lists them.
COMMAND_MODULES = (
    "lucie.cli.game_cmds",
    "lucie.cli.solver_cmds",
    "lucie.cli.odds_cmds",
    "lucie.cli.review_cmds",
    "lucie.cli.store_cmds",
    "lucie.cli.daily_cmds",
    "lucie.cli.web_cmds",
    "lucie.cli.serve_cmds",
)


def build_parser() -> argparse.ArgumentParser:
    from lucie import __version__

    parser = argparse.ArgumentParser(
        prog="lucie",
        description=_("La Belle Lucie solitaire and its family. "
                      "Run without a command to play."),
    )
    parser.add_argument("--version", action="version", version=f"lucie {__version__}",
                        help=_("show program's version number and exit"))
    add_lang(parser, top=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        module = importlib.import_module(name)
        module.register(sub)
    for command in sub.choices.values():
        add_lang(command)
    speak_placeholders(parser)
    return parser


def refuse_empty_values(parser: argparse.ArgumentParser, args_list: Sequence[str]) -> None:
    """Refuse ``--option=--`` as argparse refuses ``--option`` alone: the
    argparse of Python 3.11 gives that option an empty list, which no
    command expects."""
    for token in args_list:
        if token == "--":
            return  # (the rest is not options)
        if token.startswith("-") and token.endswith("=--"):
            parser.error(_("argument %(argument_name)s: %(message)s") % {
                "argument_name": token[:-3], "message": _("expected one argument")})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``lucie`` console script; returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    previous = i18n.language()
    # the language first, so that help and errors of the parser speak it too;
    # an unknown code leaves the locale's, and the parser refuses it below
    explicit = i18n.normalize(chosen(args_list))
    i18n.set_language(explicit or i18n.from_environment())
    try:
        with argparse_speaks():
            parser = build_parser()
            first = skip_lang(args_list)
            if first == len(args_list) or (
                args_list[first].startswith("-")
                and args_list[first] not in ("-h", "--help", "--version")
            ):
                args_list.insert(first, "play")  # `lucie --deal 7` plays deal 7
            refuse_empty_values(parser, args_list)
            args = parser.parse_args(args_list)
        args.lang = explicit  # what --lang asked for (None: the locale's)
        if args.command is None:
            parser.print_help()
            return 0
        return _run(args)
    finally:
        i18n.set_language(previous)


def _run(args: argparse.Namespace) -> int:
    try:
        status: int = args.func(args)
    except LucieError as exc:
        print(_("lucie: error: {message}").format(message=exc), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return status
