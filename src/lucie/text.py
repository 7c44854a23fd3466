"""The table as text for people (``lucie play --plain``, ``lucie replay``,
the RL environment's ``render``).

It sits above the engine and the text formats and below every interface,
so each of them can show a position and its moves the same way.  The words
are in the language in use (:mod:`lucie.i18n`); cards are shown as a player
reads them (:func:`lucie.cards.card_label`: ``10♠``, ``V♥`` in French), a
foundation by its suit's symbol; fan letters are not translated.  Card codes
(``TS``) and move notation (``c>g``) stay for what is typed and stored.

>>> from lucie.engine import Game
>>> print(render(Game(deal=1)).splitlines()[0])
La Belle Lucie, deal 1 · score 0/52 · redeals left 2
>>> print(render(Game(deal=1)).splitlines()[2])
  a: J♦ K♠ 4♠
>>> from lucie.i18n import using
>>> with using("de"):
...     for line in render(Game(deal=1)).splitlines()[:3]:
...         print(line)
La Belle Lucie, Austeilung 1 · 0/52 Punkte · Neuverteilungen übrig: 2
Ablagen: ♣ -  ♦ -  ♥ -  ♠ -
  a: B♦ K♠ 4♠
"""

from __future__ import annotations

from collections.abc import Iterable

from lucie.cards import Card, card_label, suit_label
from lucie.engine import FAN_NAMES, Game, Move, Position
from lucie.formats import DISPLAY_SEPARATOR
from lucie.i18n import _, pgettext


def cards_text(cards: Iterable[Card]) -> str:
    """Cards as a player reads them, separated by spaces: ``A♣ 2♣ 10♥``."""
    return " ".join(card_label(c) for c in cards)


def foundations_text(position: Position) -> str:
    """Each foundation by its suit's symbol with its top card's rank
    (``-`` while empty): ``♣ 5  ♦ -  ♥ A  ♠ Q`` (the letters of the
    language in use)."""
    parts = []
    for suit, top in enumerate(position.foundations):
        card = position.foundation_top(suit)
        shown = card_label(card)[:-1] if top and card is not None else "-"
        parts.append(f"{suit_label(suit)} {shown}")
    return "  ".join(parts)


def moved_cards(position: Position, moves: Iterable[Move]) -> list[Card]:
    """The card each of ``moves`` (legal from ``position``, no redeal)
    moves, in order: what an autoplay report names."""
    cards: list[Card] = []
    for move in moves:
        card = position.moving_card(move)
        if card is not None:
            cards.append(card)
        position = position.apply(move)
    return cards


def move_label(position: Position, move: Move) -> str:
    """A move in a few characters, for a column or a list: the card, an
    arrow, where it goes (the card it goes on, the foundation's suit
    symbol, a cell, an empty fan): ``10♠ → J♠``, ``A♦ → ♦``.  Where there is
    room, :meth:`lucie.engine.Position.describe` says it in words.

    >>> from lucie.engine import Rules
    >>> p = Position.deal(Rules(), 2)
    >>> move_label(p, Move.parse("h>f")), move_label(p, Move.parse("R"))
    ('A♦ → ♦', 'redeal')
    """
    if move.is_redeal:
        return pgettext("short move", "redeal")
    card = position.moving_card(move)
    shown = card_label(card) if card is not None else str(move)
    if move.dst_kind == "foundation":
        target = suit_label(card.suit_index) if card is not None else "?"
    elif move.dst_kind == "cell":
        target = _("cell {cell}").format(cell=move.dst + 1)
    else:
        top = position.top(move.dst) if 0 <= move.dst < len(position.fans) else None
        target = card_label(top) if top is not None else _("fan {fan}").format(
            fan=FAN_NAMES[move.dst])
    return f"{shown} → {target}"


def render(game: Game) -> str:
    """The position of a game as text for people: a header, the
    foundations, then one line per fan with its letter."""
    p = game.position
    rules = p.rules
    deal = (
        _("deal {number}").format(number=game.deal) if game.deal is not None
        else _("custom layout (seed {seed})").format(seed=game.seed)
    )
    extras = [
        _("score {score}/52").format(score=p.score),
        _("redeals left {n}").format(n=p.redeals_left),
    ]
    if rules.merci:
        extras.append(
            _("merci used") if p.merci_used else (
                _("merci available") if p.merci_available else _("merci in the last deal")
            )
        )
    title = f"{rules.name()}, {deal}"
    lines = [DISPLAY_SEPARATOR.join([title, *extras])]
    lines.append(_("Foundations: {foundations}").format(foundations=foundations_text(p)))
    if p.cells:
        lines.append(_("Cells: {cells}").format(cells="  ".join(
            f"{i + 1}:{'-' if c is None else card_label(c)}" for i, c in enumerate(p.cells)
        )))
    for i, fan in enumerate(p.fans):
        lines.append(f"  {FAN_NAMES[i]}: " + (cards_text(fan) if fan else "-"))
    return "\n".join(lines)
