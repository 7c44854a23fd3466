"""Exact solvers: one deal (:func:`solve_deal`) and a whole numbered game
(:func:`solve_game`)."""

from lucie.solver._native import load as _load_deal

_load_deal()  # the compiled build of the search when present and current

from lucie.solver.deal import DealResult, Reach, solve_deal  # noqa: E402
from lucie.solver.game import GameResult, solve_game  # noqa: E402

__all__ = ["DealResult", "GameResult", "Reach", "solve_deal", "solve_game"]
