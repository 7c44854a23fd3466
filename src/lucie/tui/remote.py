"""A duel of a site (``lucie serve``) played from the terminal: the site's
HTTP API, seen from its player's side (docs/duel.md).

- :class:`DuelLink`: a duel's link (``https://site/duel/TOKEN``), checked.
- :class:`SiteClient`: JSON requests to that one site, as its page makes
  them: the site's signed player cookie (got on the first request, kept in
  ``sites.json`` in lucie's data directory, so a restarted terminal comes
  back as the same player), the site's own ``Origin``, JSON bodies.  It
  follows no redirect: nothing is fetched but from the site of the link.
- :class:`RemoteSession`: the player's game of the duel behind the
  interface the table's controller plays (:class:`lucie.session.Session`).
  Each change is a request to the game's endpoint on the site, whose
  engine decides and applies it; the table then shows the site's state.
  The game drawn here is rebuilt from the site's answer (its deal and its
  moves, replayed by the same engine), and checked against the layout the
  site sent: the terminal knows no rule of its own.
- :func:`open_duel`: joins the duel (or resumes the player's side).

Everything here is plain standard library (``urllib``); the duel's live
news come over its WebSocket (:mod:`lucie.tui.duel`, the ``websockets``
library of the ``tui`` extra).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from typing import Any, Final

from lucie import __version__, i18n
from lucie.engine import Game, Move, Step
from lucie.environment import SITES, path_setting
from lucie.errors import LucieError, MoveError
from lucie.files import examine, read_bytes
from lucie.formats import format_layout, move_texts
from lucie.i18n import _
from lucie.parsing import excerpt, parse_json, printable
from lucie.rules import Rules
from lucie.session import NotSavedError, Outcome, Session, StoreError

#: The site's player cookie (lucie.web.site.PLAYER_COOKIE).
PLAYER_COOKIE: Final = "lucie_player"
#: Seconds a request may take.
TIMEOUT: Final = 15.0
#: The ``format`` of the file of the sites' cookies, and its largest size.
SITES_FORMAT: Final = "lucie-sites"
MAX_SITES_BYTES: Final = 256 * 1024
#: Seconds a request that may be lost (the game is shown, or not) may take.
QUICK: Final = 3.0
#: The longest answer read (bytes).
MAX_ANSWER: Final = 4 * 1024 * 1024

_LINK: Final = re.compile(
    r"^(?P<scheme>https?)://(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:.]+\])(?::(?P<port>\d{1,5}))?"
    r"/duel/(?P<token>[A-Za-z0-9_-]{4,64})/?(?:[?#].*)?$")


class DuelLinkError(LucieError):
    """A duel's link that is not one (a usage error)."""


class SiteRefused(LucieError):  # noqa: N818 - says what happened
    """The site answered 4xx: ``status``, its message, its whole answer."""

    def __init__(self, status: int, message: str, data: dict[str, Any]) -> None:
        super().__init__(message)
        self.status = status
        self.data = data


class SiteDown(LucieError):  # noqa: N818 - says what happened
    """The site cannot be reached, or answers no JSON of lucie's."""


class SiteMismatch(SiteDown):
    """The site's game is not one this lucie can show (another version)."""


@dataclass(frozen=True, slots=True)
class DuelLink:
    """A duel's link: the site's origin and the duel's token.

    >>> DuelLink.parse("http://127.0.0.1:8000/duel/Ab_c-1234")
    DuelLink(origin='http://127.0.0.1:8000', token='Ab_c-1234')
    >>> DuelLink.parse("lucie.example/duel/x")
    Traceback (most recent call last):
    ...
    lucie.tui.remote.DuelLinkError: not a duel's link: 'lucie.example/duel/x' (a link like https://SITE/duel/TOKEN)
    """

    origin: str
    token: str

    @classmethod
    def parse(cls, text: str) -> DuelLink:
        found = _LINK.match(text.strip())
        port = found.group("port") if found else None
        if found is None or (port is not None and not 0 < int(port) < 65536):
            raise DuelLinkError(_("not a duel's link: {link} (a link like "
                                  "https://SITE/duel/TOKEN)").format(link=excerpt(text)))
        origin = f"{found.group('scheme')}://{found.group('host').lower()}"
        if port is not None:
            origin += f":{int(port)}"
        return cls(origin, found.group("token"))

    @property
    def text(self) -> str:
        return f"{self.origin}/duel/{self.token}"


