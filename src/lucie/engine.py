"""The engine: positions, moves, legal moves and games with history.

A :class:`Position` is an immutable snapshot of the table; a :class:`Move`
is a small value with a text form (``c>g``, ``c>f``, ``c>1``, ``1>g``,
``R``, ``7H>g``).  A :class:`Game` keeps the history and the deal's random
generator, so undo, redo and redeals replay exactly.

>>> game = Game(Rules(), deal=1)
>>> game.position.fans[0]
(Card.parse('JD'), Card.parse('KS'), Card.parse('4S'))
>>> game.legal_moves
<LegalMoves: b>e f>i g>F m>p p>n R>
>>> game.push("f>i")
Move.parse('f>i')
>>> game.position.fans[8]
(Card.parse('KD'), Card.parse('5C'), Card.parse('8D'), Card.parse('7D'))
>>> game.pop()
Move.parse('f>i')
>>> game.push("a>b")
Traceback (most recent call last):
...
lucie.errors.MoveError: a>b: 4♠ cannot go on 10♥ (fans build down in suit)

A player's move is played with :meth:`Game.play`: the move and the safe
foundation moves autoplay makes after it form one :class:`Step`, which
:meth:`Game.undo_step` takes back whole and :meth:`Game.redo_step` replays
(``push``/``pop`` stay one move each, for the solver and for replays):

>>> game = Game(Rules(), deal=2)
>>> step = game.play("h>f")
>>> step.text
'A♦ from fan h to the foundation; autoplay sent 3 cards home: A♠ 2♠ 3♠'
>>> game.undo_step().moves
(Move.parse('h>f'), Move.parse('o>f'), Move.parse('b>f'), Move.parse('c>f'))
>>> game.score
0

Every interface asks this module what is legal and applies moves through it;
no other module moves a card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from lucie.cards import (
    ACE,
    CARD_TEXT,
    DECK,
    KING,
    RANKS,
    SUITS,
    Card,
    card_label,
    format_cards,
    suit_name,
)
from lucie.deals import (
    RandomState,
    Shuffler,
    check_deal_number,
    deal_layout,
    lay_out,
    random_deal_number,
    redeal_fans,
    shuffled_deck,
)
from lucie.errors import CardError, LucieError, MoveError
from lucie.i18n import N_, _, ngettext, pgettext
from lucie.parsing import excerpt
from lucie.rules import Rules

SourceKind = Literal["fan", "cell", "card", "redeal"]
TargetKind = Literal["fan", "cell", "foundation", "none"]
Status = Literal["playing", "won", "lost", "resigned"]

#: Fan names in deal order.
FAN_NAMES: Final = "abcdefghijklmnopqrstuvwxyz"

_BUILD_WORDS: Final = {
    ("suit", "down"): N_("fans build down in suit"),
    ("suit", "updown"): N_("fans build up or down in suit"),
    ("alternate", "down"): N_("fans build down in alternate colours"),
    ("alternate", "updown"): N_("fans build up or down in alternate colours"),
    ("any", "down"): N_("fans build down regardless of suit"),
    ("any", "updown"): N_("fans build up or down regardless of suit"),
}


def status_name(status: str) -> str:
    """A game's status (:data:`Status`, also the store's codes) as a word of
    the language in use; a code it does not know is returned as it is.

    >>> status_name("resigned"), status_name("?")
    ('resigned', '?')
    """
    words = {
        "playing": pgettext("game status", "playing"),
        "won": pgettext("game status", "won"),
        "lost": pgettext("game status", "lost"),
        "resigned": pgettext("game status", "resigned"),
    }
    return words.get(status, status)


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """One move, in the notation of ``ARCHITECTURE.md``.

    A target ``f`` is the foundation; the fan named f is written ``F`` as a
    target (``d>F``), the only letter whose case matters.  Sources, and
    the other fan letters, may be given in either case.

    ``src_kind``/``src``: a fan index, a cell index, a card (merci or
    foundation take-back), or the redeal.  ``dst_kind``/``dst``: a fan
    index, a cell index, the foundation, or nothing (redeal).

    >>> Move.parse("c>g"), Move.parse("C>f"), Move.parse("c>1"), Move.parse("2>f")
    (Move.parse('c>g'), Move.parse('c>f'), Move.parse('c>1'), Move.parse('2>f'))
    >>> Move.parse("d>F").dst_kind, Move.parse("d>f").dst_kind
    ('fan', 'foundation')
    >>> str(Move.parse("10h>b")), str(Move.parse("r"))
    ('TH>b', 'R')
    """

    src_kind: SourceKind
    src: int
    dst_kind: TargetKind
    dst: int

    # -- constructors -------------------------------------------------------

    @classmethod
    def to_foundation(cls, fan: int) -> Move:
        return cls("fan", fan, "foundation", -1)

    @classmethod
    def build(cls, fan: int, onto: int) -> Move:
        return cls("fan", fan, "fan", onto)

    @classmethod
    def to_cell(cls, fan: int, cell: int) -> Move:
        return cls("fan", fan, "cell", cell)

    @classmethod
    def from_cell(cls, cell: int, fan: int | None) -> Move:
        """Cell to fan ``fan``, or to the foundation when ``fan`` is None."""
        if fan is None:
            return cls("cell", cell, "foundation", -1)
        return cls("cell", cell, "fan", fan)

    @classmethod
    def card_to_fan(cls, card: Card, fan: int) -> Move:
        """A merci (buried card) or a take-back (foundation top) onto ``fan``."""
        return cls("card", int(card), "fan", fan)

    @classmethod
    def redeal(cls) -> Move:
        return REDEAL

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a move in text form; raises :class:`MoveError` if malformed."""
        token = text.strip()
        if token.upper() == "R":
            return REDEAL
        src_text, sep, dst_text = token.partition(">")
        src_text, dst_text = src_text.strip(), dst_text.strip()
        if not sep or not src_text or not dst_text:
            raise MoveError(
                _("{text} is not a move (expected like c>g, c>f, c>1, 1>g, 7H>g or R)")
                .format(text=excerpt(text))
            )
        src_kind: SourceKind
        if len(src_text) == 1 and src_text.lower() in FAN_NAMES:
            src_kind, src = "fan", FAN_NAMES.index(src_text.lower())
        elif src_text.isascii() and src_text.isdigit() and len(src_text) <= 3:
            src_kind, src = "cell", int(src_text) - 1
            if src < 0:
                raise MoveError(_("{text}: cells are numbered from 1").format(text=excerpt(text)))
        else:
            try:
                src_kind, src = "card", int(Card.parse(src_text))
            except CardError:
                raise MoveError(
                    _("{text}: {source} is neither a fan letter, a cell number nor a card")
                    .format(text=excerpt(text), source=excerpt(src_text))
                ) from None
        dst_kind: TargetKind
        if dst_text == "f":
            dst_kind, dst = "foundation", -1
        elif len(dst_text) == 1 and dst_text.lower() in FAN_NAMES:
            dst_kind, dst = "fan", FAN_NAMES.index(dst_text.lower())
        elif dst_text.isascii() and dst_text.isdigit() and len(dst_text) <= 3 \
                and int(dst_text) >= 1:
            dst_kind, dst = "cell", int(dst_text) - 1
        else:
            raise MoveError(
                _("{text}: {target} is neither a fan letter, f nor a cell number")
                .format(text=excerpt(text), target=excerpt(dst_text))
            )
        if src_kind == "card" and dst_kind != "fan":
            raise MoveError(
                _("{text}: a lifted card can only go onto a fan").format(text=excerpt(text))
            )
        if src_kind == "cell" and dst_kind == "cell":
            raise MoveError(_("{move}: {why}").format(
                move=excerpt(text), why=_("cards do not move from cell to cell")
            ))
        return cls(src_kind, src, dst_kind, dst)

    def __str__(self) -> str:
        if self.src_kind == "redeal":
            return "R"
        if self.src_kind == "fan":
            src = FAN_NAMES[self.src]
        elif self.src_kind == "cell":
            src = str(self.src + 1)
        else:
            src = str(Card(self.src))
        if self.dst_kind == "foundation":
            dst = "f"
        elif self.dst_kind == "fan":
            dst = "F" if self.dst == _FAN_F else FAN_NAMES[self.dst]
        else:
            dst = str(self.dst + 1)
        return f"{src}>{dst}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @property
    def is_redeal(self) -> bool:
        return self.src_kind == "redeal"

    @property
    def card_source(self) -> Card | None:
        """The lifted card of a merci or take-back move, else None."""
        return Card(self.src) if self.src_kind == "card" else None


