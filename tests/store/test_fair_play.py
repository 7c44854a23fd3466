"""Fair-play marks and the deal of the day's table (issue 41), on both
backends: the session layer sets the marks; the table ranks each player's
first game of the deal, fair games only; a schema-3 database keeps every
game (its marks: not known)."""

from __future__ import annotations

import datetime
import sqlite3
from collections.abc import Callable
from pathlib import Path

from lucie.daily import daily_deal, today
from lucie.engine import Game
from lucie.formats import game_to_json
from lucie.rules import Rules
from lucie.session import Session
from lucie.store import SCHEMA_VERSION, Marks, Store, rank_daily
from lucie.store.schema import upgrade

Where = Path | str


def _step(session: Session, n: int = 1) -> None:
    for _ in range(n):
        move = next(m for m in session.game.legal_moves if not m.is_redeal)
        session.play(move)


def test_a_game_played_from_the_start_is_fair(store: Store) -> None:
    session = Session.new(store, "ann", Rules(), 5)
    _step(session, 2)
    assert session.marks() == Marks("start", 0, 0) and session.marks().fair  # type: ignore[union-attr]
    session.undo()
    session.undo()
    _step(session)
    assert store.marks(session.game_id or 0) == Marks("start", 0, 2)  # undo allowed, counted
    session.resign()
    assert store.marks(session.game_id or 0).fair


def test_hints_restart_and_a_second_game_of_a_deal_are_marked(store: Store) -> None:
    session = Session.new(store, "ann", Rules(), 7)
    _step(session)
    session.hint_asked()
    session.hint_asked()
    first = session.game_id or 0
    assert store.marks(first) == Marks("start", 2, 0)
    assert store.marks(first).reasons == ("hints",)
    session.restart()
    assert store.marks(first).origin == "replay"
    session.resign()
    session.hint_asked()  # practice after the result: nothing more is marked
    assert store.marks(first).hints == 2
    session.again()  # the same deal again: a replay from its first move
    assert session.game_id != first and store.marks(session.game_id or 0).origin == "replay"
    other = Session.new(store, "ann", Rules(), 7)  # ann knows deal 7
    bob = Session.new(store, "bob", Rules(), 7)  # bob does not
    assert store.marks(other.game_id or 0).reasons == ("replay",)
    assert store.marks(bob.game_id or 0).fair


def test_a_loaded_game_is_never_fair(store: Store) -> None:
    game = Game(Rules(), 9)
    game.push(next(m for m in game.legal_moves if not m.is_redeal))
    session = Session.new(store, "ann", game=game)
    assert store.marks(session.game_id or 0).reasons == ("loaded",)
    session.restart()  # a loaded game stays loaded
    assert store.marks(session.game_id or 0).origin == "loaded"


def _finish(store: Store, player: str, deal: int, status: str, score_moves: int,
            seconds: float, *, hint: bool = False) -> int:
    session = Session.new(store, player, Rules(), deal)
    _step(session, score_moves)
    if hint:
        session.hint_asked()
    assert session.game_id is not None
    session.close()
    store.finish_game(session.game_id, session.game, seconds, status)
    return session.game_id


def test_the_daily_table_ranks_each_players_first_fair_game(store: Store) -> None:
    day = today()
    deal = daily_deal(Rules(), day)
    ann = _finish(store, "ann", deal, "resigned", 3, 50.0)
    bob = _finish(store, "bob", deal, "resigned", 3, 40.0)  # as ann, less time: before her
    cid = _finish(store, "cid", deal, "won", 1, 90.0)  # won: first whatever else
    dan = _finish(store, "dan", deal, "resigned", 3, 40.0)  # the same as bob: same rank
    eve = _finish(store, "eve", deal, "won", 1, 10.0, hint=True)  # a hint: not ranked
    _finish(store, "ann", deal, "won", 1, 5.0)  # ann's second game: a replay, no entry
    Session.new(store, "fay", Rules(), deal)  # still in play: no result yet
    _finish(store, "gus", deal + 1 if deal < 999_999_999 else 1, "won", 1, 1.0)  # other deal
    table = rank_daily(store.deal_games(Rules(), deal), Rules(), day)
    assert [(e.record.id, e.rank) for e in table] == [
        (cid, 1), (bob, 2), (dan, 2), (ann, 4), (eve, None)]
    assert table[-1].marks.reasons == ("hints",)
    assert rank_daily(store.deal_games(Rules(), deal), Rules(),
                      day - datetime.timedelta(days=1)) == []  # started on another day
    assert store.deal_games("trefoil", deal) == []


def test_deal_odds_are_kept_once(store: Store) -> None:
    assert store.deal_odds(Rules(), 3) is None
    store.keep_deal_odds(Rules(), 3, '{"win_rate": 0.5}')
    store.keep_deal_odds(Rules(), 3, '{"win_rate": 0.9}')  # the first stays
    assert store.deal_odds(Rules(), 3) == '{"win_rate": 0.5}'
    assert store.deal_odds("trefoil", 3) is None


