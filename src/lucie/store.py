"""The store: games, saved positions and statistics in one SQLite file.

Every game a player starts is a row; its move list is saved after every
move (as lucie's saved-game JSON, :func:`lucie.formats.save_game`), so a
game interrupted in any way, even by ``kill -9``, resumes at the same
position with at most the last move lost.  Finished games give the
statistics per player and variant.

>>> import tempfile, pathlib
>>> from lucie.engine import Game
>>> from lucie.rules import Rules
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> store = Store(tmp / "games.sqlite3")
>>> game = Game(Rules(), deal=1)
>>> gid = store.start_game(game, "ann")
>>> _ = game.push("f>i"); store.record_move(gid, game, seconds=3.0)
>>> resumed_id, resumed = store.unfinished("ann")
>>> resumed_id == gid, [str(m) for m in resumed.moves]
(True, ['f>i'])
>>> store.finish_game(gid, game, seconds=12.5)
>>> s = store.stats("ann", "classic")
>>> s.games, s.wins, s.average_score
(1, 0, 0.0)
>>> store.close()

API (small and stable; interfaces use only this):

- :class:`Store` ``(path=None)``: opens (creating if needed) the file; the
  default is :func:`default_path` (``$LUCIE_DB`` if set, else
  ``lucie.sqlite3`` in the user data directory found with ``platformdirs``).
- :meth:`Store.start_game`, :meth:`Store.record_move`,
  :meth:`Store.finish_game` (and :meth:`Store.reopen` after an undo,
  :meth:`Store.discard` for a deal left without a move): the life of a game.
- :meth:`Store.unfinished`: the game to resume; :meth:`Store.claim` and
  :meth:`Store.release` keep two programs from playing the same game.
- :meth:`Store.stats`, :meth:`Store.history`, :meth:`Store.record`,
  :meth:`Store.game`: read back (any game can be replayed).
- :meth:`Store.export` / :meth:`Store.import_games`: CSV or JSON out, JSON
  back in.

Safety: write-ahead logging and a busy timeout, so several processes can
write the same file; each write is one short transaction.  The schema
version is ``PRAGMA user_version``.  A file that is not a database, fails
SQLite's ``quick_check``, or has a newer schema than this lucie knows is
copied to a backup next to it and reported as a :class:`StoreError`
(a :class:`~lucie.errors.LucieError`) naming both files; it is never
modified or overwritten.

The connection may be used from several threads (a lock serialises it),
as web servers do.
"""

from __future__ import annotations

import csv
import filecmp
import io
import json
import os
import secrets
import shutil
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from lucie._sqlite import backoff, is_busy, use_wal
from lucie.engine import Game
from lucie.errors import LucieError, SaveFileError
from lucie.formats import game_from_json, game_to_json
from lucie.rules import Rules

#: Schema version written in ``PRAGMA user_version``.
SCHEMA_VERSION: Final = 1
#: Environment variable that overrides the default database path.
ENV_VAR: Final = "LUCIE_DB"
#: Milliseconds a writer waits for another one before giving up.
BUSY_TIMEOUT_MS: Final = 10_000
#: Games per series in :attr:`Stats.series`.
SERIES_SIZE: Final = 100
#: Statuses of finished games (they count in the statistics).
FINISHED: Final = ("won", "lost", "resigned")

