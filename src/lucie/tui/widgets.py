"""The widgets of the table: fans, foundations, cells and the header.

They only draw a :class:`~lucie.engine.Position` and report clicks to the
app (as messages); every decision about moves is the app's, through the
engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from lucie.cards import SUIT_GLYPHS, Card
from lucie.engine import FAN_NAMES, Position
from lucie.i18n import _, pgettext

#: Width of a card tile (`` K♥ `` or ``10♥ ``).
TILE: Final = 4
#: Width of a card drawn three lines tall.
TALL_TILE: Final = 5
#: Width of a fan's label (``a  ``).
LABEL: Final = 3

_PAPER: Final = "#f4f1e8"
_PAPER_ALT: Final = "#d9d4c5"
#: A red that stays red on 256- and 16-colour terminals (xterm colour 124;
#: the former #c0392b came out brown, colour 130, there).
_RED: Final = "#af0000"
_BLACK: Final = "#1b1b1b"
#: Backgrounds of marked cards.
MARKS: Final = {
    "selected": "#f1c40f",
    "target": "#58d68d",
    "hint": "#85c1e9",
    "merci": "#d7bde2",
}


def card_style(card: Card, mark: str | None = None, alt: bool = False) -> Style:
    """The colours of a card tile: red or black on paper (or a mark)."""
    bg = MARKS[mark] if mark else (_PAPER_ALT if alt else _PAPER)
    return Style(color=_RED if card.is_red else _BLACK, bgcolor=bg, bold=True)


def tile_text(card: Card) -> str:
    """A card in :data:`TILE` columns: `` K♥ ``, ``10♥ ``."""
    return f"{card.glyph():>3} "


def tile_rows(card: Card, height: int) -> tuple[str, ...]:
    """A card as ``height`` lines (1: :func:`tile_text`; 3: a small card
    with its corners and its suit in the middle)."""
    if height == 1:
        return (tile_text(card),)
    g = card.glyph()
    suit = g[-1]
    return (f"{g:<{TALL_TILE}}", f"{suit:^{TALL_TILE}}", f"{g:>{TALL_TILE}}")


def empty_tile(suit: int | None = None) -> Text:
    """The tile of an empty place (a foundation shows its suit)."""
    label = f" {SUIT_GLYPHS[suit]}· " if suit is not None else "  · "
    return Text(label[:TILE].ljust(TILE), style=Style(dim=True))


def fan_geometry(width: int, tall: bool, dense: bool) -> tuple[int, int, int, int]:
    """Tile width, tile height, gap between tiles and cards per line of a
    fan ``width`` columns wide: one column between tiles when six cards
    still fit a line and the fan is not ``dense``; a dense fan's tiles
    touch (told apart by their shading).

    >>> fan_geometry(36, False, False), fan_geometry(36, False, True)
    ((4, 1, 1, 6), (4, 1, 0, 8))
    """
    tw, th = (TALL_TILE, 3) if tall else (TILE, 1)
    gap = 1 if not dense and (width - LABEL + 1) // (tw + 1) >= 6 else 0
    per = max(1, (width - LABEL + gap) // (tw + gap))
    return tw, th, gap, per


@dataclass(frozen=True, slots=True)
class FanLook:
    """What a fan shows besides its cards."""

    selected: int | None = None  # index in the fan of the selected card
    target: bool = False
    hint_src: bool = False
    hint_dst: bool = False
    merci: bool = False  # its buried cards may be picked for the merci


class FanView(Widget):
    """One fan: its letter, then its cards bottom to top (wrapped when long).

    Clicks post :class:`FanView.Clicked` with the index of the card under
    the pointer (None when not on a card) and the click count.
    """

    DEFAULT_CSS = """
    FanView { height: auto; }
    """

    class Clicked(Message):
        def __init__(self, fan: int, card: int | None, chain: int) -> None:
            super().__init__()
            self.fan = fan
            self.card = card
            self.chain = chain

    def __init__(self, index: int) -> None:
        super().__init__(id=f"fan-{FAN_NAMES[index]}", classes="fan")
        self.index = index
        self.cards: tuple[Card, ...] = ()
        self.look = FanLook()
        self.tall = False
        self.dense = False

    def show(self, cards: tuple[Card, ...], look: FanLook) -> None:
        """Set what to draw; redraws only on a change."""
        if cards == self.cards and look == self.look:
            return
        relayout = len(cards) != len(self.cards)
        self.cards = cards
        self.look = look
        self.set_class(look.target, "target")
        self.set_class(look.selected is not None, "selected")
        self.set_class(look.hint_src or look.hint_dst, "hint")
        self.set_class(not cards, "empty")
        self.refresh(layout=relayout)

    # -- geometry ------------------------------------------------------------

    def set_tall(self, tall: bool, dense: bool = False) -> None:
        """Draw cards as 3-line tiles (when the screen has room), and
        without a column between tiles (``dense``, when long fans would
        not fit the screen otherwise)."""
        if tall != self.tall or dense != self.dense:
            self.tall = tall
            self.dense = dense
            self.refresh(layout=True)

    def geometry(self, width: int) -> tuple[int, int, int, int]:
        """Tile width, tile height, gap between tiles and cards per line
        for a content ``width`` (see :func:`fan_geometry`)."""
        return fan_geometry(width, self.tall, self.dense)

    def lines_for(self, width: int, tall: bool, dense: bool) -> int:
        """The lines this fan takes at a content ``width`` in that look."""
        _tw, th, _gap, per = fan_geometry(width, tall, dense)
        return th * max(1, -(-len(self.cards) // per))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.lines_for(width, self.tall, self.dense)

    def card_at(self, x: int, y: int) -> int | None:
        """Index of the card drawn at content offset (x, y), or None."""
        tw, th, gap, per = self.geometry(self.content_size.width)
        if x < LABEL:
            return None
        col, within = divmod(x - LABEL, tw + gap)
        if col >= per or within >= tw:
            return None
        k = (y // th) * per + col
        return k if 0 <= k < len(self.cards) else None

    # -- drawing ---------------------------------------------------------------

    def _mark(self, k: int) -> str | None:
        look = self.look
        top = len(self.cards) - 1
        if look.selected == k:
            return "selected"
        if k == top and look.target:
            return "target"
        if k == top and (look.hint_src or look.hint_dst):
            return "hint"
        if look.merci and k < top:
            return "merci"
        return None

    def render(self) -> Text:
        width = self.content_size.width or 40
        _tw, th, gap, per = self.geometry(width)
        look = self.look
        letter = FAN_NAMES[self.index]
        mark = "›" if look.selected is not None else ("+" if look.target else " ")
        label_style = Style(bold=True)
        if look.selected is not None:
            label_style += Style(color="black", bgcolor=MARKS["selected"])
        elif look.target:
            label_style += Style(color="black", bgcolor=MARKS["target"])
        elif look.hint_src or look.hint_dst:
            label_style += Style(color="black", bgcolor=MARKS["hint"])
        label = Text()
        label.append(letter + mark, style=label_style)
        label.append(" ")
        if not self.cards:
            lines = [Text(" " * LABEL) for _ in range(th)]
            lines[th // 2] = label + Text("·  " + _("(empty)"), style=Style(dim=True))
            return Text("\n").join(lines)
        out: list[Text] = []
        for start in range(0, len(self.cards), per):
            block = [Text(" " * LABEL) for _ in range(th)]
            if start == 0:
                block[th // 2] = label.copy()
            for k in range(start, min(start + per, len(self.cards))):
                card = self.cards[k]
                style = card_style(card, self._mark(k), alt=not gap and k % 2 == 1)
                for row in range(th):
                    if k > start and gap:
                        block[row].append(" " * gap)
                    block[row].append(tile_rows(card, th)[row], style=style)
            out.extend(block)
        return Text("\n").join(out)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        card = self.card_at(offset.x, offset.y) if offset is not None else None
        self.post_message(self.Clicked(self.index, card, event.chain))


class FoundationsView(Widget):
    """The four foundations (their top cards); a click posts
    :class:`FoundationsView.Clicked` with the suit under the pointer."""

    DEFAULT_CSS = """
    FoundationsView { height: 1; width: auto; }
    """

    class Clicked(Message):
        def __init__(self, suit: int | None, chain: int) -> None:
            super().__init__()
            self.suit = suit
            self.chain = chain

    def __init__(self) -> None:
        super().__init__(id="foundations")
        self.position: Position | None = None
        self.target = False
        self.hint = False

    def show(self, position: Position, target: bool, hint: bool) -> None:
        self.position = position
        self.target = target
        self.hint = hint
        self.set_class(target, "target")
        self.refresh()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self._label_width() + 4 * (TILE + 1)

    @staticmethod
    def _label() -> str:
        return pgettext("the foundations", "home")

    def _label_width(self) -> int:
        """Columns before the first foundation: the label and a space."""
        return cell_len(self._label()) + 1

    def render(self) -> Text:
        style = Style(bold=True)
        if self.target:
            style += Style(color="black", bgcolor=MARKS["target"])
        elif self.hint:
            style += Style(color="black", bgcolor=MARKS["hint"])
        text = Text(self._label(), style=style)
        text.append(" ")
        if self.position is None:
            return text
        for suit in range(4):
            top = self.position.foundation_top(suit)
            text.append(" ")
            if top is None:
                text.append_text(empty_tile(suit))
            else:
                text.append(tile_text(top), style=card_style(top))
        return text

    def on_click(self, event: events.Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        suit: int | None = None
        start = self._label_width()
        if offset is not None and offset.x >= start:
            col, within = divmod(offset.x - start, TILE + 1)
            if within >= 1 and col < 4:
                suit = col
        self.post_message(self.Clicked(suit, event.chain))


#: Columns of a free cell: its number, a space, a tile (whose last column
#: parts it from the next cell).
_CELL: Final = TILE + 2


class CellsView(Widget):
    """The free cells, numbered from 1; a click posts :class:`CellsView.Clicked`."""

    DEFAULT_CSS = """
    CellsView { height: 1; width: auto; }
    """

    class Clicked(Message):
        def __init__(self, cell: int | None, chain: int) -> None:
            super().__init__()
            self.cell = cell
            self.chain = chain

    def __init__(self) -> None:
        super().__init__(id="cells")
        self.cells: tuple[Card | None, ...] = ()
        self.marks: dict[int, str] = {}

    def show(self, cells: tuple[Card | None, ...], marks: dict[int, str]) -> None:
        self.cells = cells
        self.marks = marks
        self.refresh(layout=True)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.width_for(len(self.cells))

    def width_for(self, cells: int) -> int:
        """The columns the view takes with ``cells`` cells."""
        return self._label_width() + cells * _CELL

    @staticmethod
    def _label() -> str:
        return pgettext("the free cells", "cells")

    def _label_width(self) -> int:
        """Columns before the first cell: the label and a space."""
        return cell_len(self._label()) + 1

    def render(self) -> Text:
        text = Text(self._label() + " ", style=Style(bold=True))
        for i, card in enumerate(self.cells):
            mark = self.marks.get(i)
            num_style = Style(bold=True)
            if mark:
                num_style += Style(color="black", bgcolor=MARKS[mark])
            text.append(str(i + 1), style=num_style)
            text.append(" ")  # a 10 in cell 1 reads "1 10♥", not "110♥"
            if card is None:
                text.append_text(empty_tile())
            else:
                text.append(tile_text(card), style=card_style(card, mark))
        return text

    def on_click(self, event: events.Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        cell: int | None = None
        start = self._label_width()
        if offset is not None and offset.x >= start:
            col = (offset.x - start) // _CELL

            if col < len(self.cells):
                cell = col
        self.post_message(self.Clicked(cell, event.chain))


class Line(Widget):
    """A line of text that redraws without a new layout (header, status)."""

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.text = Text()

    def set(self, text: Text | str) -> None:
        new = text if isinstance(text, Text) else Text(text)
        if new == self.text:
            return
        self.text = new
        self.refresh()

    def render(self) -> Text:
        return self.text
