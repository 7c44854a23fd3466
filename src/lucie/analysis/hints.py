"""Hints: the best move for the player, and in a few words why.

The best move is judged by the odds objective (:mod:`lucie.analysis.odds`):
the exact one-deal solver lists the foundation states this deal can still
reach; the policy picks the one whose next random deal is worth most (in the
last deal: a win, else the highest score), and the hint is the first move of
the line there.  When the current state is already the best, the hint is to
redeal.  The search is budgeted (``max_seconds`` for the whole hint, value
searches included, and :data:`~lucie.solver.PLAYER_MAX_POSITIONS`
positions held by each search): when it runs out, the
hint is the best move found so far and its text says so.

Kinds (:attr:`Hint.kind`):

``foundation``
    a card goes home;
``safe-build``
    a build proved never to hurt, with the reason (see :func:`_safe_reason`);
    the text also names the card it uncovers, if the line plays it;
``unblock``
    a move (not proved safe) whose point is to uncover a card that the line
    then plays; the text names the freed card;
``build``, ``cell``
    another move of the best line;
``merci``
    use the merci now (names the card to lift);
``redeal``
    redeal now (no move is left, or stopping here is worth most);
``no-useful-move``
    moves remain but none can bring another card home: redeal;
``lost``
    the game can no longer be won, proved by the solver (the move, if any,
    still raises the score);
``none``
    the search was cut short before finding a useful move: nothing is
    claimed (the game is not said to be lost);
``won``
    the game is won.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from lucie.analysis.cache import ValueCache
from lucie.analysis.odds import Evaluator, Stop, stops
from lucie.cards import KING, Card, card_label
from lucie.engine import FAN_NAMES, REDEAL, Move, Position
from lucie.i18n import N_, _, ngettext
from lucie.solver import PLAYER_MAX_POSITIONS, shorten

if TYPE_CHECKING:
    from lucie.solver import RawResult

KINDS: Final = (
    "foundation", "unblock", "safe-build", "build", "cell", "merci", "redeal",
    "no-useful-move", "lost", "none", "won",
)

#: Notes added at the end of a hint's text (marked here, translated when a
#: hint is made, in the language in use then: see :mod:`lucie.i18n`).
BUDGET_NOTE: Final = N_("(the time budget ran out: best move found so far)")
FOLLOW_NOTE: Final = N_("(the line found before the time budget ran out)")
GOAL_NOTE: Final = N_("(this deal can be cleared)")

#: Values of between-deal states shared by the hints of one process.
_SHARED_CACHE: Final = ValueCache(None)
#: Samples per state the hints are content with (they top up the cache).
HINT_TARGET: Final = 16


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move (None for "nothing to play"), its kind and a sentence;
    ``budget_ran_out``: this hint's search or value sampling ran out of time
    (the move is the best found so far, and the text says so); ``clears``:
    whether the deal in play can still be cleared without a redeal (with
    the merci, where it is to come), as this hint's search found (True: it
    found a win; False: it proved there is none; None: its budget ran out
    first)."""

    move: Move | None
    kind: str
    text: str
    budget_ran_out: bool = False
    clears: bool | None = None

    def __str__(self) -> str:
        """The sentence, then the move's notation to type (line mode,
        ``lucie replay``), in the language in use; the kind is for
        programs (:meth:`to_json`)."""
        if self.move is None:
            return self.text
        return _("{hint} (type {move})").format(hint=self.text, move=self.move)

    def to_json(self) -> dict[str, object]:
        return {
            "move": str(self.move) if self.move is not None else None,
            "kind": self.kind,
            "text": self.text,
            "budget_ran_out": self.budget_ran_out,
            "clears": self.clears,
        }


