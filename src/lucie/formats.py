"""Text formats: layouts, move lists and saved games.

Layout text has one fan per line, bottom card first and top card last
(``KH 2S 8S``).  Optional header lines:

- ``Foundations: C-5 D-0 H-A S-Q`` gives the foundation tops; without it
  the foundations hold exactly the cards missing from the table, which must
  form an ace-up run in each suit;
- ``Cells: 7H - - -`` for variants with free cells (FreeCell Solver's
  ``Freecells:`` is read too);
- ``Redeals: 1`` (redeals left) and ``Merci: used`` for positions later in
  a game.

An empty fan is written ``-``; a fan line may start with ``:`` (FreeCell
Solver's style); lines starting with ``#`` are comments.  This reads the
layouts of lblsolve and, with the foundation line, of FreeCell Solver.

A **won** position is written as its header lines alone: ``Foundations:
C-K D-K H-K S-K`` (every card home), no fan line, and the ``Cells:``,
``Redeals:`` and ``Merci:`` lines as for any position, and
reads back as that won position: every position a game reaches has a
layout that round-trips.  A layout with no card on the table and no
Foundations line is still refused (an empty file, or only ``-`` lines, is
more likely a mistake than a won game).

>>> p = parse_layout("Foundations: C-Q D-K H-K S-K\\nKC", Rules())
>>> p.score, p.fans[0]
(51, (Card.parse('KC'),))
>>> print(format_layout(p))
Foundations: C-Q D-K H-K S-K
KC
>>> parse_layout("2C KC", Rules())  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
lucie.errors.LayoutError: without a Foundations line ... the C foundation would skip 2C
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from lucie.cards import CARD_TEXT, DECK, RANKS, SUIT_GLYPHS, SUITS, Card
from lucie.deals import check_deal_number
from lucie.engine import (  # the layout text is written by the engine (Position.__str__)
    FAN_NAMES,
    Game,
    Move,
    Position,
    format_foundations,
    format_layout,
    format_moves,
)
from lucie.errors import CardError, LayoutError, LucieError, MoveError, SaveFileError
from lucie.i18n import _
from lucie.parsing import excerpt, parse_int, parse_json, strip_bom
from lucie.rules import Rules

#: Version of the saved-game format written by this lucie.
SAVE_VERSION: Final = 1
SAVE_FORMAT: Final = "lucie-saved-game"
#: What separates the parts of the title line of the display for people
#: (``lucie show``, the game); no layout line holds it, so a layout reader
#: fed the display can say what it was given.
DISPLAY_SEPARATOR: Final = " · "


# ---------------------------------------------------------------------------
# Layouts
# ---------------------------------------------------------------------------


def _rank_of(token: str, line: str) -> int:
    t = token.upper()
    if t in ("0", "-", ""):
        return 0
    if t == "10":
        return 10
    if t in RANKS:
        return RANKS.index(t) + 1
    raise LayoutError(_("foundation line {line}: {token} is not a rank").format(
        line=excerpt(line), token=excerpt(token)
    ))


def _parse_foundations(line: str, body: str) -> tuple[int, int, int, int]:
    counts = [0, 0, 0, 0]
    seen: set[str] = set()
    if any(glyph in body for glyph in SUIT_GLYPHS):
        raise LayoutError(_(
            "foundation line {line}: this is the foundations as the game shows them; a layout "
            "writes them like C-5 D-0 H-A S-Q (what `lucie show --plain-layout` prints)"
        ).format(line=repr(line)))
    for token in body.split():
        suit, sep, rank = token.partition("-")
        suit = suit.upper()
        if not sep or suit not in SUITS:
            raise LayoutError(
                _("foundation line {line}: {token} is not like C-5 (suit-rank)")
                .format(line=excerpt(line), token=excerpt(token))
            )
        if suit in seen:
            raise LayoutError(_("foundation line {line}: suit {suit} given twice").format(
                line=excerpt(line), suit=suit
            ))
        seen.add(suit)
        counts[SUITS.index(suit)] = _rank_of(rank, line)
    return (counts[0], counts[1], counts[2], counts[3])


def _parse_cards_line(line: str, what: str) -> list[Card]:
    cards: list[Card] = []
    for token in line.split():
        try:
            cards.append(Card.parse(token))
        except CardError:
            raise LayoutError(_("{where}: {token} is not a card").format(
                where=what, token=excerpt(token)
            )) from None
    return cards


def _check_layout(
    rules: Rules,
    fans: list[list[Card]],
    foundations: tuple[int, int, int, int] | None,
    cells: list[Card | None] | None,
) -> tuple[tuple[int, int, int, int], list[Card | None]]:
    """Check that a layout's parts hold the 52 cards once each, within the
    variant's fans, cells and fan sizes; the foundations (implied by the
    cards on the table when no Foundations line was given) and the cells,
    filled up to the variant's number with empty ones."""
    if len(fans) > rules.num_fans:
        raise LayoutError(
            _("{given} fans in the layout, but {variant} has {fans}").format(
                given=len(fans), variant=rules.name(), fans=rules.num_fans
            )
        )
    if not fans and foundations is None:
        raise LayoutError(_("the layout is empty"))
    cell_list: list[Card | None] = list(cells) if cells is not None else []
    if len(cell_list) > rules.cells:
        raise LayoutError(_("{given} cells given, {variant} has {cells}").format(
            given=len(cell_list), variant=rules.name(), cells=rules.cells
        ))
    cell_list += [None] * (rules.cells - len(cell_list))
    on_table = [c for f in fans for c in f] + [c for c in cell_list if c is not None]
    seen: set[Card] = set()
    for card in on_table:
        if card in seen:
            raise LayoutError(_("{card} appears twice").format(card=card))
        seen.add(card)
    if foundations is None:
        if not on_table:
            raise LayoutError(_("the layout has no card on the table: there is nothing to "
                                "play"))
        foundations = _implied_foundations(seen)
    else:
        for card in on_table:
            if foundations[card.suit_index] >= card.rank:
                raise LayoutError(
                    _("{card} is on the table but the {suit} foundation already holds it")
                    .format(card=card, suit=card.suit)
                )
        missing = [
            str(c) for c in DECK
            if c not in seen and foundations[c.suit_index] < c.rank
        ]
        if missing:
            raise LayoutError(_("missing cards: {cards}").format(cards=" ".join(missing)))
    for i, fan in enumerate(fans):
        if rules.max_fan is not None and len(fan) > max(rules.max_fan, rules.fan_size):
            raise LayoutError(
                _("fan {fan} holds {n} cards, more than max_fan={most}").format(
                    fan=FAN_NAMES[i], n=len(fan), most=rules.max_fan
                )
            )
    return foundations, cell_list


