"""The catalogues keep the glossary and each language's typography.

``docs/translating.md`` lists, for each idea of the game, the word each
language uses and the words it must not use (one word per idea); this test
reads that table, so the glossary and the check cannot drift apart.  It
fails when a catalogue uses a forbidden word, when a variant name is not
the one the glossary gives, or when a translation breaks the typography of
its language: French no-break spaces before ``: ; ? !``, inside « » and
before ``%``; German no-break space before ``%``; one quote style per
language.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from lucie.i18n import TRANSLATED

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "lucie" / "locale"
GLOSSARY = ROOT / "docs" / "translating.md"
MARKER = "<!-- glossary-check"
LANGS = TRANSLATED
NBSP = "\u00a0\u202f"
FIELD = re.compile(r"\{[^{}]*\}")  # {seed} is a field's name, not a word the player reads


@dataclass(frozen=True)
class Row:
    idea: str
    lang: str
    use: str
    never: tuple[str, ...]


def glossary_rows(text: str) -> list[Row]:
    """The rows of the first Markdown table after the marker comment."""
    assert MARKER in text, f"{GLOSSARY.name} lost its {MARKER} marker"
    lines = text[text.index(MARKER):].splitlines()[1:]
    rows: list[Row] = []
    started = False
    for line in lines:
        if not line.startswith("|"):
            if started:
                break
            continue
        started = True
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[0] == "idea" or set(cells[0]) <= set("-: "):
            continue
        idea, lang, use, never = cells
        rows.append(Row(idea, lang, use, tuple(w.strip() for w in never.split(",") if w.strip())))
    return rows


def term_pattern(term: str) -> re.Pattern[str]:
    """A whole-word, case-blind pattern; a trailing ``*`` matches any ending."""
    stem = term.endswith("*")
    body = re.escape(term.rstrip("*")).replace(r"\ ", r"\s+")
    end = r"\w*" if stem else r"(?!\w)"
    return re.compile(r"(?<![\w-])" + body + end, re.IGNORECASE)  # --seed is an option


def translations(lang: str) -> list[tuple[str, str]]:
    """(English, translation) for every form of every entry of a catalogue."""
    with (LOCALE / lang / "LC_MESSAGES" / "lucie.po").open("rb") as f:
        catalogue = read_po(f, locale=lang)
    pairs: list[tuple[str, str]] = []
    for m in catalogue:
        if not m.id:
            continue
        english = m.id[0] if isinstance(m.id, tuple | list) else m.id
        forms = m.string if isinstance(m.string, tuple | list) else (m.string,)
        pairs += [(str(english), str(form)) for form in forms]
    return pairs


ROWS = glossary_rows(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_table_is_read() -> None:
    ideas = {row.idea for row in ROWS}
    assert {"deal", "buried card", "the merci", "clearable", "win rate", "position",
            "form of address", "free cell", "medium"} <= ideas
    assert {row.lang for row in ROWS} == set(LANGS)
    assert all(row.never or row.idea.startswith("variant name:") for row in ROWS)


def forbidden_uses(rows: list[Row], pairs: list[tuple[str, str]]) -> list[str]:
    found = []
    for row in rows:
        for term in row.never:
            pattern = term_pattern(term)
            for english, text in pairs:
                if pattern.search(FIELD.sub(" ", text)):
                    found.append(f"{row.idea}: {term!r} (use {row.use!r}) in {text!r} "
                                 f"[{english[:40]!r}]")
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_no_catalogue_uses_a_forbidden_word(lang: str) -> None:
    rows = [row for row in ROWS if row.lang == lang]
    found = forbidden_uses(rows, translations(lang))
    assert not found, f"{lang}: {len(found)} forbidden words: " + "; ".join(found[:8])


@pytest.mark.parametrize("lang", LANGS)
def test_variant_names_are_the_glossarys(lang: str) -> None:
    names = dict(translations(lang))
    wrong = [f"{row.idea}: {names.get(row.idea.split(':', 1)[1].strip())!r}, not {row.use!r}"
             for row in ROWS if row.lang == lang and row.idea.startswith("variant name:")
             and names.get(row.idea.split(":", 1)[1].strip()) != row.use]
    assert not wrong, f"{lang}: " + "; ".join(wrong)


def test_the_forbidden_word_check_can_fail() -> None:
    rows = [Row("deal", "nl", "gift", ("deling",)), Row("lift", "fr", "sortir", ("soulev*",))]
    pairs = [("", "de deling van de dag"), ("", "une carte soulevée"), ("", "geen herdeling")]
    found = forbidden_uses(rows, pairs)
    assert len(found) == 2 and "herdeling" not in " ".join(found)


# -- typography ---------------------------------------------------------------

#: A French high punctuation mark after an ordinary space that follows a word
#: (a "?" after a comma or at the start names the key, not a question).
FR_SPACE_BEFORE = re.compile(r"(?<=[\w»)\]}*>%…’']) [:;?!](?=\s|$|[)\].,»])")
FR_START = re.compile(r"^ [:;?!]")
#: High punctuation glued to the word before it (no space at all).
FR_GLUED = re.compile(r"(?<=[^\W\d_]|[)»])[;?!](?=\s|$)|(?<=[^\W\d_]|[)»]):(?=\s)")
FR_GUILLEMETS = re.compile(r"« |«(?=\w)| »|(?<=\w)»")
SPACE_PERCENT = re.compile(r"(?<=[\d}]) ?%(?![(\w])")
OTHER_QUOTES = {
    "fr": re.compile(r"[“”„‘\"]|(?<=\s)’"),
    "de": re.compile(r"[«»”‘’\"]"),
    "nl": re.compile(r"[«»“”„\"]"),
}


def typography_faults(lang: str, text: str) -> list[str]:
    faults = []
    if lang == "fr":
        for pattern, what in ((FR_SPACE_BEFORE, "ordinary space before"),
                              (FR_START, "ordinary space before"),
                              (FR_GLUED, "no no-break space before"),
                              (FR_GUILLEMETS, "no no-break space inside « »")):
            faults += [f"{what} {m.group().strip()!r}" for m in pattern.finditer(text)]
    if lang in ("fr", "de"):
        faults += [f"{m.group()!r} without a no-break space" for m in SPACE_PERCENT.finditer(text)
                   if text[m.start() - 1:m.start()] not in NBSP]
    faults += [f"quote mark {m.group()!r} of another style"
               for m in OTHER_QUOTES[lang].finditer(text)]
    if lang == "de" and text.count("„") != text.count("“"):
        faults.append("„ without its “")
    if lang == "nl" and text.count("‘") > text.count("’"):
        faults.append("‘ without its ’")
    return faults


@pytest.mark.parametrize("lang", LANGS)
def test_each_language_keeps_its_typography(lang: str) -> None:
    problems = [f"{fault} in {text!r}" for _, text in translations(lang)
                for fault in typography_faults(lang, text)]
    assert not problems, f"{lang}: {len(problems)} typography faults: " + "; ".join(problems[:8])


@pytest.mark.parametrize(("lang", "text", "faults"), [
    ("fr", "Coups : c>g", 1),
    ("fr", "Coups\u00a0: c>g", 0),
    ("fr", "Coups: c>g", 1),
    ("fr", "Gagné !", 1),
    ("fr", "« inconnu »", 2),
    ("fr", "«\u00a0inconnu\u00a0»", 0),
    ("fr", "{rate} %", 1),
    ("fr", "Tapez un coup, ? pour l'aide", 0),
    ("fr", "reprend là où vous l'avez laissée. ? pour les touches.", 0),
    ("fr", "tcp://127.0.0.1:8786", 0),
    ("fr", '"Donne du jour"', 2),
    ("de", "{rate} %", 1),
    ("de", "{rate}\u00a0%", 0),
    ("de", "„Austeilung des Tages“", 0),
    ("de", "„Austeilung des Tages”", 2),
    ("nl", "„Gift van de dag”", 2),
    ("nl", "‘Gift van de dag’", 0),
    ("nl", "programma's", 0),
])
def test_the_typography_check_can_fail(lang: str, text: str, faults: int) -> None:
    assert len(typography_faults(lang, text)) == faults, typography_faults(lang, text)