def sites_path() -> Path:
    """The player cookie of each site played from this terminal:
    ``sites.json`` in lucie's data directory (``$LUCIE_SITES`` if set)."""
    env = path_setting(SITES)
    if env is not None:
        return env
    import platformdirs

    return Path(platformdirs.user_data_dir("lucie", appauthor=False)) / "sites.json"


def answer_json(raw: bytes | str) -> Any:
    """A JSON document the site sent (an answer, a socket's message):
    :func:`lucie.parsing.parse_json`, which refuses what is too deep or
    not JSON with a :class:`~lucie.errors.LucieError`."""
    return parse_json(raw, what=_("the site's answer"))


def number(value: Any) -> float:
    """``value`` if the site sent a number there, else 0.

    >>> number(3), number("3"), number(None), number(True)
    (3.0, 0.0, 0.0, 0.0)
    """
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    return float(value) if ok else 0.0


def plausible_view(view: Any) -> bool:
    """Whether ``view`` has the shape of a duel as the site shows it
    (docs/web-api.md): what the terminal reads of it, of the right types.

    >>> plausible_view({"state": "playing", "settings": {}, "players": {"host": None}})
    True
    >>> plausible_view({"state": "playing", "settings": {}, "players": {"host": [1]}})
    False
    """
    if not isinstance(view, dict) or view.get("state") not in ("waiting", "playing", "over") \
            or not isinstance(view.get("settings"), dict) \
            or not isinstance(view.get("players"), dict):
        return False
    return all(p is None or (isinstance(p, dict) and isinstance(p.get("progress", {}), dict))
               for p in view["players"].values())


class NewsOrder:
    """The order of a duel's news as the site numbers it (``seq``: 1, 2,
    3... for each duel; docs/duel.md): the duel as read (its ``seq``: the
    last news it holds) is taken unless it is older than what was heard
    already; a news is applied only if it is the next one.  One numbered
    after it means news was missed: the duel is read again instead (its
    whole state); one numbered before it is in the duel as read already.

    >>> order = NewsOrder()
    >>> order.view({"seq": 4}), order.news({"seq": 5}), order.news({"seq": 5})
    (True, 'apply', 'old')
    >>> order.news({"seq": 7}), order.seq
    ('gap', 5)
    >>> order.view({"seq": 3}), order.view({"seq": 7}), order.news({"seq": 8})
    (False, True, 'apply')
    """

    def __init__(self) -> None:
        #: the number of the last news applied (None: none read yet)
        self.seq: int | None = None

    @staticmethod
    def _number(data: dict[str, Any]) -> int | None:
        seq = data.get("seq")
        return seq if isinstance(seq, int) and not isinstance(seq, bool) else None

    def view(self, view: dict[str, Any]) -> bool:
        """Whether to take the duel as read (``view``), not older than the
        news applied; it then stands for every news up to its ``seq``."""
        seq = self._number(view)
        if seq is None:  # a site that numbers nothing: every view is taken
            return True
        if self.seq is not None and seq < self.seq:
            return False
        self.seq = seq
        return True

    def news(self, message: dict[str, Any]) -> str:
        """What to do with a news ``message``: ``apply`` it (the next one),
        leave it (``old``: the duel as read holds it), or read the duel
        again (``gap``: news was missed, or came out of order)."""
        seq = self._number(message)
        if seq is None or self.seq is None:
            return "apply"
        if seq <= self.seq:
            return "old"
        if seq != self.seq + 1:
            return "gap"
        self.seq = seq
        return "apply"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: the client talks to the link's site only."""

    max_redirections = 0  # (a redirect answers HTTPError, with its status)


