"""The deal of the day: one deal number per date and variant, the same for everyone.

The number is a SHA-256 hash of the ISO date and the variant's spec (the
shortest text that gives its rules back, :meth:`lucie.rules.Rules.spec`),
folded into 1 .. 999,999,999 (the range of the random deal numbers shown to
players).  It depends on nothing else: every machine, process and version
of Python gives the same number.  The date is the UTC date by default, so
that players everywhere share one deal at the same moment.

>>> import datetime
>>> from lucie.rules import Rules
>>> daily_deal(Rules(), datetime.date(2026, 1, 1)) == daily_deal(Rules(), datetime.date(2026, 1, 1))
True
>>> 1 <= daily_deal(Rules(), datetime.date(2026, 1, 1)) <= DAILY_MAX
True
"""

from __future__ import annotations

import datetime
import functools
import hashlib
from typing import Final

from lucie.rules import Rules

#: Deal numbers of the day run from 1 to this.
DAILY_MAX: Final = 999_999_999
#: Prefix of the hashed text (changing it changes every deal of the day).
_SALT: Final = "lucie deal of the day"


def today() -> datetime.date:
    """The current date in UTC."""
    return datetime.datetime.now(datetime.UTC).date()


def daily_deal(rules: Rules, date: datetime.date | None = None) -> int:
    """The deal number of the day ``date`` (default: today, UTC) for ``rules``."""
    return _daily_deal(rules.spec(), date or today())


@functools.lru_cache(maxsize=256)
def _daily_deal(spec: str, date: datetime.date) -> int:
    """:func:`daily_deal` of a variant's spec (a site asks it of each game
    at each request: whether the game plays a deal of the day)."""
    text = f"{_SALT}\n{date.isoformat()}\n{spec}".encode()
    digest = hashlib.sha256(text).digest()
    return int.from_bytes(digest[:8], "big") % DAILY_MAX + 1


def daily_date(rules: Rules, deal: int | None, started: str) -> datetime.date | None:
    """The (UTC) date whose deal of the day a game of ``rules`` played: the
    date it was started (``started``, an ISO timestamp as the store keeps
    it) when ``deal`` is that date's deal of the day; else None."""
    if deal is None:
        return None
    try:
        day = datetime.date.fromisoformat(started[:10])
    except ValueError:
        return None
    return day if daily_deal(rules, day) == deal else None
