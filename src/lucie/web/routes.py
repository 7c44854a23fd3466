"""The endpoints of the JSON API, sharing one :class:`Registry`.

Every change is made through :class:`lucie.engine.Game`, which checks it
with the engine; every bad request gets a 4xx answer ``{"error": "..."}``
that names the problem and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, Final, NamedTuple, Protocol, TypeVar

from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response

from lucie.cards import Card
from lucie.daily import daily_deal, today
from lucie.engine import FAN_NAMES, REDEAL, Game, Move, Step, status_name
from lucie.errors import DealError, LucieError, MoveError, SaveFileError
from lucie.formats import SAVE_FORMAT, game_from_json, save_game
from lucie.i18n import N_, _, ngettext
from lucie.parsing import excerpt, parse_json
from lucie.rules import VARIANTS, Rules
from lucie.session import (
    NotSavedError,
    StaleGame,
    default_player,
    proved_lost,
    review_asked,
)
from lucie.web.access import unknown
from lucie.web.answers import JSONAnswer
from lucie.web.errors import ApiError, from_lucie, store_fault
from lucie.web.inputs import (
    check_post,
    check_same_origin,
    client_key,
    daily_mark,
    deal_from,
    difficulty_from,
    flag,
    float_param,
    int_param,
    int_param_text,
    read_body,
    read_json,
    read_object,
    rules_from,
    text_field,
)
from lucie.web.registry import Registry, Session
from lucie.web.store_link import StoreLink
from lucie.web.thinking import (
    PoolBudgetError,
    PoolFullError,
    SolverFailedError,
    SolverPool,
    difficulty_job,
    hint_job,
    odds_job,
    pick_job,
    review_job,
)
from lucie.web.views import daily_json, deals_as_text, game_version, state_json, target_key

#: Longest a hint or an odds estimate may think (seconds).
MAX_THINK: Final = 30.0
#: A game review's budget by default and at most (seconds).
REVIEW_SECONDS: Final = 30.0
MAX_REVIEW: Final = 120.0
#: Longest the search for a deal of a difficulty may take (seconds).
PICK_SECONDS: Final = 20.0

#: The most moves of a saved game the browser game loads (each move of a
#: game in memory costs about 550 bytes, and its replay about 0.2 ms).
MAX_LOADED_MOVES: Final = 2_000
#: The moves of loaded games kept in memory in all (the oldest loaded games
#: are dropped beyond: about 30 MB).
LOADED_MOVES_KEPT: Final = 50_000

#: Why a game cannot be resigned, by its status.
_OVER: Final = {"won": N_("the game is already over (won)"),
                "lost": N_("the game is already over (lost)"),
                "resigned": N_("the game is already over (resigned)")}


async def _client_gone(request: Request) -> None:
    """Return when the client has closed its connection (the request's
    body is read by then: hints and odds are GETs)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


Handler = Callable[[Request], Awaitable[Response]]


def api(handler: Callable[[Request], Awaitable[Any]], *, thinks: bool = False) -> Handler:
    """Wrap an endpoint: its result becomes JSON, an :class:`ApiError` a 4xx.

    A POST is refused unless :func:`check_post` accepts it, and a GET that
    makes the solver think (``thinks``) unless :func:`check_same_origin`
    does, before the endpoint runs: another site's page cannot spend this
    server's solver workers."""

    async def endpoint(request: Request) -> Response:
        try:
            if request.method == "POST":
                await read_body(request)  # read first, so a refusal keeps the connection
                check_post(request)
            elif thinks:
                check_same_origin(request)
            result = await handler(request)
        except ClientDisconnect:  # the client left while sending its body: no one to answer
            return Response(status_code=400)
        except LucieError as exc:  # e.g. the store naming a damaged game, a full disk
            return _answer(from_lucie(exc))
        except ApiError as exc:
            return _answer(exc)
        if isinstance(result, Response):
            return result
        return JSONAnswer(result, headers={"Cache-Control": "no-store"})

    endpoint.__name__ = handler.__name__
    return endpoint