ExportFormat = Literal["csv", "json"]

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    player   TEXT    NOT NULL,
    variant  TEXT    NOT NULL,  -- Rules.spec()
    deal     INTEGER,           -- NULL for a game from a layout
    seed     INTEGER NOT NULL,
    started  TEXT    NOT NULL,  -- ISO 8601, UTC
    updated  TEXT    NOT NULL,
    finished TEXT,              -- NULL while the game is being played
    status   TEXT    NOT NULL,  -- playing, won, lost, resigned
    score    INTEGER NOT NULL,
    moves    INTEGER NOT NULL,
    seconds  REAL    NOT NULL DEFAULT 0,
    saved    TEXT    NOT NULL   -- lucie saved-game JSON
);
CREATE INDEX IF NOT EXISTS games_by_player ON games (player, variant, status, id);
"""

# Which open game is being played by which program, so that two programs
# started at once do not both resume (and overwrite) the same game.
_CLAIMS: Final = """
CREATE TABLE IF NOT EXISTS claims (
    game_id INTEGER PRIMARY KEY,
    owner   TEXT NOT NULL,  -- host:pid:token of the Store that plays it
    seen    REAL NOT NULL   -- time.time() of its last write
)
"""
#: Seconds after which a claim from another machine lapses.
CLAIM_TTL: Final = 3600.0

_COLUMNS: Final = (
    "id", "player", "variant", "deal", "seed", "started", "updated", "finished",
    "status", "score", "moves", "seconds",
)


class StoreError(LucieError):
    """The database cannot be used: damaged, from a newer lucie, unreadable."""


class _BusyError(Exception):
    """Another process holds the file just now; :meth:`Store._open` retries."""


def default_path() -> Path:
    """``$LUCIE_DB`` if set, else ``<user data dir>/lucie/lucie.sqlite3``."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    try:
        import platformdirs
    except ImportError:  # pragma: no cover - platformdirs comes with the UI extras
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        return base / "lucie" / "lucie.sqlite3"
    return Path(platformdirs.user_data_dir("lucie", appauthor=False)) / "lucie.sqlite3"


def default_player() -> str:
    """The player name when none is given: the login name, else ``player``."""
    for var in ("LUCIE_PLAYER", "USER", "LOGNAME", "USERNAME"):
        name = os.environ.get(var)
        if name:
            return name
    return "player"


def _now() -> str:
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

    @property
    def variant_name(self) -> str:
        """The variant's display name (its spec if it cannot be read)."""
        try:
            return Rules.parse(self.variant).name()
        except LucieError:
            return self.variant

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"variant_name": self.variant_name}


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
        }


def _spec(variant: str | Rules | None) -> str | None:
    """Normalise a variant given as rules or a spec to ``Rules.spec()``."""
    if variant is None:
        return None
    if isinstance(variant, Rules):
        return variant.spec()
    return Rules.parse(variant).spec()