class SiteClient:
    """JSON requests to the site at ``origin`` as one of its players (the
    cookie kept in the file ``cookies``: None keeps it in memory only).

    The file is lucie's (``{"format": "lucie-sites", "sites": {ORIGIN:
    COOKIE}}``, readable by the user only); a file there that is not, or
    that cannot be read or written, is left as it is and the cookie is kept
    for this run only (:attr:`problem` says why)."""

    def __init__(self, origin: str, cookies: Path | None) -> None:
        self.origin = origin
        self.cookies = cookies
        #: why the cookie is kept for this run only (None: it is kept in the file)
        self.problem: str | None = None
        self.cookie = self._stored().get(origin)
        self._opener = urllib.request.build_opener(_NoRedirect())

    # -- the cookie ------------------------------------------------------------

    def _stored(self) -> dict[str, str]:
        """The cookies in the file (none if it is not lucie's: then it is
        never written)."""
        if self.cookies is None:
            return {}
        what = _("the file of the sites' cookies")
        try:
            if examine(self.cookies, what=what) is None:
                return {}
            data = read_bytes(self.cookies, what=what, limit=MAX_SITES_BYTES)
            values = parse_json(data, what=what) if data.strip() else {"format": SITES_FORMAT}
        except LucieError as exc:
            return self._not_kept(str(exc))
        sites = values.get("sites", {}) if isinstance(values, dict) else None
        if not isinstance(values, dict) or values.get("format") != SITES_FORMAT \
                or not isinstance(sites, dict):
            return self._not_kept(_("a file of another program"))
        return {k: v for k, v in sites.items() if isinstance(k, str) and isinstance(v, str)}

    def _not_kept(self, why: str) -> dict[str, str]:
        self.problem = _("{path} is not lucie's file of the sites' cookies ({why}): it is "
                         "left as it is, and this site's cookie is kept for this run only "
                         "(set LUCIE_SITES to another file).").format(
            path=self.cookies, why=printable(why))
        self.cookies = None
        return {}

    def _keep(self, cookie: str) -> None:
        """Remember the site's new cookie, in the file too (a file that
        cannot be written keeps it for this run, and says so)."""
        self.cookie = cookie
        path = self.cookies
        if path is None:
            return
        sites = self._stored()
        if self.cookies is None:  # not lucie's (any more)
            return
        sites[self.origin] = cookie
        # a link to the file: the file it points to is written, the link stays
        target = Path(os.path.realpath(path)) if path.is_symlink() else path
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".sites-", dir=target.parent)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"format": SITES_FORMAT, "sites": sites}, out, indent=1)
                out.write("\n")
            os.replace(tmp, target)
        except OSError as exc:
            if tmp is not None:
                Path(tmp).unlink(missing_ok=True)
            self.problem = _("The site's cookie could not be kept in {path} ({error}): "
                             "it is kept for this run only.").format(path=path, error=exc)
            self.cookies = None

    def _heard_cookie(self, headers: Any) -> None:
        for header in headers.get_all("Set-Cookie") or ():
            jar: SimpleCookie = SimpleCookie()
            with contextlib.suppress(CookieError):
                jar.load(header)
            morsel = jar.get(PLAYER_COOKIE)
            if morsel is not None and morsel.value and morsel.value != self.cookie:
                self._keep(morsel.value)

    # -- requests ------------------------------------------------------------------

    def headers(self) -> dict[str, str]:
        """What each request carries: the player's cookie, the site's own
        origin (the site refuses a change from another), the language."""
        headers = {"Origin": self.origin, "Accept": "application/json",
                   "Accept-Language": i18n.language(), "User-Agent": f"lucie/{__version__}"}
        if self.cookie:
            headers["Cookie"] = f"{PLAYER_COOKIE}={self.cookie}"
        return headers

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, *,
             timeout: float = TIMEOUT) -> dict[str, Any]:
        """The site's JSON answer to ``method path`` (``body`` sent as
        JSON), within ``timeout`` seconds.  Raises :class:`SiteRefused` for
        a 4xx, :class:`SiteDown` when the site cannot be reached or its
        answer is not lucie's."""
        headers = self.headers()
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.origin + path, data=data, headers=headers,
                                         method=method)
        try:
            with self._opener.open(request, timeout=timeout) as answer:
                self._heard_cookie(answer.headers)
                return self._json(answer.read(MAX_ANSWER + 1), answer.status)
        except urllib.error.HTTPError as exc:
            with exc:
                self._heard_cookie(exc.headers)
                return self._refused(exc.code, exc.read(MAX_ANSWER + 1))
        except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", exc)
            raise SiteDown(_("the site {site} cannot be reached ({reason})").format(
                site=self.origin, reason=reason)) from None

    def _json(self, raw: bytes, status: int) -> dict[str, Any]:
        try:
            data = answer_json(raw) if len(raw) <= MAX_ANSWER else None
        except LucieError:
            data = None
        if not isinstance(data, dict):
            raise SiteDown(_("{site} answered {status} without lucie's JSON: is it a lucie "
                             "site (lucie serve)?").format(site=self.origin, status=status))
        return data

    def _refused(self, status: int, raw: bytes) -> dict[str, Any]:
        if status >= 500 or status in (300, 301, 302, 303, 307, 308):
            error = ""
            with contextlib.suppress(SiteDown):
                error = str(self._json(raw, status).get("error", ""))
            if error:
                raise SiteDown(_("the site {site} answered {status}: {error}").format(
                    site=self.origin, status=status, error=error))
            raise SiteDown(_("the site {site} answered {status}").format(
                site=self.origin, status=status))
        data = self._json(raw, status)
        message = data.get("error")
        raise SiteRefused(status, str(message) if message else str(status), data)

    def socket_url(self, path: str) -> str:
        """The ``ws://`` (or ``wss://``) address of ``path`` on the site."""
        return "ws" + self.origin.removeprefix("http") + path


