"""Who may reach what: the one place where what a request names (a game by
its page id, a game of the statistics by its number, a duel, a challenge)
is checked against the request's player.

The request's player is :data:`~lucie.web.store_link.REQUEST_PLAYER` (a
site's: ``lucie serve`` sets it from the signed cookie before any route
runs); the local game has none, its one player owns every game.  Each
lookup of a named thing reads it with its owner, then asks here:

- :func:`is_mine`: whether a thing its owner's id names is the request's
  player's (a game in memory: :meth:`lucie.web.registry.Registry.get`; the
  store's reads are made as that player: :attr:`lucie.web.store_link.StoreLink.player`);
- :func:`side`: the request's player's side of a duel, for what is a side's
  own (its review, its socket);
- :func:`unknown`: the one answer for a thing that is not there *or not
  the player's*: the same status and text, so that an id of another
  player's tells nothing (tests/hostile/test_idor.py).

A duel's and a challenge's link are what their player shares (a capability):
whoever has one sees the duel (the tables left out) or the challenge, and
may join or play it; a challenge's reviews are its players' once their own
game is over (:func:`lucie.standings.challenge_saved`).
"""

from __future__ import annotations

from typing import Literal

from lucie.i18n import _
from lucie.parsing import excerpt
from lucie.session import Player
from lucie.web.errors import ApiError
from lucie.web.store_link import REQUEST_PLAYER

#: What a request may name.
Kind = Literal["game", "stored game", "duel", "challenge"]

#: A duel's side (:data:`lucie.site.duels.Side`).
Side = Literal["host", "guest"]


def request_player() -> Player | None:
    """The request's player on a site (None on the local game)."""
    return REQUEST_PLAYER.get()


def request_player_id() -> int | None:
    """The id of the request's player on a site (None on the local game)."""
    player = REQUEST_PLAYER.get()
    return player.id if player is not None else None


def site_player_id() -> int:
    """The id of the request's player; a 403 on the local game (what only
    a site's players do: a duel)."""
    player = REQUEST_PLAYER.get()
    if player is None:
        raise ApiError(403, _("duels are played on a site (lucie serve)"))
    return player.id


def is_mine(owner: int | None) -> bool:
    """Whether a thing of the player ``owner`` (None: the local game's) is
    the request's player's."""
    return owner == request_player_id()


def unknown(kind: Kind, named: object) -> ApiError:
    """The answer to a request naming ``named``, a ``kind`` that is not
    there or not the request's player's: a 404, the same either way."""
    shown = excerpt(str(named))
    if kind == "game":
        return ApiError(404, _("no game with id {id} (it may have been dropped: "
                               "start a new game)").format(id=shown))
    if kind == "stored game":
        return ApiError(404, _("no game {number} of yours in the statistics").format(
            number=shown))
    if kind == "duel":
        return ApiError(404, _("no duel has the link {token}").format(token=shown))
    return ApiError(404, _("no such challenge: {token}").format(token=shown))


def side(sides: tuple[int | None, int | None], token: str,
         me: int | None) -> Side:
    """The side of player ``me`` (the request's: its cookie's) in the duel
    ``token`` whose host and guest are ``sides``; :func:`unknown` if
    neither."""
    if me is not None and me == sides[0]:
        return "host"
    if me is not None and me == sides[1]:
        return "guest"
    raise unknown("duel", token)


__all__ = ["Kind", "Side", "is_mine", "request_player", "request_player_id", "side",
           "site_player_id", "unknown"]
