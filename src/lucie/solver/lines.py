"""Internal lines back to the engine: :func:`to_engine_moves` replays a line
of internal ``(card, target)`` moves through :meth:`Position.play` (each move
checked by the engine); :func:`reach_position` builds the position at its end
at once."""

from __future__ import annotations

from collections.abc import Sequence

from lucie.cards import DECK
from lucie.engine import Move, Position
from lucie.errors import LucieError
from lucie.solver.encoding import TO_CELL, TO_FOUNDATION, IMove


def engine_move(position: Position, move: IMove) -> Move:
    """The engine :class:`Move` for an internal ``(card, target)`` move."""
    card, target = move
    where, index = _locate(position, card)
    if target == TO_FOUNDATION:
        if where == "fan":
            return Move("fan", index, "foundation", -1)
        return Move("cell", index, "foundation", -1)
    if target == TO_CELL:
        free = next(i for i, c in enumerate(position.cells) if c is None)
        return Move("fan", index, "cell", free)
    if where == "fan":
        return Move("fan", index, "fan", target)
    if where == "cell":
        return Move("cell", index, "fan", target)
    return Move("card", card, "fan", target)  # merci or take-back


def _locate(position: Position, card: int) -> tuple[str, int]:
    for i, fan in enumerate(position.fans):
        if fan and fan[-1] == card:
            return "fan", i
    for i, c in enumerate(position.cells):
        if c == card:
            return "cell", i
    return "card", -1


def reach_position(position: Position, line: Sequence[IMove]) -> Position:
    """The position after an internal line from :func:`~lucie.solver.deal.search_deal`, built
    at once: the moves are applied as :meth:`Position.apply` applies them
    (a fan card goes to the first free cell; a card named by the move that
    is neither a fan top nor in a cell comes from its foundation, or is the
    merci), without checking each one again.  The tests check that this is
    the engine's own replay, move by move."""
    fans = [list(f) for f in position.fans]
    cells = list(position.cells)
    found = list(position.foundations)
    merci_used = position.merci_used
    tops = {int(f[-1]): i for i, f in enumerate(fans) if f}
    for card, target in line:
        c = DECK[card]
        i = tops.pop(card, -1)
        if i >= 0:
            fan = fans[i]
            fan.pop()
            if fan:
                tops[int(fan[-1])] = i
        elif c in cells:
            cells[cells.index(c)] = None
        elif found[card // 13] > card % 13:
            found[card // 13] -= 1
        else:
            i = next(i for i, f in enumerate(fans) if c in f)
            fans[i].remove(c)
            merci_used = True
        if target == TO_FOUNDATION:
            found[card // 13] += 1
        elif target == TO_CELL:
            cells[cells.index(None)] = c
        else:
            fan = fans[target]
            if fan:
                tops.pop(int(fan[-1]), None)
            fan.append(c)
            tops[card] = target
    return Position(
        position.rules, tuple(tuple(f) for f in fans),
        (found[0], found[1], found[2], found[3]), tuple(cells),
        position.redeals_left, merci_used,
    )


def to_engine_moves(position: Position, moves: Sequence[IMove]) -> tuple[Move, ...]:
    """Replay internal moves through the engine (each checked by
    :meth:`Position.play`) and return them as engine moves."""
    out: list[Move] = []
    for m in moves:
        move = engine_move(position, m)
        try:
            position = position.play(move)
        except LucieError as exc:  # pragma: no cover - a solver bug
            raise AssertionError(f"solver produced an illegal move {move}: {exc}") from exc
        out.append(move)
    return tuple(out)

