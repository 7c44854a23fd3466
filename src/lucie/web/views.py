"""What the page is told about a game: the JSON of a position and of the
table (which card may go where, in the engine's own notation)."""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from lucie.cards import CARD_TEXT, Card
from lucie.engine import FAN_NAMES, REDEAL, Game, Move, Position
from lucie.formats import move_texts, position_json
from lucie.rules import Rules  # noqa: F401 (doctest)
from lucie.standings import marks_why
from lucie.web.registry import Session


def target_key(move: Move, card: Card) -> str:
    if move.dst_kind == "foundation":
        return f"foundation:{card.suit_index}"
    if move.dst_kind == "cell":
        return f"cell:{move.dst}"
    return f"fan:{move.dst}"


def _notation(move: Move) -> tuple[str, str]:
    src, _, dst = str(move).partition(">")
    return src, dst


@functools.lru_cache(maxsize=64)
def _target_notation(fans: int, cells: int) -> dict[str, str]:
    """How each target is written in a move (``F`` for fan f, ``f`` for the
    foundation, ``1`` for cell 1), from the engine's own notation."""
    notation: dict[str, str] = {}
    for j in range(fans):
        notation[f"fan:{j}"] = _notation(Move.build(0 if j else 1, j))[1]
    for s in range(4):
        notation[f"foundation:{s}"] = _notation(Move.to_foundation(0))[1]
    for c in range(cells):
        notation[f"cell:{c}"] = _notation(Move.to_cell(0, c))[1]
    return notation


def table_json(game: Game, legal: list[Move] | None = None) -> dict[str, Any]:
    """What the page needs beyond :func:`position_json`: for every card that
    may be picked up, its source notation and the legal targets, and the
    notation of each target, so the page lights up targets and writes moves
    without knowing a rule.  ``legal``: the legal moves, if already known."""
    p = game.position
    if legal is None:
        legal = list(game.legal_moves)
    sources, merci = _sources(p, legal)
    tops: dict[str, str | None] = {}
    for s, count in enumerate(p.foundations):
        tops[str(s)] = CARD_TEXT[s * 13 + count - 1] if count else None
    return {
        "sources": sources,
        "target_notation": _target_notation(len(p.fans), len(p.cells)),
        "foundation_tops": tops,
        "can_redeal": REDEAL in legal,
        "merci_moves": merci,
        "fan_names": list(FAN_NAMES[: len(p.fans)]),
    }


def _sources(p: Position, legal: list[Move]) -> tuple[dict[str, dict[str, Any]], bool]:
    """Each card that may be picked up (a fan's top, a cell's card, a
    buried card of a merci, a foundation's top taken back) with its source
    and legal targets; and whether a merci is among the moves."""
    text = CARD_TEXT
    sources: dict[str, dict[str, Any]] = {}
    buried: dict[Card, int] = {}
    for i, fan in enumerate(p.fans):
        if fan:
            sources[text[fan[-1]]] = {"source": FAN_NAMES[i], "where": f"fan:{i}", "targets": []}
            for card in fan[:-1]:
                buried[card] = i
    for i, cell in enumerate(p.cells):
        if cell is not None:
            sources[text[cell]] = {"source": str(i + 1), "where": f"cell:{i}", "targets": []}
    merci = False
    move_text = move_texts(legal)
    for move, written in zip(legal, move_text, strict=True):
        moved = None if move.is_redeal else p.moving_card(move)
        if moved is None:  # the redeal (a legal move that moves a card has one)
            continue
        key = text[moved]
        entry = sources.get(key)
        if entry is None:  # a merci (buried card) or a take-back (foundation top)
            if moved in buried:
                where = f"fan:{buried[moved]}"
                merci = True
            else:
                where = f"foundation:{moved.suit_index}"
            entry = sources[key] = {"source": key, "where": where, "targets": []}
        entry["targets"].append({"target": target_key(move, moved), "move": written})
    return sources, merci


def deals_as_text(data: dict[str, Any]) -> dict[str, Any]:
    """``deal`` and ``seed`` as text: JavaScript numbers are exact only up
    to 2^53, deal numbers go up to 2^63 - 1.

    >>> deals_as_text({"deal": 2**60, "seed": None})
    {'deal': '1152921504606846976', 'seed': None}
    """
    for key in ("deal", "seed"):
        value = data.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            data[key] = str(value)
    return data


def game_version(game: Game) -> int:
    """A number that changes whenever the game does (a move, an undo, a
    restart, a resignation) and is the same for the same moves and status,
    also after the server restarts: a page sends it with each command, so a
    command made against a position the game has left (a second tab) is
    refused.  48 bits: exact in JavaScript.

    >>> game_version(Game(Rules(), 1)) == game_version(Game(Rules(), 1))
    True
    """
    return _version(move_texts(game.moves), game.outcome.status)


def _version(moves: list[str], status: str) -> int:
    """:func:`game_version` of a game's moves (as text) and status."""
    text = " ".join(moves) + "|" + status
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def daily_json(session: Session) -> dict[str, Any]:
    """Whether the game plays a deal of the day, and whether it counts for
    that day's table, as the store has it (the page decides nothing):
    ``daily`` (the date, or None), ``daily_counts`` (None: no table to count
    for, or not known) and ``daily_why`` (why it does not count, in words).

    A game counts while its fair-play marks are clean (:attr:`Marks.fair
    <lucie.store.Marks.fair>`): played from the first move, no help asked.
    """
    day = session.daily_day()
    fair = session.life.fair if day is not None else None
    return {
        "daily": day.isoformat() if day is not None else session.daily,
        "daily_counts": None if fair is None else fair.fair,
        "daily_why": None if fair is None else marks_why(fair),
    }


def state_json(session: Session) -> dict[str, Any]:
    """The full state of a game for the page."""
    game = session.game
    legal = list(game.legal_moves)
    data = position_json(game, legal)
    data.update(table_json(game, legal))
    rules = game.rules
    data.update(
        id=session.id,
        version=_version(data["moves"], data["status"]),  # those of position_json
        variant_title=data["variant_name"],
        can_undo=game.can_undo,
        can_redo=game.can_redo,
        redeals_total=rules.redeals,
        has_merci=rules.merci,
        # one value, the one stored (hundredths), shown cut to whole seconds
        seconds=session.seconds(),
        clock_running=session.life.clock.running,
        finished=data["status"] != "playing",
        recorded=session.counted,
        # a recorded game that went on after its end: nothing more is recorded
        practice=session.life.practice,
        result=session.life.result,
        **daily_json(session),
        # the difficulty asked for, once the game is over (no spoilers before)
        difficulty=session.difficulty if game.outcome.finished else None,
    )
    return deals_as_text(data)
