"""A site's tidying, on both backends: the anonymous players nothing of
whose would be missed and the deals never played go; a finished game, a
named player, a local player are never touched; a recovered device's games
in play go to the player it goes on as."""

from __future__ import annotations

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import Store
from lucie.store.records import Player

#: A time after every row the test makes: everything in it is "old".
LATER = "9999-01-01T00:00:00+00:00"


def _played(store: Store, player: Player | str, deal: int = 1, *,
            finish: bool = False) -> int:
    """A game of ``player`` with one move (resigned if ``finish``)."""
    game = Game(Rules(), deal)
    gid = store.start_game(game, player)
    game.play(next(m for m in game.position.legal_moves() if not m.is_redeal))
    store.record_move(gid, game, 3.0)
    if finish:
        game.resign()
        store.finish_game(gid, game, 4.0, "resigned")
    return gid


def _unplayed(store: Store, player: Player | str, token: str | None = None) -> int:
    gid = store.start_game(Game(Rules(), 2), player)
    if token is not None:
        store.link_token(token, gid)
    return gid


def _exists(store: Store, gid: int) -> bool:
    return store.version(gid) is not None


def test_purge_forgets_only_what_nobody_would_miss(store: Store) -> None:
    idle = store.new_player("")
    idle_deal = _unplayed(store, idle, "idle-token-0001")
    idle_loaded = _played(store, store.loaded_player(idle) or "", 3)
    unfinished = store.new_player("")  # played, never finished: nothing to keep
    in_play = _played(store, unfinished)
    winner = store.new_player("")
    finished = _played(store, winner, finish=True)
    left_deal = _unplayed(store, winner)
    named = store.new_player("Eve")
    named_game = _played(store, named)
    named_deal = _unplayed(store, named)
    local_deal = _unplayed(store, "someone")
    record = store.record(finished)
    # nothing is old yet: nothing goes
    assert store.purge("2000-01-01T00:00:00+00:00") == (0, 0)
    players, games = store.purge(LATER)
    assert players == 2  # idle, unfinished
    assert store.player(idle.id) is None and store.player(unfinished.id) is None
    assert store.loaded_player(idle, make=False) is None
    for gone in (idle_deal, idle_loaded, in_play, left_deal, named_deal):
        assert not _exists(store, gone)
    assert store.token_game("idle-token-0001") is None
    assert games == 5
    # kept: a finished game and its player, a named player's game with a
    # move, a local player's deal
    for kept in (finished, named_game, local_deal):
        assert _exists(store, kept)
    assert store.record(finished) == record  # a result is never rewritten
    assert store.player(winner.id) is not None and store.player(named.id) is not None
    assert store.purge(LATER) == (0, 0)


def test_idle_players_ask_for_a_time_without_change(store: Store) -> None:
    fresh = store.new_player("")
    assert store.idle_players("2000-01-01T00:00:00+00:00") == []
    assert [p.id for p in store.idle_players(LATER)] == [fresh.id]
    assert [p.id for p in store.idle_players(None, only=fresh.id)] == [fresh.id]
    _played(store, fresh)  # a move today: not idle today, idle "later"
    assert [p.id for p in store.idle_players(None, only=fresh.id)] == [fresh.id]


def test_a_recovered_device_gives_its_games_in_play(store: Store) -> None:
    old, new = store.new_player(""), store.new_player("")
    in_play = _played(store, old)
    finished = _played(store, old, 4, finish=True)
    deal = _unplayed(store, old)
    version = store.version(in_play)
    assert store.adopt_games(old, new) == 1
    assert store.record(in_play, of=new).moves == 1
    assert store.version(in_play) == (version or 0) + 1  # caches read it again
    assert store.record(finished, of=old).status == "resigned"  # stays old's
    assert store.record(deal, of=old).moves == 0
