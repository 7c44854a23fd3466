"""``lucie hint``, ``lucie odds`` and ``lucie study``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from lucie.cli.common import (
    add_json,
    add_variant,
    budget,
    count,
    deal_number,
    game_from_args,
    print_json,
    seconds,
    seed,
)
from lucie.errors import LucieError
from lucie.rules import Rules
from lucie.solver.cache import ENV_VAR, ValueCache, default_cache_path

#: Default budgets of the searches a study or an estimate makes: far above
#: what any classic, Trefoil, Fan or no-redeal search takes (milliseconds),
#: but they keep a search on a variant whose positions explode (any-suit
#: builds, cells) from running for hours and out of memory (~1 KB a position).
SOLVE_SECONDS = 10.0
SAMPLE_SECONDS = 5.0


def _add_source(p: argparse.ArgumentParser) -> None:
    add_variant(p)
    src = p.add_mutually_exclusive_group()
    src.add_argument("--deal", "-d", type=deal_number, default=None, metavar="N",
                     help="deal number (default: random, shown)")
    src.add_argument("--layout", metavar="FILE", help="a layout file ('-' for stdin)")
    src.add_argument("--load", metavar="GAME.json", help="the position of a saved game")
    p.add_argument("--seed", type=deal_number, default=None,
                   help="with --layout: seed of the redeal shuffles")


def _add_cache(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--cache", metavar="PATH", default=None,
        help=f"value cache file (default: ${ENV_VAR} or the user cache dir; 'off' for none)",
    )


def _cache(args: argparse.Namespace) -> ValueCache:
    text = args.cache
    if text is None:
        return ValueCache(default_cache_path())
    if text.strip().lower() in {"off", "none", "memory"}:
        return ValueCache(None)
    return ValueCache(Path(text))


def register(sub: Any) -> None:
    p = sub.add_parser(
        "hint", help="the best move and why",
        description="Suggest the best move (by the odds of winning with random "
        "redeals) and say what kind of move it is.",
    )
    _add_source(p)
    p.add_argument("--seconds", type=seconds(), default=2.0, metavar="S",
                   help="time budget (default 2)")
    _add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_hint)

    p = sub.add_parser(
        "odds", help="the chance of winning with random redeals",
        description="Estimate the chance of winning from a position with random "
        "redeals under (near-)optimal play, with a 95% interval.",
    )
    _add_source(p)
    p.add_argument("--samples", type=count("samples", 1, 10**7), default=400, metavar="N",
                   help="playouts (default 400)")
    p.add_argument("--sample-seed", type=seed, default=None, metavar="S",
                   help="seed of the sampling (default: random)")
    p.add_argument("--seconds", type=seconds(), default=None, metavar="S",
                   help="stop sampling after this long")
    p.add_argument("--target", type=count("samples per value", 1, 10**6), default=None, metavar="K",
                   help="samples per between-deal state value (default 24)")
    p.add_argument("--sample-seconds", type=budget(), default=SAMPLE_SECONDS, metavar="S",
                   help="time budget of each search made to sample values "
                   f"(default {SAMPLE_SECONDS:g}; 'none' for no budget)")
    _add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser(
        "study", help="play many random deals with a policy and measure it",
        description="Play N random numbered deals (PySolFC-exact redeals) with the "
        "optimal policy (or the hint policy) and report the win rate with its 95% "
        "interval, the mean score and the score distribution.",
    )
    add_variant(p)
    p.add_argument("--games", "-n", type=count("games", 1, 10**7), required=True, metavar="N",
                   help="number of games")
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="seed the deal numbers are drawn from (default: random, shown)")
    p.add_argument("--jobs", "-j", type=count("worker processes", 1, 1024), default=None,
                   metavar="J",
                   help="worker processes (default: every core)")
    p.add_argument("--policy", choices=("optimal", "hint"), default="optimal",
                   help="optimal (default) or hint")
    p.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster (e.g. tcp://127.0.0.1:8786)")
    p.add_argument("--target", type=count("samples per value", 1, 10**6), default=None, metavar="K",
                   help="samples per between-deal state value (default 24; hints, "
                   "with --policy hint, take 16)")
    p.add_argument("--hint-seconds", type=seconds(), default=2.0, metavar="S",
                   help="time budget of each hint with --policy hint (default 2)")
    p.add_argument("--solve-seconds", type=budget(), default=SOLVE_SECONDS, metavar="S",
                   help=f"time budget of each one-deal search (default {SOLVE_SECONDS:g}; "
                   "'none' for no budget; a search cut short is counted in the report)")
    p.add_argument("--sample-seconds", type=budget(), default=SAMPLE_SECONDS, metavar="S",
                   help="time budget of each search made to sample values "
                   f"(default {SAMPLE_SECONDS:g}; 'none' for no budget)")
    p.add_argument("--plot", metavar="FILE.png", default=None,
                   help="write a chart of the score distribution")
    _add_cache(p)
    add_json(p)
    p.set_defaults(func=cmd_study)


# ---------------------------------------------------------------------------


def cmd_hint(args: argparse.Namespace) -> int:
    from lucie.solver.hints import hint

    game = game_from_args(args)
    cache = _cache(args)
    advice = hint(game.position, max_seconds=args.seconds, cache=cache)
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
    from lucie.solver.odds import DEFAULT_TARGET, estimate_odds

    game = game_from_args(args)
    cache = _cache(args)
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
        low, high = odds.ci95
        how = (f"{odds.samples} playouts" if odds.samples
               else "not measured" if odds.budget_ran_out else "exact")
        score = f", mean score {odds.mean_score:.1f}" if odds.mean_score is not None else ""
        print(f"win rate {100 * odds.win_rate:.1f}% (95% CI {100 * low:.1f}-"
              f"{100 * high:.1f}%, {how}{score})")
        if odds.budget_ran_out:
            print(f"the budget ran out: {odds.searches_cut} of {odds.searches} searches cut "
                  "short; the figure is what the time and memory allowed")
    return 0


def cmd_study(args: argparse.Namespace) -> int:
    from lucie.solver.odds import DEFAULT_TARGET
    from lucie.solver.study import plot_scores, run_study

    rules: Rules = args.variant or Rules()
    if args.scheduler is not None and args.jobs is not None:
        raise LucieError("give either --jobs or --scheduler, not both")
    if args.plot is not None:
        folder = Path(args.plot).expanduser().resolve().parent
        if not folder.is_dir():
            raise LucieError(f"{args.plot}: no such directory {folder}")
    cache = _cache(args)
    result = run_study(
        rules, args.games, seed=args.seed, jobs=args.jobs, policy=args.policy,
        cache_path=cache.path, scheduler=args.scheduler,
        target=args.target or DEFAULT_TARGET, hint_seconds=args.hint_seconds,
        solve_seconds=args.solve_seconds, sample_seconds=args.sample_seconds,
    )
    if args.plot is not None:
        plot_scores(result, args.plot)
    data = result.to_json()
    if args.json:
        print_json(data)
        return 0
    low, high = data["ci95"]
    print(f"{data['title']} ({data['variant']}), {data['policy']} policy, seed {data['seed']}")
    print(f"games {data['games']}, won {data['wins']}: {100 * data['win_rate']:.2f}% "
          f"(95% CI {100 * low:.2f}-{100 * high:.2f}%)")
    print(f"mean score {data['mean_score']:.2f}; {data['seconds']:.1f} s "
          f"({data['games_per_second']} games/s)")
    rate = data["first_deal_clear_rate"]
    if rate is not None:
        clow, chigh = data["first_deal_clear_ci95"]
        undecided = data["first_deal_undecided"]
        least = "at least " if undecided else ""
        print(f"first deal clearable without a redeal: {least}{data['first_deal_cleared']} "
              f"({least}{100 * rate:.2f}%, 95% CI {100 * clow:.2f}-{100 * chigh:.2f}%)"
              + (f"; {undecided} undecided within the budget" if undecided else ""))
    if data["unknown_searches"] or data["score_capped_searches"]:
        if data["policy"] == "hint":
            print(f"hints cut short by their budget: {data['unknown_searches']} (each played "
                  f"the best move found so far)")
        else:
            print(f"searches cut short by the budgets: {data['unknown_searches']} deciding a "
                  f"stop or a win (the win rate is then a lower bound), "
                  f"{data['score_capped_searches']} only a lost deal's score")
    dist = " ".join(f"{k}:{v}" for k, v in data["scores"].items())
    print(f"scores: {dist}")
    if args.plot is not None:
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0
