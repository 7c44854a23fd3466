"""Challenge a friend: a link to the same deal, played whenever the friend
likes; both see both results and both reviews (:mod:`lucie.standings`).

- ``POST /api/challenges`` ``{"game": ID}``: a challenge to the deal of the
  request's player's finished game ``ID``; answers ``{"token", "path"}``;
- ``GET /challenge/TOKEN``: the page, opened on the challenge;
- ``GET /api/challenges/TOKEN``: the challenge (every player's result);
- ``POST /api/challenges/TOKEN/play`` ``{}``: a new game of the deal for
  the request's player (their one game of the challenge), its state;
- ``GET /api/challenges/TOKEN/review/N``: the review of entry ``N`` (1:
  the challenger's), once the request's player's own game in it is over.

A result is only ever read from the store's game of each player: nothing
in a request names a player, a score or a status.
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from lucie.i18n import _
from lucie.standings import (
    challenge_game,
    challenge_join,
    challenge_open,
    challenge_saved,
    challenge_view,
)
from lucie.web.access import unknown
from lucie.web.errors import ApiError
from lucie.web.inputs import int_param_text, read_object
from lucie.web.routes import REVIEW_SECONDS, Api, api
from lucie.web.store_link import StoreLink
from lucie.web.views import state_json


def _token(request: Request) -> str:
    token = str(request.path_params["token"])
    if not 10 <= len(token) <= 64 or not token.replace("-", "").replace("_", "").isalnum():
        raise unknown("challenge", token)
    return token


class ChallengeApi:
    """The endpoints of challenges."""

    def __init__(self, a: Api) -> None:
        self.api = a
        #: the challenge reviews being worked out
        self.reviewing: set[str] = set()

    def _link(self) -> StoreLink:
        link = self.api.registry.store
        if link is None:
            raise ApiError(503, _("no statistics store is available"))
        return link

    async def create(self, request: Request) -> Any:
        link = self._link()
        data = await read_object(request)
        session = await self.api.registry.get(str(data.get("game", ""))[:64])  # the player's own
        life = session.life
        if life.game_id is None or life.store is None:
            raise ApiError(422, _("only a game recorded in the statistics can be a challenge"))
        if life.result is None:
            raise ApiError(409, _("finish the game first: a challenge is made after a game"))
        token = secrets.token_urlsafe(12)
        game_id = life.game_id
        await link.run(lambda: challenge_open(link.store, token, game_id))
        return {"token": token, "path": f"/challenge/{token}"}

    async def show(self, request: Request) -> Any:
        link = self._link()
        token = _token(request)
        view = await link.run(lambda: challenge_view(link.store, token, link.player))
        if view is None:
            raise unknown("challenge", token)
        return view

    async def play(self, request: Request) -> Any:
        link = self._link()
        token = _token(request)
        await read_object(request)  # (nothing in it is used: the player is the cookie's)
        view = await link.run(lambda: challenge_view(link.store, token, link.player))
        if view is None:
            raise unknown("challenge", token)
        if not view["can_play"]:
            raise ApiError(409, _("you have already played this challenge"))
        game = await link.run(lambda: challenge_game(link.store, token))
        assert game is not None  # the challenge is there (view)
        session = await self.api.registry.add(game)
        game_id = session.life.game_id
        assert game_id is not None  # a recorded game (there is a store)
        linked = await link.run(
            lambda: challenge_join(link.store, token, link.player, game_id))
        if linked != game_id:  # another request of this player joined meanwhile
            raise ApiError(409, _("you have already played this challenge"))
        return state_json(session)

    async def review(self, request: Request) -> Any:
        link = self._link()
        token = _token(request)
        index = int_param_text(request.path_params["index"], _("entry number"))
        found = await link.run(lambda: challenge_saved(link.store, token, index, link.player))
        if found is None:
            raise ApiError(403, _("the reviews of a challenge are open to its players once "
                                  "their own game is over"))
        game_id, saved = found
        return await self.api._review(request, self.reviewing, saved, REVIEW_SECONDS,
                                      key=game_id)


def challenge_routes(a: Api, page: Any) -> list[Route]:
    """The routes of challenges (``page``: the endpoint of the page)."""
    c = ChallengeApi(a)
    return [Route("/challenge/{token}", page),
            Route("/api/challenges", api(c.create), methods=["POST"]),
            Route("/api/challenges/{token}", api(c.show)),
            Route("/api/challenges/{token}/play", api(c.play), methods=["POST"]),
            Route("/api/challenges/{token}/review/{index}", api(c.review, thinks=True))]


__all__ = ["ChallengeApi", "challenge_routes"]
