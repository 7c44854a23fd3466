"""Fair-play marks (:class:`Marks`) and the deal of the day's table
(:func:`rank_daily`).

Every game recorded since schema 4 carries three marks, set by the session
layer (:class:`lucie.session.Session`) and only ever added to:

- ``origin``: ``start`` (dealt by this program and played from its first
  move), ``replay`` (restarted, played again after its end, or a deal the
  player had played before) or ``loaded`` (imported from elsewhere);
- ``hints``: how many times help was asked (a hint, or the odds of the
  position in play);
- ``undos``: how many moves were taken back.

A game recorded before schema 4 has no marks (None: not known).  A game is
*fair* when it was played from the first move and without help
(:attr:`Marks.fair`); undo is allowed, and shown.  docs/daily.md tells the
ranking rule.

>>> Marks("start", 0, 2).fair, Marks("replay", 0, 0).reasons, Marks.of((None, None, None)).fair
(True, ('replay',), False)
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from lucie.daily import daily_date
from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.rules import Rules
from lucie.store.records import FINISHED, GameRecord

Origin = Literal["start", "replay", "loaded"]
#: Where a game comes from (the ``origin`` mark).
ORIGINS: Final[tuple[Origin, ...]] = ("start", "replay", "loaded")
Mark = Literal["hint", "undo", "replay"]
#: The marks a change of a game can add.
MARKS: Final[tuple[Mark, ...]] = ("hint", "undo", "replay")

_MARK_SQL: Final[dict[str, str]] = {
    "hint": ", hints = hints + 1",
    "undo": ", undos = undos + 1",
    # a game played from its start becomes a replay; a loaded or unknown one stays so
    "replay": ", origin = CASE WHEN origin = 'start' THEN 'replay' ELSE origin END",
}


def mark_sql(mark: Mark | None) -> str:
    """The ``SET`` clause (after a comma) that adds ``mark`` to a game's row
    (NULL, a mark not known, stays NULL)."""
    if mark is None:
        return ""
    if mark not in _MARK_SQL:
        raise ValueError(f"unknown mark {mark!r}")
    return _MARK_SQL[mark]


def _count(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return None


@dataclass(frozen=True, slots=True)
class Marks:
    """A game's fair-play marks (None: not known)."""

    origin: Origin | None
    hints: int | None
    undos: int | None

    @classmethod
    def of(cls, row: Sequence[object]) -> Marks:
        """The marks of a row's ``origin, hints, undos``, checked (a value
        that is not one the store writes reads as not known)."""
        origin = next((o for o in ORIGINS if o == row[0]), None)
        return cls(origin, _count(row[1]), _count(row[2]))

    @property
    def reasons(self) -> tuple[str, ...]:
        """Why the game is not fair (empty when it is): ``unknown`` (no
        marks: recorded before they were), ``replay``, ``loaded``,
        ``hints``."""
        if self.origin is None or self.hints is None:
            return ("unknown",)
        out: list[str] = []
        if self.origin != "start":
            out.append(self.origin)
        if self.hints:
            out.append("hints")
        return tuple(out)

    @property
    def fair(self) -> bool:
        """Played from the first move, without help (undo allowed)."""
        return not self.reasons

    def to_json(self) -> dict[str, Any]:
        return {"origin": self.origin, "hints": self.hints, "undos": self.undos,
                "fair": self.fair, "reasons": list(self.reasons)}


@dataclass(frozen=True, slots=True)
class Entry:
    """One player's result on a deal of the day: ``rank`` (1 is the best;
    equal results share a rank) or None for a game that does not count
    (:attr:`Marks.reasons` says why)."""

    rank: int | None
    record: GameRecord
    marks: Marks

    @property
    def seconds(self) -> float:
        """The time a table ranks by and shows: the game's clock (the time
        its page was shown), but never less than the time from its start
        to its end as the store recorded them (:func:`elapsed`): a page
        that says it is hidden between moves, or goes silent, stops the
        clock, not the table's time.  A game not finished: its clock."""
        r = self.record
        spent = elapsed(r)
        return r.seconds if spent is None else max(r.seconds, spent)

    def key(self) -> tuple[bool, int, int, float]:
        """The ranking order: won first, then more cards home, fewer moves,
        less time (:attr:`seconds`)."""
        r = self.record
        return (r.status != "won", -r.score, r.moves, self.seconds)

    def to_json(self) -> dict[str, Any]:
        r = self.record
        return {"rank": self.rank, "player": r.player,
                "game_id": r.id, "status": r.status, "score": r.score, "moves": r.moves,
                "seconds": self.seconds, "clock_seconds": r.seconds, "finished": r.finished,
                "marks": self.marks.to_json()}


