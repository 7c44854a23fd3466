"""Game review: where a game was won or lost, move by move.

For every move of a game the review gives the *value* of the position
before and after it, the loss, a label and the best move with the hint's
words (:func:`lucie.analysis.hints.hint`).  The value of a position is the
chance of winning from there under optimal play with random redeals, the
quantity :mod:`lucie.analysis.odds` defines:

* the deal in play can be cleared without a redeal (the exact one-deal
  solver found a win): 1, exact;
* no redeal is left (the last deal): 1 or 0 by the solver's exact verdict,
  with the best score still reachable (:attr:`Value.best_score`), exact;
* otherwise the best stop of the deal: ``max W(f, r - 1)`` over the
  frontier ``f`` the solver lists, where ``W`` is the value of a random
  redeal of the cards left (:meth:`lucie.analysis.odds.Evaluator.value`,
  sampled and cached per between-deal state): an *estimate*, with an
  interval (the 95% interval of each stop's mean, whose samples lie in
  [0, 1]; the bounds of the best stop are the largest bounds).
  Exact when every stop's value is (few cards left).
* a one-deal search cut short by its time budget (builds other than
  suit-down, any-suit above all, where positions explode) only found part
  of the frontier: the value is then a *bound* (a lower bound: ``low`` is
  what was found, ``high`` is 1).

A redeal is reviewed like any move: its value after is the value of a
random redeal from there (``W`` of the foundations, before the cards fall);
the next move's value before is the value of the deal that actually came,
so luck is never counted as the player's loss.

The loss of a move is ``value_before - value_after`` (never below 0: two
estimates can differ by noise).  Labels, by the chance lost:

==============  ==========================================
``best``        the hint's move, or loses at most 0.5 points
``good``        loses less than 2 points
``inaccuracy``  loses less than 5 points
``mistake``     loses less than 20 points
``blunder``     loses 20 points or more
==============  ==========================================

(points: percentage points of the winning chance).  In a last deal that
can no longer be won every move is worth 0: there a move that lowers the
best reachable score is an ``inaccuracy`` (1 or 2 cards) or a ``mistake``
(3 or more), else ``best`` (a move is labelled by the worse of its
chance and its score losses).

Only what is known is judged.  A move is labelled only when the values
before and after it are both exact or estimates: a bound or an unknown
value gives no loss, so the move has no label, is counted in
:attr:`Review.unjudged` and is left out of the accuracy and of the chance
thrown away (never counted as best or good).  A ``best`` move never comes
with a better move: :attr:`MoveReview.better_move` names the hint's move
only beside a worse label (the hint's move beside a ``best`` label is
another move as good, "the solver's move").

Cost.  Each position is searched once (a millisecond under suit builds);
its best line is then *carried*: when the player plays the line's next
move, the position after has the same value (the line's stop is still
reachable, and nothing better is) and needs no search.  ``W`` values are
cached per between-deal state (pass a disk :class:`ValueCache` to keep them
across calls), and the frontier states of one deal mostly repeat from move
to move.  The whole call is budgeted (``max_seconds``); values not reached
in time are ``unknown`` and the review says so.  The budget is shared out
between the positions (each value gets its share of the time left, so a
slow search makes that value unknown or a bound rather than starve the
rest).

Noise.  Estimates of ``W`` differ by chance, so a move can seem to lose
a few points that it does not.  After a first pass, the between-deal
states that decide each move seeming to lose chance are sampled again, to
``refine_target`` samples (four times the usual), and the values computed
again; the hints come after, from the same refined values.

The screens use :func:`review_game` and :meth:`Review.to_json`; a position's
value alone is :meth:`Valuer.value`.

Words.  Labels are identifiers (``"mistake"``, also in the JSON);
:func:`label_name` gives a label in the language in use
(:mod:`lucie.i18n`), :attr:`MoveReview.label_text` and
:attr:`MoveReview.better_text` a move's, :meth:`Review.summary` the
game's.  The JSON holds both: ``label`` and ``label_text``.

>>> from lucie.i18n import using
>>> label_name("blunder"), Value(0.25, "estimate", 0.2, 0.31, 40).text()
('blunder', '25% (20%–31%)')
>>> with using("fr"):
...     label_name("blunder"), Value.exact(0.0, best_score=40).text()
('gaffe', '0\\xa0%, meilleur score 40')
"""

