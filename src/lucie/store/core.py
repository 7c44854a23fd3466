"""The store's one interface, :class:`Store`, over either backend.

Every query is written here once, in the SQL that SQLite and PostgreSQL
both speak (``?`` marks a parameter; the PostgreSQL backend turns it into
psycopg's ``%s``); a backend opens and checks its database, runs a query,
holds a write transaction and the claims, and turns its driver's errors
into :class:`~lucie.store.errors.StoreError`.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal, NamedTuple, Protocol

from lucie.engine import Game
from lucie.errors import LucieError
from lucie.i18n import _, using
from lucie.parsing import excerpt, parse_json
from lucie.rules import Rules
from lucie.store.errors import StaleGame, StoreError
from lucie.store.records import (
    COLUMNS,
    EXPORT_VERSION,
    FINISHED,
    SERIES_SIZE,
    Damaged,
    Export,
    GameRecord,
    History,
    Imported,
    Player,
    RowDamageError,
    Saved,
    Series,
    Stats,
    StoredClock,
    Tick,
    check_clock,
    check_row,
    check_text,
    default_player,
    import_row,
    load,
    now,
    saved_text,
    spec_of,
)
from lucie.store.results import (
    LINK_COLUMNS,
    ORIGINS,
    Mark,
    Marks,
    Origin,
    export_links,
    import_marks,
    link_cells,
    mark_sql,
)
from lucie.store.sqlite import SQLiteBackend, default_path

ExportFormat = Literal["csv", "json"]
#: Who a game or a statistic belongs to, as the store's methods take it: a
#: :class:`Player` (a site's player), or the login name of a local player
#: (None: :func:`default_player`, the person at this machine).
PlayerRef = Player | str | None
#: The URL schemes that choose the PostgreSQL backend.
POSTGRES_SCHEMES: Final = ("postgresql://", "postgres://")

# A game's row as the history reads it (:func:`lucie.store.records.check_row`).
_ROW: Final = (
    "g.id, p.name, g.variant, g.deal, g.seed, g.started, g.updated, g.finished, "
    "g.status, g.score, g.moves, g.seconds, g.player_id, g.version"
)
_FROM: Final = " FROM games g LEFT JOIN players p ON p.id = g.player_id"
# A game's fair-play marks and whether it is in a challenge, in a duel
# (:func:`lucie.store.results.export_links`).
_LINKS: Final = (
    "g.origin, g.hints, g.undos, "
    "CASE WHEN EXISTS (SELECT 1 FROM challenges c WHERE c.game_id = g.id) OR EXISTS "
    "(SELECT 1 FROM challenge_games cg WHERE cg.game_id = g.id) THEN 1 ELSE 0 END, "
    "CASE WHEN EXISTS (SELECT 1 FROM duels d WHERE d.host_game = g.id "
    "OR d.guest_game = g.id) THEN 1 ELSE 0 END"
)

# A site's game's clock, accrued by the store in the write itself
# (:meth:`Store.tick_clock`, :func:`_tick_params`): the time since the page
# last said it showed the game, at most the lease (nothing while hidden,
# nothing if the writer's clock is behind that time), is added to the
# seconds, kept to hundredths; ``shown_at`` becomes the new time (NULL:
# hidden).  Every SET expression reads the row as it was.
_TICK: Final = (
    "seconds = ROUND(CAST(CASE WHEN shown_at IS NULL OR shown_at >= ? THEN seconds"
    " WHEN shown_at <= ? THEN seconds + ? ELSE seconds + (? - shown_at) END AS NUMERIC), 2),"
    " shown_at = ?"
)


def _tick_params(tick: Tick) -> tuple[object, ...]:
    """The parameters of :data:`_TICK`."""
    now, lease = float(tick.now), max(0.0, float(tick.lease))
    return (now, now - lease, lease, now, now if tick.shown else None)


#: The columns of a game (``g``) a cache checks its copy against (:func:`_checked`).
_CHECKED: Final = "g.version, g.origin, g.hints, g.undos, g.started, g.seconds, g.shown_at"


class Checked(NamedTuple):
    """What a cache of a site's game learns of it from the store at each
    request (:meth:`Store.checked`, :meth:`Store.token_check`): its
    version, the fair-play marks another process may have set (they leave
    the version as it is), its start (ISO, UTC) and its clock (None if it
    cannot be read).  A missing game: no version, no marks known."""

    version: int | None
    marks: Marks
    started: str | None
    clock: StoredClock | None


def _checked(row: Sequence[object] | None) -> Checked:
    """:class:`Checked` of the columns :data:`_CHECKED` (None: no row)."""
    if row is None:
        return Checked(None, Marks.of((None, None, None)), None, None)
    version, started = row[0], row[4]
    try:
        clock: StoredClock | None = check_clock(row[5], row[6])
    except RowDamageError:
        clock = None
    return Checked(version if isinstance(version, int) else None, Marks.of(tuple(row[1:4])),
                   started if isinstance(started, str) else None, clock)


class Cursor(Protocol):
    """What a backend's statement returns (sqlite3's and psycopg's cursors)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class StoredGame(NamedTuple):
    """A stored game as one read gives it (:meth:`Store.stored_game`)."""

    record: GameRecord
    #: the game replayed to its last saved position
    game: Game
    #: its fair-play marks
    marks: Marks
    #: the rating its deal was picked by (JSON text), if it was
    picked: str | None
    #: its clock (a site's game's: :meth:`Store.tick_clock`)
    clock: StoredClock


class Transaction(Protocol):
    """A backend's open write transaction."""

    def execute(self, sql: str, params: Sequence[object] = ..., /) -> Cursor: ...


class Backend(Protocol):
    """What :class:`Store` asks of a database."""

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""

    @property
    def same(self) -> str:
        """The operator that says two values are the same, NULL included."""

    @property
    def where(self) -> str:
        """What names the database in messages (a path, a URL without password)."""

    def write(self) -> AbstractContextManager[Transaction]: ...

    def write_one(self, sql: str, params: tuple[object, ...] = ()) -> tuple[Any, ...] | None:
        """One statement, a write transaction of its own (no BEGIN and
        COMMIT sent around it); its first row (``RETURNING``), if any."""

    def read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]: ...

    def claim(self, game_id: int) -> bool: ...

    def release(self, game_id: int) -> None: ...

    def is_claimed(self, game_id: int) -> bool: ...

    def claimed_elsewhere(self, game_ids: Iterable[int]) -> set[int]: ...

    def close(self) -> None: ...


