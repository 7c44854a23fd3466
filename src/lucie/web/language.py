"""The page's language: chosen per request, never process-wide.

A request speaks the language of the ``lucie_lang`` cookie (set by the
page's language menu) if it names one lucie speaks, else the best of its
``Accept-Language`` header (:func:`lucie.i18n.negotiate`).
:class:`LanguageMiddleware` runs every request inside
:func:`lucie.i18n.using`, so the API's refusals, the solver's hints (the
language goes with the job to the worker process) and the page itself come
out in that language.

The page's JavaScript marks its own texts with ``_("...")``,
``ngettext("...", "...", n)`` and ``pgettext("context", "...")``; Babel
extracts them into the same catalogue as the Python texts.  The page is
given its language's strings for exactly those texts
(:func:`page_catalogue`), taken from the compiled gettext catalogue, with
the catalogue's plural rule (the C expression of its ``Plural-Forms``
header), which ``i18n.js`` evaluates with a small parser of its own (no
``eval``: the page's Content-Security-Policy forbids it).

>>> from lucie.web.language import choose
>>> choose("fr", "de-DE,de;q=0.9"), choose(None, "de-DE,de;q=0.9"), choose("xx", None)
('fr', 'de', 'en')
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Final

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from lucie.cards import DECK, RANKS, card_name, rank_label
from lucie.i18n import LANGUAGES, negotiate, normalize, translations, using
from lucie.web.headers import with_headers

#: The cookie that remembers the language chosen in the page's menu.
COOKIE: Final = "lucie_lang"

STATIC: Final = Path(__file__).with_name("static")

#: English's plural rule (the source texts), the fallback of any catalogue.
ENGLISH_PLURAL: Final = "(n != 1)"


def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request: the cookie's if lucie speaks it, else
    the best of the ``Accept-Language`` header, else English."""
    chosen = normalize(cookie) if cookie and len(cookie) <= 20 else None
    return chosen or negotiate(accept_language)


def request_language(conn: HTTPConnection) -> str:
    """The language of a request (see :func:`choose`); the middleware
    keeps it in ``request.state.language``."""
    known = getattr(conn.state, "language", None)
    if isinstance(known, str):
        return known
    return choose(conn.cookies.get(COOKIE), conn.headers.get("accept-language"))


class LanguageMiddleware:
    """Runs each HTTP request inside :func:`lucie.i18n.using` its language,
    and tells caches the answer depends on the cookie and the header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        language = choose(conn.cookies.get(COOKIE), conn.headers.get("accept-language"))
        scope.setdefault("state", {})["language"] = language

        headers = ((b"vary", b"Accept-Language, Cookie"),
                   (b"content-language", language.encode("ascii")))
        with using(language):
            await self.app(scope, receive, with_headers(send, headers))


# -- the JavaScript's texts ---------------------------------------------------------

# A JavaScript string in double quotes (the page's texts are written so).
_STRING: Final = r'"((?:[^"\\\n]|\\.)*)"'
_CALL: Final = re.compile(
    r"(?<![\w$.])(?P<fn>_|N_|gettext|ngettext|pgettext)\(\s*" + _STRING
    + r"(?:\s*,\s*" + _STRING + r")?"
)


# Comments Babel skips: whole-line ``//`` comments and ``/* ... */`` (the
# page's scripts write no other kind where a marked text could hide).
_COMMENT: Final = re.compile(r"^[ \t]*//[^\n]*|/\*.*?\*/", re.M | re.S)


def _js_text(literal: str) -> str:
    """A JavaScript string literal's text (the escapes JSON shares)."""
    text: str = json.loads('"' + literal + '"')
    return text


@functools.cache
def js_messages(directory: Path = STATIC) -> tuple[frozenset[str], frozenset[str]]:
    """The texts the page's JavaScript marks: ``(messages, plurals)``, the
    msgids of ``_``/``N_``/``pgettext`` (a context joined to its text by
    ``"\\x04"``, as gettext keys them) and the singular msgids of
    ``ngettext``.  ``tests/web/test_i18n_catalogue.py`` checks this finds
    what Babel extracts from the same files."""
    messages: set[str] = set()
    plurals: set[str] = set()
    for path in sorted(directory.glob("*.js")):
        code = _COMMENT.sub("", path.read_text(encoding="utf-8"))
        for found in _CALL.finditer(code):
            fn, first, second = found["fn"], found.group(2), found.group(3)
            if fn == "ngettext":
                plurals.add(_js_text(first))
            elif fn == "pgettext":
                if second is not None:  # else not a text Babel extracts either
                    messages.add(_js_text(first) + "\x04" + _js_text(second))
            else:
                messages.add(_js_text(first))
    return frozenset(messages), frozenset(plurals)


def _plural_rule(info: dict[str, str]) -> tuple[int, str]:
    """``(nplurals, expression)`` of a catalogue's ``Plural-Forms`` header."""
    header = info.get("plural-forms", "")
    count = re.search(r"nplurals\s*=\s*(\d+)", header)
    rule = re.search(r"plural\s*=\s*([^;]+)", header)
    if count is None or rule is None:
        return 2, ENGLISH_PLURAL
    return int(count.group(1)), rule.group(1).strip()


@functools.cache
def page_catalogue(language: str) -> dict[str, Any]:
    """What the page's JavaScript needs to speak ``language``: its texts'
    translations (``messages``; ``plurals``: each counted text's forms, in
    the catalogue's order), the plural rule (``plural``, a C expression of
    ``n``), every card's name in words (``cards``, by code) and the face
    letters of the cards' corners (``ranks``, by rank letter:
    :func:`lucie.cards.rank_label`).  English
    gives no translations: the source texts are English."""
    language = normalize(language) or "en"
    catalogue = translations(language)
    messages, plurals = js_messages()
    nplurals, rule = _plural_rule(catalogue.info())
    # the compiled catalogue's entries: a text, or (singular, form index)
    entries: dict[Any, str] = getattr(catalogue, "_catalog", {})
    found: dict[str, str] = {}
    for msgid in sorted(messages):
        text = entries.get(msgid)
        if text:
            found[msgid] = text
    forms: dict[str, list[str]] = {}
    for singular in sorted(plurals):
        texts = [entries.get((singular, i), "") for i in range(nplurals)]
        if all(texts):
            forms[singular] = texts
    with using(language):
        cards = {str(card): card_name(card) for card in DECK}
        ranks = {RANKS[rank - 1]: rank_label(rank) for rank in (1, 11, 12, 13)}
    return {"language": language, "languages": LANGUAGES, "plural": rule,
            "nplurals": nplurals, "messages": found, "plurals": forms, "cards": cards,
            "ranks": ranks}


__all__ = ["COOKIE", "LanguageMiddleware", "choose", "js_messages", "page_catalogue",
           "request_language"]
