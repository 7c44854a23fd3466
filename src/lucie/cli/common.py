"""Options, argument types and helpers shared by the sub-commands.

Every number a sub-command reads goes through one of the argument types
here, and each of them through :func:`lucie.parsing.parse_int` or
:func:`lucie.parsing.parse_seconds`: ASCII digits only, within the bounds
below.  A bad value is argparse's usual ``error: argument --x: ...`` with
exit status 2.

==================  ===========================================
type                accepts
==================  ===========================================
``deal_number``     1 to 2^63-1 (what the store can hold)
``seed``            0 to 2^63-1
``count(...)``      whole numbers within the bounds it is given
``seconds(...)``    0.001 to a week, digits with an optional fraction
``budget(...)``     as ``seconds``, or ``none``/``off`` for no budget
``port``            0 to 65535
``rules_spec``      a variant name with optional settings
``language_code``   a language lucie speaks (``--lang``)
==================  ===========================================
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from lucie import environment
from lucie.deals import MAX_DEAL, check_deal_number
from lucie.engine import Game
from lucie.errors import LucieError, SaveFileError
from lucie.files import check_target, read_bytes, same_file
from lucie.formats import SAVE_FORMAT, load_game, parse_layout
from lucie.i18n import LANGUAGES, _, normalize, pgettext
from lucie.parsing import excerpt, parse_int, parse_seconds
from lucie.rules import VARIANTS, Rules

if TYPE_CHECKING:
    from lucie.analysis.cache import ValueCache

#: The shortest and the longest time budget an option accepts, in seconds.
MIN_SECONDS: Final = 0.001
MAX_SECONDS: Final = 7 * 24 * 3600.0
#: The largest file (layout or saved game) lucie reads, in bytes.
MAX_FILE_BYTES: Final = 4 * 1024 * 1024


def deal_number(text: str) -> int:
    """argparse type for a deal number (a clear message when it is bad)."""
    try:
        return check_deal_number(text)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seed(text: str) -> int:
    """argparse type for a random seed: 0 to 2^63-1."""
    try:
        return parse_int(text, what=_("seed"), low=0, high=MAX_DEAL)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def count(what: str, low: int = 1, high: int = 10**9) -> Callable[[str], int]:
    """argparse type for a whole number of *what* from *low* to *high*
    (*what* in the language in use: it is shown in the error messages)."""

    def read(text: str) -> int:
        try:
            return parse_int(text, what=what, low=low, high=high)
        except LucieError as exc:
            digits = text.strip()
            if digits.isascii() and digits.isdigit() and len(digits) <= len(str(high)) + 1:
                message = (
                    _("{what} {value} is out of range: it must be at least {low}")
                    if int(digits) < low else
                    _("{what} {value} is out of range: it must be at most {high}")
                )
                raise argparse.ArgumentTypeError(message.format(
                    what=what, value=int(digits), low=low, high=high)) from None
            raise argparse.ArgumentTypeError(str(exc)) from None

    read.__name__ = what.replace(" ", "_")
    return read


def seconds(what: str | None = None, high: float = MAX_SECONDS) -> Callable[[str], float]:
    """argparse type for a number of seconds (``MIN_SECONDS`` to *high*);
    *what* names it in messages (default: "time budget", translated)."""
    what = _("time budget") if what is None else what

    def read(text: str) -> float:
        try:
            return parse_seconds(text, what=what, low=MIN_SECONDS, high=high)
        except LucieError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    read.__name__ = what.replace(" ", "_")
    return read


def budget(what: str | None = None) -> Callable[[str], float | None]:
    """argparse type for a time budget in seconds, or ``none``/``off`` for none."""
    read_seconds = seconds(what)
    what = _("time budget") if what is None else what

    def read(text: str) -> float | None:
        if text.strip().lower() in ("none", "off"):
            return None
        return read_seconds(text)

    read.__name__ = what.replace(" ", "_")
    return read


def day(text: str) -> datetime.date:
    """argparse type for a day (``YYYY-MM-DD`` or ``today``), not after today (UTC)."""
    from lucie.standings import parse_day

    try:
        return parse_day(text)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def port(text: str) -> int:
    """argparse type for a TCP port: 0 (any free one) to 65535."""
    try:
        return parse_int(text, what=_("port"), low=0, high=65535)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_address(p: argparse.ArgumentParser, *, port_default: int, port_help: str) -> None:
    """``--host`` (this machine only unless told) and ``--port`` of a server."""
    p.add_argument("--host", default="127.0.0.1",
                   help=_("address to listen on (default: 127.0.0.1, this machine only)"))
    p.add_argument("--port", type=port, default=port_default, help=port_help)


class _Excerpt(str):
    """A text whose ``repr`` is :func:`lucie.parsing.excerpt`'s (for a
    message that writes ``{code!r}``)."""

    def __repr__(self) -> str:
        return excerpt(str(self))


def known_languages() -> str:
    """``en (English), fr (Français), ...``: the codes ``--lang`` takes."""
    return ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())


def language_code(text: str) -> str:
    """argparse type for ``--lang``: a code lucie speaks (``fr``, also
    ``fr_FR.UTF-8`` or ``de-CH``), else a message listing the known ones."""
    found = normalize(text)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("unknown language {code!r}: choose one of {known}").format(
                code=_Excerpt(text), known=known_languages())
        )
    return found


def rules_spec(text: str) -> Rules:
    """argparse type for ``--variant`` (a name, optionally with settings)."""
    try:
        return Rules.parse(text)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", "-v", type=rules_spec, default=None, metavar="V",
        help=_("variant name, optionally with settings: {names}; e.g. 'classic,merci=on' "
               "(default: classic)").format(names=", ".join(VARIANTS)),
    )


def add_deal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deal", "-d", type=deal_number, default=None, metavar="N",
        help=_("deal number, as in PySolFC (default: a random number, shown)"),
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help=_("print JSON for machines"))


def variant_title(spec: str) -> str:
    """A stored variant spec as a player reads it: the variant's title in
    the language in use (:meth:`Rules.name`), the spec itself if it is
    customised or not one lucie knows (a damaged record).

    >>> from lucie.i18n import using
    >>> with using("fr"):
    ...     variant_title("fan"), variant_title("classic,redeals=1"), variant_title("??")
    ('Éventail', 'classic,redeals=1', '??')
    """
    try:
        return Rules.parse(spec).name()
    except LucieError:
        return spec


def placeholder(name: str) -> str:
    """A value's placeholder in usage and help (``FILE``, ``PLAYER``) in
    the language in use; the one-letter ones (``N``, ``S``) and ``ID``,
    ``CODE`` stay as they are, as they read the same in every language.

    >>> from lucie.i18n import using
    >>> with using("fr"):
    ...     placeholder("FILE"), placeholder("GAME.json"), placeholder("N")
    ('FICHIER', 'PARTIE.json', 'N')
    """
    words = {
        "FILE": pgettext("command-line placeholder", "FILE"),
        "PATH": pgettext("command-line placeholder", "PATH"),
        "GAME": pgettext("command-line placeholder", "GAME"),
        "SEED": pgettext("command-line placeholder", "SEED"),
        "PLAYER": pgettext("command-line placeholder", "PLAYER"),
        "MOVE": pgettext("command-line placeholder", "MOVE"),
        "ADDRESS": pgettext("command-line placeholder", "ADDRESS"),
        "HOST": pgettext("command-line placeholder", "HOST"),
        "PORT": pgettext("command-line placeholder", "PORT"),
        "COMMAND": pgettext("command-line placeholder", "COMMAND"),
        "DIFFICULTY": pgettext("command-line placeholder", "DIFFICULTY"),
        "POLICY": pgettext("command-line placeholder", "POLICY"),
        "FORMAT": pgettext("command-line placeholder", "FORMAT"),
    }
    stem, dot, extension = name.partition(".")
    return words.get(stem, stem) + dot + extension


def speak_placeholders(parser: argparse.ArgumentParser) -> None:
    """Show every value's placeholder of ``parser`` and its sub-commands in
    the language in use (:func:`placeholder`); an option with a fixed set
    of values (``--policy``) shows a placeholder too, its help naming the
    values to type (typed values stay as they are, as move notation does)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            if isinstance(action.metavar, str):
                action.metavar = placeholder(action.metavar)
            for sub in action.choices.values():
                speak_placeholders(sub)
            continue
        if action.nargs == 0 or isinstance(action.metavar, tuple):
            continue
        if action.metavar is None:
            action.metavar = action.dest.upper() if action.option_strings else action.dest
        action.metavar = placeholder(action.metavar)


