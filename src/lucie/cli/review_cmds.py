"""``lucie review`` and ``lucie pick``; the ``--daily`` option of ``play`` and ``show``."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lucie.cli.common import (
    add_cache,
    add_json,
    add_variant,
    count,
    open_cache,
    print_json,
    read_text,
    seconds,
    seed,
    variant_title,
)
from lucie.deals import MAX_DEAL
from lucie.engine import Game
from lucie.errors import LucieError, SaveFileError
from lucie.i18n import _, format_number, format_seconds, ngettext
from lucie.rules import Rules
from lucie.text import move_label


def add_daily(p: argparse.ArgumentParser) -> None:
    """The ``--daily`` option (the deal of the day, :mod:`lucie.daily`)."""
    p.add_argument("--daily", action="store_true",
                   help=_("the deal of the day: one per date (UTC) and variant, the same "
                          "for everyone"))


def use_daily(args: argparse.Namespace) -> None:
    """With ``--daily``, set ``args.deal`` to the deal of the day."""
    if not getattr(args, "daily", False):
        return
    if args.deal is not None:
        raise LucieError(_("give either --deal or --daily, not both"))
    from lucie.daily import daily_deal

    args.deal = daily_deal(args.variant or Rules())


def register(sub: Any) -> None:
    from lucie.analysis.difficulty import DIFFICULTIES, PICK_SECONDS
    from lucie.analysis.review import HINT_SECONDS, REVIEW_SECONDS

    p = sub.add_parser(
        "review", help=_("review a game move by move"),
        description=_("Review a saved game move by move: the winning chance before and "
                      "after each move, what it lost, a label (best, good, inaccuracy, "
                      "mistake, blunder) and the best move with the hint's words; then a "
                      "summary."),
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--load", metavar="GAME.json",
                     help=_("a saved game file ('-' for stdin)"))
    src.add_argument("--game", type=count(_("game id"), 1, MAX_DEAL), metavar="ID",
                     help=_("a game of the store, by id"))
    p.add_argument("--db", metavar="PATH", default=None,
                   help=_("with --game: the games database (default: $LUCIE_DB or the user "
                          "data dir)"))
    p.add_argument("--seconds", type=seconds(_("review time")), default=REVIEW_SECONDS,
                   metavar="S",
                   help=_("time budget of the whole review (default {default:g})").format(
                       default=REVIEW_SECONDS))
    p.add_argument("--hint-seconds", type=seconds(_("hint time")), default=HINT_SECONDS,
                   metavar="S",
                   help=_("time budget of each best move (default {default:g})").format(
                       default=HINT_SECONDS))
    p.add_argument("--no-progress", action="store_true", help=_("no progress bar"))
    add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_review)

    p = sub.add_parser(
        "pick", help=_("a random deal number of a given difficulty"),
        description=_("Print a random deal number that fits a difficulty: clearable (the "
                      "first deal can be cleared without a redeal, proved by the solver), or "
                      "easy, medium, hard (thirds of the variant's deals by their winning "
                      "chance)."),
    )
    add_variant(p)
    p.add_argument("--difficulty", choices=DIFFICULTIES, required=True,
                   help=_("clearable: the first deal can be cleared without a redeal; "
                          "easy, medium, hard: thirds of the deals by winning chance"))
    p.add_argument("--seconds", type=seconds(_("pick time")), default=PICK_SECONDS, metavar="S",
                   help=_("time budget (default {default:g})").format(default=PICK_SECONDS))
    p.add_argument("--seed", type=seed, default=None, metavar="N",
                   help=_("seed of the random deal numbers (default: random)"))
    add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_pick)


# ---------------------------------------------------------------------------


def _load(args: argparse.Namespace) -> Game:
    if args.load is not None:
        if args.db is not None:
            raise LucieError(_("--db goes with --game, not --load"))
        from lucie.formats import load_game

        try:
            return load_game(read_text(args.load))
        except SaveFileError as exc:
            raise SaveFileError(f"{args.load}: {exc}") from None
    from lucie.store import Store, default_path, is_url

    if is_url(args.db):
        with Store(args.db) as store:
            return store.game(args.game)
    path = Path(args.db) if args.db else default_path()
    if not path.exists():
        raise LucieError(_("{file}: no such games database").format(file=path))
    with Store(path) as store:
        return store.game(args.game)


def _progress(args: argparse.Namespace) -> tuple[Callable[[int, int], None] | None,
                                                  Callable[[], None]]:
    """A progress callback (a tqdm bar on stderr, else plain lines) and its closer."""
    if args.no_progress:
        return None, lambda: None
    if importlib.util.find_spec("tqdm") is not None:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]

        bar: Any = None

        def update(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = tqdm(total=total, desc=_("review"), unit=_("step"), file=sys.stderr,
                           leave=False)
            bar.update(done - bar.n)

        def close() -> None:
            if bar is not None:
                bar.close()

        return update, close
    shown = [-1]

    def plain(done: int, total: int) -> None:
        tenth = 10 * done // max(1, total)
        if tenth != shown[0]:
            shown[0] = tenth
            print(_("review: {done}/{total}").format(done=done, total=total),
                  file=sys.stderr, flush=True)

    return plain, lambda: None


def cmd_review(args: argparse.Namespace) -> int:
    from lucie.analysis.review import label_name, review_game

    game = _load(args)
    cache = open_cache(args.cache)
    update, close = _progress(args)
    try:
        review = review_game(game, max_seconds=args.seconds, cache=cache,
                             hint_seconds=args.hint_seconds, progress=update)
    finally:
        close()
    if args.json:
        print_json(review.to_json())
        return 0
    deal = (_("deal {deal}").format(deal=review.deal) if review.deal is not None
            else _("a custom layout"))
    print(ngettext("Review of {variant}, {deal}: {n} move, {seconds}",
                   "Review of {variant}, {deal}: {n} moves, {seconds}",
                   len(review.moves)).format(variant=game.rules.name(), deal=deal,
                                             n=len(review.moves),
                                             seconds=format_seconds(review.seconds)))
    print(_("Winning chance at the start: {value}").format(value=review.start_value))
    positions = game.positions
    for m in review.moves:
        change = f"{m.value_before} -> {m.value_after}"
        said = move_label(positions[m.index - 1], m.move)
        line = f"{m.index:4}. {said:12} {change:34} {label_name(m.label)}"
        if m.loss_text is not None:
            line += f" ({m.loss_text})"
        if m.better_text is not None:
            line += f"; {m.better_text}"
        print(line)
    print(_("Final: {value}").format(value=review.final_value))
    print(review.summary())
    costly = review.costliest()
    if costly:
        print(_("Costliest moves: {moves}").format(moves=", ".join(
            f"{m.index}. {move_label(positions[m.index - 1], m.move)} "
            f"(-{format_number(100 * (m.loss or 0.0), 1)})" for m in costly)))
    if review.budget_ran_out:
        print(_("The time budget ({seconds:g} s) ran out: values marked ? were not "
                "reached (try a larger --seconds).").format(seconds=args.seconds))
    return 0


def cmd_pick(args: argparse.Namespace) -> int:
    from lucie.analysis.difficulty import difficulty_name, pick_deal

    rules: Rules = args.variant or Rules()
    cache = open_cache(args.cache)
    pick = pick_deal(rules, args.difficulty, max_seconds=args.seconds, seed=args.seed,
                     cache=cache)
    if args.json:
        print_json(pick.to_json())
        return 0
    print(pick.deal)
    how = ""
    if pick.thresholds is not None:
        th = pick.thresholds
        how = (ngettext("; thresholds measured on {n} deal",
                        "; thresholds measured on {n} deals", th.sample)
               .format(n=th.sample) if th.measured else
               ngettext("; no measured thresholds for {variant}: estimated on demand from "
                        "{n} deal",
                        "; no measured thresholds for {variant}: estimated on demand from "
                        "{n} deals", th.sample).format(variant=variant_title(pick.variant),
                                                       n=th.sample))
    print(_("{variant} deal {deal}: {difficulty}, winning chance {value}{how}").format(
        variant=variant_title(pick.variant), deal=pick.deal,
        difficulty=difficulty_name(pick.difficulty),
        value=pick.value,
        how=how), file=sys.stderr)
    if not pick.rated.decided and pick.difficulty != "clearable":
        print(_("Its interval spans more than one difficulty: {difficulty} is only the "
                "likeliest.").format(difficulty=difficulty_name(pick.difficulty)),
              file=sys.stderr)
    return 0
