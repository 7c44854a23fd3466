"""``lucie stats``, ``lucie history``, ``lucie export`` and ``lucie import``: the store."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from lucie.cli.common import (
    add_json,
    add_variant,
    count,
    placeholder,
    print_json,
    variant_title,
    write_atomically,
)
from lucie.engine import status_name
from lucie.errors import LucieError
from lucie.files import check_target, read_bytes, same_file
from lucie.i18n import _, format_number, format_percent, ngettext, pgettext
from lucie.parsing import printable
from lucie.store import Damaged, Store, default_path, default_player, is_url

#: The largest export ``lucie import`` reads (about 100,000 games).
MAX_IMPORT_BYTES = 256 * 1024 * 1024
#: How much of an existing ``--output`` file is read to recognise it.
_HEAD = 4096

#: The largest ``--limit`` (far more games than anyone plays).
MAX_LIMIT = 1_000_000_000



def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", default=None,
                   help=_("the games database (default: $LUCIE_DB or the user data dir)"))


def register(sub: Any) -> None:
    p = sub.add_parser("stats", help=_("print a player's statistics"),
                       description=_("Games, wins, win rate, average score, streaks and "
                                     "series of 100 games, per player and variant."))
    add_variant(p)
    p.add_argument("--player", "-p", default=None,
                   help=_("player name (default: your login name)"))
    add_json(p)
    _add_db(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("history", help=_("list past games"),
                       description=_("List the stored games, newest first."))
    add_variant(p)
    p.add_argument("--player", "-p", default=None, help=_("only this player's games"))
    p.add_argument("--limit", "-n", type=count(_("games"), 0, MAX_LIMIT), default=None, metavar="N",
                   help=_("at most N games"))
    add_json(p)
    _add_db(p)
    p.set_defaults(func=cmd_history)

    p = sub.add_parser("export", help=_("write every stored game as CSV or JSON"),
                       description=_("Write every stored game (with its moves) as CSV or "
                                     "JSON, to standard output or a file."))
    p.add_argument("--format", "-f", choices=("csv", "json"), default="json",
                   help=_("output format (default: json)"))
    p.add_argument("--output", "-o", metavar="FILE", default=None,
                   help=_("write to {file} instead of standard output").format(
                       file=placeholder("FILE")))
    _add_db(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help=_("add the games of a JSON export to the store"),
                       description=_("Add the games of a file written by 'lucie export' "
                                     "(JSON) to the store. Games already in the store are "
                                     "left as they are, so importing a file twice adds "
                                     "nothing the second time."))
    p.add_argument("file", metavar="FILE", help=_("the JSON export ('-' for standard input)"))
    _add_db(p)
    p.set_defaults(func=cmd_import)


def _store(args: argparse.Namespace) -> Store:
    """The store of ``--db``: a SQLite file, or a ``postgresql://`` URL."""
    return Store(args.db if is_url(args.db) else _db_path(args))


def _db_path(args: argparse.Namespace) -> Path:
    return Path(args.db).expanduser() if args.db else default_path()


#: How many damaged games a warning names before it only counts the rest.
_NAMED: int = 5


def _warn_damaged(store: Store, damaged: tuple[Damaged, ...]) -> None:
    """One warning on standard error for the damaged games a command skipped."""
    if not damaged:
        return
    n = len(damaged)
    lines = [ngettext("lucie: warning: {n} damaged game in {file} left out (the others are "
                      "fine):",
                      "lucie: warning: {n} damaged games in {file} left out (the others are "
                      "fine):", n).format(n=n, file=store.where)]
    lines += [f"  {printable(str(d))}" for d in damaged[:_NAMED]]
    if n > _NAMED:
        lines.append(_("  and {n} more").format(n=n - _NAMED))
    print("\n".join(lines), file=sys.stderr)


def _duration(seconds: float) -> str:
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


def cmd_stats(args: argparse.Namespace) -> int:
    player = args.player or default_player()
    with _store(args) as store:
        stats = store.stats(player, args.variant)
        _warn_damaged(store, stats.damaged)
    if args.json:
        print_json(stats.to_json())
        return 0
    what = args.variant.name() if args.variant is not None else _("all variants")
    print(_("{player}, {variant}").format(player=printable(player), variant=what))
    if not stats.games:
        print(_("  no finished game yet"))
        return 0
    print(_("  games {games}, won {wins} ({rate})").format(
        games=stats.games, wins=stats.wins, rate=format_percent(stats.win_rate, 1)))
    print(_("  average score {average}/52, best {best}").format(
        average=format_number(stats.average_score, 1), best=stats.best_score))
    print(_("  best streak {best}, current streak {current}").format(
        best=stats.best_streak, current=stats.current_streak))
    print(_("  time played {time}").format(time=_duration(stats.total_seconds)))
    if len(stats.series) > 1 or stats.series[0].games == 100:
        for s in stats.series:
            print(ngettext("  series {number}: {games} game, {wins} won ({rate}), "
                           "average {average}",
                           "  series {number}: {games} games, {wins} won ({rate}), "
                           "average {average}", s.games).format(
                number=s.number, games=s.games, wins=s.wins, rate=format_percent(s.win_rate),
                average=format_number(s.average_score, 1)))
    return 0