def hint(
    position: Position,
    *,
    max_seconds: float = 2.0,
    cache: ValueCache | None = None,
    seed: int | None = 0,
    tell_clears: bool = False,
) -> Hint:
    """The best move from ``position`` and why (see the module doc).

    ``tell_clears``: end the text with "(this deal can be cleared)" when
    the line found clears the deal.  Off by default: a hint during a game
    does not give the deal's difficulty away (the screens tell it at the
    end); :attr:`Hint.clears` holds it for programs either way.

    ``max_seconds`` budgets the whole hint (the one-deal search gets about
    half, or all of it in a last deal, where no value is sampled);
    ``cache`` the values of between-deal states (default: one shared
    in-memory cache per process); ``seed`` the sampling of those values.
    """
    start = time.monotonic()
    if position.is_won:
        return Hint(None, "won", _("the game is won"), clears=True)
    legal = position.legal_moves()
    if not legal:
        return Hint(None, "lost", _("the game can no longer be won: no move is left"),
                    clears=False)
    with _LINES_LOCK:
        known = _LINES.get(position)
    if known is not None:
        return _told(_follow(position, known), tell_clears)
    ev = Evaluator(
        position.rules, cache if cache is not None else _SHARED_CACHE,
        rng=random.Random(seed), target=HINT_TARGET, deadline=start + max_seconds,
        sample_seconds=max(0.02, max_seconds / 8), max_positions=PLAYER_MAX_POSITIONS,
    )
    result, verdict = _search(ev, position, start, max_seconds)
    stop, complete = ev.choose_quick(position, result)
    deadline = start + max_seconds
    stop = _shortened(stop, deadline)
    cut_short = result.status == "unknown"
    budget_note = BUDGET_NOTE if cut_short or not complete else None
    movers = _movers(position, stop.moves)
    # in a last deal the verdict settles it, even if the best-score search
    # that followed was cut short
    clears = (verdict if verdict is not None else result).solvable
    if stop.moves and (cut_short or complete):
        # the rest of the line is the answer from the next position too (see
        # _LINES); not when only the sampling ran out: the next hint samples
        # on where this one stopped
        _remember_line(position, result, stop, movers, clears, deadline)
    advice = _explain(position, result, stop, legal, budget_note, movers)
    return _told(replace(advice, budget_ran_out=budget_note is not None, clears=clears),
                 tell_clears)


def _search(
    ev: Evaluator, position: Position, start: float, max_seconds: float,
) -> tuple[RawResult, RawResult | None]:
    """The hint's one-deal search, and the verdict when one was searched
    for (in a last deal, or when the frontier search was cut short)."""
    # half the budget for the search and half for the values it needs, but
    # a last deal needs no value: there the search has it all
    search_seconds = max(0.05, max_seconds * (1.0 if position.redeals_left == 0 else 0.5))
    result = verdict = None
    if position.redeals_left == 0:
        # the last deal: only a win or the score matters, and the exact
        # verdict (the fastest search) settles a won deal at once
        verdict = ev.verdict(position, search_seconds)
        if verdict.status != "unsolvable":
            # solved; or cut short, when its best line so far beats what the
            # time left could find
            result = verdict
        search_seconds = max(0.02, start + search_seconds - time.monotonic())
    if result is None:
        result = ev.solve(position, search_seconds)
        if result.status == "unknown" and verdict is None:
            # the frontier search was cut short: never hide a verdict the
            # fastest search can give (issue 28), with a quarter of the budget
            verdict = ev.verdict(position, max(0.02, search_seconds / 4))
            if verdict.status == "unknown":
                verdict = None
    return result, verdict


def _remember_line(
    position: Position, result: RawResult, stop: Stop, movers: tuple[Card | None, ...],
    clears: bool | None, deadline: float,
) -> None:
    """Keep the rest of the hint's line for the next hint (:data:`_LINES`):
    the line to ``stop``, or in a last deal that is not cleared the line to
    the best score when the search was complete."""
    cut_short = result.status == "unknown"
    end, end_movers = stop, movers
    if position.redeals_left == 0 and sum(stop.foundations) < 52 and not cut_short:
        end = _best(stops(position, result))
        if end.line != stop.line:
            end = _shortened(end, deadline)
            end_movers = _movers(position, end.moves)
    # clears holds along the line: a solved search's stop is its win
    # (Evaluator.choose), and a deal proved lost is lost from everywhere
    # it leads
    _remember(position, _Line(end.moves, sum(end.foundations), not cut_short,
                              end_movers, clears))


def _told(advice: Hint, tell_clears: bool) -> Hint:
    """``advice`` with the note that the deal can be cleared, if asked for
    and so (the note goes before any budget note)."""
    if not tell_clears or advice.move is None or not advice.clears:
        return advice
    note = " " + _(GOAL_NOTE)
    for budget in (BUDGET_NOTE, FOLLOW_NOTE):
        said = " " + _(budget)
        if advice.text.endswith(said):
            return replace(advice, text=advice.text[: -len(said)] + note + said)
    return replace(advice, text=advice.text + note)


@dataclass(frozen=True, slots=True)
class _Line:
    """The rest of the line of an earlier hint: its moves, the score at its
    end, whether its search was complete, the card each move plays
    (:func:`_movers`), and :attr:`Hint.clears` for the positions along it.

    ``clears`` is not read off ``score`` and ``exact`` alone: a last deal's
    verdict can prove the deal lost while the best-score search after it is
    cut short, and a deal proved lost is lost from every position it reaches.
    """

    moves: tuple[Move, ...]
    score: int
    exact: bool
    movers: tuple[Card | None, ...]
    clears: bool | None

    @property
    def won(self) -> bool:
        """Whether the line clears the deal."""
        return self.score == 52


