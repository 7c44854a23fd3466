"""Options and helpers shared by the sub-commands."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lucie.deals import check_deal_number
from lucie.engine import Game
from lucie.errors import LucieError, SaveFileError
from lucie.formats import load_game, parse_layout
from lucie.rules import VARIANTS, Rules


def deal_number(text: str) -> int:
    """argparse type for a deal number (a clear message when it is bad)."""
    try:
        return check_deal_number(text)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def rules_spec(text: str) -> Rules:
    """argparse type for ``--variant`` (a name, optionally with settings)."""
    try:
        return Rules.parse(text)
    except LucieError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", "-v", type=rules_spec, default=None, metavar="V",
        help="variant name, optionally with settings: "
        f"{', '.join(VARIANTS)}; e.g. 'classic,merci=on' (default: classic)",
    )


def add_deal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deal", "-d", type=deal_number, default=None, metavar="N",
        help="deal number, as in PySolFC (default: a random number, shown)",
    )


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON for machines")


def read_text(path: str) -> str:
    """Read a file, or standard input for ``-``; errors name the file."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LucieError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise LucieError(f"{path}: not a text file (UTF-8 expected)") from None
    except OSError as exc:
        raise LucieError(f"{path}: {exc.strerror}") from None


def game_from_args(args: argparse.Namespace) -> Game:
    """A game from ``--variant``, ``--deal``, ``--layout``, ``--load``, ``--seed``."""
    rules: Rules = args.variant or Rules()
    load = getattr(args, "load", None)
    layout = getattr(args, "layout", None)
    if load is not None:
        if args.variant is not None or args.deal is not None or layout is not None:
            raise LucieError("--load takes its variant and deal from the saved game")
        text = read_text(load)
        try:
            return load_game(text)
        except SaveFileError as exc:
            raise SaveFileError(f"{load}: {exc}") from None
    if layout is not None:
        if args.deal is not None:
            raise LucieError("give either --deal or --layout, not both")
        try:
            position = parse_layout(read_text(layout), rules)
        except LucieError as exc:
            raise type(exc)(f"{layout}: {exc}") from None
        return Game(rules, position=position, seed=getattr(args, "seed", None))
    return Game(rules, args.deal)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))
