"""True odds: the chance of winning with random redeals, under (near-)optimal play.

A real player does not know how a redeal will fall.  Within one deal,
though, everything is visible, and the exact one-deal solver
(:func:`lucie.solver.solve_deal`) lists every *foundation state* that
can be reached without a redeal and is not dominated by another (the
*frontier*).  The player's only real choice in a deal is where to stop:
which of those states to reach before redealing.  Between two deals only
the cards left matter, and they are fixed by the foundations, so the
*between-deal state* is ``(foundations, redeals left, merci used)`` and

* ``W(f, 0)`` (the last deal) is the probability that a uniformly random
  deal of the cards left can be cleared (with the merci where available);
* ``W(f, r)`` for ``r > 0`` is the expectation, over a uniformly random
  deal of the cards left, of ``max W(f', r - 1)`` over the frontier ``f'``
  of that deal (1 when the deal itself can be cleared).

The random deal is dealt exactly as a redeal deals (the engine's
:func:`lucie.deals.redeal_fans`, fans of ``fan_size`` in passes), after a
uniform shuffle.  PySolFC's shuffle is a Fisher-Yates on its own generator,
so over random games the gathered cards come out uniformly shuffled as well.

Assumptions, stated plainly
---------------------------

* **Domination.** Only the frontier is compared: a state with at least as
  many cards on every foundation is taken to be at least as good.  It is
  intuitive (the cards left are a subset) but not proved: a deal of fewer
  cards is laid out differently.  Every *reachable* state is dominated by a
  frontier state, so if the assumption failed somewhere the policy would
  only miss a better stop, never claim an impossible one.
* **Symmetry.** Under suit or any-suit builds the four suits play alike,
  so states that differ by a permutation of the suits share one value
  (sorted foundations); under alternate-colour builds only permutations
  that keep the colours apart are used.
* **Free stopping.** The player may redeal whenever they choose (the
  default rule).  With ``redeal_only_when_stuck`` the player may not stop
  early, so the figures here are then an upper reading; :func:`estimate_odds`
  refuses that setting rather than answer wrongly.

The estimator: bias and variance
--------------------------------

``W`` is estimated by nested Monte-Carlo: a sample of ``W(f, r)`` deals the
cards at random, solves the deal, and takes the max of the *current
estimates* of ``W(f', r - 1)`` over the frontier (each one computed the same
way, recursively, to at least ``target`` samples, and cached by state, in
memory and on disk: :mod:`lucie.analysis.cache`).  When at most
``exact_cards`` cards are left, ``W`` is computed exactly instead, by
enumerating every order of the cards.  The max of noisy estimates is biased
*upwards*, so the cached values are optimistic; with few inner samples the
ranking of the choices is also noisy.

These cached values are only used to *choose* where to stop.  The figure
:func:`estimate_odds` reports is not the cached value: it plays ``samples``
independent **playouts** from the position, each with genuinely random
redeals, choosing each stop by the cached values, and counts the wins.  Each
playout is a Bernoulli trial of one fixed policy (once the values of the
states it meets have their ``target`` samples they no longer change), so
the Wilson 95% interval is an honest interval for *that policy's* win rate.
The policy is feasible for a real player, so the figure is, up to its
interval, a **lower bound** on the optimal win rate; it equals the optimum
when the cached values rank the choices correctly (always so when the cards
left are few enough to be enumerated).  The gap shrinks as the cache grows.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from lucie.analysis.cache import StateKey, ValueCache
from lucie.cards import DECK, Card
from lucie.deals import Shuffler, redeal_fans
from lucie.engine import Move, Position
from lucie.errors import LucieError
from lucie.i18n import _, format_number, format_percent, ngettext, pgettext
from lucie.rules import Rules
from lucie.solver import DEFAULT_MAX_POSITIONS, PLAYER_MAX_POSITIONS, BudgetExhaustedError

if TYPE_CHECKING:
    from lucie.solver import IMove, RawResult

#: Samples each between-deal state gets before its value is trusted.
DEFAULT_TARGET: Final = 24
#: At most this many cards left: values are computed exactly (n! orders).
DEFAULT_EXACT_CARDS: Final = 5
#: Default number of playouts of :func:`estimate_odds`.
DEFAULT_SAMPLES: Final = 400

Foundations = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Odds:
    """The estimated chance of winning from a position.

    ``win_rate`` the fraction of playouts won; ``ci95`` its Wilson 95%
    interval; ``samples`` the number of playouts (0 when the answer is exact,
    then the interval is the point); ``mean_score`` the mean final score.

    ``budget_ran_out``: the call's time budget ended before the playouts
    asked for, or a search the answer rests on was cut short by its time or
    memory budget (the figure is then the best found in the time: with
    ``samples == 0`` no playout finished, and the interval is ``(0, 1)``);
    ``searches``: one-deal searches started; ``searches_cut``: those cut
    short by a budget.
    """

    win_rate: float
    ci95: tuple[float, float]
    samples: int
    mean_score: float | None
    budget_ran_out: bool = False
    searches: int = 0
    searches_cut: int = 0

    @property
    def proved(self) -> bool:
        """Whether the figure is proved by the solver (exact: the game is won,
        the deal in play can be cleared, or a last deal is proved lost), not
        measured by playouts nor cut short before any figure."""
        return self.samples == 0 and self.ci95[0] == self.ci95[1]

    @property
    def measured(self) -> bool:
        """Whether there is a figure at all: proved, or at least one playout
        (a search cut short before either leaves the win rate unknown)."""
        return self.samples > 0 or self.proved

    def text(self) -> str:
        """The estimate in words, in the language in use: the win rate, its
        interval, how it was found (playouts, exact, or not measured) and
        the mean score; a second line when the budget ran out.

        >>> print(Odds(0.25, (0.2, 0.3), 400, 40.25).text())
        win rate 25.0% (95% CI 20.0% to 30.0%, 400 playouts, mean score 40.2)
        """
        low, high = self.ci95
        if not self.measured:
            text = _("win rate unknown: not measured in the time given")
            return text + "\n" + self._ran_out_text()
        if self.samples:
            how = ngettext("{count} playout", "{count} playouts", self.samples).format(
                count=self.samples)
        else:
            how = pgettext("odds", "exact")
        fields = {"rate": format_percent(self.win_rate, 1), "low": format_percent(low, 1),
                  "high": format_percent(high, 1), "how": how}
        if self.mean_score is None:
            text = _("win rate {rate} (95% CI {low} to {high}, {how})").format(**fields)
        else:
            text = _("win rate {rate} (95% CI {low} to {high}, {how}, mean score {score})").format(
                score=format_number(self.mean_score, 1), **fields)
        if self.budget_ran_out:
            text += "\n" + self._ran_out_text()
        return text

    def _ran_out_text(self) -> str:
        return ngettext(
            "the budget ran out: {cut} of {count} search cut short; the figure is what "
            "the time and memory allowed",
            "the budget ran out: {cut} of {count} searches cut short; the figure is what "
            "the time and memory allowed", self.searches,
        ).format(cut=self.searches_cut, count=self.searches)

    def to_json(self) -> dict[str, object]:
        """The one serialisation of odds (``lucie odds --json`` and the web's
        odds alike): ``win_rate`` and ``mean_score`` are null when not
        measured; ``proved`` is true only for a figure the solver proved."""
        return {
            "win_rate": self.win_rate if self.measured else None,
            "ci95": [self.ci95[0], self.ci95[1]],
            "samples": self.samples,
            "mean_score": self.mean_score if self.measured else None,
            "proved": self.proved,
            "budget_ran_out": self.budget_ran_out,
            "searches": self.searches,
            "searches_cut": self.searches_cut,
            "text": self.text(),
        }


def wilson(wins: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for ``wins`` successes in ``n`` trials.

    >>> wilson(0, 0)
    (0.0, 1.0)
    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 3)
    (0.0, 0.278)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if wins <= 0 else max(0.0, centre - half)
    high = 1.0 if wins >= n else min(1.0, centre + half)
    return (low, high)


# ---------------------------------------------------------------------------
# dealing the cards left
# ---------------------------------------------------------------------------


class RandomShuffler(Shuffler):
    """A uniform shuffle from Python's :class:`random.Random`, usable where
    the engine takes a :class:`~lucie.deals.Shuffler` (``Position.redeal``)."""

    __slots__ = ("_rng",)

    def __init__(self, rng: random.Random) -> None:  # no PySolFC generator
        self._rng = rng

    def shuffle(self, items: list[int]) -> list[int]:
        self._rng.shuffle(items)
        return items


class _FixedShuffler(Shuffler):
    """Puts the pile in a given order (to enumerate every deal)."""

    __slots__ = ("_order",)

    def __init__(self, order: Sequence[int]) -> None:
        self._order = list(order)

    def shuffle(self, items: list[int]) -> list[int]:
        assert sorted(items) == sorted(self._order)
        items[:] = self._order
        return items


def cards_left(foundations: Foundations) -> list[Card]:
    """The cards not on the foundations, in deck order."""
    return [c for c in DECK if c.rank > foundations[c.suit_index]]


def fresh_deal(
    rules: Rules, foundations: Foundations, redeals_left: int, merci_used: bool,
    shuffler: Shuffler,
) -> Position:
    """A deal of the cards left, shuffled by ``shuffler`` and dealt as a
    redeal deals them (:func:`lucie.deals.redeal_fans`)."""
    fans = redeal_fans(cards_left(foundations), shuffler, rules.fan_size, rules.num_fans)
    return Position(
        rules, tuple(tuple(f) for f in fans), foundations, (None,) * rules.cells,
        redeals_left, merci_used,
    )


def canonical(foundations: Foundations, rules: Rules) -> Foundations:
    """The representative of a foundation state under the suit symmetries
    of ``rules`` (see the module doc).

    >>> canonical((3, 0, 5, 1), Rules())
    (0, 1, 3, 5)
    >>> canonical((3, 0, 5, 1), Rules(build="alternate"))
    (0, 5, 1, 3)
    """
    if rules.build == "alternate":
        black = sorted((foundations[0], foundations[3]))
        red = sorted((foundations[1], foundations[2]))
        a, b = sorted((tuple(black), tuple(red)))
        return (a[0], a[1], b[0], b[1])
    s = sorted(foundations)
    return (s[0], s[1], s[2], s[3])


def check_rules(rules: Rules) -> None:
    """Refuse the settings the odds model does not cover."""
    if rules.redeal_only_when_stuck:
        raise LucieError(_(
            "odds assume the player may redeal whenever they choose; "
            "redeal_only_when_stuck=on is not supported"
        ))


# ---------------------------------------------------------------------------
# the value function and the policy
# ---------------------------------------------------------------------------


class Evaluator:
    """Values of between-deal states, and the policy that uses them.

    ``target``: samples per state before its value is trusted;
    ``exact_cards``: at most this many cards left, values are exact;
    ``deadline``: a :func:`time.monotonic` time that bounds every search
    (each gets at most the time left) and after which sampling raises
    :class:`~lucie.solver.BudgetExhaustedError`;
    ``max_positions``: the memory cap of each search (positions held);
    ``solve_seconds``: a time budget for each one-deal search;
    ``sample_seconds``: a (smaller) budget for the searches made to sample
    values (a search that runs out under-rates its deal: the values become
    pessimistic where the solver is slow, typically deals of many cards
    with the merci, whose value is near 0 anyway).
    """

    def __init__(
        self,
        rules: Rules,
        cache: ValueCache | None = None,
        *,
        rng: random.Random | None = None,
        target: int = DEFAULT_TARGET,
        exact_cards: int = DEFAULT_EXACT_CARDS,
        deadline: float | None = None,
        solve_seconds: float | None = None,
        sample_seconds: float | None = None,
        max_positions: int | None = DEFAULT_MAX_POSITIONS,
    ) -> None:
        check_rules(rules)
        self.rules = rules
        self.spec = rules.replace(kings_bottom=False).spec()  # a deal-time setting only
        self.cache = cache if cache is not None else ValueCache.memory()
        self.rng = rng or random.Random()
        self.target = target
        self.exact_cards = exact_cards
        self.deadline = deadline
        self.solve_seconds = solve_seconds
        self.sample_seconds = sample_seconds
        self.max_positions = max_positions
        #: one-deal searches started, and those a budget cut short
        self.solves = 0
        self.cut = 0

    def solve(self, position: Position, seconds: float | None = None) -> RawResult:
        """The one-deal frontier (``unknown`` past ``seconds``, by default
        ``solve_seconds``: then the states found so far are used, which can
        only under-rate a deal).  In the last deal only the best score
        matters (no stop is worth more than another but the win), so the
        search keeps the best states alone."""
        return self._search(position, seconds, frontier=True,
                            best_only=position.redeals_left == 0)

    def verdict(self, position: Position, seconds: float | None = None) -> RawResult:
        """Can this deal be cleared (the fastest exact search, ``frontier=False``;
        ``unknown`` past ``seconds``, by default ``solve_seconds``)?"""
        return self._search(position, seconds, frontier=False, best_only=False)

    def _search(
        self, position: Position, seconds: float | None, *, frontier: bool, best_only: bool
    ) -> RawResult:
        from lucie.solver import search_deal

        budget = seconds if seconds is not None else self.solve_seconds
        left = self.time_left()
        if left is not None:
            budget = left if budget is None else min(budget, left)
        self.solves += 1
        result = search_deal(
            position, frontier=frontier, best_only=best_only, max_seconds=budget,
            max_positions=self.max_positions,
        )
        if result.status == "unknown":
            self.cut += 1
        return result

    def time_left(self) -> float | None:
        """Seconds left before the deadline (never below 0; None: none)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.monotonic())

    def check_time(self) -> None:
        """Raise :class:`~lucie.solver.BudgetExhaustedError` past the deadline."""
        if self.deadline is not None and time.monotonic() >= self.deadline:
            raise BudgetExhaustedError("seconds")

    def key(self, foundations: Foundations, redeals: int, merci_used: bool) -> StateKey:
        return (self.spec, canonical(foundations, self.rules), redeals, merci_used)

    # -- values ---------------------------------------------------------------

    def value(self, foundations: Foundations, redeals: int, merci_used: bool) -> float:
        """``W``: the value of a fresh random deal of the cards left, with
        ``redeals`` redeals left in it (sampled to ``target``, or exact)."""
        if sum(foundations) == 52:
            return 1.0
        key = self.key(foundations, redeals, merci_used)
        n_left = 52 - sum(foundations)
        if n_left <= self.exact_cards:
            if not self.cache.is_exact(key):
                self.cache.set_exact(key, self._exact(foundations, redeals, merci_used))
            mean = self.cache.mean(key)
            assert mean is not None
            return mean
        count = self.cache.count(key)
        while count < self.target:
            self.check_time()
            sample = self._sample(foundations, redeals, merci_used)
            self.cache.add(key, sample)
            count += 1
        mean = self.cache.mean(key)
        assert mean is not None
        return mean

    def known_value(
        self, foundations: Foundations, redeals: int, merci_used: bool
    ) -> float | None:
        """The current estimate of ``W`` without sampling (None if none)."""
        if sum(foundations) == 52:
            return 1.0
        return self.cache.mean(self.key(foundations, redeals, merci_used))

    def _deal_value(self, position: Position) -> float:
        """``max`` over the frontier of the value of stopping there (the
        search budgeted by ``sample_seconds`` and the time left)."""
        self.check_time()
        if position.redeals_left == 0:  # only a win counts: the verdict is enough
            return 1.0 if self.verdict(position, self.sample_seconds).status == "solved" else 0.0
        result = self.solve(position, self.sample_seconds)
        if result.status == "solved":
            return 1.0
        return max(
            (self.stop_value(position, f) for f in _frontier(position, result)),
            default=0.0,
        )

    def _sample(self, foundations: Foundations, redeals: int, merci_used: bool) -> float:
        deal = fresh_deal(
            self.rules, foundations, redeals, merci_used, RandomShuffler(self.rng)
        )
        return self._deal_value(deal)

    def _exact(self, foundations: Foundations, redeals: int, merci_used: bool) -> float:
        pile = [int(c) for c in cards_left(foundations)]
        total = 0.0
        count = 0
        for order in itertools.permutations(pile):
            deal = fresh_deal(self.rules, foundations, redeals, merci_used, _FixedShuffler(order))
            total += self._deal_value(deal)
            count += 1
        return total / count

    def stop_value(self, position: Position, foundations: Foundations) -> float:
        """The value of ending this deal at ``foundations``: 1 for a win;
        in the last deal 0; else the value of the next random deal."""
        if sum(foundations) == 52:
            return 1.0
        if position.redeals_left == 0:
            return 0.0
        return self.value(foundations, position.redeals_left - 1, position.merci_used)

    # -- the policy -------------------------------------------------------------

    def choose(self, position: Position, result: RawResult) -> Stop:
        """The stop state the policy picks: the highest value (ties: the
        highest score, then the shortest line).  A frontier of one state
        (the usual case under suit builds) needs no value at all."""
        reaches = stops(position, result)
        if len(reaches) == 1:
            return reaches[0]
        wins = [r for r in reaches if sum(r.foundations) == 52]
        if wins:  # worth 1, the most: no other stop needs a value
            return min(wins, key=lambda r: len(r.line))
        return max(
            reaches,
            key=lambda r: (self.stop_value(position, r.foundations), sum(r.foundations),
                           -len(r.line)),
        )

    def choose_quick(self, position: Position, result: RawResult) -> tuple[Stop, bool]:
        """Like :meth:`choose` but never past the deadline: when sampling
        runs out of time, rank by the estimates at hand (states without
        one rank by score alone).  Returns the reach and whether the values
        were complete."""
        reaches = stops(position, result)
        try:
            return self.choose(position, result), True
        except BudgetExhaustedError:
            pass
        values = [
            1.0 if sum(r.foundations) == 52 else (
                0.0 if position.redeals_left == 0 else self.known_value(
                    r.foundations, position.redeals_left - 1, position.merci_used)
            )
            for r in reaches
        ]
        if all(v is not None for v in values):
            best = max(
                range(len(reaches)),
                key=lambda i: (values[i], sum(reaches[i].foundations), -len(reaches[i].line)),
            )
        else:
            best = max(
                range(len(reaches)),
                key=lambda i: (sum(reaches[i].foundations), -len(reaches[i].line)),
            )
        return reaches[best], False

    def playout(
        self, position: Position, first: RawResult | None = None
    ) -> tuple[bool, int]:
        """Play the policy from ``position`` to the end with random redeals
        (the engine's redeal, uniformly shuffled); ``(won, score)``.
        ``first``: the solver's result for ``position`` when already known.
        Past the deadline it raises
        :class:`~lucie.solver.BudgetExhaustedError` (a playout cut
        short would not be one of the policy)."""
        shuffler = RandomShuffler(self.rng)
        result = first
        while True:
            if position.is_won:
                return True, 52
            if result is None:
                result = self.solve(position)
                if result.status == "unknown":
                    self.check_time()
            position = self.choose(position, result).reached()
            result = None
            if position.is_won:
                return True, 52
            if position.redeals_left == 0:
                return False, position.score
            position = position.redeal(shuffler)


