"""The search's compact encoding (``docs/solver.md#the-walk``).

A card is its engine index ``suit * 13 + rank - 1``; a fan is one ``int``
holding ``card + 1`` in 6-bit digits, its top in the low bits (so the top
is ``fan & 63`` and popping it is ``fan >> 6``).  An internal move is
``(card, target)``: a target >= 0 is a fan index, else one of the codes
below.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

#: Internal move target codes (a target >= 0 is a fan index).
TO_FOUNDATION: Final = -1
TO_CELL: Final = -2

#: An internal move: (card index 0..51, target).
IMove = tuple[int, int]


def encode_fan(cards: Sequence[int]) -> int:
    """A fan (bottom first) as an int: 6-bit digits of ``card + 1``, top lowest.

    >>> f = encode_fan([51, 12, 0])
    >>> (f & 63) - 1, decode_fan(f)
    (0, [51, 12, 0])
    """
    value = 0
    for c in cards:
        value = (value << 6) | (c + 1)
    return value


def decode_fan(value: int) -> list[int]:
    """The cards of an encoded fan, bottom first."""
    out: list[int] = []
    while value:
        out.append((value & 63) - 1)
        value >>= 6
    out.reverse()
    return out


def fan_tops(fans: list[int]) -> dict[int, int]:
    """Each fan's top card -> the fan's index (empty fans have none)."""
    tops: dict[int, int] = {}
    for i in range(len(fans)):
        f = fans[i]
        if f:
            tops[(f & 63) - 1] = i
    return tops
