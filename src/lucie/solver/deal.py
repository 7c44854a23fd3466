"""The exact one-deal solver: can every card go home without a redeal?

:func:`solve_deal` searches every position reachable from a position
without a redeal (with the merci when :attr:`Position.merci_available`) and
answers exactly:

- ``solved``, with a winning line of engine :class:`~lucie.engine.Move`\\ s;
- ``unsolvable``, with the *frontier*: every foundation state (cards home
  per suit) that can be reached and is not dominated component-wise by
  another reachable one, each with a line that reaches it;
- ``unknown`` when the node, time or memory budget runs out first
  (``limit`` says which: ``nodes``, ``seconds``, or ``positions`` when a
  walk holds ``max_positions`` positions in its tables).

:func:`search_deal` is the same search answering with internal lines
(:class:`RawResult`), for callers that need only the foundation states or
play a line at once (:func:`reach_position`): the odds and the study.

>>> from lucie.engine import Game, Position
>>> from lucie.rules import Rules
>>> result = solve_deal(Position.deal(Rules(), 1))
>>> result.status, result.best_score > 0
('unsolvable', True)
>>> won = [n for n in range(1, 60) if solve_deal(Position.deal(Rules(), n),
...                                                frontier=False).status == "solved"]
>>> len(won) >= 1
True
>>> game = Game(Rules(), won[0])
>>> game.push_all(solve_deal(game.position).moves)
>>> game.position.is_won
True

How it stays exact and fast
---------------------------

The search is a depth-first walk over a private compact representation: a
card is its engine index ``suit * 13 + rank - 1``; a fan is one ``int``
holding ``card + 1`` in 6-bit digits, its top in the low bits (so the top
is ``fan & 63`` and popping it is ``fan >> 6``); the position key is the
``frozenset`` of fans (fan order does not matter), the sorted cells and the
merci flag.  Each position is expanded once (the memo also handles the
cycles that foundation take-back allows).  Moves are kept as
``(card, target)`` and turned back into engine moves by replaying them
through :meth:`Position.play`, so every returned line is checked by the
engine itself.

Six kinds of reduction keep the graph small; each is applied only under
the settings where its proof (in the docstring of the function named) holds:

- *forced moves* (:func:`_proof_foundation`, :func:`_proof_builds`): a move
  that can never hurt is played at once and its siblings are not explored;
- *useless moves* (:func:`_proof_lone`): a card alone in its fan is never
  moved onto another fan when empty fans stay empty;
- *deadlocks* (:func:`_proof_deadlock`, and :func:`_proof_merci_caps`
  while the merci is to come): a card that can never leave its fan
  caps its suit's foundation below the lower cards of its suit under it;
- *reach caps* (:func:`_proof_reach`, suit builds going down, and
  :func:`_proof_merci_reach` while the merci is to come): a card goes
  home only if every card above it could leave its fan at some time (and
  its suit could get that far); this bounds each foundation across fans;
- *room caps* (:func:`_proof_room`, other builds with a fan size limit):
  the same for any build, where a card leaves only onto a card that could
  be a top with room in its fan;
- *bounds*: a position whose foundation caps are dominated by a foundation
  state already reached cannot add to the frontier (with ``frontier=False``:
  a position that cannot be won is not searched further).
Under builds other than suit-down none of the build reductions hold, and
the order in which a walk tries the moves decides how soon it meets a win
or a high state that bounds the rest: there the walk restarts in other
move orders with growing node limits (:func:`_restarts`).
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from lucie.cards import DECK
from lucie.engine import Move, Position
from lucie.errors import LucieError
from lucie.rules import Rules
from lucie.solver.budget import DEFAULT_MAX_POSITIONS, BudgetExhaustedError, Limit
from lucie.solver.order import OrderMemo, merci_order_caps, order_caps
from lucie.solver.shorten import shorten_line, wanders

#: The solver's verdict on a deal (the engine's game status is
#: :data:`lucie.engine.Status`, another thing).
Verdict = Literal["solved", "unsolvable", "unknown"]

#: Internal move target codes (a target >= 0 is a fan index).
TO_FOUNDATION: Final = -1
TO_CELL: Final = -2

#: An internal move: (card index 0..51, target).
IMove = tuple[int, int]

#: Restarts (:func:`search_deal`, builds other than suit-down): the node
#: limit of the first walk, and the factor by which each next one grows.
RESTART_NODES: Final = 4096
RESTART_GROWTH: Final = 2


@dataclass(frozen=True, slots=True)
class Reach:
    """A foundation state reachable without a redeal, and a line to it."""

    foundations: tuple[int, int, int, int]
    moves: tuple[Move, ...]

    @property
    def score(self) -> int:
        return sum(self.foundations)


def _solvable(status: Verdict) -> bool | None:
    """A status as a verdict: can the deal be cleared (None: undecided)?"""
    return True if status == "solved" else False if status == "unsolvable" else None


@dataclass(frozen=True, slots=True)
class DealResult:
    """What :func:`solve_deal` found.

    ``moves``: the winning line when ``status == "solved"``, else ``()``.
    ``reachable``: the non-dominated foundation states, each with a line
    (when solved, only the win).  With ``frontier=False`` and an
    ``unsolvable`` verdict it holds the states met before the proof ended,
    which need not be the whole frontier.  ``nodes``: positions expanded.
    ``limit``: what ran out (``seconds``, ``nodes`` or ``positions``) when
    the status is ``unknown``, or when only the search for the best score
    after an ``unsolvable`` verdict was cut short (``complete`` is then
    false; :func:`solve_deal`'s ``verdict_first``), else None; ``held``: the most positions
    one walk held in its tables (never above ``max_positions``).
    """

    status: Verdict
    moves: tuple[Move, ...]
    reachable: tuple[Reach, ...]
    nodes: int
    seconds: float = 0.0
    complete: bool = True
    limit: Limit | None = None
    held: int = 0

    @property
    def budget_ran_out(self) -> bool:
        """Whether a budget (time, nodes or positions) cut the search short
        (the verdict, or only the score search after it: see ``limit``)."""
        return self.limit is not None

    @property
    def best_score(self) -> int:
        """Most cards on the foundations among the reachable states."""
        return max((r.score for r in self.reachable), default=0)

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when the budget ran out."""
        return _solvable(self.status)


# ---------------------------------------------------------------------------
# Proofs of the reductions (docstrings only; the code cites them)
# ---------------------------------------------------------------------------


def _proof_foundation() -> None:
    """Safe foundation moves.

    Claim: let ``X`` be a fan top or a cell card that may go home, with no
    foundation take-back and no merci still to come; let P' = P + (X home).
    Draw an arrow from a card W to a card Z when Z may be laid on W (by
    ``Rules.accepts``) and Z is not home in P', and let S be the cards
    that the arrows reach from ``X``.  Suppose that for each arrow W -> Z
    with W = ``X`` or in S, Z is the next card of its suit in P', or Z is
    W's successor (W's suit, one rank higher), or every chain of arrows
    from ``X`` to W passes through Z.  Then for every line L from P there
    is a line L' from P' whose foundations are at every step at least
    those of L.  (:meth:`Rules.home_is_safe` checks this, for the engine's autoplay too.)

    Proof: call *ghosts* the cards that L still has on the table and L'
    has sent home; at first only ``X``.  L' plays the moves of L but
    skips every move of a ghost, and where L lays a card Z that is not a
    ghost on a ghost W, L' sends Z home instead and Z becomes a ghost.
    Then, at every step:

    - each ghost is home in L', and came in along an arrow from an
      earlier ghost (Z is not home in P': it is on the table, and home
      cards stay home), so the ghosts are ``X`` and cards of S, and each
      is reached from ``X`` by a chain of ghosts that came in before it;
    - every card above a ghost in its fan is a ghost (a card becomes a
      ghost only as a top, and only ghosts are ever laid on ghosts);
    - the positions of L' are those of L without the ghosts, and its
      foundations are those of L plus the ghosts.

    When L lays Z on a ghost W and Z is not a ghost yet, W was reached by
    a chain of ghosts without Z, so the third case does not hold: Z is
    the next card of its suit in P', hence still in L' (foundations only
    grow, and Z is not yet home), or it is W's successor, and W is home in
    L'.  Z is a top or a cell card in L', as in L, so it may go home.
    Every other move of L moves a card that is a top or a cell card in L'
    too (taking ghosts away only uncovers cards) onto a top that is also
    one in L', into a cell (L' has at least as many free), into an empty
    fan (empty in L' too) or home (its predecessor is home in L, so in
    L').  Fans of L' are no longer than those of L, so ``max_fan`` allows
    as much, and a fan that holds ghosts only in L is empty in L', where L
    lays nothing on it but ghosts.  Only the merci could differ (a card
    under a ghost is buried in L but a top in L'), which is why the rule
    is off while a merci is to come.

    Under suit builds going down only ``X``'s predecessor may be laid on
    ``X``, and it is home: S is empty and every foundation move is safe.
    Under any-suit builds going down the rule holds once the cards one
    rank below ``X`` are each home or next in their suits (those two
    ranks below are then all home); under alternate colours, once those of
    the other colour are, and the other card of ``X``'s colour two ranks
    below; under builds up and down the cards one rank above count too,
    and the rule seldom holds before the end of a deal (a chain up ``X``'s
    own suit is harmless: each card follows the one below it home).
    """


def _proof_builds() -> None:
    """Safe builds under ``build=suit``, ``direction=down``.

    Settings: no cells, no ``max_fan``, no take-back, no merci to come,
    ``empty_fill`` ``none`` (or ``king`` for case b).  Then a card ``X`` can
    only go home or onto ``X+1`` (the next higher card of its suit), and a
    card goes home only after the lower cards of its suit.

    Claim: moving the top ``X`` of fan i onto ``X+1``, the top of fan j,
    never hurts when ``X+1`` can never usefully leave fan j except home:

    a. ``X+1`` is a king and ``empty_fill=none``: a king never goes on a
       fan, so it leaves only home, after ``X`` (its queen);
    b. ``X+2`` lies under ``X+1`` in fan j: ``X+1`` can only go onto
       ``X+2`` (never a top before ``X+1`` leaves) or home (after ``X``),
       and it is not a king, so ``empty_fill=king`` does not move it;
    c. ``X+1`` is alone in fan j and ``empty_fill=none``: moving it uncovers
       nothing, and leaves an empty fan that nothing can use.

    Proof: take any line L from P; let L' from P' = P + (X onto X+1) be L
    without its moves of ``X`` onto ``X+1`` and (case c) without its moves
    of ``X+1`` onto ``X+2``.  In L, while ``X`` waits on fan i, the only
    cards laid on it form the run ``X-1, X-2 ...``; L' lays the same cards
    on ``X`` in fan j.  So each position of L' is that of L with the stack
    ``X+1, X, X-1 ...`` in fan j (in case c also: ``X+2`` uncovered), and
    the cards of fan i under ``X`` uncovered earlier.  Every move of L
    that L' keeps moves a top card of L' onto a top card of L' (the cards
    that L reaches under ``X`` are already tops in L'; ``X+1`` receives
    nothing but ``X``), and with no ``max_fan`` and no use for empty fans
    (or only kings, which never go where these cards were) fan sizes do
    not matter.  Foundations are equal at every step.
    """


def _proof_merci_caps() -> None:
    """Foundation caps with the merci still to come.

    Settings: those of :func:`_proof_deadlock`, but the merci may still be
    used once.  Take any line L from the position; it uses the merci at most
    once, lifting some card ``c`` that is buried *then* (it may be a top
    now and be covered later).  Compare L with the position in
    which ``c`` has been taken off the table altogether (free to go home
    whenever its suit allows, covering nothing): every fact the dead-card
    analysis of :func:`_proof_deadlock` uses about the cards other than
    ``c`` (a card is stuck: each card it may go on lies under it in its fan
    or is home; it lies above a lower card of its suit; it lies under a dead
    stuck card) holds in the position without ``c`` and stays true along L,
    before the merci (plain moves cannot change it) and after it (lifting
    ``c`` moves no other card, and laying ``c`` on a fan only covers
    cards).  So L's foundations stay within the caps computed without
    ``c`` (or, if L never uses the merci, within the plain caps, which are
    lower).  The caps with the merci to come are therefore the larger,
    suit by suit, of those over every card ``c`` on the table.  A card whose
    fan holds no stuck card now need not be tried: the analysis only starts
    from stuck cards, and a stuck card's condition only involves the cards
    of its own fan (and the foundations), so taking such a card away gives
    the plain caps (and if it later lands on a fan with a stuck card and is
    lifted from there, that fan is back as it was).
    """


def _proof_pair_home() -> None:
    """A foundation move that is safe with the merci still to come.

    Settings: ``build=suit``, ``direction=down``, ``empty_fill=none``, no
    take-back, the merci still to come and not the strict merci (cells and
    ``max_fan`` allowed).

    Claim: let ``X`` be the top of a fan of exactly two cards ``[Y, X]``,
    and let ``X`` be the next card of its suit to go home.  For every line
    L from P there is a line L' from P' = P + (X home) whose foundations
    are at every step at least those of L, so the search may make the move
    at once (and again after it, until no such move is left).

    Proof: L' plays L's moves, skipping those of ``X``.  The positions keep
    this relation: those of L' are those of L with ``X`` (and later perhaps
    ``X+1``, see below) taken out, and L' has the merci if L has.  Only
    ``X-1`` could ever be laid on ``X``, and it is home; so nothing is ever
    laid on ``X`` but the merci's card.  Foundation moves and moves of a top
    card onto a top card carry over as in :func:`_proof_foundation` (a top
    of L that is not ``X`` is a top of L'; the fans of L' are no longer;
    nothing may go into an empty fan).  The merci of L lifts a buried card
    ``z`` and lays it on a fan ``G``:

    - if ``z`` is buried in L' too, L' lifts it and lays it on ``G``,
      which is not empty in L': ``G`` would have to be ``X`` alone, and
      ``X`` is never alone in L (``Y`` cannot leave from under it but by
      the merci, and ``X`` cannot go into an empty fan);
    - if ``z`` is a top in L', ``X`` lies right on it in L.  Either ``z``
      is ``Y`` (``X`` never left): if ``G`` is their own fan, L holds
      ``[X, Y]`` where L' holds ``[Y]``, the relation as it was; else L is
      left with ``[X]`` and ``Y`` on ``G``, L' with ``[Y]`` and ``G`` as
      it was.  From then on the stack
      on ``Y`` in L (it grows and shrinks at its top) stands alone in L';
      its top is the same card in both, ``G``'s top is a top in L' even
      when covered in L, the fans of L' are no longer, and the only other
      difference, ``X`` on the table in L, is the first case.  Or ``X``
      was laid on ``z = X+1``: in L' ``X+1`` is now next to go home, and
      L' sends it home; the relation holds with both cards taken out (only
      ``X`` could be laid on ``X+1``, and the merci is spent in L).

    So each move of L is matched, and L' ends at least as high.  A lone
    ``X`` is not covered: in L the merci's card may be laid on it, where in
    L' its fan is empty and cannot take the card.
    """


def _proof_lone() -> None:
    """A lone card is never worth moving onto another fan.

    Settings: ``empty_fill=none``, no merci to come (any build, direction,
    cells, ``max_fan`` or take-back).

    Claim: let ``X`` be alone in fan i, and P' = P + (X onto the top ``T``
    of fan j).  For every line L' from P' there is a line L from P whose
    foundations are the same at every step.

    Proof: L plays the moves of L' but leaves ``X`` in fan i where L' has
    it on ``T``.  In L' the cards that ever lie on ``X`` form a stack that
    only grows or shrinks at its top (one card moves at a time); in L the
    same stack grows and shrinks on fan i.  So each position of L is that
    of L' with the stack moved from above ``T`` to fan i, where it is alone
    (nothing can go into an empty fan, so in L' fan i stays empty): the
    tops are the same cards, except that ``T`` is a top in L whenever it is
    covered by the stack in L', and fan sizes in L are at most those of L'
    (fan i holds the stack alone, fan j lacks it).  Every move of L' is
    therefore legal in L: moves of and onto the stack's top card are the
    same; ``T`` and the cards under it only gain freedom; ``max_fan`` allows
    at least as much.  Foundation moves are the same.  Applied over and
    over to the first lone move of a line (each time the line gets one
    move shorter, so this ends), it gives a line without lone moves that is
    as good at every step: the search may skip them everywhere.  The merci breaks
    this (in L' ``T`` is buried and may be lifted anywhere), and so does an
    empty fan that could take a card.
    """


def _proof_deadlock() -> None:
    """Deadlocked cards and the foundation caps.

    Settings: no cells, no merci to come, no take-back, ``empty_fill``
    ``none`` or ``king``.  Then a card leaves its fan only to go home, onto
    a fan top that accepts it, or (``king``) into an empty fan.

    A card ``A`` is *stuck* (it can leave its fan only to go home) when no
    empty fan may take it and every card it may be laid on lies under it in
    the same fan (such a card cannot be a top while ``A`` covers it) or is
    already home (it never comes back).  Under suit builds going down this
    is: a king (``empty_fill=none``), or ``A+1`` under ``A``.

    A card is *dead* when it can never go home.  A stuck card above a lower
    card ``B`` of its own suit is dead (it goes home only after ``B``, which
    it covers), and so is a stuck card whose suit is capped below its rank.
    Every card under a dead stuck card is dead (it never leaves the fan).
    A dead card caps its suit's foundation below its rank; this is iterated
    to a fixed point.  ``B`` under a stuck ``A`` of its suit thus caps that
    suit at ``rank(B) - 1``.  The caps bound every foundation state
    reachable from the position (and so from its descendants); a win needs
    them all at 13.

    Under suit builds going down a card only becomes stuck when it is laid
    on ``A+1``, so a child's caps are its parent's, lowered for the fan that
    received a card (a lower card of the new top's suit under it), which can
    drop the child before it is stacked; every position searched then gets
    the reach caps of :func:`_proof_reach`, which contain this analysis
    (a child made by the merci starts from its lifted card's caps,
    :func:`_proof_merci_reach`).  Under the other
    builds, where a card also becomes stuck when its targets go home, it
    runs at every position.
    """


def _proof_reach() -> None:
    """Reach caps: what could happen at all, ignoring when.

    Settings: builds in suit going down, no cells, no take-back, no merci to
    come, ``empty_fill`` ``none`` or ``king`` (``max_fan`` may be set: it
    only forbids moves).  A card then leaves its fan only to go home, onto
    the next higher card of its suit while that card is a top, or (a king,
    under ``king``) into an empty fan.

    For the cards on the table define the least sets T, M, H such that
    (fans and foundations as they are now):

    - c is in T (*may become a top*) when every card above c in its fan is
      in M;
    - c is in M (*may leave its fan*) when c is in T and c is in H, or
      ``c+1`` is in T, or c is a king that may go into an empty fan;
    - c is in H (*may go home*) when c is in T and its suit's foundation
      is at c's rank, or ``c-1`` is in H.

    Claim: along any line from the position, every card that goes home is
    in H; so each suit's foundation stays below the lowest card of that suit
    on the table that is not in H (the *reach caps*).

    Proof, by induction over the moves of the line: every card that has been
    a top is in T, every card that has left the fan it is in now is in M,
    and every card that has gone home is in H.  Cards are taken from a fan
    only at its top and laid only on its top, so before c is first a top
    every card above it now has left the fan (each is in M, by induction):
    c is in T.  When c first leaves its fan it is a top (in T) and goes
    home (c is in H, below), or onto ``c+1``, which is a top then and so was
    one before (in T), or (a king) into an empty fan.  When c goes home it
    is a top, so it has been one (T), and ``c-1`` went home before it (H,
    by induction) or was home at the start.  The least sets are what the
    rules above build from nothing, so they contain every set closed under
    them, in particular the sets of what the line does.

    The caps bound every foundation state reachable from the position, as
    those of :func:`_proof_deadlock` do, and are never looser: a stuck card
    (``c+1`` under it, or a king that may not move) is in M only if in H,
    so a dead card's fan never opens below it.  They also see cycles across
    fans (9C waiting for 10C, which lies under 3H, which waits for 2H, which
    lies under 9C).  They ignore timing, so they are loose where many cards
    could be laid on many others: under the other builds they were measured
    to cut few positions and to cost more than they saved, and they are
    used under suit builds going down only.
    """


def _proof_merci_reach() -> None:
    """Reach caps with the merci still to come.

    Settings: those of :func:`_proof_reach`, but the merci may still be used
    once.  Take any line L from the position that uses the merci, lifting
    some card ``z`` (buried then, wherever it is now) and laying it on a fan.
    Compare with the position in which ``z`` stands alone in a fan of its
    own, and run the induction of :func:`_proof_reach` on L there: a card
    other than ``z`` that becomes a top had every card now above it, but
    ``z``, leave its fan by a plain move (in M); ``z`` is in T (alone in its
    fan); a card that leaves its fan by a plain move goes home or onto a
    card that has been a top (``z`` included); a card that goes home is a
    top whose predecessor went home before.  So everything L does lies in the
    least sets of that position, whose constraints are those of the real one
    minus some (``z`` no longer covers the cards under it now, nor the cards
    of the fan it is laid on later).  A line that never uses the merci stays
    within the plain reach caps.  The caps with the merci to come are
    therefore the larger, suit by suit, of the plain caps and of the caps
    with each card ``z`` alone.  A card already in M need not be tried: the
    plain least sets satisfy every rule of the position with ``z`` alone
    (``z``'s fan opens below it anyway), so its least sets are the plain
    ones.

    The caps of each ``z`` also bound every position after a merci that
    lifted ``z`` (lines from there are the ends of lines that lift ``z``),
    so the search gives them to those children, and drops them all when
    they cannot beat what is already reached.
    """


def _proof_room() -> None:
    """Room caps: what could happen at all when fans have a size limit.

    Settings: ``max_fan`` = m is set, ``empty_fill=none``, no cells, no
    take-back, no merci to come, any build and direction (the search uses
    them where the builds are not suit-down, where the caps of
    :func:`_proof_reach` do not hold).  By :func:`_proof_lone` it is enough
    to bound the lines that never move a lone card onto a fan: in those, a
    card at the bottom of its fan (position 0) leaves it only to go home,
    and no card ever comes to lie at position 0.  A card may be laid on a
    top only while that top's fan holds fewer than m cards (it has *room*).

    For the cards on the table define the least sets T, M, H, R such that
    (fans and foundations as they are now, ``pos(c)`` the position of c in
    its fan, 0 at the bottom):

    - c is in T (*may become a top*) when every card above c is in M;
    - c is in H (*may go home*) when c is in T and its suit's foundation is
      at c's rank, or ``c-1`` is in H;
    - c is in M (*may leave its place*) when c is in T, and c is in H, or
      ``pos(c) > 0`` and some card that c may be laid on is in R;
    - c is in R (*may be a top with room*) when c is in T and
      ``pos(c) < m - 1``, or c is in M and c may be laid on some card b in R
      whose position lets c have room there: ``pos(b) = 0`` when m = 3, any
      b when m > 3, none when m < 3.

    Claim: along any such line from the position, every card that goes
    home is in H; so each suit's foundation stays below the lowest card of
    that suit on the table that is not in H (the *room caps*).

    Proof, by induction over the moves of the line: every card that has
    been a top is in T, every card that has left its place (its position
    now) is in M, every card that has gone home is in H, and every card on
    which a card has been laid is in R.  Cards are taken only from tops
    and laid only on tops, so before c is first a top every card above it
    has left its place (in M): c is in T.  When c goes home it is a top,
    and ``c-1`` went home before it or was home at the start.  When c
    first leaves its place it is a top and goes home (in H), or, not being
    a bottom, is laid on a card h (in R, below).  When a card is laid on h,
    h is a top of a fan of fewer than m cards.  If h has never left its
    place, the cards under it are those of now, so ``pos(h) < m - 1``, and
    h is in T.  Otherwise h is in M and lies on the card b it was laid on
    when it last moved, so b is in R, and h's fan holds b, h and the cards
    under b, fewer than m: for m = 2 that cannot be, and for m = 3 b is
    alone under h, so b is at the bottom, where it has always been
    (``pos(b) = 0``).  The least sets are what the rules build from
    nothing, so they contain the sets of what the line does.

    The caps contain the dead cards of :func:`_proof_deadlock` (a stuck
    card is in M only if in H, and a card under it is never in T), so the
    search uses them instead.  They also see room run out: a card whose
    every possible host lies in full fans that can never open waits for
    ever, and so does everything under it.
    """


# ---------------------------------------------------------------------------
# The per-rules tables
# ---------------------------------------------------------------------------


class _Tables:
    """What the search needs to know about a set of rules, precomputed."""

    __slots__ = (
        "any_fill",
        "cells",
        "dead_cards",
        "fill_ok",
        "home_always_safe",
        "max_fan",
        "merci",
        "onto",
        "room",
        "rules",
        "safe_build_fill",
        "strict",
        "suit_down",
        "takeback",
        "under",
    )

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: onto[c]: the cards that c may be laid on (:meth:`Rules.homes`).
        self.onto: tuple[tuple[int, ...], ...] = tuple(
            tuple(int(t) for t in tops) for tops in rules.homes()
        )
        #: under[h]: the cards that may be laid on h.
        self.under: tuple[tuple[int, ...], ...] = tuple(
            tuple(c for c in range(52) if h in self.onto[c]) for h in range(52)
        )
        self.fill_ok: tuple[bool, ...] = tuple(rules.accepts((), c) for c in DECK)
        self.any_fill = any(self.fill_ok)
        self.max_fan = rules.max_fan
        self.cells = rules.cells
        self.takeback = rules.foundation_takeback
        self.merci = rules.merci
        self.strict = rules.redeal_only_when_stuck
        self.suit_down = not wanders(rules)
        # _proof_builds / _proof_deadlock settings (merci checked per node)
        self.safe_build_fill: str | None = (
            rules.empty_fill
            if self.suit_down and rules.cells == 0 and rules.max_fan is None
            and not rules.foundation_takeback and rules.empty_fill != "any"
            else None
        )
        # under suit-down every foundation move is safe (_proof_foundation)
        self.home_always_safe = self.suit_down
        # the settings of _proof_deadlock (the merci is checked per position)
        self.dead_cards = rules.cells == 0 and not rules.foundation_takeback \
            and rules.empty_fill != "any"
        #: the settings of _proof_room (builds other than suit-down, whose
        #: reach caps are those of _proof_reach; the merci checked per position)
        self.room = self.dead_cards and not self.suit_down \
            and rules.max_fan is not None and rules.empty_fill == "none"


_TABLES: dict[Rules, _Tables] = {}


def _tables(rules: Rules) -> _Tables:
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = _Tables(rules)
    return t


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


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


def fan_len(value: int) -> int:
    return (value.bit_length() + 5) // 6


def _is_stuck(
    cards: list[int],
    p: int,
    found: list[int] | tuple[int, ...],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> bool:
    """Whether ``cards[p]`` can leave its fan only to go home: no empty fan
    takes it, and every card it may go on lies under it or is home."""
    a = cards[p]
    if fill_ok[a]:
        return False
    below = cards[:p]
    return all(t in below or found[t // 13] > t % 13 for t in onto[a])


#: What the dead-card analysis needs of one fan (see :func:`_fan_stuck`).
_FanStuck = tuple[tuple[int, int, int, int], tuple[tuple[int, int, tuple[int, int, int, int]], ...]]
#: ``(fan, foundations)`` -> its :data:`_FanStuck` (None: no stuck card).
StuckMemo = dict[tuple[int, tuple[int, int, int, int]], _FanStuck | None]


def _fan_stuck(
    f: int,
    found: list[int] | tuple[int, ...],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
) -> _FanStuck | None:
    """The stuck cards of fan ``f`` (:func:`_proof_deadlock`), ready for the
    fixed point: None when there is none, else ``(dead, maybe)``.

    ``dead``: per suit, the lowest rank under a stuck card that lies above
    a lower card of its own suit (such a card is dead whatever the caps;
    13 where none); ``maybe``: for each other stuck card, its suit, its rank
    and the same per-suit lowest ranks under it, which count once the
    card's suit is capped at or below its rank.
    """
    cards = decode_fan(f)
    dead = [13, 13, 13, 13]
    maybe: list[tuple[int, int, tuple[int, int, int, int]]] = []
    for p in range(1, len(cards)):
        if not _is_stuck(cards, p, found, onto, fill_ok):
            continue
        s, r = divmod(cards[p], 13)
        low = [13, 13, 13, 13]
        lower = False
        for b in cards[:p]:
            bs, br = divmod(b, 13)
            if br < low[bs]:
                low[bs] = br
            if bs == s and br < r:
                lower = True
        if lower:
            for k in range(4):
                if low[k] < dead[k]:
                    dead[k] = low[k]
        else:
            maybe.append((s, r, (low[0], low[1], low[2], low[3])))
    if not maybe and dead == [13, 13, 13, 13]:
        return None
    return (dead[0], dead[1], dead[2], dead[3]), tuple(maybe)


def _stuck_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: StuckMemo | None = None,
) -> list[int]:
    """Lower ``caps`` for the dead cards of a position (:func:`_proof_deadlock`);
    returns the indexes of the fans that hold a stuck card.

    Which cards of a fan are stuck depends on the fan and the foundations
    alone; ``memo`` keeps that per ``(fan, foundations)`` across the
    positions of one search (most of a position's fans are its parent's).
    """
    maybe: list[tuple[int, int, tuple[int, int, int, int]]] = []
    holding: list[int] = []
    fkey = (found[0], found[1], found[2], found[3])
    for i, f in enumerate(fans):
        if f < 64:
            continue
        if memo is None:
            entry = _fan_stuck(f, found, onto, fill_ok)
        else:
            mkey = (f, fkey)
            if mkey in memo:
                entry = memo[mkey]
            else:
                entry = memo[mkey] = _fan_stuck(f, found, onto, fill_ok)
        if entry is None:
            continue
        holding.append(i)
        dead = entry[0]
        for k in range(4):
            if dead[k] < caps[k]:
                caps[k] = dead[k]
        maybe.extend(entry[1])
    # a stuck card whose suit is capped at or below its rank is dead too
    changed = True
    while changed and maybe:
        changed = False
        rest = []
        for s, r, low in maybe:
            if r >= caps[s]:
                for k in range(4):
                    if low[k] < caps[k]:
                        caps[k] = low[k]
                        changed = True
            else:
                rest.append((s, r, low))
        maybe = rest
    return holding


def _reach_states(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    king_moves: bool,
) -> tuple[list[int], dict[int, int]]:
    """The least sets of :func:`_proof_reach` (suit builds going down;
    ``king_moves``: a king may go into an empty fan), as a state per card:
    0 not in T, 1 in T, 2 also in M, 3 also in H; and, for each fan, its
    deepest card in T but not in M with the cards under it (encoded).

    The least fixed point is found with a work list (:func:`_reach_close`).
    """
    st = [0] * 52
    rest: dict[int, int] = {}
    work: list[int] = []
    for f in fans:
        if f:
            c = (f & 63) - 1
            st[c] = 1
            rest[c] = f >> 6
            work.append(c)
    _reach_close(st, rest, work, found, king_moves)
    return st, rest


def _expose(st: list[int], rest: dict[int, int], work: list[int], g: int) -> None:
    """The top of the cards ``g`` (encoded) may become a top: into T, with
    the cards under it kept, to be looked at (and so its predecessor,
    which may be laid on it)."""
    y = (g & 63) - 1
    st[y] = 1
    rest[y] = g >> 6
    work.append(y)
    if y % 13 and st[y - 1] == 1:
        work.append(y - 1)


def _reach_close(
    st: list[int],
    rest: dict[int, int],
    work: list[int],
    found: list[int] | tuple[int, ...],
    king_moves: bool,
) -> None:
    """Raise ``st`` to the least fixed point from the cards in ``work``
    (whose conditions may have changed).  A card's state only rises, so
    each card is raised at most three times and looked at a few times more;
    starting from states that the rules derive, the result is the least
    fixed point."""
    while work:
        c = work.pop()
        v = st[c]
        if v == 3:
            continue
        s = c // 13
        r = c - s * 13
        if found[s] == r or (r and st[c - 1] == 3):
            st[c] = 3
            if r < 12 and 0 < st[c + 1] < 3:
                work.append(c + 1)  # its successor may go home now
        elif v == 1 and ((r < 12 and st[c + 1] > 0) or (r == 12 and king_moves)):
            st[c] = 2
        else:
            continue
        if v == 1:  # c may leave its fan: the card under it may become a top
            g = rest.pop(c)
            if g:  # _expose, written out: this loop is the search's hot path
                y = (g & 63) - 1
                st[y] = 1
                rest[y] = g >> 6
                work.append(y)
                if y % 13 and st[y - 1] == 1:
                    work.append(y - 1)  # its predecessor may be laid on it


def _home_caps(st: list[int], found: list[int] | tuple[int, ...]) -> list[int]:
    """Per suit, the foundation's bound: the lowest card out whose state is
    below 3 (not in H)."""
    out = [13, 13, 13, 13]
    for s in range(4):
        r = found[s]
        base = s * 13
        while r < 13 and st[base + r] == 3:
            r += 1
        out[s] = r
    return out


def _reach_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    king_moves: bool,
) -> None:
    """Lower ``caps`` to the reach caps of :func:`_proof_reach`."""
    home = _home_caps(_reach_states(fans, found, king_moves)[0], found)
    for s in range(4):
        if home[s] < caps[s]:
            caps[s] = home[s]


def _merci_reach_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    king_moves: bool,
) -> dict[int, tuple[int, int, int, int]]:
    """Lower ``caps`` to the reach caps with the merci still to come
    (:func:`_proof_merci_reach`): the larger, suit by suit, of the reach
    caps with each card that cannot leave its fan standing alone.

    Returns, for each card on the table, caps that bound every line whose
    merci lifts that card (13s for the cards not tried once the caps are
    all 13), which lets the search drop a lifted card's children at once.
    The least sets with a card alone contain the plain ones, so each is
    found from the plain ones, by raising only what the lifted card changes.
    """
    st0, rest0 = _reach_states(fans, found, king_moves)
    plain = _home_caps(st0, found)
    full = (13, 13, 13, 13)
    plain_t = (plain[0], plain[1], plain[2], plain[3])
    best = plain
    per_card: dict[int, tuple[int, int, int, int]] = {}
    for f in fans:
        if not f:
            continue
        # the fan's deepest card in T but not in M (every fan has one, or
        # every card of it is in M)
        e = -1
        g = f
        while g:
            c = (g & 63) - 1
            if st0[c] == 1:
                e = c
                break
            g >>= 6
        while f:
            z = (f & 63) - 1
            f >>= 6
            if st0[z] >= 2:
                per_card[z] = plain_t  # it can leave anyway: the same caps
                continue
            if best[0] + best[1] + best[2] + best[3] == 52:
                per_card[z] = full
                continue
            st = st0[:]
            rest = dict(rest0)
            work: list[int] = []
            if z == e:  # the card under it may now become a top
                under = rest.pop(z)
                if under:
                    _expose(st, rest, work, under)
            else:  # buried deeper: out of the cards under e
                below = decode_fan(rest[e])
                below.remove(z)
                rest[e] = encode_fan(below)
            _expose(st, rest, work, z + 1)  # alone in a fan of its own
            _reach_close(st, rest, work, found, king_moves)
            home = _home_caps(st, found)
            per_card[z] = (home[0], home[1], home[2], home[3])
            for s in range(4):
                if home[s] > best[s]:
                    best[s] = home[s]
    for s in range(4):
        if best[s] < caps[s]:
            caps[s] = best[s]
    return per_card


def _merci_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    fill_ok: tuple[bool, ...],
    memo: StuckMemo | None = None,
) -> None:
    """Lower ``caps`` for a position with the merci still to come
    (:func:`_proof_merci_caps`; ``memo`` as for :func:`_stuck_caps`)."""
    plain = [13, 13, 13, 13]
    holding = _stuck_caps(fans, found, plain, onto, fill_ok, memo)
    if plain[0] + plain[1] + plain[2] + plain[3] == 52:
        return
    best = plain
    # only the cards of a fan that holds a stuck card can change the caps
    for i in holding:
        cards = decode_fan(fans[i])
        for k in range(len(cards)):  # the top too: it may be covered, then lifted
            lifted = list(fans)
            lifted[i] = encode_fan(cards[:k] + cards[k + 1:])
            cl = [13, 13, 13, 13]
            _stuck_caps(lifted, found, cl, onto, fill_ok, memo)
            best = [max(best[s], cl[s]) for s in range(4)]
            if best[0] + best[1] + best[2] + best[3] == 52:
                return
    for s in range(4):
        if best[s] < caps[s]:
            caps[s] = best[s]


