"""The translation catalogues are complete, current and well-formed.

Every text marked in the source is in the template and in each language's
catalogue, translated (no empty or fuzzy entry), with the same ``{fields}``
as the English text and every plural form given; the compiled ``.mo`` files
are what Babel makes of the ``.po`` files, and the page's JSON catalogues what
``scripts/page_catalogues.py`` makes of them.  ``make translations`` fixes the
first two kinds of failure but for the translating itself.
"""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from lucie import i18n

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "lucie" / "locale"
LANGS = list(i18n.TRANSLATED)
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def _catalogue(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def _ids(catalogue: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, _singular(m)) for m in catalogue if m.id}


def _singular(message: Message) -> str:
    return message.id[0] if isinstance(message.id, tuple | list) else message.id


def _fields(text: str) -> set[str]:
    return set(FIELD.findall(text))


def test_the_template_holds_every_marked_text(tmp_path: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    fresh = tmp_path / "lucie.pot"
    subprocess.run(
        [str(pybabel), "-q", "extract", "-F", "babel.cfg", "-k", "N_", "-k", "pgettext:1c,2",
         "-k", "ngettext:1,2", "-o", str(fresh), "."],
        cwd=ROOT, check=True,
    )
    missing = _ids(_catalogue(fresh)) - _ids(_catalogue(LOCALE / "lucie.pot"))
    assert not missing, f"run `make translations`: texts not in lucie.pot: {sorted(missing)[:10]}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_catalogue_is_complete(lang: str) -> None:
    template = _ids(_catalogue(LOCALE / "lucie.pot"))
    catalogue = _catalogue(LOCALE / lang / "LC_MESSAGES" / "lucie.po", lang)
    missing = template - _ids(catalogue)
    assert not missing, f"run `make translations`: {lang} lacks {sorted(missing)[:10]}"
    problems = []
    for m in catalogue:
        if not m.id or (m.context, _singular(m)) not in template:
            continue
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        if m.fuzzy or not all(strings):
            problems.append(f"untranslated: {_singular(m)!r}")
            continue
        if isinstance(m.id, tuple | list) and len(strings) != catalogue.num_plurals:
            problems.append(f"{len(strings)} plural forms, not {catalogue.num_plurals}: {m.id!r}")
        wanted = _fields(_singular(m))
        for form in strings:
            if _fields(form) - wanted - (_fields(m.id[1]) if isinstance(m.id, tuple) else set()):
                problems.append(f"fields {_fields(form)} not those of {_singular(m)!r}")
    assert not problems, f"{lang}: " + "; ".join(problems[:10])


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogues_are_current(lang: str) -> None:
    po = LOCALE / lang / "LC_MESSAGES" / "lucie.po"
    compiled = io.BytesIO()
    write_mo(compiled, _catalogue(po, lang))
    mo = po.with_suffix(".mo")
    assert mo.exists() and mo.read_bytes() == compiled.getvalue(), (
        f"{mo} is missing or stale: run `make translations` (or reinstall)"
    )


@pytest.mark.parametrize("lang", LANGS)
def test_page_catalogues_are_current(lang: str) -> None:
    """The page's JSON catalogue (``scripts/page_catalogues.py``) is what
    the build makes of the ``.po`` and the page's modules today."""
    spec = importlib.util.spec_from_file_location("page_catalogues",
                                                  ROOT / "scripts" / "page_catalogues.py")
    assert spec is not None and spec.loader is not None
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    po = LOCALE / lang / "LC_MESSAGES" / "lucie.po"
    built = po.with_name(builder.NAME)
    assert built.exists() and built.read_text(encoding="utf-8") == builder.as_json(
        builder.page_catalogue(po)), (
        f"{built} is missing or stale: run `make translations` (or reinstall)")


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_refused_in_each_language(lang: str) -> None:
    from lucie.engine import Move, Position
    from lucie.rules import Rules

    position = Position.deal(Rules(), 1)
    english = position.why_illegal(Move.parse("a>b"))
    with i18n.using(lang):
        translated = position.why_illegal(Move.parse("a>b"))
    assert english == "4♠ cannot go on 10♥ (fans build down in suit)"
    assert translated is not None and translated != english
    # the cards as the table shows them, never their codes
    assert translated.startswith("4♠") and "10♥" in translated
    assert "4S" not in translated and "TH" not in translated
    assert i18n.language() == i18n.DEFAULT


def test_languages_come_from_the_environment_and_the_header() -> None:
    assert i18n.from_environment({"LANG": "nl_BE.UTF-8"}) == "nl"
    assert i18n.from_environment({"LANGUAGE": "de_AT:fr", "LC_ALL": "fr_FR"}) == "de"
    assert i18n.from_environment({}) == "en"
    assert i18n.negotiate("fr-CA,fr;q=0.9,de;q=0.8") == "fr"
    assert i18n.negotiate("q=bad;q=x, nl;q=abc") == "en"
    assert i18n.set_language("de_DE") == "de"
    try:
        assert i18n.language() == "de"
        with i18n.using("fr"):
            assert i18n.language() == "fr"
        assert i18n.language() == "de"
    finally:
        i18n.set_language(None)
