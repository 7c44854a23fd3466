"""The per-rules tables of the search: what it needs to know about a set of
rules (which cards go on which, and which reductions hold), worked out once
per set of rules."""

from __future__ import annotations

from lucie.cards import DECK
from lucie.rules import Rules


class Tables:
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
        self.suit_down = rules.suit_down
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


_TABLES: dict[Rules, Tables] = {}


def tables(rules: Rules) -> Tables:
    """The :class:`Tables` of ``rules`` (made once, then remembered)."""
    t = _TABLES.get(rules)
    if t is None:
        t = _TABLES[rules] = Tables(rules)
    return t