def _room_caps(
    fans: list[int] | tuple[int, ...],
    found: list[int] | tuple[int, ...],
    caps: list[int],
    onto: tuple[tuple[int, ...], ...],
    under: tuple[tuple[int, ...], ...],
    max_fan: int,
) -> None:
    """Lower ``caps`` to the room caps of :func:`_proof_room`.

    ``under[h]``: the cards that may be laid on ``h``.  A card's state is
    a set of bits (1 T, 2 M, 4 H, 8 R) that only grow; a card is looked at
    again whenever a bit it depends on appears, which reaches the least
    fixed point.
    """
    st = [0] * 52
    pos = [-1] * 52
    below = [-1] * 52
    work: list[int] = []
    for f in fans:
        if f:
            n = (f.bit_length() + 5) // 6
            top = (f & 63) - 1
            st[top] = 1
            work.append(top)
            g = f
            k = n - 1
            while g:
                c = (g & 63) - 1
                g >>= 6
                pos[c] = k
                k -= 1
                below[c] = (g & 63) - 1 if g else -1
    last = max_fan - 1
    while work:
        c = work.pop()
        v = st[c]
        nv = v
        s = c // 13
        r = c - s * 13
        if not nv & 4 and (found[s] == r or (r and st[c - 1] & 4)):
            nv |= 6
        if not nv & 2 and pos[c] > 0:
            for h in onto[c]:
                if st[h] & 8:
                    nv |= 2
                    break
        if not nv & 8:
            if pos[c] < last:
                nv |= 8
            elif nv & 2 and max_fan >= 3:
                for b in onto[c]:
                    if st[b] & 8 and (max_fan > 3 or pos[b] == 0):
                        nv |= 8
                        break
        if nv == v:
            continue
        st[c] = nv
        gained = nv & ~v
        if gained & 2:
            y = below[c]
            if y >= 0 and not st[y]:
                st[y] = 1
                work.append(y)
        if gained & 4 and r < 12 and st[c + 1]:
            work.append(c + 1)
        if gained & 8:
            for x in under[c]:
                if st[x]:
                    work.append(x)
    for s in range(4):
        k = found[s]
        base = s * 13
        while k < 13 and st[base + k] & 4:
            k += 1
        if k < caps[s]:
            caps[s] = k


