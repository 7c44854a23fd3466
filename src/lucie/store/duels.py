"""Duels: two players on the same deal at the same time (schema 5).

A duel is opened by its *host* with its deal and settings (hints allowed
or not, undo allowed or not, a time limit or none) and the host's game
(a game of the store like any other, with the page token that names it);
a *guest* joins it once, with a game of their own on the same deal, and
the duel starts then (:func:`join_duel`: only one guest ever gets in,
whichever process or machine answers them).  It ends once, for one
reason (:data:`END_REASONS`), with each side's game as it stood then
(:func:`end_duel`, :func:`side_end`); an ended duel is never changed
again, so its result is never rewritten.  A player who deletes their
data leaves their duels to the other player (schema 11): their side names
nobody (:meth:`Duel.gone`), the duel, its ends and both reviews stay.

The functions take the :class:`~lucie.store.Store` and run one short
statement or transaction each, on either backend.

>>> import tempfile, pathlib
>>> from lucie.engine import Game
>>> from lucie.rules import Rules
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "duels.sqlite3")
>>> ann, bob = store.new_player("Ann"), store.new_player("Bob")
>>> g1 = store.start_game(Game(Rules(), deal=5), ann)
>>> duel = open_duel(store, DuelSettings("classic", 5), token="d1", host=ann.id,
...                  game=g1, page="p1")
>>> duel.started is None, duel.side_of(ann.id), duel.side_of(bob.id)
(True, 'host', None)
>>> g2 = store.start_game(Game(Rules(), deal=5), bob)
>>> join_duel(store, "d1", guest=bob.id, game=g2, page="p2")
True
>>> join_duel(store, "d1", guest=ann.id, game=g1, page="p3")  # full
False
>>> found = duel_by_page(store, "p2")
>>> found is not None and found.side_of(bob.id)
'guest'
>>> store.close()
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final, Literal

from lucie.cards import DECK, SUITS
from lucie.engine import Game
from lucie.store.core import Store
from lucie.store.records import now, saved_text

Side = Literal["host", "guest"]
#: Why a duel ended: both games over, a player resigned, the time ran out.
END_REASONS: Final = ("finished", "resigned", "time")

_COLUMNS: Final = (
    "id, token, variant, deal, hints, undo, time_limit, created, started, ended, end_reason, "
    "host_id, host_game, host_page, guest_id, guest_game, guest_page, host_end, guest_end, "
    "news_seq")
#: The longest payload PostgreSQL's ``NOTIFY`` takes (bytes, less a margin).
MAX_PAYLOAD: Final = 7900


@dataclass(frozen=True, slots=True)
class DuelSettings:
    """What a duel is played on and by: the variant (spec), the deal, hints
    and undo allowed or not, the time limit (seconds; None: none)."""

    variant: str
    deal: int
    hints: bool = True
    undo: bool = True
    time_limit: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"variant": self.variant, "deal": self.deal, "hints": self.hints,
                "undo": self.undo, "time_limit": self.time_limit}


@dataclass(frozen=True, slots=True)
class Duel:
    """One duel as stored (see the module doc)."""

    id: int
    token: str
    settings: DuelSettings
    created: str
    started: str | None
    ended: str | None
    end_reason: str | None
    #: None: the host deleted their data (:meth:`gone`)
    host_id: int | None
    host_game: int
    host_page: str
    guest_id: int | None
    guest_game: int | None
    guest_page: str | None
    host_end: dict[str, Any] | None
    guest_end: dict[str, Any] | None
    #: the number of the duel's last news (0: none yet; see :func:`post_news`)
    news_seq: int = 0

    def side_of(self, player_id: int) -> Side | None:
        """The side of player ``player_id`` in this duel, None if not in it."""
        if player_id == self.host_id:
            return "host"
        if self.guest_id is not None and player_id == self.guest_id:
            return "guest"
        return None

    def gone(self, side: Side) -> bool:
        """Whether ``side``'s player deleted their data (their side names
        nobody: a deleted player, whose result stays the other's)."""
        if side == "host":
            return self.host_id is None
        return self.guest_id is None and self.started is not None

    def player_of(self, side: Side) -> int | None:
        return self.host_id if side == "host" else self.guest_id

    def side_of_page(self, page: str) -> Side | None:
        """The side whose page token is ``page``."""
        return "host" if page == self.host_page else "guest" if page == self.guest_page else None

    def game_of(self, side: Side) -> int | None:
        return self.host_game if side == "host" else self.guest_game

    def page_of(self, side: Side) -> str | None:
        return self.host_page if side == "host" else self.guest_page

    def elapsed(self, at: str | None = None) -> float | None:
        """Seconds from the start to ``at`` (ISO 8601; default now), None
        before the start."""
        if self.started is None:
            return None
        end = datetime.fromisoformat(at or now())
        return max(0.0, (end - datetime.fromisoformat(self.started)).total_seconds())


