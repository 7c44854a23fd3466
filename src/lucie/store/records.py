"""What the store reads and writes, the same for every backend: the rows of
the history (:class:`GameRecord`), the statistics (:class:`Stats`), the
players (:class:`Player`), and the checks every row read goes through
(value by value: a row damaged by hand or by another program is named,
never trusted)."""

from __future__ import annotations

import functools
import json
import math
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any, Final, NamedTuple

from lucie import environment
from lucie.deals import MAX_DEAL
from lucie.engine import Game
from lucie.errors import LucieError, SaveFileError
from lucie.formats import game_from_json, game_to_json
from lucie.i18n import _
from lucie.parsing import excerpt, parse_json
from lucie.rules import Rules

#: Version of the JSON export's format (:meth:`Store.export_games`): it has
#: not changed since schema 1, so older lucies still import new exports.
EXPORT_VERSION: Final = 1
#: Games per series in :attr:`Stats.series`.
SERIES_SIZE: Final = 100
#: Statuses of finished games (they count in the statistics).
FINISHED: Final = ("won", "lost", "resigned")
#: The history's columns (and the CSV export's, in this order).
COLUMNS: Final = (
    "id", "player", "variant", "deal", "seed", "started", "updated", "finished",
    "status", "score", "moves", "seconds",
)


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the store: every game (and so every statistic and daily
    result) is one player's.

    ``name``: the name shown; ``login``: the name a local player is known by
    on this machine (``--player``, ``$LUCIE_PLAYER``, the login name: see
    :func:`default_player`), None for a player of a site, known only by
    ``id``; ``created``: ISO 8601, UTC."""

    id: int
    name: str
    created: str
    login: str | None = None


def default_player() -> str:
    """The player name when none is given: the login name, else ``player``."""
    for var in (environment.PLAYER, "USER", "LOGNAME", "USERNAME"):
        name = os.environ.get(var)
        if name:
            return name
    return "player"


def now() -> str:
    """The time now as the store keeps it (ISO 8601, UTC, whole seconds)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One row of the history (the saved game itself: :meth:`Store.game`)."""

    id: int
    player: str
    variant: str
    deal: int | None
    seed: int
    started: str
    updated: str
    finished: str | None
    status: str
    score: int
    moves: int
    seconds: float
    #: the player's id in the store (:class:`Player`); ``player`` is their name
    player_id: int = 0
    #: the game's version: 1 when started, one more with each recorded change
    version: int = 1

    @property
    def variant_name(self) -> str:
        """The variant's display name (its spec if it cannot be read)."""
        try:
            return Rules.parse(self.variant).name()
        except LucieError:
            return self.variant

    def to_json(self) -> dict[str, Any]:
        """The fields of the history and the export (the same since schema 1)."""
        return {name: getattr(self, name) for name in COLUMNS} | {
            "variant_name": self.variant_name}


@dataclass(frozen=True, slots=True)
class Series:
    """Results of one series of (up to) :data:`SERIES_SIZE` finished games."""

    number: int  # 1 for the first hundred games, 2 for the next ...
    games: int
    wins: int
    average_score: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class Stats:
    """Statistics of one player in one variant (or all when ``variant`` is None).

    Only finished games count (won, lost or resigned); ``current_streak``
    is the run of wins ending with the latest finished game.
    """

    player: str
    variant: str | None
    games: int
    wins: int
    average_score: float
    best_score: int
    best_streak: int
    current_streak: int
    total_seconds: float
    series: tuple[Series, ...]
    #: The player's rows that could not be read (left out of the figures).
    damaged: tuple[Damaged, ...] = ()

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "variant": self.variant,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "average_score": self.average_score,
            "best_score": self.best_score,
            "best_streak": self.best_streak,
            "current_streak": self.current_streak,
            "total_seconds": self.total_seconds,
            "series": [asdict(s) | {"win_rate": s.win_rate} for s in self.series],
            "damaged": [{"id": d.game_id, "reason": d.reason} for d in self.damaged],
        }


def spec_of(variant: str | Rules | None) -> str | None:
    """Normalise a variant given as rules or a spec to ``Rules.spec()``."""
    if variant is None:
        return None
    if isinstance(variant, Rules):
        return variant.spec()
    return Rules.parse(variant).spec()


class Damaged(NamedTuple):
    """A stored game whose row cannot be used, and why."""

    game_id: int
    reason: str

    def __str__(self) -> str:
        return _("game {id}: {why}").format(id=self.game_id, why=self.reason)