#: The columns of ``lucie history``: the narrowest width of each and
#: whether it is right-aligned; player and variant (its title in the language
#: in use) are cut to their width, with an ellipsis.
_WIDTHS = (5, 16, 10, 16, 10, 8, 5, 5, 7)
_RIGHT = (True, False, False, False, True, False, True, True, True)
_CUT = (False, False, True, True, False, False, False, False, False)


def _headings() -> list[str]:
    return [pgettext("history column", "id"), pgettext("history column", "date"),
            pgettext("history column", "player"), pgettext("history column", "variant"),
            pgettext("history column", "deal"), pgettext("history column", "result"),
            pgettext("history column", "score"), pgettext("history column", "moves"),
            pgettext("history column", "time")]


def _widths(headings: list[str]) -> list[int]:
    """Each column as wide as its narrowest width, its heading and (the
    result) the longest status word of the language in use."""
    statuses = max(len(status_name(s)) for s in ("won", "lost", "resigned", "playing"))
    widths = [max(w, len(h)) for w, h in zip(_WIDTHS, headings, strict=True)]
    widths[5] = max(widths[5], statuses)
    return widths


def _row(cells: list[str], widths: list[int]) -> str:
    """One line of the history table.

    >>> row = _row(["1", "2026-01-02 10:00", "ann", "Trefoil", "7", "won", "52", "80",
    ...             "5:00"], list(_WIDTHS))
    >>> row[:44], row[44:]
    ('    1  2026-01-02 10:00  ann         Trefoil', \
'                    7  won          52     80     5:00')
    >>> "  La Belle Lucie,…  " in _row(
    ...     ["2", "", "ann", "La Belle Lucie, alternate colours", "", "", "", "", ""],
    ...     list(_WIDTHS))
    True
    """
    out = []
    for cell, width, right, cut in zip(cells, widths, _RIGHT, _CUT, strict=True):
        text = cell[:width - 1] + "…" if cut and len(cell) > width else cell
        out.append(f"{text:>{width}}" if right else f"{text:{width}}")
    return "  ".join(out)


def cmd_history(args: argparse.Namespace) -> int:
    with _store(args) as store:
        records = store.history(args.player, args.variant, args.limit)
        _warn_damaged(store, records.damaged)
    if args.json:
        print_json([r.to_json() for r in records])
        return 0
    if not records:
        print(_("no game stored yet"))
        return 0
    heads = _headings()
    widths = _widths(heads)
    print(_row(heads, widths))
    for r in records:
        deal = (str(r.deal) if r.deal is not None
                else _("seed {seed}").format(seed=r.seed))
        date = r.started.replace("T", " ")[:16]
        print(_row([str(r.id), printable(date), printable(r.player),
                    printable(variant_title(r.variant)), deal, status_name(r.status),
                    str(r.score), str(r.moves), _duration(r.seconds)], widths))
    return 0


def export_is_ours(head: bytes) -> bool:
    """Whether a file beginning with *head* is a ``lucie export``, JSON or CSV."""
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff")
    if re.match(r'\s*\{\s*"format"\s*:\s*"lucie-games"', text):
        return True
    return text.startswith("id,player,variant,deal,seed,started,")


def cmd_export(args: argparse.Namespace) -> int:
    to_file = args.output is not None and args.output != "-"
    if to_file:
        _check_output(Path(args.output), _db_path(args))
    with _store(args) as store:
        exported = store.export_games(args.format)
        _warn_damaged(store, exported.damaged)
    text = exported.text
    if not to_file:
        sys.stdout.write(text)
        return 0
    write_atomically(Path(args.output), text)
    return 0


def _check_output(path: Path, db: Path) -> None:
    """Refuse an ``--output`` that is the games database or any file that
    is not an earlier export (nothing is read from the store before)."""
    if same_file(path, db):
        raise LucieError(_("--output {path} is the games database itself; choose another "
                           "file name").format(path=path))
    check_target(path, what="--output", kind=_("games export"), ours=export_is_ours,
                 limit=_HEAD)


def cmd_import(args: argparse.Namespace) -> int:
    what = _("the export")
    if args.file == "-":
        data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
        if len(data) > MAX_IMPORT_BYTES:
            raise LucieError(_("{file}: larger than {size} bytes").format(
                file=_("standard input"), size=MAX_IMPORT_BYTES))
    else:
        if same_file(args.file, _db_path(args)):
            raise LucieError(_("{file} is the games database itself, not an export").format(
                file=args.file))
        data = read_bytes(args.file, what=what, limit=MAX_IMPORT_BYTES)
    with _store(args) as store:
        try:
            done = store.import_games(data)
        except LucieError as exc:
            raise type(exc)(f"{args.file}: {exc}") from None
        print(ngettext("{n} game added to {db}", "{n} games added to {db}", done.added).format(
            n=done.added, db=store.where))
        if done.skipped:
            print(ngettext("{n} game was in the store already and was left as it is",
                           "{n} games were in the store already and were left as they are",
                           done.skipped).format(n=done.skipped))
    return 0
