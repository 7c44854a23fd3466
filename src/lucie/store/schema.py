"""The store's schema: one list of numbered migrations for every backend.

A database of schema *n* is brought to :data:`SCHEMA_VERSION` by running
migrations *n+1*, *n+2*, ... in one transaction with the new version
number; a new, empty database runs every migration from the first, so a
new database and an upgraded one are built by the same statements.  Each
backend keeps the version where it belongs (SQLite: ``PRAGMA
user_version``; PostgreSQL: the table ``lucie_schema``).

The statements are written once, in the SQL both databases speak; the
few column types that differ are named in braces and filled in per
dialect (:data:`TYPES`): ``{id}`` (the key of a table), ``{int}`` (a
64-bit integer) and ``{real}`` (a double).  Where SQLite cannot do what a
migration does in plain SQL (making a new column NOT NULL), the other
dialect gets extra statements (:attr:`Migration.extra`); where the
dialects differ altogether (schema 8: SQLite rebuilds tables, PostgreSQL
moves sequences), each has its own; every row read is checked anyway
(:func:`lucie.store.records.check_row`).

Schemas:

1. ``games``: one row per game, its player's name in ``player``.
2. ``games.picked_rating``: the rating (:meth:`lucie.analysis.difficulty.Rated.to_json`,
   as JSON) a deal picked by difficulty was picked by, NULL for any
   other game.
3. ``players`` (id, name, login, created): each game belongs to a player
   (``games.player_id``; the player's name moves from ``games.player`` to
   ``players.name``, one player per name found, their login that name);
   ``games.version`` (1, then one more for each recorded change, so that
   a cache never serves a stale game); ``web_games`` (the browser game's
   tokens, created here for every backend).
4. The fair-play marks of each game, the odds of a deal, challenges (:mod:`lucie.store.results`):
   ``games.origin`` (``start``: played from the first move by this
   program, ``replay``: restarted, or a deal the player had played before,
   ``loaded``: imported from elsewhere), ``games.hints`` (how many times
   help was asked) and ``games.undos`` (how many moves were taken back);
   NULL in a game recorded before schema 4 (not known: such a game is never
   counted as fair).  ``deal_odds``: the odds of a deal, worked out once
   and kept (the deal of the day's table shows them).  ``challenges`` (a
   link's token and the game it challenges to) and ``challenge_games``
   (each player's game of a challenge, one per player).
5. ``duels`` (:mod:`lucie.store.duels`): two players on one deal at the
   same time; its settings (hints, undo, a time limit), each side's
   player, game and page token, and once it is over why and each side's
   game as it stood then (``host_end``, ``guest_end``: JSON).
6. ``rate_counts`` (:mod:`lucie.store.limits`): a site's rate limits,
   counted for every process on the database: the requests of a client
   (``who``, e.g. an address) under a limit (``kind``) in the window that
   started at ``since`` (seconds since the epoch); only the last two
   windows are kept.
7. ``duel_news`` (:mod:`lucie.store.duels`): a duel's news for the other
   processes on one SQLite file (PostgreSQL's processes tell each other
   by ``NOTIFY`` instead): the duel, the process that said it
   (``origin``), the message (JSON) and when (``made``, seconds since the
   epoch); a minute's worth is kept.
8. No id handed out twice on SQLite: ``players``, ``games``, ``duels``
   and ``duel_news`` are rebuilt with ``INTEGER PRIMARY KEY
   AUTOINCREMENT`` (rows, indexes and constraints kept), so the id of a
   deleted row, even the newest, is never given again (a deleted player's
   cookie and recovery code then name nobody).  PostgreSQL's identity
   columns never reuse an id; there each sequence is moved past the
   largest id stored (rows copied in with their ids), never back.
9. ``games.shown_at``: a site's clock (:meth:`lucie.store.Store.tick_clock`):
   when the page last said it showed the game (seconds since the epoch),
   NULL while it is hidden, not shown yet or over; ``games.seconds`` is
   then the time accrued up to that moment.
10. A duel's news in order: ``duels.news_seq`` (the number of the duel's
    last news: each piece of a duel's news has the next, given in the
    write that tells it), ``duel_news.seq`` (that number) and
    ``duel_news.number`` (the order of all the news, from the one row of
    ``news_counter``: it only grows, however much news is forgotten, so a
    process that remembers the last number it read never skips one);
    ``duels`` found by a side's game (``duels_by_host_game``,
    ``duels_by_guest_game``).
11. A duel's result outlives a deleted player: ``duels.host_id`` may be
    NULL (SQLite rebuilds ``duels``, rows, ids and indexes kept;
    PostgreSQL drops the constraint).  A side whose player was deleted
    names nobody (``host_id``, or ``guest_id`` of a started duel, NULL);
    the duel, its ends and so both reviews stay the other player's
    (:meth:`lucie.store.Store.delete_player`).

>>> [m.version for m in MIGRATIONS] == list(range(1, SCHEMA_VERSION + 1))
True
>>> statements(MIGRATIONS[1], "sqlite")
['ALTER TABLE games ADD COLUMN picked_rating TEXT']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

Dialect = Literal["sqlite", "postgresql"]

#: The column types that differ between the dialects.
TYPES: Final[dict[str, dict[str, str]]] = {
    # (schema 8 rebuilds SQLite's tables of ids with AUTOINCREMENT: see _NEVER_AGAIN)
    "sqlite": {"id": "INTEGER PRIMARY KEY", "int": "INTEGER", "real": "REAL"},
    "postgresql": {"id": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                   "int": "BIGINT", "real": "DOUBLE PRECISION"},
}


@dataclass(frozen=True, slots=True)
class Migration:
    """What makes schema ``version`` out of the one before it."""

    version: int
    what: str
    steps: tuple[str, ...]
    #: statements for one dialect only, run after :attr:`steps`
    extra: dict[str, tuple[str, ...]] = field(default_factory=dict)


_GAMES: Final = """
CREATE TABLE IF NOT EXISTS games (
    id       {id},
    player   TEXT    NOT NULL,
    variant  TEXT    NOT NULL,  -- Rules.spec()
    deal     {int},             -- NULL for a game from a layout
    seed     {int} NOT NULL,
    started  TEXT    NOT NULL,  -- ISO 8601, UTC
    updated  TEXT    NOT NULL,
    finished TEXT,              -- NULL while the game is being played
    status   TEXT    NOT NULL,  -- playing, won, lost, resigned
    score    {int} NOT NULL,
    moves    {int} NOT NULL,
    seconds  {real}    NOT NULL DEFAULT 0,
    saved    TEXT    NOT NULL   -- lucie saved-game JSON
)"""

#: The tables whose ids are never given twice (schema 8), each as schema 7
#: left it on SQLite (same columns in the same order, same constraints),
#: with its indexes.
_NEVER_AGAIN: Final = (
    ("players", "id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, login TEXT UNIQUE,"
     " created TEXT NOT NULL", ()),
    ("games", "id INTEGER PRIMARY KEY AUTOINCREMENT, variant TEXT NOT NULL, deal INTEGER,"
     " seed INTEGER NOT NULL, started TEXT NOT NULL, updated TEXT NOT NULL, finished TEXT,"
     " status TEXT NOT NULL, score INTEGER NOT NULL, moves INTEGER NOT NULL,"
     " seconds REAL NOT NULL DEFAULT 0, saved TEXT NOT NULL, picked_rating TEXT,"
     " player_id INTEGER REFERENCES players (id), version INTEGER NOT NULL DEFAULT 1,"
     " origin TEXT, hints INTEGER, undos INTEGER",
     ("CREATE INDEX games_by_player ON games (player_id, variant, status, id)",
      "CREATE INDEX games_by_deal ON games (variant, deal, id)")),
    ("duels", "id INTEGER PRIMARY KEY AUTOINCREMENT, token TEXT NOT NULL UNIQUE,"
     " variant TEXT NOT NULL, deal INTEGER NOT NULL, hints INTEGER NOT NULL,"
     " undo INTEGER NOT NULL, time_limit INTEGER, created TEXT NOT NULL, started TEXT,"
     " ended TEXT, end_reason TEXT, host_id INTEGER NOT NULL REFERENCES players (id),"
     " host_game INTEGER NOT NULL, host_page TEXT NOT NULL UNIQUE,"
     " guest_id INTEGER REFERENCES players (id), guest_game INTEGER, guest_page TEXT UNIQUE,"
     " host_end TEXT, guest_end TEXT", ()),
    ("duel_news", "id INTEGER PRIMARY KEY AUTOINCREMENT, duel INTEGER NOT NULL,"
     " origin TEXT NOT NULL, message TEXT NOT NULL, made REAL NOT NULL",
     ("CREATE INDEX duel_news_by_made ON duel_news (made)",)),
)

#: SQLite's ``duels`` from schema 11: as at schema 10, ``host_id`` nullable.
_DUELS_11: Final = (
    "id INTEGER PRIMARY KEY AUTOINCREMENT, token TEXT NOT NULL UNIQUE,"
    " variant TEXT NOT NULL, deal INTEGER NOT NULL, hints INTEGER NOT NULL,"
    " undo INTEGER NOT NULL, time_limit INTEGER, created TEXT NOT NULL, started TEXT,"
    " ended TEXT, end_reason TEXT, host_id INTEGER REFERENCES players (id),"
    " host_game INTEGER NOT NULL, host_page TEXT NOT NULL UNIQUE,"
    " guest_id INTEGER REFERENCES players (id), guest_game INTEGER, guest_page TEXT UNIQUE,"
    " host_end TEXT, guest_end TEXT, news_seq INTEGER NOT NULL DEFAULT 0")


def _rebuilt(table: str, columns: str, indexes: tuple[str, ...]) -> tuple[str, ...]:
    """SQLite's statements that rebuild ``table`` with ``columns``, keeping
    its rows (ids included) and making ``indexes`` again.  The new table is
    made under another name and renamed last, so that the other tables'
    references to ``table`` still name it (renaming the old one away first
    would rewrite them)."""
    names = ", ".join(c.split()[0] for c in columns.split(", ") if c.split()[0].islower())
    return (f"CREATE TABLE {table}_8 ({columns})",
            f"INSERT INTO {table}_8 ({names}) SELECT {names} FROM {table}",
            f"DROP TABLE {table}",
            f"ALTER TABLE {table}_8 RENAME TO {table}",
            *indexes)


def _kept_ids(steps: tuple[str, ...], table: str) -> tuple[str, ...]:
    """``steps`` (:func:`_rebuilt`) with the rebuilt table's id counter
    carried over before the old table goes (a deleted duel's id, even the
    newest, stays given)."""
    counter = (f"DELETE FROM sqlite_sequence WHERE name = '{table}_8'",
               f"INSERT INTO sqlite_sequence (name, seq) SELECT '{table}_8', seq"
               f" FROM sqlite_sequence WHERE name = '{table}'")
    return (*steps[:2], *counter, *steps[2:])


def _past_largest(table: str) -> str:
    """PostgreSQL's statement that moves ``table``'s id sequence past its
    largest id, never back (an id once given stays given)."""
    sequence = f"pg_get_serial_sequence('{table}', 'id')"
    return (f"SELECT setval({sequence}, GREATEST(COALESCE(MAX(id), 0),"
            f" COALESCE(pg_sequence_last_value({sequence}::regclass), 0)) + 1, false) FROM {table}")


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(1, "games", (
        _GAMES,
        "CREATE INDEX IF NOT EXISTS games_by_player ON games (player, variant, status, id)",
    )),
    Migration(2, "the rating a deal was picked by", (
        "ALTER TABLE games ADD COLUMN picked_rating TEXT",
    )),
    Migration(3, "players, a version per game, the browser's tokens", (
        "CREATE TABLE players ("
        " id {id}, name TEXT NOT NULL, login TEXT UNIQUE, created TEXT NOT NULL)",
        # one player per name, in the order the names first played
        "INSERT INTO players (name, login, created)"
        " SELECT player, player, MIN(started) FROM games GROUP BY player ORDER BY MIN(id)",
        "ALTER TABLE games ADD COLUMN player_id {int} REFERENCES players (id)",
        "UPDATE games SET player_id = (SELECT id FROM players WHERE login = games.player)",
        "ALTER TABLE games ADD COLUMN version {int} NOT NULL DEFAULT 1",
        "DROP INDEX games_by_player",
        "ALTER TABLE games DROP COLUMN player",
        "CREATE INDEX games_by_player ON games (player_id, variant, status, id)",
        "CREATE TABLE IF NOT EXISTS web_games (token TEXT PRIMARY KEY, game_id {int} NOT NULL)",
    ), {"postgresql": (
        "ALTER TABLE games ALTER COLUMN player_id SET NOT NULL",
        # games copied in with their ids (from a SQLite file): new ids after them
        "SELECT setval(pg_get_serial_sequence('games', 'id'), COALESCE(MAX(id), 0) + 1, false)"
        " FROM games",
    )}),
    Migration(4, "fair-play marks, the odds of a deal", (
        "ALTER TABLE games ADD COLUMN origin TEXT",
        "ALTER TABLE games ADD COLUMN hints {int}",
        "ALTER TABLE games ADD COLUMN undos {int}",
        "CREATE INDEX games_by_deal ON games (variant, deal, id)",
        "CREATE TABLE deal_odds (variant TEXT NOT NULL, deal {int} NOT NULL,"
        " odds TEXT NOT NULL, created TEXT NOT NULL, PRIMARY KEY (variant, deal))",
        "CREATE TABLE challenges (token TEXT PRIMARY KEY, game_id {int} NOT NULL,"
        " created TEXT NOT NULL)",
        "CREATE TABLE challenge_games (token TEXT NOT NULL, player_id {int} NOT NULL,"
        " game_id {int} NOT NULL, PRIMARY KEY (token, player_id))",
    )),
    Migration(5, "duels", (
        "CREATE TABLE duels ("
        " id {id}, token TEXT NOT NULL UNIQUE, variant TEXT NOT NULL, deal {int} NOT NULL,"
        " hints {int} NOT NULL, undo {int} NOT NULL, time_limit {int},"
        " created TEXT NOT NULL, started TEXT, ended TEXT, end_reason TEXT,"
        " host_id {int} NOT NULL REFERENCES players (id), host_game {int} NOT NULL,"
        " host_page TEXT NOT NULL UNIQUE,"
        " guest_id {int} REFERENCES players (id), guest_game {int}, guest_page TEXT UNIQUE,"
        " host_end TEXT, guest_end TEXT)",
    )),
    Migration(6, "rate counts", (
        "CREATE TABLE rate_counts (kind TEXT NOT NULL, who TEXT NOT NULL,"
        " since {int} NOT NULL, used {int} NOT NULL, PRIMARY KEY (kind, who, since))",
    )),
    Migration(7, "duel news between processes", (
        "CREATE TABLE duel_news (id {id}, duel {int} NOT NULL, origin TEXT NOT NULL,"
        " message TEXT NOT NULL, made {real} NOT NULL)",
        "CREATE INDEX duel_news_by_made ON duel_news (made)",
    )),
    Migration(8, "no id handed out twice", (), {
        "sqlite": tuple(s for t in _NEVER_AGAIN for s in _rebuilt(*t)),
        "postgresql": tuple(_past_largest(t[0]) for t in _NEVER_AGAIN),
    }),
    Migration(9, "a site's clock in the store", (
        "ALTER TABLE games ADD COLUMN shown_at {real}",
    )),
    Migration(10, "a duel's news in order", (
        "ALTER TABLE duels ADD COLUMN news_seq {int} NOT NULL DEFAULT 0",
        "ALTER TABLE duel_news ADD COLUMN seq {int} NOT NULL DEFAULT 0",
        "ALTER TABLE duel_news ADD COLUMN number {int} NOT NULL DEFAULT 0",
        "UPDATE duel_news SET number = id",
        "CREATE INDEX duel_news_by_number ON duel_news (number)",
        "CREATE TABLE news_counter (id {int} PRIMARY KEY, last {int} NOT NULL)",
        "INSERT INTO news_counter (id, last) SELECT 1, COALESCE(MAX(id), 0) FROM duel_news",
        "CREATE INDEX duels_by_host_game ON duels (host_game)",
        "CREATE INDEX duels_by_guest_game ON duels (guest_game)",
    )),
    Migration(11, "a duel's result outlives a deleted player", (), {
        "sqlite": _kept_ids(_rebuilt("duels", _DUELS_11, (
            "CREATE INDEX duels_by_host_game ON duels (host_game)",
            "CREATE INDEX duels_by_guest_game ON duels (guest_game)")), "duels"),
        "postgresql": ("ALTER TABLE duels ALTER COLUMN host_id DROP NOT NULL",),
    }),
)
#: The schema this lucie writes; a database of a higher one is refused.
SCHEMA_VERSION: Final = MIGRATIONS[-1].version


def statements(migration: Migration, dialect: Dialect) -> list[str]:
    """The statements of ``migration`` in ``dialect``."""
    types = TYPES[dialect]
    return [step.format(**types).strip()
            for step in (*migration.steps, *migration.extra.get(dialect, ()))]


def upgrade(dialect: Dialect, start: int, end: int = SCHEMA_VERSION) -> list[str]:
    """Every statement that brings schema ``start`` (0: an empty database)
    to schema ``end``."""
    return [s for m in MIGRATIONS if start < m.version <= end for s in statements(m, dialect)]


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "TYPES", "Dialect", "Migration", "statements",
           "upgrade"]