def is_url(where: object) -> bool:
    """Whether ``where`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return isinstance(where, str) and where.startswith(POSTGRES_SCHEMES)


def _backend(where: Path | str | None) -> Backend:
    if where is None:
        return SQLiteBackend(default_path())
    if is_url(where):
        from lucie.store.postgres import PostgresBackend

        return PostgresBackend(str(where))
    return SQLiteBackend(Path(where).expanduser())


def loaded_login(player_id: int) -> str:
    """The login of the player that keeps site player ``player_id``'s
    loaded games (:meth:`Store.loaded_player`).

    >>> loaded_login(12)
    'loaded:12'
    """
    return f"{_LOADED}{player_id}"


#: How the logins of :func:`loaded_login` begin.
_LOADED: Final = "loaded:"


def _loaded_owner(login: object) -> int | None:
    """The site player whose loaded games the login ``login`` keeps
    (:func:`loaded_login`), None for any other login.

    >>> _loaded_owner("loaded:12"), _loaded_owner("ann"), _loaded_owner(None)
    (12, None, None)
    """
    if not isinstance(login, str) or not login.startswith(_LOADED):
        return None
    rest = login[len(_LOADED):]
    return int(rest) if rest.isdigit() else None


class Store:
    """The games, the players and their statistics.  ``where``: a SQLite
    file (default :func:`~lucie.store.sqlite.default_path`) or a
    ``postgresql://`` URL.  Use as a context manager or call :meth:`close`.

    A method that reads or writes a player's games takes the player
    (:data:`PlayerRef`)."""

    def __init__(self, where: Path | str | None = None) -> None:
        self._backend = _backend(where)
        #: the SQLite file (None for a PostgreSQL database)
        self.path: Path | None = getattr(self._backend, "path", None)
        #: what names the database in messages
        self.where = self._backend.where
        #: the PostgreSQL URL (None for SQLite): the duels' news (lucie.site.duel_hub)
        self.url: str | None = getattr(self._backend, "url", None)
        self._logins: dict[str, int] = {}

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self._backend.dialect

    def close(self) -> None:
        self._backend.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self) -> AbstractContextManager[Transaction]:
        return self._backend.write()

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        return self._backend.read(sql, params)

    # -- players ------------------------------------------------------------

    def _player_id(self, player: PlayerRef, tx: Transaction | None = None) -> int | None:
        """The id of ``player``; a local player met for the first time is
        created when ``tx`` (a write) is given, else None is returned."""
        if isinstance(player, Player):
            return player.id
        login = player or default_player()
        known = self._logins.get(login)
        if known is not None:
            return known
        if tx is None:
            rows = self._read("SELECT id FROM players WHERE login = ?", (login,))
            found = rows[0][0] if rows else None
        else:
            tx.execute("INSERT INTO players (name, login, created) VALUES (?, ?, ?) "
                       "ON CONFLICT (login) DO NOTHING", (login, login, now()))
            found = tx.execute("SELECT id FROM players WHERE login = ?", (login,)).fetchone()[0]
        if not isinstance(found, int):
            return None
        if tx is None:  # (an id made in a write is known once it is committed)
            self._logins[login] = found
        return found

    def player_id(self, player: PlayerRef) -> int | None:
        """The store's id of ``player`` (None: a local player not met yet)."""
        return self._player_id(player)

    def local_player(self, name: str | None = None) -> Player:
        """The local player known by ``name`` (default: :func:`default_player`),
        created the first time."""
        with self._write() as tx:
            pid = self._player_id(name, tx)
        player = self.player(pid) if pid is not None else None
        assert player is not None, "a player created above"
        return player

    def new_player(self, name: str) -> Player:
        """A new player of a site (no login: known by id only)."""
        with self._write() as tx:
            created = now()
            pid = tx.execute("INSERT INTO players (name, login, created) VALUES (?, NULL, ?) "
                             "RETURNING id", (name, created)).fetchone()[0]
        return Player(int(pid), name, created, None)

    def player(self, player_id: int) -> Player | None:
        """The player ``player_id``; None if there is none (or the row is damaged)."""
        rows = self._read("SELECT id, name, created, login FROM players WHERE id = ?",
                          (player_id,))
        if not rows:
            return None
        pid, name, created, login = rows[0]
        try:
            return Player(pid, check_text("name", name), check_text("created", created),
                          None if login is None else check_text("login", login))
        except RowDamageError:
            return None

    def loaded_player(self, owner: Player, *, make: bool = True) -> Player | None:
        """The player that keeps the games ``owner`` (a site's player)
        loaded from save files: stored, so that any process of the site
        serves them, but never in ``owner``'s statistics or history (a
        loaded game replays someone's moves).  Its login is
        ``loaded:<owner's id>`` (no system login holds a colon); made the
        first time if ``make``, else None until then.  It goes with
        ``owner`` (:meth:`delete_player`)."""
        login = loaded_login(owner.id)
        if make:
            return self.local_player(login)
        pid = self._player_id(login)
        return self.player(pid) if pid is not None else None

    def rename_player(self, player: PlayerRef, name: str) -> None:
        """Give ``player`` a new display name (its login, if any, stays)."""
        with self._write() as tx:
            pid = self._player_id(player, tx)
            tx.execute("UPDATE players SET name = ? WHERE id = ?", (name, pid))

    def delete_player(self, player: PlayerRef) -> int:
        """Delete ``player`` and everything that is theirs (games, and so
        statistics and daily results); returns how many games went.  A
        duel they played stays the other player's: their side names nobody
        (a deleted player, :meth:`lucie.store.duels.Duel.gone`), its ends
        and both reviews stay; a duel nobody joined, or whose two players
        are both gone, goes."""
        pid = self._player_id(player)
        if pid is None:
            return 0
        with self._write() as tx:
            # their side of a duel names nobody, the duel stays the other's
            # (lucie.store.duels, schema 11)
            tx.execute("DELETE FROM duels WHERE host_id = ? AND started IS NULL", (pid,))
            tx.execute("UPDATE duels SET host_id = NULL WHERE host_id = ?", (pid,))
            tx.execute("UPDATE duels SET guest_id = NULL WHERE guest_id = ?", (pid,))
            tx.execute("DELETE FROM duels WHERE host_id IS NULL AND guest_id IS NULL", ())
            tx.execute("DELETE FROM web_games WHERE game_id IN "
                       "(SELECT id FROM games WHERE player_id = ?)", (pid,))
            tx.execute("DELETE FROM challenge_games WHERE player_id = ?", (pid,))
            tx.execute("DELETE FROM challenges WHERE game_id IN "
                       "(SELECT id FROM games WHERE player_id = ?)", (pid,))
            gone = tx.execute("DELETE FROM games WHERE player_id = ?", (pid,)).rowcount
            tx.execute("DELETE FROM players WHERE id = ?", (pid,))
        self._logins = {k: v for k, v in self._logins.items() if v != pid}
        if isinstance(player, Player) and player.login is None:  # their loaded games too
            gone += self.delete_player(loaded_login(player.id))
        return gone

    # -- a site's tidying -------------------------------------------------
    #
    # Only a site's own players (no login) and the players of their loaded
    # games (``loaded:<id>``) are ever tidied; a finished game is never
    # deleted (nor changed) here, nor a player with a display name.

    def idle_players(self, before: str | None, *, only: int | None = None) -> list[Player]:
        """The site's players nothing of whose would be missed: no login,
        no display name, no finished game, no duel that ended (its result
        is the other player's too), made before ``before`` and no
        game of theirs changed since (an ISO 8601 time as :func:`now`
        writes it; None: whenever); ``only``: that player's id alone."""
        sql = ("SELECT p.id, p.created FROM players p WHERE p.login IS NULL AND p.name = ''"
               " AND NOT EXISTS (SELECT 1 FROM duels d WHERE d.ended IS NOT NULL"
               " AND (d.host_id = p.id OR d.guest_id = p.id))"
               " AND NOT EXISTS (SELECT 1 FROM games g WHERE g.player_id = p.id"
               " AND (g.status <> 'playing'")
        params: list[object] = []
        if before is not None:
            sql += " OR g.updated >= ?)) AND p.created < ?"
            params += [before, before]
        else:
            sql += "))"
        if only is not None:
            sql += " AND p.id = ?"
            params.append(only)
        rows = self._read(sql + " ORDER BY p.id", tuple(params))
        return [Player(int(pid), "", str(created), None) for pid, created in rows]

    def adopt_games(self, old: Player, new: Player) -> int:
        """Give ``new`` the games in play, with a move, of site player
        ``old`` (a device that played as ``old`` goes on as ``new`` with a
        recovery code); returns how many.  ``old``'s finished games stay
        theirs: a recorded result is never rewritten."""
        with self._write() as tx:
            moved = tx.execute(
                "UPDATE games SET player_id = ?, version = version + 1"
                " WHERE player_id = ? AND status = 'playing' AND moves > 0",
                (new.id, old.id)).rowcount
        return int(moved)

    def purge(self, before: str) -> tuple[int, int]:
        """Delete the site's :meth:`idle_players` (with their unplayed
        deals and loaded games), then the site's games never played (still
        in play, no move, in no duel nor challenge) not changed since ``before``; returns how many
        players and games went."""
        players = games = 0
        for player in self.idle_players(before):
            games += self.delete_player(player)
            players += 1
        unplayed = ("SELECT g.id FROM games g JOIN players p ON p.id = g.player_id"
                    " WHERE (p.login IS NULL OR p.login LIKE ?)"
                    " AND g.status = 'playing' AND g.moves = 0 AND g.updated < ?"
                    # a duel's or a challenge's game stays with its duel or challenge
                    " AND NOT EXISTS (SELECT 1 FROM duels d"
                    " WHERE d.host_game = g.id OR d.guest_game = g.id)"
                    " AND NOT EXISTS (SELECT 1 FROM challenge_games c WHERE c.game_id = g.id)")
        params = (loaded_login(0).replace("0", "%"), before)
        with self._write() as tx:
            tx.execute(f"DELETE FROM web_games WHERE game_id IN ({unplayed})", params)
            games += tx.execute(f"DELETE FROM games WHERE id IN ({unplayed})",
                                params).rowcount
        return players, games

    def players(self) -> list[str]:
        """Every player's name, sorted (a name that is not valid text is
        left out)."""
        names = []
        for (name,) in self._read("SELECT name FROM players ORDER BY name"):
            with contextlib.suppress(RowDamageError):
                names.append(check_text("player", name))
        return sorted(set(names))

    # -- the life of a game ----------------------------------------------
    #
    # Each change of a game adds one to its version (1 when it starts); a
    # change given ``expect`` is made only on that version (else StaleGame).

    def start_game(self, game: Game, player: PlayerRef = None,
                   picked_rating: str | None = None, origin: Origin = "start", *,
                   shown_at: float | None = None) -> int:
        """Record a new game of ``player`` being played; returns its id.
        ``picked_rating``: the rating (JSON text) its deal was picked by,
        kept with the game (:meth:`picked_rating`); ``origin``: its first
        fair-play mark (:class:`~lucie.store.results.Marks`: no hint, no
        undo yet); ``shown_at``: a site's game shown from then on (seconds
        since the epoch: its clock runs, :meth:`tick_clock`)."""
        if origin not in ORIGINS:
            raise StoreError(f"unknown origin {origin!r}")
        stamp = now()
        with self._write() as tx:
            pid = self._player_id(player, tx)
            row = tx.execute(
                "INSERT INTO games (player_id, variant, deal, seed, started, updated, "
                "status, score, moves, seconds, saved, picked_rating, version, "
                "origin, hints, undos, shown_at) "
                "VALUES (?, ?, ?, ?, ?, ?, 'playing', ?, ?, 0, ?, ?, 1, ?, 0, 0, ?) RETURNING id",
                (pid, game.rules.spec(), game.deal, game.seed, stamp, stamp, game.score,
                 len(game.moves), saved_text(game), picked_rating, origin,
                 None if shown_at is None else float(shown_at)),
            ).fetchone()
            return int(row[0])

    def _change(self, game_id: int, sets: str, params: tuple[object, ...],
                expect: int | None, *, returning: str = "version") -> tuple[Any, ...]:
        """``UPDATE games SET <sets>, version = version + 1`` of one game;
        the new row's ``returning`` columns.  One statement, a transaction of its own (a move's
        write: one trip to PostgreSQL, not three)."""
        sql = f"UPDATE games SET {sets}, version = version + 1 WHERE id = ?"
        args: tuple[object, ...] = (*params, game_id)
        if expect is not None:
            sql += " AND version = ?"
            args = (*args, expect)
        row = self._backend.write_one(f"{sql} RETURNING {returning}", args)
        if row is not None:
            return row
        # nothing changed: a game changed meanwhile, or none at all
        if expect is not None and self._read("SELECT 1 FROM games WHERE id = ?", (game_id,)):
            raise StaleGame(_(
                "game {id} was changed by another program meanwhile; load it again"
            ).format(id=game_id))
        raise StoreError(_no_game(game_id, self.where))

    def record_move(self, game_id: int, game: Game, seconds: float | None = None, *,
                    expect: int | None = None, mark: Mark | None = None) -> int:
        """Save the game's current move list (call after every push, pop,
        redo, redeal or restart); returns the game's new version.
        ``seconds``: time played so far; ``mark``: the fair-play mark the
        change makes (``undo``, ``replay``: :data:`MARKS`), recorded with it."""
        sets, params = _move_sets(game, mark)
        return int(self._change(game_id, sets + ", seconds = COALESCE(?, seconds)",
                                (*params, None if seconds is None else round(seconds, 2)),
                                expect)[0])

    def record_shared(self, game_id: int, game: Game, tick: Tick, status: str | None = None,
                      *, expect: int | None, mark: Mark | None = None) -> Saved:
        """A change of a site's game (one its processes share): the game's
        move list (:meth:`record_move`), or with ``status`` its end
        (:meth:`finish_game`), and in the same write its clock, accrued by
        the store (:meth:`tick_clock`: a change says the page shows the
        game; an end stops the clock for good).  Made only on version
        ``expect``, so the time up to an end is recorded once, by the one
        process whose end is written."""
        if status is None:
            sets, params = _move_sets(game, mark)
        else:
            sets, params = _finish_sets(game, status)
            tick = tick._replace(shown=False)
        row = self._change(game_id, f"{sets}, {_TICK}", (*params, *_tick_params(tick)),
                           expect, returning="version, seconds, shown_at")
        return Saved(int(row[0]), self._clock(game_id, row[1], row[2]))

    def tick_clock(self, game_id: int, tick: Tick) -> StoredClock | None:
        """The page of site game ``game_id`` says whether it shows it
        (:class:`Tick`): one write adds the time since the page last said
        it did, at most ``tick.lease``, to the game's seconds, and keeps
        when it said so (NULL: hidden).  Whatever process gets the page's
        word, the time is counted once, and a process that stops (even
        killed) loses nothing written.  Returns the clock as stored then:
        a game over keeps its time (a late word adds nothing); None for a
        missing game.  The game's version stays (the clock is not part of
        the game a cache holds), and so does ``updated``."""
        row = self._backend.write_one(
            f"UPDATE games SET {_TICK} WHERE id = ? AND status = 'playing'"
            " RETURNING seconds, shown_at", (*_tick_params(tick), game_id))
        if row is None:
            return self.clock_of(game_id)
        return self._clock(game_id, row[0], row[1])

    def clock_of(self, game_id: int) -> StoredClock | None:
        """A site's game's clock as stored (:meth:`tick_clock`); None for a
        missing game."""
        rows = self._read("SELECT seconds, shown_at FROM games WHERE id = ?", (game_id,))
        return self._clock(game_id, *rows[0]) if rows else None

    def _clock(self, game_id: int, seconds: object, shown_at: object) -> StoredClock:
        try:
            return check_clock(seconds, shown_at)
        except RowDamageError as exc:
            raise StoreError(_damaged_game(game_id, self.where, exc)) from None

    def mark(self, game_id: int, mark: Mark) -> None:
        """Record a fair-play mark of a game that does not change the game
        itself (``hint``: help was asked; ``replay``: the deal turned out
        to be one the player had played before).  The game's version stays:
        the marks are not part of the game a cache holds, and each mark only
        ever adds (a mark is never taken back)."""
        with self._write() as tx:
            tx.execute(f"UPDATE games SET {mark_sql(mark)[2:]} WHERE id = ?", (game_id,))

    def deal_owner(self, game_id: int) -> tuple[int, str, int | None] | None:
        """Who played game ``game_id`` and what: the id of its player (for
        a site's loaded game, :meth:`loaded_player`, the player who loaded
        it), its variant and deal number (None: a deal from a layout).
        None for a missing game.  Fair play goes by the deal and this
        player (:meth:`mark_deal`, a duel's rules)."""
        rows = self._read("SELECT g.player_id, p.login, g.variant, g.deal FROM games g"
                          " JOIN players p ON p.id = g.player_id WHERE g.id = ?", (game_id,))
        if not rows:
            return None
        pid, login, variant, deal = rows[0]
        owner = _loaded_owner(login)
        return (int(pid) if owner is None else owner, str(variant),
                None if deal is None else int(deal))

    def mark_deal(self, game_id: int, *, itself: bool = True) -> int:
        """Help was asked on game ``game_id``: mark it (``hint``, if
        ``itself``: not for a game whose result is recorded, practice by
        then) and every other game of the same variant and deal number
        still in play of the same player, their loaded games
        (:meth:`loaded_player`) included, in one write: help on a second
        game of a deal, or on a loaded copy, is help on the first.
        Returns how many games were marked."""
        owner, variant, deal = self.deal_owner(game_id) or (0, "", None)
        if deal is None:  # a deal from a layout, or no such game: this one only
            if itself:
                self.mark(game_id, "hint")
            return int(itself)
        return self._mark_in_play(owner, variant, deal, game_id, itself=itself)

    def mark_player_deal(self, player: PlayerRef, variant: str | Rules, deal: int) -> int:
        """Help was asked on a game of ``variant``'s ``deal`` that is not
        stored (a game loaded in a local ``lucie web``): mark ``player``'s
        games of that deal still in play, their loaded ones included, as
        :meth:`mark_deal` does.  Returns how many games were marked."""
        pid = self._player_id(player)
        spec = spec_of(variant)
        return 0 if pid is None or spec is None else self._mark_in_play(
            pid, spec, deal, 0, itself=False)

    def _mark_in_play(self, owner: int, variant: str, deal: int, game_id: int, *,
                      itself: bool) -> int:
        first, params = ("id = ? OR ", (game_id,)) if itself else ("", ())
        with self._write() as tx:
            cur = tx.execute(
                f"UPDATE games SET {mark_sql('hint')[2:]} WHERE {first}"
                "(id <> ? AND variant = ? AND deal = ? AND status = 'playing'"
                " AND player_id IN (SELECT id FROM players WHERE id = ? OR login = ?))",
                (*params, game_id, variant, deal, owner, loaded_login(owner)))
            return max(0, int(cur.rowcount))

    def marks(self, game_id: int) -> Marks:
        """The fair-play marks of a game (unknown ones, in a game recorded
        before schema 4 or a missing game, are None)."""
        rows = self._read("SELECT origin, hints, undos FROM games WHERE id = ?", (game_id,))
        return Marks.of(rows[0] if rows else (None, None, None))

    def fair_play(self, game_id: int) -> tuple[int | None, Marks, str | None]:
        """A game's version (:meth:`version`), fair-play marks (:meth:`marks`)
        and start (ISO, UTC), in one read: a cache of the game checks its copy
        and learns the marks set elsewhere (they leave the version as it is).
        A missing game: None, no marks known, None."""
        return self.checked(game_id)[:3]

    def checked(self, game_id: int) -> Checked:
        """:meth:`fair_play` and the game's clock (:meth:`clock_of`; None if
        it cannot be read), in one read: what a cache of a site's game
        learns from the other processes at each request."""
        rows = self._read(f"SELECT {_CHECKED} FROM games g WHERE g.id = ?", (game_id,))
        return _checked(rows[0] if rows else None)

    def played_before(self, player: PlayerRef, game: Game, before: int) -> bool:
        """Whether ``player`` has a game of the same variant and deal number
        as ``game`` recorded before game ``before`` (a deal from a layout:
        never known, False)."""
        pid = self._player_id(player)
        if pid is None or game.deal is None:
            return False
        rows = self._read("SELECT 1 FROM games WHERE player_id = ? AND variant = ? AND deal = ?"
                          " AND id < ? LIMIT 1", (pid, game.rules.spec(), game.deal, before))
        return bool(rows)

    def deal_games(self, variant: str | Rules, deal: int) -> list[tuple[GameRecord, Marks]]:
        """Every player's games of one deal (oldest first) and their marks;
        a damaged row is left out, and so are the games a site keeps for its
        players' loaded files (:meth:`loaded_player`: nobody's own games)."""
        spec = spec_of(variant)
        rows = self._read(f"SELECT {_ROW}, g.origin, g.hints, g.undos{_FROM}"
                          " WHERE g.variant = ? AND g.deal = ?"
                          " AND (p.login IS NULL OR p.login NOT LIKE ?) ORDER BY g.id",
                          (spec, deal, _LOADED + "%"))
        out = []
        for row in rows:
            with contextlib.suppress(RowDamageError):
                out.append((check_row(row[:14]), Marks.of(row[14:])))
        return out

    def deal_odds(self, variant: str | Rules, deal: int) -> str | None:
        """The odds of a deal as kept by :meth:`keep_deal_odds` (JSON text)."""
        rows = self._read("SELECT odds FROM deal_odds WHERE variant = ? AND deal = ?",
                          (spec_of(variant), deal))
        value = rows[0][0] if rows else None
        return value if isinstance(value, str) else None

    def keep_deal_odds(self, variant: str | Rules, deal: int, odds: str) -> None:
        """Keep the odds of a deal (JSON text); odds kept already stay."""
        with self._write() as tx:
            tx.execute("INSERT INTO deal_odds (variant, deal, odds, created) VALUES (?, ?, ?, ?)"
                       " ON CONFLICT (variant, deal) DO NOTHING",
                       (spec_of(variant), deal, odds, now()))

    def finish_game(
        self, game_id: int, game: Game, seconds: float, status: str | None = None, *,
        expect: int | None = None,
    ) -> int:
        """Record the end of a game; returns its new version.  The status is
        the game's outcome (``won``, ``lost``, ``resigned``); a game still
        being played counts as resigned (the player left it for another one)."""
        sets, params = _finish_sets(game, status)
        return int(self._change(game_id, sets + ", seconds = ?", (*params, round(seconds, 2)),
                                expect)[0])

    def discard(self, game_id: int) -> bool:
        """Delete a game still being played in which no move was made (a
        deal the player looked at and left); True if it was deleted."""
        with self._write() as tx:
            cur = tx.execute(
                "DELETE FROM games WHERE id = ? AND status = 'playing' AND moves = 0",
                (game_id,),
            )
            if cur.rowcount == 1:
                tx.execute("DELETE FROM web_games WHERE game_id = ?", (game_id,))
            return cur.rowcount == 1

    def version(self, game_id: int) -> int | None:
        """The game's version (one more with each recorded change), None
        if there is no such game: a cache compares it with its copy's."""
        rows = self._read("SELECT version FROM games WHERE id = ?", (game_id,))
        value = rows[0][0] if rows else None
        return value if isinstance(value, int) else None

    # -- claims: one program per open game ------------------------------

    def claim(self, game_id: int) -> bool:
        """Mark a game as played by this store's program; False if another
        program (or another :class:`Store` of this one) plays it: leave it
        alone then.  The claim lapses when the program ends, however it
        ends."""
        return self._backend.claim(game_id)

    def release(self, game_id: int) -> None:
        """Give up this store's claim on a game (when it stops playing it)."""
        self._backend.release(game_id)

    def is_claimed(self, game_id: int) -> bool:
        """Whether a program (this one included) holds a claim on the game."""
        return self._backend.is_claimed(game_id)

    # -- the browser's tokens ---------------------------------------------

    def link_token(self, token: str, game_id: int) -> None:
        """Remember that the page's ``token`` names game ``game_id``."""
        with self._write() as tx:
            tx.execute("INSERT INTO web_games (token, game_id) VALUES (?, ?) "
                       "ON CONFLICT (token) DO UPDATE SET game_id = excluded.game_id",
                       (token, game_id))

    def token_game(self, token: str) -> int | None:
        """The game the page's ``token`` names, None if it names none."""
        rows = self._read("SELECT game_id FROM web_games WHERE token = ?", (token,))
        value = rows[0][0] if rows else None
        return value if isinstance(value, int) else None

    def relink_token(self, token: str, old: int, new: int) -> bool:
        """The page's ``token`` names game ``new`` from now on, in place of
        game ``old`` (a Restart after the game's end: a new game of the
        same deal); one write, made only if the token still names ``old``
        (the game id is the token's version).  False if it names another
        game, or none: another process replaced or dropped it meanwhile,
        and nothing was changed."""
        with self._write() as tx:
            cur = tx.execute("UPDATE web_games SET game_id = ? WHERE token = ? AND game_id = ?",
                             (new, token, old))
            return cur.rowcount == 1

    def token_check(self, token: str) -> tuple[int | None, Checked]:
        """The game the page's ``token`` names now and that game's
        :meth:`checked` (version, marks, start, clock), in one read: a
        process's copy of the page's game is checked against both (another
        process may have changed the game, or given the token a new game).
        A token that names no game: None, and nothing known."""
        rows = self._read(f"SELECT w.game_id, {_CHECKED} FROM web_games w"
                          " JOIN games g ON g.id = w.game_id WHERE w.token = ?", (token,))
        if not rows:
            return None, _checked(None)
        game_id = rows[0][0]
        return game_id if isinstance(game_id, int) else None, _checked(rows[0][1:])

    # -- challenges: the same deal for a friend -----------------------------

    def new_challenge(self, token: str, game_id: int) -> None:
        """A challenge, known by its link's ``token``, to the deal of game
        ``game_id`` (whose player is the challenger)."""
        with self._write() as tx:
            tx.execute("INSERT INTO challenges (token, game_id, created) VALUES (?, ?, ?)",
                       (token, game_id, now()))

    def challenge(self, token: str) -> tuple[int, dict[int, int]] | None:
        """The challenger's game of the challenge ``token`` and each other
        player's game in it (player id: game id); None if there is none."""
        rows = self._read("SELECT game_id FROM challenges WHERE token = ?", (token,))
        if not rows or not isinstance(rows[0][0], int):
            return None
        joined = self._read("SELECT player_id, game_id FROM challenge_games WHERE token = ?",
                            (token,))
        return rows[0][0], {int(p): int(g) for p, g in joined}

    def join_challenge(self, token: str, player: PlayerRef, game_id: int) -> int:
        """Record game ``game_id`` as ``player``'s in the challenge; a player
        has one game per challenge: the game recorded first (returned)."""
        with self._write() as tx:
            pid = self._player_id(player, tx)
            tx.execute("INSERT INTO challenge_games (token, player_id, game_id) VALUES (?, ?, ?)"
                       " ON CONFLICT (token, player_id) DO NOTHING", (token, pid, game_id))
            row = tx.execute("SELECT game_id FROM challenge_games WHERE token = ? AND "
                             "player_id = ?", (token, pid)).fetchone()
            return int(row[0])

    # -- reading back -----------------------------------------------------
    #
    # Every row read is checked value by value (:func:`check_row`): a row
    # damaged by hand or by another program is skipped by the lists and the
    # statistics (which name it in ``damaged``), and reading that one game
    # raises a StoreError naming it.  The other games stay usable.

    def unfinished(
        self, player: PlayerRef = None, variant: str | Rules | None = None,
    ) -> tuple[int, Game] | None:
        """The player's most recent game still being played (of ``variant``
        if given), rebuilt at its last saved position; None if there is
        none.  A damaged row (or one whose saved game no longer loads) is
        skipped (and kept), and so is a game another running program has
        :meth:`claim`-ed."""
        pid = self._player_id(player)
        if pid is None:
            return None
        sql = f"SELECT {_ROW}, g.saved{_FROM} WHERE g.player_id = ? AND g.status = 'playing'"
        params: list[object] = [pid]
        spec = spec_of(variant)
        if spec is not None:
            sql += " AND g.variant = ?"
            params.append(spec)
        rows = self._read(sql + " ORDER BY g.updated DESC, g.id DESC", tuple(params))
        taken = self._backend.claimed_elsewhere(
            row[0] for row in rows if isinstance(row[0], int))
        for row in rows:
            if row[0] in taken:
                continue
            try:
                return row[0], load(row[-1], check_row(row))[0]
            except RowDamageError:
                continue
        return None

    def _row(self, game_id: int, of: Player | str | None, extra: str = "") -> tuple[Any, ...]:
        sql = f"SELECT {_ROW}{extra}{_FROM} WHERE g.id = ?"
        params: tuple[object, ...] = (game_id,)
        if of is not None:
            sql += " AND g.player_id = ?"
            params = (game_id, self._player_id(of))
        rows = self._read(sql, params)
        if not rows:
            raise StoreError(_no_game(game_id, self.where))
        return rows[0]

    def record(self, game_id: int, *, of: Player | str | None = None) -> GameRecord:
        """The history row of one game (a :class:`StoreError` naming the
        game if it is missing or damaged).  ``of``: a player; a game of
        another player is missing too."""
        row = self._row(game_id, of)
        try:
            return check_row(row)
        except RowDamageError as exc:
            raise StoreError(_damaged_game(game_id, self.where, exc)) from None

    def picked_rating(self, game_id: int) -> str | None:
        """The rating (JSON text) the game's deal was picked by, as given to
        :meth:`start_game`; None for a game not picked by difficulty (or a
        missing game, or a value that is not text)."""
        rows = self._read("SELECT picked_rating FROM games WHERE id = ?", (game_id,))
        value = rows[0][0] if rows else None
        return value if isinstance(value, str) else None

    def game(self, game_id: int, *, of: Player | str | None = None,
             base: Game | None = None) -> Game:
        """Any stored game, replayed to its last saved position (a
        :class:`StoreError` naming the game if it is missing or damaged).
        ``of``: a player; a game of another player is missing too.
        ``base``: an earlier copy of the game (its moves are not replayed
        again if the stored game goes on from them)."""
        return self.stored_game(game_id, of=of, base=base).game

    def stored_game(self, game_id: int, *, of: Player | str | None = None,
                    base: Game | None = None) -> StoredGame:
        """:meth:`record`, :meth:`game`, :meth:`marks`, :meth:`picked_rating`
        and :meth:`clock_of` of one game, in one read (what a program
        resuming the game needs: :meth:`lucie.session.Session.stored`)."""
        row = self._row(game_id, of,
                        ", g.shown_at, g.origin, g.hints, g.undos, g.picked_rating, g.saved")
        try:
            record = check_row(row)
            game = load(row[-1], record, base)[0]
        except RowDamageError as exc:
            raise StoreError(_damaged_game(game_id, self.where, exc)) from None
        picked = row[-2]
        return StoredGame(record, game, Marks.of(row[-5:-2]),
                          picked if isinstance(picked, str) else None,
                          check_clock(record.seconds, row[-6]))

    def history(
        self,
        player: Player | str | None = None,
        variant: str | Rules | None = None,
        limit: int | None = None,
        *,
        finished_only: bool = False,
    ) -> History:
        """Games, newest first, optionally of one player (None, unlike the
        other methods: every player's) and one variant.  Damaged rows are
        left out and listed in the result's ``damaged``."""
        sql = f"SELECT {_ROW}{_FROM}"
        where: list[str] = []
        params: list[object] = []
        if player is not None:
            pid = self._player_id(player)
            if pid is None:
                return History()
            where.append("g.player_id = ?")
            params.append(pid)
        spec = spec_of(variant)
        if spec is not None:
            where.append("g.variant = ?")
            params.append(spec)
        if finished_only:
            where.append(f"g.status IN ({', '.join('?' * len(FINISHED))})")
            params.extend(FINISHED)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY g.id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, limit))
        out = History()
        damaged: list[Damaged] = []
        for row in self._read(sql, tuple(params)):
            try:
                out.append(check_row(row))
            except RowDamageError as exc:
                damaged.append(Damaged(row[0], str(exc)))
        out.damaged = tuple(damaged)
        return out

    def stats(self, player: PlayerRef = None, variant: str | Rules | None = None) -> Stats:
        """Statistics of ``player`` (default: :func:`default_player`) in
        ``variant`` (a spec or rules; None: every variant together).  The
        player's damaged rows do not count; they are listed in ``damaged``."""
        name = player.name if isinstance(player, Player) else player or default_player()
        spec = spec_of(variant)
        pid = self._player_id(player)
        damaged: list[Damaged] = []
        rows: list[GameRecord] = []
        if pid is not None:
            sql = f"SELECT {_ROW}{_FROM} WHERE g.player_id = ?"
            params: list[object] = [pid]
            if spec is not None:
                sql += " AND g.variant = ?"
                params.append(spec)
            for row in self._read(sql + " ORDER BY g.finished, g.id", tuple(params)):
                try:
                    record = check_row(row)
                except RowDamageError as exc:
                    damaged.append(Damaged(row[0], str(exc)))
                    continue
                if record.status in FINISHED:
                    rows.append(record)
        return _stats(name, spec, rows, damaged)

    # -- export and import -------------------------------------------------

    def export(self, fmt: ExportFormat = "json") -> str:
        """Every game as CSV (one row per game, the moves as text) or JSON
        (a list of objects, each with its saved game under ``game``).
        Damaged games are left out (see :meth:`export_games`)."""
        return self.export_games(fmt).text

    def export_games(self, fmt: ExportFormat = "json") -> Export:
        """:meth:`export`, and the games it left out because they are
        damaged (each saved game is replayed first, so that what is
        exported can be imported again).  The JSON lists them under
        ``damaged`` too."""
        if fmt not in ("csv", "json"):
            raise StoreError(_("unknown export format {format} (csv or json)").format(
                format=repr(fmt)
            ))
        rows = self._read(f"SELECT {_ROW}, {_LINKS}, g.saved{_FROM} ORDER BY g.id")
        good: list[tuple[GameRecord, dict[str, Any], dict[str, Any]]] = []
        damaged: list[Damaged] = []
        for row in rows:
            try:
                record = check_row(row[:14])
                good.append((record, load(row[-1], record)[1], export_links(record, row[14:-1])))
            except RowDamageError as exc:
                damaged.append(Damaged(row[0], str(exc)))
        # an export file is the same in every language: variant names in English
        # (the reasons of damaged games stay in the reader's language)
        with using("en"):
            if fmt == "json":
                doc: dict[str, Any] = {
                    "format": "lucie-games", "version": EXPORT_VERSION,
                    "games": [record.to_json() | links | {"game": data}
                              for record, data, links in good],
                }
                if damaged:
                    doc["damaged"] = [{"id": d.game_id, "reason": d.reason} for d in damaged]
                text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
            else:
                buf = io.StringIO()
                writer = csv.writer(buf, lineterminator="\n")
                writer.writerow([*COLUMNS, "variant_name", "move_list", *LINK_COLUMNS])
                for record, data, links in good:
                    moves = data.get("moves", [])
                    writer.writerow([*(getattr(record, c) for c in COLUMNS),
                                     record.variant_name, " ".join(str(m) for m in moves),
                                     *link_cells(links)])
                text = buf.getvalue()
        return Export(text, len(good), tuple(damaged))

    def import_games(self, text: str | bytes) -> Imported:
        """Add the games of a JSON :meth:`export` (new ids), each to the
        local player of its player's name; returns how many were added and
        how many were already in the store.

        A game already stored (same player, variant, deal, seed and start
        time) is left as it is, so importing a file twice adds nothing the
        second time and no recorded result is rewritten.  Every game is
        replayed and every field checked first (its score and number of
        moves against the game, a win against the engine); nothing is
        added if one fails."""
        data = parse_json(text, what=_("the games export"), error=StoreError)
        if not isinstance(data, dict) or data.get("format") != "lucie-games":
            raise StoreError(_("not a lucie games export (format {format} expected)").format(
                format="'lucie-games'"
            ))
        version = data.get("version")
        if isinstance(version, int) and not isinstance(version, bool) \
                and version > EXPORT_VERSION:
            raise StoreError(_("the export was written by a newer lucie (version {version}, "
                               "this lucie reads up to {known})").format(
                                   version=version, known=EXPORT_VERSION))
        games = data.get("games")
        if not isinstance(games, list):
            raise StoreError(_("the export has no list of games"))
        rows = []
        for i, item in enumerate(games, 1):
            try:
                rows.append(import_row(item) + import_marks(item))
            except (KeyError, TypeError, ValueError, LucieError, RowDamageError) as exc:
                why = excerpt(exc.args[0], 120) if isinstance(exc, KeyError) and exc.args \
                    else exc
                raise StoreError(_("game {number} of the export is damaged: {why}").format(
                    number=i, why=why
                )) from None
        added = 0
        same = self._backend.same
        with self._write() as tx:
            for row in rows:
                pid = self._player_id(row[0], tx)
                found = tx.execute(
                    f"SELECT 1 FROM games WHERE player_id = ? AND variant = ? AND deal {same} ? "
                    "AND seed = ? AND started = ? LIMIT 1", (pid, *row[1:5]),
                ).fetchone()
                if found is not None:
                    continue
                # an imported game is never fair (origin 'loaded'): it keeps
                # the help and undos it was exported with, and counts for no table
                tx.execute(
                    "INSERT INTO games (player_id, variant, deal, seed, started, updated, "
                    "finished, status, score, moves, seconds, saved, hints, undos, version, "
                    "origin) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,1,'loaded')", (pid, *row[1:]),
                )
                added += 1
        return Imported(added, len(rows) - added)


