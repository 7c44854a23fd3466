"""The table as text for people (``lucie play --plain``, ``lucie replay``,
the RL environment's ``render``).

It sits above the engine and the text formats and below every interface,
so each of them can show a position the same way.  The words are in the
language in use (:mod:`lucie.i18n`); card codes, suit letters and fan
letters are not translated.

>>> from lucie.engine import Game
>>> print(render(Game(deal=1)).splitlines()[0])
La Belle Lucie, deal 1 · score 0/52 · redeals left 2
>>> from lucie.i18n import using
>>> with using("de"):
...     for line in render(Game(deal=1)).splitlines()[:3]:
...         print(line)
La Belle Lucie, Austeilung 1 · Punkte 0/52 · Neuverteilungen: 2
Ablagen: C-0 D-0 H-0 S-0
  a: JD KS 4S
"""

from __future__ import annotations

from lucie.engine import FAN_NAMES, Game, format_foundations
from lucie.formats import DISPLAY_SEPARATOR
from lucie.i18n import _


def render(game: Game) -> str:
    """The position of a game as text for people: a header, the
    foundations, then one line per fan with its letter."""
    p = game.position
    rules = p.rules
    deal = (
        _("deal {number}").format(number=game.deal) if game.deal is not None
        else _("custom layout (seed {seed})").format(seed=game.seed)
    )
    extras = [
        _("score {score}/52").format(score=p.score),
        _("redeals left {n}").format(n=p.redeals_left),
    ]
    if rules.merci:
        extras.append(
            _("merci used") if p.merci_used else (
                _("merci available") if p.merci_available else _("merci in the last deal")
            )
        )
    title = f"{rules.name()}, {deal}"
    lines = [DISPLAY_SEPARATOR.join([title, *extras])]
    lines.append(_("Foundations: {foundations}").format(foundations=format_foundations(p)))
    if p.cells:
        lines.append(_("Cells: {cells}").format(cells="  ".join(
            f"{i + 1}:{'-' if c is None else c}" for i, c in enumerate(p.cells)
        )))
    for i, fan in enumerate(p.fans):
        lines.append(f"  {FAN_NAMES[i]}: " + (" ".join(str(c) for c in fan) if fan else "-"))
    return "\n".join(lines)