def _end_json(value: object) -> dict[str, Any] | None:
    if not isinstance(value, str):
        return None
    try:
        data = json.loads(value)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _duel(row: tuple[Any, ...]) -> Duel:
    (did, token, variant, deal, hints, undo, limit, created, started, ended, reason,
     host_id, host_game, host_page, guest_id, guest_game, guest_page, host_end, guest_end,
     news_seq) = row
    settings = DuelSettings(str(variant), int(deal), bool(hints), bool(undo),
                            None if limit is None else int(limit))
    return Duel(int(did), str(token), settings, str(created), started, ended, reason,
                None if host_id is None else int(host_id), int(host_game), str(host_page),
                None if guest_id is None else int(guest_id),
                None if guest_game is None else int(guest_game), guest_page,
                _end_json(host_end), _end_json(guest_end), int(news_seq or 0))


def _one(store: Store, where: str, params: tuple[object, ...]) -> Duel | None:
    rows = store._read(f"SELECT {_COLUMNS} FROM duels WHERE {where}", params)
    return _duel(rows[0]) if rows else None


def open_duel(store: Store, settings: DuelSettings, *, token: str, host: int, game: int,
              page: str) -> Duel:
    """A new duel of the player ``host`` (their stored ``game``, named
    ``page`` by their page), known by ``token`` (its link)."""
    with store._write() as tx:
        tx.execute(
            "INSERT INTO duels (token, variant, deal, hints, undo, time_limit, created, "
            "host_id, host_game, host_page) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (token, settings.variant, settings.deal, int(settings.hints), int(settings.undo),
             settings.time_limit, now(), host, game, page))
    found = duel_by_token(store, token)
    assert found is not None, "the duel made above"
    return found


def join_duel(store: Store, token: str, *, guest: int, game: int, page: str) -> bool:
    """The player ``guest`` joins the duel ``token`` with their ``game``:
    True if they got in (the duel had no guest yet), and it starts now."""
    with store._write() as tx:
        joined = tx.execute(
            "UPDATE duels SET guest_id = ?, guest_game = ?, guest_page = ?, started = ? "
            "WHERE token = ? AND guest_id IS NULL AND started IS NULL AND host_id <> ?",
            (guest, game, page, now(), token, guest)).rowcount
    return bool(joined)


def duel_by_token(store: Store, token: str) -> Duel | None:
    """The duel whose link is ``token``, None if there is none."""
    return _one(store, "token = ?", (token,))


def duel_by_page(store: Store, page: str) -> Duel | None:
    """The duel one of whose games the page token ``page`` names."""
    return _one(store, "host_page = ? OR guest_page = ?", (page, page))


def running_duels_of(store: Store, player_id: int) -> list[Duel]:
    """The duels player ``player_id`` plays now (started, not over)."""
    rows = store._read(f"SELECT {_COLUMNS} FROM duels WHERE (host_id = ? OR guest_id = ?)"
                       " AND started IS NOT NULL AND ended IS NULL ORDER BY id",
                       (player_id, player_id))
    return [_duel(row) for row in rows]


def duel_by_game(store: Store, game_id: int) -> Duel | None:
    """The duel one of whose games is the stored game ``game_id``."""
    return _one(store, "host_game = ? OR guest_game = ?", (game_id, game_id))