def _schema_3(where: Where, backend: str, deal: int) -> None:
    """A database as the lucie of schema 3 left it: two players' games."""
    game = Game(Rules(), deal)
    import json

    saved = json.dumps(game_to_json(game))
    stamp = f"{today().isoformat()}T10:00:00+00:00"
    rows = [(1, "ann", "ann", stamp), (2, "bob", "bob", stamp)]
    games = [(i, i, Rules().spec(), deal, game.seed, stamp, stamp, stamp, "resigned",
              0, 0, 3.0, saved) for i in (1, 2)]
    insert = ("INSERT INTO games (id, player_id, variant, deal, seed, started, updated, "
              "finished, status, score, moves, seconds, saved) VALUES "
              "(?,?,?,?,?,?,?,?,?,?,?,?,?)")
    if backend == "sqlite":
        conn = sqlite3.connect(where)
        conn.execute("PRAGMA application_id = 1282761577")
        conn.execute("PRAGMA user_version = 3")
        for statement in upgrade("sqlite", 0, 3):
            conn.execute(statement)
        conn.executemany("INSERT INTO players (id, name, login, created) VALUES (?,?,?,?)", rows)
        conn.executemany(insert, games)
        conn.commit()
        conn.close()
        return
    import psycopg

    with psycopg.connect(str(where), autocommit=True) as pg:
        pg.execute("CREATE TABLE lucie_schema (version INTEGER NOT NULL)")
        pg.execute("INSERT INTO lucie_schema VALUES (3)")
        for statement in upgrade("postgresql", 0, 3):
            pg.execute(statement)
        pg.cursor().executemany(
            "INSERT INTO players (id, name, login, created) VALUES (%s,%s,%s,%s)", rows)
        pg.cursor().executemany(insert.replace("?", "%s"), games)
        for table in ("players", "games"):  # (as ids given by the database would leave them)
            pg.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), 2)")


def test_a_schema_3_database_keeps_every_game(fresh: Callable[[], Where], backend: str) -> None:
    where = fresh()
    deal = daily_deal(Rules(), today())
    _schema_3(where, backend, deal)
    with Store(where) as store:
        assert SCHEMA_VERSION >= 4
        assert [r.id for r in store.history()] == [2, 1]
        assert store.marks(1) == Marks(None, None, None)  # not known
        table = rank_daily(store.deal_games(Rules(), deal), Rules(), today())
        assert [(e.record.player, e.rank, e.marks.reasons) for e in table] == [
            ("ann", None, ("unknown",)), ("bob", None, ("unknown",))]
        session = Session.new(store, "cid", Rules(), deal)
        assert session.game_id not in (1, 2) and store.marks(session.game_id or 0).fair


def test_challenges_keep_one_game_per_player_and_go_with_the_challenger(store: Store) -> None:
    from lucie.standings import challenge_game, challenge_view

    ann = Session.new(store, "ann", Rules(), 11)
    _step(ann)
    ann.resign()
    assert ann.game_id is not None
    store.new_challenge("token-of-ann-1", ann.game_id)
    assert store.challenge("no-such-token") is None
    game = challenge_game(store, "token-of-ann-1")
    assert game is not None and game.deal == 11 and not game.moves
    bob = Session.new(store, "bob", game=game)
    assert bob.game_id is not None
    assert store.join_challenge("token-of-ann-1", "bob", bob.game_id) == bob.game_id
    assert store.join_challenge("token-of-ann-1", "bob", bob.game_id + 99) == bob.game_id
    assert store.challenge("token-of-ann-1") == (
        ann.game_id, {store.player_id("bob"): bob.game_id})
    view = challenge_view(store, "token-of-ann-1", "bob")
    assert view is not None and [e["player"] for e in view["entries"]] == ["ann", "bob"]
    assert not view["can_play"] and not view["reviews_open"]  # bob's game is on
    store.delete_player("bob")
    assert store.challenge("token-of-ann-1") == (ann.game_id, {})
    store.delete_player("ann")
    assert store.challenge("token-of-ann-1") is None


def test_a_challenge_to_a_game_from_a_layout_deals_that_layout(store: Store) -> None:
    from lucie.standings import challenge_game

    start = Game(Rules(), 3)
    layout = Game(Rules(), position=start.start, seed=start.seed)
    assert layout.deal is None
    ann = Session.new(store, "ann", game=layout)
    _step(ann)
    ann.resign()
    store.new_challenge("token-of-a-layout", ann.game_id or 0)
    game = challenge_game(store, "token-of-a-layout")
    assert game is not None and game.deal is None and game.start == layout.start
