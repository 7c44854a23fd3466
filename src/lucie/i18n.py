"""Translations: every text a player reads, in English, French, Dutch or German.

The texts are marked in the source with :func:`_` (and :func:`ngettext` where
a number decides the form, :func:`pgettext` where one English word needs two
translations).  Babel extracts them into ``locale/lucie.pot``; the catalogues
``locale/<code>/LC_MESSAGES/lucie.po`` hold the translations and are compiled
to ``.mo`` files when the package is built (``make translations`` does it in a
checkout).  At run time only the standard :mod:`gettext` module is used.

The language is process-wide for the command line and the terminal game
(:func:`set_language`), and per request or per job in the web server
(:func:`using`, a context variable, so two players can read two languages at
once).  Library code that never chooses a language speaks English:

>>> _("fans build down in suit")
'fans build down in suit'
>>> with using("fr"):
...     _("fans build down in suit")
'les éventails se construisent en descendant dans la même couleur'

Texts that must be marked where they are defined but translated only where
they are shown (a table of phrases, a variant's title) are marked with
:func:`N_`, which returns its argument unchanged.

Numbers shown to people follow the language too (:func:`format_number`,
:func:`format_percent`, :func:`format_seconds`): a decimal comma in French,
Dutch and German, a no-break space before ``%`` in French and German.
They use Babel's number formatting (``babel.numbers``, a dependency of the
package for its command line), imported when a number is first shown, so
the engine and the solver, which only mark texts, load nothing beyond the
standard library and pysol-cards to play and to search:

>>> format_percent(0.098, 1), format_number(2.5, 1)
('9.8%', '2.5')
>>> with using("fr"):
...     format_percent(0.098, 1), format_number(2.5, 1)
('9,8\xa0%', '2,5')
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path

DOMAIN = "lucie"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

#: The languages lucie speaks, each named in its own language.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "fr": "Français",
    "nl": "Nederlands",
    "de": "Deutsch",
}
DEFAULT = "en"
#: The languages lucie is translated into (each but the default), in the
#: order of :data:`LANGUAGES`: the catalogues, the tests, the translation script.
TRANSLATED: tuple[str, ...] = tuple(code for code in LANGUAGES if code != DEFAULT)

_process_language = DEFAULT
_request_language: ContextVar[str | None] = ContextVar("lucie_language", default=None)


def normalize(code: str | None) -> str | None:
    """The language lucie speaks for a locale or language code, or None.

    >>> normalize("fr_FR.UTF-8"), normalize("de-CH"), normalize("NL")
    ('fr', 'de', 'nl')
    >>> normalize("C.UTF-8") is None, normalize("it_IT") is None
    (True, True)
    """
    if not code:
        return None
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the user's locale, looked up as gettext does:
    ``LANGUAGE`` (a colon-separated list), then ``LC_ALL``, ``LC_MESSAGES``
    and ``LANG``; English if none names a language lucie speaks.

    >>> from_environment({"LANGUAGE": "it:nl", "LANG": "fr_FR.UTF-8"})
    'nl'
    >>> from_environment({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
    'en'
    """
    env = os.environ if environ is None else environ
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            for part in value.split(":"):
                if (found := normalize(part)) is not None:
                    return found
            continue
        # the first of LC_ALL, LC_MESSAGES, LANG that is set decides
        return normalize(value) or DEFAULT
    return DEFAULT


def negotiate(accept_language: str | None) -> str:
    """The best language for an HTTP ``Accept-Language`` header.

    >>> negotiate("de-CH, fr;q=0.9, en;q=0.8")
    'de'
    >>> negotiate("it, nl;q=0.5, fr;q=0.7")
    'fr'
    >>> negotiate("*;q=0.5, xx"), negotiate(None)
    ('en', 'en')
    """
    best, best_q = DEFAULT, 0.0
    for position, item in enumerate((accept_language or "").split(",")[:50]):
        code, _sep, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        found = normalize(code)
        # earlier entries win ties, as the header lists them by preference
        if found is not None and q > best_q and 0.0 < q <= 1.0:
            best, best_q = found, q - position * 1e-6
    return best


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``language`` (English falls back to the
    source texts, as does any text a catalogue lacks)."""
    if language == DEFAULT or language not in LANGUAGES:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def set_language(language: str | None) -> str:
    """Set the process's language (None or an unknown code: English) and
    return the code in use."""
    global _process_language
    _process_language = normalize(language) or DEFAULT
    return _process_language


def language() -> str:
    """The language in use here: the current request's, else the process's."""
    return _request_language.get() or _process_language


@contextmanager
def using(language: str | None) -> Iterator[str]:
    """Speak ``language`` inside the block (this thread or task only)."""
    token = _request_language.set(normalize(language) or DEFAULT)
    try:
        yield _request_language.get() or DEFAULT
    finally:
        _request_language.reset(token)


def _(message: str) -> str:
    """``message`` in the language in use."""
    return translations(language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in use."""
    return translations(language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context``, in the language in use."""
    return translations(language()).pgettext(context, message)


def _pattern(kind: str, digits: int) -> tuple[str, str]:
    """Babel's locale of the language in use and its pattern for ``kind``
    (``decimal`` or ``percent``) with exactly ``digits`` decimals."""
    from babel import Locale

    locale = Locale.parse(language())
    formats = locale.percent_formats if kind == "percent" else locale.decimal_formats
    pattern = formats[None].pattern.split(";")[0]
    decimals = "." + "0" * digits if digits > 0 else ""
    # the integer part of the pattern ("#,##0") then the wanted decimals
    head, zero, tail = pattern.rpartition("0")
    tail = tail.lstrip(".#0")
    return str(locale), f"{head}{zero}{decimals}{tail}"


def format_number(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals in the language in use:
    ``2.5`` in English, ``2,5`` in French, Dutch and German; thousands
    grouped as the language groups them."""
    from babel.numbers import format_decimal

    locale, pattern = _pattern("decimal", digits)
    return str(format_decimal(value, format=pattern, locale=locale))


def format_percent(fraction: float, digits: int = 0) -> str:
    """A fraction (0.098) as a percentage with ``digits`` decimals in the
    language in use: ``9.8%``, ``9,8 %`` in French and German (a no-break
    space), ``9,8%`` in Dutch."""
    from babel.numbers import format_percent as babel_percent

    locale, pattern = _pattern("percent", digits)
    return str(babel_percent(fraction, format=pattern, locale=locale))


def format_seconds(seconds: float, digits: int = 1) -> str:
    """A time in seconds with its unit, in the language in use:
    ``2.5 s``, ``2,5 s`` (a no-break space before the unit)."""
    return format_number(seconds, digits) + "\u00a0s"


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for translation where it is shown, not here."""
    return message
