"""The Textual app: the game's state, the commands and the store.

Data flows one way: a key or a click goes to the
:class:`~lucie.tui.controller.TableController`, which asks the engine and
plays through it (one undoable step per move); its
:class:`~lucie.tui.controller.Reply` sets the app's reactive state (the
``board`` to draw and the ``notice`` in the status line), whose watchers
redraw the :class:`~lucie.tui.table.TableScreen`; the store saves the move
list after every change.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable
from typing import ClassVar, NamedTuple

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen

from lucie.engine import Game, Move, Position
from lucie.errors import LucieError
from lucie.rules import VARIANTS, Rules
from lucie.store import Store, StoreError, open_game
from lucie.tui.controller import Board, Reply, Selection, TableController, count
from lucie.tui.review import HistoryScreen, ReviewScreen
from lucie.tui.screens import (
    KEYS_HELP,
    ConfirmScreen,
    EndScreen,
    NewGame,
    NewGameScreen,
    TextScreen,
    VariantScreen,
    rules_help,
)
from lucie.tui.table import TableScreen, duration, glyphs
from lucie.tui.widgets import CellsView, FanView, FoundationsView

__all__ = ["LucieApp", "Notice"]


class Notice(NamedTuple):
    """The status line: its text and how it is shown (``error``, ``hint`` ...)."""

    text: str
    kind: str = ""


def difficulty_text(rated: object) -> str:
    """A deal's difficulty in words, for the end of the game."""
    difficulty = getattr(rated, "difficulty", None)
    clearable = getattr(rated, "clearable", None)
    value = getattr(rated, "value", None)
    if difficulty is None and clearable is None:
        return "This deal's difficulty could not be settled in time."
    words = f"This deal is {difficulty}" if difficulty else "This deal"
    if clearable:
        words += ("," if difficulty else "") + " clearable without a redeal"
    elif clearable is False:
        words += ("," if difficulty else "") + " not clearable without a redeal"
    if value is not None and getattr(value, "chance", None) is not None:
        words += f" (winning chance {value})"
    return words + "."


def daily_results(store: Store, player: str, rules: Rules) -> list[str]:
    """The player's finished games of the deals of the day of ``rules``,
    newest first, as Markdown list lines: a game counts when its deal is
    the deal of the day of the date (UTC) it was started."""
    from lucie.daily import daily_date

    lines: list[str] = []
    for record in store.history(player, rules, finished_only=True):
        day = daily_date(rules, record.deal, record.started)
        if day is not None:
            result = "won" if record.status == "won" else record.status
            lines.append(f"- {day.isoformat()}: deal {record.deal}, {result}, score "
                         f"{record.score}/52 in {count(record.moves, 'move')}, "
                         f"{duration(record.seconds)}")
    return lines


