"""``lucie daily``: the deal of the day's table (:mod:`lucie.standings`).

Every player's result on the deal of the day, ranked (won first, then
cards home, then fewer moves, then less time: docs/daily.md); games not
played fairly are listed after the ranked ones, unranked, saying why; the
player's own rank; the deal's odds once the day is over.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from lucie.cli.common import add_json, add_variant, budget, day, print_json
from lucie.engine import Game
from lucie.i18n import _, pgettext
from lucie.parsing import printable
from lucie.rules import Rules
from lucie.standings import (
    ODDS_SECONDS,
    DailyTable,
    daily_table,
    table_odds,
    why_not_ranked,
)
from lucie.store import Entry, Store, default_path, default_player, is_url


def register(sub: Any) -> None:
    p = sub.add_parser("daily", help=_("show the deal of the day's table"),
                       description=_("Every player's result on the deal of the day, ranked: "
                                     "won first, then cards home, then fewer moves, then "
                                     "less time. Only games played from the first move "
                                     "without hints are ranked. Once the day is over, the "
                                     "deal's odds too."))
    add_variant(p)
    p.add_argument("--date", type=day, default=None, metavar="YYYY-MM-DD",
                   help=_("the day (UTC; default: today)"))
    p.add_argument("--player", "-p", default=None,
                   help=_("whose rank to tell (default: your login name)"))
    p.add_argument("--odds-seconds", type=budget(_("odds time")), default=ODDS_SECONDS,
                   metavar="S",
                   help=_("at most S seconds for the odds of a past day's deal, worked out "
                          "once and kept (off: only odds already kept)"))
    add_json(p)
    p.add_argument("--db", metavar="PATH", default=None,
                   help=_("the games database (default: $LUCIE_DB or the user data dir)"))
    p.set_defaults(func=cmd_daily)


def _odds(seconds: float | None) -> Callable[[Game], dict[str, Any] | None]:
    def work(game: Game) -> dict[str, Any] | None:
        if seconds is None:
            return None
        from lucie.analysis.odds import estimate_odds

        data: dict[str, Any] = estimate_odds(game.position, max_seconds=seconds).to_json()
        return data

    return work


def cmd_daily(args: argparse.Namespace) -> int:
    rules = args.variant or Rules()
    player = args.player or default_player()
    where = args.db if is_url(args.db) else (args.db or default_path())
    with Store(where) as store:
        table = daily_table(store, rules, args.date, player)
        odds = table_odds(store, table, _odds(args.odds_seconds)) if table.over else None
    if args.json:
        data = table.to_json()
        data["odds"] = odds
        print_json(data)
        return 0
    _print_table(table, player)
    if odds is not None:
        print(_("Odds of this deal: {odds}").format(odds=odds["text"]))
    elif table.over:
        print(_("Odds of this deal: not worked out (give --odds-seconds)"))
    else:
        print(_("The deal's odds are shown once the day is over (UTC)."))
    return 0


def _print_table(table: DailyTable, player: str) -> None:
    print(_("Deal of the day, {date}: {variant}, deal {deal}").format(
        date=table.day.isoformat(), variant=table.rules.name(), deal=table.deal))
    if not table.entries:
        print(_("  no result yet"))
        return
    head = [pgettext("daily column", "rank"), pgettext("daily column", "player"),
            pgettext("daily column", "result"), pgettext("daily column", "score"),
            pgettext("daily column", "moves"), pgettext("daily column", "time")]
    rows = [_cells(e) for e in table.entries]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    for cells, entry in zip([head, *rows], [None, *table.entries], strict=True):
        line = "  ".join(c.rjust(w) if i in (0, 3, 4, 5) else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True)))
        why = why_not_ranked(entry) if entry is not None else None
        print("  " + (line + f"  ({why})" if why else line).rstrip())
    mine = table.mine
    if mine is None:
        print(_("{player}: no result on this deal").format(player=printable(player)))
    elif mine.rank is None:
        print(_("{player}: not ranked ({why})").format(player=printable(player),
                                                      why=why_not_ranked(mine)))
    else:
        print(_("{player}: rank {rank} of {count}").format(
            player=printable(player), rank=mine.rank, count=table.ranked))


def _cells(entry: Entry) -> list[str]:
    from lucie.engine import status_name

    r = entry.record
    s = int(entry.seconds)  # the table's time (the server's, Entry.seconds)
    return ["–" if entry.rank is None else str(entry.rank), printable(r.player),
            status_name(r.status), str(r.score), str(r.moves), f"{s // 60}:{s % 60:02d}"]
