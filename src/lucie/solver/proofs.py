"""The proofs of the search's reductions live in ``docs/solver.md``, one
section per reduction; the code cites these functions by name, and each
points to its section (``tests/test_readme.py`` checks that it exists)."""

from __future__ import annotations


def _proof_foundation() -> None:
    """Safe foundation moves: docs/solver.md#_proof_foundation."""


def _proof_builds() -> None:
    """Safe builds under suit-down: docs/solver.md#_proof_builds."""


def _proof_merci_caps() -> None:
    """Dead-card caps with the merci to come: docs/solver.md#_proof_merci_caps."""


def _proof_pair_home() -> None:
    """A forced foundation move with the merci to come: docs/solver.md#_proof_pair_home."""


def _proof_lone() -> None:
    """A lone card is never worth moving onto another fan: docs/solver.md#_proof_lone."""


def _proof_deadlock() -> None:
    """Deadlocked cards and the foundation caps: docs/solver.md#_proof_deadlock."""


def _proof_reach() -> None:
    """Reach caps: docs/solver.md#_proof_reach."""


def _proof_merci_reach() -> None:
    """Reach caps with the merci to come: docs/solver.md#_proof_merci_reach."""


def _proof_room() -> None:
    """Room caps: docs/solver.md#_proof_room."""