# ---------------------------------------------------------------------------
# The player's game, played on the site
# ---------------------------------------------------------------------------


def mirror(state: dict[str, Any]) -> Game:
    """The game the site's ``state`` describes, rebuilt from its deal and
    moves by the engine, and checked against the site's own layout and
    legal moves (so the table offers what the site allows, no more)."""
    try:
        game = Game(Rules.parse(str(state["variant"])), int(state["deal"]))
        game.push_all([str(m) for m in state["moves"]])
        if state.get("status") == "resigned":
            game.resign()
        same = (format_layout(game.position) == state.get("layout")
                and set(move_texts(game.legal_moves)) == set(state.get("legal_moves", ())))
    except (LucieError, KeyError, TypeError, ValueError):
        same = False
    if not same:
        raise SiteMismatch(_("the site's game cannot be shown here: is the site running "
                             "another version of lucie?"))
    return game


class RemoteSession(Session):
    """The player's game of a duel on the site (see the module doc).  It
    raises :class:`~lucie.errors.MoveError` with the site's reason when
    the site refuses a change, and :class:`~lucie.session.NotSavedError`
    when it cannot be reached (nothing changed, either way)."""

    def __init__(self, client: SiteClient, state: dict[str, Any]) -> None:
        super().__init__(mirror(state))
        self.client = client
        self.page = str(state["id"])
        self.state = state
        self.result = state.get("result")
        self.practice = bool(state.get("practice"))
        #: whether the game is under way (a duel's waits for its start:
        #: its clock with it)
        self.under_way = True

    @property
    def can_undo(self) -> bool:
        return bool(self.state.get("can_undo"))

    @property
    def can_redo(self) -> bool:
        return bool(self.state.get("can_redo"))

    def seconds(self) -> float:
        """The game's time as the site keeps it."""
        return number(self.state.get("seconds"))

    def _load(self, state: dict[str, Any]) -> None:
        self._game = mirror(state)
        self.state = state
        self.result = state.get("result")
        self.practice = bool(state.get("practice"))

    def _send(self, action: str, body: dict[str, Any] | None = None) -> tuple[dict[str, Any],
                                                                               str | None]:
        """Ask the site for ``action``; its answer, and the result the game
        reached with it (None if it did not end now)."""
        was = self._game.outcome.status
        request = dict(body or {}, version=self.state.get("version"))
        try:
            try:
                data = self.client.call("POST", f"/api/games/{self.page}/{action}", request)
            except SiteRefused as exc:
                if exc.data.get("stale") and isinstance(exc.data.get("state"), dict):
                    self._load(exc.data["state"])
                    raise MoveError(str(exc), reason=_("your game changed in another window; "
                                                       "it is shown as it is now")) from None
                raise MoveError(str(exc), reason=str(exc)) from None
            self._load(data)
        except SiteMismatch as exc:  # the site's answer, not one shown here
            raise MoveError(str(exc), reason=str(exc)) from None
        except SiteDown as exc:
            raise NotSavedError(NotSent(str(exc))) from None
        now = self._game.outcome.status
        return data, now if was == "playing" and now != "playing" else None

    def _last_step(self, data: dict[str, Any]) -> Step | None:
        return self._game.steps[-1] if data.get("applied") and self._game.steps else None

    def play(self, move: Move, *, autoplay: bool = False) -> Outcome:
        data, ended = self._send("move", {"move": str(move), "autoplay": autoplay})
        return Outcome(step=self._last_step(data), ended=ended)

    def undo(self) -> Outcome:
        steps, practice = self._game.steps, self.practice
        _data, _ended = self._send("undo")
        undone = steps[-1] if steps else None
        return Outcome(undone=undone, practice=self.practice and not practice)

    def redo(self) -> Outcome:
        data, ended = self._send("redo")
        return Outcome(step=self._last_step(data), ended=ended)

    def restart(self) -> Outcome:
        self._send("restart")
        return Outcome(restarted=True)

    def resign(self) -> Outcome:
        _data, ended = self._send("resign")
        return Outcome(ended=ended or "resigned")

    def autoplay(self) -> Outcome:
        data, ended = self._send("autoplay")
        return Outcome(step=self._last_step(data), ended=ended)

    def send_home(self) -> Outcome:
        data, ended = self._send("home")
        return Outcome(step=self._last_step(data), ended=ended)

    def visible(self, shown: bool) -> None:
        """Tell the site whether the game is on the screen (its clock runs
        only while it is; a page says so every minute)."""
        with contextlib.suppress(SiteDown, SiteRefused):
            self.client.call("POST", f"/api/games/{self.page}/visibility", {"visible": shown},
                             timeout=QUICK)

    def show(self) -> None:
        if self.under_way:
            self.visible(True)

    def hide(self) -> None:
        self.visible(False)

    def counts_for_daily(self) -> bool:
        """As the site says (its answer's ``daily_counts``)."""
        return self.state.get("daily_counts") is True

    def hint_asked(self) -> None:
        """Nothing to mark here: the site marks the game when it gives a hint."""

    def save_time(self) -> None:
        """Nothing to save here: the site keeps the game's time."""

    def close(self) -> None:
        self.hide()


