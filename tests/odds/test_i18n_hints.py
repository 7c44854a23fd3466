"""Hints in French, Dutch and German: a real hint with its reason on a real
deal, the English unchanged, and nothing translated once for all languages."""

from __future__ import annotations

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.hints import Hint, hint
from lucie.analysis.odds import Odds, estimate_odds
from lucie.engine import Position
from lucie.formats import parse_layout
from lucie.i18n import using
from lucie.rules import Rules

#: Deal 13 of "noredeal" (a last deal, settled at once): the best move is a
#: build proved safe, which frees 3♣, on a line that clears the deal.
DEAL = 13
ENGLISH = ("3♠ from fan j onto 4♠ in fan r: safe: 4♠ is alone in fan r, so covering it "
           "loses nothing; it frees 3♣ (this deal can be cleared)")
#: The reason and its notes, in each language (the move's own words come
#: from the engine).
REASONS = {
    "fr": ("sans risque : 4♠ est la seule carte de l'éventail r, la recouvrir ne fait rien "
           "perdre ; cela libère 3♣ (cette donne est gagnable sans redistribution)"),
    "nl": ("veilig: 4♠ ligt alleen in waaier r, dus het kost niets om hem te bedekken; "
           "dat maakt 3♣ vrij (deze gift is zonder herdeling uit te spelen)"),
    "de": ("sicher: 4♠ liegt allein in Fächer r, die Karte zu überdecken kostet also nichts; "
           "das legt 3♣ frei (diese Austeilung ist ohne Neuverteilung lösbar)"),
}


def start() -> Position:
    return Position.deal(Rules.parse("noredeal"), DEAL)


def ask(position: Position) -> Hint:
    """A hint that tells whether the deal can be cleared (asked for)."""
    return hint(position, max_seconds=10.0, cache=ValueCache(None), tell_clears=True)


def test_english_is_unchanged() -> None:
    with using("en"):
        got = ask(start())
    assert (got.kind, str(got.move), got.budget_ran_out) == ("safe-build", "j>r", False)
    assert got.text == ENGLISH


@pytest.mark.parametrize("lang", sorted(REASONS))
def test_a_safe_build_and_its_reason(lang: str) -> None:
    with using("en"):
        english = ask(start())
    with using(lang):
        got = ask(start())
    # the same advice, in other words; the cards in symbols, fan letters untouched
    assert (got.move, got.kind, got.clears) == (english.move, english.kind, english.clears)
    assert got.text.replace("\u00a0", " ").endswith(REASONS[lang]), got.text
    assert got.text.startswith("3♠ ") and "3S" not in got.text and "4S" not in got.text
    assert got.to_json()["text"] == got.text and got.to_json()["kind"] == "safe-build"


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "the game can no longer be won; the best score left is 44: "),
    ("fr", "la partie ne peut plus être gagnée\u00a0; "
           "le meilleur score encore possible est 44\u00a0: "),
    ("nl", "het spel kan niet meer gewonnen worden; de hoogst haalbare score is 44: "),
    ("de", "das Spiel ist nicht mehr zu gewinnen; höchstens noch 44 Punkte: "),
])
def test_a_lost_deal_says_its_best_score(lang: str, words: str) -> None:
    with using(lang):
        got = ask(Position.deal(Rules.parse("noredeal"), 1))
    assert got.kind == "lost" and got.text.startswith(words), got.text