#: Hints follow a line.  A hint's search picks a stop (a win, else the
#: state worth most for the next deal, or in the last deal the best score)
#: and the hint is the first move of the line there.  When the player plays
#: it, the stop is still reachable and nothing better is (whatever the new
#: position reaches was reachable before), so the rest of the same line is
#: the answer from the new position: the next hint needs no search.  The
#: merci, when it is to come, is one more move of the line.  A search cut
#: short by the budget leaves a line too (``exact`` false): the later hints
#: follow it and say so, rather than spend the budget again on the same
#: deal at every move.  Not kept when only the value sampling ran out of
#: time: the next hint samples on.  At the line's end the next hint searches
#: again (usually to say: redeal).  Keyed by the position after the hinted
#: move; the oldest entries go first.
_LINES: Final[dict[Position, _Line]] = {}
_LINES_MAX: Final = 4096
#: Servers ask for hints from several threads.
_LINES_LOCK: Final = threading.Lock()


def _remember(position: Position, line: _Line) -> None:
    """Keep the rest of ``line`` for the position its first move leads to."""
    if len(line.moves) < 2:
        return  # the next position is the line's end: its hint is cheap
    after = position.apply(line.moves[0])
    with _LINES_LOCK:
        while len(_LINES) >= _LINES_MAX:
            del _LINES[next(iter(_LINES))]
        _LINES[after] = replace(line, moves=line.moves[1:], movers=line.movers[1:])


def _follow(position: Position, line: _Line) -> Hint:
    """The hint from a position reached by following a remembered line."""
    _remember(position, line)
    first = line.moves[0]
    if not line.exact:
        advice = _classify(position, first, line.movers, FOLLOW_NOTE)
    elif line.won or position.redeals_left > 0:
        advice = _classify(position, first, line.movers, None)
    else:
        advice = _lost(position, first, line.score)
    return replace(advice, clears=line.clears)


def _shortened(stop: Stop, deadline: float) -> Stop:
    """``stop`` with the line every solver answer shows
    (:func:`~lucie.solver.shorten`: shortcuts, no round trip), as
    far as the hint's time allows: the hints then follow a line of useful
    moves."""
    if len(stop.line) < 2:
        return stop
    moves = shorten(stop.start, stop.moves, deadline=deadline)
    return Stop(stop.start, stop.foundations, stop.line, moves)


def _best(reaches: list[Stop]) -> Stop:
    """The best-scoring stop of a last deal (the shortest line among equals)."""
    return max(reaches, key=lambda r: (sum(r.foundations), -len(r.line)))


def _notes(*notes: str | None) -> str:
    """The notes (msgids, None for none) as they end a hint's text: each
    translated, after a space."""
    return "".join(" " + _(note) for note in notes if note is not None)


def _lost(position: Position, first: Move, score: int) -> Hint:
    return Hint(
        first, "lost",
        _("the game can no longer be won; the best score left is {score}: {move}").format(
            score=score, move=position.describe(first)),
    )


def _explain(
    position: Position, result: RawResult, stop: Stop, legal: list[Move], note: str | None,
    movers: tuple[Card | None, ...],
) -> Hint:
    """The hint from a search's ``result`` and chosen ``stop``, whose line
    plays ``movers`` (:func:`_movers`); ``note``: a note to end its text
    with (:data:`BUDGET_NOTE`), or None."""
    reaches = stops(position, result)
    won = sum(stop.foundations) == 52
    if position.redeals_left == 0 and not won and result.status != "unknown":
        best = _best(reaches)
        if best.moves:
            return _lost(position, best.moves[0], sum(best.foundations))
        return Hint(None, "lost", _("the game can no longer be won"))
    if not stop.moves or (not won and stop.foundations == position.foundations):
        if REDEAL not in legal:
            # a last deal whose search was cut short (a complete one is
            # handled above): nothing is proved
            return Hint(None, "none", _("no move found that brings a card home before "
                                        "the time budget ran out"))
        if legal == [REDEAL]:
            left = position.cards_in_play()
            return Hint(REDEAL, "redeal", ngettext(
                "no move left: redeal the {count} card left",
                "no move left: redeal the {count} cards left", left,
            ).format(count=left) + _notes(note))
        if all(r.foundations == position.foundations for r in reaches):
            return Hint(REDEAL, "no-useful-move",
                        _("no useful move left: redeal (no move here can bring another "
                          "card home)") + _notes(note))
        return Hint(REDEAL, "redeal",
                    _("redeal now: stopping here gives the best odds for the next deal")
                    + _notes(note))
    return _classify(position, stop.moves[0], movers, note)


