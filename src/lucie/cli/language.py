"""The command line's language: ``--lang CODE``, else the user's locale.

``lucie --lang fr ...`` (before or after the sub-command) speaks French;
without it the language comes from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``
and ``LANG`` (:func:`lucie.i18n.from_environment`).  :func:`chosen` finds
the option before the parser is built, so that the parser's own texts (help,
usage, errors) are in that language too.

argparse writes its phrases ("usage: ", "the following arguments are
required: %s", ...) through the module-level functions ``argparse._`` and
``argparse.ngettext`` that it imports from the standard :mod:`gettext`
module, and offers no hook to give them a catalogue: :func:`argparse_speaks`
points those two names at lucie's catalogue while the command line builds
and runs its parser, and puts them back afterwards.  The phrases are marked
in :data:`ARGPARSE_TEXTS` so that Babel extracts them into lucie's template.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from lucie.cli.common import language_code
from lucie.i18n import LANGUAGES, N_, _, ngettext

#: The phrases of argparse a user of lucie can meet, as argparse spells
#: them (they are its msgids), marked here for Babel.
ARGPARSE_TEXTS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


@contextmanager
def argparse_speaks() -> Iterator[None]:
    """Inside the block, argparse's phrases are in the language in use."""
    saved = getattr(argparse, "_"), getattr(argparse, "ngettext")  # noqa: B009
    setattr(argparse, "_", _)  # noqa: B010
    setattr(argparse, "ngettext", ngettext)  # noqa: B010
    try:
        yield
    finally:
        setattr(argparse, "_", saved[0])  # noqa: B010
        setattr(argparse, "ngettext", saved[1])  # noqa: B010


def add_lang(parser: argparse.ArgumentParser, *, top: bool = False) -> None:
    """The ``--lang`` option; on a sub-command its default is left out, so
    that ``lucie --lang fr stats`` keeps the code given before the command."""
    parser.add_argument(
        "--lang", type=language_code, metavar="CODE",
        default=None if top else argparse.SUPPRESS,
        help=_("language of the messages: {known} (default: the locale's, from "
               "LANGUAGE, LC_ALL, LC_MESSAGES or LANG)").format(known=", ".join(LANGUAGES)),
    )


def chosen(args: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``args`` (``--lang X`` or
    ``--lang=X``, up to a ``--``), or None; not yet checked.

    >>> chosen(["stats", "--lang", "fr"]), chosen(["--lang=de", "show"]), chosen(["show"])
    ('fr', 'de', None)
    >>> chosen(["replay", "--", "--lang", "fr"]) is None
    True
    """
    found: str | None = None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--lang="):
            found = arg.partition("=")[2]
    return found


def skip_lang(args: Sequence[str]) -> int:
    """The index of the first argument after any leading ``--lang`` options.

    >>> skip_lang(["--lang", "fr", "stats"]), skip_lang(["--lang=fr"]), skip_lang(["--lang"])
    (2, 1, 0)
    """
    i = 0
    while i < len(args):
        if args[i] == "--lang" and i + 1 < len(args):
            i += 2
        elif args[i].startswith("--lang="):
            i += 1
        else:
            break
    return i
