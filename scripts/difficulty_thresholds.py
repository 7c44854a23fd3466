"""Measure the difficulty thresholds of variants (``lucie.analysis.difficulty.TABLE``).

Rates ``--deals`` random deals of each variant (the value of the starting
position, :meth:`lucie.analysis.review.Valuer.value`, with the between-deal
values sampled and cached in memory) and prints, per variant, the ratings'
thirds as a ``Thresholds(...)`` entry to paste into the table, with the
command, the sample size and the date.  One process, one core: keep it
modest on a shared machine.

    python scripts/difficulty_thresholds.py --deals 150 classic merci trefoil noredeal fan
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from lucie.analysis.cache import ValueCache
from lucie.analysis.difficulty import Rating, rate_deal, thresholds_from
from lucie.analysis.review import Valuer
from lucie.deals import random_deal_number
from lucie.rules import Rules


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", metavar="VARIANT")
    parser.add_argument("--deals", type=int, default=150, help="deals per variant")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deal numbers")
    parser.add_argument("--deal-seconds", type=float, default=5.0,
                        help="budget of each search (a deal cut short is left out)")
    parser.add_argument("--max-seconds", type=float, default=600.0,
                        help="stop a variant after this long (fewer deals)")
    args = parser.parse_args(argv)
    command = "python scripts/difficulty_thresholds.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    for name in args.variants:
        rules = Rules.parse(name)
        rng = random.Random(args.seed)
        start = time.monotonic()
        valuer = Valuer(rules, ValueCache(None), seed=args.seed,
                        search_seconds=args.deal_seconds, sample_seconds=args.deal_seconds)
        ratings: list[Rating] = []
        left_out = 0
        for _ in range(args.deals):
            if time.monotonic() - start > args.max_seconds:
                break
            _, rated = rate_deal(rules, random_deal_number(rng), valuer)
            if rated is None:
                left_out += 1
            else:
                ratings.append(rated)
        seconds = time.monotonic() - start
        th = thresholds_from(ratings, rules.spec(), command, time.strftime("%Y-%m-%d"),
                             measured=True)
        chances = sorted(r[0] for r in ratings)
        mean = sum(chances) / len(chances)
        print(f"# {rules.spec()}: {len(ratings)} deals rated ({left_out} left out) in "
              f"{seconds:.0f} s; mean chance {mean:.3f}; thirds at "
              f"{th.hard_below} and {th.easy_from}", flush=True)
        print(f'    "{th.variant}": Thresholds("{th.variant}", {th.hard_below!r}, '
              f'{th.easy_from!r}, {th.sample}, {command!r}, "{th.date}"),', flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
