"""The Textual app: the game's state, the commands and the store.

Data flows one way: a key or a click goes to the
:class:`~lucie.tui.controller.TableController`, which asks the engine and
plays through it (one undoable step per move); its
:class:`~lucie.tui.controller.Reply` sets the app's reactive state (the
``board`` to draw and the ``notice`` in the status line), whose watchers
redraw the :class:`~lucie.tui.table.TableScreen`.  The game's life
(recording, results, the clock, the claim) is its
:class:`~lucie.session.Session`'s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from textual import work
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen

from lucie import i18n
from lucie.engine import Game, Move, Position, status_name
from lucie.errors import LucieError
from lucie.i18n import N_, _
from lucie.parsing import printable
from lucie.rules import VARIANTS, Rules
from lucie.session import (
    HINT_DECLINED,
    HINT_QUESTION,
    REVIEW_DECLINED,
    REVIEW_QUESTION,
    NotSavedError,
    Session,
    Store,
    StoreError,
    proved_lost,
    review_asked,
)
from lucie.tui.controller import (
    Board,
    Reply,
    Selection,
    TableController,
    decimal,
    games_count,
    moves_count,
)
from lucie.tui.review import HistoryScreen, ReviewScreen
from lucie.tui.screens import (
    ConfirmScreen,
    EndScreen,
    LanguageScreen,
    NewGame,
    NewGameScreen,
    TextScreen,
    VariantScreen,
    keys_help,
    rules_help,
)
from lucie.tui.settings import Settings
from lucie.tui.table import TableScreen, duration, glyphs
from lucie.tui.widgets import CellsView, FanView, FoundationsView

__all__ = ["LucieApp", "Notice"]

if TYPE_CHECKING:
    from lucie.analysis.difficulty import Rated


class Notice(NamedTuple):
    """The status line: its text and how it is shown (``error``, ``hint`` ...)."""

    text: str
    kind: str = ""


#: Textual's own commands in the command palette, translated where shown.
TEXTUAL_TEXTS: Final = (
    N_("Theme"), N_("Change the current theme"),
    N_("Quit"), N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Minimize"), N_("Minimize the widget and restore to normal size"),
    N_("Maximize"), N_("Maximize the focused widget"),
    N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen"),
)

#: What the new-game dialog says while it looks for a deal of a difficulty,
#: and when it found one.
LOOKING: Final = {
    "clearable": N_("Looking for a clearable deal of {variant}… (up to 30 s)"),
    "easy": N_("Looking for an easy deal of {variant}… (up to 30 s)"),
    "medium": N_("Looking for a medium deal of {variant}… (up to 30 s)"),
    "hard": N_("Looking for a hard deal of {variant}… (up to 30 s)"),
}
FOUND: Final = {
    "clearable": N_("New game: a clearable deal of {variant}, deal {deal}."),
    "easy": N_("New game: an easy deal of {variant}, deal {deal}."),
    "medium": N_("New game: a medium deal of {variant}, deal {deal}."),
    "hard": N_("New game: a hard deal of {variant}, deal {deal}."),
}


def daily_results(store: Store, player: str, rules: Rules) -> list[str]:
    """The player's finished games of the deals of the day of ``rules``,
    newest first, as Markdown list lines: a game counts when its deal is
    the deal of the day of the date (UTC) it was started."""
    from lucie.daily import daily_date

    lines: list[str] = []
    for record in store.history(player, rules, finished_only=True):
        day = daily_date(rules, record.deal, record.started)
        if day is not None:
            lines.append("- " + _("{date}: deal {deal}, {result}, score {score}/52 in {moves}, "
                                  "{time}").format(
                date=day.isoformat(), deal=record.deal, result=status_name(record.status),
                score=record.score, moves=moves_count(record.moves),
                time=duration(record.seconds)))
    return lines


class LucieApp(App[int]):
    """La Belle Lucie in the terminal.

    ``store`` and ``player``: where games are saved and whose they are.
    ``rules`` and ``deal``: what to play (None: resume the unfinished game,
    else a random deal of classic).  ``clock=False`` hides the running time
    (for snapshots); ``autoplay`` sends safe cards home after each move.

    ``language``: the language the command line asks for (``--lang``): it
    wins over the one the player chose in the game earlier, which wins over
    the language in use (the user's locale, set by the command line).
    ``settings``: the file where that choice is remembered (None: it is not
    remembered, as in tests).
    """

    CSS_PATH = "lucie.tcss"
    TITLE = "lucie"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
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
        language: str | None = None,
        settings: Path | None = None,
    ) -> None:
        super().__init__()
        self.speak(language, settings)
        self.store = store
        self.player = player
        self.begin(Session.open(store, player, rules, deal), clock=clock, autoplay=autoplay)

    def speak(self, language: str | None, settings: Path | None) -> None:
        """Read the settings file; speak ``language``, else the one chosen
        in the game earlier (see the class doc)."""
        self.settings = Settings(settings)
        chosen = language or self.settings.language()
        if chosen is not None:
            i18n.set_language(chosen)

    def begin(self, session: Session, *, clock: bool, autoplay: bool) -> None:
        """Play ``session``'s game (``clock``, ``autoplay``: see the class doc)."""
        self.clock = clock
        #: the game's life: recording, results, the clock, the claim
        self.session = session
        self.controller = TableController(self.session, autoplay=autoplay)
        self.resumed = self.session.resumed
        self._end_shown = False

    # -- state -------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @game.setter
    def game(self, game: Game) -> None:
        """Show ``game`` from now on, not recorded (tests and snapshots)."""
        self.session.close()
        self.session = Session.unrecorded(game)
        self.controller.session = self.session
        self.controller.reset()
        self.refresh_board()

    @property
    def game_id(self) -> int | None:
        """The game's id in the store."""
        return self.session.game_id

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
        self.session.show()
        self.push_screen(TableScreen(self))
        self.call_after_refresh(self._first_draw)
        if self.clock:
            self.set_interval(1.0, self._tick)

    def _first_draw(self) -> None:
        self.refresh_board()
        if self.resumed:
            self.say(
                _("Welcome back: your game of deal {deal} resumes where you left it. "
                  "? for keys.").format(deal=self.game.deal), "info",
            )
        else:
            self.say(_("Pick a card: press its fan letter or click it.  ? shows every key."),
                     "info")
        if self.settings.problem:
            self.say(self.settings.problem, "error")
        self.check_end()

    def arrange(self, width: int, height: int, force: bool = False) -> None:
        """Lay the table out again for a terminal of ``width`` x ``height``."""
        self.refresh_board()
        table = self.table
        if table is not None:
            table.lay_out(width, height, force)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if command.callback in (self.action_show_help_panel, self.action_hide_help_panel):
                # lucie's own keys page instead of Textual's key panel
                yield SystemCommand(_("Keys"), _("The keys of the game (Esc closes the page)"),
                                    self.action_show_help_panel)
                continue
            # Textual's own commands, in the language in use where we have them
            yield command._replace(title=_(command.title), help=_(command.help))
        yield SystemCommand(_("New game"), _("Play a random deal or a deal by number"),
                            self.action_new_game)
        yield SystemCommand(_("Variant"), _("Choose the variant (starts a new game)"),
                            self.action_variant)
        yield SystemCommand(_("Undo"), _("Take back the last move (u)"), self.action_undo)
        yield SystemCommand(_("Redo"), _("Play the undone move again (y)"), self.action_redo)
        rules = self.game.rules
        if rules.redeals:
            yield SystemCommand(_("Redeal"), _("Gather, shuffle and deal again (s)"),
                                self.action_redeal)
        if rules.merci:
            yield SystemCommand(_("Merci"), _("Lift a buried card onto a fan, once (w)"),
                                self.action_merci)
        yield SystemCommand(_("Send safe cards home"),
                            _("Every card that can safely go home (x)"),
                            self.action_autoplay)
        yield SystemCommand(_("Restart"), _("Back to the start of this deal"),
                            self.action_restart)
        yield SystemCommand(_("Resign"), _("Give up this game (it counts as lost; F8)"),
                            self.action_resign)
        yield SystemCommand(_("Hint"), _("What to play next"), self.action_hint)
        yield SystemCommand(_("Autoplay on/off"), _("Send safe cards home after each move"),
                            self.action_toggle_autoplay)
        yield SystemCommand(_("Statistics"), _("Your results in this variant"),
                            self.action_stats)
        yield SystemCommand(_("History"), _("Your recent games, to review one (F7)"),
                            self.action_history)
        yield SystemCommand(_("Review this game"), _("Every move judged by the solver"),
                            self.action_review)
        yield SystemCommand(_("Rules and keys"), _("How to play"), self.action_help)
        # in every language, so a player lost in another one finds it (F9)
        yield SystemCommand(
            "Language · Langue · Taal · Sprache",
            ", ".join(i18n.LANGUAGES.values()) + " (F9)",
            self.action_language,
        )

    # -- time ------------------------------------------------------------------

    def seconds(self) -> float:
        """Time played on this game (the session's clock: it runs while the
        game is shown and in play, and stops at its end)."""
        return self.session.seconds()

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
                    self.say(_("No redeal.") if pending.is_redeal else _("Not played."))

            self.push_screen(ConfirmScreen(glyphs(reply.confirm), yes=_("Redeal")), answered)
            return True
        if reply.text is not None:
            self.say(reply.text, reply.kind)
        outcome = reply.outcome
        if outcome is not None and outcome.new_game:
            self._new_game_shown()
        self.refresh_board()
        if outcome is not None and outcome.ended is not None:
            self.check_end()
        if reply.changed and not self.game.outcome.finished and self.controller.hopeless():
            self.say(_("No useful move is left (only taking cards back from home): "
                       "F8 resigns."), "hint")
        self.bindings_changed()
        return True

    def bindings_changed(self) -> None:
        """The footer follows the variant (no "Redeal" where there is none)."""
        with contextlib.suppress(ScreenStackError):  # no screen yet, or any more
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

    def _help(self, question: str, declined: str, give: Callable[[], None]) -> None:
        """Give help (a hint, a review of the game in play): marked first
        (fair play); in a game that counts for the table of the day, only
        once the player has said yes to ``question``."""

        def go() -> None:
            try:
                self.session.hint_asked()  # fair play: marked before the help is given
            except LucieError as exc:
                self.say(str(exc), "error")
                return
            give()

        if not self.session.counts_for_daily():
            go()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                go()
            else:
                self.say(declined, "info")

        self.push_screen(ConfirmScreen(question, yes=_("Yes")), answered)

    def action_hint(self) -> None:
        def give() -> None:
            self.say(_("Thinking…"), "hint")
            self._hint_worker(self.game.position)

        self.hint_help(give)

    def hint_help(self, give: Callable[[], None]) -> None:
        """A hint: :meth:`_help` with its question."""
        self._help(_(HINT_QUESTION), _(HINT_DECLINED), give)

    @work(thread=True, exclusive=True, group="hint")
    def _hint_worker(self, position: Position) -> None:
        from lucie.analysis.hints import hint

        try:
            result = hint(position)
        except LucieError as exc:
            self.call_from_thread(self.say, _("No hint: {error}").format(error=exc), "error")
            return
        text = result.text
        if proved_lost(position, result.clears, result.budget_ran_out):
            text = _("{hint}.  This deal can no longer be won: F8 resigns.").format(
                hint=text.rstrip("."))
        self.call_from_thread(
            lambda: self.respond(self.controller.show_hint(position, result.move, text)),
        )

    def action_resign(self) -> None:
        if self.game.outcome.finished:
            self.say(_("The game is over already."), "error")
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.respond(self.controller.resign())

        self.push_screen(ConfirmScreen(_("Resign this game? It counts as lost in your "
                                         "statistics."), yes=_("Resign")), done)

    def action_restart(self) -> None:
        if self.session.result is not None:  # over: a new game of the deal
            self.respond(self.controller.restart())
            return
        if not self.game.moves:
            self.say(_("This is the start of the deal already."))
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.respond(self.controller.restart())

        self.push_screen(ConfirmScreen(_("Restart this deal from the beginning?"),
                                       yes=_("Restart")), done)

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
            self.say(_("The deal of the day ({date}, UTC): deal {deal} of {variant}, "
                       "the same for everyone.").format(
                date=today().isoformat(), deal=self.game.deal, variant=rules.name()), "info")
        elif choice.difficulty is not None:
            looking = LOOKING.get(choice.difficulty)
            self.say(_(looking).format(variant=rules.name()) if looking
                     else f"{choice.difficulty}…", "info")
            self._pick_worker(rules, choice.difficulty)
        else:
            self.start_new(rules, choice.deal)

    @work(thread=True, exclusive=True, group="pick")
    def _pick_worker(self, rules: Rules, difficulty: str) -> None:
        from lucie.analysis.difficulty import pick_deal

        try:
            pick = pick_deal(rules, difficulty)  # type: ignore[arg-type]
        except LucieError as exc:
            self.call_from_thread(self.say, _("No deal found: {error}").format(error=exc),
                                  "error")
            return

        def start() -> None:
            # the rating is kept with the game: its end tells that figure
            self.start_new(rules, pick.deal, picked=pick.rated)
            found = FOUND.get(difficulty)
            if found:
                self.say(_(found).format(variant=rules.name(), deal=pick.deal), "info")

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
            if game_id == self.game_id:
                self.action_review()  # in play: help, asked first
                return
            try:
                game = self.store.game(game_id)
                if game.outcome.status == "playing":  # its review is help: marked first
                    review_asked(self.store, game_id, self.player)
            except (StoreError, LucieError) as exc:
                self.say(_("Could not open game {game}: {error}").format(
                    game=game_id, error=exc), "error")
                return
            self.push_screen(ReviewScreen(game))

        self.push_screen(HistoryScreen(self.store.history(self.player, limit=100)), chosen)

    def action_review(self) -> None:
        def give() -> None:
            self.push_screen(ReviewScreen(self.game.copy()))

        if self.game.outcome.finished or self.session.result is not None:
            give()
            return
        # a review of the game in play tells the chance of its position: help
        self._help(_(REVIEW_QUESTION), _(REVIEW_DECLINED), give)

    def action_command_palette(self) -> None:
        """Textual's command palette, its prompt in the language in use."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"),
                                            id="--command-palette"))

    def action_show_help_panel(self) -> None:
        """Textual's key panel would list its bindings in English: lucie's
        own page of keys, in the player's language, instead (Esc closes it)."""
        self.push_screen(TextScreen(keys_help()))

    def action_help(self) -> None:
        rules = self.game.rules
        self.push_screen(TextScreen(rules_help(rules) + "\n\n" + keys_help(rules)))

    def action_language(self) -> None:
        def chosen(code: str | None) -> None:
            if code is not None:
                self.choose_language(code)

        self.push_screen(LanguageScreen(i18n.language()), chosen)

    def choose_language(self, code: str) -> None:
        """Speak ``code`` from now on: the whole screen at once, footer
        included, and remember it for the next start."""
        i18n.set_language(code)
        problem = self.settings.set_language(i18n.language())
        table = self.table
        if table is not None:
            table.relabel()
        self.bindings_changed()
        self.refresh_board()
        self._draw_header()
        if problem:
            self.say(problem, "error")
        else:
            self.say(_("Language: {language}.").format(
                language=i18n.LANGUAGES[i18n.language()]), "info")

    def action_stats(self) -> None:
        rules = self.game.rules
        s = self.store.stats(self.player, rules)
        text = [f"## {printable(self.player)}: {rules.name()}", ""]
        if not s.games:
            text.append(_("No finished game yet in this variant."))
        else:
            text += ["- " + line for line in (
                _("{games}, {wins} won ({rate})").format(
                    games=games_count(s.games), wins=s.wins,
                    rate=i18n.format_percent(s.win_rate, 1)),
                _("average score {average}/52, best {best}").format(
                    average=decimal(s.average_score), best=s.best_score),
                _("current streak {current}, best streak {best}").format(
                    current=s.current_streak, best=s.best_streak),
                _("time played {time}").format(time=duration(s.total_seconds)),
            )]
            for series in s.series:
                text.append("- " + _("series {number}: {games}, {wins} won, average {average}")
                            .format(number=series.number, games=games_count(series.games),
                                    wins=series.wins,
                                    average=decimal(series.average_score)))
        text += ["", "## " + _("Deals of the day"), ""]
        daily = daily_results(self.store, self.player, rules)
        text += daily or [_("None played yet: F2, then \"Deal of the day\".")]
        self.push_screen(TextScreen("\n".join(text)))

    # -- the end of a game ----------------------------------------------------

    def save(self) -> None:
        """Save the time played (every change is recorded as it is made)."""
        try:
            self.session.save_time()
        except StoreError as exc:
            self.say(_("Could not save: {error}").format(error=exc), "error")

    def check_end(self) -> None:
        """Show the end of a game whose result was just recorded."""
        game = self.game
        outcome = game.outcome
        if not outcome.finished or self._end_shown:
            return
        if self.session.practice:
            self.say(_("Practice over: score {score}/52 (not recorded). F2 starts a new "
                       "game.").format(score=outcome.score), "info")
            return
        seconds = self.seconds()
        stats = self.store.stats(self.player, game.rules)
        summary = (
            _("{variant}, deal {deal}").format(variant=game.rules.name(), deal=game.deal)
            + "\n"
            + _("Score {score}/52 in {moves}, {time}.").format(
                score=outcome.score, moves=moves_count(len(game.moves)), time=duration(seconds))
        )
        stats_text = (
            _("{player}: {games}, {wins} won ({rate}), average score {average}").format(
                player=printable(self.player), games=games_count(stats.games), wins=stats.wins,
                rate=i18n.format_percent(stats.win_rate),
                average=decimal(stats.average_score))
            + "\n"
            + _("streak {current}, best streak {best}").format(
                current=stats.current_streak, best=stats.best_streak)
        )
        self._end_shown = True
        title = {"won": _("You won!"), "resigned": _("Resigned")}.get(
            outcome.status, _("No move left"))
        self.push_screen(EndScreen(outcome.status == "won", summary, stats_text, title),
                         self._after_end)
        if game.deal is not None:
            self._difficulty_worker(game.rules, game.deal, self.session.picked)

    @work(thread=True, exclusive=True, group="difficulty")
    def _difficulty_worker(self, rules: Rules, deal: int, picked: Rated | None) -> None:
        """The deal's difficulty, told once the game is over (never before);
        a deal picked by difficulty: the rating it was picked by."""
        try:
            from lucie.analysis.difficulty import deal_difficulty

            rated = deal_difficulty(rules, deal, max_seconds=10.0, picked=picked)
        except LucieError:
            return
        self.call_from_thread(self._show_difficulty, rated.text())

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
            self._again()
        elif choice == "next":
            self.start_new(game.rules, (game.deal or 0) + 1 if game.deal is not None else None)
        else:
            self.say(_("The game is over: u goes on as practice (not recorded), F4 plays "
                       "this deal again, F2 starts a new game."))

    def _again(self) -> None:
        """A new game of the same deal (the finished one stays recorded)."""
        try:
            self.session.again()
        except NotSavedError as exc:
            self.say(str(exc), "error")
            return
        self._new_game_shown()
        self.say(_("New game: {variant}, deal {deal}.").format(
            variant=self.game.rules.name(), deal=self.game.deal), "info")

    def _leave(self, then: Callable[[], None]) -> None:
        """Ask before abandoning a game in progress, then call ``then``."""
        game = self.game
        if game.moves and not game.outcome.finished and self.session.result is None:
            def done(yes: bool | None) -> None:
                if yes:
                    then()
            self.push_screen(
                ConfirmScreen(_("Leave this game? It counts as lost in your statistics."),
                              yes=_("Leave it")), done,
            )
        else:
            then()

    def start_new(self, rules: Rules, deal: int | None, *,
                  picked: Rated | None = None) -> None:
        """Leave the current game (counted as resigned if it was played and
        is not finished; forgotten if no move was made) and start another
        (``picked``: the rating its deal was picked by, kept with it)."""
        try:
            self.session.replace(Game(rules, deal), picked=picked)
        except NotSavedError as exc:
            self.say(str(exc), "error")
            return
        self._new_game_shown()
        self.say(_("New game: {variant}, deal {deal}.").format(
            variant=rules.name(), deal=self.game.deal), "info")

    def _new_game_shown(self) -> None:
        """The session plays a new game: show it, its clock running."""
        self.session.show()
        self._end_shown = False
        self.controller.reset()
        self.refresh_board()
        self.bindings_changed()

    async def action_quit(self) -> None:
        self.session.close()
        self.exit(0)

    def on_unmount(self) -> None:
        self.session.close()