REDEAL: Final = Move("redeal", -1, "none", -1)
_FAN_F: Final = FAN_NAMES.index("f")


def parse_moves(text: str | Iterable[str]) -> list[Move]:
    """Parse moves separated by spaces or commas (or already split).

    >>> parse_moves("a>f, b>c R")
    [Move.parse('a>f'), Move.parse('b>c'), Move.parse('R')]
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [Move.parse(t) for t in tokens]


def format_moves(moves: Iterable[Move]) -> str:
    """Moves as text separated by spaces."""
    return " ".join(str(m) for m in moves)


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable snapshot of the table.

    ``fans`` bottom card first (the last card is the playable top);
    ``foundations`` the number of cards on each suit's foundation in the
    order C, D, H, S; ``cells`` one entry per free cell.
    """

    rules: Rules
    fans: tuple[tuple[Card, ...], ...]
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)
    cells: tuple[Card | None, ...] = ()
    redeals_left: int = 0
    merci_used: bool = False

    # -- construction -------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, number: int) -> Position:
        """The starting position of deal ``number`` (as PySolFC lays it out)."""
        fans, foundations, _shuffler = deal_layout(rules, number)
        return cls.start(rules, fans, foundations)

    @classmethod
    def start(
        cls,
        rules: Rules,
        fans: Sequence[Sequence[Card]],
        foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
        cells: Sequence[Card | None] | None = None,
    ) -> Position:
        """A starting position with every redeal (and the merci) still to use."""
        padded = [tuple(f) for f in fans] + [()] * (rules.num_fans - len(fans))
        return cls(
            rules,
            tuple(padded),
            foundations,
            tuple(cells) if cells is not None else (None,) * rules.cells,
            rules.redeals,
            False,
        )

    def __post_init__(self) -> None:
        rules = self.rules
        if len(self.fans) != rules.num_fans:
            raise LucieError(_("{given} fans given, {expected} expected").format(
                given=len(self.fans), expected=rules.num_fans
            ))
        if len(self.cells) != rules.cells:
            raise LucieError(_("{given} cells given, {expected} expected").format(
                given=len(self.cells), expected=rules.cells
            ))
        if not 0 <= self.redeals_left <= rules.redeals:
            raise LucieError(
                _("redeals left {left} is not between 0 and {redeals}")
                .format(left=self.redeals_left, redeals=rules.redeals)
            )
        if any(not 0 <= n <= 13 for n in self.foundations):
            raise LucieError(_("foundation counts {counts} out of range").format(
                counts=self.foundations
            ))

    def check_cards(self) -> None:
        """Raise :class:`LucieError` unless each of the 52 cards is in exactly
        one place (fans, cells, foundations)."""
        seen: dict[Card, str] = {}
        problems: list[str] = []
        places = [
            (_("fan {fan}").format(fan=FAN_NAMES[i]), fan) for i, fan in enumerate(self.fans)
        ] + [(_("the cells"), tuple(c for c in self.cells if c is not None))]
        for suit, count in enumerate(self.foundations):
            places.append(
                (_("the {suit} foundation").format(suit=SUITS[suit]),
                 tuple(DECK[suit * 13: suit * 13 + count]))
            )
        for where, cards in places:
            for card in cards:
                if card in seen:
                    problems.append(_("{card} is twice ({first} and {second})").format(
                        card=card, first=seen[card], second=where
                    ))
                seen[card] = where
        missing = [str(c) for c in DECK if c not in seen]
        if missing:
            problems.append(_("missing: {cards}").format(cards=" ".join(missing)))
        if problems:
            raise LucieError("; ".join(problems))

    # -- facts --------------------------------------------------------------

    @property
    def score(self) -> int:
        """Cards on the foundations (0..52)."""
        return sum(self.foundations)

    @property
    def is_won(self) -> bool:
        return sum(self.foundations) == 52

    @property
    def merci_available(self) -> bool:
        """Whether the merci may still be used at some point in this deal."""
        return self.rules.merci and not self.merci_used and self.redeals_left == 0

    def top(self, fan: int) -> Card | None:
        f = self.fans[fan]
        return f[-1] if f else None

    def foundation_top(self, suit: int) -> Card | None:
        n = self.foundations[suit]
        return DECK[suit * 13 + n - 1] if n else None

    def goes_to_foundation(self, card: Card) -> bool:
        return self.foundations[card.suit_index] == card.rank - 1

    def where(self, card: Card) -> tuple[str, int]:
        """Where a card is: ``("fan", i)``, ``("cell", i)`` or ``("foundation", suit)``."""
        for i, fan in enumerate(self.fans):
            if card in fan:
                return ("fan", i)
        for i, cell in enumerate(self.cells):
            if cell == card:
                return ("cell", i)
        return ("foundation", card.suit_index)

    def cards_in_play(self) -> int:
        return 52 - self.score

    def key(self) -> tuple[object, ...]:
        """A canonical key for transpositions: fan order does not matter."""
        return (
            tuple(sorted(f for f in self.fans if f)),
            self.foundations,
            tuple(sorted(int(c) for c in self.cells if c is not None)),
            self.redeals_left,
            self.merci_used,
        )

    # -- legal moves --------------------------------------------------------

    def _plain_moves(self) -> list[Move]:
        """Every legal move except the redeal and the merci: to the
        foundations, builds, the cells' moves, take-backs, in that order."""
        moves = self._home_moves()
        moves.extend(self._build_moves())
        if self.cells:
            moves.extend(self._cell_moves())
        if self.rules.foundation_takeback:
            moves.extend(self._takeback_moves())
        return moves

    def _home_moves(self) -> list[Move]:
        """The fans' tops, then the cells' cards, that go to the foundations."""
        found = self.foundations
        moves: list[Move] = []
        for i, fan in enumerate(self.fans):
            if fan and found[fan[-1] // 13] == fan[-1] % 13:
                moves.append(Move("fan", i, "foundation", -1))
        for i, cell in enumerate(self.cells):
            if cell is not None and found[cell // 13] == cell % 13:
                moves.append(Move("cell", i, "foundation", -1))
        return moves

    def _build_moves(self) -> list[Move]:
        """A fan's top onto another fan (one with room, or an empty one the
        rules let it fill), by fan order."""
        rules = self.rules
        fans = self.fans
        tops: dict[Card, int] = {}
        empties: list[int] = []
        for j, fan in enumerate(fans):
            if fan:
                tops[fan[-1]] = j
            else:
                empties.append(j)
        homes = rules.homes()
        max_fan = rules.max_fan
        moves: list[Move] = []
        for i, fan in enumerate(fans):
            if not fan:
                continue
            card = fan[-1]
            targets = [tops[h] for h in homes[card] if h in tops]
            if max_fan is not None:
                targets = [j for j in targets if len(fans[j]) < max_fan]
            if empties and rules.accepts((), card):
                targets.extend(empties)
            for j in sorted(targets):
                if j != i:
                    moves.append(Move("fan", i, "fan", j))
        return moves

    def _cell_moves(self) -> list[Move]:
        """A fan's top into each free cell, then a cell's card onto a fan."""
        fans = self.fans
        accepts = self.rules.accepts
        free = [i for i, c in enumerate(self.cells) if c is None]
        moves = [Move("fan", i, "cell", c) for i, fan in enumerate(fans) if fan for c in free]
        for ci, cell in enumerate(self.cells):
            if cell is not None:
                moves.extend(
                    Move("cell", ci, "fan", j) for j, fan in enumerate(fans)
                    if accepts(fan, cell)
                )
        return moves

    def _takeback_moves(self) -> list[Move]:
        """A foundation's top card back onto a fan that accepts it."""
        accepts = self.rules.accepts
        moves: list[Move] = []
        for suit in range(4):
            ftop = self.foundation_top(suit)
            if ftop is not None:
                moves.extend(
                    Move("card", int(ftop), "fan", j) for j, fan in enumerate(self.fans)
                    if accepts(fan, ftop)
                )
        return moves

    def _merci_moves(self) -> list[Move]:
        moves: list[Move] = []
        max_fan = self.rules.max_fan
        for i, fan in enumerate(self.fans):
            # a fan never holds more than max_fan: the card goes back on its
            # own fan, or onto one with room
            targets = [
                j for j, f in enumerate(self.fans)
                if f and (j == i or max_fan is None or len(f) < max_fan)
            ]
            for card in fan[:-1]:
                for j in targets:
                    moves.append(Move("card", int(card), "fan", j))
        return moves

    def legal_moves(self) -> list[Move]:
        """Every legal move: foundation moves first, then builds, cells,
        take-backs, the merci, the redeal."""
        moves = self._plain_moves()
        rules = self.rules
        if self.merci_available and (not rules.redeal_only_when_stuck or not moves):
            moves.extend(self._merci_moves())
        if self.redeals_left and self.cards_in_play() and (
            not rules.redeal_only_when_stuck or not moves
        ):
            moves.append(REDEAL)
        return moves

    def has_moves(self) -> bool:
        """Whether any move is legal, without listing the (many) merci moves.

        Same answer as ``bool(self.legal_moves())``: a merci needs a buried
        card (it may go back onto its own fan), and when neither a plain move
        nor a merci exists the strict rule allows the redeal too.
        """
        if self._plain_moves():
            return True
        if self.merci_available and any(len(f) > 1 for f in self.fans):
            return True
        return bool(self.redeals_left and self.cards_in_play())

    def status(self) -> Status:
        """``won``, ``lost`` (no move left) or ``playing``."""
        if self.is_won:
            return "won"
        return "playing" if self.has_moves() else "lost"

    def why_illegal(self, move: Move) -> str | None:
        """None if ``move`` is legal here, else why not (in words).

        >>> p = Position.deal(Rules(), 1)
        >>> p.why_illegal(Move.parse("a>f"))
        '4♠ cannot go to the foundation: the spades foundation needs A♠ next'
        """
        if move.src_kind == "redeal":
            return self._why_no_redeal()
        if move.src_kind == "card":
            return self._why_card_cannot_move(move, Card(move.src))
        why = self._why_no_card_at_source(move)
        if why is not None:
            return why
        card = self.moving_card(move)
        assert card is not None
        return self._check_target(move, card)

    def _why_no_redeal(self) -> str | None:
        if self.redeals_left == 0:
            return _("no redeal left")
        if self.cards_in_play() == 0:
            return _("no card left to redeal")
        if self.rules.redeal_only_when_stuck and self._plain_moves():
            return _("redeal only when no move is left (strict rule), and moves remain")
        return None

    def _why_no_card_at_source(self, move: Move) -> str | None:
        """Why a move from a fan or a cell has no card to move (None: it has)."""
        if move.src_kind == "fan":
            if not 0 <= move.src < len(self.fans):
                return _("there is no fan {fan}").format(fan=_fan_name(move.src))
            if not self.fans[move.src]:
                return _("fan {fan} is empty").format(fan=FAN_NAMES[move.src])
            return None
        if not 0 <= move.src < len(self.cells):
            return _no_cell(move.src, len(self.cells))
        if self.cells[move.src] is None:
            return _("cell {cell} is empty").format(cell=move.src + 1)
        return None

    def _why_card_cannot_move(self, move: Move, card: Card) -> str | None:
        """A move of a card named by itself: a take-back from its foundation
        or the merci of a buried card (None: it is legal)."""
        kind, where = self.where(card)
        if kind == "cell":
            return _("{card} is in a cell: move it by its cell number").format(
                card=card_label(card))
        if kind == "foundation":
            return self._why_no_takeback(move, card)
        if self.fans[where][-1] == card:
            return _("{card} is the top of fan {fan}: move it by its fan letter").format(
                card=card_label(card), fan=FAN_NAMES[where]
            )
        return self._why_no_merci_move(move, card, where)

    def _why_no_takeback(self, move: Move, card: Card) -> str | None:
        if self.foundations[card.suit_index] < card.rank:
            return _("{card} is not on the table").format(  # pragma: no cover
                card=card_label(card))
        if self.foundation_top(card.suit_index) != card:
            return _("{card} is not the top of its foundation").format(
                card=card_label(card))
        if not self.rules.foundation_takeback:
            return _("cards never come back from the foundations in this variant")
        return self._check_target(move, card)

    def _why_no_merci_move(self, move: Move, card: Card, where: int) -> str | None:
        """The merci of ``card``, buried in fan ``where``, onto a fan."""
        rules = self.rules
        if not rules.merci:
            return _("{card} is buried under other cards (only top cards move)").format(
                card=card_label(card)
            )
        if self.merci_used:
            return _("the merci has already been used")
        if self.redeals_left:
            return _("the merci is only allowed in the last deal")
        if rules.redeal_only_when_stuck and self._plain_moves():
            return _("the merci only when no move is left (strict rule), and moves remain")
        if move.dst_kind != "fan":
            return _("{card} is lifted by the merci: it goes onto a fan, not elsewhere")\
                .format(card=card_label(card))
        if not 0 <= move.dst < len(self.fans):
            return _("there is no fan {fan}").format(fan=_fan_name(move.dst))
        if not self.fans[move.dst]:
            return _("fan {fan} is empty: the merci card goes on a fan").format(
                fan=FAN_NAMES[move.dst]
            )
        max_fan = rules.max_fan
        if max_fan is not None and move.dst != where and len(self.fans[move.dst]) >= max_fan:
            return _fan_full(FAN_NAMES[move.dst], max_fan)
        return None

    def _check_target(self, move: Move, card: Card) -> str | None:
        """Why ``card`` cannot go where ``move`` sends it (None: it can)."""
        if move.dst_kind == "foundation":
            return self._why_not_home(card)
        if move.dst_kind == "cell":
            return self._why_not_in_cell(move)
        if not 0 <= move.dst < len(self.fans):
            return _("there is no fan {fan}").format(fan=_fan_name(move.dst))
        if move.src_kind == "fan" and move.dst == move.src:
            return _("a card cannot move onto its own fan")
        return self._why_not_on_fan(move.dst, card)

    def _why_not_home(self, card: Card) -> str | None:
        need = self.foundations[card.suit_index]
        if need == card.rank - 1:
            return None
        if need == 13:
            return _("the {suit} foundation is complete").format(
                suit=suit_name(card.suit_index))
        nxt = Card.of(need + 1, card.suit)
        return _(
            "{card} cannot go to the foundation: the {suit} foundation needs {next} next"
        ).format(card=card_label(card), suit=suit_name(card.suit_index),
                 next=card_label(nxt))

    def _why_not_in_cell(self, move: Move) -> str | None:
        if move.src_kind == "cell":
            return _("cards do not move from cell to cell")
        if not 0 <= move.dst < len(self.cells):
            return _no_cell(move.dst, len(self.cells))
        if self.cells[move.dst] is not None:
            return _("cell {cell} is taken").format(cell=move.dst + 1)
        return None

    def _why_not_on_fan(self, dst: int, card: Card) -> str | None:
        rules = self.rules
        target = self.fans[dst]
        if rules.accepts(target, card):
            return None
        name = FAN_NAMES[dst]
        if not target:
            if rules.empty_fill == "none":
                return _("fan {fan} is empty, and an empty fan stays empty").format(fan=name)
            return _("only a king may fill the empty fan {fan}").format(fan=name)
        if rules.max_fan is not None and len(target) >= rules.max_fan:
            return _fan_full(name, rules.max_fan)
        top = target[-1]
        if card.rank == KING and rules.direction == "down":
            return _("{card}: a king never goes onto a fan").format(card=card_label(card))
        return _("{card} cannot go on {top} ({why})").format(
            card=card_label(card), top=card_label(top),
            why=_(_BUILD_WORDS[(rules.build, rules.direction)]),
        )

    def is_legal(self, move: Move) -> bool:
        return self.why_illegal(move) is None

    def moving_card(self, move: Move) -> Card | None:
        """The card that ``move`` moves here (None for the redeal or an
        empty source).

        >>> Position.deal(Rules(), 1).moving_card(Move.parse("f>i"))
        Card.parse('7D')
        """
        if move.src_kind == "fan":
            return self.top(move.src) if 0 <= move.src < len(self.fans) else None
        if move.src_kind == "cell":
            return self.cells[move.src] if 0 <= move.src < len(self.cells) else None
        if move.src_kind == "card":
            return Card(move.src)
        return None

    def moves_from(self, src_kind: SourceKind, src: int) -> list[Move]:
        """The legal moves of one picked card: the top of fan ``src``, cell
        ``src``, or the card ``Card(src)`` (merci or take-back)."""
        return [m for m in self.legal_moves() if m.src_kind == src_kind and m.src == src]

    def merci_moves(self) -> list[Move]:
        """The legal merci moves (a buried card lifted onto a fan)."""
        if not self.merci_available:
            return []
        return [
            m for m in self.legal_moves()
            if m.src_kind == "card" and self.where(Card(m.src))[0] == "fan"
        ]

    def why_no_merci(self) -> str | None:
        """None if a merci can be played now, else why not (in words).

        >>> Position.deal(Rules.parse("classic"), 1).why_no_merci()
        'this variant has no merci'
        """
        rules = self.rules
        if not rules.merci:
            return _("this variant has no merci")
        if self.merci_used:
            return _("the merci has already been used")
        if self.redeals_left:
            n = self.redeals_left
            return ngettext(
                "the merci is only allowed in the last deal ({n} redeal left)",
                "the merci is only allowed in the last deal ({n} redeals left)",
                n,
            ).format(n=n)
        if self.merci_moves():
            return None
        if rules.redeal_only_when_stuck and self._plain_moves():
            return _("the merci only when no other move is left (strict rule)")
        return _("no buried card to lift")

    # -- applying moves -----------------------------------------------------

    def apply(self, move: Move) -> Position:
        """The position after a legal non-redeal move (unchecked: call
        :meth:`why_illegal` first, or use :meth:`play`)."""
        if move.src_kind == "redeal":
            raise MoveError("a redeal needs the game's shuffler: use Game.push or Position.redeal")
        fans = list(self.fans)
        cells = list(self.cells)
        found = list(self.foundations)
        merci_used = self.merci_used
        card: Card
        if move.src_kind == "fan":
            fan = fans[move.src]
            card = fan[-1]
            fans[move.src] = fan[:-1]
        elif move.src_kind == "cell":
            cell = cells[move.src]
            assert cell is not None
            card = cell
            cells[move.src] = None
        else:
            card = Card(move.src)
            if self.foundations[card.suit_index] >= card.rank:
                found[card.suit_index] -= 1
            else:
                i = next(i for i, f in enumerate(fans) if card in f)
                fan = fans[i]
                k = fan.index(card)
                fans[i] = fan[:k] + fan[k + 1:]
                merci_used = True
        if move.dst_kind == "foundation":
            found[card.suit_index] += 1
        elif move.dst_kind == "cell":
            cells[move.dst] = card
        else:
            fans[move.dst] = fans[move.dst] + (card,)
        return Position(
            self.rules, tuple(fans), (found[0], found[1], found[2], found[3]),
            tuple(cells), self.redeals_left, merci_used,
        )

    def play(self, move: Move) -> Position:
        """Check then apply a non-redeal move; raises :class:`MoveError`."""
        why = self.why_illegal(move)
        if why is not None:
            raise MoveError(_("{move}: {why}").format(move=move, why=why), reason=why)
        return self.apply(move)

    def gather(self) -> list[Card]:
        """The redeal pile: each fan's cards bottom to top in fan order,
        then the cells in order (``docs/rules.md#the-redeal-exactly``)."""
        pile = [c for fan in self.fans for c in fan]
        pile.extend(c for c in self.cells if c is not None)
        return pile

    def redeal(self, shuffler: Shuffler) -> Position:
        """The position after a redeal shuffled by ``shuffler`` (advanced)."""
        rules = self.rules
        fans = redeal_fans(self.gather(), shuffler, rules.fan_size, rules.num_fans)
        return Position(
            rules, tuple(tuple(f) for f in fans), self.foundations,
            (None,) * len(self.cells), self.redeals_left - 1, self.merci_used,
        )

    # -- description ----------------------------------------------------------

    def describe(self, move: Move) -> str:
        """A sentence saying what a (legal) move does.

        >>> Position.deal(Rules(), 2).describe(Move.parse("h>f"))
        'A♦ from fan h to the foundation'
        """
        if move.src_kind == "redeal":
            n = self.cards_in_play()
            return ngettext("redeal the {n} card left", "redeal the {n} cards left", n).format(n=n)
        if move.src_kind == "fan":
            card = self.fans[move.src][-1]
            src = _("from fan {fan}").format(fan=FAN_NAMES[move.src])
        elif move.src_kind == "cell":
            cell = self.cells[move.src]
            assert cell is not None
            card, src = cell, _("from cell {cell}").format(cell=move.src + 1)
        else:
            card = Card(move.src)
            kind, where = self.where(card)
            if kind == "foundation":
                src = _("back from its foundation")
            else:
                src = _("lifted from fan {fan} (the merci)").format(fan=FAN_NAMES[where])
        if move.dst_kind == "foundation":
            dst = _("to the foundation")
        elif move.dst_kind == "cell":
            dst = _("to cell {cell}").format(cell=move.dst + 1)
        else:
            target = self.fans[move.dst]
            dst = (
                _("onto {card} in fan {fan}").format(
                    card=card_label(target[-1]), fan=FAN_NAMES[move.dst])
                if target else
                _("into the empty fan {fan}").format(fan=FAN_NAMES[move.dst])
            )
        return pgettext("move description: card, from where, to where",
                        "{card} {source} {target}").format(
                            card=card_label(card), source=src, target=dst)

    def __str__(self) -> str:
        return format_layout(self)


def format_foundations(position: Position) -> str:
    """``C-5 D-0 H-A S-Q``."""
    parts = []
    for suit, n in enumerate(position.foundations):
        parts.append(f"{SUITS[suit]}-{RANKS[n - 1] if n else '0'}")
    return " ".join(parts)


def format_layout(position: Position, *, foundations: bool | None = None) -> str:
    """Layout text of a position (parsed back by
    :func:`lucie.formats.parse_layout`).

    The ``Foundations:`` line is written when a foundation holds a card
    (or always with ``foundations=True``); trailing empty fans are left out.
    """
    lines: list[str] = []
    if foundations or (foundations is None and position.score):
        lines.append("Foundations: " + format_foundations(position))
    if position.cells:
        lines.append(
            "Cells: " + " ".join("-" if c is None else CARD_TEXT[c] for c in position.cells)
        )
    rules = position.rules
    if position.redeals_left != rules.redeals:
        lines.append(f"Redeals: {position.redeals_left}")
    if position.merci_used:
        lines.append("Merci: used")
    fans = list(position.fans)
    while fans and not fans[-1]:
        fans.pop()
    text = CARD_TEXT
    for fan in fans:
        lines.append(" ".join([text[c] for c in fan]) if fan else "-")
    return "\n".join(lines)


def _fan_name(index: int) -> str:
    return FAN_NAMES[index] if 0 <= index < len(FAN_NAMES) else str(index)


def _no_cell(index: int, count: int) -> str:
    if count == 0:
        return _("this variant has no cells")
    return _("there is no cell {cell} (cells 1 to {count})").format(cell=index + 1, count=count)


def _fan_full(name: str, most: int) -> str:
    return ngettext(
        "fan {fan} is full ({n} card at most)", "fan {fan} is full ({n} cards at most)", most
    ).format(fan=name, n=most)


def safe_foundation_moves(position: Position) -> Iterator[Move]:
    """Foundation moves that can never hurt (:meth:`Rules.home_is_safe`):
    every card that could ever come to rest on the moving card could go
    home instead.

    Under suit builds going down this is every foundation move (the only
    card that fits on X is X-1 of its suit, home before X can go); under the
    other builds a card waits until the cards that could use it are home or
    next in their suits.  (With foundation take-back a card sent home can
    even come back; with the merci still to come the solver does not rely
    on these moves, as the card under one is no longer buried.)
    """
    rules = position.rules
    found = position.foundations
    for i, fan in enumerate(position.fans):
        if fan and position.goes_to_foundation(fan[-1]) and rules.home_is_safe(
            int(fan[-1]), found
        ):
            yield Move("fan", i, "foundation", -1)
    for i, cell in enumerate(position.cells):
        if cell is not None and position.goes_to_foundation(cell) and rules.home_is_safe(
            int(cell), found
        ):
            yield Move("cell", i, "foundation", -1)


def autoplay_moves(position: Position) -> list[Move]:
    """The moves that autoplay would make now, in order: safe foundation
    moves, repeated until none is left.  They are ordinary moves; the caller
    applies them (so undo takes them back one by one).

    >>> autoplay_moves(Position.deal(Rules(), 2))
    [Move.parse('h>f'), Move.parse('o>f'), Move.parse('b>f'), Move.parse('c>f')]
    """
    moves: list[Move] = []
    while True:
        step = next(safe_foundation_moves(position), None)
        if step is None:
            return moves
        moves.append(step)
        position = position.apply(step)


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game stands: status and score (cards on the foundations)."""

    status: Status
    score: int

    @property
    def finished(self) -> bool:
        return self.status != "playing"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game as a player sees it: a move and the foundation
    moves autoplay made after it, undone and redone together.

    ``positions``: the position before each move, then the one after the
    last (not compared).  A step from :meth:`Game.autoplay` (the "send
    safe cards home" command) has only foundation moves; ``move`` is then
    the first of them.

    >>> game = Game(Rules(), 2)
    >>> step = game.play("h>f")
    >>> step.move, step.autoplayed
    (Move.parse('h>f'), (Move.parse('o>f'), Move.parse('b>f'), Move.parse('c>f')))
    >>> step.card, step.text
    (Card.parse('AD'), 'A♦ from fan h to the foundation; autoplay sent 3 cards home: A♠ 2♠ 3♠')
    >>> step.texts[1]
    'A♠ from fan o to the foundation'
    """

    moves: tuple[Move, ...]
    positions: tuple[Position, ...] = field(compare=False, repr=False)

    @property
    def before(self) -> Position:
        """The position the step started from."""
        return self.positions[0]

    @property
    def after(self) -> Position:
        """The position the step led to."""
        return self.positions[-1]

    @property
    def texts(self) -> tuple[str, ...]:
        """What each of its moves did, in words (:meth:`Position.describe`)."""
        return tuple(p.describe(m) for p, m in zip(self.positions, self.moves, strict=False))

    @property
    def move(self) -> Move:
        """The move the player chose."""
        return self.moves[0]

    @property
    def autoplayed(self) -> tuple[Move, ...]:
        """The foundation moves autoplay made after :attr:`move`."""
        return self.moves[1:]

    @property
    def card(self) -> Card | None:
        """The card the player's move moves (None for a redeal)."""
        return self.before.moving_card(self.move)

    @property
    def text(self) -> str:
        """What the step did, in words (no final full stop)."""
        text = self.before.describe(self.move)
        n = len(self.autoplayed)
        if n:
            cards = " ".join(
                card_label(card) for p, m in zip(self.positions[1:], self.autoplayed, strict=False)
                if (card := p.moving_card(m)) is not None
            )
            text = ngettext(
                "{text}; autoplay sent {n} card home: {cards}",
                "{text}; autoplay sent {n} cards home: {cards}", n,
            ).format(text=text, n=n, cards=cards)
        return text


class LegalMoves(Sequence[Move]):
    """A view of the legal moves of a position (python-chess style).

    Supports ``in`` (checked by the rules, without generating every move),
    ``len``, iteration and indexing.
    """

    __slots__ = ("_moves", "_position")

    def __init__(self, position: Position, *, none: bool = False) -> None:
        self._position = position
        self._moves: list[Move] | None = [] if none else None

    def _list(self) -> list[Move]:
        if self._moves is None:
            self._moves = self._position.legal_moves()
        return self._moves

    def __contains__(self, move: object) -> bool:
        if self._moves == []:
            return False
        return isinstance(move, Move) and self._position.is_legal(move)

    def __len__(self) -> int:
        return len(self._list())

    def count(self, value: object = None) -> int:
        """Number of legal moves (or of occurrences of ``value``)."""
        if value is None:
            return len(self._list())
        return sum(1 for m in self._list() if m == value)

    def __iter__(self) -> Iterator[Move]:
        return iter(self._list())

    def __getitem__(self, index: int) -> Move:  # type: ignore[override]
        return self._list()[index]

    def __repr__(self) -> str:
        return f"<LegalMoves: {format_moves(self._list())}>"


class Game:
    """A game: rules, deal, the history of positions and the random
    generator that shuffles its redeals.

    ``deal``: a deal number (PySolFC-compatible); ``None`` picks a random
    one.  ``position`` starts from a given position instead (a layout read
    from a file); its redeals are shuffled by a generator seeded with
    ``seed`` (random if not given), which is kept so the game replays.

    The history is a flat list of moves (:attr:`moves`, what a saved game
    holds) cut into the player's steps (:attr:`steps`).  :meth:`play`
    records a move with its autoplay as one step, :meth:`push` one move as
    a step of its own, :meth:`autoplay` the safe foundation moves as one
    step.  A saved game is rebuilt by :meth:`push_all`, which groups each
    move with exactly the autoplay moves that follow it: a game played with
    autoplay on reloads into the same steps; one played with it off
    reloads move by move, except where the player happened to play the
    autoplay moves by hand right after a move (undo then takes them back
    with it).  The redo list is of steps too; :meth:`pop` and :meth:`redo`
    work one move at a time, even inside a step.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        deal: int | None = None,
        *,
        position: Position | None = None,
        seed: int | None = None,
    ) -> None:
        self.rules: Rules = rules if rules is not None else (
            position.rules if position is not None else Rules()
        )
        if position is not None:
            if position.rules != self.rules:
                raise LucieError(_("the position's rules differ from the game's"))
            position.check_cards()
            self.deal: int | None = None
            self.seed: int = check_deal_number(seed) if seed is not None else random_deal_number()
            self._shuffler = Shuffler(self.seed)
            start = position
            state = self._shuffler.state()
        else:
            self.deal = check_deal_number(deal) if deal is not None else random_deal_number()
            self.seed = self.deal
            deck, self._shuffler = shuffled_deck(self.deal)
            fans, foundations = lay_out(self.rules, deck)
            state = self._shuffler.state()
            start = Position.start(self.rules, fans, foundations)
        self._positions: list[Position] = [start]
        self._states: list[RandomState] = [state]
        self._moves: list[Move] = []
        #: the length of each step, in order (their sum is len(_moves))
        self._steps: list[int] = []
        #: the undone steps, the next one to redo last
        self._redo: list[Step] = []
        self.resigned = False

    # -- state -----------------------------------------------------------

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def start(self) -> Position:
        return self._positions[0]

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move played, autoplayed ones included (the saved list)."""
        return tuple(self._moves)

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(self._positions)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The history as the player's steps (see :class:`Step`)."""
        out: list[Step] = []
        k = 0
        for n in self._steps:
            out.append(Step(tuple(self._moves[k:k + n]), tuple(self._positions[k:k + n + 1])))
            k += n
        return tuple(out)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """Moves that :meth:`redo` would replay, next first."""
        return tuple(m for step in reversed(self._redo) for m in step.moves)

    @property
    def redo_steps(self) -> tuple[Step, ...]:
        """Steps that :meth:`redo_step` would replay, next first."""
        return tuple(reversed(self._redo))

    #: the last position whose legal moves were asked, whether the game was
    #: resigned then, and the view (which lists the moves once, when first
    #: iterated): an answer asks them several times of one position
    _legal_of: tuple[Position, bool, LegalMoves] | None = None

    @property
    def legal_moves(self) -> LegalMoves:
        position = self.position
        known = self._legal_of
        if known is not None and known[0] is position and known[1] == self.resigned:
            return known[2]
        legal = LegalMoves(position, none=self.resigned)
        self._legal_of = (position, self.resigned, legal)
        return legal

    @property
    def score(self) -> int:
        return self.position.score

    #: the last position whose status was worked out, and that status (an
    #: answer asks the outcome several times of one position; positions
    #: are immutable, so the one held here is the one asked about)
    _status_of: tuple[Position, Status] | None = None

    @property
    def outcome(self) -> Outcome:
        position = self.position
        if self.resigned and not position.is_won:
            return Outcome("resigned", position.score)
        known = self._status_of
        if known is not None and known[0] is position:
            return Outcome(known[1], position.score)
        status = position.status()
        self._status_of = (position, status)
        return Outcome(status, position.score)

    @property
    def can_undo(self) -> bool:
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # -- moves -----------------------------------------------------------

    def _apply(self, move: Move) -> None:
        position = self.position
        if self.resigned:
            resigned = _("the game was resigned")
            raise MoveError(_("{move}: {why}").format(move=move, why=resigned), reason=resigned)
        why = position.why_illegal(move)
        if why is not None:
            raise MoveError(_("{move}: {why}").format(move=move, why=why), reason=why)
        state = self._states[-1]
        if move.is_redeal:
            self._shuffler.restore(state)
            new = position.redeal(self._shuffler)
            state = self._shuffler.state()
        else:
            new = position.apply(move)
        self._positions.append(new)
        self._states.append(state)
        self._moves.append(move)

    def _tail(self, n: int) -> Step:
        """The last ``n`` moves as a step."""
        return Step(tuple(self._moves[-n:]), tuple(self._positions[-n - 1:]))

    def _drop(self) -> Move:
        """Take back the last move (history only, the redo list untouched)."""
        move = self._moves.pop()
        self._positions.pop()
        self._states.pop()
        self._steps[-1] -= 1
        if not self._steps[-1]:
            self._steps.pop()
        return move

    def _redone(self, step: Step) -> None:
        """After ``step`` was played: drop it from the redo list if it is the
        step redo would play, else clear the redo list (a new line)."""
        if self._redo and self._redo[-1] == step:
            self._redo.pop()
        elif self._redo and self._redo[-1].moves[:len(step.moves)] == step.moves:
            top, k = self._redo[-1], len(step.moves)
            self._redo[-1] = Step(top.moves[k:], top.positions[k:])
        else:
            self._redo.clear()

    def push(self, move: Move | str) -> Move:
        """Play one move, as a step of its own (no autoplay); raises
        :class:`MoveError` naming the move and why it is illegal.  Clears
        the redo list unless the move is the one redo would play."""
        if isinstance(move, str):
            move = Move.parse(move)
        self._apply(move)
        self._steps.append(1)
        if self._redo:
            self._redone(self._tail(1))
        return move

    def play(self, move: Move | str, *, autoplay: bool = True) -> Step:
        """Play a player's move and, with ``autoplay``, the safe foundation
        moves after it (:func:`autoplay_moves`), as one :class:`Step` that
        :meth:`undo_step` takes back whole.  Raises :class:`MoveError`
        (naming the move and why) and changes nothing if the move is
        illegal."""
        if isinstance(move, str):
            move = Move.parse(move)
        self._apply(move)
        n = 1
        if autoplay:
            for extra in autoplay_moves(self.position):
                self._apply(extra)
                n += 1
        step = self._tail(n)
        self._steps.append(n)
        self._redone(step)
        return step

    def push_all(self, moves: Iterable[Move | str], *, first: int = 1) -> None:
        """Play moves in order; an illegal one raises :class:`MoveError`
        that says its number (``first`` for the first of the list: 1, or
        the number a list that goes on from earlier moves starts at) and
        why, after the moves before it were played.

        This is how a game is rebuilt from its saved (flat) move list, so
        the steps are rebuilt too: a move directly followed by exactly the
        moves autoplay makes after it becomes one step with them, as
        :meth:`play` records it; any other move is a step of its own.
        """
        todo = list(moves)
        number = 0
        while number < len(todo):
            move = todo[number]
            number += 1
            try:
                move = self.push(move)
            except MoveError as exc:
                why = exc.reason if exc.reason is not None else _reason(exc)
                raise MoveError(
                    _("move {number} ({move}) is illegal: {why}").format(
                        number=number + first - 1, move=move, why=why
                    ),
                    reason=why,
                ) from None
            auto = autoplay_moves(self.position) if number < len(todo) else []
            if not auto or len(todo) - number < len(auto):
                continue
            given = todo[number:number + len(auto)]
            if [m if isinstance(m, Move) else _parse_or_none(m) for m in given] != auto:
                continue
            for extra in auto:
                self._apply(extra)
            self._steps[-1] += len(auto)
            self._redone(self._tail(len(auto)))
            number += len(auto)

    def pop(self) -> Move:
        """Undo the last move (one move, even inside a step) and return it;
        it can be redone."""
        if not self._moves:
            raise MoveError(_("nothing to undo"))
        self.resigned = False
        step = self._tail(1)
        self._drop()
        self._redo.append(step)
        return step.move

    undo = pop

    def undo_step(self) -> Step:
        """Undo the last step (the player's move and the cards autoplay sent
        home after it) and return it; :meth:`redo_step` plays it again."""
        if not self._moves:
            raise MoveError(_("nothing to undo"))
        self.resigned = False
        n = self._steps[-1]
        step = self._tail(n)
        for _step in range(n):
            self._drop()
        self._redo.append(step)
        return step

    def peek(self) -> Move | None:
        """The last move played, or None."""
        return self._moves[-1] if self._moves else None

    def redo(self) -> Move:
        """Play again the last undone move (one move)."""
        if not self._redo:
            raise MoveError(_("nothing to redo"))
        move = self._redo[-1].move
        self.push(move)
        return move

    def redo_step(self) -> Step:
        """Play again the last undone step, as one step."""
        if not self._redo:
            raise MoveError(_("nothing to redo"))
        step = self._redo[-1]
        for move in step.moves:
            self._apply(move)
        self._steps.append(len(step.moves))
        self._redo.pop()
        return self._tail(len(step.moves))

    def restart(self) -> None:
        """Back to the start of the deal (the steps can be redone)."""
        while self._moves:
            self.undo_step()

    def resign(self) -> None:
        self.resigned = True

    def autoplay(self) -> list[Move]:
        """Play the safe foundation moves (see :func:`autoplay_moves`) as
        one step; returns them (empty: nothing was played)."""
        moves = autoplay_moves(self.position)
        if moves:
            for move in moves:
                self._apply(move)
            self._steps.append(len(moves))
            self._redone(self._tail(len(moves)))
        return moves

    def describe(self, move: Move) -> str:
        return self.position.describe(move)

    def copy(self) -> Game:
        """An independent copy with the same history."""
        return self._copy(Shuffler(self.seed))

    def fork(self) -> Game:
        """A copy to try a change on, keeping one of the two afterwards (the
        session layer changes a fork, records it, then plays on with it).
        It shares this game's redeal generator, which :meth:`copy` builds
        anew at a cost: each redeal restores the generator's state first,
        so the two may be played one after the other, not at once."""
        return self._copy(self._shuffler)

    def _copy(self, shuffler: Shuffler) -> Game:
        other = Game.__new__(Game)
        other.rules = self.rules
        other.deal = self.deal
        other.seed = self.seed
        other._shuffler = shuffler
        other._positions = list(self._positions)
        other._states = list(self._states)
        other._moves = list(self._moves)
        other._steps = list(self._steps)
        other._redo = list(self._redo)
        other.resigned = self.resigned
        return other


def _parse_or_none(text: str) -> Move | None:
    try:
        return Move.parse(text)
    except MoveError:
        return None


def _reason(exc: MoveError) -> str:
    """A parse error's message without the move it quotes first."""
    text = str(exc)
    _quoted, sep, rest = text.partition(": ")
    return rest if sep else text


__all__ = [
    "ACE", "FAN_NAMES", "KING", "REDEAL", "Game", "LegalMoves", "Move", "Outcome",
    "Position", "Status", "Step", "autoplay_moves", "format_cards", "format_foundations",
    "format_layout", "format_moves", "parse_moves", "safe_foundation_moves",
]
