"""Reading and checking what a request brings: its body, its fields and
its query parameters.  Every problem is an :class:`ApiError` (4xx)."""

from __future__ import annotations

import json
import math
from typing import Any, Final

from starlette.requests import Request

from lucie.deals import check_deal_number
from lucie.errors import LucieError
from lucie.rules import Rules
from lucie.web.errors import ApiError

#: Largest request body accepted (bytes); larger ones get 413.
MAX_BODY: Final = 256 * 1024


async def read_json(request: Request) -> Any:
    """The request body as JSON (``{}`` when empty); 413 when too large,
    400 when it is not JSON."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > MAX_BODY:
        raise ApiError(413, f"the request body is {int(length)} bytes, more than "
                            f"the {MAX_BODY} accepted")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the request body is more than the {MAX_BODY} bytes accepted")
    if not body.strip():
        return {}
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "the request body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400, f"the request body is not JSON: {exc.msg} at line {exc.lineno} "
                 f"column {exc.colno}"
        ) from None


async def read_object(request: Request) -> dict[str, Any]:
    data = await read_json(request)
    if not isinstance(data, dict):
        raise ApiError(400, "the request body must be a JSON object")
    return data


def flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"field {key!r} must be true or false")
    return value


def text_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ApiError(400, f"field {key!r} is missing or not a text")
    return value


def rules_from(value: object) -> Rules:
    if value is None or value == "":
        return Rules()
    if not isinstance(value, str):
        raise ApiError(400, "field 'variant' must be a text like 'classic' or 'trefoil,merci=on'")
    try:
        return Rules.parse(value)
    except LucieError as exc:
        raise ApiError(422, str(exc)) from None


def deal_from(value: object) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ApiError(400, "field 'deal' must be a whole number")
    try:
        return check_deal_number(value)
    except LucieError as exc:
        raise ApiError(422, str(exc)) from None


def float_param(request: Request, key: str, default: float, low: float, high: float) -> float:
    text = request.query_params.get(key)
    if text is None:
        return default
    try:
        value = float(text)
    except ValueError:
        raise ApiError(400, f"parameter {key!r} must be a number, not {text!r}") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise ApiError(400, f"parameter {key!r} must be between {low:g} and {high:g}")
    return value