from __future__ import annotations

import contextlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final, Literal, get_args

from lucie.analysis.cache import StateKey, ValueCache
from lucie.analysis.odds import DEFAULT_TARGET, Evaluator, Foundations, stops
from lucie.engine import Game, Move, Position
from lucie.i18n import N_, _, format_number, format_percent, ngettext, pgettext
from lucie.rules import Rules
from lucie.solver import BudgetExhaustedError

ValueKind = Literal["exact", "estimate", "bound", "unknown"]
Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]

LABELS: Final[tuple[Label, ...]] = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Upper limits (exclusive) of the chance lost for each label but the last:
#: best <= 0.005 < good < 0.02 <= inaccuracy < 0.05 <= mistake < 0.20 <= blunder.
BEST_LOSS: Final = 0.005
GOOD_LOSS: Final = 0.02
INACCURACY_LOSS: Final = 0.05
MISTAKE_LOSS: Final = 0.20
#: In a lost last deal: cards of best score lost from which a move is a mistake.
MISTAKE_CARDS: Final = 3

#: Default budgets: the whole review, each one-deal search, each hint.
REVIEW_SECONDS: Final = 60.0
SEARCH_SECONDS: Final = 5.0
HINT_SECONDS: Final = 1.0
#: Budget of each search made to sample a between-deal value.
SAMPLE_SECONDS: Final = 2.0
#: Samples of the between-deal states that decide a move seeming to lose chance.
REFINE_TARGET: Final = 4 * DEFAULT_TARGET