def _new_stuck(fan: int, caps: list[int]) -> None:
    """Caps after a card X was laid on X+1 at the top of ``fan`` (suit-down)."""
    x = (fan & 63) - 1
    s, r = divmod(x, 13)
    rest = fan >> 12  # below X and X+1
    while rest:
        b = (rest & 63) - 1
        rest >>= 6
        if b // 13 == s and b % 13 < r and b % 13 < caps[s]:
            caps[s] = b % 13


# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


def _dominated(
    pareto: dict[tuple[int, int, int, int], object],
    caps: list[int] | tuple[int, ...],
) -> bool:
    """Whether a reached foundation state is at least ``caps`` in every suit
    (then nothing under these caps can add to the frontier)."""
    for q in pareto:
        if q[0] >= caps[0] and q[1] >= caps[1] and q[2] >= caps[2] and q[3] >= caps[3]:
            return True
    return False


def solve_deal(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    frontier: bool = True,
    restart_nodes: int | None = RESTART_NODES,
    shorten: bool | None = None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
    verdict_first: bool | None = None,
) -> DealResult:
    """Decide exactly whether ``position`` can be cleared without a redeal.

    ``frontier=True`` (default) also collects every non-dominated reachable
    foundation state; ``frontier=False`` stops at the first win, or once no
    win is possible (fastest verdict).  ``max_nodes`` / ``max_seconds``
    bound the work, ``max_positions`` the memory (positions held by a walk
    in its tables, :data:`~lucie.solver.budget.DEFAULT_MAX_POSITIONS` by
    default; ``None``: no cap): when one is exceeded the status is
    ``unknown`` and ``limit`` names it (``reachable`` then holds what was
    found so far).  ``restart_nodes``: see
    :func:`search_deal`.  ``shorten``: take shortcuts in each line
    (:func:`lucie.solver.shorten.shorten_line`); by default under builds
    other than suit-down, where the walk's lines wander (suit-down lines
    are made of forced and useful moves, and a verdict in a millisecond
    should stay one).

    ``verdict_first`` (with ``frontier=True``; by default whenever
    ``max_nodes`` or ``max_seconds`` is given): settle the verdict first
    (the fastest search, ``frontier=False``) and spend only the budget left
    on the frontier, so a verdict is never hidden by a score search that
    runs out: the status is then ``unsolvable`` with ``complete`` false and
    ``limit`` set, ``reachable`` the best states both searches found.
    """
    start = time.monotonic()
    if verdict_first is None:
        verdict_first = max_nodes is not None or max_seconds is not None
    if frontier and verdict_first:
        raw = _verdict_then_frontier(position, max_nodes, max_seconds, restart_nodes,
                                     max_positions)
    else:
        raw = search_deal(position, max_nodes=max_nodes, max_seconds=max_seconds,
                          frontier=frontier, restart_nodes=restart_nodes,
                          max_positions=max_positions)
    if shorten is None:
        shorten = wanders(position.rules)

    def engine_line(line: tuple[IMove, ...]) -> tuple[Move, ...]:
        moves = to_engine_moves(position, line)
        # the shortcuts within the same time budget (past it, lines stay as found)
        deadline = None if max_seconds is None else start + max_seconds
        return shorten_line(position, moves, deadline=deadline) if shorten else moves

    reach = tuple(Reach(found, engine_line(line)) for found, line in raw.lines)
    moves = reach[0].moves if raw.status == "solved" else ()
    return DealResult(raw.status, moves, reach, raw.nodes, raw.seconds, raw.complete,
                      raw.limit, raw.held)


