"""The table as text for people (``lucie play --plain``, ``lucie replay``,
the RL environment's ``render``).

It sits above the engine and the text formats and below every interface,
so each of them can show a position the same way.

>>> from lucie.engine import Game
>>> print(render(Game(deal=1)).splitlines()[0])
La Belle Lucie, deal 1 · score 0/52 · redeals left 2
"""

from __future__ import annotations

from lucie.engine import FAN_NAMES, Game, format_foundations
from lucie.formats import DISPLAY_SEPARATOR


def render(game: Game) -> str:
    """The position of a game as text for people: a header, the
    foundations, then one line per fan with its letter."""
    p = game.position
    rules = p.rules
    deal = f"deal {game.deal}" if game.deal is not None else f"custom layout (seed {game.seed})"
    extras = [f"score {p.score}/52", f"redeals left {p.redeals_left}"]
    if rules.merci:
        extras.append(
            "merci used" if p.merci_used else (
                "merci available" if p.merci_available else "merci in the last deal"
            )
        )
    lines = [DISPLAY_SEPARATOR.join([f"{rules.name()}, {deal}", *extras])]
    lines.append("Foundations: " + format_foundations(p))
    if p.cells:
        lines.append(
            "Cells: " + "  ".join(
                f"{i + 1}:{'-' if c is None else c}" for i, c in enumerate(p.cells)
            )
        )
    for i, fan in enumerate(p.fans):
        lines.append(f"  {FAN_NAMES[i]}: " + (" ".join(str(c) for c in fan) if fan else "-"))
    return "\n".join(lines)