def _move_sets(game: Game, mark: Mark | None) -> tuple[str, tuple[object, ...]]:
    """The ``SET`` clause of a game's change (its move list, with the
    fair-play ``mark`` it makes), its seconds left to the caller."""
    return ("saved = ?, score = ?, moves = ?, updated = ?" + mark_sql(mark),
            (saved_text(game), game.score, len(game.moves), now()))


def _finish_sets(game: Game, status: str | None) -> tuple[str, tuple[object, ...]]:
    """The ``SET`` clause of a game's end (:meth:`Store.finish_game`), its
    seconds left to the caller."""
    if status is None:
        status = game.outcome.status
        if status == "playing":
            status = "resigned"
    if status not in FINISHED:
        raise StoreError(_("{status} is not a finished status ({known})").format(
            status=repr(status), known=", ".join(FINISHED)
        ))
    stamp = now()
    return ("saved = ?, score = ?, moves = ?, updated = ?, finished = ?, status = ?",
            (saved_text(game), game.score, len(game.moves), stamp, stamp, status))


def _stats(name: str, spec: str | None, rows: list[GameRecord],
           damaged: list[Damaged]) -> Stats:
    """The statistics of one player's finished games ``rows`` (in the order
    they finished)."""
    wins = best = run = 0
    series: list[Series] = []
    for start in range(0, len(rows), SERIES_SIZE):
        chunk = rows[start:start + SERIES_SIZE]
        series.append(Series(
            start // SERIES_SIZE + 1, len(chunk),
            sum(1 for r in chunk if r.status == "won"),
            sum(r.score for r in chunk) / len(chunk),
        ))
    for r in rows:
        if r.status == "won":
            wins += 1
            run += 1
            best = max(best, run)
        else:
            run = 0
    return Stats(
        player=name,
        variant=spec,
        games=len(rows),
        wins=wins,
        average_score=sum(r.score for r in rows) / len(rows) if rows else 0.0,
        best_score=max((r.score for r in rows), default=0),
        best_streak=best,
        current_streak=run,
        total_seconds=sum(r.seconds for r in rows),
        series=tuple(series),
        damaged=tuple(sorted(damaged)),
    )