class RowDamageError(Exception):
    """Why a row cannot be used (caught within this module)."""


#: Statuses a game can have.
STATUSES: Final = ("playing", *FINISHED)
#: Bounds of the numbers of a row (beyond them the row is damaged).
_MAX_MOVES: Final = 10_000_000
_MAX_SECONDS: Final = 1e10
_INT64: Final = 2**63


def check_text(column: str, value: object) -> str:
    if not isinstance(value, str):
        raise RowDamageError(_("{column} is {value}, not text").format(
            column=column, value=_kind(value)
        ))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise RowDamageError(
            _("{column} is not valid UTF-8 text").format(column=column)
        ) from None
    return value


def _check_int(column: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RowDamageError(_("{column} is {value}, not a whole number").format(
            column=column, value=_kind(value)
        ))
    if not low <= value <= high:
        raise RowDamageError(_("{column} {value} is out of range ({low} to {high})").format(
            column=column, value=value, low=low, high=high
        ))
    return value


def _check_time(column: str, value: object) -> str:
    text = check_text(column, value)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise RowDamageError(_("{column} {value} is not a date and time").format(
            column=column, value=excerpt(text)
        )) from None
    return text


def _kind(value: object) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bytes):
        return _("a blob of {n} bytes").format(n=len(value))
    return excerpt(value)


@functools.lru_cache(maxsize=256)
def _variant_problem(spec: str) -> str | None:
    try:
        Rules.parse(spec)
    except LucieError as exc:
        return _("variant {spec} is not known to this lucie ({why})").format(
            spec=excerpt(spec), why=exc
        )
    return None


def check_row(row: tuple[Any, ...]) -> GameRecord:
    """The :class:`GameRecord` of a row of :data:`COLUMNS`, checked value
    by value; raises :class:`RowDamageError` naming the first problem."""
    (gid, player, variant, deal, seed, started, updated, finished, status, score,
     moves, seconds) = row[:12]
    player_id = _check_int("player_id", row[12], 1, _INT64 - 1) if len(row) > 12 else 0
    version = _check_int("version", row[13], 1, _INT64 - 1) if len(row) > 13 else 1
    check_text("player", player)
    problem = _variant_problem(check_text("variant", variant))
    if problem is not None:
        raise RowDamageError(problem)
    if deal is not None:
        _check_int("deal", deal, 1, MAX_DEAL)
    _check_int("seed", seed, -_INT64, _INT64 - 1)
    _check_time("started", started)
    _check_time("updated", updated)
    if finished is not None:
        _check_time("finished", finished)
    if status not in STATUSES:
        raise RowDamageError(_("status {value} is not one of {known}").format(
            value=_kind(status), known=", ".join(STATUSES)
        ))
    _check_int("score", score, 0, 52)
    _check_int("moves", moves, 0, _MAX_MOVES)
    return GameRecord(gid, player, variant, deal, seed, started, updated, finished,
                      status, score, moves, _check_seconds(seconds), player_id, version)


def _check_seconds(seconds: object) -> float:
    """A row's ``seconds`` (time played), kept to hundredths."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise RowDamageError(_("{column} is {value}, not a number").format(
            column="seconds", value=_kind(seconds)
        ))
    if not (math.isfinite(seconds) and 0 <= seconds <= _MAX_SECONDS):
        raise RowDamageError(_("{column} {value} is out of range ({low} to {high})").format(
            column="seconds", value=repr(seconds), low=0, high=f"{_MAX_SECONDS:.0e}"
        ))
    return round(float(seconds), 2)


class StoredClock(NamedTuple):
    """A site's game's clock as the store keeps it (:meth:`Store.tick_clock`):
    the seconds accrued so far, and when its page last said it showed the
    game (seconds since the epoch; None: hidden, not shown yet, or over).
    The time shown is ``seconds`` plus, while shown, the time since
    ``shown_at``, at most the lease (:class:`lucie.session.Clock`)."""

    seconds: float
    shown_at: float | None


class Tick(NamedTuple):
    """A write of a site's game's clock, which the store itself accrues
    (:meth:`Store.tick_clock`): the time now (seconds since the epoch: the
    writing process's wall clock, since processes compare them), the most
    a page's silence counts (``lease``), and whether the page shows the
    game from now on."""

    now: float
    lease: float
    shown: bool


class Saved(NamedTuple):
    """What a change of a site's game wrote (:meth:`Store.record_shared`):
    the game's new version and its clock as stored then."""

    version: int
    clock: StoredClock


def check_clock(seconds: object, shown_at: object) -> StoredClock:
    """The :class:`StoredClock` of a row's ``seconds`` and ``shown_at``,
    checked as :func:`check_row` checks them; raises :class:`RowDamageError`.
    A ``shown_at`` that is not a time (not a finite number) counts as
    hidden: the clock waits for the page's next word."""
    shown = (float(shown_at) if isinstance(shown_at, (int, float))
             and not isinstance(shown_at, bool) and math.isfinite(shown_at) else None)
    return StoredClock(_check_seconds(seconds), shown)


def saved_text(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))


