"""What a one-deal search answers: :class:`DealResult` (engine moves, from
:func:`~lucie.solver.deal.solve_deal`) and :class:`RawResult` (internal
moves, from :func:`~lucie.solver.deal.search_deal`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lucie.cards import SUITS
from lucie.engine import Move
from lucie.i18n import _
from lucie.solver.budget import Limit
from lucie.solver.encoding import IMove

#: The solver's verdict on a deal (the engine's game status is
#: :data:`lucie.engine.Status`, another thing).
Verdict = Literal["solved", "unsolvable", "unknown"]


@dataclass(frozen=True, slots=True)
class Reach:
    """A foundation state reachable without a redeal, and a line to it."""

    foundations: tuple[int, int, int, int]
    moves: tuple[Move, ...]

    @property
    def score(self) -> int:
        return sum(self.foundations)


def verdict_text(status: Verdict) -> str:
    """A one-deal verdict in words, in the language in use (the status
    itself stays the identifier, in the JSON too).

    >>> verdict_text("unsolvable")
    'cannot be cleared without a redeal'
    """
    words = {
        "solved": _("clearable without a redeal"),
        "unsolvable": _("cannot be cleared without a redeal"),
        "unknown": _("unknown: the budget ran out"),
    }
    return words[status]


def solvable_of(status: Verdict) -> bool | None:
    """A status as a verdict: can the deal be cleared (None: undecided)?"""
    return True if status == "solved" else False if status == "unsolvable" else None


@dataclass(frozen=True, slots=True)
class DealResult:
    """What :func:`~lucie.solver.deal.solve_deal` found.

    ``moves``: the winning line when ``status == "solved"``, else ``()``.
    ``reachable``: the non-dominated foundation states, each with a line
    (when solved, only the win).  With ``frontier=False`` and an
    ``unsolvable`` verdict it holds the states met before the proof ended,
    which need not be the whole frontier.  ``nodes``: positions expanded.
    ``limit``: what ran out (``seconds``, ``nodes`` or ``positions``) when
    the status is ``unknown``, or when only the search for the best score
    after an ``unsolvable`` verdict was cut short (``complete`` is then
    false; :func:`~lucie.solver.deal.solve_deal`'s ``verdict_first``), else
    None; ``held``: the most positions one walk held in its tables (never
    above ``max_positions``).
    """

    status: Verdict
    moves: tuple[Move, ...]
    reachable: tuple[Reach, ...]
    nodes: int
    seconds: float = 0.0
    complete: bool = True
    limit: Limit | None = None
    held: int = 0

    @property
    def budget_ran_out(self) -> bool:
        """Whether a budget (time, nodes or positions) cut the search short
        (the verdict, or only the score search after it: see ``limit``)."""
        return self.limit is not None

    @property
    def best_score(self) -> int:
        """Most cards on the foundations among the reachable states."""
        return max((r.score for r in self.reachable), default=0)

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when the budget ran out."""
        return solvable_of(self.status)

    def to_json(self) -> dict[str, object]:
        """The one serialisation of a verdict (``lucie solve --json``):
        ``solvable`` is null unless proved either way; ``budget_ran_out``
        and ``limit`` say what a budget cut short."""
        return {
            "status": self.status,
            "solvable": self.solvable,
            "moves": [str(m) for m in self.moves],
            "best_score": self.best_score,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "frontier_complete": self.complete or self.status == "solved",
            "budget_ran_out": self.budget_ran_out,
            "limit": self.limit,
            "reachable": [
                {"foundations": {SUITS[i]: n for i, n in enumerate(r.foundations)},
                 "score": r.score,
                 "moves": [str(m) for m in r.moves]}
                for r in self.reachable
            ],
        }


@dataclass(frozen=True, slots=True)
class RawResult:
    """:func:`~lucie.solver.deal.search_deal`'s answer: like :class:`DealResult`, but each
    reachable state comes with its line of internal ``(card, target)`` moves
    (turned into engine moves only when asked: :func:`~lucie.solver.lines.to_engine_moves`, or
    played at once by :func:`~lucie.solver.lines.reach_position`).  When solved, ``lines`` is
    the win alone."""

    status: Verdict
    lines: tuple[tuple[tuple[int, int, int, int], tuple[IMove, ...]], ...]
    nodes: int
    seconds: float
    complete: bool
    limit: Limit | None = None
    held: int = 0

    @property
    def budget_ran_out(self) -> bool:
        """Whether a budget (time, nodes or positions) cut the search short
        (the verdict, or only the score search after it: see ``limit``)."""
        return self.limit is not None

    @property
    def best_score(self) -> int:
        return max((sum(found) for found, _ in self.lines), default=0)

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when the budget ran out."""
        return solvable_of(self.status)
