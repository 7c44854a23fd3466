"""A site's clock is the store's (issue 48): the time a shared game is
shown is accrued in its row from the page's pings, whatever process gets
them, driven here by explicit times (no waiting)."""

from __future__ import annotations

import pytest

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import StaleGame, Store, StoredClock, Tick

# -- the store's accrual ---------------------------------------------------


def test_a_ping_adds_the_time_since_the_last_one_capped_by_the_lease(store: Store) -> None:
    gid = store.start_game(Game(Rules(), 3), "ann", shown_at=1000.0)
    assert store.clock_of(gid) == StoredClock(0.0, 1000.0)
    assert store.tick_clock(gid, Tick(1030.0, 90.0, True)) == StoredClock(30.0, 1030.0)
    # a page silent for 170 s: only the lease counts
    assert store.tick_clock(gid, Tick(1200.0, 90.0, True)) == StoredClock(120.0, 1200.0)
    # hidden: the time up to now counts, then nothing
    assert store.tick_clock(gid, Tick(1210.5, 90.0, False)) == StoredClock(130.5, None)
    assert store.tick_clock(gid, Tick(1500.0, 90.0, False)) == StoredClock(130.5, None)
    # shown again: counting starts from now, the hidden time never counts
    assert store.tick_clock(gid, Tick(1600.0, 90.0, True)) == StoredClock(130.5, 1600.0)
    # a process whose clock is behind the last ping's adds nothing
    assert store.tick_clock(gid, Tick(1590.0, 90.0, True)) == StoredClock(130.5, 1590.0)
    assert store.tick_clock(gid, Tick(1590.123, 90.0, True)) == StoredClock(130.62, 1590.123)
    assert store.record(gid).seconds == 130.62
    assert store.record(gid).version == 1  # the clock is no change of the game


def test_a_game_ends_with_its_time_once(store: Store) -> None:
    game = Game(Rules(), 3)
    gid = store.start_game(game, "ann", shown_at=1000.0)
    move = next(m for m in game.position.legal_moves() if not m.is_redeal)
    game.play(move)
    saved = store.record_shared(gid, game, Tick(1010.0, 90.0, True), expect=1)
    assert (saved.version, saved.clock) == (2, StoredClock(10.0, 1010.0))
    game.resign()
    end = store.record_shared(gid, game, Tick(1025.0, 90.0, False), "resigned", expect=2)
    assert (end.version, end.clock) == (3, StoredClock(25.0, None))
    # a second process ending it too is refused: nothing counted twice
    with pytest.raises(StaleGame):
        store.record_shared(gid, game, Tick(1080.0, 90.0, False), "resigned", expect=2)
    # nor does a late ping of its page count after the end
    assert store.tick_clock(gid, Tick(1050.0, 90.0, True)) == StoredClock(25.0, None)
    record = store.record(gid)
    assert (record.status, record.seconds, record.version) == ("resigned", 25.0, 3)


def test_a_missing_game_has_no_clock(store: Store) -> None:
    assert store.tick_clock(12345, Tick(1000.0, 90.0, True)) is None
    assert store.clock_of(12345) is None
