"""Rules settings and the named variants of the La Belle Lucie family.

Every variant is the classic game with a few settings changed; the settings
are a frozen :class:`Rules` value.  A *rules spec* is how a user names them:
a variant name, optionally followed by ``,setting=value`` pairs:

>>> Rules.parse("trefoil").aces_first
True
>>> r = Rules.parse("classic,merci=on,build=alternate")
>>> r.merci, r.build
(True, 'alternate')
>>> r.spec()
'merci,build=alternate'
>>> Rules.parse("shamrocks").num_fans
18
>>> Rules.parse("trefoil").num_fans
16
>>> Rules.parse("classic,max_fan=2")
Traceback (most recent call last):
...
lucie.errors.RulesError: max_fan=2 is smaller than fan_size=3: the deal could not be laid out

This module also holds :func:`accepts`, the one function that says what may
be laid on a card in a fan.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

from lucie.cards import KING, Card
from lucie.errors import RulesError
from lucie.i18n import N_, _
from lucie.parsing import excerpt, parse_int

Build = Literal["suit", "alternate", "any"]
Direction = Literal["down", "updown"]
EmptyFill = Literal["none", "king", "any"]

BUILDS: Final = ("suit", "alternate", "any")
DIRECTIONS: Final = ("down", "updown")
EMPTY_FILLS: Final = ("none", "king", "any")
MAX_CELLS: Final = 8
MAX_REDEALS: Final = 10


@dataclass(frozen=True, slots=True)
class Rules:
    """The settings of one game (see ``docs/rules.md``, "Settings" and "Variants").

    ``fans=None`` means "as many fans as the deal needs": 18 for 52 cards in
    fans of three, 16 with ``aces_first``.
    """

    fans: int | None = None
    fan_size: int = 3
    build: Build = "suit"
    direction: Direction = "down"
    max_fan: int | None = None
    empty_fill: EmptyFill = "none"
    redeals: int = 2
    merci: bool = False
    cells: int = 0
    aces_first: bool = False
    kings_bottom: bool = False
    foundation_takeback: bool = False
    redeal_only_when_stuck: bool = False
    _num_fans: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._validate()
        dealt = self.cards_dealt
        object.__setattr__(
            self, "_num_fans",
            self.fans if self.fans is not None else -(-dealt // self.fan_size),
        )

    def _validate(self) -> None:
        for key, value, allowed in (
            ("build", self.build, BUILDS),
            ("direction", self.direction, DIRECTIONS),
            ("empty_fill", self.empty_fill, EMPTY_FILLS),
        ):
            if value not in allowed:
                raise RulesError(_("{setting} is not one of {allowed}").format(
                    setting=f"{key}={excerpt(value)}", allowed=", ".join(allowed)
                ))
        for key, number, low, high in (
            ("fan_size", self.fan_size, 1, 13),
            ("redeals", self.redeals, 0, MAX_REDEALS),
            ("cells", self.cells, 0, MAX_CELLS),
        ):
            if not low <= number <= high:
                raise RulesError(_("{setting} must be between {low} and {high}").format(
                    setting=f"{key}={number}", low=low, high=high
                ))
        if self.max_fan is not None and self.max_fan < self.fan_size:
            raise RulesError(_(
                "{max_fan} is smaller than {fan_size}: the deal could not be laid out"
            ).format(max_fan=f"max_fan={self.max_fan}", fan_size=f"fan_size={self.fan_size}"))
        dealt = self.cards_dealt
        if -(-dealt // self.fan_size) > 26:
            raise RulesError(_("{setting} would need {n} fans; at most 26 (named a to z)").format(
                setting=f"fan_size={self.fan_size}", n=-(-dealt // self.fan_size)
            ))
        if self.fans is not None:
            need = -(-dealt // self.fan_size)
            if self.fans != need:
                raise RulesError(_(
                    "{setting} does not fit the deal: {dealt} cards in fans of "
                    "{size} make {need} fans"
                ).format(setting=f"fans={self.fans}", dealt=dealt, size=self.fan_size,
                         need=need))

    # -- derived facts -------------------------------------------------------

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to the fans at the start (48 when aces start out)."""
        return 48 if self.aces_first else 52

    @property
    def num_fans(self) -> int:
        """Number of fans on the table."""
        return self._num_fans

    @property
    def suit_down(self) -> bool:
        """Whether fans build down in suit (the classic build, and the one
        under which the solver's strongest reductions hold: every foundation
        move and some builds are forced, ``docs/solver.md``).  Under the
        other builds nothing forces a build, so the solver's walk tries
        moves in whatever order and its lines wander.

        >>> Rules().suit_down, Rules.parse("shamrocks").suit_down
        (True, False)
        """
        return self.build == "suit" and self.direction == "down"

    # -- the one rule of building ------------------------------------------

    def accepts(self, fan: tuple[Card, ...], card: Card) -> bool:
        """Whether ``card`` may be laid on the fan ``fan`` (bottom first).

        Covers building on a top card (by :attr:`build` and
        :attr:`direction`), the size limit :attr:`max_fan` and what an empty
        fan takes (:attr:`empty_fill`).  Used by the engine for fan, cell,
        take-back moves alike; no other code decides this.

        >>> C = Card.parse
        >>> CLASSIC.accepts((C("8C"),), C("7C")), CLASSIC.accepts((C("8C"),), C("7S"))
        (True, False)
        >>> CLASSIC.accepts((), C("KS")), Rules.parse("fan").accepts((), C("KS"))
        (False, True)
        """
        if not fan:
            fill = self.empty_fill
            return fill == "any" or (fill == "king" and card.rank == KING)
        if self.max_fan is not None and len(fan) >= self.max_fan:
            return False
        return accepts(fan[-1], card, self.build, self.direction)

    def homes(self) -> tuple[tuple[Card, ...], ...]:
        """For each card (by index), the top cards it may be laid on.

        Derived from :func:`accepts` once per build and direction, so the
        move generator can look targets up instead of testing every fan.
        """
        key = (self.build, self.direction)
        table = _HOMES.get(key)
        if table is None:
            deck = [Card(i) for i in range(52)]
            table = tuple(
                tuple(top for top in deck if accepts(top, card, self.build, self.direction))
                for card in deck
            )
            _HOMES[key] = table
        return table

    def unders(self) -> tuple[tuple[int, ...], ...]:
        """For each card (by index), the indexes of the cards that may be
        laid on it: :meth:`homes` read the other way."""
        key = (self.build, self.direction)
        table = _UNDERS.get(key)
        if table is None:
            homes = self.homes()
            table = tuple(
                tuple(y for y in range(52) if Card(c) in homes[y]) for c in range(52)
            )
            _UNDERS[key] = table
        return table

    def home_is_safe(self, card: int, foundations: Sequence[int]) -> bool:
        """Whether sending ``card`` (an index; the next card of its suit)
        home now can never cost anything: every card that could be laid on
        it, then on such a card, and so on, could go home instead whenever
        it is first laid there (it is home, or the next card of its suit,
        or the successor of the card it is laid on, or it could only be laid
        there after being laid on one of these cards already).

        This is the one rule of safe foundation moves: the engine's autoplay
        and the solver's forced moves both ask it.  The proof, and the
        settings under which the solver relies on it (no merci still to
        come, no foundation take-back), are in
        ``docs/solver.md#_proof_foundation``.

        >>> C = lambda name: int(Card.parse(name))
        >>> CLASSIC.home_is_safe(C("5C"), [4, 0, 0, 0])
        True
        >>> flower = Rules.parse("flower")
        >>> flower.home_is_safe(C("5C"), [4, 3, 4, 3]), flower.home_is_safe(C("5C"), [4, 3, 4, 2])
        (True, False)
        """
        under = self.unders()
        s = card // 13
        # the cards that could come to rest on it ("ghosts" in the proof),
        # and the layings that need a look
        ghosts = {card}
        todo = [card]
        check: list[tuple[int, int]] = []
        while todo:
            w = todo.pop()
            for z in under[w]:
                t = z // 13
                rz = z - t * 13
                ft = foundations[t] + 1 if t == s else foundations[t]
                if ft > rz:
                    continue  # home: never laid anywhere again
                if ft != rz and not (z == w + 1 and rz and w // 13 == t):
                    # neither next now nor w's successor
                    if w == card:
                        return False  # z may be laid on the card itself
                    check.append((w, z))
                if z not in ghosts:
                    ghosts.add(z)
                    todo.append(z)
        for w, z in check:
            # harmless only if w cannot come to rest there before z has
            seen = {card, z}
            todo = [card]
            while todo:
                v = todo.pop()
                if v == w:
                    return False
                for y in under[v]:
                    if y in ghosts and y not in seen:
                        seen.add(y)
                        todo.append(y)
        return True

    # -- specs -------------------------------------------------------------

    def settings(self) -> dict[str, object]:
        """The settings as a plain dict (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.init}

    def replace(self, **changes: object) -> Rules:
        """A copy with some settings changed (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_settings(cls, settings: dict[str, object]) -> Rules:
        """Rules from a dict as given by :meth:`settings` (validated)."""
        known = {f.name: f for f in dataclasses.fields(cls) if f.init}
        values: dict[str, object] = {}
        for key, value in settings.items():
            if key not in known:
                raise RulesError(_("unknown setting {setting}").format(setting=excerpt(key)))
            values[key] = _coerce(key, value)
        return cls(**values)  # type: ignore[arg-type]

    @classmethod
    def parse(cls, spec: str) -> Rules:
        """Rules from a spec: ``name[,setting=value]...`` (see module doc)."""
        parts = [p.strip() for p in spec.split(",") if p.strip()]
        if not parts:
            return CLASSIC
        base = CLASSIC
        if "=" not in parts[0]:
            name = parts.pop(0).lower()
            if name not in VARIANTS:
                raise RulesError(_("unknown variant {name} (known: {known})").format(
                    name=excerpt(name), known=", ".join(VARIANTS)
                ))
            base = VARIANTS[name].rules
        settings = base.settings()
        for part in parts:
            key, sep, value = part.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise RulesError(_("{text} is not a setting=value pair").format(
                    text=excerpt(part)
                ))
            if key not in settings:
                raise RulesError(_("unknown setting {setting} (known: {known})").format(
                    setting=excerpt(key), known=", ".join(settings)
                ))
            settings[key] = _coerce(key, value.strip())
        return cls.from_settings(settings)

    def spec(self) -> str:
        """The shortest spec that gives these rules back (round trip)."""
        known = _SPECS.get(self)
        if known is None:
            known = self._spec()
            if len(_SPECS) >= 256:  # custom rules of many players: keep a few
                _SPECS.clear()
            _SPECS[self] = known
        return known

    def _spec(self) -> str:
        best: tuple[int, str] | None = None
        mine = self.settings()
        for name, variant in VARIANTS.items():
            theirs = variant.rules.settings()
            diffs = [
                f"{k}={_show(v)}" for k, v in mine.items() if theirs[k] != v
            ]
            text = ",".join([name, *diffs])
            if best is None or len(diffs) < best[0]:
                best = (len(diffs), text)
        assert best is not None
        return best[1]

    def name(self) -> str:
        """A display name: the variant's title in the language in use
        (:meth:`Variant.display_title`), or the spec if customised (a spec
        is never translated: it is what the user types).

        >>> from lucie.i18n import using
        >>> Rules.parse("trefoil").name(), Rules.parse("trefoil,redeals=1").name()
        ('Trefoil', 'trefoil,redeals=1')
        >>> with using("de"):
        ...     Rules.parse("fan").name()
        'Der Fächer'
        """
        for variant in VARIANTS.values():
            if variant.rules == self:
                return variant.display_title()
        return self.spec()


def accepts(top: Card, card: Card, build: str, direction: str) -> bool:
    """Whether ``card`` may be laid on the card ``top``.

    ``down``: one rank lower; ``updown``: one rank lower or higher (so under
    ``updown`` a king may go on a queen, as in PySolFC's Shamrocks; under
    ``down`` nothing ever goes on an ace and a king never goes on a card).

    >>> C = Card.parse
    >>> accepts(C("8C"), C("7C"), "suit", "down"), accepts(C("8C"), C("7S"), "suit", "down")
    (True, False)
    >>> accepts(C("8C"), C("7H"), "alternate", "down")
    True
    >>> accepts(C("8C"), C("9D"), "any", "updown"), accepts(C("8C"), C("9D"), "any", "down")
    (True, False)
    """
    diff = top.rank - card.rank
    if diff != 1 and not (diff == -1 and direction == "updown"):
        return False
    if build == "suit":
        return top.suit_index == card.suit_index
    if build == "alternate":
        return top.is_red != card.is_red
    return True


_HOMES: dict[tuple[str, str], tuple[tuple[Card, ...], ...]] = {}
_UNDERS: dict[tuple[str, str], tuple[tuple[int, ...], ...]] = {}
_SPECS: dict[Rules, str] = {}  # Rules.spec, worked out once per rules

_TRUE: Final = {"on", "true", "yes", "1"}
_FALSE: Final = {"off", "false", "no", "0"}
_BOOL_KEYS: Final = {
    "merci", "aces_first", "kings_bottom", "foundation_takeback",
    "redeal_only_when_stuck",
}
_INT_KEYS: Final = {"fan_size", "redeals", "cells"}
_OPT_INT_KEYS: Final = {"fans", "max_fan"}
#: The bounds of each numeric setting, as :func:`_coerce` reads them (the
#: deal adds its own checks: ``fans`` must fit the cards dealt, ``max_fan``
#: be at least ``fan_size``).
SETTING_BOUNDS: Final[dict[str, tuple[int, int]]] = {
    "fan_size": (1, 13),
    "redeals": (0, MAX_REDEALS),
    "cells": (0, MAX_CELLS),
    "fans": (1, 26),
    "max_fan": (1, 52),
}


def _coerce(key: str, value: object) -> object:
    """Turn a setting's value (text from a spec, or JSON) into its type.

    Numbers go through :func:`lucie.parsing.parse_int` within
    :data:`SETTING_BOUNDS`; ``fans`` and ``max_fan`` also take ``none``.
    """
    if key in _BOOL_KEYS:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise RulesError(_("{setting}: expected on or off").format(
            setting=f"{key}={excerpt(value)}"
        ))
    if key in _INT_KEYS or key in _OPT_INT_KEYS:
        if value is None or (isinstance(value, str) and value.strip().lower() in {"none", "auto"}):
            if key in _OPT_INT_KEYS:
                return None
            raise RulesError(_("{setting} needs a number").format(setting=key))
        low, high = SETTING_BOUNDS[key]
        try:
            return parse_int(value, what=key, low=low, high=high, error=RulesError)
        except RulesError:
            shown = value if isinstance(value, str) and len(value) <= 20 else excerpt(value)
            raise RulesError(_("{setting}: expected a whole number from {low} to {high}").format(
                setting=f"{key}={shown}", low=low, high=high
            )) from None
    if not isinstance(value, str) or len(value) > 20:
        raise RulesError(_("{setting}: expected a word").format(
            setting=f"{key}={excerpt(value)}"
        ))
    return value.lower()


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "none"
    return str(value)


@dataclass(frozen=True, slots=True)
class Variant:
    """A named variant: its short name, title, rules and a one-line summary.

    ``name`` is the key users type (never translated); ``title`` and
    ``summary`` are the English texts, marked for translation: show them
    with :meth:`display_title` and :meth:`display_summary`, which speak the
    language in use.
    """

    name: str
    title: str
    rules: Rules
    summary: str

    def display_title(self) -> str:
        """The title in the language in use, by the name each language
        gives the game.

        >>> from lucie.i18n import using
        >>> trefoil = VARIANTS["trefoil"]
        >>> trefoil.display_title()
        'Trefoil'
        >>> for code in ("fr", "nl", "de"):
        ...     with using(code):
        ...         print(trefoil.display_title(), "/", VARIANTS["fan"].display_title(),
        ...               "/", VARIANTS["classic"].display_title())
        Trefoil / Éventail / La Belle Lucie
        Trefoil / De Waaier / La Belle Lucie
        Trefoil / Der Fächer / La Belle Lucie
        """
        return _(self.title)

    def display_summary(self) -> str:
        """The one-line summary in the language in use.

        >>> from lucie.i18n import using
        >>> with using("fr"):
        ...     VARIANTS["noredeal"].display_summary()
        'Le jeu classique en une seule donne.'
        """
        return _(self.summary)


CLASSIC: Final = Rules()

VARIANTS: Final[dict[str, Variant]] = {
    v.name: v
    for v in (
        Variant("classic", N_("La Belle Lucie"), CLASSIC,
                N_("Fans build down in suit; empty fans stay empty; two redeals.")),
        Variant("merci", N_("Three Shuffles and a Draw"), Rules(merci=True),
                N_("Classic, plus one merci in the last deal: lift a buried card to a fan top.")),
        Variant("trefoil", N_("Trefoil"), Rules(aces_first=True),
                N_("Aces start on the foundations; 48 cards in 16 fans.")),
        Variant("fan", N_("The Fan"), Rules(empty_fill="king", redeals=0),
                N_("A king may fill an empty fan; no redeal.")),
        Variant("shamrocks", N_("Shamrocks"),
                Rules(build="any", direction="updown", max_fan=3, redeals=0),
                N_("Build up or down in any suit, at most three cards a fan; no redeal.")),
        Variant("shamrocks2", N_("Shamrocks II"),
                Rules(build="any", direction="updown", max_fan=3, redeals=0,
                      kings_bottom=True),
                N_("Shamrocks with the kings moved to the bottom of their fans.")),
        Variant("flower", N_("Super Flower Garden"), Rules(build="any"),
                N_("Build down in any suit; two redeals.")),
        Variant("reserve", N_("Fan with reserve"), Rules(cells=4),
                N_("Classic with four free cells.")),
        Variant("noredeal", N_("La Belle Lucie, no redeal"), Rules(redeals=0),
                N_("Classic with a single deal.")),
        Variant("alternate", N_("La Belle Lucie, alternate colours"), Rules(build="alternate"),
                N_("Fans build down in alternating colours.")),
    )
}
