"""``lucie stats``, ``lucie history`` and ``lucie export``: the store."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from lucie.cli.common import add_json, add_variant, count, print_json
from lucie.errors import LucieError
from lucie.store import Damaged, Store, default_player

#: The largest ``--limit`` (far more games than anyone plays).
MAX_LIMIT = 1_000_000_000



def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", default=None,
                   help="the games database (default: $LUCIE_DB or the user data dir)")


def register(sub: Any) -> None:
    p = sub.add_parser("stats", help="print a player's statistics",
                       description="Games, wins, win rate, average score, streaks and "
                       "series of 100 games, per player and variant.")
    add_variant(p)
    p.add_argument("--player", "-p", default=None,
                   help="player name (default: your login name)")
    add_json(p)
    _add_db(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("history", help="list past games",
                       description="List the stored games, newest first.")
    add_variant(p)
    p.add_argument("--player", "-p", default=None, help="only this player's games")
    p.add_argument("--limit", "-n", type=count("games", 0, MAX_LIMIT), default=None, metavar="N",
                   help="at most N games")
    add_json(p)
    _add_db(p)
    p.set_defaults(func=cmd_history)

    p = sub.add_parser("export", help="write every stored game as CSV or JSON",
                       description="Write every stored game (with its moves) as CSV or "
                       "JSON, to standard output or a file.")
    p.add_argument("--format", "-f", choices=("csv", "json"), default="json",
                   help="output format (default: json)")
    p.add_argument("--output", "-o", metavar="FILE", default=None,
                   help="write to FILE instead of standard output")
    _add_db(p)
    p.set_defaults(func=cmd_export)


def _store(args: argparse.Namespace) -> Store:
    return Store(Path(args.db) if args.db else None)


#: How many damaged games a warning names before it only counts the rest.
_NAMED: int = 5


def _warn_damaged(store: Store, damaged: tuple[Damaged, ...]) -> None:
    """One warning on standard error for the damaged games a command skipped."""
    if not damaged:
        return
    n = len(damaged)
    lines = [f"lucie: warning: {n} damaged game{'s' if n > 1 else ''} in {store.path} "
             "left out (the others are fine):"]
    lines += [f"  {d}" for d in damaged[:_NAMED]]
    if n > _NAMED:
        lines.append(f"  and {n - _NAMED} more")
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
    what = args.variant.name() if args.variant is not None else "all variants"
    print(f"{player}, {what}")
    if not stats.games:
        print("  no finished game yet")
        return 0
    print(f"  games {stats.games}, won {stats.wins} ({100 * stats.win_rate:.1f}%)")
    print(f"  average score {stats.average_score:.1f}/52, best {stats.best_score}")
    print(f"  best streak {stats.best_streak}, current streak {stats.current_streak}")
    print(f"  time played {_duration(stats.total_seconds)}")
    if len(stats.series) > 1 or stats.series[0].games == 100:
        for s in stats.series:
            print(f"  series {s.number}: {s.games} games, {s.wins} won "
                  f"({100 * s.win_rate:.0f}%), average {s.average_score:.1f}")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    with _store(args) as store:
        records = store.history(args.player, args.variant, args.limit)
        _warn_damaged(store, records.damaged)
    if args.json:
        print_json([r.to_json() for r in records])
        return 0
    if not records:
        print("no game stored yet")
        return 0
    print(f"{'id':>5}  {'date':16}  {'player':10}  {'variant':12}  {'deal':>10}  "
          f"{'result':8}  {'score':>5}  {'moves':>5}  {'time':>7}")
    for r in records:
        deal = str(r.deal) if r.deal is not None else f"seed {r.seed}"
        date = r.started.replace("T", " ")[:16]
        print(f"{r.id:>5}  {date:16}  {r.player[:10]:10}  {r.variant[:12]:12}  {deal:>10}  "
              f"{r.status:8}  {r.score:>5}  {r.moves:>5}  {_duration(r.seconds):>7}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    with _store(args) as store:
        exported = store.export_games(args.format)
        _warn_damaged(store, exported.damaged)
    text = exported.text
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise LucieError(f"{args.output}: {exc.strerror}") from None
    return 0
