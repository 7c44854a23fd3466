"""Two players on one deal (docs/duel.md): a duel opened, joined, found,
ended, over the store's rows (:mod:`lucie.store.duels`).  The site's app
(:mod:`lucie.web.site.duel`) asks these, never the store's writers; the
duels' news between processes is :mod:`lucie.site.duel_hub`'s.
"""

from __future__ import annotations

from typing import Any

from lucie.store import Store
from lucie.store import duels as _rows

# a duel as stored, its settings and sides; how far a game is (for the
# other side's page) and one side's game as stored now (its end): reads
from lucie.store.duels import Duel, DuelSettings, Side, progress, side_end


def start(store: Store, settings: DuelSettings, *, token: str, host: int, game: int,
          page: str) -> Duel:
    """A new duel of player ``host`` (their stored ``game``, named ``page``
    by their page), known by ``token`` (its link)."""
    return _rows.open_duel(store, settings, token=token, host=host, game=game, page=page)


def join(store: Store, token: str, *, guest: int, game: int, page: str) -> bool:
    """Player ``guest`` joins duel ``token`` with their ``game``: True if
    they got in (it had no guest yet, and it is not the host's own)."""
    return _rows.join_duel(store, token, guest=guest, game=game, page=page)


def by_token(store: Store, token: str) -> Duel | None:
    """The duel whose link is ``token``."""
    return _rows.duel_by_token(store, token)


def by_page(store: Store, page: str) -> Duel | None:
    """The duel one of whose games the page token ``page`` names."""
    return _rows.duel_by_page(store, page)


def by_game(store: Store, game_id: int) -> Duel | None:
    """The duel one of whose games is the stored game ``game_id``."""
    return _rows.duel_by_game(store, game_id)


def on_deal_of(store: Store, game_id: int) -> list[Duel]:
    """The duels not over whose deal and variant are those of the stored
    game ``game_id``, of its player (the one who loaded it, for a loaded
    game: :meth:`Store.deal_owner <lucie.store.Store.deal_owner>`): their
    rules hold for that game too."""
    found = store.deal_owner(game_id)
    if found is None:
        return []
    owner, variant, deal = found
    return [] if deal is None else _rows.running_on_deal(store, owner, variant, deal)


def end(store: Store, duel: Duel, reason: str, at: str | None = None) -> bool:
    """End ``duel`` (once: False if it had ended already) for ``reason``,
    with each side's game as stored now (:func:`side_end` at ``at``)."""
    ends: dict[Side, dict[str, Any]] = {
        "host": side_end(store, duel, "host", at), "guest": side_end(store, duel, "guest", at)}
    return _rows.end_duel(store, duel.id, reason, ends)


def side_over(store: Store, duel: Duel, side: Side) -> bool:
    """Whether ``side``'s game is over: finished, or gone with its player
    (who deleted their data)."""
    return _rows.side_status(store, duel, side) != "playing"


def leave(store: Store, player_id: int, at: str | None = None) -> list[Duel]:
    """Player ``player_id`` is about to delete their data: each duel they
    play now ends, as if they resigned (their side's end says so, with
    their game as it stands), so its result stays the other player's; the
    duels it ended (their news is the caller's to tell)."""
    ended = []
    for duel in _rows.running_duels_of(store, player_id):
        ends: dict[Side, dict[str, Any]] = {
            "host": side_end(store, duel, "host", at), "guest": side_end(store, duel, "guest", at)}
        mine: Side = "host" if duel.host_id == player_id else "guest"
        ends[mine] = {**ends[mine], "status": "resigned"}
        if _rows.end_duel(store, duel.id, "resigned", ends):
            ended.append(duel)
    return ended


__all__ = ["Duel", "DuelSettings", "Side", "by_game", "by_page", "by_token", "end", "join",
           "leave", "on_deal_of", "progress", "side_end", "side_over", "start"]
