"""The one exception of a spent budget, shared by every solver module.

A search made for a player is bounded three ways: by time (a deadline), by
work (positions expanded, ``max_nodes``) and by memory (positions held in
its tables, ``max_positions``).  Whichever runs out first raises
:class:`BudgetExhaustedError` inside the search; the public functions catch
it and answer ``unknown`` (or say ``budget_ran_out``), never raise it.
"""

from __future__ import annotations

from typing import Final, Literal

from lucie.i18n import _

#: What ran out: the time, the positions expanded, or the positions held.
Limit = Literal["seconds", "nodes", "positions"]

#: Most positions one search holds in its tables (:func:`lucie.solver.deal.
#: search_deal`'s default ``max_positions``): about 1.2 KB each with their
#: share of the walk's stack (measured on Shamrocks, pure and compiled alike,
#: as both keep Python objects), so about 2.4 GB at most.
DEFAULT_MAX_POSITIONS: Final = 2_000_000
#: The tighter cap of each search made for a player (hints, odds): about
#: 600 MB at most; a two-second hint holds well under it.
PLAYER_MAX_POSITIONS: Final = 500_000


def limit_text(limit: Limit) -> str:
    """What ran out, in words, in the language in use.

    >>> limit_text("positions")
    'the memory cap of positions held'
    """
    words = {
        "seconds": _("the time budget"),
        "nodes": _("the node limit"),
        "positions": _("the memory cap of positions held"),
    }
    return words[limit]


class BudgetExhaustedError(Exception):
    """A search's time, node or position budget is spent (``limit`` says
    which)."""

    def __init__(self, limit: Limit = "seconds") -> None:
        super().__init__(f"the solver's budget ran out ({limit})")
        self.limit: Limit = limit


__all__ = ["DEFAULT_MAX_POSITIONS", "PLAYER_MAX_POSITIONS", "BudgetExhaustedError", "Limit",
           "limit_text"]
