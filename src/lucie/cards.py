"""Cards: values, parsing and formatting.

A :class:`Card` is a small immutable value (an ``int`` from 0 to 51 under
the hood, so it hashes and compares fast).  Its text form is rank then suit:

>>> Card.parse("TH")
Card.parse('TH')
>>> str(Card.parse("10♥"))
'TH'
>>> Card.parse("q♦").glyph()
'Q♦'
>>> Card.parse("10h").rank, Card.parse("10h").suit
(10, 'H')
>>> Card.parse("1H")
Traceback (most recent call last):
...
lucie.errors.CardError: '1H' is not a card (expected rank A 2-9 T/10 J Q K then suit C D H S)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from lucie.errors import CardError
from lucie.i18n import _, pgettext
from lucie.parsing import excerpt

#: Suit letters in lucie's order (also the order of the foundations).
SUITS: Final = ("C", "D", "H", "S")
#: Suit glyphs, in the order of :data:`SUITS`.
SUIT_GLYPHS: Final = ("♣", "♦", "♥", "♠")
#: Rank letters; ``RANKS[r - 1]`` is the letter of rank ``r`` (1 = ace).
RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")

ACE: Final = 1
KING: Final = 13

_SUIT_ALIASES: Final = {
    "C": 0, "♣": 0, "♧": 0,
    "D": 1, "♦": 1, "♢": 1,
    "H": 2, "♥": 2, "♡": 2,
    "S": 3, "♠": 3, "♤": 3,
}
_RANK_ALIASES: Final = {r: i + 1 for i, r in enumerate(RANKS)} | {"10": 10}


class Card(int):
    """A playing card: ``suit_index * 13 + rank - 1``.

    Construct one with :meth:`Card.parse` or :meth:`Card.of`; every card is a
    shared singleton, so ``is`` and ``==`` agree.
    """

    __slots__ = ()

    _cache: list[Card]

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise CardError(_("card index {index} is out of range 0..51").format(index=index))
        try:
            return cls._cache[index]
        except AttributeError:  # pragma: no cover - only while building the cache
            return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: str) -> Card:
        """The card of ``rank`` (1..13) and ``suit`` (a letter of :data:`SUITS`).

        >>> Card.of(12, "D")
        Card.parse('QD')
        """
        if not 1 <= rank <= 13 or suit not in SUITS:
            raise CardError(_("no card of rank {rank} and suit {suit}").format(
                rank=excerpt(rank), suit=excerpt(suit)
            ))
        return _CARDS[SUITS.index(suit) * 13 + rank - 1]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: ``TH``, ``10H``, ``th``, ``10♥``, ``q♦``.

        Raises :class:`~lucie.errors.CardError` naming the token otherwise.
        """
        token = text.strip()
        if len(token) >= 2:
            rank = _RANK_ALIASES.get(token[:-1].upper())
            suit = _SUIT_ALIASES.get(token[-1].upper())
            if rank is not None and suit is not None:
                return _CARDS[suit * 13 + rank - 1]
        raise CardError(
            _("{text} is not a card (expected rank A 2-9 T/10 J Q K then suit C D H S)")
            .format(text=excerpt(text))
        )

    @property
    def rank(self) -> int:
        """1 (ace) to 13 (king)."""
        return int(self) % 13 + 1

    @property
    def suit(self) -> str:
        """The suit letter, one of :data:`SUITS`."""
        return SUITS[int(self) // 13]

    @property
    def suit_index(self) -> int:
        """Index of the suit in :data:`SUITS` (and of its foundation)."""
        return int(self) // 13

    @property
    def is_red(self) -> bool:
        return int(self) // 13 in (1, 2)

    def glyph(self) -> str:
        """The display form with a suit glyph and ``10`` for ten: ``10♥``."""
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + SUIT_GLYPHS[self.suit_index]

    def __str__(self) -> str:
        return RANKS[int(self) % 13] + SUITS[int(self) // 13]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


_CARDS: Final[list[Card]] = [int.__new__(Card, i) for i in range(52)]
Card._cache = _CARDS

#: The 52 cards in lucie's order: clubs A..K, diamonds, hearts, spades.
DECK: Final[tuple[Card, ...]] = tuple(_CARDS)
#: Each card's text by its number (``CARD_TEXT[card]`` is ``str(card)``,
#: without a method call: the layouts and the page's answers write many).
CARD_TEXT: Final[tuple[str, ...]] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))


def _rank_words() -> tuple[str, ...]:
    """Each rank's name as it stands in a card's name ("king" in "king of
    hearts"), in the language in use, in the order of :data:`RANKS`."""
    return (
        pgettext("card name: rank", "ace"), pgettext("card name: rank", "two"),
        pgettext("card name: rank", "three"), pgettext("card name: rank", "four"),
        pgettext("card name: rank", "five"), pgettext("card name: rank", "six"),
        pgettext("card name: rank", "seven"), pgettext("card name: rank", "eight"),
        pgettext("card name: rank", "nine"), pgettext("card name: rank", "ten"),
        pgettext("card name: rank", "jack"), pgettext("card name: rank", "queen"),
        pgettext("card name: rank", "king"),
    )