def parse_layout(text: str, rules: Rules) -> Position:
    """Read a layout (see the module doc) into a starting position.

    Every problem is a :class:`LayoutError` that names it: an unknown card,
    a card given twice, a missing card, a foundation that skips a rank, too
    many fans for the variant, no card on the table and no Foundations line
    (with one that puts every card home, the layout is the won position).  A UTF-8
    byte-order mark at the start is skipped.
    """
    parts = _LayoutParts(rules, redeals_left=rules.redeals)
    for number, raw in enumerate(strip_bom(text).splitlines(), 1):
        line = raw.strip()
        if line and not line.startswith("#"):
            parts.read(line, _("line {number}").format(number=number))
    foundations, cell_list = _check_layout(rules, parts.fans, parts.foundations, parts.cells)
    # every card is now in exactly one place (checked above, with messages)
    start = Position.start(rules, parts.fans, foundations, cell_list)
    return dataclasses.replace(start, redeals_left=parts.redeals_left,
                               merci_used=parts.merci_used)


@dataclass(slots=True)
class _LayoutParts:
    """What the lines of a layout have said so far."""

    rules: Rules
    redeals_left: int
    fans: list[list[Card]] = dataclasses.field(default_factory=list)
    foundations: tuple[int, int, int, int] | None = None
    cells: list[Card | None] | None = None
    merci_used: bool = False

    def read(self, line: str, where: str) -> None:
        """One line (not blank, not a comment): a header or a fan."""
        head, colon, body = line.partition(":")
        key = head.strip().lower() if colon else ""
        if key in ("foundations", "founds"):
            if self.foundations is not None:
                raise LayoutError(_("{where}: a second Foundations line").format(where=where))
            self.foundations = _parse_foundations(line, body)
        elif key in ("cells", "freecells"):
            if self.cells is not None:
                raise LayoutError(_("{where}: a second Cells line").format(where=where))
            self.cells = [None if token == "-" else _parse_cards_line(token, where)[0]
                          for token in body.split()]
        elif key == "redeals":
            self.redeals_left = parse_int(
                body, what=_("{where}: redeals left").format(where=where),
                low=0, high=self.rules.redeals,
                error=LayoutError,
            )
        elif key == "merci":
            self.merci_used = _merci_used(body, where)
        else:
            _refuse_other_header(line, head if colon else "", where)
            fan_text = body if colon else line
            if fan_text.strip() == "-":
                self.fans.append([])
            else:
                self.fans.append(_parse_cards_line(fan_text, _("{where} (fan {number})").format(
                    where=where, number=len(self.fans) + 1
                )))


