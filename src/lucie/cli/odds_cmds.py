"""``lucie hint``, ``lucie odds`` and ``lucie study``."""

from __future__ import annotations

import argparse
import re
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lucie.analysis.cache import ValueCache, default_cache_path
from lucie.cli.common import (
    add_cache,
    add_json,
    add_variant,
    budget,
    count,
    deal_number,
    game_from_args,
    open_cache,
    print_json,
    seconds,
    seed,
)
from lucie.errors import LucieError
from lucie.i18n import _, format_number, format_percent, format_seconds, ngettext, pgettext
from lucie.rules import Rules

#: Default budgets of the searches a study or an estimate makes: far above
#: what any classic, Trefoil, Fan or no-redeal search takes (milliseconds),
#: but they keep a search on a variant whose positions explode (any-suit
#: builds, cells) from running for hours and out of memory (~1 KB a position).
SOLVE_SECONDS = 10.0
SAMPLE_SECONDS = 5.0
#: How often a study not on a terminal says how far it got.
PROGRESS_SECONDS = 60.0


def _add_source(p: argparse.ArgumentParser) -> None:
    add_variant(p)
    src = p.add_mutually_exclusive_group()
    src.add_argument("--deal", "-d", type=deal_number, default=None, metavar="N",
                     help=_("deal number (default: random, shown)"))
    src.add_argument("--layout", metavar="FILE", help=_("a layout file ('-' for stdin)"))
    src.add_argument("--load", metavar="GAME.json", help=_("the position of a saved game"))
    p.add_argument("--seed", type=deal_number, default=None,
                   help=_("with --layout: seed of the redeal shuffles"))


def register(sub: Any) -> None:
    _register_hint(sub)
    _register_odds(sub)
    _register_study(sub)


def _register_hint(sub: Any) -> None:
    p = sub.add_parser(
        "hint", help=_("the best move and why"),
        description=_("Suggest the best move (by the odds of winning with random "
                      "redeals) and say what kind of move it is."),
    )
    _add_source(p)
    p.add_argument("--seconds", type=seconds(), default=2.0, metavar="S",
                   help=_("time budget (default {default:g})").format(default=2))
    p.add_argument("--tell-clears", action="store_true",
                   help=_("also say when the deal in play can be cleared without a redeal "
                          "(a spoiler: off by default)"))
    add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_hint)


def _register_odds(sub: Any) -> None:
    p = sub.add_parser(
        "odds", help=_("the chance of winning with random redeals"),
        description=_("Estimate the chance of winning from a position with random "
                      "redeals under (near-)optimal play, with a 95 percent confidence "
                      "interval."),
    )
    _add_source(p)
    p.add_argument("--samples", type=count(_("samples"), 1, 10**7), default=400, metavar="N",
                   help=_("playouts (default {default})").format(default=400))
    p.add_argument("--sample-seed", type=seed, default=None, metavar="S",
                   help=_("seed of the sampling (default: random)"))
    p.add_argument("--seconds", type=seconds(), default=None, metavar="S",
                   help=_("stop sampling after this long"))
    p.add_argument("--target", type=count(_("samples per value"), 1, 10**6), default=None,
                   metavar="K",
                   help=_("samples per between-deal state value (default {default})").format(
                       default=24))
    p.add_argument("--sample-seconds", type=budget(), default=SAMPLE_SECONDS, metavar="S",
                   help=_("time budget of each search made to sample values "
                          "(default {default:g}; 'none' for no budget)").format(
                       default=SAMPLE_SECONDS))
    add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_odds)


