"""Exact solvers: one deal (:func:`solve_deal`) and a whole numbered game
(:func:`solve_game`)."""

from lucie.solver.deal import DealResult, Reach, solve_deal
from lucie.solver.game import GameResult, solve_game

__all__ = ["DealResult", "GameResult", "Reach", "solve_deal", "solve_game"]
