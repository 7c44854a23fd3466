"""lucie: La Belle Lucie solitaire and its family.

The engine API in a few lines:

>>> from lucie import Game, Rules
>>> game = Game(Rules.parse("classic"), deal=1)
>>> game.push("f>i")
Move.parse('f>i')
>>> game.outcome
Outcome(status='playing', score=0)

Layers (each imports only those above it): :mod:`lucie.cards`,
:mod:`lucie.rules`, :mod:`lucie.deals`, :mod:`lucie.engine` and
:mod:`lucie.formats`; then the solver, the store and the interfaces.
"""

from lucie.cards import DECK, RANKS, SUITS, Card
from lucie.engine import (
    FAN_NAMES,
    REDEAL,
    Game,
    LegalMoves,
    Move,
    Outcome,
    Position,
    autoplay_moves,
    parse_moves,
)
from lucie.errors import (
    CardError,
    DealError,
    LayoutError,
    LucieError,
    MoveError,
    RulesError,
    SaveFileError,
)
from lucie.formats import format_layout, load_game, parse_layout, save_game
from lucie.rules import VARIANTS, Rules, Variant

__version__ = "0.1.0"

__all__ = [
    "DECK", "FAN_NAMES", "RANKS", "REDEAL", "SUITS", "VARIANTS", "Card", "CardError",
    "DealError", "Game", "LayoutError", "LegalMoves", "LucieError", "Move", "MoveError",
    "Outcome", "Position", "Rules", "RulesError", "SaveFileError", "Variant",
    "autoplay_moves", "format_layout", "load_game", "parse_layout", "parse_moves",
    "save_game",
]
