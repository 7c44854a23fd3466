"""The Textual app: the table, the keys and the clicks.

Data flows one way: a key or a click becomes a :class:`~lucie.engine.Move`,
the engine checks it (``why_illegal``) and the game plays it (``push``),
the store saves the move list, then the widgets draw the new position.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, Final, Literal

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer

from lucie.cards import Card
from lucie.engine import FAN_NAMES, REDEAL, Game, Move, Position, autoplay_moves
from lucie.errors import LucieError
from lucie.rules import VARIANTS, Rules
from lucie.store import Store, StoreError
from lucie.tui.screens import (
    KEYS_HELP,
    ConfirmScreen,
    EndScreen,
    NewGameScreen,
    TextScreen,
    VariantScreen,
    rules_help,
)
from lucie.tui.widgets import CellsView, FanLook, FanView, FoundationsView, Line

SelKind = Literal["fan", "cell", "card"]


@dataclass(frozen=True, slots=True)
class Selection:
    """The picked card: the top of a fan, a cell, or a card (merci, take-back)."""

    kind: SelKind
    index: int  # fan index, cell index, or the card's int value

    def matches(self, move: Move) -> bool:
        return move.src_kind == self.kind and move.src == self.index


@dataclass(slots=True)
class Opened:
    """A game ready to play: its store id, the game, time already played,
    and whether it was resumed."""

    game_id: int
    game: Game
    seconds: float
    resumed: bool


def open_game(
    store: Store, player: str, rules: Rules | None = None, deal: int | None = None,
) -> Opened:
    """Resume the player's unfinished game, or start a new one.

    With no variant and no deal, the latest unfinished game of any variant
    resumes; with a variant, the latest of that variant; with a deal
    number, only an unfinished game of that very deal (and variant).
    """
    found = store.unfinished(player, rules)
    if found is not None:
        gid, game = found
        if (
            (rules is None or game.rules == rules)
            and (deal is None or game.deal == deal)
            and store.claim(gid)
        ):
            return Opened(gid, game, store.record(gid).seconds, True)
    game = Game(rules or Rules(), deal)
    gid = store.start_game(game, player)
    store.claim(gid)
    return Opened(gid, game, 0.0, False)


_CARD_CODE: Final = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK])([CDHS])(?![A-Za-z0-9])")


def glyphs(text: str) -> str:
    """Card codes in a message shown with suit glyphs.

    >>> glyphs("7C cannot go on TH (fans build down in suit)")
    '7♣ cannot go on 10♥ (fans build down in suit)'
    """
    return _CARD_CODE.sub(lambda m: Card.parse(m.group(0)).glyph(), text)


def _duration(seconds: float) -> str:
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


class TableScreen(Screen[None]):
    """The table: header, foundations and cells, the fans, the status line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "app.undo", "Undo"),
        Binding("ctrl+z", "app.undo", "Undo", show=False),
        Binding("y", "app.redo", "Redo"),
        Binding("ctrl+y", "app.redo", "Redo", show=False),
        Binding("s", "app.redeal", "Redeal"),
        Binding("w", "app.merci", "Merci", show=False),
        Binding("t", "app.hint", "Hint"),
        Binding("x", "app.autoplay", "Home", show=False),
        Binding("f6,ctrl+a", "app.toggle_autoplay", "Auto", show=False),
        Binding("v,f3", "app.variant", "Variant"),
        Binding("f2,ctrl+n", "app.new_game", "New", show=False),
        Binding("f4,ctrl+r", "app.restart", "Restart", show=False),
        Binding("f5", "app.stats", "Stats", show=False),
        Binding("question_mark,f1", "app.help", "Keys"),
    ]

    def compose(self) -> ComposeResult:
        yield Line("header")
        with Horizontal(id="homes"):
            yield FoundationsView()
            yield CellsView()
            yield Line("info")
        yield Vertical(id="fans")
        yield Line("status")
        yield Footer()

    def on_key(self, event: events.Key) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        if app.handle_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_click(self, event: events.Click) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        app.clear_selection("")

    def on_resize(self, event: events.Resize) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        app.arrange(event.size.width, event.size.height)

    def on_fan_view_clicked(self, event: FanView.Clicked) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        app.fan_clicked(event.fan, event.card, event.chain)

    def on_foundations_view_clicked(self, event: FoundationsView.Clicked) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        app.foundation_clicked(event.suit)

    def on_cells_view_clicked(self, event: CellsView.Clicked) -> None:
        app = self.app
        assert isinstance(app, LucieApp)
        if event.cell is not None:
            app.cell_key(event.cell, clicked=True, chain=event.chain)


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
        self.auto = autoplay
        opened = open_game(store, player, rules, deal)
        self.game_id = opened.game_id
        self.game = opened.game
        self.resumed = opened.resumed
        self._base_seconds = opened.seconds
        self._t0 = time.monotonic()
        self.selection: Selection | None = None
        self.merci_mode = False
        self.merci_fan: int | None = None
        self.hint_move: Move | None = None
        self.message = ""
        self.message_kind = ""
        self.finished_recorded = False
        self._fan_views: list[FanView] = []
        self._columns = 0
        self._tall = False
        self._end_shown = False

    # -- set-up --------------------------------------------------------------

    def on_mount(self) -> None:
        self.push_screen(TableScreen())
        self.call_after_refresh(self._first_draw)
        if self.clock:
            self.set_interval(1.0, self._tick)

    def _first_draw(self) -> None:
        size = self.screen.size
        self.arrange(size.width, size.height, force=True)
        if self.resumed:
            self.say(
                f"Welcome back: your game of deal {self.game.deal} resumes where you left it. "
                "? for keys.", "info",
            )
        else:
            self.say("Pick a card: press its fan letter or click it.  ? shows every key.",
                     "info")
        self.check_end()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("New game", "Play a random deal or a deal by number",
                            self.action_new_game)
        yield SystemCommand("Variant", "Choose the variant (starts a new game)",
                            self.action_variant)
        yield SystemCommand("Restart", "Back to the start of this deal", self.action_restart)
        yield SystemCommand("Hint", "What to play next", self.action_hint)
        yield SystemCommand("Autoplay on/off", "Send safe cards home after each move",
                            self.action_toggle_autoplay)
        yield SystemCommand("Statistics", "Your results in this variant", self.action_stats)
        yield SystemCommand("Rules and keys", "How to play", self.action_help)

    @property
    def table(self) -> TableScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                return screen
        return None

    def arrange(self, width: int, height: int, force: bool = False) -> None:
        """Lay the fans out in as many columns as the width allows."""
        table = self.table
        if table is None:
            return
        n = self.game.rules.num_fans
        columns = max(1, min(3, width // 38))
        rows = -(-n // columns)
        roomy = height >= rows * 3 + 8 and width >= 100
        tall = roomy and height >= rows * 6 + 7
        table.set_class(roomy, "roomy")
        self._tall = tall
        if columns == self._columns and not force and len(self._fan_views) == n:
            for view in self._fan_views:
                view.set_tall(tall)
            self.redraw()
            return
        self._columns = columns
        box = table.query_one("#fans", Vertical)
        box.remove_children()
        self._fan_views = [FanView(i) for i in range(n)]
        for view in self._fan_views:
            view.tall = tall
        row_boxes = []
        for r in range(rows):
            views = self._fan_views[r * columns:(r + 1) * columns]
            row = Horizontal(*views, classes="fan-row" + (" last" if r == rows - 1 else ""))
            row_boxes.append(row)
        box.mount_all(row_boxes)
        self.call_after_refresh(self.redraw)

    # -- time ------------------------------------------------------------------

    def seconds(self) -> float:
        return self._base_seconds + time.monotonic() - self._t0

    def _tick(self) -> None:
        if not self.game.outcome.finished:
            self._draw_header()

    # -- drawing ---------------------------------------------------------------

    def say(self, text: str, kind: str = "") -> None:
        """Show a message in the status line (``error`` for refusals);
        card codes in it (``7C``) are shown with their glyphs (``7♣``)."""
        self.message = glyphs(text)
        self.message_kind = kind
        self._draw_status()

    def _draw_status(self) -> None:
        table = self.table
        if table is None:
            return
        status = table.query_one("#status", Line)
        status.set_class(self.message_kind == "error", "error")
        status.set_class(self.message_kind == "hint", "hint")
        status.set(Text(self.message))

    def _draw_header(self) -> None:
        table = self.table
        if table is None:
            return
        game = self.game
        p = game.position
        deal = f"deal {game.deal}" if game.deal is not None else f"layout (seed {game.seed})"
        right = f"score {p.score}/52  moves {len(game.moves)}"
        if self.clock:
            right += f"  {_duration(self.seconds())}"
        width = table.size.width or 80
        name = p.rules.name()
        if len(name) + len(deal) + len(right) + 6 > width:
            name = p.rules.spec()
        head = Text()
        head.append(f" {name}", style="bold")
        head.append(f"  {deal}")
        pad = max(2, width - len(head.plain) - len(right) - 1)
        head.append(" " * pad)
        head.append(right, style="bold")
        table.query_one("#header", Line).set(head)
        info = Text()
        rules = p.rules
        if rules.redeals:
            info.append(f"redeals left {p.redeals_left}")
        else:
            info.append("no redeal", style="dim")
        if rules.merci:
            if p.merci_used:
                info.append("  merci used", style="dim")
            elif p.merci_available:
                info.append("  merci ready (w)", style="bold magenta")
            else:
                info.append("  merci: last deal", style="dim")
        if self.auto:
            info.append("  auto", style="bold green")
        table.query_one("#info", Line).set(info)

    def redraw(self) -> None:
        """Draw the whole table from the game's position."""
        table = self.table
        if table is None:
            return
        p = self.game.position
        sel = self.selection
        legal = self._moves_of(sel) if sel is not None else []
        fan_targets = {m.dst for m in legal if m.dst_kind == "fan"}
        cell_targets = {m.dst for m in legal if m.dst_kind == "cell"}
        home_target = any(m.dst_kind == "foundation" for m in legal)
        hint = self.hint_move
        sel_fan: int | None = None
        sel_card_index: int | None = None
        if sel is not None and sel.kind == "fan":
            sel_fan = sel.index
            sel_card_index = len(p.fans[sel.index]) - 1
        elif sel is not None and sel.kind == "card":
            card = Card(sel.index)
            kind, where = p.where(card)
            if kind == "fan":
                sel_fan = where
                sel_card_index = p.fans[where].index(card)
        for i, view in enumerate(self._fan_views):
            if i >= len(p.fans):
                continue
            look = FanLook(
                selected=sel_card_index if sel_fan == i else None,
                target=i in fan_targets,
                hint_src=hint is not None and hint.src_kind == "fan" and hint.src == i,
                hint_dst=hint is not None and hint.dst_kind == "fan" and hint.dst == i,
                merci=self.merci_mode and sel is None and (
                    self.merci_fan is None or self.merci_fan == i
                ),
            )
            view.show(p.fans[i], look)
        table.query_one(FoundationsView).show(
            p, home_target, hint is not None and hint.dst_kind == "foundation",
        )
        cells = table.query_one(CellsView)
        cells.display = bool(p.cells)
        if p.cells:
            marks: dict[int, str] = {}
            for i in cell_targets:
                marks[i] = "target"
            if sel is not None and sel.kind == "cell":
                marks[sel.index] = "selected"
            if hint is not None and hint.src_kind == "cell":
                marks.setdefault(hint.src, "hint")
            cells.show(p.cells, marks)
        self._space_rows(table)
        self._draw_header()
        self._draw_status()

    def _space_rows(self, table: TableScreen) -> None:
        """A blank line between rows of fans when they all still fit."""
        if not self._fan_views or self._columns == 0:
            return
        box = table.query_one("#fans", Vertical)
        avail = box.content_size.height
        if avail <= 0:
            return
        lines = 0
        rows = -(-len(self._fan_views) // self._columns)
        for r in range(rows):
            views = self._fan_views[r * self._columns:(r + 1) * self._columns]
            lines += max(
                v.get_content_height(v.size, v.size, v.content_size.width or 36) for v in views
            )
        if table.has_class("roomy"):
            lines += 2 * rows
        table.set_class(lines + rows - 1 <= avail, "airy")

    # -- selection -----------------------------------------------------------

    def clear_selection(self, message: str | None = None) -> None:
        had = self.selection is not None or self.merci_mode
        self.selection = None
        self.merci_mode = False
        self.merci_fan = None
        if message is not None and had:
            self.message = message
            self.message_kind = ""
        self.redraw()

    def _moves_of(self, sel: Selection) -> list[Move]:
        """The legal moves of the picked card."""
        return [m for m in self.game.position.legal_moves() if sel.matches(m)]

    def _targets_text(self, sel: Selection) -> str:
        names: list[str] = []
        for m in self._moves_of(sel):
            if m.dst_kind == "foundation":
                names.append("home (Enter)")
            elif m.dst_kind == "cell":
                names.append(f"cell {m.dst + 1}")
            else:
                names.append(f"fan {FAN_NAMES[m.dst]}")
        unique = list(dict.fromkeys(names))
        return "it can go to " + ", ".join(unique) if unique else "it has no move now"

    def select(self, sel: Selection) -> None:
        p = self.game.position
        self.selection = sel
        self.hint_move = None
        if sel.kind == "fan":
            card = p.fans[sel.index][-1]
            where = f"fan {FAN_NAMES[sel.index]}"
        elif sel.kind == "cell":
            c = p.cells[sel.index]
            assert c is not None
            card, where = c, f"cell {sel.index + 1}"
        else:
            card = Card(sel.index)
            where = "the merci" if p.where(card)[0] == "fan" else "its foundation"
        self.say(f"{card.glyph()} from {where}: {self._targets_text(sel)}.  Esc drops it.")
        self.redraw()

    # -- playing ----------------------------------------------------------------

    def play(self, move: Move) -> bool:
        """Play ``move`` if legal (then autoplay, save, check the end);
        else say why in the status line and change nothing."""
        game = self.game
        p = game.position
        why = "the game is over" if game.resigned else p.why_illegal(move)
        if why is not None:
            kept = "  (Esc drops the picked card.)" if self.selection is not None else ""
            self.say(f"Not allowed: {why}.{kept}", "error")
            return False
        text = p.describe(move)
        game.push(move)
        extra = 0
        if self.auto:
            for m in autoplay_moves(game.position):
                game.push(m)
                extra += 1
        msg = text[0].upper() + text[1:] + "."
        if extra:
            msg += f"  Autoplay sent {extra} card{'s' if extra > 1 else ''} home."
        self._settle(msg)
        self.check_end()
        return True

    def _settle(self, message: str) -> None:
        """After the game changed: drop the pick and the hint, show
        ``message``, save and redraw."""
        self.selection = None
        self.merci_mode = False
        self.merci_fan = None
        self.hint_move = None
        self.message, self.message_kind = glyphs(message), ""
        self.save()
        self.redraw()

    def save(self) -> None:
        try:
            self.store.record_move(self.game_id, self.game, self.seconds())
        except StoreError as exc:
            self.message, self.message_kind = f"Could not save: {exc}", "error"

    def check_end(self) -> None:
        game = self.game
        outcome = game.outcome
        if not outcome.finished or self._end_shown:
            return
        seconds = self.seconds()
        try:
            self.store.finish_game(self.game_id, game, seconds)
            self.finished_recorded = True
        except StoreError as exc:
            self.say(f"Could not save the result: {exc}", "error")
        won = outcome.status == "won"
        stats = self.store.stats(self.player, game.rules)
        summary = (
            f"{game.rules.name()}, deal {game.deal}\n"
            f"Score {outcome.score}/52 in {len(game.moves)} moves, {_duration(seconds)}."
        )
        stats_text = (
            f"{self.player}: {stats.games} game{'s' if stats.games != 1 else ''}, "
            f"{stats.wins} won "
            f"({100 * stats.win_rate:.0f}%), average score {stats.average_score:.1f}\n"
            f"streak {stats.current_streak}, best streak {stats.best_streak}"
        )
        self._end_shown = True
        self.push_screen(EndScreen(won, summary, stats_text), self._after_end)

    def _after_end(self, choice: str | None) -> None:
        self._end_shown = False
        game = self.game
        if choice == "undo":
            self.action_undo()
        elif choice == "same":
            self.start_new(game.rules, game.deal)
        elif choice == "next":
            self.start_new(game.rules, (game.deal or 0) + 1 if game.deal is not None else None)
        else:
            self.say("The game is over: u undoes, F2 starts a new game, v another variant.")

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
        self.game = game
        self.game_id = self.store.start_game(game, self.player)
        try:
            self.store.claim(self.game_id)
        except StoreError as exc:
            self.say(f"Could not save: {exc}", "error")
        self._base_seconds = 0.0
        self._t0 = time.monotonic()
        self.selection = None
        self.merci_mode = False
        self.merci_fan = None
        self.hint_move = None
        self.finished_recorded = False
        size = self.size
        self.arrange(size.width, size.height, force=True)
        self.say(f"New game: {rules.name()}, deal {game.deal}.", "info")

    # -- keys ------------------------------------------------------------------

    def handle_key(self, key: str, character: str | None) -> bool:
        """Fan letters, cell digits, the foundation keys and Esc; True when used."""
        ch = (character or "").lower()
        n = self.game.rules.num_fans
        if len(ch) == 1 and "a" <= ch <= "r" and key not in ("ctrl+a",):
            i = FAN_NAMES.index(ch)
            if i >= n:
                self.say(f"There is no fan {ch} in {self.game.rules.name()} "
                         f"(fans a to {FAN_NAMES[n - 1]}).", "error")
            else:
                self.fan_key(i)
            return True
        if len(ch) == 1 and "1" <= ch <= "9":
            self.digit_key(int(ch))
            return True
        if key in ("enter", "space", "full_stop"):
            self.home_key()
            return True
        if key == "escape":
            if self.selection is not None or self.merci_mode:
                self.clear_selection("Dropped.")
            elif self.hint_move is not None:
                self.hint_move = None
                self.say("")
                self.redraw()
            return True
        return False

    def fan_key(self, i: int) -> None:
        p = self.game.position
        sel = self.selection
        if self.merci_mode and sel is None:
            self._merci_pick_fan(i)
            return
        if sel is None:
            if not p.fans[i]:
                self.say(f"Fan {FAN_NAMES[i]} is empty.", "error")
                return
            self.select(Selection("fan", i))
            return
        if sel.kind == "fan" and sel.index == i:
            self._quick_move(sel)
            return
        self.play(self._move_to(sel, "fan", i))

    def _move_to(self, sel: Selection, kind: Literal["fan", "cell", "foundation"],
                 dst: int) -> Move:
        return Move(sel.kind, sel.index, kind, dst)

    def _quick_move(self, sel: Selection) -> None:
        """The same fan twice: home if it can go, else its only place."""
        moves = self._moves_of(sel)
        home = [m for m in moves if m.dst_kind == "foundation"]
        if home:
            self.play(home[0])
            return
        fans = [m for m in moves if m.dst_kind == "fan"]
        if len(fans) == 1:
            self.play(fans[0])
            return
        self.clear_selection("Dropped." if fans or not moves else "")
        if len(fans) > 1:
            self.say("It can go to several fans: pick one with its letter.", "")

    def digit_key(self, number: int) -> None:
        p = self.game.position
        sel = self.selection
        if self.merci_mode and sel is None:
            if self.merci_fan is None:
                self.say("Merci: first press the letter of the fan with the buried card.",
                         "error")
                return
            fan = p.fans[self.merci_fan]
            if not 1 <= number < len(fan):
                self.say(f"Fan {FAN_NAMES[self.merci_fan]} has buried cards 1 to "
                         f"{len(fan) - 1}.", "error")
                return
            self._merci_choose(fan[number - 1])
            return
        self.cell_key(number - 1)

    def cell_key(self, cell: int, clicked: bool = False, chain: int = 1) -> None:
        p = self.game.position
        sel = self.selection
        if not p.cells:
            self.say("This variant has no free cells.", "error")
            return
        if cell >= len(p.cells):
            self.say(f"There is no cell {cell + 1} (cells 1 to {len(p.cells)}).", "error")
            return
        if sel is None:
            if p.cells[cell] is None:
                self.say(f"Cell {cell + 1} is empty.", "error")
                return
            if chain >= 2:
                self.play(Move("cell", cell, "foundation", -1))
                return
            self.select(Selection("cell", cell))
            return
        if sel.kind == "cell" and sel.index == cell:
            if clicked and chain < 2:
                self.clear_selection("Dropped.")
            else:
                self._quick_move(sel)
            return
        self.play(self._move_to(sel, "cell", cell))

    def home_key(self) -> None:
        sel = self.selection
        if sel is None:
            self.say("Pick a card first (its fan letter), then Enter sends it home.", "error")
            return
        self.play(self._move_to(sel, "foundation", -1))

    # -- clicks ----------------------------------------------------------------

    def fan_clicked(self, i: int, card: int | None, chain: int) -> None:
        p = self.game.position
        fan = p.fans[i]
        sel = self.selection
        if self.merci_mode and sel is None:
            if card is not None and card < len(fan) - 1:
                self._merci_choose(fan[card])
            else:
                self._merci_pick_fan(i)
            return
        if chain >= 2 and fan:
            # a double click: the first click picked the fan's top card
            self.play(Move("fan", i, "foundation", -1))
            return
        if sel is None:
            if not fan:
                self.say(f"Fan {FAN_NAMES[i]} is empty.", "error")
                return
            self.select(Selection("fan", i))
            return
        if sel.kind == "fan" and sel.index == i:
            self.clear_selection("Dropped.")
            return
        self.play(self._move_to(sel, "fan", i))

    def foundation_clicked(self, suit: int | None) -> None:
        p = self.game.position
        sel = self.selection
        if sel is not None:
            self.play(self._move_to(sel, "foundation", -1))
            return
        if suit is not None and p.rules.foundation_takeback:
            top = p.foundation_top(suit)
            if top is not None:
                self.select(Selection("card", int(top)))
                return
        self.say("Pick a card first, then click the foundations to send it home.", "error")

    # -- the merci -------------------------------------------------------------

    def _merci_moves(self, p: Position) -> list[Move]:
        return [
            m for m in p.legal_moves()
            if m.src_kind == "card" and m.card_source is not None
            and p.where(m.card_source)[0] == "fan"
        ]

    def action_merci(self) -> None:
        p = self.game.position
        if self.merci_mode:
            self.clear_selection("Merci put off.")
            return
        if not self._merci_moves(p):
            rules = p.rules
            if not rules.merci:
                why = ("this variant has no merci (the merci variant, Three Shuffles and "
                       "a Draw, has one)")
            elif p.merci_used:
                why = "the merci has already been used"
            elif p.redeals_left:
                why = (f"the merci is only allowed in the last deal "
                       f"({p.redeals_left} redeal{'s' if p.redeals_left > 1 else ''} left)")
            elif rules.redeal_only_when_stuck:
                why = "the merci only when no other move is left (strict rule)"
            else:
                why = "no buried card to lift"
            self.say(f"Not allowed: {why}.", "error")
            return
        self.selection = None
        self.merci_mode = True
        self.merci_fan = None
        self.hint_move = None
        self.say("Merci: click the buried card to lift, or press its fan letter.  "
                 "w or Esc puts it off.", "hint")
        self.redraw()

    def _merci_pick_fan(self, i: int) -> None:
        fan = self.game.position.fans[i]
        if len(fan) < 2:
            self.say(f"Fan {FAN_NAMES[i]} has no buried card.", "error")
            return
        if len(fan) == 2:
            self._merci_choose(fan[0])
            return
        self.merci_fan = i
        choices = "  ".join(f"{k + 1} {c.glyph()}" for k, c in enumerate(fan[:-1]))
        self.say(f"Merci from fan {FAN_NAMES[i]}: press {choices}", "hint")
        self.redraw()

    def _merci_choose(self, card: Card) -> None:
        self.merci_fan = None
        self.select(Selection("card", int(card)))
        self.say(f"Merci: {card.glyph()} lifted; now pick the fan it goes on "
                 "(its own included).  Esc puts it back.", "hint")

    # -- commands --------------------------------------------------------------

    def action_undo(self) -> None:
        game = self.game
        if not game.can_undo:
            self.say("Nothing to undo.", "error")
            return
        was_finished = game.outcome.finished
        move = game.pop()
        what = game.position.describe(move)
        if was_finished and self.finished_recorded:
            try:
                self.store.reopen(self.game_id)
            except StoreError as exc:
                self.say(f"Could not save: {exc}", "error")
            self.finished_recorded = False
        self._settle(f"Undone: {what}.")

    def action_redo(self) -> None:
        game = self.game
        if not game.can_redo:
            self.say("Nothing to redo.", "error")
            return
        what = game.position.describe(game.redo_moves[0])
        game.redo()
        self._settle(f"Redone: {what}.")
        self.check_end()

    def action_redeal(self) -> None:
        p = self.game.position
        why = p.why_illegal(REDEAL)
        if why is not None:
            self.say(f"Not allowed: {why}.", "error")
            return
        useful = [m for m in p.legal_moves() if not m.is_redeal and m.src_kind != "card"]
        if useful:
            n = len(useful)
            self.push_screen(
                ConfirmScreen(
                    f"{n} move{'s are' if n > 1 else ' is'} still possible, for example "
                    f"{glyphs(p.describe(useful[0]))}.\n"
                    f"Redeal anyway? ({p.redeals_left} redeal"
                    f"{'s' if p.redeals_left > 1 else ''} left)",
                    yes="Redeal",
                ),
                self._confirmed_redeal,
            )
            return
        self.play(REDEAL)

    def _confirmed_redeal(self, yes: bool | None) -> None:
        if yes:
            self.play(REDEAL)
        else:
            self.say("No redeal.")

    def action_autoplay(self) -> None:
        moves = autoplay_moves(self.game.position)
        if not moves:
            self.say("No card can safely go home now.", "error")
            return
        for m in moves:
            self.game.push(m)
        self.selection = None
        self.hint_move = None
        self.message = f"Sent home: {' '.join(str(m) for m in moves)} (u undoes them one by one)."
        self.message_kind = ""
        self.save()
        self.redraw()
        self.check_end()

    def action_toggle_autoplay(self) -> None:
        self.auto = not self.auto
        self.say("Autoplay on: safe cards go home after each move." if self.auto
                 else "Autoplay off.")
        self._draw_header()

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
        self.call_from_thread(self._show_hint, position, result)

    def _show_hint(self, position: Position, result: object) -> None:
        if self.game.position != position:
            return  # the player moved meanwhile
        move = getattr(result, "move", None)
        text = str(getattr(result, "text", "") or "")
        self.selection = None
        self.hint_move = move if isinstance(move, Move) else None
        if self.hint_move is not None and not text:
            text = position.describe(self.hint_move)
        if self.hint_move is not None and text:
            keys = self._keys_for(self.hint_move)
            if keys:
                text = f"{text.rstrip('.')}.  Keys: {keys}"
        self.say(f"Hint: {text}" if text else "No hint.", "hint")
        self.redraw()

    def _keys_for(self, move: Move) -> str:
        """The keys that play ``move`` (for hints)."""
        if move.is_redeal:
            return "s"
        if move.src_kind == "fan":
            src = FAN_NAMES[move.src]
        elif move.src_kind == "cell":
            src = str(move.src + 1)
        else:
            card = Card(move.src)
            kind, where = self.game.position.where(card)
            if kind != "fan":
                return ""
            src = f"w {FAN_NAMES[where]} {self.game.position.fans[where].index(card) + 1}"
        if move.dst_kind == "foundation":
            dst = "Enter"
        elif move.dst_kind == "cell":
            dst = str(move.dst + 1)
        else:
            dst = FAN_NAMES[move.dst]
        return f"{src} {dst}"

    def action_restart(self) -> None:
        if not self.game.moves:
            self.say("This is the start of the deal already.")
            return

        def done(yes: bool | None) -> None:
            if not yes:
                return
            if self.game.outcome.finished and self.finished_recorded:
                self.store.reopen(self.game_id)
                self.finished_recorded = False
            self.game.restart()
            self.selection = None
            self.hint_move = None
            self.message, self.message_kind = "Back to the start (y redoes the moves).", ""
            self.save()
            self.redraw()

        self.push_screen(ConfirmScreen("Restart this deal from the beginning?",
                                       yes="Restart"), done)

    def _leave(self, then: object) -> None:
        """Ask before abandoning a game in progress, then call ``then``."""
        assert callable(then)
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

    def action_new_game(self) -> None:
        def chosen(deal: int | None) -> None:
            if deal is None:
                return
            self._leave(lambda: self.start_new(self.game.rules, deal or None))

        self.push_screen(NewGameScreen(self.game.rules.name()), chosen)

    def action_variant(self) -> None:
        def chosen(name: str | None) -> None:
            if name is None or name not in VARIANTS:
                return
            self._leave(lambda: self.start_new(VARIANTS[name].rules, None))

        self.push_screen(VariantScreen(self.game.rules), chosen)

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
                f"- games {s.games}, won {s.wins} ({100 * s.win_rate:.1f}%)",
                f"- average score {s.average_score:.1f}/52, best {s.best_score}",
                f"- current streak {s.current_streak}, best streak {s.best_streak}",
                f"- time played {_duration(s.total_seconds)}",
            ]
            for series in s.series:
                text.append(
                    f"- series {series.number}: {series.games} games, {series.wins} won, "
                    f"average {series.average_score:.1f}"
                )
        self.push_screen(TextScreen("\n".join(text)))

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