class Stop:
    """A stop state the policy may choose: its foundations, and the line
    from ``start`` there (the solver's internal moves; :attr:`moves` gives
    them as engine moves, :meth:`reached` the position at the end)."""

    __slots__ = ("_moves", "foundations", "line", "start")

    def __init__(self, start: Position, foundations: Foundations,
                 line: tuple[IMove, ...], moves: tuple[Move, ...] | None = None) -> None:
        self.start = start
        self.foundations = foundations
        self.line = line
        #: engine moves: the line's, or those of another line to the same
        #: position (a shorter one, :func:`lucie.solver.shortcuts.shorten_line`)
        self._moves: tuple[Move, ...] | None = moves

    @property
    def moves(self) -> tuple[Move, ...]:
        """The line as engine moves, each checked by the engine."""
        if self._moves is None:
            from lucie.solver import to_engine_moves

            self._moves = to_engine_moves(self.start, self.line)
        return self._moves

    def reached(self) -> Position:
        """The position at the end of the line (:func:`~lucie.solver.reach_position`)."""
        from lucie.solver import reach_position

        return reach_position(self.start, self.line)


def _last_deal_odds(ev: Evaluator, position: Position) -> Odds:
    """:func:`estimate_odds` in a last deal: exact, the verdict first (the
    fastest search), so that a budget spent on the best score never hides
    it; then, for a lost deal, the best score in the time left."""
    verdict = ev.verdict(position)
    if verdict.status == "solved":
        return Odds(1.0, (1.0, 1.0), 0, 52.0, searches=ev.solves)
    if verdict.status == "unknown":
        # cut short: no playout can say more than the search
        best = max((sum(f) for f in _frontier(position, verdict)), default=position.score)
        return Odds(0.0, (0.0, 1.0), 0, float(best), True, ev.solves, ev.cut)
    result = ev.solve(position)
    found = _frontier(position, result) if result.status == "unsolvable" else \
        itertools.chain(_frontier(position, result), _frontier(position, verdict))
    best = max((sum(f) for f in found), default=position.score)
    # lost for certain; the score is the best found when its search was cut
    return Odds(0.0, (0.0, 0.0), 0, float(best), result.status == "unknown", ev.solves,
                ev.cut)


