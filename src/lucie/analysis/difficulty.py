"""Deals by difficulty: clearable, easy, medium, hard.

``clearable``
    the first deal can be cleared without any redeal: the exact verdict of
    the one-deal solver (:func:`lucie.solver.search_deal`, with
    ``frontier=False``), proved for the deal picked.
``easy``, ``medium``, ``hard``
    thirds of the variant's deals by their winning chance under optimal
    play: the value of the starting position (:meth:`lucie.analysis.review.Valuer.value`:
    1 for a deal that can be cleared at once, else the best stop's value
    ``W`` of a random redeal, estimated).  Ties (many deals of a variant
    without a redeal are worth exactly 0) are broken by the best score the
    first deal can reach, where it is known (last deals); so a deal's
    *rating* is the pair ``(chance, best score)``, compared in that order.
    A deal rated below :attr:`Thresholds.hard_below` is hard, from
    :attr:`Thresholds.easy_from` on easy, medium between.

A rating is an estimate with a 95% interval (exact only where the solver
settles the start).  :func:`rate`, the one computation behind a pick and
the difficulty told at the end of a game, samples a deal further
(:data:`DECIDE_TARGETS`) until its interval lies within one third; when it
still spans two, the rating says so (:attr:`Rated.decided` is false, and
its sentence names the third only as the likeliest).  A pick prefers a
decided deal; the end of a picked deal's game tells the very rating it was
picked by (:func:`deal_difficulty`'s ``picked``), never a new estimate that
could fall in another third, with a later exact figure beside it only
where one disagrees.

The thresholds were measured for the main variants by
``scripts/difficulty_thresholds.py`` (:data:`TABLE`, each with its command,
sample size and date).  For other rule sets they are computed on demand
from a few deals' ratings (:func:`estimate_thresholds`), and the answer
says so (:attr:`Thresholds.measured` is false).

The difficulties are identifiers (``"hard"``, also in the JSON and on the
command line); :func:`difficulty_name` and :func:`difficulty_description`
give them in the language in use (:mod:`lucie.i18n`), :meth:`Rated.text`
a finished game's deal in a sentence.

>>> from lucie.i18n import using
>>> difficulty_name("hard")
'hard'
>>> with using("de"):
...     difficulty_name("hard"), difficulty_name("clearable")
('schwer', 'ohne Neuverteilung lösbar')
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, replace
from typing import Any, Final, Literal, get_args

from lucie.analysis.cache import ValueCache
from lucie.analysis.review import Value, Valuer
from lucie.deals import random_deal_number
from lucie.engine import Position
from lucie.errors import LucieError
from lucie.i18n import _, ngettext, pgettext
from lucie.rules import Rules

Difficulty = Literal["clearable", "easy", "medium", "hard"]
DIFFICULTIES: Final[tuple[Difficulty, ...]] = get_args(Difficulty)


def difficulty_name(difficulty: Difficulty) -> str:
    """A difficulty's name in the language in use."""
    names = {
        "clearable": pgettext("difficulty", "clearable"),
        "easy": pgettext("difficulty", "easy"),
        "medium": pgettext("difficulty", "medium"),
        "hard": pgettext("difficulty", "hard"),
    }
    return names[difficulty]


def difficulty_description(difficulty: Difficulty) -> str:
    """What a difficulty means, in one line, in the language in use."""
    descriptions = {
        "clearable": _("the first deal can be cleared without any redeal"),
        "easy": _("the easiest third of the variant's deals, by the chance of winning"),
        "medium": _("the middle third of the variant's deals, by the chance of winning"),
        "hard": _("the hardest third of the variant's deals, by the chance of winning"),
    }
    return descriptions[difficulty]


#: A deal's rating: its winning chance, then its best first-deal score (or 0).
Rating = tuple[float, int]

