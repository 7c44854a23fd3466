"""``lucie solve``: the exact solver on a layout or a numbered deal.

Exit status: 0 when the deal (or, with ``--whole-game``, the game) can be
won, 1 when it cannot, 3 when the budget ran out first, 2 for bad input.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from lucie.cards import suit_label
from lucie.cli.common import (
    add_json,
    add_variant,
    count,
    deal_number,
    placeholder,
    print_json,
    read_text,
    seconds,
)
from lucie.engine import Position, format_moves
from lucie.errors import LucieError
from lucie.formats import parse_layout
from lucie.i18n import N_, _, format_number, format_seconds, ngettext
from lucie.rules import Rules
from lucie.solver import DealResult, solve_deal, solve_game

EXIT_SOLVABLE = 0
EXIT_NOT = 1
EXIT_UNKNOWN = 3

#: Default time budget, so that the command never hangs.
DEFAULT_SECONDS = 60.0


def register(sub: Any) -> None:
    p = sub.add_parser(
        "solve", help=_("decide exactly whether a deal can be won"),
        description=_("Decide exactly whether a position can be cleared without a redeal "
                      "(with the merci where the variant has one in the last deal), and "
                      "print the winning moves or the best reachable results.  With "
                      "--whole-game, search a numbered deal across its redeals.  Exit "
                      "status: 0 solvable, 1 not, 3 unknown (budget spent), 2 bad input."),
    )
    p.add_argument("layout", nargs="?", metavar="FILE",
                   help=_("layout file ('-' for standard input): one fan per line, "
                          "optional 'Foundations:' line (lblsolve and FreeCell Solver "
                          "layouts too)"))
    p.add_argument("--deal", "-d", type=deal_number, default=None, metavar="N",
                   help=_("solve numbered deal N instead of a layout"))
    add_variant(p)
    add_json(p)
    p.add_argument("--max-nodes", type=count(_("positions"), 1, 10**12), default=None, metavar="N",
                   help=_("stop with 'unknown' after N positions"))
    p.add_argument("--max-seconds", type=seconds(), default=DEFAULT_SECONDS,
                   metavar="S", help=_("stop with 'unknown' after S seconds "
                                       "(default {default:g})").format(default=DEFAULT_SECONDS))
    p.add_argument("--verdict-only", action="store_true",
                   help=_("decide solvable or not, without the search for the best scores"))
    p.add_argument("--whole-game", action="store_true",
                   help=_("search the numbered deal across its redeals (needs --deal)"))
    p.set_defaults(func=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    rules: Rules = args.variant or Rules()
    if args.layout is not None and args.deal is not None:
        raise LucieError(_("give either a layout {file} or --deal N, not both").format(
            file=placeholder("FILE")))
    if args.layout is None and args.deal is None:
        raise LucieError(_("nothing to solve: give a layout {file}, '-' for standard input, "
                           "or --deal N").format(file=placeholder("FILE")))
    if args.whole_game:
        if args.deal is None:
            raise LucieError(_("--whole-game needs a numbered deal (--deal N): "
                               "the redeals of a layout are not fixed"))
        return _whole_game(args, rules)
    position, source = _position_to_solve(args, rules)
    start = time.perf_counter()
    result = solve_deal(position, max_nodes=args.max_nodes, max_seconds=args.max_seconds,
                        frontier=not args.verdict_only)
    seconds = time.perf_counter() - start
    if args.json:
        data: dict[str, Any] = {"variant": rules.spec(), "deal": args.deal}
        data.update(result.to_json())  # the one serialisation of a verdict
        data.update(start_score=position.score, seconds=round(seconds, 6))
        print_json(data)
    else:
        print(_("{variant}, {source}: ").format(variant=rules.name(), source=source), end="")
        _print_verdict(result, seconds, verdict_only=args.verdict_only)
    return {"solved": EXIT_SOLVABLE, "unsolvable": EXIT_NOT}.get(result.status, EXIT_UNKNOWN)


def _position_to_solve(args: argparse.Namespace, rules: Rules) -> tuple[Position, str]:
    """The position ``lucie solve`` is asked about (a deal's or a layout's)
    and how to name it."""
    if args.deal is not None:
        return Position.deal(rules, args.deal), _("deal {deal}").format(deal=args.deal)
    text = read_text(args.layout)
    source = _("standard input") if args.layout == "-" else args.layout
    try:
        return parse_layout(text, rules), source
    except LucieError as exc:
        raise type(exc)(f"{source}: {exc}") from None


def _print_verdict(result: DealResult, seconds: float, *, verdict_only: bool) -> None:
    """A one-deal search's verdict in words, its line or its best scores,
    and the work it took."""
    if result.status == "solved":
        print(_("solvable without a redeal ({moves})").format(
            moves=_moves(len(result.moves))))
        print(format_moves(result.moves))
    elif result.status == "unsolvable":
        print(_("cannot be cleared without a redeal"))
        if result.budget_ran_out:
            print(_("the search for the best score ran out of budget: the scores below "
                    "are the best found"))
        elif verdict_only:
            print(_("(verdict only: the scores below are those met on the way)"))
        print(_("best score: {score}/52").format(score=result.best_score))
        for r in result.reachable:
            line = format_moves(r.moves) or _("(no move)")
            print(f"  {r.score:2d}  {_found_text(r.foundations)}: {line}")
    else:
        limit = _LIMITS.get(result.limit or "")
        print(_("unknown: the budget ran out after {positions} ({seconds}{limit})")
              .format(positions=_positions(result.nodes), seconds=format_seconds(seconds),
                      limit=_(limit) if limit else ""))
        print(_("best score found so far: {score}/52").format(score=result.best_score))
    print(_("{positions}, {ms} ms").format(positions=_positions(result.nodes),
                                           ms=format_number(seconds * 1000, 1)))


#: What ran out, in words (``DealResult.limit``).
_LIMITS = {"positions": N_(", memory cap of positions held"), "nodes": N_(", node limit")}


def _moves(n: int) -> str:
    """``"1 move"``, ``"2 moves"``, in the language in use."""
    return ngettext("{n} move", "{n} moves", n).format(n=n)


def _positions(n: int) -> str:
    return ngettext("{n} position", "{n} positions", n).format(n=n)


def _redeals(n: int) -> str:
    return ngettext("{n} redeal", "{n} redeals", n).format(n=n)


def _found_text(found: tuple[int, int, int, int]) -> str:
    return " ".join(f"{suit_label(i)} {n}" for i, n in enumerate(found))


def _whole_game(args: argparse.Namespace, rules: Rules) -> int:
    result = solve_game(rules, args.deal, max_nodes=args.max_nodes,
                        max_seconds=args.max_seconds)
    if args.json:
        print_json({
            "variant": rules.spec(),
            "deal": args.deal,
            "whole_game": True,
            "status": result.status,
            "solvable": result.solvable,
            "moves": [str(m) for m in result.moves],
            "best_score": result.best_score,
            "nodes": result.nodes,
            "seconds": round(result.seconds, 6),
            "reachable": [],
        })
    else:
        print(_("{variant}, deal {deal}, whole game: ").format(
            variant=rules.name(), deal=args.deal), end="")
        if result.status == "won":
            redeals = sum(1 for m in result.moves if m.is_redeal)
            print(_("can be won ({moves}, {redeals})").format(
                moves=_moves(len(result.moves)), redeals=_redeals(redeals)))
            print(format_moves(result.moves))
        elif result.status == "lost":
            print(_("cannot be won, whatever the play"))
            print(_("best score: {score}/52").format(score=result.best_score))
        else:
            print(_("unknown: the budget ran out after {positions}").format(
                positions=_positions(result.nodes)))
            print(_("best score found so far: {score}/52").format(score=result.best_score))
        print(_("{positions}, {ms} ms").format(positions=_positions(result.nodes),
                                               ms=format_number(result.seconds * 1000, 1)))
    return {"won": EXIT_SOLVABLE, "lost": EXIT_NOT}.get(result.status, EXIT_UNKNOWN)