def _verdict_then_frontier(
    position: Position,
    max_nodes: int | None,
    max_seconds: float | None,
    restart_nodes: int | None,
    max_positions: int | None,
) -> RawResult:
    """The verdict (``frontier=False``) within the budget, then the frontier
    within what is left (:func:`solve_deal`'s ``verdict_first``)."""
    verdict = search_deal(position, max_nodes=max_nodes, max_seconds=max_seconds,
                          frontier=False, restart_nodes=restart_nodes,
                          max_positions=max_positions)
    if verdict.status != "unsolvable":
        return verdict  # a win (its line is the answer), or nothing settled
    nodes_left = None if max_nodes is None else max_nodes - verdict.nodes
    seconds_left = None if max_seconds is None else max_seconds - verdict.seconds
    full: RawResult | None = None
    if (nodes_left is None or nodes_left > 0) and (seconds_left is None or seconds_left > 0):
        full = search_deal(position, max_nodes=nodes_left, max_seconds=seconds_left,
                           frontier=True, restart_nodes=restart_nodes,
                           max_positions=max_positions)
    if full is None:
        limit: Limit = "nodes" if nodes_left is not None and nodes_left <= 0 else "seconds"
        return RawResult("unsolvable", verdict.lines, verdict.nodes, verdict.seconds, False,
                         limit, verdict.held)
    nodes = verdict.nodes + full.nodes
    seconds = verdict.seconds + full.seconds
    held = max(verdict.held, full.held)
    if full.status != "unknown":
        return RawResult(full.status, full.lines, nodes, seconds, full.complete, None, held)
    # the score search ran out: the verdict stands, with the best states found
    seen = dict(full.lines)
    for found, line in verdict.lines:
        seen.setdefault(found, line)
    lines = _best_lines(seen, False) if seen else ()
    return RawResult("unsolvable", lines, nodes, seconds, False, full.limit, held)