def _no_game(game_id: int, where: str) -> str:
    return _("there is no game {id} in {path}").format(id=game_id, path=where)


def _damaged_game(game_id: int, where: str, why: object) -> str:
    return _("game {id} in {path} is damaged: {why}").format(id=game_id, path=where, why=why)


# ---------------------------------------------------------------------------
# Which game an interface opens
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class Opened:
    """A game ready to play: its store id, the game, the time already
    played, and whether it was resumed."""

    game_id: int
    game: Game
    seconds: float
    resumed: bool


def open_game(
    store: Store, player: PlayerRef, rules: Rules | None = None, deal: int | None = None,
) -> Opened:
    """Resume the player's unfinished game, or start (and claim) a new one.

    - no variant and no deal: the latest unfinished game of any variant;
    - a variant: the latest unfinished game of that variant;
    - a deal number: an unfinished game of that very deal in the variant
      given, classic when none is given (``--deal 7`` is classic deal 7,
      never a game of another variant).

    A game another running program plays (see :meth:`Store.claim`) is left
    alone, and so is a row whose saved game no longer loads.  A resumed
    game's moves are grouped into steps again (:meth:`Game.push_all`), so
    undo takes back a move and the cards autoplay sent home after it, as
    before the game was left.  Every interface opens its game here (the
    terminal game, line mode).
    """
    if deal is not None and rules is None:
        rules = Rules()
    found = _resumable(store, player, rules, deal)
    if found is not None:
        gid, game = found
        try:
            seconds = float(store.record(gid).seconds)
        except (TypeError, ValueError):
            seconds = 0.0
        return Opened(gid, game, seconds, True)
    game = Game(rules or Rules(), deal)
    gid = store.start_game(game, player)
    store.claim(gid)
    return Opened(gid, game, 0.0, False)


def _resumable(
    store: Store, player: PlayerRef, rules: Rules | None, deal: int | None,
) -> tuple[int, Game] | None:
    if deal is None:
        found = store.unfinished(player, rules)
        if found is not None and store.claim(found[0]):
            return found
        return None
    for record in store.history(player, rules):
        if record.status != "playing" or record.deal != deal:
            continue
        try:
            game = store.game(record.id)
        except StoreError:
            continue
        if game.rules == rules and store.claim(record.id):
            return record.id, game
    return None