def running_on_deal(store: Store, player_id: int, variant: str, deal: int) -> list[Duel]:
    """The duels not over of player ``player_id`` (host or guest) on
    ``variant``'s deal ``deal``: their rules hold for every game of that
    deal the player has (a second game, a loaded copy), not only the
    duel's own."""
    rows = store._read(f"SELECT {_COLUMNS} FROM duels WHERE ended IS NULL AND variant = ?"
                       " AND deal = ? AND (host_id = ? OR guest_id = ?) ORDER BY id",
                       (variant, deal, player_id, player_id))
    return [_duel(row) for row in rows]


def end_duel(store: Store, duel_id: int, reason: str, ends: dict[Side, dict[str, Any]]) -> bool:
    """End the duel (once: False if it had ended already), for ``reason``,
    with each side's game as it stands (``ends``, :func:`side_end`)."""
    assert reason in END_REASONS
    with store._write() as tx:
        done = tx.execute(
            "UPDATE duels SET ended = ?, end_reason = ?, host_end = ?, guest_end = ? "
            "WHERE id = ? AND ended IS NULL",
            (now(), reason, json.dumps(ends["host"]), json.dumps(ends["guest"]),
             duel_id)).rowcount
    return bool(done)


def progress(game: Game) -> dict[str, Any]:
    """How far ``game`` is: cards home (of all), moves, score, redeals
    used (of all), status, and the table as it is seen (:func:`table_of`)."""
    position, outcome = game.position, game.outcome
    home = sum(position.foundations)
    left = sum(len(fan) for fan in position.fans) + sum(c is not None for c in position.cells)
    rules = game.rules
    return {"cards_home": home, "cards": home + left, "moves": len(game.moves),
            "score": outcome.score, "redeals_used": rules.redeals - position.redeals_left,
            "redeals": rules.redeals, "status": outcome.status, "table": table_of(game)}


def table_of(game: Game) -> dict[str, Any]:
    """The table of ``game`` as it is seen, for the other side's page to draw
    it small (nothing in it is a rule): each fan's cards from the bottom
    card to the top one, the free cells' cards (None: empty) and the cards
    home of each suit, in the notation of :func:`lucie.formats.position_json`.

    >>> from lucie.rules import Rules
    >>> t = table_of(Game(Rules(), 1))
    >>> len(t["fans"]), sum(map(len, t["fans"])), t["cells"], t["foundations"]
    (18, 52, [], {'C': 0, 'D': 0, 'H': 0, 'S': 0})
    """
    p = game.position
    return {"fans": [[str(DECK[c]) for c in fan] for fan in p.fans],
            "cells": [None if c is None else str(DECK[c]) for c in p.cells],
            "foundations": {SUITS[i]: n for i, n in enumerate(p.foundations)}}


def side_status(store: Store, duel: Duel, side: Side) -> str:
    """The status of ``side``'s game as stored now (``absent``: no guest
    yet, or a game gone with its player)."""
    game_id = duel.game_of(side)
    rows = store._read("SELECT status FROM games WHERE id = ?", (game_id,)) \
        if game_id is not None else []
    return str(rows[0][0]) if rows else "absent"


def side_end(store: Store, duel: Duel, side: Side, at: str | None = None) -> dict[str, Any]:
    """One side's game as stored now: its :func:`progress`, its time in the
    duel (to its end, else to ``at``: the duel's end) and the saved game
    (for its review)."""
    game_id = duel.game_of(side)
    if game_id is None or not store._read("SELECT 1 FROM games WHERE id = ?", (game_id,)):
        return {"status": "absent"}  # no guest, or a game gone with its player
    record = store.record(game_id)
    game = store.game(game_id)
    data = progress(game)
    data["status"] = record.status
    data["seconds"] = duel.elapsed(record.finished or at)
    data["saved"] = saved_text(game)
    return data