def _classify(
    position: Position, move: Move, movers: tuple[Card | None, ...], note: str | None,
) -> Hint:
    """The hint for ``move``, the first of a line whose moves play
    ``movers`` (:func:`_movers`); ``note``: a note to end the text with, or None."""
    tail = _notes(note)
    said = position.describe(move)
    if move.src_kind == "card":
        card = Card(move.src)
        if position.where(card)[0] == "fan":
            return Hint(move, "merci", _("use the merci on {card}: {move}").format(
                card=card_label(card), move=said) + tail)
    if move.dst_kind == "foundation":
        return Hint(move, "foundation", said + tail)
    freed = _frees(position, move, movers)
    safe = _safe_reason(position, move)
    if safe is not None:
        if freed is not None:
            text = _("{move}: {reason}; it frees {card}").format(
                move=said, reason=safe, card=card_label(freed))
        else:
            text = _("{move}: {reason}").format(move=said, reason=safe)
        return Hint(move, "safe-build", text + tail)
    if freed is not None:
        return Hint(move, "unblock", _("{move}, to free {card}").format(
            move=said, card=card_label(freed)) + tail)
    kind = "cell" if "cell" in (move.src_kind, move.dst_kind) else "build"
    return Hint(move, kind, said + tail)


def _movers(position: Position, line: tuple[Move, ...]) -> tuple[Card | None, ...]:
    """The card each move of ``line`` plays, up to a redeal (worked out once
    per line: the hints that follow it only slice it)."""
    out: list[Card | None] = []
    pos = position
    for move in line:
        if move.is_redeal:
            break
        out.append(_moving_card(pos, move))
        pos = pos.apply(move)
    return tuple(out)


def _frees(position: Position, move: Move, movers: tuple[Card | None, ...]) -> Card | None:
    """The card uncovered by ``move`` (the first move of a line that plays
    ``movers``) if the line goes on to play it."""
    if move.src_kind != "fan":
        return None
    fan = position.fans[move.src]
    if len(fan) < 2:
        return None
    freed = fan[-2]
    return freed if freed in movers[1:] else None


def _moving_card(position: Position, move: Move) -> Card | None:
    if move.src_kind == "fan":
        return position.top(move.src)
    if move.src_kind == "cell":
        return position.cells[move.src]
    if move.src_kind == "card":
        return Card(move.src)
    return None


def _safe_reason(position: Position, move: Move) -> str | None:
    """Why a fan-to-fan build can never hurt, or None when that is not proved.

    Proved only under suit builds going down, with no cells, no ``max_fan``,
    no take-back and no merci to come (the settings of the solver's rule
    ``docs/solver.md#_proof_builds``, which has the proof).  The build
    lays ``X`` on ``X+1``; there ``X`` can only go home or onto ``X+1``, and
    nothing else can ever go on ``X+1``.  Covering ``X+1`` loses nothing when
    ``X+1`` could never usefully leave its fan anyway:

    a. it is a king and empty fans stay empty (a king only goes home, after ``X``);
    b. ``X+2`` lies under it (it can only go home, after ``X``);
    c. it is alone in its fan and empty fans stay empty.
    """
    rules = position.rules
    if move.src_kind != "fan" or move.dst_kind != "fan":
        return None
    if (rules.build != "suit" or rules.direction != "down" or rules.cells
            or rules.max_fan is not None or rules.foundation_takeback
            or position.merci_available or rules.empty_fill == "any"):
        return None
    target = position.fans[move.dst]
    if not target:
        return None
    top = target[-1]
    card = position.fans[move.src][-1]
    where = FAN_NAMES[move.dst]
    if rules.empty_fill == "none" and top.rank == KING:
        return _("safe: {top} is a king, which can only ever go home, and only after "
                 "{card}").format(top=card_label(top), card=card_label(card))
    if len(target) >= 2 and target[-2].suit_index == top.suit_index \
            and target[-2].rank == top.rank + 1:
        return _("safe: {top} lies on {under}, so it can only go home, and only "
                 "after {card}").format(top=card_label(top), under=card_label(target[-2]),
                                        card=card_label(card))
    if rules.empty_fill == "none" and len(target) == 1:
        return _("safe: {top} is alone in fan {fan}, so covering it loses nothing").format(
            top=card_label(top), fan=where)
    return None
