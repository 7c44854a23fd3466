"""The solver's verdicts and budget words in French, Dutch and German: a
real deal's verdict, a whole game's status word, what ran out, and a
damaged odds cache's warning; identifiers (statuses, limits) unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from lucie.analysis.cache import ValueCache
from lucie.engine import Position
from lucie.i18n import using
from lucie.rules import Rules
from lucie.solver import solve_deal
from lucie.solver.budget import limit_text
from lucie.solver.game import status_text
from lucie.solver.results import verdict_text

#: noredeal deal 13 can be cleared at once; deal 1 cannot.
VERDICTS = {
    "en": ("clearable without a redeal", "cannot be cleared without a redeal"),
    "fr": ("gagnable sans redistribution", "non gagnable sans redistribution"),
    "nl": ("zonder herdeling uit te spelen", "niet zonder herdeling uit te spelen"),
    "de": ("ohne Neuverteilung lösbar", "ohne Neuverteilung nicht lösbar"),
}
#: winnable, lost, unknown (glossary: winnable, lost)
STATUS_WORDS = {
    "en": ("winnable", "lost", "unknown"),
    "fr": ("gagnable", "perdue", "indéterminée"),
    "nl": ("winbaar", "verloren", "onbekend"),
    "de": ("gewinnbar", "verloren", "unbekannt"),
}


@pytest.mark.parametrize("lang", sorted(VERDICTS))
def test_a_real_deals_verdict_in_words(lang: str) -> None:
    rules = Rules.parse("noredeal")
    clear = solve_deal(Position.deal(rules, 13), frontier=False)
    stuck = solve_deal(Position.deal(rules, 1), frontier=False)
    assert (clear.status, stuck.status) == ("solved", "unsolvable")  # identifiers kept
    with using(lang):
        assert (verdict_text(clear.status), verdict_text(stuck.status)) == VERDICTS[lang]
        assert tuple(status_text(s) for s in ("won", "lost", "unknown")) == STATUS_WORDS[lang]


@pytest.mark.parametrize("lang", ["fr", "nl", "de"])
def test_what_ran_out_is_translated(lang: str) -> None:
    with using("en"):
        english = [limit_text(x) for x in ("seconds", "nodes", "positions")]
    with using(lang):
        words = [limit_text(x) for x in ("seconds", "nodes", "positions")]
    assert all(w != e for w, e in zip(words, english, strict=True))


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the odds cache {path} cannot be used"),
    ("fr", "le cache des chances {path} est inutilisable"),
    ("nl", "de kansencache {path} is onbruikbaar"),
    ("de", "der Chancen-Cache {path} ist unbrauchbar"),
])
def test_a_foreign_cache_is_reported_in_the_language_in_use(
    lang: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """A file that is not an odds cache is said to be unusable, in the
    language in use, and left as it is (never set aside or replaced)."""
    bad = tmp_path / "bad.sqlite"
    data = b"not a database at all, just some text" * 4
    bad.write_bytes(data)
    with using(lang):
        cache = ValueCache(bad)
        assert cache.get(("classic", (1, 2, 3, 4), 1, False)) is None
    err = capsys.readouterr().err
    assert words.format(path=bad) in err, err
    assert bad.read_bytes() == data and list(tmp_path.iterdir()) == [bad]