# -- a duel's news (schema 7 and 8) ---------------------------------------------
#
# Each piece of a duel's news has a number of its own, the next of that duel
# (``duels.news_seq``), given in the write that tells it: two processes never
# give the same, and a page that sees one missing (a gap) reads the duel again.
# PostgreSQL's processes tell each other a duel's news by ``NOTIFY``, sent by
# that same write (lucie.site.duel_hub.PostgresHub: a notification goes out at
# the commit, so in the order of the numbers); SQLite has no such thing, so
# the news is written as a row that every process reads when the file changes
# (lucie.site.duel_hub.SqliteHub), in the order of ``duel_news.number``, a
# count of the store's own (``news_counter``) that only grows.


def post_news(store: Store, duel_id: int, origin: str, message: dict[str, Any], made: float,
              *, channel: str | None = None, keep: bool = True) -> dict[str, Any] | None:
    """Tell duel ``duel_id``'s news ``message`` said by process ``origin``
    at ``made`` (seconds since the epoch), in one write: the message with
    its number (``seq``), None if there is no such duel.  ``channel``: the
    PostgreSQL channel to ``NOTIFY`` it on (its payload: the duel, the
    origin and the message; a message too long for it goes as ``resync``
    with its number); ``keep``: write it as a row of ``duel_news`` for the
    other processes on a SQLite file."""
    with store._write() as tx:
        row = tx.execute("UPDATE duels SET news_seq = news_seq + 1 WHERE id = ?"
                         " RETURNING news_seq", (duel_id,)).fetchone()
        if row is None:
            return None
        told = {**message, "seq": int(row[0])}
        text = json.dumps(told)
        if channel is not None:
            payload = json.dumps({"duel": duel_id, "from": origin, "message": told})
            if len(payload.encode("utf-8")) > MAX_PAYLOAD:
                payload = json.dumps({"duel": duel_id, "from": origin,
                                      "message": {"type": "resync", "seq": told["seq"]}})
            tx.execute("SELECT pg_notify(?, ?)", (channel, payload))
        if keep:
            number = tx.execute("UPDATE news_counter SET last = last + 1 WHERE id = 1"
                                " RETURNING last").fetchone()
            tx.execute("INSERT INTO duel_news (duel, origin, message, made, seq, number)"
                       " VALUES (?, ?, ?, ?, ?, ?)",
                       (duel_id, origin, text, made, told["seq"], int(number[0])))
    return told


def news_after(store: Store, last: int, most: int = 1000) -> list[tuple[int, int, str, str]]:
    """The news numbered after ``last`` (``duel_news.number``), oldest
    first, ``most`` of them: ``(number, duel, origin, message)``.  (Every
    one waiting: :func:`all_news_after`.)"""
    rows = store._read("SELECT number, duel, origin, message FROM duel_news WHERE number > ?"
                       " ORDER BY number LIMIT ?", (last, most))
    return [(int(i), int(d), str(o), str(m)) for i, d, o, m in rows]


def all_news_after(store: Store, last: int,
                   page: int = 1000) -> Iterator[tuple[int, int, str, str]]:
    """Every news numbered after ``last``, oldest first, read ``page`` at a
    time until none is left."""
    while True:
        found = news_after(store, last, page)
        yield from found
        if len(found) < page:
            return
        last = found[-1][0]


def last_news(store: Store) -> int:
    """The number of the latest news (0 if none): the count only grows,
    whatever was forgotten."""
    rows = store._read("SELECT last FROM news_counter WHERE id = 1")
    return int(rows[0][0] or 0) if rows else 0


def forget_news(store: Store, before: float) -> int:
    """Delete the news made before ``before``; how many went (the numbers
    go on from the last one given)."""
    with store._write() as tx:
        return int(tx.execute("DELETE FROM duel_news WHERE made < ?", (before,)).rowcount)


__all__ = ["END_REASONS", "MAX_PAYLOAD", "Duel", "DuelSettings", "Side", "all_news_after",
           "duel_by_game", "duel_by_page", "duel_by_token", "end_duel", "forget_news",
           "join_duel", "last_news", "news_after", "open_duel", "post_news", "progress",
           "running_duels_of", "running_on_deal", "side_end", "side_status", "table_of"]