def _merci_used(body: str, where: str) -> bool:
    value = body.strip().lower()
    if value not in ("used", "available", "unused"):
        raise LayoutError(
            _("{where}: merci must be used or available, not {value}")
            .format(where=where, value=excerpt(value))
        )
    return value == "used"


def _refuse_other_header(line: str, head: str, where: str) -> None:
    """Refuse a line that is not a fan: a fan letter as the game shows it,
    an unknown header, the title line ``lucie show`` prints for people."""
    head = head.strip()
    if len(head) == 1 and head.lower() in FAN_NAMES:
        raise LayoutError(_(
            "{where}: {letter} is a fan letter, as the game shows it; a layout line "
            "is the cards only, bottom first (what `lucie show --plain-layout` prints)"
        ).format(where=where, letter=excerpt(head)))
    if head:
        raise LayoutError(_("{where}: unknown header {header}").format(
            where=where, header=excerpt(head)
        ))
    if DISPLAY_SEPARATOR.strip() in line:
        raise LayoutError(_(
            "{where}: this is the title line `lucie show` prints for people; a layout "
            "file is what `lucie show --plain-layout` prints"
        ).format(where=where))


def _implied_foundations(on_table: set[Card]) -> tuple[int, int, int, int]:
    counts = [0, 0, 0, 0]
    for suit in range(4):
        cards = DECK[suit * 13: suit * 13 + 13]
        absent = [c for c in cards if c not in on_table]
        n = len(absent)
        if absent != list(cards[:n]):
            high = absent[-1]
            low = next(c for c in cards if c in on_table)
            raise LayoutError(_(
                "without a Foundations line the cards missing from the table must be "
                "on the foundations, but {high} is missing while {low} is on the "
                "table: the {suit} foundation would skip {low}"
            ).format(high=high, low=low, suit=SUITS[suit]))
        counts[suit] = n
    return (counts[0], counts[1], counts[2], counts[3])


#: The text of each move met so far (there are a few thousand at most).
_MOVE_TEXT: dict[Move, str] = {}


def move_texts(moves: Iterable[Move]) -> list[str]:
    """``[str(m) for m in moves]``, each move's text worked out once.

    >>> move_texts([Move.parse("a>b"), Move.parse("a>b")])
    ['a>b', 'a>b']
    """
    known = _MOVE_TEXT
    out = []
    for m in moves:
        text = known.get(m)
        if text is None:
            text = known[m] = str(m)
        out.append(text)
    return out


def position_json(game: Game, legal: list[Move] | None = None) -> dict[str, Any]:
    """The position of a game as a JSON-ready dict (used by ``--json``).
    ``legal``: the game's legal moves, if already known."""
    p = game.position
    outcome = game.outcome
    card = CARD_TEXT
    return {
        "variant": p.rules.spec(),
        "variant_name": p.rules.name(),
        "deal": game.deal,
        "seed": game.seed,
        "fans": [[card[c] for c in fan] for fan in p.fans],
        "foundations": {SUITS[i]: n for i, n in enumerate(p.foundations)},
        "cells": [None if c is None else card[c] for c in p.cells],
        "redeals_left": p.redeals_left,
        "merci_available": p.merci_available,
        "merci_used": p.merci_used,
        "status": outcome.status,
        "score": outcome.score,
        "moves": move_texts(game.moves),
        "legal_moves": move_texts(game.legal_moves if legal is None else legal),
        "layout": format_layout(p),
    }


# ---------------------------------------------------------------------------
# Saved games
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SavedGame:
    """What a saved game file holds."""

    rules: Rules
    deal: int | None
    seed: int
    layout: str | None
    moves: tuple[Move, ...]


def game_to_json(game: Game) -> dict[str, Any]:
    """A game as a versioned JSON object; reloading replays the moves."""
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "variant": game.rules.spec(),
        "settings": game.rules.settings(),
        "deal": game.deal,
        "seed": game.seed,
        "moves": move_texts(game.moves),
        "resigned": game.resigned,
        "final": {"layout": format_layout(game.position, foundations=True),
                  "score": game.score, "status": game.outcome.status},
    }
    if game.deal is None:
        data["layout"] = format_layout(game.start, foundations=True)
    return data


def save_game(game: Game) -> str:
    """The saved-game text (JSON) of a game."""
    return json.dumps(game_to_json(game), indent=2) + "\n"


