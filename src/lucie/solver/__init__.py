"""Exact solvers: one deal (:func:`solve_deal`) and a whole numbered game
(:func:`solve_game`)."""

from lucie.solver.deal import DealResult, Reach, solve_deal

__all__ = ["DealResult", "Reach", "solve_deal"]