def stops(position: Position, result: RawResult) -> list[Stop]:
    """The stop states a one-deal search of ``position`` offers the policy
    (and the hints and the review): one :class:`Stop` per state of its
    frontier (``result.lines``), or "stop here" (``position`` itself, no
    move) when it found none."""
    reaches = [Stop(position, found, line) for found, line in result.lines]
    if not reaches:
        reaches.append(Stop(position, position.foundations, ()))
    return reaches


def _frontier(position: Position, result: RawResult) -> Iterable[Foundations]:
    for reach in stops(position, result):
        yield reach.foundations


# ---------------------------------------------------------------------------
# the public estimate
# ---------------------------------------------------------------------------


def estimate_odds(
    position: Position,
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    cache: ValueCache | None = None,
    max_seconds: float | None = None,
    target: int = DEFAULT_TARGET,
    exact_cards: int = DEFAULT_EXACT_CARDS,
    sample_seconds: float | None = None,
    max_positions: int | None = PLAYER_MAX_POSITIONS,
) -> Odds:
    """The chance of winning from ``position`` with random redeals.

    Exact (``samples == 0`` in the answer) when no redeal is left or the
    current deal can be cleared.  Otherwise it plays ``samples`` playouts
    of the policy described in the module doc and returns the win rate with
    its Wilson interval.

    ``max_seconds`` budgets the whole call, every search included: each
    search gets at most the time left, and the playouts that cannot finish
    in it are not played (fewer playouts, possibly none: then
    ``budget_ran_out`` is set, ``samples`` is 0 and the interval is
    ``(0, 1)``).  ``max_positions`` caps each search's memory (positions
    held; :data:`~lucie.solver.PLAYER_MAX_POSITIONS` by default).
    ``cache``: where values of between-deal states are kept (default: a
    memory cache; pass :meth:`ValueCache.default` for the disk cache);
    ``target``, ``exact_cards``, ``sample_seconds``: see :class:`Evaluator`.
    """
    if samples < 1:
        raise LucieError(_("samples={samples}: at least one playout is needed").format(
            samples=samples))
    check_rules(position.rules)
    start = time.monotonic()
    if position.is_won:
        return Odds(1.0, (1.0, 1.0), 0, 52.0)
    ev = Evaluator(
        position.rules, cache, rng=random.Random(seed), target=target, exact_cards=exact_cards,
        sample_seconds=sample_seconds, max_positions=max_positions,
        deadline=start + max_seconds if max_seconds is not None else None,
    )
    # with redeals to come, half the budget at most for this deal's search:
    # the playouts need the rest
    root_seconds = None if max_seconds is None or position.redeals_left == 0 \
        else max_seconds / 2
    if position.redeals_left == 0:
        return _last_deal_odds(ev, position)
    result = ev.solve(position, root_seconds)
    if result.status == "unknown" and ev.time_left() != 0.0:
        # cut short: the verdict (the fastest search) may still settle a win
        # at once; a quarter of the budget at most, the playouts need the rest
        verdict = ev.verdict(position, None if root_seconds is None else root_seconds / 2)
        if verdict.status == "solved":
            return Odds(1.0, (1.0, 1.0), 0, 52.0, searches=ev.solves, searches_cut=ev.cut)
    if result.status == "solved":
        return Odds(1.0, (1.0, 1.0), 0, 52.0, searches=ev.solves)
    wins = 0
    scores = 0
    n = 0
    out_of_time = False
    try:
        while n < samples:
            won, score = ev.playout(position, result)
            wins += won
            scores += score
            n += 1
    except BudgetExhaustedError:
        out_of_time = True
    finally:
        ev.cache.flush()
    ran_out = out_of_time or result.status == "unknown" or ev.cut > 0
    if n == 0:
        return Odds(0.0, (0.0, 1.0), 0, None, True, ev.solves, ev.cut)
    return Odds(wins / n, wilson(wins, n), n, scores / n, ran_out, ev.solves, ev.cut)