#: Default budgets: a whole pick, and each deal's searches within it.
PICK_SECONDS: Final = 30.0
DEAL_SECONDS: Final = 2.0
#: Deals rated to place the thresholds when no table exists.
ON_DEMAND_DEALS: Final = 12


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Where a variant's thirds begin: ``hard_below`` and ``easy_from``
    (ratings); how they were found (``command``, ``sample`` deals,
    ``date``); ``measured``: from the table (else estimated on demand)."""

    variant: str
    hard_below: Rating
    easy_from: Rating
    sample: int
    command: str
    date: str
    measured: bool = True

    def classify(self, rating: Rating) -> Difficulty:
        if rating < self.hard_below:
            return "hard"
        if rating >= self.easy_from:
            return "easy"
        return "medium"

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "hard_below": list(self.hard_below),
            "easy_from": list(self.easy_from),
            "sample": self.sample,
            "command": self.command,
            "date": self.date,
            "measured": self.measured,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Thresholds:
        """The thresholds of :meth:`to_json` (a ``KeyError``, ``TypeError``
        or ``ValueError`` for anything else)."""
        hard, easy = data["hard_below"], data["easy_from"]
        return cls(str(data["variant"]), (float(hard[0]), int(hard[1])),
                   (float(easy[0]), int(easy[1])), int(data["sample"]),
                   str(data["command"]), str(data["date"]), bool(data["measured"]))


#: Measured thresholds per variant spec (see the module doc).
_RUN_1: Final = ("python scripts/difficulty_thresholds.py --deals 300 --max-seconds 240 "
                 "classic trefoil noredeal fan merci")
_RUN_2: Final = ("python scripts/difficulty_thresholds.py --deals 1000 --max-seconds 300 "
                 "classic noredeal fan")
#: merci is missing: its values take minutes per deal from an empty cache
#: (the run above rated one merci deal in 335 s); it is estimated on demand.
TABLE: Final[dict[str, Thresholds]] = {
    "classic": Thresholds("classic", (0.1181, 0), (0.1892, 0), 1000, _RUN_2, "2026-12-03"),
    "trefoil": Thresholds("trefoil", (0.1354, 0), (0.1979, 0), 300, _RUN_1, "2026-12-03"),
    "noredeal": Thresholds("noredeal", (0.0, 7), (0.0, 16), 1000, _RUN_2, "2026-12-03"),
    "fan": Thresholds("fan", (0.0, 28), (1.0, 52), 361, _RUN_2, "2026-12-03"),
}


@dataclass(frozen=True, slots=True)
class Pick:
    """A picked deal: its number, difficulty and value (the rating's
    chance, with its kind), the thresholds used (None for ``clearable``),
    the deals tried, and its rating (:class:`Rated`, ``picked``): what the
    end of its game tells (:func:`deal_difficulty`'s ``picked``)."""

    variant: str
    deal: int
    difficulty: Difficulty
    value: Value
    thresholds: Thresholds | None
    tried: int
    rated: Rated

    def to_json(self) -> dict[str, object]:
        return {
            "variant": self.variant,
            "deal": self.deal,
            "difficulty": self.difficulty,
            "difficulty_text": difficulty_name(self.difficulty),
            "value": self.value.to_json(),
            "thresholds": self.thresholds.to_json() if self.thresholds else None,
            "tried": self.tried,
            "rated": self.rated.to_json(),
        }


def rating(value: Value) -> Rating | None:
    """A start value as a rating (None when it is not settled: a bound or unknown)."""
    if value.chance is None or value.kind in ("bound", "unknown"):
        return None
    return (value.chance, value.best_score if value.best_score is not None else 0)


def rate_deal(rules: Rules, number: int, valuer: Valuer) -> tuple[Value, Rating | None]:
    """The value of deal ``number``'s start and its rating."""
    value = valuer.value(Position.deal(rules, number))
    return value, rating(value)


def thresholds_from(ratings: list[Rating], variant: str, command: str, date: str,
                    *, measured: bool) -> Thresholds:
    """The thirds of ``ratings``: the ratings at one third and two thirds."""
    if not ratings:
        raise LucieError(_("no deal of {variant} could be rated in time to place the "
                           "difficulty thresholds: try a larger --seconds").format(
                               variant=variant))
    ranked = sorted(ratings)
    n = len(ranked)
    return Thresholds(variant, ranked[n // 3], ranked[(2 * n) // 3], n, command, date,
                      measured)


def estimate_thresholds(
    rules: Rules, valuer: Valuer, rng: random.Random, deals: int = ON_DEMAND_DEALS,
    *, deadline: float | None = None,
) -> Thresholds:
    """Thresholds from ``deals`` random deals' ratings (fewer when
    ``deadline``, a :func:`time.monotonic` time, comes first)."""
    found: list[Rating] = []
    for _attempt in range(deals):
        if deadline is not None and time.monotonic() >= deadline:
            break
        rated = rate_deal(rules, random_deal_number(rng), valuer)[1]
        if rated is not None:
            found.append(rated)
    return thresholds_from(found, rules.spec(), "estimated on demand",
                           time.strftime("%Y-%m-%d"), measured=False)


@dataclass(frozen=True, slots=True)
class Rated:
    """A deal's rating as the screens tell it: its third (None when its
    value is not settled in time: the third of the estimate itself, even
    when its interval spans two), whether its first deal can be cleared
    without a redeal (None: not decided), its start value, the thresholds
    used; ``decided``: the value's interval lies within one third (an exact
    value always does); ``picked``: this is the rating a pick chose the deal
    by; ``later``: a later, exact rating of a picked deal that disagrees
    with the pick (told beside it, never instead of it)."""

    difficulty: Difficulty | None
    clearable: bool | None
    value: Value
    thresholds: Thresholds | None
    decided: bool = False
    picked: bool = False
    later: Rated | None = None

    def text(self) -> str:
        """The deal's difficulty in a sentence, in the language in use:
        "This deal is hard, not clearable without a redeal (winning chance
        8% (5-12%))."; then, where so, that its interval does not settle the
        third, and a later exact figure that disagrees with the pick."""
        name = None if self.difficulty is None else difficulty_name(self.difficulty)
        if name is None and self.clearable is None:
            return _("This deal's difficulty could not be settled in time.")
        if name is None:
            words = (_("This deal is clearable without a redeal") if self.clearable else
                     _("This deal is not clearable without a redeal"))
        elif self.clearable is None:
            words = _("This deal is {difficulty}").format(difficulty=name)
        elif self.clearable:
            words = _("This deal is {difficulty}, clearable without a redeal").format(
                difficulty=name)
        else:
            words = _("This deal is {difficulty}, not clearable without a redeal").format(
                difficulty=name)
        if self.value.chance is not None:
            words += " " + _("(winning chance {chance})").format(chance=self.value.text())
        words += "."
        if name is not None and not self.decided:
            words += " " + _("Its interval spans more than one difficulty: {difficulty} is "
                             "only the likeliest.").format(difficulty=name)
        later = self.later
        if later is not None and later.difficulty is not None:
            words += " " + _("Since the pick, the solver has found its exact winning chance, "
                             "{chance}: it is {difficulty} (the pick rested on an "
                             "estimate).").format(chance=later.value.text(),
                                                  difficulty=difficulty_name(later.difficulty))
        return words

    def to_json(self) -> dict[str, object]:
        """The one serialisation of a rating (``lucie pick --json``'s
        ``rated``, the web's end of game)."""
        return {
            "difficulty": self.difficulty,
            "difficulty_text": (None if self.difficulty is None
                                else difficulty_name(self.difficulty)),
            "clearable": self.clearable,
            "value": self.value.to_json(),
            "thresholds": self.thresholds.to_json() if self.thresholds else None,
            "decided": self.decided,
            "picked": self.picked,
            "later": self.later.to_json() if self.later is not None else None,
            "text": self.text(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rated:
        """The rating of :meth:`to_json`, as it was (its ``text`` and
        ``difficulty_text`` are made again, in the language in use); a
        ``ValueError`` naming the problem for anything else."""
        try:
            difficulty = data["difficulty"]
            if difficulty is not None and difficulty not in DIFFICULTIES:
                raise ValueError(f"unknown difficulty {difficulty!r}")
            clearable = data["clearable"]
            if clearable is not None and not isinstance(clearable, bool):
                raise ValueError(f"clearable is {clearable!r}")
            thresholds = data["thresholds"]
            later = data["later"]
            return cls(difficulty, clearable, Value.from_json(data["value"]),
                       None if thresholds is None else Thresholds.from_json(thresholds),
                       bool(data["decided"]), bool(data["picked"]),
                       None if later is None else cls.from_json(later))
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a rating ({type(exc).__name__}: {exc})") from None


#: Samples of a deal's stop values, tried in turn, until the interval of its
#: winning chance lies within one third (:func:`rate`).
DECIDE_TARGETS: Final = (96, 384)
#: Longest the rating of one deal may take within a pick (seconds).
RATE_SECONDS: Final = 6.0
#: Longest a pick looks for a deal whose rating is decided, once it has one
#: of the third asked for by its estimate (seconds).
DECIDE_SECONDS: Final = 10.0


def _classes(table: Thresholds, value: Value) -> set[Difficulty]:
    """The thirds the interval of ``value`` reaches (empty: not rated)."""
    if rating(value) is None:
        return set()
    score = value.best_score if value.best_score is not None else 0
    return {table.classify((value.low, score)), table.classify((value.high, score))}


def rated_of(value: Value, table: Thresholds | None, *, picked: bool = False) -> Rated:
    """A start value as a rating against ``table``."""
    rated = rating(value)
    difficulty = table.classify(rated) if table is not None and rated is not None else None
    decided = table is not None and (value.kind == "exact" or len(_classes(table, value)) == 1)
    return Rated(difficulty, value.clears, value, table, decided and rated is not None, picked)


def rate(
    rules: Rules, number: int, valuer: Valuer, table: Thresholds | None, *,
    deadline: float | None = None, want: Difficulty | None = None, picked: bool = False,
) -> Rated:
    """The rating of deal ``number``: the one computation behind a pick and
    the difficulty told at the end of a game.  Its start value, sampled
    further (:data:`DECIDE_TARGETS`, every stop of its first deal) until its
    interval lies within one third, or ``deadline`` (a
    :func:`time.monotonic` time) comes, or, with ``want``, the estimate is
    not of that third."""
    position = Position.deal(rules, number)
    value = valuer.value(position)
    for target in DECIDE_TARGETS:
        if table is None:
            break
        reached = _classes(table, value)
        if len(reached) <= 1 or value.kind == "exact":
            break
        if want is not None and table.classify(rating(value) or (0.0, 0)) != want:
            break  # most likely not the third wanted: no time spent on it
        if deadline is not None and time.monotonic() >= deadline:
            break
        states = valuer.stop_states(position)
        if not states:
            break
        whole = valuer.deadline
        valuer.set_deadline(whole if deadline is None else
                            deadline if whole is None else min(whole, deadline))
        try:
            valuer.refine(states, target)
            again = valuer.value(position)
        finally:
            valuer.set_deadline(whole)
        if rating(again) is None:
            break  # out of time: the figure had stands
        value = again
    return rated_of(value, table, picked=picked)


def deal_difficulty(
    rules: Rules,
    number: int,
    *,
    max_seconds: float = PICK_SECONDS,
    deal_seconds: float = DEAL_SECONDS,
    seed: int | None = 0,
    cache: ValueCache | None = None,
    picked: Rated | None = None,
) -> Rated:
    """The difficulty of deal ``number`` (easy, medium or hard) and whether
    it is clearable, within ``max_seconds`` (thresholds estimated on demand
    where :data:`TABLE` has none, from at most half the budget): :func:`rate`.

    ``picked``: the rating the deal was picked by (:attr:`Pick.rated`).  It
    is then the answer, the same figure the pick used; only a later figure
    that is exact (the solver settles the start at once) and disagrees is
    added to it (:attr:`Rated.later`)."""
    deadline = time.monotonic() + max_seconds
    valuer = Valuer(rules, cache, seed=seed, deadline=deadline, search_seconds=deal_seconds,
                    sample_seconds=deal_seconds)
    if picked is not None:
        if picked.value.kind == "exact":
            return picked
        first = valuer.value(Position.deal(rules, number))
        valuer.cache.flush()
        later = rated_of(first, picked.thresholds) if first.kind == "exact" else None
        if later is not None and later.difficulty != picked.difficulty:
            return replace(picked, later=later)
        return picked
    value = valuer.value(Position.deal(rules, number))
    table = TABLE.get(rules.spec())
    if table is None and rating(value) is not None:
        rng = random.Random(seed)
        try:
            table = estimate_thresholds(rules, valuer, rng,
                                        deadline=time.monotonic() + max_seconds / 2)
        except LucieError:
            table = None
    rated = rate(rules, number, valuer, table, deadline=deadline)
    valuer.cache.flush()
    return rated


def pick_deal(
    rules: Rules,
    difficulty: Difficulty,
    *,
    max_seconds: float = PICK_SECONDS,
    deal_seconds: float = DEAL_SECONDS,
    seed: int | None = None,
    cache: ValueCache | None = None,
) -> Pick:
    """A random deal number of ``rules`` that fits ``difficulty`` (see the
    module doc), found within ``max_seconds``; each deal's searches get
    ``deal_seconds``, its rating at most :data:`RATE_SECONDS`.  A deal whose
    rating is decided (its interval within the third asked for: :func:`rate`)
    is picked at once; when none is found in time (or in
    :data:`DECIDE_SECONDS`), the deal of that third by its estimate whose
    interval reaches least out of it, and its rating says that it is not
    decided (:attr:`Rated.decided`).  Raises :class:`LucieError` when no deal
    of that third is found at all."""
    if difficulty not in DIFFICULTIES:
        raise LucieError(_("unknown difficulty {difficulty} (known: {known})").format(
            difficulty=repr(difficulty), known=", ".join(DIFFICULTIES)))
    rng = random.Random(seed) if seed is not None else random.Random()
    deadline = time.monotonic() + max_seconds
    spec = rules.spec()
    if difficulty == "clearable":
        return _pick_clearable(rules, rng, deadline, deal_seconds, max_seconds)
    valuer = Valuer(rules, cache, seed=rng.randrange(2**32), deadline=deadline,
                    search_seconds=deal_seconds, sample_seconds=deal_seconds)
    table = TABLE.get(spec)
    if table is None:
        # at most half the budget, so that deals can be tried with them
        table = estimate_thresholds(rules, valuer, rng,
                                    deadline=time.monotonic() + max_seconds / 2)
    tried = undecided = 0
    likeliest: tuple[int, Rated] | None = None
    settle_by = time.monotonic() + DECIDE_SECONDS
    while time.monotonic() < deadline:
        if likeliest is not None and time.monotonic() >= settle_by:
            break
        number = random_deal_number(rng)
        tried += 1
        rated = rate(rules, number, valuer, table, want=difficulty, picked=True,
                     deadline=min(deadline, time.monotonic() + RATE_SECONDS))
        if rated.difficulty is None:
            undecided += 1
            continue
        if rated.difficulty == difficulty:
            if rated.decided:
                valuer.cache.flush()
                return Pick(spec, number, difficulty, rated.value, table, tried, rated)
            # its interval reaches another third: kept in case no deal is decided in time
            undecided += 1
            if likeliest is None or _doubt(rated) < _doubt(likeliest[1]):
                likeliest = (number, rated)
    valuer.cache.flush()
    if likeliest is not None:  # said so: its rating is not decided
        number, rated = likeliest
        return Pick(spec, number, difficulty, rated.value, table, tried, rated)
    raise _not_found(difficulty, spec, max_seconds, tried, undecided)


def _doubt(rated: Rated) -> float:
    """How far an undecided rating reaches out of its third: the high end
    of a hard deal's interval, the low end's shortfall for an easy one,
    the width for a medium one (smaller is surer)."""
    value = rated.value
    if rated.difficulty == "hard":
        return value.high
    if rated.difficulty == "easy":
        return 1.0 - value.low
    return value.high - value.low


def _pick_clearable(
    rules: Rules, rng: random.Random, deadline: float, deal_seconds: float, max_seconds: float
) -> Pick:
    from lucie.solver import search_deal

    tried = undecided = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        number = random_deal_number(rng)
        tried += 1
        result = search_deal(Position.deal(rules, number), frontier=False,
                             max_seconds=min(deal_seconds, left))
        if result.status == "solved":
            value = Value.exact(1.0, clears=True, best_score=52)
            return Pick(rules.spec(), number, "clearable", value, None, tried,
                        rated_of(value, TABLE.get(rules.spec()), picked=True))
        undecided += result.status == "unknown"
    raise _not_found("clearable", rules.spec(), max_seconds, tried, undecided)


def _not_found(difficulty: Difficulty, spec: str, max_seconds: float, tried: int,
               undecided: int) -> LucieError:
    """The error of a pick that found no deal in time."""
    return LucieError(
        _("{variant}: no {difficulty} deal found in {seconds} s ({tried}, {undecided} "
          "undecided): try a larger --seconds").format(
            difficulty=difficulty_name(difficulty), variant=Rules.parse(spec).name(),
            seconds=f"{max_seconds:g}",
            tried=ngettext("{count} deal tried", "{count} deals tried", tried).format(
                count=tried),
            undecided=undecided)
    )
