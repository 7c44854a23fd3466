"""``lucie show``, ``lucie replay``, ``lucie play`` and ``lucie variants``."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

from lucie.cli.common import (
    add_deal,
    add_json,
    add_variant,
    check_save_target,
    deal_number,
    game_from_args,
    print_json,
    write_atomically,
)
from lucie.cli.plain import play_plain
from lucie.cli.review_cmds import add_daily, use_daily
from lucie.engine import Game, parse_moves, status_name
from lucie.errors import LucieError
from lucie.formats import format_layout, position_json, save_game
from lucie.i18n import _
from lucie.rules import VARIANTS, Rules
from lucie.session import Store, default_player
from lucie.text import render


def register(sub: Any) -> None:
    p = sub.add_parser("show", help=_("print the layout of a deal"),
                       description=_("Print the starting layout of a numbered deal."))
    add_variant(p)
    add_deal(p)
    add_daily(p)
    add_json(p)
    p.add_argument("--plain-layout", action="store_true",
                   help=_("print only the layout text (no names), as --layout reads it"))
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "replay", help=_("apply moves to a deal and print the position"),
        description=_("Apply moves (like c>g c>f R 7H>g) to a deal, a layout or a "
                      "saved game, and print the resulting position."),
    )
    add_variant(p)
    src = p.add_mutually_exclusive_group()
    src.add_argument("--deal", "-d", type=deal_number, default=None, metavar="N",
                     help=_("deal number (default: random, shown)"))
    src.add_argument("--layout", metavar="FILE",
                     help=_("start from a layout file ('-' for stdin)"))
    src.add_argument("--load", metavar="GAME.json", help=_("start from a saved game"))
    p.add_argument("--seed", type=deal_number, default=None,
                   help=_("with --layout: seed of the redeal shuffles"))
    p.add_argument("--save", metavar="FILE", help=_("write the game as a saved game file"))
    add_json(p)
    p.add_argument("moves", nargs="*", metavar="MOVE", help=_("moves to apply, in order"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("play", help=_("play a game (the default command)"),
                       description=_("Play La Belle Lucie.  Opens the terminal game when "
                                     "it is installed; --plain plays in plain line mode."))
    add_variant(p)
    add_deal(p)
    add_daily(p)
    p.add_argument("--plain", action="store_true", help=_("plain line mode"))
    p.add_argument("--db", metavar="PATH", default=None,
                   help=_("statistics and saved-games database (default: user data dir)"))
    p.add_argument("--player", default=None, help=_("player name for the statistics"))
    p.add_argument("--duel", metavar="LINK", default=None,
                   help=_("play a duel of a site (lucie serve) from its link, "
                          "https://SITE/duel/TOKEN"))
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("variants", help=_("list the named variants and their settings"),
                       description=_("List the named variants: name, title and rules."))
    add_json(p)
    p.set_defaults(func=cmd_variants)


# ---------------------------------------------------------------------------


def cmd_show(args: argparse.Namespace) -> int:
    use_daily(args)
    rules: Rules = args.variant or Rules()
    game = Game(rules, args.deal)
    if args.json:
        print_json(position_json(game))
    elif args.plain_layout:
        print(format_layout(game.position))
    else:
        print(render(game))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    if args.save:
        check_save_target(Path(args.save))
    game = game_from_args(args)
    moves = parse_moves(" ".join(args.moves))
    game.push_all(moves)
    if args.save:
        write_atomically(Path(args.save), save_game(game))
    if args.json:
        print_json(position_json(game))
    else:
        print(render(game))
        print(_("Status: {status}, score {score}").format(
            status=status_name(game.outcome.status), score=game.score))
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    if args.json:
        print_json([
            {"name": v.name, "title": v.title, "summary": v.summary,
             "settings": v.rules.settings()}
            for v in VARIANTS.values()
        ])
        return 0
    for v in VARIANTS.values():
        print(_("{name:11} {title}: {summary}").format(
            name=v.name, title=v.display_title(), summary=v.display_summary()))
    return 0


def play_duel(args: argparse.Namespace) -> int:
    """``lucie play --duel LINK`` (the terminal game with its network part)."""
    if args.variant is not None or args.deal is not None or args.daily or args.plain \
            or args.db is not None or args.player is not None:
        raise LucieError(_("--duel plays the duel's own deal in the terminal game, as the "
                           "site's player: leave out --variant, --deal, --daily, --plain, "
                           "--db and --player"))
    missing = [name for name in ("textual", "websockets")
               if importlib.util.find_spec(name) is None]
    if missing:
        raise LucieError(_("--duel needs the terminal game and its network part "
                           "({missing}): pip install 'lucie[tui]'").format(
            missing=", ".join(missing)))
    from lucie import tui

    return tui.run_duel(args, terminal=sys.stdin.isatty() and sys.stdout.isatty())


def cmd_play(args: argparse.Namespace) -> int:
    if args.duel is not None:
        return play_duel(args)
    use_daily(args)
    if args.deal is not None and args.variant is None:
        args.variant = Rules()  # `--deal 7` is classic deal 7, whatever was played last
    player: str = args.player or default_player()
    if not args.plain and sys.stdin.isatty() and sys.stdout.isatty() and (
        importlib.util.find_spec("textual") is not None
    ):
        from lucie import tui

        args.player = player
        status: int = tui.run(args)
        return status
    store = Store(args.db or None)  # a SQLite file or a postgresql:// URL
    try:
        return play_plain(store, player, args.variant, args.deal)
    finally:
        store.close()
