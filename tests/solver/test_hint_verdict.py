"""A hint never hides a verdict (issue 28): with redeals to come, when the
budget cuts the frontier search short, the hint still settles whether the
deal can be cleared without a redeal.  The budget is a memory cap (positions
held), so the same search is cut on every machine: under 3,000 positions,
Super Flower Garden deal 7's frontier search is cut while its verdict proves
it lost at the first position."""

from __future__ import annotations

import pytest

from lucie.analysis import hints
from lucie.engine import Position
from lucie.rules import Rules
from lucie.solver import search_deal


def test_a_cut_frontier_search_still_gives_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    position = Position.deal(Rules.parse("flower"), 7)
    assert position.redeals_left > 0
    assert search_deal(position, frontier=True, max_positions=3000).status == "unknown"
    monkeypatch.setattr(hints, "PLAYER_MAX_POSITIONS", 3000)
    hints._LINES.clear()
    advice = hints.hint(position, max_seconds=4.0)
    assert advice.clears is False
