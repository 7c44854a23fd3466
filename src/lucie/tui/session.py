"""Which game the terminal opens: the player's unfinished one, or a new deal."""

from __future__ import annotations

from dataclasses import dataclass

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import Store


@dataclass(slots=True)
class Opened:
    """A game ready to play: its store id, the game, time already played,
    and whether it was resumed."""

    game_id: int
    game: Game
    seconds: float
    resumed: bool


def open_game(
    store: Store, player: str, rules: Rules | None = None, deal: int | None = None,
) -> Opened:
    """Resume the player's unfinished game, or start a new one.

    With no variant and no deal, the latest unfinished game of any variant
    resumes; with a variant, the latest of that variant; with a deal
    number, only an unfinished game of that very deal (and variant).
    A resumed game's moves are grouped into steps again
    (:meth:`lucie.engine.Game.push_all`), so undo takes back a move and
    the cards autoplay sent home after it, as before the game was left.
    """
    found = store.unfinished(player, rules)
    if found is not None:
        gid, game = found
        if (
            (rules is None or game.rules == rules)
            and (deal is None or game.deal == deal)
            and store.claim(gid)
        ):
            return Opened(gid, game, store.record(gid).seconds, True)
    game = Game(rules or Rules(), deal)
    gid = store.start_game(game, player)
    store.claim(gid)
    return Opened(gid, game, 0.0, False)