class Store:
    """The SQLite store (see the module doc).  Use as a context manager or
    call :meth:`close`."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._lock = threading.RLock()
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._conn = self._open()

    # -- opening and checking -------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """Open, check and prepare the file.  A file that another process
        holds at that moment (see :mod:`lucie._sqlite`) is waited for, not
        taken for a damaged one."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        attempt = 0
        while True:
            try:
                return self._open_once()
            except _BusyError as busy:
                if time.monotonic() > deadline:
                    raise StoreError(f"{self.path}: the database stays locked ({busy})") from None
            backoff(attempt)
            attempt += 1

    def _open_once(self) -> sqlite3.Connection:
        path = self.path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"{path.parent}: cannot create the directory ({exc.strerror})"
            ) from None
        existed = path.exists() and path.stat().st_size > 0
        try:
            conn = sqlite3.connect(
                path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open the database ({exc})") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if existed:
                check = conn.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise sqlite3.DatabaseError(f"integrity check failed: {check}")
        except sqlite3.DatabaseError as exc:
            conn.close()
            if is_busy(exc):
                raise _BusyError(str(exc)) from None
            backup = self._backup()
            raise StoreError(
                f"{path} is damaged ({exc}); it was left untouched and a copy was "
                f"kept at {backup}. Move it away (or choose another file with --db) "
                "to start a new one."
            ) from None
        if version > SCHEMA_VERSION:
            conn.close()
            backup = self._backup()
            raise StoreError(
                f"{path} was written by a newer lucie (schema {version}, this lucie "
                f"knows up to {SCHEMA_VERSION}); it was left untouched and a copy was "
                f"kept at {backup}. Upgrade lucie, or choose another file with --db."
            )
        try:
            mode = use_wal(conn, BUSY_TIMEOUT_MS / 1000)
            if mode != "wal":  # pragma: no cover - e.g. some network filesystems
                conn.execute("PRAGMA journal_mode = DELETE")
            conn.execute("PRAGMA synchronous = NORMAL")
            if version < SCHEMA_VERSION:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    # re-read under the write lock: another process may have done it
                    version = conn.execute("PRAGMA user_version").fetchone()[0]
                    if version == 0:
                        for statement in _statements(_SCHEMA):
                            conn.execute(statement)
                        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            conn.execute(_CLAIMS)
        except sqlite3.Error as exc:
            conn.close()
            if is_busy(exc):
                raise _BusyError(str(exc)) from None
            raise StoreError(f"{path}: cannot prepare the database ({exc})") from None
        return conn

    def _backup(self) -> Path:
        """Copy the file (and its WAL) aside; return the copy's path.  An
        identical copy made earlier is reused (no pile of copies when lucie
        is started again and again on the same damaged file)."""
        for old in sorted(self.path.parent.glob(f"{self.path.name}.backup-*")):
            if str(old).endswith(("-wal", "-shm")):
                continue
            try:
                if filecmp.cmp(old, self.path, shallow=False):
                    return old
            except OSError:  # pragma: no cover - unreadable copy
                continue
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        backup = self.path.with_name(f"{self.path.name}.backup-{stamp}")
        n = 1
        while backup.exists():
            n += 1
            backup = self.path.with_name(f"{self.path.name}.backup-{stamp}-{n}")
        try:
            shutil.copy2(self.path, backup)
            for suffix in ("-wal", "-shm"):
                side = Path(str(self.path) + suffix)
                if side.exists():
                    shutil.copy2(side, Path(str(backup) + suffix))
        except OSError as exc:  # pragma: no cover - disk full, permissions
            raise StoreError(
                f"{self.path} cannot be used and could not be backed up ({exc.strerror}); "
                "it was left untouched"
            ) from None
        return backup

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot write ({exc})") from None
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            else:
                try:
                    conn.execute("COMMIT")
                except sqlite3.Error as exc:
                    conn.execute("ROLLBACK")
                    raise StoreError(f"{self.path}: cannot write ({exc})") from None

    def _read(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: cannot read ({exc})") from None

    # -- the life of a game ----------------------------------------------

    def start_game(self, game: Game, player: str | None = None) -> int:
        """Record a new game being played; returns its id."""
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO games (player, variant, deal, seed, started, updated, "
                "status, score, moves, seconds, saved) "
                "VALUES (?, ?, ?, ?, ?, ?, 'playing', ?, ?, 0, ?)",
                (player or default_player(), game.rules.spec(), game.deal, game.seed,
                 now, now, game.score, len(game.moves), _saved(game)),
            )
            assert cur.lastrowid is not None
            return cur.lastrowid

    def record_move(self, game_id: int, game: Game, seconds: float | None = None) -> None:
        """Save the game's current move list (call after every push, pop,
        redo, redeal or restart).  ``seconds``: time played so far."""
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE games SET saved = ?, score = ?, moves = ?, updated = ?, "
                "seconds = COALESCE(?, seconds) WHERE id = ?",
                (_saved(game), game.score, len(game.moves), _now(), seconds, game_id),
            )
            if cur.rowcount != 1:
                raise StoreError(f"there is no game {game_id} in {self.path}")
            conn.execute(
                "UPDATE claims SET seen = ? WHERE game_id = ? AND owner = ?",
                (time.time(), game_id, self.owner),
            )

    def finish_game(
        self, game_id: int, game: Game, seconds: float, status: str | None = None,
    ) -> None:
        """Record the end of a game.  The status is the game's outcome
        (``won``, ``lost``, ``resigned``); a game still being played counts
        as resigned (the player left it for another one)."""
        if status is None:
            status = game.outcome.status
            if status == "playing":
                status = "resigned"
        if status not in FINISHED:
            raise StoreError(f"{status!r} is not a finished status ({', '.join(FINISHED)})")
        now = _now()
        with self._write() as conn:
            cur = conn.execute(
                "UPDATE games SET saved = ?, score = ?, moves = ?, updated = ?, "
                "finished = ?, status = ?, seconds = ? WHERE id = ?",
                (_saved(game), game.score, len(game.moves), now, now, status, seconds,
                 game_id),
            )
            if cur.rowcount != 1:
                raise StoreError(f"there is no game {game_id} in {self.path}")

    def discard(self, game_id: int) -> bool:
        """Delete a game still being played in which no move was made (a
        deal the player looked at and left); True if it was deleted."""
        with self._write() as conn:
            cur = conn.execute(
                "DELETE FROM games WHERE id = ? AND status = 'playing' AND moves = 0",
                (game_id,),
            )
            return cur.rowcount == 1

    def reopen(self, game_id: int) -> None:
        """Mark a finished game as being played again (e.g. the player
        undid the last move of a lost game)."""
        with self._write() as conn:
            conn.execute(
                "UPDATE games SET status = 'playing', finished = NULL, updated = ? "
                "WHERE id = ?", (_now(), game_id),
            )

    # -- claims: one program per open game ------------------------------

    def claim(self, game_id: int) -> bool:
        """Mark a game as played by this store's program; False if another
        program that is still running plays it (then leave it alone).
        A claim lapses when its program has ended (same machine) or after
        :data:`CLAIM_TTL` seconds without a move (another machine)."""
        with self._write() as conn:
            row = conn.execute(
                "SELECT owner, seen FROM claims WHERE game_id = ?", (game_id,),
            ).fetchone()
            if row is not None and row[0] != self.owner and _alive(row[0], row[1]):
                return False
            conn.execute(
                "INSERT OR REPLACE INTO claims (game_id, owner, seen) VALUES (?, ?, ?)",
                (game_id, self.owner, time.time()),
            )
            return True

    def release(self, game_id: int) -> None:
        """Give up this program's claim on a game (when it stops playing it)."""
        with self._write() as conn:
            conn.execute(
                "DELETE FROM claims WHERE game_id = ? AND owner = ?", (game_id, self.owner),
            )

    def _claimed_elsewhere(self) -> set[int]:
        rows = self._read("SELECT game_id, owner, seen FROM claims")
        return {gid for gid, owner, seen in rows if owner != self.owner and _alive(owner, seen)}

    # -- reading back -----------------------------------------------------

    def unfinished(
        self, player: str | None = None, variant: str | Rules | None = None,
    ) -> tuple[int, Game] | None:
        """The player's most recent game still being played (of ``variant``
        if given), rebuilt at its last saved position; None if there is
        none.  A row whose saved game no longer loads is skipped (and kept),
        and so is a game another running program has :meth:`claim`-ed."""
        sql = "SELECT id, saved FROM games WHERE player = ? AND status = 'playing'"
        params: list[object] = [player or default_player()]
        spec = _spec(variant)
        if spec is not None:
            sql += " AND variant = ?"
            params.append(spec)
        taken = self._claimed_elsewhere()
        for gid, saved in self._read(sql + " ORDER BY updated DESC, id DESC", tuple(params)):
            if gid in taken:
                continue
            try:
                return gid, _load(saved)
            except SaveFileError:
                continue
        return None

    def record(self, game_id: int) -> GameRecord:
        """The history row of one game."""
        rows = self._read(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        return GameRecord(*rows[0])

    def game(self, game_id: int) -> Game:
        """Any stored game, replayed to its last saved position."""
        rows = self._read("SELECT saved FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"there is no game {game_id} in {self.path}")
        try:
            return _load(rows[0][0])
        except SaveFileError as exc:
            raise StoreError(f"game {game_id} in {self.path}: {exc}") from None

    def history(
        self,
        player: str | None = None,
        variant: str | Rules | None = None,
        limit: int | None = None,
        *,
        finished_only: bool = False,
    ) -> list[GameRecord]:
        """Games, newest first, optionally of one player and one variant."""
        sql = f"SELECT {', '.join(_COLUMNS)} FROM games"
        where: list[str] = []
        params: list[object] = []
        if player is not None:
            where.append("player = ?")
            params.append(player)
        spec = _spec(variant)
        if spec is not None:
            where.append("variant = ?")
            params.append(spec)
        if finished_only:
            where.append(f"status IN ({', '.join('?' * len(FINISHED))})")
            params.extend(FINISHED)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, limit))
        return [GameRecord(*row) for row in self._read(sql, tuple(params))]

    def players(self) -> list[str]:
        """Every player name in the store, sorted."""
        return [r[0] for r in self._read("SELECT DISTINCT player FROM games ORDER BY player")]

    def stats(self, player: str | None = None, variant: str | Rules | None = None) -> Stats:
        """Statistics of ``player`` (default: :func:`default_player`) in
        ``variant`` (a spec or rules; None: every variant together)."""
        name = player or default_player()
        spec = _spec(variant)
        sql = (
            "SELECT status, score, seconds FROM games WHERE player = ? "
            f"AND status IN ({', '.join('?' * len(FINISHED))})"
        )
        params: list[object] = [name, *FINISHED]
        if spec is not None:
            sql += " AND variant = ?"
            params.append(spec)
        rows = self._read(sql + " ORDER BY finished, id", tuple(params))
        wins = best = run = 0
        series: list[Series] = []
        for start in range(0, len(rows), SERIES_SIZE):
            chunk = rows[start:start + SERIES_SIZE]
            series.append(Series(
                start // SERIES_SIZE + 1, len(chunk),
                sum(1 for r in chunk if r[0] == "won"),
                sum(r[1] for r in chunk) / len(chunk),
            ))
        for status, _score, _secs in rows:
            if status == "won":
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
            average_score=sum(r[1] for r in rows) / len(rows) if rows else 0.0,
            best_score=max((r[1] for r in rows), default=0),
            best_streak=best,
            current_streak=run,
            total_seconds=sum(r[2] for r in rows),
            series=tuple(series),
        )

    # -- export and import -------------------------------------------------

    def export(self, fmt: ExportFormat = "json") -> str:
        """Every game as CSV (one row per game, the moves as text) or JSON
        (a list of objects, each with its saved game under ``game``)."""
        rows = self._read(f"SELECT {', '.join(_COLUMNS)}, saved FROM games ORDER BY id")
        if fmt == "json":
            out = []
            for row in rows:
                record = GameRecord(*row[:-1])
                out.append(record.to_json() | {"game": json.loads(row[-1])})
            return json.dumps(
                {"format": "lucie-games", "version": SCHEMA_VERSION, "games": out},
                indent=2, ensure_ascii=False,
            ) + "\n"
        if fmt == "csv":
            buf = io.StringIO()
            writer = csv.writer(buf, lineterminator="\n")
            writer.writerow([*_COLUMNS, "variant_name", "move_list"])
            for row in rows:
                record = GameRecord(*row[:-1])
                moves = json.loads(row[-1]).get("moves", [])
                writer.writerow([*row[:-1], record.variant_name, " ".join(moves)])
            return buf.getvalue()
        raise StoreError(f"unknown export format {fmt!r} (csv or json)")

    def import_games(self, text: str) -> int:
        """Add the games of a JSON :meth:`export` (new ids); returns how
        many.  Every game is replayed first; nothing is added if one fails."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StoreError(f"not a lucie games export: {exc.msg}") from None
        if not isinstance(data, dict) or data.get("format") != "lucie-games":
            raise StoreError("not a lucie games export (format 'lucie-games' expected)")
        games = data.get("games")
        if not isinstance(games, list):
            raise StoreError("the export has no list of games")
        rows = []
        for i, item in enumerate(games, 1):
            try:
                game = game_from_json(item["game"])
                rows.append((
                    str(item["player"]), game.rules.spec(), game.deal, game.seed,
                    str(item["started"]), str(item["updated"]), item.get("finished"),
                    str(item["status"]), game.score, len(game.moves),
                    float(item.get("seconds", 0.0)), _saved(game),
                ))
            except (KeyError, TypeError, ValueError, LucieError) as exc:
                raise StoreError(f"game {i} of the export is damaged: {exc}") from None
        with self._write() as conn:
            conn.executemany(
                "INSERT INTO games (player, variant, deal, seed, started, updated, finished,"
                " status, score, moves, seconds, saved) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                rows,
            )
        return len(rows)


def _alive(owner: str, seen: float) -> bool:
    """Whether the program named by a claim's ``owner`` may still run."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host == socket.gethostname() and pid_text.isdigit():
        pid = int(pid_text)
        if pid == os.getpid():
            return True  # another Store of this very program
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # pragma: no cover - someone else's process
            return True
        return True
    return time.time() - seen < CLAIM_TTL


def _statements(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _saved(game: Game) -> str:
    return json.dumps(game_to_json(game), separators=(",", ":"))


def _load(saved: str) -> Game:
    try:
        data = json.loads(saved)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"the saved game is not valid JSON: {exc.msg}") from None
    return game_from_json(data)


__all__ = [
    "ENV_VAR", "SCHEMA_VERSION", "GameRecord", "Series", "Stats", "Store", "StoreError",
    "default_path", "default_player",
]
