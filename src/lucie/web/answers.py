"""The web API's JSON answers, written with orjson.

A move's answer is a few kilobytes of JSON (the position, the table, the
moves): the standard library's encoder took about 60 us of it, some 5%
of a move's server CPU, orjson about 5 us (benchmarks/RESULTS.md, "The
load generator's own limit, and a third less CPU a move").  The text is
the same as Starlette's ``JSONResponse`` writes (compact, UTF-8
unescaped), with keys that are not text written as text, as
:func:`json.dumps` does.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import JSONResponse

_OPTIONS = orjson.OPT_NON_STR_KEYS


def json_bytes(content: Any) -> bytes:
    """``content`` as compact UTF-8 JSON.

    >>> json_bytes({"card": "10♥", 1: [None, True]})
    b'{"card":"10\\xe2\\x99\\xa5","1":[null,true]}'
    """
    return orjson.dumps(content, option=_OPTIONS)


class JSONAnswer(JSONResponse):
    """A JSON answer (:func:`json_bytes`), else Starlette's ``JSONResponse``."""

    def render(self, content: Any) -> bytes:
        return json_bytes(content)


__all__ = ["JSONAnswer", "json_bytes"]
