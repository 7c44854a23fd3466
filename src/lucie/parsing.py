"""The one reader of numbers and the one reader of JSON documents.

Every number a user gives lucie (a deal number, a setting such as
``cells=4``, a limit, a sample count) goes through :func:`parse_int`, and
every JSON document (a saved game, an HTTP body, a cache file) through
:func:`parse_json`.  Both accept only what they document and raise a
:class:`~lucie.errors.LucieError` (or the subclass asked for) whose message
names the problem and quotes at most a short excerpt of the bad input.

This module sits below everything else: it imports nothing of lucie's but
the errors and the translations (:mod:`lucie.i18n`).  The messages are in
the language in use; *what* is the caller's, translated by the caller.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, Final

from lucie.errors import LucieError
from lucie.i18n import _

#: A UTF-8 byte-order mark, as some editors write it at the start of a file.
BOM: Final = "\ufeff"

#: The longest excerpt of bad input an error message quotes.
EXCERPT: Final = 40

#: How deeply JSON arrays and objects may nest in a document lucie reads.
MAX_DEPTH: Final = 32

_DIGITS: Final = re.compile(r"[0-9]+", re.ASCII)


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """``repr`` of a value, cut to about *limit* characters.

    >>> excerpt("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (100 characters)"
    >>> excerpt(7)
    '7'
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[: limit - 1]!r}"[:-1] + f"...' ({len(value)} characters)"
    text = repr(value)
    if len(text) > limit:
        return text[: limit - 3] + "..."
    return text


#: Characters :func:`printable` leaves as they are although their category
#: is a format one: the zero-width joiner of emoji sequences.
_KEPT_FORMAT: Final = frozenset("\u200d")


