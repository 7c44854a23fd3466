"""Numbered deals and redeal shuffles, exactly as PySolFC makes them.

The random generators are PySolFC's own, from the ``pysol-cards`` package:
deal numbers below 32000 use the Microsoft generator (``LCRandom31``, on
the deck rearranged by ``ms_rearrange``), larger ones the Mersenne Twister
(``MTRandom``).  The generator is kept after the deal: each redeal shuffles
the gathered cards by continuing its stream (``docs/rules.md#the-redeal-exactly``).

>>> fans, foundations, _shuffler = deal_layout(Rules(), 1)
>>> len(fans), [len(f) for f in fans][-2:], foundations
(18, [3, 1], (0, 0, 0, 0))
>>> " ".join(str(c) for c in fans[0])
'JD KS 4S'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from pysol_cards.cards import ms_rearrange
from pysol_cards.random import LCRandom31, MTRandom

from lucie.cards import ACE, KING, Card
from lucie.errors import DealError
from lucie.i18n import _
from lucie.parsing import parse_int
from lucie.rules import Rules

#: Deal numbers below this use the Microsoft generator (as PySolFC does).
MS_LIMIT: Final = 32000
#: Largest deal number PySolFC accepts (20 digits).
MAX_DEAL: Final = 2**63 - 1  # the largest deal number the store (SQLite INTEGER) holds

# PySolFC orders suits C, S, H, D; lucie orders them C, D, H, S.
_PYSOL_SUIT_TO_LUCIE: Final = (0, 3, 2, 1)

RandomState = object
"""An opaque snapshot of a generator's state (see :class:`Shuffler`)."""


def pysol_card(pysol_id: int) -> Card:
    """The lucie card for PySolFC's card id ``suit * 13 + rank`` (C S H D)."""
    suit, rank = divmod(pysol_id, 13)
    return Card(_PYSOL_SUIT_TO_LUCIE[suit] * 13 + rank)


def check_deal_number(number: object) -> int:
    """Validate a deal number: a positive integer up to :data:`MAX_DEAL`.

    >>> check_deal_number("17")
    17
    >>> check_deal_number("-3")
    Traceback (most recent call last):
    ...
    lucie.errors.DealError: deal number '-3' is not a whole number from 1 to 9223372036854775807
    """
    return parse_int(number, what=_("deal number"), low=1, high=MAX_DEAL, error=DealError)


def random_deal_number(rng: random.Random | None = None) -> int:
    """A random deal number to show the player (1 .. 999 999 999)."""
    return (rng or random.SystemRandom()).randint(1, 999_999_999)


class Shuffler:
    """PySolFC's random generator for one game, with snapshots of its state.

    ``shuffle`` is the generator's own Fisher-Yates
    (``for n from len-1 down to 1: j = randint(0, n); swap``).
    """

    __slots__ = ("_gen", "_ms")

    def __init__(self, seed: int) -> None:
        self._ms = seed < MS_LIMIT
        self._gen: LCRandom31 | MTRandom = LCRandom31(seed) if self._ms else MTRandom(seed)

    def shuffle(self, items: list[int]) -> list[int]:
        """Shuffle ``items`` in place with the generator and return it."""
        result: list[int] = self._gen.shuffle(items)
        return result

    def rearrange(self, items: list[int]) -> list[int]:
        """PySolFC's ``ms_rearrange`` for the Microsoft generator, else as is."""
        if self._ms:
            arranged: list[int] = ms_rearrange(items)
            return arranged
        return items

    def state(self) -> RandomState:
        """A snapshot of the generator (restored by :meth:`restore`)."""
        return self._gen.getstate()

    def restore(self, state: RandomState) -> None:
        self._gen.setstate(state)


def shuffled_deck(number: int) -> tuple[list[Card], Shuffler]:
    """PySolFC's shuffled deck for deal ``number`` and its generator.

    ``deck[51]`` is the first card dealt in the classic layout.
    """
    number = check_deal_number(number)
    shuffler = Shuffler(number)
    ids = shuffler.shuffle(shuffler.rearrange(list(range(52))))
    return [pysol_card(i) for i in ids], shuffler


def deal_layout(
    rules: Rules, number: int
) -> tuple[list[list[Card]], tuple[int, int, int, int], RandomState]:
    """Deal ``number`` under ``rules``: fans (bottom first), foundation
    counts per suit (C D H S), and the generator state after the deal.
    """
    deck, shuffler = shuffled_deck(number)
    fans, foundations = lay_out(rules, deck)
    return fans, foundations, shuffler.state()


def lay_out(
    rules: Rules, deck: Sequence[Card]
) -> tuple[list[list[Card]], tuple[int, int, int, int]]:
    """Lay a shuffled deck out as ``docs/rules.md#numbered-deals`` says.

    - classic: the k-th card dealt is ``deck[51 - k]``; with F full fans of
      ``fan_size`` cards, card k goes to fan ``k mod F`` while k < F*size,
      the rest to the last fan;
    - ``aces_first`` (Trefoil): same order, but aces go to the foundations
      and only the other cards are counted;
    - ``kings_bottom`` (Shamrocks II): dealt from the other end
      (``deck[k]``), after each king at an index below F*size is swapped
      with the first non-king found at the indices of its fan below it.
    """
    order = list(deck) if rules.kings_bottom else list(reversed(deck))
    foundations = [0, 0, 0, 0]
    if rules.aces_first:
        for card in order:
            if card.rank == ACE:
                foundations[card.suit_index] = 1
        order = [c for c in order if c.rank != ACE]
    size = rules.fan_size
    full = len(order) // size
    if rules.kings_bottom:
        _kings_to_bottom(order, full, full * size)
    fans: list[list[Card]] = [[] for _fan in range(rules.num_fans)]
    for k, card in enumerate(order):
        fans[k % full if k < full * size else full].append(card)
    f = foundations
    return fans, (f[0], f[1], f[2], f[3])


def _kings_to_bottom(order: list[Card], full: int, limit: int) -> None:
    """PySolFC's Shamrocks II pre-deal: swap kings below non-kings."""
    for i in range(min(limit, len(order))):
        if order[i].rank != KING:
            continue
        for j in range(i % full, i, full):
            if order[j].rank != KING:
                order[i], order[j] = order[j], order[i]
                break


def redeal_fans(
    pile: list[Card], shuffler: Shuffler, fan_size: int, num_fans: int
) -> list[list[Card]]:
    """Shuffle the gathered ``pile`` with ``shuffler`` and deal it again.

    Dealt face up from the end of the pile in ``fan_size`` passes; with n
    cards, pass i gives one card to each of the first ``(n + i) // size``
    fans.  Returns ``num_fans`` fans (the unused ones empty).
    """
    index = {int(c): c for c in pile}
    ids = shuffler.shuffle([int(c) for c in pile])
    n = min(len(ids), num_fans * fan_size)
    fans: list[list[Card]] = [[] for _fan in range(num_fans)]
    for i in range(fan_size):
        for fan in fans[: (n + i) // fan_size]:
            fan.append(index[ids.pop()])
    # Only when cards came back from the foundations (take-back) can there be
    # more cards than the fans hold: further passes over every fan.
    while ids:
        for fan in fans:
            if ids:
                fan.append(index[ids.pop()])
    return fans