def _register_study(sub: Any) -> None:
    p = sub.add_parser(
        "study", help=_("play many random deals with a policy and measure it"),
        description=_("Play N random numbered deals (PySolFC-exact redeals) with the "
                      "optimal policy (or the hint policy) and report the win rate with its "
                      "95 percent confidence interval, the mean score and the score "
                      "distribution."),
    )
    add_variant(p)
    p.add_argument("--games", "-n", type=count(_("games"), 1, 10**7), required=True, metavar="N",
                   help=_("number of games"))
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help=_("seed the deal numbers are drawn from (default: random, shown)"))
    p.add_argument("--jobs", "-j", type=count(_("worker processes"), 1, 1024), default=None,
                   metavar="J",
                   help=_("worker processes (default: every core)"))
    p.add_argument("--policy", choices=("optimal", "hint"), default="optimal",
                   help=_("optimal (default) or hint"))
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help=_("run on a Dask cluster (e.g. tcp://127.0.0.1:8786)"))
    p.add_argument("--target", type=count(_("samples per value"), 1, 10**6), default=None,
                   metavar="K",
                   help=_("samples per between-deal state value (default {default}; hints, "
                          "with --policy hint, take {hints})").format(default=24, hints=16))
    p.add_argument("--hint-seconds", type=seconds(), default=2.0, metavar="S",
                   help=_("time budget of each hint with --policy hint (default {default:g})")
                   .format(default=2))
    p.add_argument("--solve-seconds", type=budget(), default=SOLVE_SECONDS, metavar="S",
                   help=_("time budget of each one-deal search (default {default:g}; 'none' "
                          "for no budget; a search cut short is counted in the report)")
                   .format(default=SOLVE_SECONDS))
    p.add_argument("--sample-seconds", type=budget(), default=SAMPLE_SECONDS, metavar="S",
                   help=_("time budget of each search made to sample values "
                          "(default {default:g}; 'none' for no budget)").format(
                       default=SAMPLE_SECONDS))
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help=_("write a chart of the score distribution"))
    add_cache(p)
    p.add_argument("--checkpoint", metavar="FILE", default=None,
                   help=_("keep the games played in this file as they finish (default: "
                          "beside the value cache; 'off' for none)"))
    p.add_argument("--resume", action="store_true",
                   help=_("go on from the checkpoint of the same study (same variant, "
                          "games, policy and budgets; its seed unless --seed is given)"))
    p.add_argument("--time-limit", type=budget(), default=None, metavar="S",
                   help=_("stop after this many seconds and report the games played "
                          "(a partial result)"))
    p.add_argument("--progress-seconds", type=budget(), default=PROGRESS_SECONDS,
                   metavar="S",
                   help=_("when standard error is not a terminal, a progress line at most "
                          "this often (default {default:g}; 'none' for none)").format(
                       default=PROGRESS_SECONDS))
    add_json(p)
    p.set_defaults(func=cmd_study)


# ---------------------------------------------------------------------------


def cmd_hint(args: argparse.Namespace) -> int:
    from lucie.analysis.hints import hint

    game = game_from_args(args)
    cache = open_cache(args.cache)
    advice = hint(game.position, max_seconds=args.seconds, cache=cache,
                  tell_clears=args.tell_clears)
    cache.flush()
    if args.json:
        data = advice.to_json()
        data["deal"] = game.deal
        data["variant"] = game.rules.spec()
        print_json(data)
    else:
        print(advice)
    return 0


def cmd_odds(args: argparse.Namespace) -> int:
    from lucie.analysis.odds import DEFAULT_TARGET, estimate_odds

    game = game_from_args(args)
    cache = open_cache(args.cache)
    odds = estimate_odds(
        game.position, samples=args.samples, seed=args.sample_seed, cache=cache,
        max_seconds=args.seconds, target=args.target or DEFAULT_TARGET,
        sample_seconds=args.sample_seconds,
    )
    if args.json:
        data = odds.to_json()
        data["deal"] = game.deal
        data["variant"] = game.rules.spec()
        print_json(data)
    else:
        print(odds.text())
    return 0


def _checkpoint_path(args: argparse.Namespace, cache: ValueCache, rules: Rules) -> Path | None:
    """``--checkpoint``, or the default: ``study-VARIANT-POLICY.checkpoint``
    beside the value cache (the default cache's folder with ``--cache off``)."""
    text = args.checkpoint
    if text is not None:
        return None if text.strip().lower() in {"off", "none"} else Path(text)
    home = cache.path or default_cache_path() or default_cache_path(ignore_env=True)
    assert home is not None
    slug = re.sub(r"[^A-Za-z0-9]+", "_", rules.spec()).strip("_")
    return home.expanduser().parent / f"study-{slug}-{args.policy}.checkpoint"