def elapsed(record: GameRecord) -> float | None:
    """Seconds from a finished game's start to its end as the store
    recorded them (its own clock's times, whole seconds), None for a game
    not finished or whose times cannot be read.

    >>> from lucie.store.records import GameRecord
    >>> r = GameRecord(1, "ann", "classic", 3, 0, "2026-12-08T10:00:00+00:00",
    ...                "", "2026-12-08T10:02:05+00:00", "won", 52, 80, 12.0)
    >>> elapsed(r)
    125.0
    """
    if not record.finished:
        return None
    try:
        spent = (datetime.datetime.fromisoformat(record.finished)
                 - datetime.datetime.fromisoformat(record.started)).total_seconds()
    except (TypeError, ValueError):  # damaged, or one naive and one aware
        return None
    return max(0.0, spent)


#: The CSV export's columns after the history's (:func:`export_links`).
LINK_COLUMNS: Final = ("origin", "hints", "undos", "daily", "challenge", "duel")


def export_links(record: GameRecord, cells: Sequence[object]) -> dict[str, Any]:
    """What an export tells of a game beyond its history row, from the row's
    ``origin, hints, undos`` and whether it is in a challenge and in a duel
    (1 or 0): ``marks`` (None where not known), ``daily`` (the date whose deal
    of the day it played, :func:`lucie.daily.daily_date`, or None),
    ``challenge`` and ``duel`` (true or false).  A challenge's or duel's link
    is not written: it is the key to it, and means nothing in another store."""
    marks = Marks.of(cells[:3])
    day = daily_date(Rules.parse(record.variant), record.deal, record.started)
    return {"marks": {"origin": marks.origin, "hints": marks.hints, "undos": marks.undos},
            "daily": day.isoformat() if day is not None else None,
            "challenge": bool(cells[3]), "duel": bool(cells[4])}


def link_cells(links: dict[str, Any]) -> list[object]:
    """:func:`export_links` as the CSV export's cells (:data:`LINK_COLUMNS`;
    a mark not known: empty)."""
    marks = links["marks"]
    return [marks["origin"] or "", "" if marks["hints"] is None else marks["hints"],
            "" if marks["undos"] is None else marks["undos"], links["daily"] or "",
            int(links["challenge"]), int(links["duel"])]


def import_marks(item: dict[str, Any]) -> tuple[int | None, int | None]:
    """The help asked and the undos of one game of an export (None: not
    known, as in an export written before they were), checked.  The origin
    is read and checked too, but not kept: an imported game's is ``loaded``
    (it counts for no table, whatever it was)."""
    marks = item.get("marks")
    if marks is None:
        return None, None
    if not isinstance(marks, dict):
        raise TypeError(_("{column} is not an object").format(column="marks"))
    origin = marks.get("origin")
    if origin is not None and origin not in ORIGINS:
        raise ValueError(_("{column} is {value}, not one of {known}").format(
            column="origin", value=excerpt(origin), known=", ".join(ORIGINS)))
    counts = []
    for column in ("hints", "undos"):
        value = marks.get(column)
        if value is not None and _count(value) is None:
            raise ValueError(_("{column} is {value}, not a whole number of 0 or more").format(
                column=column, value=excerpt(value)))
        counts.append(value)
    return counts[0], counts[1]


def rank_daily(games: Sequence[tuple[GameRecord, Marks]], rules: Rules,
               day: datetime.date) -> list[Entry]:
    """The table of the deal of the day ``day`` from every game of that deal
    (:meth:`lucie.store.Store.deal_games`, oldest first).

    Each player's *first* game of the deal is their entry, if it was
    started on ``day`` (UTC) and is finished; a later game of the deal is
    a replay and never an entry.  Fair entries are ranked by
    :meth:`Entry.key` (equal keys share a rank; the time is the server's,
    :attr:`Entry.seconds`); the others follow,
    unranked, in the order of their results.
    """
    first: dict[int, tuple[GameRecord, Marks]] = {}
    for record, marks in games:
        first.setdefault(record.player_id, (record, marks))
    entries = [Entry(None, record, marks) for record, marks in first.values()
               if record.status in FINISHED
               and daily_date(rules, record.deal, record.started) == day]
    entries.sort(key=lambda e: (not e.marks.fair, e.key(), e.record.id))
    ranked: list[Entry] = []
    for i, entry in enumerate(entries):
        if not entry.marks.fair:
            ranked.append(entry)
            continue
        before = ranked[-1] if ranked else None
        same = before is not None and before.rank is not None and before.key() == entry.key()
        rank = before.rank if same and before is not None else i + 1
        ranked.append(Entry(rank, entry.record, entry.marks))
    return ranked


__all__ = ["LINK_COLUMNS", "MARKS", "ORIGINS", "Entry", "Mark", "Marks", "Origin", "elapsed",
           "export_links", "import_marks", "link_cells", "mark_sql", "rank_daily"]