def read_text(path: str, what: str | None = None) -> str:
    """Read a file, or standard input for ``-``; errors name the file.

    At most :data:`MAX_FILE_BYTES` are read: no layout or saved game is
    larger, and a device like ``/dev/zero`` must not fill the memory.  A
    file is opened by :func:`lucie.files.read_bytes`: a named pipe, a
    device, a symbolic-link loop or a dangling link is refused, never read.
    """
    name = _("standard input") if path == "-" else path
    if path != "-":
        data = read_bytes(path, what=what or _("file"), limit=MAX_FILE_BYTES)
    else:
        stream = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        try:
            if stream is None:  # a text stream without bytes (tests)
                text = sys.stdin.read(MAX_FILE_BYTES + 1)
                if len(text) > MAX_FILE_BYTES:
                    raise LucieError(_("{file}: larger than {size} bytes").format(
                        file=name, size=MAX_FILE_BYTES))
                return text
            data = stream.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise LucieError(f"{name}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise LucieError(_("{file}: larger than {size} bytes, not a layout or a saved "
                           "game").format(file=name, size=MAX_FILE_BYTES))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise LucieError(_("{file}: not a text file (UTF-8 expected)").format(
            file=name)) from None


def save_is_ours(head: bytes) -> bool:
    """Whether a file beginning with *head* is a lucie saved game."""
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    return re.match(r'\s*\{\s*"format"\s*:\s*"' + SAVE_FORMAT + '"', text) is not None