def _answer(exc: ApiError) -> JSONAnswer:
    headers = {"Retry-After": exc.retry_after} if exc.retry_after else None
    return JSONAnswer({"error": exc.message, **exc.extra}, status_code=exc.status,
                      headers=headers)


def check_version(session: Session, data: dict[str, Any]) -> None:
    """Refuse (409, with the game as it is now) a command sent with a
    ``version`` the game has left: the page that sent it shows an older
    position (another tab or window played on).  Without ``version`` the
    command is taken as it is.  Called under ``session.lock``."""
    if "version" not in data:
        return
    sent = data["version"]
    if isinstance(sent, bool) or not isinstance(sent, int):
        raise ApiError(400, _("field 'version' must be a whole number"))
    if sent != game_version(session.game):
        raise ApiError(409, _("This game has moved on in another tab or window: here it is "
                              "as it is now."), stale=True, state=state_json(session))


def summary(step: Step, autoplay_only: bool = False) -> str:
    """What a step did, in one short line (an autoplay cascade is one
    count, not a line per card)."""
    if autoplay_only:
        n = len(step.moves)
        return ngettext("Autoplay sent {n} card home", "Autoplay sent {n} cards home",
                        n).format(n=n)
    return step.text


def change_json(session: Session, step: Step | None,
                autoplay_only: bool = False) -> dict[str, Any]:
    """The answer to a recorded change: the new state, the moves the step
    applied, what each did and the step in one line (``summary``).  Made
    under ``session.lock``."""
    data = state_json(session)
    data["applied"] = [str(m) for m in step.moves] if step is not None else []
    data["messages"] = list(step.texts) if step is not None else []
    data["summary"] = summary(step, autoplay_only) if step is not None else ""
    return data


T = TypeVar("T")

#: What is done once a game's change went through, before it is answered
#: (a duel's: its news told, its end written): :meth:`GamePolicies.command`.
After = Callable[[], Awaitable[None]]


class Dealt(NamedTuple):
    """A game dealt as a request asked (:meth:`Api.dealt`): the difficulty
    asked for, the date whose deal of the day it is, the rating its deal
    was picked by (a ``Rated``), where asked."""

    game: Game
    difficulty: str | None
    day: datetime.date | None
    picked: Any


class GamePolicies(Protocol):
    """The rules a game is played under beyond the game's own (a site's
    duels: :class:`lucie.web.site.duel.Duels`).  The endpoints ask them by
    the command they serve, never by a URL."""

    async def command(self, page: str, action: str) -> After | None:
        """Refuse (an :class:`ApiError`) the change ``action`` (``move``,
        ``undo``, ``restart``...) of the request's player's game on page
        ``page`` where its rules forbid it; else what to do once the change
        went through (None: nothing)."""

    async def may_leave(self, page: str) -> bool:
        """Whether a new game may leave the game on page ``page`` (count it
        resigned): not a running duel's."""

    async def check_stored(self, game_id: int, action: str) -> None:
        """Refuse (an :class:`ApiError`) ``action`` on the stored game
        ``game_id`` where its rules forbid it."""

    async def check_deal(self, game_id: int, action: str) -> None:
        """Refuse (an :class:`ApiError`) help (``action``) on the stored
        game ``game_id`` where the rules of a game of the same deal and
        player forbid it (a duel without hints)."""


