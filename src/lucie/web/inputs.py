"""Reading and checking what a request brings: its body, its fields and
its query parameters.  Every problem is an :class:`ApiError` (4xx)."""

from __future__ import annotations

import functools
import math
import re
import secrets
from typing import Any, Final

from starlette.requests import Request

from lucie.daily import daily_date
from lucie.deals import MAX_DEAL, check_deal_number
from lucie.errors import LucieError
from lucie.i18n import _
from lucie.parsing import excerpt, parse_int, parse_json
from lucie.rules import Rules
from lucie.web.errors import ApiError

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY: Final = 256 * 1024


async def read_body(request: Request) -> bytes:
    """The whole request body, read once (later calls get it again); 413
    when it is larger than :data:`MAX_BODY`."""
    cached = getattr(request.state, "body", None)
    if isinstance(cached, bytes):
        return cached
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, _("the request body is {size} bytes, more than the {most} "
                              "accepted").format(size=excerpt(length), most=MAX_BODY))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, _("the request body is more than the {most} bytes "
                                  "accepted").format(most=MAX_BODY))
    data = bytes(body)
    request.state.body = data
    return data


#: ``Sec-Fetch-Site`` values of a request the page itself made.
_OWN_SITE: Final = ("same-origin", "none")


def check_same_origin(request: Request) -> None:
    """403 when ``Sec-Fetch-Site`` says another site made the request, or
    ``Origin`` is not this server (a request without either, from a program
    rather than a browser, passes)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in _OWN_SITE:
        raise ApiError(403, _("refused: a request from another site ({site})").format(
            site=excerpt(site)))
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        parts = origin.strip().lower().split("://", 1)
        if (len(parts) != 2 or parts[0] not in ("http", "https")
                or parts[1].rstrip("/") != host.strip().lower()):
            raise ApiError(403, _("refused: a request from another origin ({origin})").format(
                origin=excerpt(origin)))


def check_post(request: Request) -> None:
    """A state-changing request is accepted only as JSON from the page's own
    origin: 415 for another content type (a form or ``text/plain`` post,
    which another site may send without asking), 403 when
    :func:`check_same_origin` refuses it."""
    check_same_origin(request)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        shown = excerpt(kind) if kind else _("none")
        raise ApiError(415, _("the request body must be sent as application/json "
                              "(content type: {kind})").format(kind=shown))


#: The cookie that tells the page's requests apart from other clients'
#: (set with the page: :func:`client_cookie`).
CLIENT_COOKIE: Final = "lucie_client"

_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}", re.ASCII)


def client_key(request: Request) -> str:
    """Who asks, for the solver's fair shares: the page's ``lucie_client``
    cookie (a browser's page), else the client's address."""
    token = request.cookies.get(CLIENT_COOKIE, "")
    if _TOKEN.fullmatch(token):
        return "page:" + token
    return "address:" + (request.client.host if request.client is not None else "")


def client_cookie(request: Request) -> str | None:
    """A new ``lucie_client`` cookie's value for a page sent to a browser
    that has none (None when it has one)."""
    if _TOKEN.fullmatch(request.cookies.get(CLIENT_COOKIE, "")):
        return None
    return secrets.token_urlsafe(18)


async def read_json(request: Request) -> Any:
    """The request body as JSON (``{}`` when empty); 413 when too large,
    400 when it is not JSON (or nests too deeply, or is not UTF-8)."""
    body = await read_body(request)
    if not body.strip():
        return {}
    try:
        return parse_json(body, what=_("the request body"))
    except LucieError as exc:
        raise ApiError(400, str(exc)) from None


async def read_object(request: Request) -> dict[str, Any]:
    data = await read_json(request)
    if not isinstance(data, dict):
        raise ApiError(400, _("the request body must be a JSON object"))
    return data


def flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, _("field {key} must be true or false").format(key=repr(key)))
    return value


def text_field(data: dict[str, Any], key: str, longest: int = 100) -> str:
    """Field *key*: a non-blank text of at most *longest* characters (a
    move, a card, a fan letter)."""
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, _("field {key} is missing or not a text").format(key=repr(key)))
    if len(value) > longest:
        raise ApiError(400, _("field {key} is too long: {value}").format(
            key=repr(key), value=excerpt(value)))
    return value


def rules_from(value: object) -> Rules:
    if value is None or value == "":
        return Rules()
    if not isinstance(value, str):
        raise ApiError(400, _("field 'variant' must be a text like 'classic' or "
                              "'trefoil,merci=on'"))
    if len(value) > 200:
        raise ApiError(422, _("unknown variant {name}").format(name=excerpt(value)))
    try:
        return Rules.parse(value)
    except LucieError as exc:
        raise ApiError(422, str(exc)) from None
    except ValueError:  # a setting Rules.parse does not check itself
        raise ApiError(422, _("variant {name} has a setting that is not a whole "
                              "number").format(name=excerpt(value))) from None


def deal_from(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(400, _("field 'deal' must be a whole number"))
    try:
        return check_deal_number(value)
    except LucieError:
        # said to a person, not in the engine's terms (the CLI keeps those)
        raise ApiError(422, _("{value} is not a deal number: deals are numbered with whole "
                              "numbers from 1 to {most}.").format(
            value=excerpt(value.strip() if isinstance(value, str) else value),
            most=MAX_DEAL)) from None


_DECIMAL: Final = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", re.ASCII)


def float_param(request: Request, key: str, default: float, low: float, high: float) -> float:
    """Query parameter *key* as a number from *low* to *high* (seconds)."""
    text = request.query_params.get(key)
    if text is None:
        return default
    # ASCII decimals only: float() would also take "+5", "1_0", "٣" and "1e3"
    value = float(text) if len(text) <= 20 and _DECIMAL.fullmatch(text.strip()) else math.nan
    if not math.isfinite(value):
        raise ApiError(400, _("parameter {key} must be a number, not {value}").format(
            key=repr(key), value=excerpt(text)))
    if not low <= value <= high:
        raise ApiError(400, _("parameter {key} must be between {low} and {high}").format(
            key=repr(key), low=f"{low:g}", high=f"{high:g}"))
    return value


def int_param(request: Request, key: str, default: int, low: int, high: int) -> int:
    """Query parameter *key* as a whole number from *low* to *high*."""
    text = request.query_params.get(key)
    if text is None:
        return default
    try:
        return parse_int(text, what=_("parameter {key}").format(key=repr(key)), low=low,
                         high=high)
    except LucieError as exc:
        raise ApiError(400, str(exc)) from None


#: The difficulties a new game may ask for (:mod:`lucie.analysis.difficulty`).
DIFFICULTIES: Final = ("clearable", "easy", "medium", "hard")


def difficulty_from(value: object) -> str | None:
    """Field ``difficulty``: one of :data:`DIFFICULTIES`, or None for any deal."""
    if value is None or value in ("", "any"):
        return None
    if not isinstance(value, str) or value not in DIFFICULTIES:
        shown = excerpt(value) if isinstance(value, str) else type(value).__name__
        raise ApiError(400, _("field 'difficulty' must be one of any, {names} (not "
                              "{value})").format(names=", ".join(DIFFICULTIES), value=shown))
    return value


def int_param_text(text: str, what: str) -> int:
    """A path part as a positive whole number (a game's number in the store)."""
    try:
        return parse_int(text, what=what, low=1, high=2**63 - 1)
    except LucieError as exc:
        raise ApiError(400, str(exc)) from None


@functools.lru_cache(maxsize=256)
def _rules(spec: str) -> Rules | None:
    try:
        return Rules.parse(spec)
    except LucieError:
        return None


def daily_mark(row: dict[str, Any]) -> str | None:
    """The date (``YYYY-MM-DD``, UTC) of which a stored game played the deal
    of the day (:func:`lucie.daily.daily_date`); else None."""
    started, deal, spec = row.get("started"), row.get("deal"), row.get("variant")
    if not (isinstance(started, str) and isinstance(deal, int) and isinstance(spec, str)):
        return None
    rules = _rules(spec)
    day = None if rules is None else daily_date(rules, deal, started)
    return None if day is None else day.isoformat()