def load(saved: object, record: GameRecord | None = None,
         base: Game | None = None) -> tuple[Game, dict[str, Any]]:
    """The game of a row's ``saved`` column (and its JSON document),
    checked against the row's variant and deal when given; raises
    :class:`RowDamageError` naming the problem.  ``base``: an earlier copy
    of the game, whose moves are not replayed again
    (:func:`~lucie.formats.game_from_json`)."""
    text = check_text(_("the saved game"), saved)
    try:
        data = parse_json(text, what=_("the saved game"), error=SaveFileError)
        game = game_from_json(data, base)
    except LucieError as exc:
        raise RowDamageError(str(exc)) from None
    except (TypeError, KeyError, IndexError, AttributeError, RecursionError) as exc:
        raise RowDamageError(_("the saved game cannot be replayed ({why})").format(
            why=type(exc).__name__
        )) from None
    if record is not None and (
        Rules.parse(record.variant) != game.rules or game.deal != record.deal
    ):
        raise RowDamageError(_(
            "the saved game ({variant}, deal {deal}) does not match its row "
            "({row_variant}, deal {row_deal})"
        ).format(variant=game.rules.spec(), deal=game.deal, row_variant=record.variant,
                 row_deal=record.deal))
    assert isinstance(data, dict)
    return game, data


class History(list[GameRecord]):
    """The rows :meth:`Store.history` returns, and the damaged ones it
    skipped (:attr:`damaged`)."""

    damaged: tuple[Damaged, ...] = ()


class Export(NamedTuple):
    """What :meth:`Store.export_games` wrote, and the damaged games it left out."""

    text: str
    games: int
    damaged: tuple[Damaged, ...]


def import_row(item: object) -> tuple[Any, ...]:
    """The row of one game of an export, checked field by field."""
    if not isinstance(item, dict):
        raise TypeError(_("not an object"))
    game = game_from_json(item["game"])
    finished = item["finished"]
    status = item["status"]
    seconds = item["seconds"]
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise RowDamageError(_("{column} is {value}, not a number").format(
            column="seconds", value=_kind(seconds)))
    row = (
        0, item["player"], game.rules.spec(), game.deal, game.seed,
        item["started"], item["updated"], finished, status, game.score,
        len(game.moves), float(seconds),
    )
    record = check_row(row)
    for column, value in (("variant", game.rules.spec()), ("deal", game.deal),
                          ("seed", game.seed), ("score", game.score),
                          ("moves", len(game.moves))):
        given = item.get(column, value)
        if column == "variant":
            given = spec_of(given) if isinstance(given, str) else given
        if given != value:
            raise RowDamageError(_("its {column} {value} does not match its game "
                                    "({expected})").format(
                column=column, value=excerpt(given), expected=value))
    if (status == "playing") != (finished is None):
        raise RowDamageError(_("status {status} does not match finished {finished}").format(
            status=excerpt(status), finished=excerpt(finished)))
    if (status == "won") != (game.outcome.status == "won"):
        raise RowDamageError(_("status {status} does not match its game, which is "
                                "{outcome}").format(status=excerpt(status),
                                                    outcome=game.outcome.status))
    return (record.player, record.variant, record.deal, record.seed, record.started,
            record.updated, record.finished, record.status, record.score, record.moves,
            record.seconds, saved_text(game))


class Imported(NamedTuple):
    """What :meth:`Store.import_games` did: games added, games already there."""

    added: int
    skipped: int


__all__ = [
    "COLUMNS", "EXPORT_VERSION", "FINISHED", "SERIES_SIZE", "STATUSES", "Damaged", "Export",
    "GameRecord", "History", "Imported", "Player", "RowDamageError", "Saved", "Series",
    "Stats", "StoredClock", "Tick", "check_clock", "check_row", "check_text",
    "default_player", "import_row", "load", "now", "saved_text", "spec_of",
]
