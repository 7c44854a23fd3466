"""The game review in the terminal, and the history of games to review.

:class:`ReviewScreen` runs :func:`lucie.analysis.review.review_game` in a
worker thread (a progress bar; Esc cancels), then lists each move with its
label, the winning chance before and after, the better move and its
explanation, the mistakes highlighted, a sparkline of the winning chance
per move, and the position before the move under the cursor.
:class:`HistoryScreen` lists the player's recent games; Enter reviews one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, OptionList, ProgressBar, Static
from textual.widgets.option_list import Option

from lucie.cards import Card, card_label
from lucie.engine import FAN_NAMES, Game, Move, Position, status_name
from lucie.errors import LucieError
from lucie.i18n import N_, _, format_percent, ngettext, pgettext
from lucie.session import GameRecord
from lucie.text import move_label
from lucie.tui.controller import moves_count
from lucie.tui.table import duration, glyphs

if TYPE_CHECKING:
    from lucie.analysis.review import MoveReview, Review

#: Bars of the sparkline, lowest to highest.
BARS: Final = "▁▂▃▄▅▆▇█"
#: How each label is shown in the list.
LABEL_STYLES: Final = {
    "best": "green",
    "good": "",
    "inaccuracy": "yellow",
    "mistake": "bold #ff8700",
    "blunder": "bold white on #af0000",
}
#: The budget of a review started from the terminal (seconds).
REVIEW_SECONDS: Final = 60.0


def sparkline(values: Sequence[float | None]) -> str:
    """One bar a value in [0, 1] (``·`` for an unknown one).

    >>> sparkline([0.0, 0.5, 1.0, None])
    '▁▅█·'
    """
    out = []
    for v in values:
        if v is None:
            out.append("·")
        else:
            out.append(BARS[min(len(BARS) - 1, int(v * (len(BARS) - 1) + 0.5))])
    return "".join(out)


def chances(review: Review) -> list[float | None]:
    """The winning chance after each move (the start first)."""
    return [review.start_value.chance] + [m.value_after.chance for m in review.moves]


def position_text(position: Position, played: Move | None, better: Move | None,
                  columns: int = 3) -> Text:
    """A position in a few lines: the foundations, the cells, the fans in
    ``columns`` columns (the fan the played move takes from marked ``>``,
    the better move's ``*``), red suits in red."""
    out = Text()
    homes = [position.foundation_top(s) for s in range(4)]
    out.append(pgettext("the foundations", "home") + " ", style="bold")
    _cards(out, homes, "  ")
    if position.cells:
        out.append("   " + pgettext("the free cells", "cells") + " ", style="bold")
        _cards(out, position.cells, "  ")
    out.append("   " + _("redeals left {n}").format(n=position.redeals_left) + "\n")
    fans = position.fans
    for start in range(0, len(fans), columns):
        for i in range(start, min(start + columns, len(fans))):
            mark = ""
            if played is not None and played.src_kind == "fan" and played.src == i:
                mark += ">"
            if better is not None and better.src_kind == "fan" and better.src == i:
                mark += "*"
            style = "bold yellow" if ">" in mark else ("bold cyan" if mark else "")
            cell = Text(f"{FAN_NAMES[i]}{mark:<2} ", style=style)
            if fans[i]:
                _cards(cell, fans[i], " ")
            else:
                cell.append(_("(empty)"), style="dim")
            cell.pad_right(max(0, FAN_COLUMN - cell.cell_len))
            out.append_text(cell)
        out.append("\n")
    return out


#: Columns of a fan in :func:`position_text`.
FAN_COLUMN: Final = 26
#: Red suits in the small board (the table's red, readable on a dark dialog).
_RED_SUIT: Final = "#ff6b6b"


def _cards(out: Text, cards: Sequence[Card | None], sep: str) -> None:
    """Append ``cards`` (``·`` for none) to ``out``, red suits in red."""
    for k, card in enumerate(cards):
        if k:
            out.append(sep)
        if card is None:
            out.append("·", style="dim")
        else:
            out.append(card_label(card), style=_RED_SUIT if card.is_red else "")


class ReviewScreen(ModalScreen[None]):
    """The review of one game (see the module doc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Cancel / back")),
        Binding("q", "close", N_("Back"), show=False),
    ]

    class StopReviewError(Exception):
        """Raised from the progress callback to stop a review."""

    def __init__(self, game: Game, *, max_seconds: float = REVIEW_SECONDS) -> None:
        super().__init__()
        self.game = game
        self.max_seconds = max_seconds
        self.review: Review | None = None
        self.cancelled = False

    def compose(self) -> ComposeResult:
        game = self.game
        with Vertical(classes="dialog review"):
            n = len(game.moves)
            yield Static(ngettext("Review: {variant}, deal {deal}, {n} move",
                                  "Review: {variant}, deal {deal}, {n} moves", n).format(
                variant=game.rules.name(), deal=game.deal, n=n), classes="title")
            yield Static(_("Reviewing every move with the solver…  Esc cancels."),
                         id="review-status")
            yield ProgressBar(total=max(1, 2 * len(game.moves)), show_eta=False,
                              id="review-progress")
            yield Static("", id="review-summary")
            yield Static("", id="sparkline")
            table: DataTable[str | Text] = DataTable(id="review-moves", cursor_type="row",
                                                     zebra_stripes=True)
            yield table
            yield Static("", id="review-position")
            yield Static(_("↑↓: a move and its position   Esc: back"), classes="hint")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("#", _("move"), _("label"), _("before"), _("after"), _("better"))
        table.display = False
        if not self.game.moves:
            self.query_one("#review-status", Static).update(_("No move to review."))
            self.query_one(ProgressBar).display = False
            return
        self._review_worker(self.game.copy())

    @work(thread=True, exclusive=True, group="review")
    def _review_worker(self, game: Game) -> None:
        from lucie.analysis.review import review_game

        def progress(done: int, total: int) -> None:
            if self.cancelled:
                raise ReviewScreen.StopReviewError
            self.app.call_from_thread(self._progress, done, total)

        try:
            review = review_game(game, max_seconds=self.max_seconds, progress=progress)
        except ReviewScreen.StopReviewError:
            return
        except LucieError as exc:
            self.app.call_from_thread(self._failed,
                                      _("The review failed: {error}").format(error=exc))
            return
        if not self.cancelled:
            self.app.call_from_thread(self.show_review, review)

    def _progress(self, done: int, total: int) -> None:
        if self.is_attached:
            self.query_one(ProgressBar).update(total=total, progress=done)

    def _failed(self, text: str) -> None:
        if self.is_attached:
            self.query_one("#review-status", Static).update(text)

    def show_review(self, review: Review) -> None:
        """Fill the screen with a finished review."""
        self.review = review
        self.query_one(ProgressBar).display = False
        status = _("Reviewed in {time}.").format(time=duration(review.seconds))
        if review.budget_ran_out:
            status += "  " + _("(the time budget ran out: some values are unknown)")
        self.query_one("#review-status", Static).update(status)
        accuracy = review.accuracy
        positions = self.game.positions
        costly = ", ".join(f"{m.index}. {move_label(positions[m.index - 1], m.move)}"
                           for m in review.costliest()
                           if m.loss) or _("none")
        summary = [
            _("Winning chance at the start {chance}").format(chance=review.start_value),
            ngettext("{n} mistake", "{n} mistakes", review.mistakes).format(n=review.mistakes),
        ]
        if accuracy is not None:
            summary.append(_("accuracy {accuracy}").format(
                accuracy=format_percent(accuracy / 100)))
        summary.append(_("costliest moves: {moves}").format(moves=costly))
        separator = pgettext("list separator", "; ")
        self.query_one("#review-summary", Static).update(separator.join(summary)
                                                         + review.unjudged_text())
        self.query_one("#sparkline", Static).update(
            _("chance {bars}  (start to end, one bar a move)").format(
                bars=sparkline(chances(review))))
        table = self.query_one(DataTable)
        table.display = True
        for m in review.moves:
            table.add_row(*self.row(m), key=str(m.index))
        table.focus()
        if review.moves:
            self.show_position(0)

    def row(self, m: MoveReview) -> tuple[str | Text, ...]:
        style = LABEL_STYLES.get(m.label or "", "")
        # only a move that lost something has a better one (never a best move)
        position = self.game.positions[m.index - 1]
        better = "" if m.better_move is None else move_label(position, m.better_move)
        return (
            str(m.index), move_label(position, m.move), Text(m.label_text or "?", style=style),
            str(m.value_before), str(m.value_after), better,
        )

    def show_position(self, row: int) -> None:
        """Show the position before move ``row`` (0-based), the move and the better one."""
        review = self.review
        if review is None or not 0 <= row < len(review.moves):
            return
        m = review.moves[row]
        position = self.game.positions[m.index - 1]
        text = Text(_("Before move {n}: {move} ({label})").format(
            n=m.index, move=glyphs(position.describe(m.move)), label=m.label_text or "?")
            + "\n", style="bold")
        better = ""
        if m.better_move is not None:
            better = glyphs(position.describe(m.better_move))
            text.append(_("Better: {move}").format(move=better) + "\n", style="cyan")
        elif m.best_move is not None and m.best_move != m.move:
            # as good as the move played (never "better" beside a best move)
            better = glyphs(position.describe(m.best_move))
            text.append(_("The solver's move: {move}").format(move=better) + "\n",
                        style="cyan")
        why = glyphs(m.text)
        if why and why != better:
            text.append(why + "\n", style="italic")
        columns = max(3, min(6, (self.size.width - 4) // FAN_COLUMN))
        text.append_text(position_text(position, m.move, m.best_move, columns))
        text.rstrip()
        self.query_one("#review-position", Static).update(text)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.show_position(event.cursor_row)

    def action_close(self) -> None:
        self.cancelled = True
        self.dismiss(None)


class HistoryScreen(ModalScreen[int | None]):
    """The player's recent games; Enter reviews one (dismisses with its id)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Back"))]

    def __init__(self, records: Sequence[GameRecord]) -> None:
        super().__init__()
        self.records = list(records)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Static(_("Your recent games (Enter: review it)"), classes="title")
            if self.records:
                yield OptionList(
                    *[Option(history_line(r), id=str(r.id)) for r in self.records],
                    id="history",
                )
            else:
                yield Static(_("No game yet."))
            yield Static(_("Enter: review   Esc: back to the game"), classes="hint")

    def on_mount(self) -> None:
        if self.records:
            self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)


def history_line(r: GameRecord) -> str:
    """One game of the history: when, what, how it ended."""
    return _("{date}  {variant}, deal {deal}: {result}, {score}/52 in {moves}, {time}").format(
        date=r.started[:16].replace("T", " "), variant=r.variant_name, deal=r.deal,
        result=status_name(r.status), score=r.score, moves=moves_count(r.moves),
        time=duration(r.seconds))



__all__ = ["HistoryScreen", "ReviewScreen", "chances", "position_text", "sparkline"]
