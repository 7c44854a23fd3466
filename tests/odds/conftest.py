"""Fixtures shared by the odds, hint and study tests."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lucie.engine import Position

SearchLog = list[dict[str, Any]]


@pytest.fixture
def count_searches(monkeypatch: pytest.MonkeyPatch) -> Callable[..., SearchLog]:
    """Call it to record the keyword arguments of every one-deal search
    (:func:`lucie.solver.search_deal`, as the analysis calls it) from then on; ``adjust``, if
    given, may then change them (a test starving a search of nodes)."""

    def start(adjust: Callable[[dict[str, Any]], None] | None = None) -> SearchLog:
        import lucie.solver as deal

        calls: SearchLog = []
        real = deal.search_deal

        def counting(position: Position, **kwargs: Any) -> Any:
            calls.append(dict(kwargs))
            if adjust is not None:
                adjust(kwargs)
            return real(position, **kwargs)

        monkeypatch.setattr(deal, "search_deal", counting)
        return calls

    return start
