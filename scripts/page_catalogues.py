"""Build step: the browser page's catalogue of each language, as JSON.

The page's JavaScript (``src/lucie/web/static/*.js``, ES modules) marks its
texts with ``_("...")``, ``ngettext("...", "...", n)``, ``pgettext("context",
"...")`` and ``N_("...")``; Babel's own JavaScript extractor finds them, as
``make translations`` does for ``lucie.pot`` (``babel.cfg``: the same files,
the same keywords).  For each ``src/lucie/locale/<code>/LC_MESSAGES/lucie.po``
this writes ``page.json`` next to it, holding exactly those texts' translations
and the plural forms, which the server puts in the page
(:func:`lucie.web.language.page_catalogue`)::

    {"language": "fr", "nplurals": 3,
     "plural_index": {"one": 0, "many": 1, "other": 2},
     "messages": {"Hint: {text}": "Indice : {text}", "button\\u0004Review": ...},
     "plurals": {"{n} mistake": ["{n} erreur", "{n} erreurs", "{n} erreurs"]}}

``messages`` is keyed as gettext keys a text (a context joined to it by
``"\\x04"``); ``plurals`` by the singular, with every form in the
catalogue's order.  The browser chooses a form with ``Intl.PluralRules``:
``plural_index`` maps each CLDR category it may answer to the index of the
catalogue's form, found by running the catalogue's own ``Plural-Forms`` rule
(through :mod:`gettext`) beside Babel's CLDR rule of the language on many
numbers; the build fails if the two disagree.

Run by ``scripts/translations`` (so by ``make translations`` and ``make
test``) and by the package's build (``setup.py``, like the ``.mo``).  The
files are build outputs, not in git; ``tests/test_i18n.py`` checks they are
current.  ``python scripts/page_catalogues.py`` writes them all.
"""

from __future__ import annotations

import gettext
import io
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "lucie" / "web" / "static"
LOCALE = ROOT / "src" / "lucie" / "locale"
#: The file written next to each lucie.po.
NAME = "page.json"

#: The keywords of ``scripts/translations`` (Babel's defaults, ``N_``,
#: ``pgettext`` with its context first, ``ngettext`` with two texts).
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "N_": None, "pgettext": ((1, "c"), 2),
                            "ngettext": (1, 2)}

#: The numbers both plural rules are run on: every count up to 1000, and
#: the large round ones some languages set apart (French's millions).
SAMPLES = (*range(1001), 1_000_000, 1_000_001, 2_000_000, 10_000_000, 1_000_000_000)


def page_texts(static: Path = STATIC) -> tuple[set[str], set[str]]:
    """The texts the page's JavaScript marks, as Babel's extractor finds
    them: ``(messages, plurals)``, the gettext keys of the texts
    (``context + "\\x04" + text`` for a ``pgettext``) and the singulars of
    the counted texts (``ngettext``)."""
    messages: set[str] = set()
    plurals: set[str] = set()
    for path in sorted(static.glob("*.js")):
        for _line, message, _comments, context in extract_from_file(
                "javascript", path, keywords=KEYWORDS):
            if isinstance(message, tuple):
                plurals.add(message[0])
            else:
                messages.add(message if context is None else f"{context}\x04{message}")
    return messages, plurals


def plural_index(catalogue: Catalog) -> dict[str, int]:
    """Each CLDR plural category of the catalogue's language (what
    ``Intl.PluralRules`` answers) to the index of the catalogue's form for
    it, checked on :data:`SAMPLES`."""
    # the catalogue's own rule, run by gettext: a probe whose forms are their indices
    probe = Catalog(locale=catalogue.locale)
    probe.mime_headers = catalogue.mime_headers
    probe.add(("probe", "probes"), tuple(str(k) for k in range(catalogue.num_plurals)))
    compiled = io.BytesIO()
    write_mo(compiled, probe)
    compiled.seek(0)
    rule = gettext.GNUTranslations(compiled)
    cldr = Locale.parse(str(catalogue.locale)).plural_form
    index: dict[str, int] = {}
    for n in SAMPLES:
        category, k = cldr(n), int(rule.ngettext("probe", "probes", n))
        if index.setdefault(category, k) != k:
            raise ValueError(f"{catalogue.locale}: the catalogue's Plural-Forms and CLDR "
                             f"disagree at n={n} (CLDR {category!r}: forms "
                             f"{index[category]} and {k})")
    if sorted(set(index.values())) != list(range(catalogue.num_plurals)):
        raise ValueError(f"{catalogue.locale}: CLDR's categories {index} do not reach the "
                         f"catalogue's {catalogue.num_plurals} plural forms")
    return dict(sorted(index.items(), key=lambda item: item[1]))


def page_catalogue(po: Path, static: Path = STATIC) -> dict[str, Any]:
    """The page's catalogue of one language's ``lucie.po``."""
    with po.open("rb") as source:
        catalogue = read_po(source)
    messages, plurals = page_texts(static)
    found: dict[str, str] = {}
    for key in sorted(messages):
        context, _sep, text = key.rpartition("\x04")
        entry = catalogue.get(text, context or None)
        if entry is not None and not entry.fuzzy and isinstance(entry.string, str) \
                and entry.string:
            found[key] = entry.string
    forms: dict[str, list[str]] = {}
    for singular in sorted(plurals):
        entry = catalogue.get(singular)
        if entry is not None and not entry.fuzzy and isinstance(entry.string, tuple | list) \
                and all(entry.string):
            forms[singular] = list(entry.string)
    return {"language": str(catalogue.locale), "nplurals": catalogue.num_plurals,
            "plural_index": plural_index(catalogue), "messages": found, "plurals": forms}


def as_json(catalogue: dict[str, Any]) -> str:
    """The file's text (the same bytes for the same catalogue)."""
    return json.dumps(catalogue, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def write(po: Path, target: Path, static: Path = STATIC) -> None:
    """Write the page's catalogue of ``po`` to ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(as_json(page_catalogue(po, static)), encoding="utf-8")


def catalogues(locale: Path = LOCALE) -> Iterable[Path]:
    """Every language's ``lucie.po``."""
    return sorted(locale.glob("*/LC_MESSAGES/lucie.po"))


def main() -> int:
    for po in catalogues():
        target = po.with_name(NAME)
        write(po, target)
        print(f"writing the page's catalogue {target.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
