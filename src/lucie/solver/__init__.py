"""The exact search: one deal (:func:`solve_deal`, :func:`search_deal`) and
a whole numbered game (:func:`solve_game`).

This package is the search alone: positions in its compact encoding, the
reductions (each with its proof in ``docs/solver.md``), a position's
children and the order a walk tries them in, forced moves, restarts, the
frontier, the answers and their lines.  What is built on it (odds, hints,
reviews, difficulty, studies, the value cache) is :mod:`lucie.analysis`,
which imports only the names below (an import-linter contract in
``pyproject.toml`` says so); the search never imports the analysis.

The public API:

- :func:`solve_deal` (answers in engine moves, :class:`DealResult`) and
  :func:`search_deal` (the same search answering in the search's own
  moves, :class:`RawResult` of :data:`IMove`\\ s, for callers that need only
  the foundation states or play a line at once);
- :func:`to_engine_moves` and :func:`reach_position`: a :class:`RawResult`'s
  line as engine moves, or the position at its end;
- :func:`shorten`: the one policy every line shown to a player goes through;
- :func:`solve_game`: a whole game, redeals included (:class:`GameResult`);
- the budgets: :data:`DEFAULT_MAX_POSITIONS`, :data:`PLAYER_MAX_POSITIONS`,
  :class:`BudgetExhaustedError` and :data:`Limit`.
"""

from lucie.solver._native import load as _load_deal

_load_deal()  # the compiled build of the search when present and current

from lucie.solver.budget import (  # noqa: E402
    DEFAULT_MAX_POSITIONS,
    PLAYER_MAX_POSITIONS,
    BudgetExhaustedError,
    Limit,
)
from lucie.solver.deal import search_deal, solve_deal  # noqa: E402
from lucie.solver.encoding import IMove  # noqa: E402
from lucie.solver.game import GameResult, solve_game  # noqa: E402
from lucie.solver.lines import reach_position, to_engine_moves  # noqa: E402
from lucie.solver.results import DealResult, RawResult, Reach, Verdict  # noqa: E402
from lucie.solver.shortcuts import shorten  # noqa: E402

__all__ = [
    "DEFAULT_MAX_POSITIONS", "PLAYER_MAX_POSITIONS", "BudgetExhaustedError", "DealResult",
    "GameResult", "IMove", "Limit", "RawResult", "Reach", "Verdict", "reach_position",
    "search_deal", "shorten", "solve_deal", "solve_game", "to_engine_moves",
]