class Api:
    """The endpoints, sharing one :class:`Registry`."""

    #: the rules of games played under more than the game's (a site's duels)
    policies: GamePolicies | None = None

    def __init__(self, registry: Registry, pool: SolverPool) -> None:
        self.registry = registry
        self.pool = pool
        #: the stored games being reviewed
        self.reviewing: set[str] = set()
        #: the loaded games in memory, oldest first, and their moves
        self.loaded: OrderedDict[str, int] = OrderedDict()

    async def _session(self, request: Request, *, verified: bool = True) -> Session:
        session = await self.registry.get(request.path_params["game_id"], verified=verified)
        if request.method == "POST":  # the page acts on it: it shows it
            session.life.show()
        return session

    async def _command(self, request: Request, action: str, *,
                       verified: bool = True) -> tuple[Session, After | None]:
        """The request's player's game (:meth:`_session`), whose change
        ``action`` its rules allow (:meth:`GamePolicies.command`: else an
        :class:`ApiError`), and what to do once the change went through."""
        session = await self._session(request, verified=verified)
        after = (await self.policies.command(session.id, action)
                 if self.policies is not None else None)
        return session, after

    @staticmethod
    async def _changed(after: After | None, answer: T) -> T:
        """``answer``, once what follows the change (``after``) is done: a
        player told of a change (a duel's end) reads it from any process."""
        if after is not None:
            await after()
        return answer

    # -- games ------------------------------------------------------------

    async def dealt(self, request: Request, data: dict[str, Any]) -> Dealt:
        """The game a request's ``data`` asks for (its ``variant`` and at
        most one of a ``deal`` number, a ``difficulty`` (picked by the
        solver) and ``daily``), dealt; a 400 or 422 naming what is wrong."""
        rules = rules_from(data.get("variant"))
        deal = deal_from(data.get("deal"))
        difficulty = difficulty_from(data.get("difficulty"))
        daily = flag(data, "daily")
        if sum((deal is not None, difficulty is not None, daily)) > 1:
            raise ApiError(400, _("give at most one of a deal number, a difficulty and "
                                  "'daily'"))
        day = None
        picked = None
        if daily:
            day = today()
            deal = daily_deal(rules, day)
        elif difficulty is not None:
            deal, picked = await self._pick(request, rules, difficulty)
        try:
            return Dealt(Game(rules, deal), difficulty, day, picked)
        except LucieError as exc:
            raise ApiError(422, str(exc)) from None

    async def new_game(self, request: Request) -> Any:
        data = await read_object(request)
        game, difficulty, day, picked = await self.dealt(request, data)
        # the new game exists before the old one is left (the page asked the
        # player first): a refused new game leaves the game in play as it was
        # a picked deal's rating is kept with its game: its end tells that figure
        session = await self.registry.add(game, picked=picked)
        abandon = data.get("abandon")
        if isinstance(abandon, str) and self.policies is not None \
                and not await self.policies.may_leave(abandon):
            abandon = None  # a running duel's game is not left (its rules)
        try:
            await self.registry.abandon(abandon)
        except (ApiError, LucieError):  # the old game stays as it was: no new game either
            await self.registry.drop(session)
            raise
        session.difficulty = difficulty
        session.daily = day.isoformat() if day is not None else None
        return state_json(session)

    async def _pick(self, request: Request, rules: Rules, difficulty: str) -> tuple[int, Any]:
        """A deal of ``difficulty``, picked by the solver in the pool, and
        the rating it was picked by (a ``Rated``)."""
        try:
            pick = await self._think(request, set(), "pick", pick_job, rules.spec(),
                                     difficulty, think=PICK_SECONDS)
        except PoolBudgetError as exc:
            raise ApiError(503, _("no deal of the difficulty asked for was found in time "
                                  "({reason}): try again").format(reason=exc)) from None
        deal = pick.deal
        assert isinstance(deal, int)
        return deal, pick.rated

    async def load_game(self, request: Request) -> Any:
        data = await read_json(request)
        if isinstance(data, dict) and isinstance(data.get("text"), str):
            try:
                data = parse_json(data["text"], what="the saved game")
            except LucieError as exc:
                raise ApiError(422, str(exc)) from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise ApiError(422, _("This file is not a game saved by lucie: load a file "
                                  "made with Save."))
        moves = data.get("moves")
        if isinstance(moves, list) and len(moves) > MAX_LOADED_MOVES:
            raise ApiError(422, ngettext(
                "the saved game has {count} move, more than the {most} the browser game loads",
                "the saved game has {count} moves, more than the {most} the browser game loads",
                len(moves)).format(count=len(moves), most=MAX_LOADED_MOVES))
        try:
            # replayed off the event loop: other players' moves go on meanwhile
            game = await asyncio.to_thread(game_from_json, data)
        except (SaveFileError, DealError) as exc:
            raise ApiError(422, str(exc)) from None
        # a loaded game replays someone's moves: it is played in memory and
        # never enters this player's statistics (no forged wins)
        session = await self.registry.add(game, record=False)
        self._keep_loaded(session.id, len(game.moves))
        return state_json(session)

    def _keep_loaded(self, game_id: str, moves: int) -> None:
        """Loaded games live in memory only: keep the newest ones up to
        :data:`LOADED_MOVES_KEPT` moves in all, and drop the oldest beyond."""
        self.loaded[game_id] = moves
        while sum(self.loaded.values()) > LOADED_MOVES_KEPT and len(self.loaded) > 1:
            oldest, _moves = self.loaded.popitem(last=False)
            self.registry.sessions.pop(oldest, None)

    async def show(self, request: Request) -> Any:
        session = await self._session(request)
        return state_json(session)

    async def _play(self, session: Session, move: Move, data: dict[str, Any], *,
                    verified: bool = True) -> Any:
        """Play ``move`` as the player's step (with the safe foundation
        moves after it if the request asks for ``autoplay``); an illegal
        one changes nothing.  ``verified``: whether ``session`` was checked
        against the store's version of the game; if not (a site's moves,
        most of its requests, save the store that read), a refusal (409)
        or a write that failed, which a copy left stale by another process
        would explain, is tried once more on the game as the store has it."""
        try:
            return await self._play_on(session, move, data)
        except (ApiError, LucieError) as exc:
            if verified or not self.registry.shared or (
                    isinstance(exc, ApiError) and exc.status != 409) or store_fault(exc):
                raise  # (a store's fault is no stale copy's: answered 503 at once)
            # a write refused for another process's change: the copy is stale
            stale = isinstance(exc, NotSavedError) and isinstance(exc.error, StaleGame)
        # read again if another process changed it
        fresh = await self.registry.get(session.id, stale=stale)
        fresh.life.show()
        return await self._play_on(fresh, move, data)

    async def _play_on(self, session: Session, move: Move, data: dict[str, Any]) -> Any:
        game = session.game
        autoplay = flag(data, "autoplay")
        async with session.lock:
            check_version(session, data)
            if game.resigned:
                raise ApiError(409, _("the game was resigned: undo or start a new game"))
            why = game.position.why_illegal(move)
            if why is not None:
                raise ApiError(409, f"{move}: {why}", reason=why, move=str(move))
            outcome = await self.registry.run(
                session, lambda: session.life.play(move, autoplay=autoplay))
            return change_json(session, outcome.step)

    async def move(self, request: Request) -> Any:
        session, after = await self._command(request, "move", verified=False)
        data = await read_object(request)
        text = text_field(data, "move")
        try:
            move = Move.parse(text)
        except MoveError as exc:
            raise ApiError(400, str(exc)) from None
        return await self._changed(after, await self._play(session, move, data, verified=False))

    async def redeal(self, request: Request) -> Any:
        session, after = await self._command(request, "redeal", verified=False)
        data = await read_object(request)
        return await self._changed(after, await self._play(session, REDEAL, data,
                                                           verified=False))

    async def merci(self, request: Request) -> Any:
        session, after = await self._command(request, "merci")
        data = await read_object(request)
        card_text = text_field(data, "card")
        fan_text = text_field(data, "fan").strip().lower()
        try:
            card = Card.parse(card_text)
        except LucieError as exc:
            raise ApiError(400, str(exc)) from None
        if len(fan_text) != 1 or fan_text not in FAN_NAMES:
            raise ApiError(400, _("field 'fan' must be a fan letter, not {value}").format(
                value=excerpt(fan_text)))
        position = session.game.position
        kind, where = position.where(card)
        if kind == "fan" and position.top(where) != card:  # a buried card: the merci
            why = position.why_no_merci()
            if why is not None:
                raise ApiError(409, _("no merci now: {reason}").format(reason=why), reason=why)
        move = Move.card_to_fan(card, FAN_NAMES.index(fan_text))
        return await self._changed(after, await self._play(session, move, data))

    async def autoplay(self, request: Request) -> Any:
        session, after = await self._command(request, "autoplay")
        data = await read_object(request)
        async with session.lock:
            check_version(session, data)
            outcome = await self.registry.run(session, session.life.autoplay)
            answer = change_json(session, outcome.step, autoplay_only=True)
        return await self._changed(after, answer)

    async def send_home(self, request: Request) -> Any:
        """Every safe card home now, or the aces where none is strictly
        safe (:meth:`lucie.session.Session.send_home`)."""
        session, after = await self._command(request, "home")
        sent = await read_object(request)
        async with session.lock:
            check_version(session, sent)
            outcome = await self.registry.run(session, session.life.send_home)
            data = change_json(session, outcome.step)
        if outcome.aces:
            data["applied"] = [str(m) for m in outcome.aces]
            data["messages"] = [_("No card is strictly safe here, so the aces went home: "
                                  "{moves}.").format(moves=" ".join(map(str, outcome.aces)))]
        elif outcome.step is None:
            data["messages"] = [_("No card can safely go home now.")]
        return await self._changed(after, data)

    async def visibility(self, request: Request) -> Any:
        """The page says whether it shows the game (the Page Visibility
        API): the game's clock runs only while it does.  The answer is the
        clock as it stands then (a site's game's: as the store counted it,
        whatever process the page's earlier words reached)."""
        # checked against the game the page's id names (one read): a copy
        # of the game before a Restart through another process would
        # count the page's word on the finished game, not on the new one
        session = await self.registry.get(request.path_params["game_id"])
        data = await read_object(request)
        shown = flag(data, "visible")
        await self.registry.visible(session, shown)
        return {"seconds": session.seconds(), "running": session.life.clock.running}

    async def undo(self, request: Request) -> Any:
        """Take back the player's last step: the move and the cards autoplay
        sent home after it."""
        session, after = await self._command(request, "undo")
        data = await read_object(request)
        async with session.lock:
            check_version(session, data)
            if not session.game.can_undo:
                raise ApiError(409, _("nothing to undo"))
            outcome = await self.registry.run(session, session.life.undo)
            data = state_json(session)
        step = outcome.undone
        assert step is not None
        data["undone"] = [str(m) for m in step.moves]
        undone = _("Undone: {what}").format(what=step.text)
        note = outcome.practice_note
        data["messages"] = [note, undone] if note else [undone]
        return await self._changed(after, data)

    async def redo(self, request: Request) -> Any:
        session, after = await self._command(request, "redo")
        data = await read_object(request)
        async with session.lock:
            check_version(session, data)
            if not session.game.can_redo:
                raise ApiError(409, _("nothing to redo"))
            try:
                outcome = await self.registry.run(session, session.life.redo)
            except MoveError as exc:  # pragma: no cover - redo replays a legal move
                raise ApiError(409, str(exc)) from None
            answer = change_json(session, outcome.step)
        return await self._changed(after, answer)

    async def restart(self, request: Request) -> Any:
        session, after = await self._command(request, "restart")
        data = await read_object(request)
        async with session.lock:
            check_version(session, data)
            outcome = await self.registry.restart(session)
            if outcome.new_game:
                session.life.show()
            data = state_json(session)
        if outcome.new_game:
            data["messages"] = [_("A new game of the same deal (the last one's result stays "
                                  "recorded).")]
        return await self._changed(after, data)

    async def resign(self, request: Request) -> Any:
        session, after = await self._command(request, "resign")
        data = await read_object(request)
        async with session.lock:
            check_version(session, data)
            if session.game.outcome.finished:
                raise ApiError(409, _(_OVER.get(session.game.outcome.status,
                                                N_("the game is already over"))))
            await self.registry.run(session, session.life.resign)
            answer = state_json(session)
        return await self._changed(after, answer)

    async def save(self, request: Request) -> Any:
        session = await self._session(request)
        async with session.lock:
            text = save_game(session.game)
            game = session.game
        name = f"lucie-{game.rules.spec().split(',')[0]}-{game.deal or game.seed}.json"
        return Response(
            text, media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"',
                     "Cache-Control": "no-store"},
        )

    # -- the solver -----------------------------------------------------------

    async def _think(self, request: Request, busy: set[str], kind: str,
                     job: Callable[..., Any], *args: Any, think: float,
                     slack: float = 0.0) -> Any:
        """Run a solver ``job`` in the pool: ``job(*args, seconds)``, where
        ``seconds`` is ``think`` less the wait for a worker; the pool stops it
        ``slack`` seconds (and its margin) past that.  Stop it if the client
        goes away.  One call of each kind at a time per ``busy`` set (a
        game's, or the store's for ``key``); the answer, when a dict, gets
        ``wait_seconds``: how long the call waited for a worker."""
        if kind in busy:
            raise ApiError(429, _("this is already being worked out for this game: "
                                  "wait for the answer"))
        busy.add(kind)
        work = asyncio.ensure_future(self.pool.call(job, *args, budget=think + slack,
                                                    client=client_key(request), think=think))
        gone = asyncio.ensure_future(_client_gone(request))
        try:
            await asyncio.wait({work, gone}, return_when=asyncio.FIRST_COMPLETED)
            if not work.done():
                work.cancel()  # the client went away: its search stops now
                raise ApiError(408, _("the client went away"))
            try:
                answer = work.result()
            except LucieError as exc:
                raise ApiError(422, _("the solver cannot work on this position: {reason}").format(
                    reason=exc)) from None
            except SolverFailedError as exc:
                raise ApiError(503, str(exc)) from None
            except PoolFullError as exc:
                raise ApiError(429, str(exc), retry_after=exc.retry_after) from None
        finally:
            busy.discard(kind)
            gone.cancel()
            work.cancel()
        if isinstance(answer.value, dict):
            answer.value["wait_seconds"] = round(answer.waited, 3)
        return answer.value

    async def hint(self, request: Request) -> Any:
        session = await self._session(request)
        seconds = float_param(request, "seconds", 2.0, 0.05, MAX_THINK)
        position = session.game.position
        await self._help_asked(session, "hint")  # fair play: refused or marked first
        try:
            found = await self._think(request, session.thinking, "hint", hint_job, position,
                                      think=seconds)
        except PoolBudgetError as exc:
            found = {"move": None, "kind": "none", "clears": None, "budget_ran_out": True,
                     "text": _("No hint: {reason}.").format(reason=exc)}
        # the hint's own JSON (as `lucie hint --json`), plus where it moves
        data: dict[str, Any] = {**found, "card": None, "target": None}
        # offer resigning only where the search proves the game lost
        data["proved_lost"] = (found.get("kind") == "lost" or proved_lost(
            position, found.get("clears"), bool(found.get("budget_ran_out"))))
        data.update(daily_json(session))  # whether the game still counts (it was marked)
        move = Move.parse(found["move"]) if isinstance(found.get("move"), str) else None
        if move is not None and not move.is_redeal and position.is_legal(move):
            card = position.moving_card(move)
            assert card is not None  # a legal move that is not a redeal moves a card
            data["card"] = str(card)
            data["target"] = target_key(move, card)
        return data

    async def odds(self, request: Request) -> Any:
        session = await self._session(request)
        samples = int_param(request, "samples", 200, 1, 100_000)
        seconds = float_param(request, "seconds", 10.0, 0.1, MAX_THINK)
        position = session.game.position
        moves = len(session.game.moves)
        await self._help_asked(session, "odds")  # help: refused or marked first
        try:
            # the estimate's own JSON (Odds.to_json, as `lucie odds --json`)
            data = await self._think(request, session.thinking, "odds", odds_job, position,
                                     samples, think=seconds)
        except PoolBudgetError as exc:
            # no figure at all: the same shape, measured on nothing
            from lucie.analysis.odds import Odds

            data = Odds(0.0, (0.0, 1.0), 0, None, budget_ran_out=True).to_json()
            data["text"] = _("No odds: {reason}.").format(reason=exc)
        data["moves_played"] = moves
        data.update(daily_json(session))  # whether the game still counts (it was marked)
        return data

    async def review(self, request: Request) -> Any:
        """The review of the game in play, move by move."""
        session = await self._session(request)
        seconds = float_param(request, "seconds", REVIEW_SECONDS, 1.0, MAX_REVIEW)
        async with session.lock:
            if not session.game.moves:
                raise ApiError(422, _("no move to review yet"))
            # a game in play: the review tells the chance of its position (help)
            await self._help_asked(session, "review")
            saved = save_game(session.game)
        return await self._review(request, session.thinking, saved, seconds)

    async def _help_asked(self, session: Session, action: str) -> None:
        """Help (``action``: ``hint``, ``odds``, ``review``) asked on
        ``session``'s game: refused where the rules of a game of its deal
        forbid it (a duel without hints, :meth:`GamePolicies.check_deal`),
        else marked first, on the player's every game of the deal in play
        (:meth:`lucie.session.Session.hint_asked`), whose copies in memory
        learn it."""
        life = session.life
        if self.policies is not None and life.store is not None and life.game_id is not None:
            await self.policies.check_deal(life.game_id, action)
        await self.registry.run(session, life.hint_asked)
        store, deal = self.registry.store, life.game.deal
        if life.store is None and store is not None and deal is not None:
            # a game not stored (loaded in a local lucie web): the player's
            # games of its deal in play are marked all the same
            player = store.player or default_player()
            await store.run(lambda: store.store.mark_player_deal(player, life.game.rules, deal))
        await self._reread_deal(life.game.rules.spec(), deal, but=session)

    async def _reread_deal(self, variant: str, deal: int | None,
                           but: Session | None = None) -> None:
        """The sessions in memory of a game of ``variant``'s ``deal`` read
        their marks again (help on another game of the deal marked them)."""
        if deal is None or self.registry.store is None:
            return
        store = self.registry.store
        for other in list(self.registry.sessions.values()):
            life = other.life
            if other is not but and life.store is not None and life.game_id is not None \
                    and life.game.deal == deal and life.game.rules.spec() == variant:
                await store.run(life.read_marks)

    async def review_stored(self, request: Request) -> Any:
        """The review of a game of the statistics (by its number there)."""
        store = self._store()
        number = int_param_text(request.path_params["store_id"], _("game number"))
        seconds = float_param(request, "seconds", REVIEW_SECONDS, 1.0, MAX_REVIEW)
        saved = await store.saved_game(number)
        if saved is None:
            raise unknown("stored game", number)
        if self.policies is not None:  # a duel's game (or deal) in play is not reviewed
            await self.policies.check_stored(number, "review")
            await self.policies.check_deal(number, "review")
        # a game still in play, and the player's others of its deal: marked
        # as helped first (fair play)
        await store.run(lambda: review_asked(store.store, number,
                                             store.player or default_player()))
        record = await store.run(lambda: store.store.deal_owner(number))
        if record is not None:
            await self._reread_deal(record[1], record[2])
        return await self._review(request, self.reviewing, saved, seconds, key=number)

    async def _review(self, request: Request, busy: set[str], saved: str, seconds: float,
                      key: int | None = None) -> Any:
        kind = "review" if key is None else f"review of game {key}"
        try:
            # the review keeps to its own budget; the pool's is a backstop
            data = await self._think(request, busy, kind, review_job, saved, think=seconds,
                                     slack=3)
        except PoolBudgetError as exc:
            raise ApiError(503, _("the review did not finish in time ({reason})").format(
                reason=exc)) from None
        assert isinstance(data, dict)
        deals_as_text(data)
        return data

    async def difficulty(self, request: Request) -> Any:
        """How hard the deal of a finished game is (never before its end:
        no spoilers)."""
        session = await self._session(request)
        game = session.game
        if not game.outcome.finished:
            raise ApiError(409, _("the deal's difficulty is shown once the game is over"))
        if game.deal is None:
            raise ApiError(422, _("a game from a layout has no deal number to rate"))
        seconds = float_param(request, "seconds", 10.0, 0.5, MAX_THINK)
        try:
            # a deal picked by difficulty is told the rating it was picked by,
            # kept with its game in the store (after a restart too)
            data = await self._think(request, session.thinking, "difficulty", difficulty_job,
                                     game.rules.spec(), game.deal, session.life.picked,
                                     think=seconds,
                                     slack=3)
        except PoolBudgetError as exc:
            raise ApiError(503, _("the deal could not be rated in time ({reason})").format(
                reason=exc)) from None
        assert isinstance(data, dict)
        if session.difficulty is not None:  # the player asked for this third
            data["asked"] = session.difficulty
        return data

    # -- statistics ---------------------------------------------------------

    def _store(self) -> StoreLink:
        if self.registry.store is None:
            raise ApiError(503, _("no statistics store is available"))
        return self.registry.store

    async def stats(self, request: Request) -> Any:
        store = self._store()
        variant = request.query_params.get("variant")
        rules = None if variant == "all" else rules_from(variant)
        return await store.stats(rules)

    async def history(self, request: Request) -> Any:
        store = self._store()
        variant = request.query_params.get("variant")
        rules = None if variant in (None, "", "all") else rules_from(variant)
        limit = int_param(request, "limit", 1000, 1, 100_000)
        # a page of the list: ``offset`` rows left out first; ``played=1``
        # leaves out the games dealt and never played (no move, not over)
        offset = int_param(request, "offset", 0, 0, 2**31)
        played = request.query_params.get("played", "0")
        if played not in ("0", "1"):
            raise ApiError(400, _("parameter 'played' must be 0 or 1, not {value}").format(
                value=excerpt(played)))
        if played == "0" and offset == 0:
            games = await store.history(rules, limit)
            total = None
        else:
            every = await store.history(rules, None)
            if played == "1":
                every = [g for g in every if g.get("moves") or g.get("status") != "playing"]
            games, total = every[offset:offset + limit], len(every)
        for row in games:
            row["daily"] = daily_mark(row)
            row["status_text"] = status_name(str(row.get("status")))  # as the page shows it
            deals_as_text(row)
        return {"games": games} if total is None else {"games": games, "total": total,
                                                       "offset": offset}

    async def features(self, request: Request) -> Any:
        """What this server can do: the page hides what is missing (the
        analysis comes with every install; only the statistics are missing
        without a store, and players are a site's only)."""
        return {"stats": self.registry.store is not None,
                # a site's players (lucie serve): the page offers their panel
                "players": self.registry.shared}

    async def variants(self, request: Request) -> Any:
        return [
            {"name": v.name, "title": v.display_title(), "summary": v.display_summary(),
             "spec": v.rules.spec(), "settings": v.rules.settings()}
            for v in VARIANTS.values()
        ]