class LucieApp(App[int]):
    """La Belle Lucie in the terminal.

    ``store`` and ``player``: where games are saved and whose they are.
    ``rules`` and ``deal``: what to play (None: resume the unfinished game,
    else a random deal of classic).  ``clock=False`` hides the running time
    (for snapshots); ``autoplay`` sends safe cards home after each move.
    """

    CSS_PATH = "lucie.tcss"
    TITLE = "lucie"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", priority=True),
    ]

    #: what the table shows; its watcher draws it
    board: reactive[Board | None] = reactive(None, init=False)
    #: the status line; its watcher draws it
    notice: reactive[Notice] = reactive(Notice(""), init=False)

    def __init__(
        self,
        store: Store,
        player: str,
        rules: Rules | None = None,
        deal: int | None = None,
        *,
        clock: bool = True,
        autoplay: bool = False,
    ) -> None:
        super().__init__()
        self.store = store
        self.player = player
        self.clock = clock
        opened = open_game(store, player, rules, deal)
        self.game_id = opened.game_id
        self.controller = TableController(opened.game, autoplay=autoplay)
        self.resumed = opened.resumed
        self._base_seconds = opened.seconds
        self._t0 = time.monotonic()
        #: the time played, frozen at the end of the game (None: running)
        self._stopped: float | None = None
        self.finished_recorded = False
        self._end_shown = False

    # -- state -------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.controller.game

    @game.setter
    def game(self, game: Game) -> None:
        self.controller.reset(game)
        self.refresh_board()

    @property
    def selection(self) -> Selection | None:
        return self.controller.selection

    @property
    def hint_move(self) -> Move | None:
        return self.controller.hint_move

    @property
    def auto(self) -> bool:
        return self.controller.auto

    @property
    def message(self) -> str:
        """The status line's text, card codes shown as glyphs."""
        return glyphs(self.notice.text)

    @property
    def message_kind(self) -> str:
        return self.notice.kind

    def say(self, text: str, kind: str = "") -> None:
        """Show a message in the status line (``error`` for refusals)."""
        self.notice = Notice(text, kind)

    def refresh_board(self) -> None:
        self.board = self.controller.board()

    @property
    def table(self) -> TableScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    # -- watchers --------------------------------------------------------------

    def watch_board(self, board: Board | None) -> None:
        table = self.table
        if table is not None and board is not None:
            table.draw(board)
            self._draw_header()

    def watch_notice(self, notice: Notice) -> None:
        table = self.table
        if table is not None:
            table.draw_status(notice.text, notice.kind)

    def _draw_header(self) -> None:
        table = self.table
        if table is not None:
            table.draw_header(self.game, self.seconds() if self.clock else None, self.auto)

    # -- set-up --------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(TableScreen(self))
        self.call_after_refresh(self._first_draw)
        if self.clock:
            self.set_interval(1.0, self._tick)

    def _first_draw(self) -> None:
        self.refresh_board()
        if self.resumed:
            self.say(
                f"Welcome back: your game of deal {self.game.deal} resumes where you left it. "
                "? for keys.", "info",
            )
        else:
            self.say("Pick a card: press its fan letter or click it.  ? shows every key.",
                     "info")
        self.check_end()

    def arrange(self, width: int, height: int, force: bool = False) -> None:
        """Lay the table out again for a terminal of ``width`` x ``height``."""
        self.refresh_board()
        table = self.table
        if table is not None:
            table.lay_out(width, height, force)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Play a random deal or a deal by number",
                            self.action_new_game)
        yield SystemCommand("Variant", "Choose the variant (starts a new game)",
                            self.action_variant)
        yield SystemCommand("Undo", "Take back the last move (u)", self.action_undo)
        yield SystemCommand("Redo", "Play the undone move again (y)", self.action_redo)
        rules = self.game.rules
        if rules.redeals:
            yield SystemCommand("Redeal", "Gather, shuffle and deal again (s)",
                                self.action_redeal)
        if rules.merci:
            yield SystemCommand("Merci", "Lift a buried card onto a fan, once (w)",
                                self.action_merci)
        yield SystemCommand("Send safe cards home", "Every card that can safely go home (x)",
                            self.action_autoplay)
        yield SystemCommand("Restart", "Back to the start of this deal", self.action_restart)
        yield SystemCommand("Resign", "Give up this game (it counts as lost; F8)",
                            self.action_resign)
        yield SystemCommand("Hint", "What to play next", self.action_hint)
        yield SystemCommand("Autoplay on/off", "Send safe cards home after each move",
                            self.action_toggle_autoplay)
        yield SystemCommand("Statistics", "Your results in this variant", self.action_stats)
        yield SystemCommand("History", "Your recent games, to review one (F7)",
                            self.action_history)
        yield SystemCommand("Review this game", "Every move judged by the solver",
                            self.action_review)
        yield SystemCommand("Rules and keys", "How to play", self.action_help)

    # -- time ------------------------------------------------------------------

    def seconds(self) -> float:
        """Time played on this game; it stops at the end of the game."""
        if self._stopped is not None:
            return self._stopped
        return self._base_seconds + time.monotonic() - self._t0

    def _stop_clock(self) -> None:
        if self._stopped is None:
            self._stopped = self.seconds()

    def _run_clock(self) -> None:
        """The game is in play again (taken back after its end)."""
        if self._stopped is not None:
            self._base_seconds = self._stopped
            self._t0 = time.monotonic()
            self._stopped = None

    def _tick(self) -> None:
        if not self.game.outcome.finished:
            self._draw_header()

    # -- input -------------------------------------------------------------------

    def respond(self, reply: Reply | None) -> bool:
        """Act on the controller's reply: ask, show, save, redraw, and end
        the game when it is over.  False when the input was not the table's."""
        if reply is None:
            return False
        if reply.confirm is not None:
            pending = reply.pending
            assert pending is not None

            def answered(yes: bool | None) -> None:
                if yes:
                    self.respond(self.controller.play(pending))
                else:
                    self.say("No redeal." if pending.is_redeal else "Not played.")

            self.push_screen(ConfirmScreen(glyphs(reply.confirm), yes="Redeal"), answered)
            return True
        if reply.text is not None:
            self.say(reply.text, reply.kind)
        if reply.changed:
            if not self.game.outcome.finished:
                self._run_clock()
            if self.finished_recorded and not self.game.outcome.finished:
                self._reopen()
            self.save()
        self.refresh_board()
        if reply.step is not None or reply.resigned:
            self.check_end()
        if reply.changed and not self.game.outcome.finished and self.controller.hopeless():
            self.say("No useful move is left (only taking cards back from home): "
                     "F8 resigns.", "hint")
        self.bindings_changed()
        return True

    def bindings_changed(self) -> None:
        """The footer follows the variant (no "Redeal" where there is none)."""
        with contextlib.suppress(Exception):
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        rules = self.game.rules
        return not ((action == "redeal" and not rules.redeals)
                    or (action == "merci" and not rules.merci))

    def table_key(self, key: str, character: str | None) -> bool:
        return self.respond(self.controller.key(key, character))

    def table_click(self) -> None:
        self.respond(self.controller.drop(""))

    def on_fan_view_clicked(self, event: FanView.Clicked) -> None:
        self.respond(self.controller.fan_clicked(event.fan, event.card, event.chain))

    def on_foundations_view_clicked(self, event: FoundationsView.Clicked) -> None:
        self.respond(self.controller.foundation_clicked(event.suit))

    def on_cells_view_clicked(self, event: CellsView.Clicked) -> None:
        if event.cell is not None:
            self.respond(self.controller.cell_key(event.cell, clicked=True, chain=event.chain))

    # -- commands --------------------------------------------------------------

    def action_undo(self) -> None:
        self.respond(self.controller.undo())

    def action_redo(self) -> None:
        self.respond(self.controller.redo())

    def action_redeal(self) -> None:
        self.respond(self.controller.redeal())

    def action_merci(self) -> None:
        self.respond(self.controller.merci())

    def action_autoplay(self) -> None:
        self.respond(self.controller.send_home())

    def action_toggle_autoplay(self) -> None:
        self.respond(self.controller.toggle_autoplay())

    def action_hint(self) -> None:
        try:
            from lucie.solver.hints import hint  # noqa: F401
        except ImportError:
            self.say("Hints need lucie's solver, which is not installed here.", "error")
            return
        self.say("Thinking…", "hint")
        self._hint_worker(self.game.position)

    @work(thread=True, exclusive=True, group="hint")
    def _hint_worker(self, position: Position) -> None:
        from lucie.solver.hints import hint

        try:
            result = hint(position)
        except LucieError as exc:
            self.call_from_thread(self.say, f"No hint: {exc}", "error")
            return
        move = getattr(result, "move", None)
        text = str(getattr(result, "text", "") or "")
        lost = (getattr(result, "clears", None) is False and position.redeals_left == 0
                and not position.merci_available)
        if lost:
            text = (text.rstrip(".") + ".  This deal can no longer be won: F8 resigns.")
        self.call_from_thread(
            lambda: self.respond(self.controller.show_hint(
                position, move if isinstance(move, Move) else None, text,
            )),
        )

    def action_resign(self) -> None:
        if self.game.outcome.finished:
            self.say("The game is over already.", "error")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.respond(self.controller.resign())

        self.push_screen(ConfirmScreen("Resign this game? It counts as lost "
                                       "(u takes it back).", yes="Resign"), done)

    def action_restart(self) -> None:
        if not self.game.moves:
            self.say("This is the start of the deal already.")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.respond(self.controller.restart())

        self.push_screen(ConfirmScreen("Restart this deal from the beginning?",
                                       yes="Restart"), done)

    def action_new_game(self) -> None:
        def chosen(choice: NewGame | None) -> None:
            if choice is None:
                return
            self._leave(lambda: self.start_chosen(self.game.rules, choice))

        self.push_screen(NewGameScreen(self.game.rules.name()), chosen)

    def start_chosen(self, rules: Rules, choice: NewGame) -> None:
        """Start what the new-game dialog chose; a deal of a difficulty is
        searched in a worker thread (the table stays usable meanwhile)."""
        if choice.daily:
            from lucie.daily import daily_deal, today

            self.start_new(rules, daily_deal(rules))
            self.say(f"The deal of the day ({today().isoformat()}, UTC): deal "
                     f"{self.game.deal} of {rules.name()}, the same for everyone.", "info")
        elif choice.difficulty is not None:
            self.say(f"Looking for a {choice.difficulty} deal of {rules.name()}… "
                     "(up to 30 s)", "info")
            self._pick_worker(rules, choice.difficulty)
        else:
            self.start_new(rules, choice.deal)

    @work(thread=True, exclusive=True, group="pick")
    def _pick_worker(self, rules: Rules, difficulty: str) -> None:
        from lucie.solver.difficulty import pick_deal

        try:
            pick = pick_deal(rules, difficulty)  # type: ignore[arg-type]
        except LucieError as exc:
            self.call_from_thread(self.say, f"No deal found: {exc}", "error")
            return

        def start() -> None:
            self.start_new(rules, pick.deal)
            self.say(f"New game: a {difficulty} deal of {rules.name()}, deal {pick.deal}.",
                     "info")

        self.call_from_thread(start)

    def action_variant(self) -> None:
        def chosen(name: str | None) -> None:
            if name is None or name not in VARIANTS:
                return
            self._leave(lambda: self.start_new(VARIANTS[name].rules, None))

        self.push_screen(VariantScreen(self.game.rules), chosen)

    def action_history(self) -> None:
        def chosen(game_id: int | None) -> None:
            if game_id is None:
                return
            try:
                game = self.game.copy() if game_id == self.game_id else self.store.game(game_id)
            except (StoreError, LucieError) as exc:
                self.say(f"Could not open game {game_id}: {exc}", "error")
                return
            self.push_screen(ReviewScreen(game))

        self.push_screen(HistoryScreen(self.store.history(self.player, limit=100)), chosen)

    def action_review(self) -> None:
        self.push_screen(ReviewScreen(self.game.copy()))

    def action_help(self) -> None:
        self.push_screen(TextScreen(rules_help(self.game.rules) + "\n\n" + KEYS_HELP))

    def action_stats(self) -> None:
        rules = self.game.rules
        s = self.store.stats(self.player, rules)
        text = [f"## {self.player}: {rules.name()}", ""]
        if not s.games:
            text.append("No finished game yet in this variant.")
        else:
            text += [
                f"- {count(s.games, 'game')}, {s.wins} won ({100 * s.win_rate:.1f}%)",
                f"- average score {s.average_score:.1f}/52, best {s.best_score}",
                f"- current streak {s.current_streak}, best streak {s.best_streak}",
                f"- time played {duration(s.total_seconds)}",
            ]
            for series in s.series:
                text.append(
                    f"- series {series.number}: {count(series.games, 'game')}, {series.wins} won, "
                    f"average {series.average_score:.1f}"
                )
        text += ["", "## Deals of the day", ""]
        daily = daily_results(self.store, self.player, rules)
        text += daily or ["None played yet: F2, then \"Deal of the day\"."]
        self.push_screen(TextScreen("\n".join(text)))

    # -- the store and the end of a game ---------------------------------------

    def save(self) -> None:
        try:
            self.store.record_move(self.game_id, self.game, self.seconds())
        except StoreError as exc:
            self.say(f"Could not save: {exc}", "error")

    def _reopen(self) -> None:
        """A finished game was taken back: it is in play again in the store."""
        if not self.finished_recorded:
            return
        try:
            self.store.reopen(self.game_id)
        except StoreError as exc:
            self.say(f"Could not save: {exc}", "error")
        self.finished_recorded = False

    def check_end(self) -> None:
        game = self.game
        outcome = game.outcome
        if not outcome.finished or self._end_shown:
            return
        self._stop_clock()
        seconds = self.seconds()
        try:
            self.store.finish_game(self.game_id, game, seconds)
            self.finished_recorded = True
        except StoreError as exc:
            self.say(f"Could not save the result: {exc}", "error")
        stats = self.store.stats(self.player, game.rules)
        summary = (
            f"{game.rules.name()}, deal {game.deal}\n"
            f"Score {outcome.score}/52 in {count(len(game.moves), 'move')}, {duration(seconds)}."
        )
        stats_text = (
            f"{self.player}: {count(stats.games, 'game')}, "
            f"{stats.wins} won "
            f"({100 * stats.win_rate:.0f}%), average score {stats.average_score:.1f}\n"
            f"streak {stats.current_streak}, best streak {stats.best_streak}"
        )
        self._end_shown = True
        title = {"won": "You won!", "resigned": "Resigned"}.get(outcome.status, "No move left")
        self.push_screen(EndScreen(outcome.status == "won", summary, stats_text, title),
                         self._after_end)
        if game.deal is not None:
            self._difficulty_worker(game.rules, game.deal)

    @work(thread=True, exclusive=True, group="difficulty")
    def _difficulty_worker(self, rules: Rules, deal: int) -> None:
        """The deal's difficulty, told once the game is over (never before)."""
        try:
            from lucie.solver.difficulty import deal_difficulty

            rated = deal_difficulty(rules, deal, max_seconds=10.0)
        except (ImportError, LucieError):
            return
        self.call_from_thread(self._show_difficulty, difficulty_text(rated))

    def _show_difficulty(self, text: str) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, EndScreen):
                screen.show_difficulty(text)

    def _after_end(self, choice: str | None) -> None:
        self._end_shown = False
        game = self.game
        if choice == "undo":
            self.action_undo()
        elif choice == "review":
            self.push_screen(ReviewScreen(self.game.copy()))
        elif choice == "same":
            self.start_new(game.rules, game.deal)
        elif choice == "next":
            self.start_new(game.rules, (game.deal or 0) + 1 if game.deal is not None else None)
        else:
            self.say("The game is over: u undoes, F2 starts a new game, v another variant.")

    def _leave(self, then: Callable[[], None]) -> None:
        """Ask before abandoning a game in progress, then call ``then``."""
        game = self.game
        if game.moves and not game.outcome.finished:
            def done(yes: bool | None) -> None:
                if yes:
                    then()
            self.push_screen(
                ConfirmScreen("Leave this game? It counts as lost in your statistics.",
                              yes="Leave it"), done,
            )
        else:
            then()

    def start_new(self, rules: Rules, deal: int | None) -> None:
        """Leave the current game (counted as resigned if it was played and
        is not finished; dropped if no move was made) and start another."""
        old = self.game
        if not old.outcome.finished:
            try:
                if old.moves:
                    self.store.finish_game(self.game_id, old, self.seconds(), "resigned")
                else:
                    self.store.discard(self.game_id)
            except StoreError as exc:
                self.say(f"Could not save: {exc}", "error")
        self._release()
        game = Game(rules, deal)
        self.game_id = self.store.start_game(game, self.player)
        try:
            self.store.claim(self.game_id)
        except StoreError as exc:
            self.say(f"Could not save: {exc}", "error")
        self._base_seconds = 0.0
        self._t0 = time.monotonic()
        self._stopped = None
        self.finished_recorded = False
        self.game = game
        self.bindings_changed()
        self.say(f"New game: {rules.name()}, deal {game.deal}.", "info")

    def _release(self) -> None:
        # on failure the claim lapses by itself when this program ends
        with contextlib.suppress(StoreError):
            self.store.release(self.game_id)

    async def action_quit(self) -> None:
        self.save()
        self._release()
        self.exit(0)

    def on_unmount(self) -> None:
        self._release()
