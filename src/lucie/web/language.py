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
extracts them into the same catalogue as the Python texts.  The build
(``scripts/page_catalogues.py``, run like the ``.mo`` compile) writes each
language's translations of exactly those texts, with their plural forms, to
a JSON file next to its ``lucie.mo``; the page is given that
(:func:`page_catalogue`) with the cards' names, and ``i18n.js`` chooses a
plural form with ``Intl.PluralRules`` (no rule of its own, no ``eval``).

>>> from lucie.web.language import choose
>>> choose("fr", "de-DE,de;q=0.9"), choose(None, "de-DE,de;q=0.9"), choose("xx", None)
('fr', 'de', 'en')
"""

from __future__ import annotations

import functools
import json
import logging
from typing import Any, Final

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from lucie.cards import DECK, RANKS, SUITS, card_name, rank_label, suit_name
from lucie.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, negotiate, normalize, using
from lucie.web.headers import with_headers

#: The cookie that remembers the language chosen in the page's menu.
COOKIE: Final = "lucie_lang"


@functools.lru_cache(maxsize=1024)
def choose(cookie: str | None, accept_language: str | None) -> str:
    """The language of a request: the cookie's if lucie speaks it, else
    the best of the ``Accept-Language`` header, else English (the few
    pairs a site's browsers send are worked out once each)."""
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


# -- the page's catalogue ----------------------------------------------------------

#: The file the build writes next to each language's ``lucie.mo``
#: (``scripts/page_catalogues.py``).
PAGE_CATALOGUE: Final = "page.json"

#: English's page catalogue: the source texts need no translation, and
#: ``Intl.PluralRules`` says ``one`` for 1 and ``other`` for every other count.
ENGLISH: Final[dict[str, Any]] = {"nplurals": 2, "plural_index": {"one": 0, "other": 1},
                                  "messages": {}, "plurals": {}}

_log = logging.getLogger(__name__)


def built_catalogue(language: str) -> dict[str, Any]:
    """The page's texts in ``language`` as the build wrote them (English's
    are the source; a language whose file is missing falls back to them,
    as gettext does without a ``.mo``)."""
    if language == DEFAULT:
        return dict(ENGLISH)
    path = LOCALE_DIR / language / "LC_MESSAGES" / PAGE_CATALOGUE
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        _log.warning("%s is missing (build the package or run scripts/translations): "
                     "the page speaks English", path)
        return dict(ENGLISH)
    return data


@functools.cache
def page_catalogue(language: str) -> dict[str, Any]:
    """What the page's JavaScript needs to speak ``language``: the built
    catalogue (:func:`built_catalogue`: ``messages``, each counted text's
    forms in ``plurals``, ``nplurals`` and ``plural_index``, the form of
    each ``Intl.PluralRules`` category), every card's name in words
    (``cards``, by code) and the face letters of the cards' corners
    (``ranks``, by rank letter: :func:`lucie.cards.rank_label`) and the
    suits' names as they name a foundation (``suits``, by suit letter:
    :func:`lucie.cards.suit_name`)."""
    language = normalize(language) or DEFAULT
    data = built_catalogue(language)
    with using(language):
        cards = {str(card): card_name(card) for card in DECK}
        ranks = {RANKS[rank - 1]: rank_label(rank) for rank in (1, 11, 12, 13)}
        suits = {suit: suit_name(i) for i, suit in enumerate(SUITS)}
    return {**data, "language": language, "languages": LANGUAGES, "cards": cards,
            "ranks": ranks, "suits": suits}


__all__ = ["COOKIE", "ENGLISH", "LanguageMiddleware", "built_catalogue", "choose",
           "page_catalogue", "request_language"]
