"""Snapshots of the table (pytest-textual-snapshot): 80x24 and 160x50, for
classic, Trefoil and the reserve variant.  Deterministic: fixed deal
numbers, no clock, a fresh store.  After a deliberate change of the look,
review the new pictures and accept them with ``--snapshot-update``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from lucie.engine import FAN_NAMES
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp

SIZES = [(80, 24), (160, 50)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("variant", ["classic", "trefoil", "reserve"])
def test_table(
    snap_compare: Callable[..., bool], tmp_path: Path, variant: str, size: tuple[int, int],
) -> None:
    store = Store(tmp_path / "snap.sqlite3")
    app = LucieApp(store, "snap", Rules.parse(variant), 11, clock=False)
    # pick the first card that can move so its targets are highlighted
    move = next(m for m in app.game.legal_moves if m.src_kind == "fan")
    assert snap_compare(app, press=[FAN_NAMES[move.src]], terminal_size=size)
    store.close()


def test_table_with_a_long_fan_at_80x24(
    snap_compare: Callable[..., bool], tmp_path: Path,
) -> None:
    """A fan longer than a line wraps and every card stays readable."""
    from lucie.cards import DECK
    from lucie.engine import Game
    from lucie.formats import parse_layout

    hearts = [c for c in DECK if c.suit == "H" and c.rank > 1]
    others = [c for c in DECK if c.suit != "H"]
    fans = [" ".join(str(c) for c in reversed(hearts))]  # KH down to 2H
    fans += [" ".join(str(c) for c in others[i:i + 3]) for i in range(0, len(others), 3)]
    position = parse_layout("\n".join(fans), Rules())
    store = Store(tmp_path / "snap.sqlite3")
    app = LucieApp(store, "snap", Rules(), 11, clock=False)

    async def build(pilot: Any) -> None:
        app.game = Game(Rules(), position=position, seed=5)
        app.arrange(80, 24, force=True)
        await pilot.pause()
        await pilot.press("a")

    assert snap_compare(app, run_before=build, terminal_size=(80, 24))
    store.close()
