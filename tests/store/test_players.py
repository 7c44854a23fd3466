"""Players and game versions (issue 40), on both backends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from lucie.engine import Game, Move
from lucie.rules import Rules
from lucie.session import Session
from lucie.store import Player, StaleGame, Store, StoreError, default_player

Where = Path | str


def _played(store: Store, player: Player | str | None, deal: int, n: int,
            status: str | None = None) -> int:
    game = Game(Rules(), deal=deal)
    gid = store.start_game(game, player)
    for _ in range(n):
        moves = [m for m in game.legal_moves if not m.is_redeal]
        game.push(moves[0])
        store.record_move(gid, game, 1.0)
    if status is not None:
        store.finish_game(gid, game, 5.0, status)
    return gid


def test_each_game_is_a_players(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_PLAYER", "zoe")
    ann = _played(store, "ann", 1, 2, "lost")
    bob = _played(store, "bob", 2, 3, "resigned")
    mine = _played(store, None, 3, 1)  # the local player: the login name
    assert store.record(ann).player == "ann" and store.record(bob).player == "bob"
    assert store.record(mine).player == default_player()
    assert store.record(ann).player_id != store.record(bob).player_id
    assert [r.id for r in store.history("ann")] == [ann]
    assert [r.id for r in store.history("bob")] == [bob]
    assert {r.id for r in store.history()} == {ann, bob, mine}  # None: everyone's
    assert store.stats("ann").games == 1 and store.stats("bob").games == 1
    assert store.stats("cy").games == 0 and store.history("cy") == []
    assert store.unfinished("ann") is None and store.unfinished(None) is not None
    assert sorted(store.players()) == sorted({"ann", "bob", default_player()})


def test_a_local_player_is_made_once(store: Store) -> None:
    first = store.local_player("ann")
    again = store.local_player("ann")
    assert first == again and first.login == "ann" and first.name == "ann"
    gid = _played(store, "ann", 1, 1)
    assert store.record(gid).player_id == first.id
    assert store.player(first.id) == first
    assert store.player(first.id + 1000) is None


def test_a_sites_players_are_known_by_id(store: Store) -> None:
    one, two = store.new_player("Marie"), store.new_player("Marie")
    assert one.id != two.id and one.login is None  # the same name, two players
    gid = _played(store, one, 4, 2, "lost")
    assert store.stats(one).games == 1 and store.stats(two).games == 0
    assert store.stats(one).player == "Marie"
    assert store.history(two) == []
    # nobody reads another player's game
    assert store.record(gid, of=one).id == gid
    with pytest.raises(StoreError, match=f"no game {gid}"):
        store.record(gid, of=two)
    with pytest.raises(StoreError, match=f"no game {gid}"):
        store.game(gid, of=two)
    store.rename_player(one, "Marie <b>")
    assert store.record(gid).player == "Marie <b>"
    assert store.player(one.id) == Player(one.id, "Marie <b>", one.created, None)


def test_a_player_deletes_everything_theirs(store: Store) -> None:
    gone = store.new_player("Léa")
    kept = _played(store, "ann", 1, 2, "lost")
    theirs = [_played(store, gone, d, 1, "resigned") for d in (2, 3)]
    store.link_token("tok-lea", theirs[0])
    store.link_token("tok-ann", kept)
    assert store.delete_player(gone) == 2
    assert store.player(gone.id) is None
    assert store.token_game("tok-lea") is None and store.token_game("tok-ann") == kept
    for gid in theirs:
        with pytest.raises(StoreError):
            store.record(gid)
    assert [r.id for r in store.history()] == [kept]
    assert store.delete_player("nobody-at-all") == 0


def test_each_change_makes_a_new_version(store: Store) -> None:
    game = Game(Rules(), deal=1)
    gid = store.start_game(game, "ann")
    assert store.version(gid) == 1 and store.record(gid).version == 1
    game.push("f>i")
    assert store.record_move(gid, game, 2.0) == 2
    assert store.finish_game(gid, game, 3.0, "resigned") == 3
    assert store.version(gid) == 3
    assert store.version(999) is None


def test_a_change_to_a_stale_version_is_refused(where: Where) -> None:
    """Two programs hold the same game: the second change made against the
    version both read is refused, and nothing of it is written."""
    with Store(where) as one, Store(where) as two:
        game = Game(Rules(), deal=1)
        gid = one.start_game(game, "ann")
        seen = two.version(gid)
        assert seen == 1
        game.push("f>i")
        assert one.record_move(gid, game, 1.0, expect=seen) == 2
        other = Game(Rules(), deal=1)
        with pytest.raises(StaleGame):
            two.record_move(gid, other, 9.0, expect=seen)
        with pytest.raises(StaleGame):
            two.finish_game(gid, other, 9.0, "resigned", expect=seen)
        record = two.record(gid)
        assert (record.moves, record.seconds, record.status, record.version) == (
            1, 1.0, "playing", 2)
        assert two.record_move(gid, game, 2.0, expect=2) == 3
        with pytest.raises(StoreError, match="no game 999"):
            one.record_move(999, game, expect=1)


def test_tokens_name_games(store: Store) -> None:
    a, b = _played(store, "ann", 1, 0), _played(store, "ann", 2, 1)
    store.link_token("t1", a)
    assert store.token_game("t1") == a
    store.link_token("t1", b)  # the same page, another game
    assert store.token_game("t1") == b and store.token_game("t2") is None
    assert store.discard(a) and store.token_game("t1") == b


def test_the_session_plays_the_local_players_games(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as store:
        session = Session.new(store, "ann", Rules(), 1)
        session.play(Move.parse("f>i"))
        gid = session.game_id
        assert gid is not None
        assert store.record(gid, of="ann").moves == 1
        assert store.record(gid).version == 2
        session.close()
        with pytest.raises(StoreError):  # bob cannot open ann's game
            Session.stored(store, gid, "bob")
        again = Session.stored(store, gid, "ann")
        assert again.game.moves == session.game.moves
        again.close()
        assert store.stats("bob").games == 0