def check_save_target(path: Path) -> None:
    """Refuse a ``--save`` path that holds anything but a lucie saved game
    (the games database above all); see :func:`lucie.files.check_target`."""
    from lucie.session import default_path

    if same_file(path, default_path()):
        raise LucieError(_("--save {path} is the games database; choose another file "
                           "name").format(path=path))
    check_target(path, what="--save", kind=_("saved game"), ours=save_is_ours, limit=4096)


def write_atomically(path: Path, text: str) -> None:
    """Write *text* to *path* through a temporary file renamed over it, so
    that a failure (disk full, a kill) leaves the old file whole.  A path
    that is a symbolic link to a file writes that file (the link stays)."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise LucieError(f"{path}: {exc.strerror or exc}") from None


def game_from_args(args: argparse.Namespace) -> Game:
    """A game from ``--variant``, ``--deal``, ``--layout``, ``--load``, ``--seed``."""
    rules: Rules = args.variant or Rules()
    load = getattr(args, "load", None)
    layout = getattr(args, "layout", None)
    if load is not None:
        if args.variant is not None or args.deal is not None or layout is not None:
            raise LucieError(_("--load takes its variant and deal from the saved game"))
        text = read_text(load, "--load")
        try:
            return load_game(text)
        except SaveFileError as exc:
            raise SaveFileError(f"{load}: {exc}") from None
    if layout is not None:
        if args.deal is not None:
            raise LucieError(_("give either --deal or --layout, not both"))
        text = read_text(layout, "--layout")
        try:
            position = parse_layout(text, rules)
        except LucieError as exc:
            raise type(exc)(f"{layout}: {exc}") from None
        return Game(rules, position=position, seed=getattr(args, "seed", None))
    return Game(rules, args.deal)


def add_cache(p: argparse.ArgumentParser) -> None:
    """The ``--cache`` option of the commands that search (see :func:`open_cache`)."""
    p.add_argument(
        "--cache", metavar="PATH", default=None,
        help=_("value cache file (default: ${variable} or the user cache dir; 'off' for "
               "none)").format(variable=environment.CACHE),
    )


def open_cache(text: str | None) -> ValueCache:
    """The odds cache of ``--cache`` (None: ``$LUCIE_CACHE`` or the user
    cache directory; ``off``, ``none``, ``memory``: memory only), checked:
    a path holding a file of another kind is refused (exit 2) and left
    as it is."""
    from lucie.analysis.cache import ValueCache, default_cache_path

    if text is None:
        cache = ValueCache(default_cache_path())
    elif text.strip().lower() in {"off", "none", "memory"}:
        cache = ValueCache(None)
    else:
        cache = ValueCache(Path(text))
    cache.check()
    return cache


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))
