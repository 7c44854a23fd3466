"""The game review in the terminal: from the end of a game and from the
history, with its progress, its list, its sparkline and the positions."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.widgets import DataTable, OptionList, Static

from lucie.engine import REDEAL, Game, Move
from lucie.rules import Rules
from lucie.store import Store
from lucie.text import move_label
from lucie.tui.app import LucieApp
from lucie.tui.review import HistoryScreen, ReviewScreen, sparkline
from lucie.tui.screens import EndScreen

pytestmark = pytest.mark.anyio


def test_the_sparkline_has_a_bar_a_value() -> None:
    assert sparkline([0.0, 0.25, 0.5, 1.0]) == "▁▃▅█"
    assert sparkline([1.0, None, 0.0]) == "█·▁"


async def review_done(app: LucieApp, pilot: object) -> ReviewScreen:
    screen = app.screen
    assert isinstance(screen, ReviewScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]
    assert screen.review is not None
    return screen


async def test_review_at_the_end_of_a_won_game(
    store: Store, classic_win: tuple[int, list[Move]],
) -> None:
    """A deal cleared in its first deal along a winning line: every move
    keeps the win (no mistake), the chance stays at 100%."""
    deal, line = classic_win
    app = LucieApp(store, "kim", Rules(), deal, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.game.push_all(line[:-1])
        app.respond(app.controller.play(line[-1]))
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("r")
        await pilot.pause()
        screen = await review_done(app, pilot)
        review = screen.review
        assert review is not None and len(review.moves) == len(line)
        assert review.mistakes == 0
        table = screen.query_one(DataTable)
        assert table.row_count == len(line)
        spark = str(screen.query_one("#sparkline", Static).render())
        assert "█" * (len(line) + 1) in spark
        # the cursor on move 3 shows the position before it
        table.move_cursor(row=2)
        await pilot.pause()
        shown = str(screen.query_one("#review-position", Static).render())
        assert "Before move 3" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ReviewScreen)


async def test_a_needless_redeal_is_a_highlighted_mistake_from_the_history(
    store: Store, classic_win: tuple[int, list[Move]],
) -> None:
    """The same deal redealt at once, while it could be cleared: the review
    from the history labels the redeal a mistake and names the better move."""
    deal, _ = classic_win
    old = Game(Rules(), deal)
    old.play(REDEAL, autoplay=False)
    gid = store.start_game(old, "kim")
    store.finish_game(gid, old, 12.0, "resigned")
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        options = app.screen.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        options.highlighted = ids.index(str(gid))
        await pilot.press("enter")
        await pilot.pause()
        screen = await review_done(app, pilot)
        review = screen.review
        assert review is not None
        first = review.moves[0]
        assert first.move == REDEAL and first.label in ("mistake", "blunder")
        assert first.best_move is not None and first.best_move != REDEAL
        row = screen.row(first)
        label = row[2]
        assert isinstance(label, Text) and label.plain == first.label
        assert "#af0000" in str(label.style) or "#ff8700" in str(label.style)  # highlighted
        # the moves in symbols (the notation is for programs)
        cells = [str(c) for c in row]
        assert cells[1] == "redeal" and str(first.best_move) not in cells
        assert move_label(screen.game.positions[0], first.best_move) in cells


async def test_a_review_can_be_cancelled_while_it_runs(store: Store) -> None:
    """Esc while the review runs: the worker stops at its next progress
    report, and nothing is shown."""
    game = Game(Rules(), 5)
    for _ in range(6):
        moves = [m for m in game.legal_moves if not m.is_redeal]
        if not moves:
            break
        game.play(moves[0], autoplay=False)

    class EscAtOnce(ReviewScreen):
        reports = 0

        def _progress(self, done: int, total: int) -> None:
            EscAtOnce.reports += 1
            self.app.simulate_key("escape")  # the player, as soon as it starts

    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = EscAtOnce(game)
        app.push_screen(screen)
        await pilot.pause()  # mounted: its review worker has started
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.cancelled and screen.review is None
        assert not isinstance(app.screen, ReviewScreen)
        assert 1 <= EscAtOnce.reports < 2 * len(game.moves)