def test_a_line_followed_speaks_the_language_of_each_hint() -> None:
    """The rest of a line is remembered between hints (no new search), but
    its words are made afresh, in the language of the hint that follows it."""
    position = start()
    with using("fr"):
        first = ask(position)
    assert first.move is not None
    after = position.apply(first.move)
    texts = {}
    for lang in ("de", "nl", "en"):
        with using(lang):
            texts[lang] = ask(after).text
    assert "(diese Austeilung ist ohne Neuverteilung lösbar)" in texts["de"]
    assert "(deze gift is zonder herdeling uit te spelen)" in texts["nl"]
    assert texts["en"].endswith("(this deal can be cleared)")


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "win rate 100.0% (95% CI 100.0% to 100.0%, exact, mean score 52.0)"),
    # the decimal comma, and a no-break space before % in French and German
    ("fr", "taux de victoires 100,0\u00a0% (IC à 95\u00a0% de 100,0\u00a0% à "
           "100,0\u00a0%, exact, score moyen 52,0)"),
    ("nl", "winstpercentage 100,0% (95%-BI 100,0% tot 100,0%, exact, gemiddelde score 52,0)"),
    ("de", "Gewinnquote 100,0\u00a0% (95-%-KI 100,0\u00a0% bis 100,0\u00a0%, exakt, "
           "im Schnitt 52,0 Punkte)"),
])
def test_odds_in_words(lang: str, words: str) -> None:
    # the deal in play can be cleared: the answer is exact
    with using(lang):
        got = estimate_odds(start(), samples=10, cache=ValueCache(None))
        assert got.text() == words
        assert got.to_json()["text"] == words


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "400 playouts, mean score 40.2)\nthe budget ran out: 1 of 3 searches cut short"),
    ("fr", "400 parties simulées, score moyen 40,2)\nlimite de calcul atteinte : recherches "
           "interrompues : 1 sur 3 ;"),
    ("nl", "400 gesimuleerde spellen, gemiddelde score 40,2)\nhet budget is op: 1 van 3 "),
    ("de", "400 simulierte Spiele, im Schnitt 40,2 Punkte)\ndas Budget ist aufgebraucht: 1 von 3"),
])
def test_odds_counted_with_plural_forms(lang: str, words: str) -> None:
    odds = Odds(0.25, (0.2, 0.3), 400, 40.25, budget_ran_out=True, searches=3, searches_cut=1)
    with using(lang):
        assert words in odds.text().replace(" :", "\u00a0:").replace("\u00a0", " ")


def layout(text: str, spec: str = "classic", redeals_left: int = 0) -> Position:
    rules = Rules.parse(spec)
    p = parse_layout(text, rules)
    return Position(rules, p.fans, p.foundations, p.cells, redeals_left, False)


FOUND = "Foundations: C-K D-K H-6 S-T\n"
#: Positions of each kind (as in test_hints.py), and words of the
#: translation that only that kind's sentence has, in fr, nl, de.
KINDS = {
    "unblock": (layout(FOUND + "KH 9H\n7H QS 8H\nJS KS\nTH QH JH\n", redeals_left=1),
                ("pour libérer D♠", "om V♠ vrij te maken", "um D♠ freizulegen")),
    "redeal": (layout(FOUND + "7H 9H 8H\nQH TH JH\nKH\nJS QS KS\n", redeals_left=1),
               ("redistribuez les 10 cartes restantes", "herdeel de 10 overgebleven kaarten",
                "die 10 übrigen Karten neu verteilen")),
    "no-useful-move": (layout(FOUND + "7H 9H 8H\nQH TH JH\nKH\nJS KS\nQS\n", redeals_left=1),
                       ("plus aucun coup utile", "geen nuttige zet meer",
                        "kein sinnvoller Zug mehr")),
    "merci": (layout("Foundations: C-K D-K H-6 S-K\n7H 9H 8H\nKH QH JH TH\n", spec="merci"),
              ("utilisez le merci sur ", "gebruik de merci voor ", "Merci für ")),
    "won": (Position(Rules(), ((),) * Rules().num_fans, (13, 13, 13, 13), (), 0, False),
            ("la partie est gagnée", "het spel is gewonnen", "das Spiel ist gewonnen")),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_of_hint_in_each_language(kind: str) -> None:
    position, words = KINDS[kind]
    with using("en"):
        english = ask(position)
    assert english.kind == kind
    for lang, said in zip(("fr", "nl", "de"), words, strict=True):
        with using(lang):
            got = ask(position)
        assert (got.kind, got.move) == (english.kind, english.move)
        assert said in got.text, (lang, got.text)
        assert got.text != english.text


def test_the_budget_note_in_each_language() -> None:
    # a full deal the search cannot finish in the budget (any-suit builds)
    position = Position.deal(Rules.parse("flower"), 5)
    notes = {"fr": "(temps imparti écoulé\u00a0: meilleur coup trouvé jusqu'ici)",
             "nl": "(het tijdsbudget is op: beste zet tot nu toe)",
             "de": "(das Zeitbudget ist aufgebraucht: bester bisher gefundener Zug)"}
    for lang, note in notes.items():
        with using(lang):
            got = hint(position, max_seconds=0.2, cache=ValueCache(None))
        assert got.budget_ran_out and got.text.endswith(note), got.text
