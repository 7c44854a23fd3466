"""The table screen: its layout, and the drawing of a :class:`Board`.

The screen draws what it is given (a :class:`~lucie.tui.controller.Board`,
the header, the status line) and hands keys to its owner; the clicks on
fans, foundations and cells bubble up to the app as the widgets' messages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar, Final, Protocol, cast

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

from lucie.cards import Card
from lucie.engine import Game
from lucie.i18n import N_, _
from lucie.tui.controller import Board
from lucie.tui.widgets import CellsView, FanLook, FanView, FoundationsView, Line

_CARD_CODE: Final = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK])([CDHS])(?![A-Za-z0-9])")


def glyphs(text: str) -> str:
    """Card codes in a message shown with suit glyphs.

    >>> glyphs("7C cannot go on TH (fans build down in suit)")
    '7♣ cannot go on 10♥ (fans build down in suit)'
    """
    return _CARD_CODE.sub(lambda m: Card.parse(m.group(0)).glyph(), text)


def duration(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour on."""
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


#: From this size on (columns, lines), cards are drawn three lines tall.
TALL_FROM: Final = (120, 40)


def needed_size(fans: int) -> tuple[int, int]:
    """The smallest terminal (columns, lines) that shows ``fans`` fans
    whole: two columns of fans of 38 characters, one line a fan row, and
    6 lines for the header, the foundations, the status and the footer.

    >>> needed_size(18)
    (76, 15)
    """
    return 76, -(-fans // 2) + 6


#: The CSS type name of the keys of Textual's footer (the class is not
#: exported by ``textual.widgets``: lucie knows it by this name).
FOOTER_KEY: Final = "FooterKey"


class FooterKey(Protocol):
    """What lucie reads and sets of a key of Textual's footer."""

    key_display: str
    description: str
    action: str
    tooltip: object

    def has_class(self, *class_names: str) -> bool:
        """Whether the key has these CSS classes."""


def footer_keys(widgets: Iterable[Widget]) -> list[FooterKey]:
    """The keys among the footer's widgets (the others are labels and groups)."""
    return [cast(FooterKey, w) for w in widgets if type(w).__name__ == FOOTER_KEY]


class TranslatedFooter(Footer):
    """The key footer, its descriptions in the language in use (the
    bindings are marked with ``N_`` and translated here, when shown)."""

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        keys = footer_keys(widgets)
        for key in keys:
            key.description = _(key.description) if key.description else ""
            if isinstance(key.tooltip, str) and key.tooltip:
                key.tooltip = _(key.tooltip)
        # where the words are too long for the width (French, Dutch and
        # German at 80 columns), the keys go compact, then the keys that the
        # help and the palette still reach leave (the variant's first); the
        # palette's own key (Ctrl+P, every command) goes only as a last resort
        width = self.app.size.width
        if width and footer_width(keys) > width:
            self.compact = True
            for key in [k for k in keys if k.action in SPARE_KEYS] + [
                    k for k in keys if k.has_class("-command-palette")]:
                if footer_width(keys, compact=True) <= width:
                    break
                widgets = [w for w in widgets if id(w) != id(key)]
                keys = [k for k in keys if k is not key]
        else:
            self.compact = False
        yield from widgets


#: The footer's keys left out first where the footer is too narrow (each is
#: in the help and the command palette).
SPARE_KEYS: Final = ("app.variant",)


def footer_width(keys: list[FooterKey], compact: bool = False) -> int:
    """The columns the footer needs for ``keys``: `` k description `` each
    in its normal style, ``k description`` and a space between keys when
    ``compact``, and the command palette's separator."""
    width = 0
    for key in keys:
        width += cell_len(key.key_display) + (1 if compact else 2)
        if key.description:
            width += cell_len(key.description) + 1
        if key.has_class("-command-palette"):
            width += 2
    return width


#: The command palette's key in the footer (Textual's words), translated where shown.
PALETTE: Final = (N_("palette"), N_("Open the command palette"))


class TableOwner(Protocol):
    """What the table screen asks of the app."""

    def table_key(self, key: str, character: str | None) -> bool:
        """Handle a key of the table; True when it was used."""

    def table_click(self) -> None:
        """A click on the table outside the cards."""


class TableScreen(Screen[None]):
    """The table: header, foundations and cells, the fans, the status line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "app.undo", N_("Undo")),
        Binding("ctrl+z", "app.undo", N_("Undo"), show=False),
        Binding("y", "app.redo", N_("Redo")),
        Binding("ctrl+y", "app.redo", N_("Redo"), show=False),
        Binding("s", "app.redeal", N_("Redeal")),
        Binding("w", "app.merci", N_("Merci"), show=False),
        Binding("t", "app.hint", N_("Hint")),
        Binding("x", "app.autoplay", N_("Home"), show=False),
        Binding("f6,ctrl+a", "app.toggle_autoplay", N_("Auto"), show=False),
        Binding("v,f3", "app.variant", N_("Variant")),
        Binding("f2,ctrl+n", "app.new_game", N_("New"), show=False),
        Binding("f4,ctrl+r", "app.restart", N_("Restart"), show=False),
        Binding("f5", "app.stats", N_("Stats"), show=False),
        Binding("f8", "app.resign", N_("Resign"), show=False),
        Binding("f7", "app.history", N_("History"), show=False),
        Binding("f9", "app.language", N_("Language"), show=False),
        Binding("question_mark,f1", "app.help", N_("Keys")),
    ]

    def __init__(self, owner: TableOwner) -> None:
        super().__init__()
        self.owner = owner
        self.fan_views: list[FanView] = []
        self.board: Board | None = None
        self._columns = 0
        self._roomy_ok = self._tall_ok = False

    def compose(self) -> ComposeResult:
        yield Line("header")
        yield Line("duel")  # a duel's news (lucie.tui.duel); hidden otherwise
        with Horizontal(id="homes"):
            yield FoundationsView()
            yield CellsView()
            yield Line("info")
        yield Vertical(id="fans")
        yield Static("", id="small")
        yield Line("status")
        yield TranslatedFooter()

    def on_key(self, event: events.Key) -> None:
        if self.owner.table_key(event.key, event.character):
            event.stop()
            event.prevent_default()

    def on_click(self, event: events.Click) -> None:
        self.owner.table_click()

    def on_resize(self, event: events.Resize) -> None:
        self.lay_out(event.size.width, event.size.height)

    # -- layout ----------------------------------------------------------------

    def lay_out(self, width: int, height: int, force: bool = False) -> None:
        """Lay the fans out in as many columns as the width allows."""
        if self.board is None:
            return
        n = self.board.position.rules.num_fans
        columns = max(1, min(3, width // 38))
        rows = -(-n // columns)
        roomy = height >= rows * 3 + 8 and width >= 100
        # three-line cards from 120x40 on: a row of framed fans is 5 lines
        tall = roomy and width >= TALL_FROM[0] and height >= max(TALL_FROM[1], rows * 5 + 7)
        # the richest look the size allows; _fit takes less where long fans need it
        self._roomy_ok, self._tall_ok = roomy, tall
        self.set_class(roomy, "roomy")
        self._check_size(width, height, n)
        if columns == self._columns and not force and len(self.fan_views) == n:
            for view in self.fan_views:
                view.set_tall(tall)
            self.draw(self.board)
            return
        self._columns = columns
        box = self.query_one("#fans", Vertical)
        box.remove_children()
        self.fan_views = [FanView(i) for i in range(n)]
        for view in self.fan_views:
            view.tall = tall
        row_boxes = []
        for r in range(rows):
            views = self.fan_views[r * columns:(r + 1) * columns]
            row_boxes.append(
                Horizontal(*views, classes="fan-row" + (" last" if r == rows - 1 else ""))
            )
        box.mount_all(row_boxes)
        self.call_after_refresh(self._redraw)

    def relabel(self) -> None:
        """Draw every text again, in the language now in use."""
        size = self.size
        self._columns = 0
        self.lay_out(size.width, size.height, force=True)
        for widget in self.query("*"):
            widget.refresh(layout=True)

    def _check_size(self, width: int, height: int, fans: int) -> None:
        """Below the size the table needs, say so instead of cutting fans off."""
        need_w, need_h = needed_size(fans)
        small = self.query_one("#small", Static)
        too_small = width < need_w or height < need_h
        small.display = too_small
        self.query_one("#fans", Vertical).display = not too_small
        if too_small:
            small.update(
                _("The terminal is {width}x{height}: the table needs at least "
                  "{need_width}x{need_height}.").format(
                    width=width, height=height, need_width=need_w, need_height=need_h)
                + "\n" + _("Enlarge the window (or make the font smaller); the game waits.")
            )

    def _redraw(self) -> None:
        if self.board is not None:
            self.draw(self.board)

    def _fit(self) -> None:
        """Every fan on the screen, however long the fans grow: the richest
        look whose rows fit the height (framed fans of tall cards, framed
        fans, then fans whose cards touch, then unframed fans), and a blank
        line between rows when that still fits."""
        views, columns = self.fan_views, self._columns
        box = self.query_one("#fans", Vertical)
        avail, row_width = box.content_size.height, box.content_size.width
        if not views or columns == 0 or avail <= 0 or row_width <= 0:
            return
        looks: list[tuple[bool, bool, bool]] = []  # (framed, tall, dense)
        if self._roomy_ok:
            if self._tall_ok:
                looks.append((True, True, False))
            looks += [(True, False, False), (True, False, True)]
        looks += [(False, False, False), (False, False, True)]
        share = row_width // columns
        for framed, tall, dense in looks:
            # a framed fan has a border and a padding each side and a margin
            width = share - (5 if framed else 1)
            lines = sum(
                max(v.lines_for(width, tall, dense) for v in views[r:r + columns])
                + (2 if framed else 0)
                for r in range(0, len(views), columns)
            )
            if lines <= avail:
                break
        self.set_class(framed, "roomy")
        width = share - (5 if framed else 1)
        for view in views:
            view.set_tall(tall, dense)
            # the height the fan needs, set outright: Textual keeps an
            # auto height it has measured once for the same width
            height = view.lines_for(width, tall, dense) + (2 if framed else 0)
            if view.styles.height is None or view.styles.height.value != height:
                view.styles.height = height
        rows = -(-len(views) // columns)
        self.set_class(lines + rows - 1 <= avail, "airy")

    # -- drawing ---------------------------------------------------------------

    def draw(self, board: Board) -> None:
        """Draw the fans, foundations and cells of ``board``; a board of
        another variant lays the fans out again first."""
        old = self.board
        self.board = board
        if old is None or old.position.rules.num_fans != board.position.rules.num_fans:
            size = self.size
            self.lay_out(size.width, size.height, force=True)
            return
        p = board.position
        legal = board.targets
        fan_targets = {m.dst for m in legal if m.dst_kind == "fan"}
        hint = board.hint
        picked = board.selected_card()
        for i, view in enumerate(self.fan_views):
            if i >= len(p.fans):
                continue
            view.show(p.fans[i], FanLook(
                selected=picked[1] if picked is not None and picked[0] == i else None,
                target=i in fan_targets,
                hint_src=hint is not None and hint.src_kind == "fan" and hint.src == i,
                hint_dst=hint is not None and hint.dst_kind == "fan" and hint.dst == i,
                merci=board.merci_marks(i),
            ))
        self.query_one(FoundationsView).show(
            p, any(m.dst_kind == "foundation" for m in legal),
            hint is not None and hint.dst_kind == "foundation",
        )
        self._draw_cells(board)
        self._fit()

    def _draw_cells(self, board: Board) -> None:
        p, sel, hint = board.position, board.selection, board.hint
        cells = self.query_one(CellsView)
        cells.display = bool(p.cells)
        if not p.cells:
            return
        marks: dict[int, str] = {m.dst: "target" for m in board.targets if m.dst_kind == "cell"}
        if sel is not None and sel.kind == "cell":
            marks[sel.index] = "selected"
        if hint is not None and hint.src_kind == "cell":
            marks.setdefault(hint.src, "hint")
        cells.show(p.cells, marks)

    def draw_header(self, game: Game, seconds: float | None, auto: bool) -> None:
        """The title line (variant, deal, score, moves, clock) and the info
        line (redeals, merci, autoplay)."""
        p = game.position
        deal = (_("deal {deal}").format(deal=game.deal) if game.deal is not None
                else _("layout (seed {seed})").format(seed=game.seed))
        right = _("score {score}/52  moves {moves}").format(score=p.score,
                                                            moves=len(game.moves))
        if seconds is not None:
            right += f"  {duration(seconds)}"
        width = self.size.width or 80
        name = p.rules.name()
        if len(name) + len(deal) + len(right) + 6 > width:
            name = p.rules.spec()
        head = Text()
        head.append(f" {name}", style="bold")
        head.append(f"  {deal}")
        head.append(" " * max(2, width - len(head.plain) - len(right) - 1))
        head.append(right, style="bold")
        self.query_one("#header", Line).set(head)
        info_line = self.query_one("#info", Line)
        info = self._info(game, auto, short=False)
        if info.cell_len > self._info_room(width, len(p.cells)):
            info = self._info(game, auto, short=True)
        info_line.set(info)

    def draw_duel(self, left: str, right: str) -> None:
        """The duel's line under the header: the other side's progress
        (``left``, cut short where it does not fit) and the duel's clock."""
        self.set_class(True, "duel")
        width = self.size.width or 80
        line = Text(" " + left)
        line.truncate(max(10, width - cell_len(right) - 3), overflow="ellipsis")
        line.append(" " * max(2, width - line.cell_len - cell_len(right) - 1))
        line.append(right, style="bold")
        self.query_one("#duel", Line).set(line)

    def _info_room(self, width: int, cells: int) -> int:
        """The columns left for the info line, right of the foundations
        (and ``cells`` free cells) in a terminal ``width`` wide (see lucie.tcss)."""
        none = Size(0, 0)
        used = 2 + self.query_one(FoundationsView).get_content_width(none, none) + 3
        if cells:
            used += self.query_one(CellsView).width_for(cells) + 3
        return width - used

    @staticmethod
    def _info(game: Game, auto: bool, short: bool) -> Text:
        """The info line: redeals, merci, autoplay (``short``: the redeals
        in fewer words, where the full line does not fit)."""
        p = game.position
        info = Text()
        rules = p.rules
        if rules.redeals:
            info.append((_("redeals {n}") if short else _("redeals left {n}")).format(
                n=p.redeals_left))
        else:
            info.append(_("no redeal"), style="dim")
        if rules.merci:
            if p.merci_used:
                info.append("  " + _("merci used"), style="dim")
            elif p.merci_available:
                info.append("  " + _("merci ready (w)"), style="bold magenta")
            else:
                info.append("  " + _("merci: last deal"), style="dim")
        if auto:
            info.append("  " + _("auto"), style="bold green")
        return info

    def draw_status(self, text: str, kind: str) -> None:
        status = self.query_one("#status", Line)
        status.set_class(kind == "error", "error")
        status.set_class(kind == "hint", "hint")
        status.set(Text(glyphs(text)))