def printable(text: str) -> str:
    """*text* with every control character escaped (``\\x1b``,
    ``\\u202e``...), for printing a name or a text that comes from the
    store or a file: an escape sequence stored in a player's name must not
    reach the terminal.  Letters, marks, symbols and emoji are kept.

    >>> printable("ann\\x1b[2J")
    'ann\\\\x1b[2J'
    >>> printable("Zoë 🂡")
    'Zoë 🂡'
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " " or ch in _KEPT_FORMAT or (
            unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
        ):
            out.append(ch)
        else:
            out.append(ascii(ch)[1:-1])
    return "".join(out)


def parse_int(
    value: object,
    *,
    what: str,
    low: int,
    high: int,
    error: type[LucieError] = LucieError,
) -> int:
    """Read a whole number between *low* and *high* (inclusive).

    *value* is a Python ``int`` (not a ``bool``) or text of ASCII digits,
    with surrounding blanks allowed and a leading ``-`` only when *low* is
    negative.  Anything else (Unicode digits, ``1e3``, ``--5``, ``+5``,
    ``5.0``, text longer than the bound can need) raises *error* with a
    message that names *what* and the bounds.

    >>> parse_int("17", what="deal number", low=1, high=100)
    17
    >>> parse_int(" 3 ", what="cells", low=0, high=8)
    3
    >>> parse_int("²", what="deal number", low=1, high=100)
    Traceback (most recent call last):
    ...
    lucie.errors.LucieError: deal number '²' is not a whole number from 1 to 100
    >>> parse_int("101", what="deal number", low=1, high=100)
    Traceback (most recent call last):
    ...
    lucie.errors.LucieError: deal number 101 is out of range (1 to 100)
    """
    number: int
    if isinstance(value, bool):
        raise error(_not_whole(what, value, low, high))
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        digits = text[1:] if text.startswith("-") and low < 0 else text
        longest = max(len(str(abs(low))), len(str(abs(high))))
        if not _DIGITS.fullmatch(digits) or len(digits) > longest + 4:
            raise error(_not_whole(what, value, low, high))
        number = int(text)
    else:
        raise error(_not_whole(what, value, low, high))
    if not low <= number <= high:
        raise error(_("{what} {value} is out of range ({low} to {high})").format(
            what=what, value=excerpt(number), low=low, high=high
        ))
    return number


def _not_whole(what: str, value: object, low: int, high: int) -> str:
    return _("{what} {value} is not a whole number from {low} to {high}").format(
        what=what, value=excerpt(value), low=low, high=high
    )


_DECIMAL: Final = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)

#: The most digits after the point :func:`parse_seconds` reads.
FRACTION_DIGITS: Final = 9


def parse_seconds(
    value: object,
    *,
    what: str,
    low: float,
    high: float,
    error: type[LucieError] = LucieError,
) -> float:
    """Read a number of seconds between *low* and *high* (inclusive).

    *value* is a Python ``int`` or ``float`` (finite) or text of ASCII
    digits with an optional fraction (``2``, ``0.5``, ``.5``, ``2.``),
    blanks around it allowed.  No sign, no exponent (``1e30``), no ``nan``
    or ``inf``, at most :data:`FRACTION_DIGITS` digits after the point.

    >>> parse_seconds("0.25", what="--seconds", low=0.001, high=60)
    0.25
    >>> parse_seconds("1e30", what="--seconds", low=0.001, high=60)
    Traceback (most recent call last):
    ...
    lucie.errors.LucieError: --seconds '1e30' is not a number of seconds from 0.001 to 60
    """
    bad = _("{what} {value} is not a number of seconds from {low} to {high}").format(
        what=what, value=excerpt(value), low=f"{low:g}", high=f"{high:g}"
    )
    number: float
    if isinstance(value, bool):
        raise error(bad)
    if isinstance(value, int | float):
        number = float(value)
        if number != number or number in (float("inf"), float("-inf")):
            raise error(bad)
    elif isinstance(value, str):
        text = value.strip()
        whole, _point, fraction = text.partition(".")
        longest = len(str(int(high))) + 4
        if (
            not _DECIMAL.fullmatch(text)
            or len(whole) > longest
            or len(fraction) > FRACTION_DIGITS
        ):
            raise error(bad)
        number = float(text)
    else:
        raise error(bad)
    if not low <= number <= high:
        raise error(_("{what} {value} is out of range (from {low} to {high} seconds)").format(
            what=what, value=excerpt(value), low=f"{low:g}", high=f"{high:g}"
        ))
    return number


def strip_bom(text: str) -> str:
    """*text* without a leading UTF-8 byte-order mark.

    >>> strip_bom("\\ufeffKH 2S")
    'KH 2S'
    """
    return text[1:] if text.startswith(BOM) else text


#: A backslash and the character it escapes.
_ESCAPE: Final = re.compile(r"\\.", re.DOTALL)
#: What is left of a text without its strings that is not a bracket.
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings (the strings and
    everything but the brackets taken out first, then one step a bracket:
    a saved game of 100 moves has a few).  The escapes taken out, no
    string holds a quote: what lies between every other pair of quotes is
    the text outside the strings.  (A backslash outside a string, which
    no JSON holds, is taken as an escape there too: such a text is refused
    all the same.)

    >>> _depth('{"a": [1, "[[[", {"b": "\\\\"}]}'), _depth('"]{[') , _depth("[]]][[")
    (3, 0, 1)
    """
    if "\\" in text:
        text = _ESCAPE.sub("", text)
    outside = "".join(text.split('"')[::2])
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", outside):
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(_("{name} is not allowed in JSON").format(name=name))


def parse_json(
    data: str | bytes,
    *,
    what: str,
    error: type[LucieError] = LucieError,
    max_depth: int = MAX_DEPTH,
) -> Any:
    """Read one JSON document (a saved game, an HTTP body, a cache entry).

    Accepts ``str`` or UTF-8 ``bytes``, with or without a byte-order mark.
    Invalid UTF-8, invalid JSON, ``NaN``/``Infinity``, numbers too long to
    be meant, and nesting deeper than *max_depth* raise *error* naming
    *what*; nothing here can raise ``RecursionError``.

    >>> parse_json(b'\\xef\\xbb\\xbf{"version": 1}', what="saved game")
    {'version': 1}
    >>> parse_json("[" * 100 + "]" * 100, what="request body")
    Traceback (most recent call last):
    ...
    lucie.errors.LucieError: request body nests deeper than 32 levels
    """
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise error(_("{what} is not UTF-8 text").format(what=what)) from None
    else:
        text = data
    text = strip_bom(text)
    if not text.strip():
        raise error(_("{what} is empty").format(what=what))
    if _depth(text) > max_depth:
        raise error(_("{what} nests deeper than {depth} levels").format(
            what=what, depth=max_depth
        ))
    try:
        return json.loads(
            text,
            parse_constant=_no_constant,
            parse_int=_bounded_int,
        )
    except (ValueError, RecursionError) as exc:
        message = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise error(_("{what} is not valid JSON ({problem})").format(
            what=what, problem=message
        )) from None


def _bounded_int(text: str) -> int:
    if len(text) > 40:
        raise ValueError(_("a number of {n} digits").format(n=len(text)))
    return int(text)
