"""The deal of the day's table in the browser (:mod:`lucie.standings`).

- ``GET /api/daily?variant=V&date=YYYY-MM-DD``: the table (every player's
  result on that deal, ranked; the request's player's own entry under
  ``mine``), and the deal's odds under ``odds`` once the day is over and
  they are worked out (``odds_pending``: over, not worked out yet);
- ``GET /api/daily/odds?variant=V&date=D``: works the odds out in the
  solver's pool (a past day only), keeps them when complete, and answers
  them (:meth:`Odds.to_json <lucie.analysis.odds.Odds.to_json>`).

The player is the request's (the site's cookie) or the local game's own;
nothing in the request names another player.
"""

from __future__ import annotations

import datetime
from typing import Any, Final

from starlette.requests import Request
from starlette.routing import Route

from lucie.errors import LucieError
from lucie.i18n import _
from lucie.standings import ODDS_SECONDS, DailyTable, daily_table, keep_odds, kept_odds, parse_day
from lucie.web.errors import ApiError
from lucie.web.inputs import rules_from
from lucie.web.routes import Api, api
from lucie.web.store_link import StoreLink
from lucie.web.thinking import odds_job

#: Playouts of a deal's odds (as ``lucie odds`` by default).
ODDS_SAMPLES: Final = 400


def _day(request: Request) -> datetime.date | None:
    text = request.query_params.get("date")
    if not text:
        return None
    try:
        return parse_day(text[:40])
    except LucieError as exc:
        raise ApiError(400, str(exc)) from None


class DailyApi:
    """The endpoints of the deal of the day's table."""

    def __init__(self, a: Api) -> None:
        self.api = a
        #: the odds being worked out (one search per deal at a time)
        self.working: set[str] = set()

    def _link(self) -> StoreLink:
        link = self.api.registry.store
        if link is None:
            raise ApiError(503, _("no statistics store is available"))
        return link

    async def _table(self, request: Request) -> tuple[StoreLink, DailyTable]:
        link = self._link()
        rules = rules_from(request.query_params.get("variant"))
        day = _day(request)
        table = await link.run(lambda: daily_table(link.store, rules, day, link.player))
        return link, table

    async def table(self, request: Request) -> Any:
        link, table = await self._table(request)
        data = table.to_json()
        data["odds"] = await link.run(lambda: kept_odds(link.store, table))
        data["odds_pending"] = table.over and data["odds"] is None
        return data

    async def odds(self, request: Request) -> Any:
        link, table = await self._table(request)
        if not table.over:
            raise ApiError(409, _("the deal's odds are shown once the day is over (UTC)"))
        found = await link.run(lambda: kept_odds(link.store, table))
        if found is not None:
            return found
        from lucie.engine import Game

        position = Game(table.rules, table.deal).position
        data: dict[str, Any] = await self.api._think(
            request, self.working, f"odds of {table.rules.spec()} {table.deal}", odds_job,
            position, ODDS_SAMPLES, think=ODDS_SECONDS)
        await link.run(lambda: keep_odds(link.store, table, data))
        return data


def daily_routes(a: Api) -> list[Route]:
    """The routes of the deal of the day's table."""
    d = DailyApi(a)
    return [Route("/api/daily", api(d.table)),
            Route("/api/daily/odds", api(d.odds, thinks=True))]


__all__ = ["DailyApi", "daily_routes"]