_Z95: Final = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Value:
    """The value of a position: the chance of winning under optimal play.

    ``chance``: the value (None when ``unknown``); ``kind``: ``exact``,
    ``estimate`` (``low``-``high`` its 95% interval), ``bound`` (the chance
    is at least ``low``; ``high`` is what is not ruled out) or ``unknown``
    (the budget ran out first); ``samples``: random deals behind an
    estimate (of the best stop); ``clears``: whether the deal in play can be
    cleared without a redeal (None: not decided); ``best_score``: in a last
    deal, the most cards that can still go home (None elsewhere or when not
    decided).
    """

    chance: float | None
    kind: ValueKind
    low: float
    high: float
    samples: int = 0
    clears: bool | None = None
    best_score: int | None = None

    @classmethod
    def exact(cls, chance: float, *, clears: bool | None = None,
              best_score: int | None = None) -> Value:
        return cls(chance, "exact", chance, chance, 0, clears, best_score)

    @classmethod
    def unknown(cls) -> Value:
        return cls(None, "unknown", 0.0, 1.0)

    def to_json(self) -> dict[str, object]:
        return {
            "chance": self.chance,
            "kind": self.kind,
            "low": self.low,
            "high": self.high,
            "samples": self.samples,
            "clears": self.clears,
            "best_score": self.best_score,
            "text": self.text(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Value:
        """The value of :meth:`to_json` (its ``text`` is made again); a
        ``KeyError``, ``TypeError`` or ``ValueError`` for anything else."""
        kind = data["kind"]
        if kind not in get_args(ValueKind):
            raise ValueError(f"unknown kind of value {kind!r}")
        chance, clears, best = data["chance"], data["clears"], data["best_score"]
        if clears is not None and not isinstance(clears, bool):
            raise ValueError(f"clears is {clears!r}")
        return cls(None if chance is None else float(chance), kind, float(data["low"]),
                   float(data["high"]), int(data["samples"]), clears,
                   None if best is None else int(best))

    def text(self) -> str:
        """``100%``, ``23% (15%–33%)``, ``>= 23%`` or ``?``; in a lost last
        deal also the best score (in the language in use)."""
        if self.chance is None:
            return "?"
        pct = format_percent(self.chance)
        if self.kind == "estimate":
            pct += f" ({format_percent(self.low)}–{format_percent(self.high)})"
        elif self.kind == "bound":
            pct = ">= " + pct
        if self.best_score is not None and self.best_score < 52:
            pct = _("{chance}, best score {score}").format(chance=pct, score=self.best_score)
        return pct

    def __str__(self) -> str:
        """:meth:`text`."""
        return self.text()


def label_name(label: Label | None) -> str:
    """A review label in the language in use (``?`` for None: not labelled)."""
    if label is None:
        return "?"
    names = {
        "best": pgettext("review label", "best"),
        "good": pgettext("review label", "good"),
        "inaccuracy": pgettext("review label", "inaccuracy"),
        "mistake": pgettext("review label", "mistake"),
        "blunder": pgettext("review label", "blunder"),
    }
    return names[label]


def interval(mean: float, n: int) -> tuple[float, float]:
    """A 95% interval for the mean of ``n`` samples in [0, 1] (Wilson's, which
    holds for such samples since their variance is at most ``p(1 - p)``).

    >>> interval(0.5, 0)
    (0.0, 1.0)
    >>> [round(x, 3) for x in interval(0.5, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (0.0, 1.0)
    z2 = _Z95 * _Z95
    denom = 1 + z2 / n
    centre = (mean + z2 / (2 * n)) / denom
    half = _Z95 * math.sqrt(max(0.0, mean * (1 - mean)) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, min(mean, centre - half)), min(1.0, max(mean, centre + half)))


class Valuer:
    """Values of positions of one rule set (see the module doc), remembered.

    ``cache``: the between-deal values (default: in memory); ``seed``: their
    sampling; ``target``: samples per between-deal state; ``deadline``: a
    :func:`time.monotonic` time after which nothing more is searched or
    sampled (values then come out ``unknown``); ``search_seconds``: budget
    of each one-deal search; ``sample_seconds``: of each search made to
    sample a value.
    """

    def __init__(
        self,
        rules: Rules,
        cache: ValueCache | None = None,
        *,
        seed: int | None = 0,
        target: int = DEFAULT_TARGET,
        deadline: float | None = None,
        search_seconds: float = SEARCH_SECONDS,
        sample_seconds: float = SAMPLE_SECONDS,
    ) -> None:
        self.deadline = deadline
        self.search_seconds = search_seconds
        self.ev = Evaluator(
            rules, cache if cache is not None else ValueCache(None),
            rng=random.Random(seed), target=target, deadline=deadline,
            sample_seconds=sample_seconds,
        )
        self._values: dict[Position, Value] = {}
        #: the between-deal state of each position's best stop (estimates only)
        self._states: dict[Position, StateKey] = {}
        #: the between-deal states of all the stops of each position searched
        self._stops: dict[Position, set[StateKey]] = {}
        #: the rest of a best line from a position (see "Cost" in the module doc)
        self._carried: dict[Position, tuple[Value, tuple[Move, ...], StateKey | None]] = {}
        self.searches = 0

    @property
    def cache(self) -> ValueCache:
        return self.ev.cache

    def set_deadline(self, deadline: float | None) -> None:
        """From now on nothing is searched or sampled past ``deadline``."""
        self.deadline = deadline
        self.ev.deadline = deadline

    def _left(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def _budget(self) -> float | None:
        """The budget of the next search, or None when time is up."""
        left = self._left()
        if left is None:
            return self.search_seconds
        if left <= 0:
            return None
        return min(self.search_seconds, left)

    def value(self, position: Position) -> Value:
        """The value of ``position`` (see the module doc)."""
        known = self._values.get(position)
        if known is not None:
            return known
        carried = self._carried.get(position)
        if carried is not None:
            value, line, state = carried
            self._carry(position, value, line, state)
            self._remember_state(position, state)
        else:
            value, line, state = self._compute(position)
            if value.kind != "unknown":
                self._carry(position, value, line, state)
                self._remember_state(position, state)
        if value.kind != "unknown":
            self._values[position] = value
        return value

    def _remember_state(self, position: Position, state: StateKey | None) -> None:
        if state is not None:
            self._states[position] = state

    def state_of(self, position: Position) -> StateKey | None:
        """The between-deal state whose estimate gave ``position`` its value
        (None when the value is not an estimate of one)."""
        return self._states.get(position)

    def stop_states(self, position: Position) -> set[StateKey]:
        """The between-deal states of every stop the search of ``position``
        listed (empty when it was not searched, or its value is exact)."""
        return set(self._stops.get(position, ()))

    def redeal_state(self, position: Position) -> StateKey | None:
        """The between-deal state of redealing now (None without a redeal)."""
        return self.redeal_state_at(position, position.foundations)

    def refine(self, states: set[StateKey], target: int) -> bool:
        """Sample ``states`` up to ``target`` each (within the deadline) and
        forget the values computed so far (they are computed again from
        the refined estimates); whether any sample was added."""
        added = False
        old = self.ev.target
        self.ev.target = target
        try:
            for spec, foundations, redeals, merci_used in sorted(states):
                if spec != self.ev.spec or self.cache.count(
                        (spec, foundations, redeals, merci_used)) >= target:
                    continue
                try:
                    self.ev.value(foundations, redeals, merci_used)
                except BudgetExhaustedError:
                    break
                finally:
                    added = True
        finally:
            self.ev.target = old
        if added:
            self._values.clear()
            self._carried.clear()
            self._states.clear()
        return added

    def _carry(self, position: Position, value: Value, line: tuple[Move, ...],
               state: StateKey | None) -> None:
        if line and not line[0].is_redeal:
            self._carried[position.apply(line[0])] = (value, line[1:], state)

    def _compute(self, position: Position) -> tuple[Value, tuple[Move, ...], StateKey | None]:
        if position.is_won:
            return Value.exact(1.0, clears=True, best_score=52), (), None
        budget = self._budget()
        if budget is None:
            return Value.unknown(), (), None
        self.searches += 1
        if position.redeals_left == 0:
            value, line = self._last_deal(position, budget)
            return value, line, None
        result = self.ev.solve(position, budget)
        if result.status == "solved":
            return Value.exact(1.0, clears=True), stops(position, result)[0].moves, None
        reaches = stops(position, result)
        self._stops[position] = {key for key in (
            self.redeal_state_at(position, stop.foundations) for stop in reaches)
            if key is not None}
        rated = [(stop, self._stop_value(position, stop.foundations)) for stop in reaches]
        known = [(s, v) for s, v in rated if v.chance is not None]
        if not known:
            return Value.unknown(), (), None
        best_stop, best = max(
            known, key=lambda sv: (sv[1].chance or 0.0, sum(sv[0].foundations), -len(sv[0].line))
        )
        chance = best.chance or 0.0
        low = max(v.low for _stop, v in known)
        high = max(v.high for _stop, v in known)
        complete = result.status != "unknown" and len(known) == len(rated)
        if not complete:
            kind: ValueKind = "bound"
            low, high = chance, 1.0
        elif all(v.kind == "exact" for _stop, v in known):
            kind = "exact"
        else:
            kind = "estimate"
        clears = False if result.status == "unsolvable" else None
        value = Value(chance, kind, min(low, chance), max(high, chance), best.samples, clears)
        state = None if kind == "exact" else self.redeal_state_at(position, best_stop.foundations)
        return value, best_stop.moves, state

    def redeal_state_at(self, position: Position, foundations: Foundations) -> StateKey | None:
        """The between-deal state of ending the deal of ``position`` at ``foundations``."""
        if position.redeals_left == 0 or sum(foundations) == 52:
            return None
        return self.ev.key(foundations, position.redeals_left - 1, position.merci_used)

    def _last_deal(self, position: Position, budget: float) -> tuple[Value, tuple[Move, ...]]:
        verdict = self.ev.verdict(position, budget)
        if verdict.status == "solved":
            return (Value.exact(1.0, clears=True, best_score=52),
                    stops(position, verdict)[0].moves)
        left = self._budget()
        if verdict.status == "unknown":
            return Value(0.0, "bound", 0.0, 1.0), ()
        if left is None:
            return Value.exact(0.0, clears=False), ()
        best = self.ev.solve(position, left)  # best_only in a last deal
        reaches = stops(position, best)
        top = max(reaches, key=lambda r: (sum(r.foundations), -len(r.line)))
        exact = best.status != "unknown"
        return (Value.exact(0.0, clears=False,
                            best_score=sum(top.foundations) if exact else None), top.moves)

    def _stop_value(self, position: Position, foundations: tuple[int, int, int, int]) -> Value:
        """The value of ending the deal of ``position`` at ``foundations``
        (redeals left): ``W`` of the next random deal."""
        if sum(foundations) == 52:
            return Value.exact(1.0, clears=True, best_score=52)
        key = self.ev.key(foundations, position.redeals_left - 1, position.merci_used)
        with contextlib.suppress(BudgetExhaustedError):
            self.ev.stop_value(position, foundations)
        got = self.cache.get(key)
        if got is None or got[1] == 0:
            return Value.unknown()
        total, count = got
        mean = total / count
        if self.cache.is_exact(key):
            return Value.exact(mean)
        low, high = interval(mean, count)
        return Value(mean, "estimate", low, high, count)

    def redeal_value(self, position: Position) -> Value:
        """The value of redealing now: ``W`` of a random deal of the cards
        left (before they fall); ``unknown`` without a redeal left."""
        if position.redeals_left == 0:
            return Value.unknown()
        return self._stop_value(position, position.foundations)


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One reviewed move: ``index`` its number in the game (1 for the first;
    the position before it is ``game.positions[index - 1]``), the move, the
    best move there (None when none was found in time, or none is left),
    the values, the loss (None when a value is unknown), the label (None
    likewise), ``text``: the best move's explanation (the hint's words);
    ``score_loss``: in a lost last deal, the cards of best score lost;
    ``move_text`` and ``best_text``: the move and the best move in words
    (:meth:`~lucie.engine.Position.describe`, in the language in use when
    reviewed), for people; ``move`` and ``best_move`` are for programs."""

    index: int
    move: Move
    best_move: Move | None
    value_before: Value
    value_after: Value
    loss: float | None
    label: Label | None
    text: str
    score_loss: int = 0
    move_text: str = ""
    best_text: str | None = None

    @property
    def label_text(self) -> str | None:
        """The label in the language in use (None when not labelled)."""
        return None if self.label is None else label_name(self.label)

    @property
    def better_move(self) -> Move | None:
        """The best move, where it is better than the one played: only for a
        judged move that is not ``best`` (never beside a ``best`` label, nor
        for a move whose value is unknown: the solver's move is then no
        proved improvement)."""
        if self.label in (None, "best") or self.best_move == self.move:
            return None
        return self.best_move

    @property
    def better_text(self) -> str | None:
        """"the better move: ...", with the hint's words, for a move that
        is not the best (None for a best move or when none was found)."""
        if self.better_move is None:
            return None
        return _("the better move: {text}").format(text=self.text)

    @property
    def loss_text(self) -> str | None:
        """What the move lost, in words: ``-3.2 percentage points`` of
        winning chance, or in a lost last deal ``-2 cards of best score``
        (None for a best move or when not known)."""
        if self.loss is None or self.label in (None, "best"):
            return None
        if self.loss > 0:
            return _("-{points} percentage points").format(
                points=format_number(100 * self.loss, 1))
        return ngettext("-{count} card of best score", "-{count} cards of best score",
                        self.score_loss).format(count=self.score_loss)

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "move": str(self.move),
            "best_move": str(self.best_move) if self.best_move is not None else None,
            "better_move": str(self.better_move) if self.better_move is not None else None,
            "move_text": self.move_text,
            "best_text": self.best_text,
            "value_before": self.value_before.to_json(),
            "value_after": self.value_after.to_json(),
            "loss": self.loss,
            "label": self.label,
            "label_text": self.label_text,
            "text": self.text,
            "better_text": self.better_text,
            "score_loss": self.score_loss,
        }


@dataclass(frozen=True, slots=True)
class Review:
    """A reviewed game: its variant (spec) and deal (None for a layout), the
    value at the start, each move, whether the budget ran out (then the
    last moves may be ``unknown``), the seconds it took."""

    variant: str
    deal: int | None
    start_value: Value
    moves: tuple[MoveReview, ...]
    budget_ran_out: bool = False
    seconds: float = 0.0
    final_value: Value = field(default_factory=Value.unknown)

    @property
    def mistakes(self) -> int:
        """Moves labelled ``mistake`` or ``blunder``."""
        return sum(m.label in ("mistake", "blunder") for m in self.moves)

    @property
    def thrown_away(self) -> float:
        """The chance thrown away: the sum of the losses."""
        return sum(m.loss for m in self.moves if m.loss is not None)

    def costliest(self, count: int = 3) -> list[MoveReview]:
        """The moves that lost most (more than a ``best`` move may), costliest first."""
        lost = [m for m in self.moves if m.loss is not None and m.loss > BEST_LOSS]
        lost.sort(key=lambda m: (-(m.loss or 0.0), m.index))
        return lost[:count]

    @property
    def unjudged(self) -> int:
        """Moves without a label: a value before or after them is unknown (or
        only bounded), so they are left out of the accuracy and the chance
        thrown away rather than counted as best or good."""
        return sum(m.label is None for m in self.moves)

    @property
    def accuracy(self) -> float | None:
        """Percent of the labelled moves that are ``best`` or ``good``
        (None when no move is labelled)."""
        labelled = [m for m in self.moves if m.label is not None]
        if not labelled:
            return None
        return 100.0 * sum(m.label in ("best", "good") for m in labelled) / len(labelled)

    def counts(self) -> dict[str, int]:
        """How many moves got each label."""
        return {label: sum(m.label == label for m in self.moves) for label in LABELS}

    def summary(self) -> str:
        """The game's review in one sentence, in the language in use: the
        chance thrown away, the accuracy, the blunders, mistakes and
        inaccuracies."""
        counts = self.counts()
        accuracy = "-" if self.accuracy is None else format_percent(self.accuracy / 100)
        return _(
            "Chance thrown away: {points} percentage points; accuracy {accuracy} (moves best "
            "or good); {blunders}, {mistakes}, {inaccuracies}"
        ).format(
            points=format_number(100 * self.thrown_away, 1), accuracy=accuracy,
            blunders=ngettext("{count} blunder", "{count} blunders",
                              counts["blunder"]).format(count=counts["blunder"]),
            mistakes=ngettext("{count} mistake", "{count} mistakes",
                              counts["mistake"]).format(count=counts["mistake"]),
            inaccuracies=ngettext("{count} inaccuracy", "{count} inaccuracies",
                                  counts["inaccuracy"]).format(count=counts["inaccuracy"]),
        ) + self.unjudged_text()

    def unjudged_text(self) -> str:
        """"; 3 moves not judged ..." when some moves are not labelled, else ""."""
        if not self.unjudged:
            return ""
        return "; " + ngettext(
            "{count} move not judged (its value is unknown: left out of the accuracy)",
            "{count} moves not judged (their value is unknown: left out of the accuracy)",
            self.unjudged).format(count=self.unjudged)

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "deal": self.deal,
            "start_value": self.start_value.to_json(),
            "final_value": self.final_value.to_json(),
            "moves": [m.to_json() for m in self.moves],
            "mistakes": self.mistakes,
            "labels": self.counts(),
            "thrown_away": self.thrown_away,
            "accuracy": self.accuracy,
            "unjudged": self.unjudged,
            "costliest": [m.index for m in self.costliest()],
            "summary": self.summary(),
            "budget_ran_out": self.budget_ran_out,
            "seconds": round(self.seconds, 3),
        }


