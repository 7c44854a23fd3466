"""The store: players, games, saved positions and statistics.

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
2
>>> resumed_id, resumed = store.unfinished("ann")
>>> resumed_id == gid, [str(m) for m in resumed.moves]
(True, ['f>i'])
>>> store.finish_game(gid, game, seconds=12.5)
3
>>> s = store.stats("ann", "classic")
>>> s.games, s.wins, s.average_score
(1, 0, 0.0)
>>> store.close()

Two backends behind one interface (:class:`Store`):

- **SQLite** (:mod:`lucie.store.sqlite`), the embedded default: one file,
  :func:`default_path` (``$LUCIE_DB`` if set, else ``lucie.sqlite3`` in the
  user data directory found with ``platformdirs``) or the path given;
- **PostgreSQL** (:mod:`lucie.store.postgres`, through psycopg 3, the
  ``postgres`` extra), chosen by a ``postgresql://`` URL, for a hosted
  store shared by processes and machines.

Both have one schema, built and upgraded by the same numbered migrations
(:mod:`lucie.store.schema`); docs/store.md tells the whole story.

API (small and stable; interfaces use only this):

- Players (:class:`Player`): every game, and so every statistic and daily
  result, is a player's.  The methods take the player (:data:`PlayerRef`):
  a :class:`Player`, or the login name of a local player (None: the
  person at this machine, :func:`default_player`), created the first time
  one of their games is recorded (:meth:`Store.local_player`).
  :meth:`Store.new_player`, :meth:`Store.rename_player`,
  :meth:`Store.delete_player` serve a site's players.
- :meth:`Store.start_game`, :meth:`Store.record_move`,
  :meth:`Store.finish_game` (and
  :meth:`Store.discard` for a deal left without a move): the life of a
  game.  Each recorded change adds one to the game's version
  (:meth:`Store.version`, :attr:`GameRecord.version`), so a cache never
  serves a stale game; a change given ``expect=`` is made only on that
  version (else :class:`StaleGame`).  A site's games (shared by its
  processes) change by :meth:`Store.record_shared`, and their clock is
  the store's (:meth:`Store.tick_clock`: the page's word, whatever
  process gets it).
- :meth:`Store.unfinished`: the game to resume; :meth:`Store.claim` and
  :meth:`Store.release` keep two programs from playing the same game.
- :meth:`Store.stats`, :meth:`Store.history`, :meth:`Store.record`,
  :meth:`Store.game`: read back (any game can be replayed).
- Fair play: :meth:`Store.mark`, :meth:`Store.marks` (:class:`Marks`,
  set by the session layer only); :meth:`Store.deal_games` and
  :func:`rank_daily`, the deal of the day's table; :meth:`Store.deal_odds`.
- :meth:`Store.export` (:meth:`Store.export_games` also tells which games
  it left out) / :meth:`Store.import_games`: CSV or JSON out, JSON back in.

What is found is never trusted: every row read is checked value by value
(type, range, UTF-8, known variant and status).  :meth:`Store.stats`,
:meth:`Store.history` and :meth:`Store.export_games` leave a damaged row
out and list it in their ``damaged`` (:class:`Damaged`: game id and
reason); :meth:`Store.record` and :meth:`Store.game` raise a
:class:`StoreError` naming the game; :meth:`Store.unfinished` skips it.
The other games stay usable.  A SQLite file is recognised before anything
is written to it (see :mod:`lucie.store.sqlite`).

The store may be used from several threads (a lock serialises its
connection), as web servers do.
"""

from __future__ import annotations

from lucie.store import duels, limits
from lucie.store.core import (
    POSTGRES_SCHEMES,
    Checked,
    ExportFormat,
    Opened,
    PlayerRef,
    Store,
    is_url,
    open_game,
)
from lucie.store.errors import (
    WAIT_UNTIL,
    StaleGame,
    StoreBusy,
    StoreDown,
    StoreError,
    StoreFault,
    StoreFull,
)
from lucie.store.records import (
    EXPORT_VERSION,
    FINISHED,
    SERIES_SIZE,
    STATUSES,
    Damaged,
    Export,
    GameRecord,
    History,
    Imported,
    Player,
    Saved,
    Series,
    Stats,
    StoredClock,
    Tick,
    default_player,
)
from lucie.store.results import MARKS, ORIGINS, Entry, Mark, Marks, Origin, rank_daily
from lucie.store.schema import SCHEMA_VERSION
from lucie.store.sqlite import (
    APPLICATION_ID,
    BUSY_TIMEOUT_MS,
    ENV_VAR,
    claims_path,
    default_path,
    write_error,
)

__all__ = [
    "APPLICATION_ID",
    "BUSY_TIMEOUT_MS",
    "ENV_VAR",
    "EXPORT_VERSION",
    "FINISHED",
    "MARKS",
    "ORIGINS",
    "POSTGRES_SCHEMES",
    "SCHEMA_VERSION",
    "SERIES_SIZE",
    "STATUSES",
    "WAIT_UNTIL",
    "Checked",
    "Damaged",
    "Entry",
    "Export",
    "ExportFormat",
    "GameRecord",
    "History",
    "Imported",
    "Mark",
    "Marks",
    "Opened",
    "Origin",
    "Player",
    "PlayerRef",
    "Saved",
    "Series",
    "StaleGame",
    "Stats",
    "Store",
    "StoreBusy",
    "StoreDown",
    "StoreError",
    "StoreFault",
    "StoreFull",
    "StoredClock",
    "Tick",
    "claims_path",
    "default_path",
    "default_player",
    "duels",
    "is_url",
    "limits",
    "open_game",
    "rank_daily",
    "write_error",
]