class NotSent(StoreError):  # noqa: N818 - says what happened
    """A change the site did not get (it cannot be reached)."""


# ---------------------------------------------------------------------------
# Joining
# ---------------------------------------------------------------------------


@dataclass(slots=True)
class DuelStart:
    """A duel joined or resumed: the link, the client, the duel as the site
    showed it, the player's game."""

    link: DuelLink
    client: SiteClient
    view: dict[str, Any]
    session: RemoteSession


def open_duel(link: DuelLink, cookies: Path | None) -> DuelStart:
    """Join the duel of ``link`` (or resume this player's side of it).
    Raises :class:`SiteRefused` (an unknown or full duel, the player's own
    duel...) and :class:`SiteDown`."""
    client = SiteClient(link.origin, cookies)
    path = f"/api/duels/{link.token}"
    view = client.call("GET", path)
    if plausible_view(view) and view.get("you") is None:
        if view.get("state") != "waiting":
            raise SiteRefused(409, _("this duel already has its two players"), view)
        view = client.call("POST", path + "/join", {})
    game = view.get("game")
    if not isinstance(game, str) or not plausible_view(view):
        raise SiteDown(_("the site's duel cannot be read here: is the site running another "
                         "version of lucie?"))
    session = RemoteSession(client, client.call("GET", f"/api/games/{game}"))
    return DuelStart(link, client, view, session)


__all__ = ["DuelLink", "DuelLinkError", "DuelStart", "NewsOrder", "NotSent", "RemoteSession",
           "SiteClient", "SiteDown", "SiteMismatch", "SiteRefused", "answer_json", "mirror",
           "number", "open_duel", "plausible_view", "sites_path"]
