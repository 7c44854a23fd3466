"""A site's players: each visitor is one, anonymous until they choose a
name, known by id only (no login).  The site's app asks these, never the
store's writers (:mod:`lucie.site`).

>>> import tempfile, pathlib
>>> from lucie.store import Store
>>> store = Store(pathlib.Path(tempfile.mkdtemp()) / "site.sqlite3")
>>> ann = make(store)
>>> rename(store, ann, "Ann").name
'Ann'
>>> find(store, ann.id).name
'Ann'
>>> remove(store, ann), find(store, ann.id)
(0, None)
>>> store.close()
"""

from __future__ import annotations

from lucie.store import Player, Store


def make(store: Store) -> Player:
    """A new anonymous player."""
    return store.new_player("")


def find(store: Store, player_id: int) -> Player | None:
    """The site's player ``player_id`` (None: none, or a local player, who
    has a login and is never a site's visitor)."""
    found = store.player(player_id)
    return found if found is not None and found.login is None else None


def rename(store: Store, player: Player, name: str) -> Player:
    """``player`` with the display name ``name`` (checked by the caller)."""
    store.rename_player(player, name)
    return Player(player.id, name, player.created, player.login)


def hand_over(store: Store, old: Player, new: Player) -> None:
    """The browser that played as ``old`` goes on as ``new`` (a recovery
    code): ``old``'s games in play with a move become ``new``'s, and
    ``old`` is deleted if nothing else of theirs would be missed
    (:meth:`Store.idle_players <lucie.store.Store.idle_players>`: no name,
    no finished game); else ``old`` stays as it is, its results untouched."""
    if old.id == new.id:
        return
    store.adopt_games(old, new)
    if store.idle_players(None, only=old.id):
        store.delete_player(old)


def remove(store: Store, player: Player) -> int:
    """Delete ``player`` and every game of theirs; how many games went."""
    return store.delete_player(player)


__all__ = ["Player", "find", "hand_over", "make", "remove", "rename"]
