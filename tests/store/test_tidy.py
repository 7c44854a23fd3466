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


def test_purge_keeps_what_a_duel_or_its_other_player_needs(store: Store) -> None:
    from lucie.store.duels import DuelSettings, duel_by_token, end_duel, join_duel, open_duel
    host, guest = store.new_player(""), store.new_player("")
    host_game, guest_game = _unplayed(store, host), _unplayed(store, guest)
    waiting_host = store.new_player("")
    waiting_game = _unplayed(store, waiting_host)
    settings = DuelSettings(Rules().spec(), 2)
    open_duel(store, settings, token="duel-over-000001", host=host.id, game=host_game,
              page="host-page-000001")
    assert join_duel(store, "duel-over-000001", guest=guest.id, game=guest_game,
                     page="guest-page-00001")
    duel = duel_by_token(store, "duel-over-000001")
    assert duel is not None
    assert end_duel(store, duel.id, "resigned", {"host": {}, "guest": {}})
    open_duel(store, settings, token="duel-open-000001", host=waiting_host.id,
              game=waiting_game, page="wait-page-000001")
    store.purge(LATER)
    # a duel that ended is the other player's result too: both players stay
    assert duel_by_token(store, "duel-over-000001") is not None
    assert store.player(host.id) is not None and store.player(guest.id) is not None
    assert _exists(store, host_game) and _exists(store, guest_game)
    # a duel never played is forgotten with its idle host, and its game
    assert store.player(waiting_host.id) is None
    assert duel_by_token(store, "duel-open-000001") is None
    assert not _exists(store, waiting_game)