@contextmanager
def _stop_signals() -> Iterator[list[int]]:
    """While a study runs, SIGTERM (and SIGHUP) stop it as Ctrl+C does: the
    study then reports what it has.  Yields the list the signal received is
    put in."""
    received: list[int] = []
    wanted = [signal.SIGINT, signal.SIGTERM]
    if hasattr(signal, "SIGHUP"):
        wanted.append(signal.SIGHUP)

    def stop(signum: int, _frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        yield received
        return
    before = {s: signal.signal(s, stop) for s in wanted}
    try:
        yield received
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def cmd_study(args: argparse.Namespace) -> int:
    from lucie.analysis.odds import DEFAULT_TARGET
    from lucie.analysis.study import plot_scores, run_study

    rules: Rules = args.variant or Rules()
    if args.scheduler is not None and args.jobs is not None:
        raise LucieError(_("give either --jobs or --scheduler, not both"))
    if args.plot is not None:
        folder = Path(args.plot).expanduser().resolve().parent
        if not folder.is_dir():
            raise LucieError(_("{file}: no such directory {folder}").format(
                file=args.plot, folder=folder))
    cache = open_cache(args.cache)
    checkpoint = _checkpoint_path(args, cache, rules)
    if args.resume and checkpoint is None:
        raise LucieError(_("--resume needs a checkpoint (not --checkpoint off)"))
    with _stop_signals() as received:
        result = run_study(
            rules, args.games, seed=args.seed, jobs=args.jobs, policy=args.policy,
            cache_path=cache.path, scheduler=args.scheduler,
            target=args.target or DEFAULT_TARGET, hint_seconds=args.hint_seconds,
            solve_seconds=args.solve_seconds, sample_seconds=args.sample_seconds,
            checkpoint=checkpoint, resume=args.resume, time_limit=args.time_limit,
            progress_seconds=args.progress_seconds,
        )
    if args.plot is not None:
        plot_scores(result, args.plot)
    data = result.to_json()
    status = 128 + received[-1] if received and result.stopped == "interrupted" else 0
    if args.json:
        print_json(data)
        return status
    if result.stopped is not None:
        _say_partial(data)
    _print_study(rules, data)
    if args.plot is not None:
        print(_("plot written to {file}").format(file=args.plot), file=sys.stderr)
    return status


def _say_partial(data: dict[str, Any]) -> None:
    why = {"interrupted": _("interrupted"), "time limit": _("time limit reached")}
    print(_("PARTIAL RESULT ({why}): {games} of {planned} games played").format(
        why=why.get(data["stopped"], data["stopped"]), games=data["games"],
        planned=data["games_planned"]))
    if data["checkpoint"] is not None:
        print(_("the games played are kept in {file}: add --resume to go on").format(
            file=data["checkpoint"]))


def _print_study(rules: Rules, data: dict[str, Any]) -> None:
    low, high = data["ci95"]
    policy = {"optimal": pgettext("policy", "optimal"), "hint": pgettext("policy", "hint")}
    print(_("{title} ({variant}), {policy} policy, seed {seed}").format(
        title=rules.name(), variant=data["variant"],
        policy=policy.get(data["policy"], data["policy"]), seed=data["seed"]))
    print(_("games {games}, won {wins}: {rate} (95% CI {low} to {high})").format(
        games=data["games"], wins=data["wins"], rate=format_percent(data["win_rate"], 2),
        low=format_percent(low, 2), high=format_percent(high, 2)))
    speed = data["games_per_second"]
    print(_("mean score {score}; {seconds} ({speed} games/s)").format(
        score=format_number(data["mean_score"], 2), seconds=format_seconds(data["seconds"]),
        speed="-" if speed is None else format_number(speed, 2)))
    rate = data["first_deal_clear_rate"]
    if rate is not None:
        clow, chigh = data["first_deal_clear_ci95"]
        undecided = data["first_deal_undecided"]
        values = {"cleared": data["first_deal_cleared"], "rate": format_percent(rate, 2),
                  "low": format_percent(clow, 2), "high": format_percent(chigh, 2),
                  "undecided": undecided}
        if undecided:
            print(ngettext(
                "first deal clearable without a redeal: at least {cleared} (at least "
                "{rate}, 95% CI {low} to {high}); {undecided} undecided within "
                "the budget",
                "first deal clearable without a redeal: at least {cleared} (at least "
                "{rate}, 95% CI {low} to {high}); {undecided} undecided within "
                "the budget",
                undecided,
            ).format(**values))
        else:
            print(_("first deal clearable without a redeal: {cleared} ({rate}, "
                    "95% CI {low} to {high})").format(**values))
    if data["unknown_searches"] or data["score_capped_searches"]:
        if data["policy"] == "hint":
            print(_("hints cut short by their budget: {n} (each played the best move found "
                    "so far)").format(n=data["unknown_searches"]))
        else:
            print(_("searches cut short by the budgets: {n} deciding a stop or a win (the "
                    "win rate is then a lower bound), {capped} only a lost deal's score")
                  .format(n=data["unknown_searches"], capped=data["score_capped_searches"]))
    dist = " ".join(f"{k}:{v}" for k, v in data["scores"].items())
    print(_("scores: {scores}").format(scores=dist))