def _suit_words() -> tuple[str, ...]:
    """Each suit's name as it stands in a card's name ("hearts" in "king of
    hearts"), in the language in use, in the order of :data:`SUITS`."""
    return (
        pgettext("card name: suit", "clubs"), pgettext("card name: suit", "diamonds"),
        pgettext("card name: suit", "hearts"), pgettext("card name: suit", "spades"),
    )


def card_name(card: Card) -> str:
    """The card's name in words, in the language in use.

    Each language puts the rank and the suit in its own order: the
    translation of the pattern ``"{rank} of {suit}"`` (context ``card
    name``) says how, and Dutch and German join them into one word.  The
    rank and suit words are translated in the contexts ``card name: rank``
    and ``card name: suit`` (in German the rank is written in lower case,
    as the second half of the compound).  Card codes (``KH``) stay as they
    are everywhere else.

    >>> from lucie.i18n import using
    >>> king = Card.parse("KH")
    >>> card_name(king)
    'king of hearts'
    >>> for code in ("fr", "nl", "de"):
    ...     with using(code):
    ...         print(card_name(king), "/", card_name(Card.parse("AS")), "/",
    ...               card_name(Card.parse("TD")))
    roi de cœur / as de pique / dix de carreau
    hartenheer / schoppenaas / ruitentien
    Herzkönig / Pikass / Karozehn
    """
    rank = _rank_words()[card.rank - 1]
    suit = _suit_words()[card.suit_index]
    return pgettext("card name", "{rank} of {suit}").format(rank=rank, suit=suit)


def rank_label(rank: int) -> str:
    """The rank as the corner of a card shows it, in the language in use:
    ``A``, ``2`` to ``10``, and the face cards' letters, which follow the
    language (context ``card rank letter``): J Q K in English, V D R in
    French (valet, dame, roi), B V H in Dutch (boer, vrouw, heer), B D K in
    German (Bube, Dame, König).

    >>> from lucie.i18n import using
    >>> [rank_label(r) for r in (1, 10, 11, 12, 13)]
    ['A', '10', 'J', 'Q', 'K']
    >>> with using("fr"):
    ...     [rank_label(r) for r in (1, 11, 12, 13)]
    ['A', 'V', 'D', 'R']
    """
    if rank == ACE:
        return pgettext("card rank letter", "A")
    if rank == 11:
        return pgettext("card rank letter", "J")
    if rank == 12:
        return pgettext("card rank letter", "Q")
    if rank == KING:
        return pgettext("card rank letter", "K")
    return str(rank)


def card_label(card: Card) -> str:
    """The card as a player reads it on the table and in every message:
    its rank (:func:`rank_label`, in the language in use) then its suit's
    symbol, ``10♠``, ``J♥`` (``V♥`` in French, ``B♥`` in Dutch and
    German).  Card codes (``TS``) stay for what is typed or stored.

    >>> from lucie.i18n import using
    >>> card_label(Card.parse("TS")), card_label(Card.parse("QD"))
    ('10♠', 'Q♦')
    >>> with using("nl"):
    ...     card_label(Card.parse("QD")), card_label(Card.parse("KH"))
    ('V♦', 'H♥')
    """
    return rank_label(card.rank) + SUIT_GLYPHS[card.suit_index]


def suit_label(suit_index: int) -> str:
    """A suit's symbol (``♠``), the same in every language: where the
    table shows a foundation."""
    return SUIT_GLYPHS[suit_index]


def suit_name(suit_index: int) -> str:
    """A suit's name in words in the language in use, as it names a
    foundation in a sentence ("the spades foundation", "la fondation de
    pique", "die Pik-Ablage").

    >>> from lucie.i18n import using
    >>> with using("de"):
    ...     suit_name(3)
    'Pik'
    """
    return _suit_words()[suit_index]


def parse_label(text: str) -> Card | None:
    """A card written as :func:`card_label` shows it in the language in
    use, or as its code: ``V♥`` or ``VH`` in French is the jack of hearts,
    ``10♠`` and ``TS`` the ten of spades (None if ``text`` is no card).
    The face letters of French, Dutch and German never stand for another
    rank in lucie's notation (``K`` is a king in both), so reading them as
    well changes the meaning of no code.

    >>> from lucie.i18n import using
    >>> with using("de"):
    ...     parse_label("B♣"), parse_label("KH"), parse_label("xx")
    (Card.parse('JC'), Card.parse('KH'), None)
    """
    token = text.strip()
    if len(token) >= 2:
        letters = {rank_label(r).upper(): r for r in (ACE, 11, 12, KING)}
        rank = letters.get(token[:-1].upper())
        suit = _SUIT_ALIASES.get(token[-1].upper())
        if rank is not None and suit is not None:
            return _CARDS[suit * 13 + rank - 1]
    try:
        return Card.parse(token)
    except CardError:
        return None


def parse_cards(tokens: Iterable[str]) -> list[Card]:
    """Parse several card tokens.

    >>> parse_cards("KH 2S 8s".split())
    [Card.parse('KH'), Card.parse('2S'), Card.parse('8S')]
    """
    return [Card.parse(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in plain text, separated by spaces.

    >>> format_cards([Card.parse("KH"), Card.parse("10S")])
    'KH TS'
    """
    return " ".join(str(c) for c in cards)