@dataclass(frozen=True, slots=True)
class RawResult:
    """:func:`search_deal`'s answer: like :class:`DealResult`, but each
    reachable state comes with its line of internal ``(card, target)`` moves
    (turned into engine moves only when asked: :func:`to_engine_moves`, or
    played at once by :func:`reach_position`).  When solved, ``lines`` is
    the win alone."""

    status: Verdict
    lines: tuple[tuple[tuple[int, int, int, int], tuple[IMove, ...]], ...]
    nodes: int
    seconds: float
    complete: bool
    limit: Limit | None = None
    held: int = 0

    @property
    def budget_ran_out(self) -> bool:
        """Whether a budget (time, nodes or positions) cut the search short
        (the verdict, or only the score search after it: see ``limit``)."""
        return self.limit is not None

    @property
    def best_score(self) -> int:
        return max((sum(found) for found, _ in self.lines), default=0)

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when the budget ran out."""
        return _solvable(self.status)


def search_deal(
    position: Position,
    *,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    frontier: bool = True,
    best_only: bool = False,
    restart_nodes: int | None = RESTART_NODES,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> RawResult:
    """:func:`solve_deal` without the engine moves (see :class:`RawResult`).

    ``best_only=True`` (with ``frontier=True``) keeps only the states of the
    best score instead of the whole frontier: a position is then pruned as
    soon as its caps cannot beat the best score found (the study's last
    deal, where only the win or the score matters).

    Under builds other than suit-down the walk restarts after
    ``restart_nodes`` positions, and again and again (see :func:`_restarts`);
    ``None``: one walk.

    Python's cyclic garbage collector is paused while the search runs: the
    search makes no reference cycles, and the collector would otherwise walk
    its ever larger memo again and again (measured: a Shamrocks search ran
    1.7 to 2.2 times slower with it on).
    """
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return _search_deal(position, max_nodes, max_seconds, frontier, best_only,
                            restart_nodes, max_positions)
    finally:
        if collecting:
            gc.enable()


def _search_deal(
    position: Position,
    max_nodes: int | None,
    max_seconds: float | None,
    frontier: bool,
    best_only: bool,
    restart_nodes: int | None,
    max_positions: int | None,
) -> RawResult:
    """:func:`search_deal`, with the collector as it is."""
    start_time = time.perf_counter()
    used = 0
    first_held = 0
    if position.merci_available and (not frontier or best_only):
        # A line without the merci is legal too, and the search without it
        # has every reduction: try it first.  It wins, or the full search runs.
        plain = Position(position.rules, position.fans, position.foundations,
                         position.cells, position.redeals_left, True)
        first = _restarts(plain, False, max_nodes, max_seconds, start_time, False,
                          restart_nodes, max_positions)
        if first.status == "solved":
            # plain moves only: legal in ``position`` as well
            return first
        used = first.nodes
        first_held = first.held
        if max_nodes is not None:
            max_nodes = max(1, max_nodes - used)
    res = _restarts(position, frontier, max_nodes, max_seconds, start_time, best_only,
                    restart_nodes, max_positions)
    return RawResult(res.status, res.lines, res.nodes + used,
                     time.perf_counter() - start_time, res.complete, res.limit,
                     max(res.held, first_held))


def _restarts(
    position: Position,
    frontier: bool,
    max_nodes: int | None,
    max_seconds: float | None,
    start_time: float,
    best_only: bool,
    restart_nodes: int | None,
    max_positions: int | None = DEFAULT_MAX_POSITIONS,
) -> RawResult:
    """One search of :func:`search_deal`, restarted where that pays.

    Under builds other than suit in one direction (any suit, alternate
    colours, up and down), and under any build with cells (a card may always
    go to a cell), no build is safe, and a depth-first walk that
    turns the wrong way early can spend millions of positions under that
    move before it tries the one that wins (measured on Shamrocks: half the
    deals undecided after 20 s, while other move orders win most of them in
    a few thousand positions; on Fan with reserve deals 1-40, one walk left 5
    undecided at 200,000 positions, restarted walks won all 40, the longest
    in 85,000).  So there the walk is given
    ``restart_nodes`` positions (:data:`RESTART_NODES` by default), then
    starts again from scratch with the moves of each position in another
    order and a limit :data:`RESTART_GROWTH` times
    larger, until a walk ends or the budget is spent.  The orders, fixed so
    that answers are reproducible (foundation moves always first):

    - walk 0 (and the only walk with ``restart_nodes=None``): the moves that
      bury the cards the foundations want next the least come first
      (:func:`_wanted_first`); on the Shamrocks deals 1-100 that it wins it
      needs a median of 172 positions where the order below needs 2,967;
    - walk 1: the moves as they are generated (fan by fan), which wins some
      deals the first order turns away from;
    - walk k >= 2: a shuffle seeded with k, and on even k the wanted cards
      first again, the shuffle then only breaking its ties.  The shuffle of
      a position's moves is fixed by the walk and the position alone (the
      moves sorted by a hash of both), not drawn in turn from one generator:
      so a reduction that drops a position the walk would have met does
      not change the order of the rest of the walk, which then meets the
      same wins in fewer positions.

    Exactness is unchanged: each walk is the complete search with its moves
    in some order, so a walk that ends has found a win or proved there is
    none (and with the frontier, every non-dominated state).  A walk cut
    short only loses its own work; as the limits grow geometrically, a
    position set that needs N nodes costs at most about 2N in all.  When
    the whole budget runs out, the answer holds the best states of every
    walk (each line is a line from ``position``).
    """
    t = _tables(position.rules)
    restart = restart_nodes is not None and (not t.suit_down or t.cells > 0)
    limit = max(1, restart_nodes or 1)
    spent = 0
    rng: random.Random | None = None
    wanted = True
    seen: dict[tuple[int, int, int, int], tuple[IMove, ...]] = {}
    walk = 0
    held = 0
    deadline = start_time + max_seconds if max_seconds is not None else None
    while True:
        left = None if max_nodes is None else max_nodes - spent
        final = not restart or (left is not None and left <= limit)
        search = _Search(position, frontier, left if final else limit, max_seconds,
                         start_time, best_only, rng, wanted, max_positions)
        status = search.run()
        spent += search.nodes
        held = max(held, search.nodes)
        out_of_time = deadline is not None and time.perf_counter() >= deadline
        cut = search.limit
        if out_of_time and cut != "positions" and status == "unknown":
            cut = "seconds"  # (a walk's own node limit may have come at the same time)
        if status != "unknown" or final or out_of_time or cut == "positions":
            res = search.result(status, time.perf_counter() - start_time)
            lines = res.lines
            if status == "unknown" and seen:
                for found, line in lines:
                    seen.setdefault(found, line)
                lines = _best_lines(seen, best_only or not frontier)
            if status != "unknown":
                cut = None
            elif cut is None:
                cut = "nodes"
            return RawResult(status, lines, spent, res.seconds, res.complete, cut, held)
        for found, line in search.result(status, 0.0).lines:
            seen.setdefault(found, line)
        walk += 1
        rng = random.Random(walk) if walk > 1 else None
        wanted = walk % 2 == 0
        limit *= RESTART_GROWTH


def _wanted_first(
    children: list[tuple[IMove, list[int], list[int], list[int], bool]],
    fans: list[int],
    found: list[int],
    tops: dict[int, int],
) -> list[tuple[IMove, list[int], list[int], list[int], bool]]:
    """The moves ``children`` sorted, stably, by how much they bury the
    cards the foundations want next: each suit's next card counts 2 and the
    one after it 1; a move onto a fan adds the count of that fan's cards,
    and a move off a fan takes away that of the cards it uncovers.

    Only the order of a walk changes (every child is still searched), so
    the search stays exact; under builds other than suit-down it finds most
    wins in a few hundred positions (:func:`_restarts`).
    """
    want: dict[int, int] = {}
    for s in range(4):
        r = found[s]
        if r < 13:
            want[s * 13 + r] = 2
            if r < 12:
                want[s * 13 + r + 1] = 1
    per_fan: list[int] = []
    for f in fans:
        w = 0
        while f:
            w += want.get((f & 63) - 1, 0)
            f >>= 6
        per_fan.append(w)
    keyed: list[tuple[int, int]] = []
    for k, child in enumerate(children):
        card, target = child[0]
        key = 0
        if target >= 0:
            key = per_fan[target]
            i = tops.get(card, -1)
            if i >= 0:
                key -= per_fan[i] - want.get(card, 0)
        keyed.append((key, k))
    keyed.sort()
    return [children[k] for _, k in keyed]


def _best_lines(
    seen: dict[tuple[int, int, int, int], tuple[IMove, ...]], best_only: bool,
) -> tuple[tuple[tuple[int, int, int, int], tuple[IMove, ...]], ...]:
    """The non-dominated states among ``seen`` (only those of the best score
    with ``best_only``), best first, as :class:`RawResult` orders them."""
    states = list(seen)
    keep = [
        f for f in states
        if not any(g != f and all(g[k] >= f[k] for k in range(4)) for g in states)
    ]
    if best_only:
        top = max(sum(f) for f in keep)
        keep = [f for f in keep if sum(f) == top]
    keep.sort(key=lambda f: (-sum(f), f))
    return tuple((f, seen[f]) for f in keep)


class _Search:
    def __init__(
        self,
        position: Position,
        frontier: bool,
        max_nodes: int | None,
        max_seconds: float | None,
        start_time: float,
        best_only: bool = False,
        rng: random.Random | None = None,
        wanted: bool = False,
        max_positions: int | None = DEFAULT_MAX_POSITIONS,
    ) -> None:
        self.position = position
        #: the order of each position's moves: None, as generated (the
        #: foundation first); else the other moves shuffled by a salt it
        #: draws, fixed per position (_restarts)
        self.rng = rng
        #: then, under builds other than suit-down or with cells, sorted by
        #: _wanted_first
        self.wanted = wanted and (wanders(position.rules) or position.rules.cells > 0)
        self.best_only = best_only and frontier
        self.t = _tables(position.rules)
        self.frontier = frontier
        self.max_nodes = max_nodes if max_nodes is not None else -1
        #: positions held in ``visited`` at most (-1: no cap); a walk
        #: expands each position it holds once, so it holds ``nodes``
        self.max_positions = max_positions if max_positions is not None else -1
        #: what stopped the walk, when a budget did
        self.limit: Limit | None = None
        self.deadline = start_time + max_seconds if max_seconds is not None else None
        self.nodes = 0
        self.visited: dict[object, tuple[object, tuple[IMove, ...]]] = {}
        # pareto: foundations -> key of a position that has them
        self.pareto: dict[tuple[int, int, int, int], object] = {}
        self.win_key: object = None
        #: (card, foundations) -> Rules.home_is_safe: few foundation states
        #: recur across the many positions of one search
        self.safe: dict[tuple[int, int, int, int, int], bool] = {}

    def home_safe(self, card: int, found: list[int]) -> bool:
        """:meth:`Rules.home_is_safe` for this search's rules, remembered."""
        key = (card, found[0], found[1], found[2], found[3])
        safe = self.safe.get(key)
        if safe is None:
            safe = self.safe[key] = self.t.rules.home_is_safe(card, found)
        return safe

    # -- results ------------------------------------------------------------

    def line_to(self, key: object) -> list[IMove]:
        parts: list[tuple[IMove, ...]] = []
        visited = self.visited
        while key is not None:
            parent, moves = visited[key]
            parts.append(moves)
            key = parent
        out: list[IMove] = []
        for moves in reversed(parts):
            out.extend(moves)
        return out

    def result(self, status: Verdict, seconds: float) -> RawResult:
        if status == "solved":
            line = tuple(self.line_to(self.win_key))
            return RawResult("solved", (((13, 13, 13, 13), line),), self.nodes, seconds, True)
        lines = tuple(
            (found, tuple(self.line_to(key)))
            for found, key in sorted(self.pareto.items(), key=lambda kv: (-sum(kv[0]), kv[0]))
        )
        return RawResult(status, lines, self.nodes, seconds,
                         status == "unsolvable" and self.frontier and not self.best_only)

    # -- the walk -----------------------------------------------------------

    def run(self) -> Verdict:
        try:
            return self.run_or_raise()
        except BudgetExhaustedError:
            return "unknown"

    def run_or_raise(self) -> Verdict:
        """:meth:`run`, but a spent budget raises
        :class:`~lucie.solver.budget.BudgetExhaustedError` (and sets
        :attr:`limit`)."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            self.limit = "seconds"
            raise BudgetExhaustedError("seconds")
        p = self.position
        t = self.t
        fans = tuple(encode_fan(f) for f in p.fans)
        cells = tuple(sorted(int(c) for c in p.cells if c is not None))
        merci = p.merci_available
        caps = [13, 13, 13, 13]
        # (under suit-down the walk's reach caps contain these)
        if t.room and not merci:
            _room_caps(fans, p.foundations, caps, t.onto, t.under, t.max_fan or 0)
        elif t.dead_cards and not merci and not t.suit_down:
            order_caps(fans, p.foundations, caps, t.onto, t.fill_ok)
        return self._walk(fans, p.foundations, cells, merci, caps)

    def _walk(
        self,
        fans0: tuple[int, ...],
        found0: tuple[int, int, int, int],
        cells0: tuple[int, ...],
        merci0: bool,
        caps0: list[int],
    ) -> Verdict:
        t = self.t
        frontier = self.frontier
        visited = self.visited
        pareto = self.pareto
        onto = t.onto
        fill_ok = t.fill_ok
        any_fill = t.any_fill
        max_fan = t.max_fan
        # a fan of n cards (n >= 1) is at least 1 << 6 * (n - 1), as its
        # bottom digit is not 0: so a fan is full when it reaches this
        full = 1 << 6 * (max_fan - 1) if max_fan is not None else 1 << 6 * 52
        ncells = t.cells
        takeback = t.takeback
        strict = t.strict
        home_always_safe = t.home_always_safe
        sb_fill = t.safe_build_fill
        sb_none = sb_fill == "none"
        dead_cards = t.dead_cards
        deadlocks = t.suit_down and dead_cards
        # other builds: the dead cards are recomputed at every position
        general_dead = not t.suit_down and dead_cards
        # with a fan size limit, the room caps instead (they contain them)
        room_caps = t.room
        room_fan = max_fan if max_fan is not None else 0
        under = t.under
        plain_key = ncells == 0 and not merci0
        # after the merci every foundation move is forced (suit-down, no take-back)
        collapse_after = home_always_safe and not takeback
        no_fill = t.rules.empty_fill == "none"
        pair_home = merci0 and t.suit_down and no_fill and not takeback and not strict
        best_only = self.best_only
        best_total = -1
        max_nodes = self.max_nodes
        max_positions = self.max_positions
        # the first count at which a node or position budget is spent (-1: none)
        stop_at = max_nodes if max_positions < 0 or 0 <= max_nodes <= max_positions \
            else max_positions
        deadline = self.deadline
        rng = self.rng
        walk_salt = rng.getrandbits(60) if rng is not None else 0
        wanted = self.wanted
        nfans = len(fans0)
        fan_range = range(nfans)

        # stack entries: fans, found, cells, merci, caps, parent key, moves so far
        stack: list[tuple[
            list[int], list[int] | tuple[int, ...], list[int], bool, tuple[int, ...],
            object, tuple[IMove, ...], tuple[int, ...] | None, object,
            dict[int, int] | None,
        ]] = [(list(fans0), found0, list(cells0), merci0, tuple(caps0), None, (), None, None,
               None)]
        nodes = 0
        pushed: set[object] = set()
        order_memo: OrderMemo = {}
        # with the merci to come (suit-down): the caps of each card it may lift,
        # set by the position being expanded
        lift_caps: dict[int, tuple[int, int, int, int]] = {}
        while stack:
            (fans_t, found_t, cells_t, merci, caps_t, pkey, pmoves, pwork, ckey0,
             ptops) = stack.pop()
            # the parent's caps bound this position too: prune before any work
            cap_total = caps_t[0] + caps_t[1] + caps_t[2] + caps_t[3]
            if cap_total < 52 and pkey is not None and (
                not frontier
                or (cap_total <= best_total if best_only else _dominated(pareto, caps_t))
            ):
                continue
            fans = fans_t  # each child owns its fan list
            found = list(found_t)
            cells = list(cells_t)
            caps = list(caps_t)
            moves = list(pmoves)
            collapse = not merci and not takeback
            if ptops is not None:
                tops = ptops  # the parent worked it out (a fan-to-fan move)
            else:
                tops = {}
                for i in fan_range:
                    f = fans[i]
                    if f:
                        tops[(f & 63) - 1] = i
            # ---- forced moves --------------------------------------------
            if collapse and home_always_safe:
                # suit-down: every foundation move is forced (_proof_foundation),
                # and the safe builds of _proof_builds; a work list holds the
                # top cards whose status may have changed (all tops at first)
                if pwork is None:
                    work = list(tops)
                    if ncells:
                        work.extend(s * 13 + found[s] for s in range(4) if found[s] < 13)
                else:
                    work = list(pwork)
                while work:
                    c = work.pop()
                    s = c // 13
                    r = c - s * 13
                    i = tops.get(c, -1)
                    if i < 0:
                        if ncells and found[s] == r and c in cells:
                            cells.remove(c)
                            found[s] = r + 1
                            moves.append((c, TO_FOUNDATION))
                            if r < 12:
                                work.append(c + 1)
                        continue
                    if found[s] == r:
                        found[s] = r + 1
                        del tops[c]
                        f = fans[i] >> 6
                        fans[i] = f
                        moves.append((c, TO_FOUNDATION))
                        if f:
                            y = (f & 63) - 1
                            tops[y] = i
                            work.append(y)
                            if y % 13:
                                work.append(y - 1)
                        if r < 12:
                            work.append(c + 1)
                        continue
                    if sb_fill is None or r == 12:
                        continue
                    j = tops.get(c + 1, -1)
                    if j < 0:
                        continue
                    g = fans[j]
                    if r == 11 or g < 64:
                        ok = sb_none  # cases a and c of _proof_builds
                    else:
                        ok = False
                        want = c + 3  # X+2, encoded
                        h = g >> 6
                        while h:
                            if h & 63 == want:
                                ok = True  # case b
                                break
                            h >>= 6
                    if not ok:
                        continue
                    f = fans[i] >> 6
                    fans[i] = f
                    del tops[c + 1]
                    g = (g << 6) | (c + 1)
                    fans[j] = g
                    tops[c] = j
                    moves.append((c, j))  # (the reach caps below see what it blocks)
                    if r:
                        work.append(c - 1)
                    if f:
                        y = (f & 63) - 1
                        tops[y] = i
                        work.append(y)
                        if y % 13:
                            work.append(y - 1)
            elif collapse:
                changed = True
                while changed:
                    changed = False
                    for i in fan_range:
                        f = fans[i]
                        while f:
                            c = (f & 63) - 1
                            s = c // 13
                            r = c - s * 13
                            if found[s] == r and self.home_safe(c, found):
                                # _proof_foundation
                                found[s] = r + 1
                                del tops[c]
                                f >>= 6
                                fans[i] = f
                                if f:
                                    tops[(f & 63) - 1] = i
                                moves.append((c, TO_FOUNDATION))
                                changed = True
                                continue
                            break
                    if ncells:
                        for c in cells:
                            s = c // 13
                            if found[s] == c - s * 13 and self.home_safe(c, found):
                                found[s] += 1
                                cells.remove(c)
                                moves.append((c, TO_FOUNDATION))
                                changed = True
                                break
            elif merci and pair_home:
                # the merci to come: a foundation move off a fan of two is
                # forced (_proof_pair_home)
                changed = True
                while changed:
                    changed = False
                    for i in fan_range:
                        f = fans[i]
                        if 64 <= f < 4096:
                            c = (f & 63) - 1
                            s = c // 13
                            if found[s] == c - s * 13:
                                found[s] += 1
                                del tops[c]
                                f >>= 6
                                fans[i] = f
                                tops[f - 1] = i
                                moves.append((c, TO_FOUNDATION))
                                changed = True
            # ---- memo --------------------------------------------------------
            if ckey0 is not None and len(moves) == len(pmoves):
                key: object = ckey0  # nothing was forced: the key is known
            elif plain_key:
                key = frozenset(fans)
            else:
                key = (frozenset(fans), tuple(sorted(cells)), merci)
            if key in visited:
                continue
            visited[key] = (pkey, tuple(moves))
            nodes += 1
            if nodes == stop_at:
                self.nodes = nodes
                self.limit = "nodes" if nodes == max_nodes else "positions"
                raise BudgetExhaustedError(self.limit)
            if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                self.nodes = nodes
                self.limit = "seconds"
                raise BudgetExhaustedError("seconds")
            if deadlocks and not merci:
                _reach_caps(fans, found, caps, any_fill)
            elif room_caps and not merci:
                _room_caps(fans, found, caps, onto, under, room_fan)
            elif general_dead and not merci:
                order_caps(fans, found, caps, onto, fill_ok, order_memo)
            elif merci and deadlocks:
                lift_caps = _merci_reach_caps(fans, found, caps, any_fill)
            elif merci and dead_cards:
                merci_order_caps(fans, found, caps, onto, fill_ok, order_memo)
            # ---- goal and frontier --------------------------------------
            fnd = (found[0], found[1], found[2], found[3])
            total = found[0] + found[1] + found[2] + found[3]
            if total == 52:
                self.win_key = key
                self.nodes = nodes
                pareto.clear()
                pareto[fnd] = key
                return "solved"
            if best_only:
                # only the best score matters: keep one state of it, and prune
                # what cannot beat it (_proof_deadlock caps bound the total)
                if total > best_total:
                    best_total = total
                    pareto.clear()
                    pareto[fnd] = key
                if caps[0] + caps[1] + caps[2] + caps[3] <= best_total:
                    continue
            elif frontier:
                if fnd not in pareto and not _dominated(pareto, fnd):
                    for q in [
                        q for q in pareto
                        if q[0] <= fnd[0] and q[1] <= fnd[1] and q[2] <= fnd[2]
                        and q[3] <= fnd[3]
                    ]:
                        del pareto[q]
                    pareto[fnd] = key
                # bound: nothing below can beat the caps
                if caps[0] + caps[1] + caps[2] + caps[3] < 52 and _dominated(pareto, caps):
                    continue
            else:
                if not pareto or total > sum(next(iter(pareto))):
                    pareto.clear()
                    pareto[fnd] = key
                if caps[0] + caps[1] + caps[2] + caps[3] < 52:
                    continue
            # ---- children ------------------------------------------------
            # children whose caps total at most this are not worth a visit
            bound = best_total if best_only else (-1 if frontier else 51)
            children: list[tuple[IMove, list[int], list[int], list[int], bool]] = []
            # foundation moves (those left after the forced ones; under
            # suit-down with nothing to stop them, none is left)
            for i in fan_range if not (collapse and home_always_safe and not ncells) else ():
                f = fans[i]
                if f:
                    c = (f & 63) - 1
                    s = c // 13
                    if found[s] == c - s * 13:
                        nf = fans[:]
                        nf[i] = f >> 6
                        nfd = found[:]
                        nfd[s] += 1
                        children.append(((c, TO_FOUNDATION), nf, nfd, cells, merci))
            for c in cells:
                s = c // 13
                if found[s] == c - s * 13:
                    nfd = found[:]
                    nfd[s] += 1
                    nc = cells[:]
                    nc.remove(c)
                    children.append(((c, TO_FOUNDATION), fans[:], nfd, nc, merci))
            nhome = len(children)
            empty = -1
            if any_fill:
                for i in fan_range:
                    if not fans[i]:
                        empty = i
                        break
            # fan to fan (a lone card stays put: _proof_lone)
            lone_stays = no_fill and not merci
            for i in fan_range:
                f = fans[i]
                if not f or (f < 64 and lone_stays):
                    continue
                c = (f & 63) - 1
                for tcard in onto[c]:
                    j = tops.get(tcard, -1)
                    if j < 0:
                        continue
                    g = fans[j]
                    if g >= full:
                        continue
                    nf = fans[:]
                    nf[i] = f >> 6
                    nf[j] = (g << 6) | (c + 1)
                    children.append(((c, j), nf, found, cells, merci))
                if empty >= 0 and f >= 64 and fill_ok[c]:
                    nf = fans[:]
                    nf[i] = f >> 6
                    nf[empty] = c + 1
                    children.append(((c, empty), nf, found, cells, merci))
            # fan to cell
            if len(cells) < ncells:
                for i in fan_range:
                    f = fans[i]
                    if f:
                        c = (f & 63) - 1
                        nf = fans[:]
                        nf[i] = f >> 6
                        nc = sorted([*cells, c])
                        children.append(((c, TO_CELL), nf, found, nc, merci))
            # cards laid on a fan from a cell or (take-back) the foundations:
            # (card, foundations after, cells after)
            lay: list[tuple[int, list[int], list[int]]] = []
            for c in cells:
                nc = cells[:]
                nc.remove(c)
                lay.append((c, found, nc))
            if takeback:
                for s in range(4):
                    n = found[s]
                    if n:
                        nfd = found[:]
                        nfd[s] -= 1
                        lay.append((s * 13 + n - 1, nfd, cells))
            for c, nfd, nc in lay:
                for tcard in onto[c]:
                    j = tops.get(tcard, -1)
                    if j < 0:
                        continue
                    g = fans[j]
                    if g >= full:
                        continue
                    nf = fans[:]
                    nf[j] = (g << 6) | (c + 1)
                    children.append(((c, j), nf, nfd, nc, merci))
                if empty >= 0 and fill_ok[c]:
                    nf = fans[:]
                    nf[empty] = c + 1
                    children.append(((c, empty), nf, nfd, nc, merci))
            # the merci
            if merci and not (strict and children):
                targets = [j for j in fan_range if fans[j]]
                for i in targets:
                    cards = decode_fan(fans[i])
                    # max_fan holds for the merci too (its own fan keeps its size)
                    room = targets if max_fan is None else [
                        j for j in targets if j == i or fans[j] < full
                    ]
                    for k in range(len(cards) - 1):
                        z = cards[k]
                        rest = cards[:k] + cards[k + 1:]
                        base = fans[:]
                        base[i] = encode_fan(rest)
                        # a card its foundation wants goes home at once
                        # (_proof_foundation): where it was laid is the same
                        home_next = collapse_after and found[z // 13] == z % 13
                        if deadlocks:
                            zc = lift_caps[z]  # every line that lifts z stays within
                            if zc[0] + zc[1] + zc[2] + zc[3] <= bound or (
                                frontier and not best_only and _dominated(pareto, zc)
                            ):
                                continue
                        for j in (room[:1] if home_next else room):
                            nf = base[:]
                            nf[j] = (nf[j] << 6) | (z + 1)
                            children.append(((z, j), nf, found, cells, False))
            if not children:
                continue
            if rng is not None:
                # an order fixed by the position and the walk alone
                salt = hash(key) ^ walk_salt
                others = children[nhome:]
                others.sort(key=lambda ch: hash((salt, ch[0])))
                children[nhome:] = others
            if wanted and len(children) - nhome > 1:
                children[nhome:] = _wanted_first(children[nhome:], fans, found, tops)
            # ---- push (best first: foundation moves, then the rest) -----
            child_caps: tuple[int, ...] = tuple(caps)
            for move, nf, nfd, nc, nm in reversed(children):
                ccaps = child_caps
                if deadlocks and not nm:
                    if merci:  # the merci was just used: the caps of its card
                        ccaps = lift_caps[move[0]]
                    elif move[1] >= 0:
                        g = nf[move[1]]
                        if ((g >> 6) & 63) - 1 == move[0] + 1:  # laid on X+1
                            cl = list(child_caps)
                            _new_stuck(g, cl)
                            if cl[0] + cl[1] + cl[2] + cl[3] <= bound:
                                continue  # cannot be won / beat the best (_proof_deadlock)
                            ccaps = tuple(cl)
                ckey = frozenset(nf) if plain_key else (frozenset(nf), tuple(nc), nm)
                if ckey in pushed:
                    continue
                pushed.add(ckey)
                work_c: tuple[int, ...] | None = None
                ctops: dict[int, int] | None = None
                if nfd is found and nc is cells and move[1] >= 0 and not merci:
                    # a build or a move into an empty fan: what it may unlock
                    # (after the merci the child starts over: nothing was
                    # forced in this position)
                    c = move[0]
                    i = tops.get(c, -1)
                    y = ((fans[i] >> 6) & 63) - 1 if i >= 0 else -1
                    work_c = (c - 1,) if c % 13 else ()
                    if y >= 0:
                        work_c += (y, y - 1) if y % 13 else (y,)
                    if i >= 0:  # from a fan top: the child's tops, ready
                        ctops = tops.copy()
                        g = fans[move[1]]
                        if g:
                            del ctops[(g & 63) - 1]
                        ctops[c] = move[1]
                        if y >= 0:
                            ctops[y] = i
                stack.append((nf, nfd, nc, nm, ccaps, key, (move,), work_c, ckey, ctops))
        self.nodes = nodes
        return "unsolvable"


# ---------------------------------------------------------------------------
# Back to engine moves
# ---------------------------------------------------------------------------


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
    """The position after an internal line from :func:`search_deal`, built
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


__all__ = [
    "DealResult", "RawResult", "Reach", "engine_move", "reach_position", "search_deal",
    "solve_deal", "to_engine_moves",
]