def label_for(loss: float, score_loss: int = 0, *, is_best: bool = False) -> Label:
    """The label of a move that loses ``loss`` of the winning chance (and, in
    a lost last deal, ``score_loss`` cards of best score).

    >>> label_for(0.0), label_for(0.01), label_for(0.03), label_for(0.1), label_for(0.5)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    >>> label_for(0.0, 1), label_for(0.0, 3), label_for(0.3, is_best=True)
    ('inaccuracy', 'mistake', 'best')
    """
    if is_best:
        return "best"
    if loss <= BEST_LOSS:
        by_chance = 0
    elif loss < GOOD_LOSS:
        by_chance = 1
    elif loss < INACCURACY_LOSS:
        by_chance = 2
    elif loss < MISTAKE_LOSS:
        by_chance = 3
    else:
        by_chance = 4
    by_score = 3 if score_loss >= MISTAKE_CARDS else 2 if score_loss > 0 else 0
    return LABELS[max(by_chance, by_score)]


def review_game(
    game: Game,
    *,
    max_seconds: float | None = REVIEW_SECONDS,
    cache: ValueCache | None = None,
    seed: int | None = 0,
    target: int = DEFAULT_TARGET,
    refine_target: int = REFINE_TARGET,
    search_seconds: float = SEARCH_SECONDS,
    hint_seconds: float = HINT_SECONDS,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review every move of ``game`` (see the module doc).

    ``max_seconds``: budget of the whole call (None: no limit); ``cache``:
    the between-deal values (a disk cache makes later reviews faster);
    ``seed``: their sampling; ``target``: samples per between-deal state;
    ``refine_target``: samples of the states that decide a move that
    seems to lose chance (see "Noise" in the module doc);
    ``search_seconds``, ``hint_seconds``: budgets of each one-deal search
    and each hint; ``progress(done, total)`` is called as the work goes on.

    The budget is shared out: each position's value gets its share of the
    time left for values (a value not settled in it is ``unknown``, and
    the next position gets on), and the best moves keep theirs, so the
    progress moves on and the answer comes within the budget.
    """
    start = time.monotonic()
    deadline = None if max_seconds is None else start + max_seconds
    valuer = Valuer(game.rules, cache, seed=seed, target=target, deadline=deadline,
                    search_seconds=search_seconds)
    positions = game.positions
    moves = game.moves
    # the values' time: what the best moves (the hints) do not need
    until = None if deadline is None or max_seconds is None else \
        deadline - min(len(moves) * hint_seconds, 0.3 * max_seconds)
    values = _values_pass(valuer, positions, moves, until, progress)
    if refine_target > target:
        values = _refined(valuer, positions, moves, values, until, refine_target)
    valuer.set_deadline(deadline)
    out, ran_out = _judge_moves(valuer, positions, moves, values, deadline, hint_seconds,
                                seed, progress)
    start_value = valuer.value(positions[0])
    final_value = valuer.value(positions[-1])
    valuer.cache.flush()
    ran_out = ran_out or start_value.kind == "unknown" or any(
        v.kind == "unknown" for m in out for v in (m.value_before, m.value_after))
    return Review(game.rules.spec(), game.deal, start_value, tuple(out), ran_out,
                  time.monotonic() - start, final_value)


def _refined(
    valuer: Valuer, positions: Sequence[Position], moves: Sequence[Move],
    values: list[tuple[Value, Value]], until: float | None, refine_target: int,
) -> list[tuple[Value, Value]]:
    """``values`` again with the states that decide a move that seems to
    lose chance sampled ``refine_target`` times (see "Noise" in the module
    doc); as they are when there is none, or no state was refined."""
    disputed = [
        i for i, (before, after) in enumerate(values)
        if before.chance is not None and after.chance is not None
        and before.chance - after.chance > BEST_LOSS
        and "estimate" in (before.kind, after.kind)
    ]
    if not disputed:
        return values
    keys = {valuer.state_of(positions[i]) for i in disputed}
    keys |= {valuer.state_of(positions[i + 1]) if not moves[i].is_redeal
             else valuer.redeal_state(positions[i]) for i in disputed}
    valuer.set_deadline(until)
    if valuer.refine({k for k in keys if k is not None}, refine_target):
        return _values_pass(valuer, positions, moves, until, None)
    return values


#: A move whose best move was not looked for (the budget ran out first).
NOT_LOOKED: Final = N_("no best move looked for: the time budget ran out")


def _values_pass(
    valuer: Valuer, positions: Sequence[Position], moves: Sequence[Move], until: float | None,
    progress: Callable[[int, int], None] | None,
) -> list[tuple[Value, Value]]:
    """The value before and after each move, each value in its share of the
    time left before ``until`` (a value already known takes none, and its
    share goes to the next); progress is reported after each (two steps a
    move, of three: the third is its best move).  Then the valuer's
    deadline is ``until``."""
    out = []
    total = 3 * len(moves)
    done = 0

    def timed(compute: Callable[[], Value]) -> Value:
        nonlocal done
        if until is not None:
            now = time.monotonic()
            valuer.set_deadline(now + max(0.0, until - now) / (2 * len(moves) - done))
        value = compute()
        done += 1
        if progress is not None:
            progress(done, total)
        return value

    for i, move in enumerate(moves):
        before = timed(partial(valuer.value, positions[i]))
        after = timed(partial(valuer.redeal_value, positions[i]) if move.is_redeal
                      else partial(valuer.value, positions[i + 1]))
        out.append((before, after))
    valuer.set_deadline(until)
    return out


def _settled(value: Value) -> bool:
    """Whether a value can judge a move: exact or an estimate (a bound or
    an unknown value cannot: a loss read off them could be anything)."""
    return value.chance is not None and value.kind in ("exact", "estimate")


def _losses(before: Value, after: Value) -> tuple[float | None, int]:
    """What a move lost: its chance (None when its values do not settle
    it, :func:`_settled`), and its cards home where both chances are 0."""
    loss: float | None = None
    if _settled(before) and _settled(after):
        assert before.chance is not None and after.chance is not None
        loss = max(0.0, before.chance - after.chance)
    elif after.chance is not None and after.kind != "unknown" and after.low >= before.high:
        loss = 0.0  # nothing was lost, whatever the value before (a win found after)
    if (loss is not None and before.best_score is not None and after.best_score is not None
            and before.chance == 0.0 and after.chance == 0.0):
        return loss, max(0, before.best_score - after.best_score)
    return loss, 0


def _judge_moves(
    valuer: Valuer, positions: Sequence[Position], moves: Sequence[Move],
    values: list[tuple[Value, Value]], deadline: float | None, hint_seconds: float,
    seed: int | None, progress: Callable[[int, int], None] | None,
) -> tuple[list[MoveReview], bool]:
    """Each move with the best move (the hint's), its loss and label: a
    move whose values are not both settled (:func:`_settled`) has neither;
    and whether the time ran out before some best move was looked for."""
    from lucie.analysis.hints import hint

    out: list[MoveReview] = []
    ran_out = False
    for i, move in enumerate(moves):
        before, after = values[i]
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            best_move, text = None, _(NOT_LOOKED)
            ran_out = True
        else:
            seconds = hint_seconds if left is None else min(hint_seconds, left)
            # after the game: the best move may say that it clears the deal
            advice = hint(positions[i], max_seconds=max(0.05, seconds), cache=valuer.cache,
                          seed=seed, tell_clears=True)
            best_move, text = advice.move, advice.text
        loss, score_loss = _losses(before, after)
        label: Label | None = None
        if loss is not None:
            label = label_for(loss, score_loss, is_best=best_move == move)
        elif best_move is None and left is not None and left <= 0:
            text = _("not reviewed: the time budget ran out")
        best_text = positions[i].describe(best_move) if best_move is not None else None
        out.append(MoveReview(i + 1, move, best_move, before, after, loss, label, text,
                              score_loss, positions[i].describe(move), best_text))
        if progress is not None:
            progress(2 * len(moves) + i + 1, 3 * len(moves))
    return out, ran_out


__all__ = [
    "LABELS", "MoveReview", "Review", "Value", "Valuer", "interval", "label_for",
    "label_name", "review_game",
]