def game_from_json(data: object, base: Game | None = None) -> Game:
    """Rebuild a game from :func:`game_to_json` output by replaying its moves.

    ``base``: a copy of the same game held before (a site's process whose
    copy another process has played on): when the saved game is the same
    deal and its moves go on from ``base``'s (which has nothing to redo and
    is not resigned), only the moves after ``base``'s are replayed, on a
    fork of it, and checked the same way.  The game has the moves,
    positions, redeals and outcome a whole replay gives; its undo steps
    up to ``base``'s last move are ``base``'s (a whole replay makes a move
    and the autoplay moves that follow it one step, a game played live
    may have made them two).  ``base`` is left as it was.

    Raises :class:`SaveFileError` naming what is wrong: not a lucie saved
    game, a newer format version, a missing or bad field, a move that does
    not replay, or a final position that differs from the recorded one.
    """
    if not isinstance(data, dict):
        raise SaveFileError(_("not a lucie saved game (expected a JSON object)"))
    _check_save_version(data)
    caught_up = _catch_up(data, base) if base is not None else None
    game, moves = caught_up if caught_up is not None else _saved_start(data)
    try:
        game.push_all(moves, first=len(game.moves) + 1)
    except MoveError as exc:
        raise SaveFileError(
            _("the saved game does not replay: {why}").format(why=exc)
        ) from None
    if data.get("resigned"):
        game.resign()
    final = data.get("final")
    if (
        isinstance(final, dict)
        and isinstance(final.get("layout"), str)
        and final["layout"] != format_layout(game.position, foundations=True)
    ):
        raise SaveFileError(
            _("the saved game was edited: its moves do not lead to the position it records")
        )
    return game


def _catch_up(data: dict[str, Any], base: Game) -> tuple[Game, list[str]] | None:
    """A fork of ``base`` and the saved moves still to play on it, if the
    saved game (``data``, of a numbered deal) goes on from ``base``; else
    None (the whole game is replayed)."""
    moves = data.get("moves")
    deal = data.get("deal")
    settings = data.get("settings")
    if (base.resigned or base.can_redo or base.deal is None or not isinstance(deal, int)
            or isinstance(deal, bool) or deal != base.deal or data.get("seed") != base.seed
            or not isinstance(moves, list) or len(moves) < len(base.moves)
            or not all(isinstance(m, str) for m in moves) or not isinstance(settings, dict)):
        return None
    try:
        if Rules.from_settings(settings) != base.rules:
            return None
    except LucieError:
        return None  # (the whole replay names the problem)
    if moves[:len(base.moves)] != move_texts(base.moves):
        return None
    return base.fork(), moves[len(base.moves):]


def _check_save_version(data: dict[str, Any]) -> None:
    """Refuse what is not a lucie saved game of a format version this
    lucie reads."""
    if data.get("format") != SAVE_FORMAT:
        raise SaveFileError(
            _("not a lucie saved game (format is {format})").format(
                format=excerpt(data.get("format"))
            )
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveFileError(_("the saved game has no format version"))
    if version < 1:
        raise SaveFileError(
            _("the saved game has format version {version}: versions start at 1").format(
                version=excerpt(version)
            )
        )
    if version > SAVE_VERSION:
        raise SaveFileError(_(
            "the saved game is format version {version}, newer than this lucie "
            "understands ({known}): upgrade lucie to load it"
        ).format(version=version, known=SAVE_VERSION))


def _saved_start(data: dict[str, Any]) -> tuple[Game, list[str]]:
    """A saved game's start (its deal, or its layout and seed) and its moves,
    not yet played."""
    try:
        settings = data["settings"]
        if not isinstance(settings, dict):
            raise SaveFileError(_("field {field} is not an object").format(field="'settings'"))
        rules = Rules.from_settings(settings)
        seed = check_deal_number(data["seed"])
        deal_value = data.get("deal")
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise SaveFileError(
                _("field {field} is not a list of moves").format(field="'moves'")
            )
        if deal_value is not None:
            return Game(rules, check_deal_number(deal_value)), moves
        layout = data.get("layout")
        if not isinstance(layout, str):
            raise SaveFileError(
                _("a game without a deal number needs its {field}").format(field="'layout'")
            )
        return Game(rules, position=parse_layout(layout, rules), seed=seed), moves
    except KeyError as exc:
        raise SaveFileError(
            _("the saved game has no field {field}").format(field=excerpt(exc.args[0]))
        ) from None
    except SaveFileError:
        raise
    except LucieError as exc:
        raise SaveFileError(_("the saved game is damaged: {why}").format(why=exc)) from None


def load_game(text: str | bytes) -> Game:
    """Load a saved game from its text (see :func:`game_from_json`).

    The text is read by :func:`lucie.parsing.parse_json`: a byte-order mark
    is skipped; invalid JSON, deep nesting or absurd numbers are a
    :class:`SaveFileError`.
    """
    data = parse_json(text, what=_("the saved game"), error=SaveFileError)
    return game_from_json(data)


__all__ = [
    "SAVE_VERSION", "SavedGame", "format_foundations", "format_layout",
    "format_moves",
    "game_from_json", "game_to_json", "load_game", "parse_layout", "position_json",
    "save_game",
]
