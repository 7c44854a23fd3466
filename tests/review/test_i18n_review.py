"""The review and the difficulty in French, Dutch and German: a real game's
review labels, better move and summary; a deal's difficulty; the English
unchanged and the JSON's identifiers kept."""

from __future__ import annotations

import pytest

from lucie.analysis.cache import ValueCache
from lucie.analysis.difficulty import (
    DIFFICULTIES,
    deal_difficulty,
    difficulty_description,
    difficulty_name,
    pick_deal,
)
from lucie.analysis.review import LABELS, Review, Value, label_name, review_game
from lucie.engine import Game, Move
from lucie.errors import LucieError
from lucie.i18n import TRANSLATED, using
from lucie.rules import Rules
from lucie.solver import search_deal

RULES = Rules.parse("noredeal")
#: Deal 13 of "noredeal" can be cleared; its best move is j>r (a safe build).
DEAL = 13

#: (label, better move's opening, summary, value after) in each language.
WORDS = {
    "en": ("blunder", "the better move: 3♠ from fan j onto 4♠ in fan r: ",
           "Chance thrown away: 100.0 percentage points; accuracy 0% (moves best or good); "
           "1 blunder, 0 mistakes, 0 inaccuracies", "0%, best score {score}"),
    # (a space or a no-break space before the colon and the semicolon: the
    # catalogue's review decides; the number's own spaces are no-break)
    "fr": ("gaffe", "le meilleur coup : 3♠ de l'éventail j sur 4♠ dans l'éventail r : ",
           "Chances gâchées : 100,0 points de pourcentage ; précision 0\u00a0% "
           "(part des coups «\u00a0meilleur\u00a0» ou «\u00a0bon\u00a0») ; "
           "1 gaffe, 0 erreur, 0 imprécision", "0\u00a0%, meilleur score {score}"),
    "nl": ("blunder", "de betere zet: 3♠ van waaier j op 4♠ in waaier r: ",
           "Verspeelde kans: 100,0 procentpunten; nauwkeurigheid 0% "
           "(aandeel zetten ‘beste’ of ‘goed’); "
           "1 blunder, 0 fouten, 0 onnauwkeurigheden", "0%, beste score {score}"),
    "de": ("Patzer", "der bessere Zug: 3♠ von Fächer j auf 4♠ in Fächer r: ",
           "Verschenkte Chance: 100,0 Prozentpunkte; Genauigkeit 0\u00a0% "
           "(Anteil der Züge „bester“ oder "
           "„gut“); "
           "1 Patzer, 0 Fehler, 0 Ungenauigkeiten", "0\u00a0%, bestenfalls {score} Punkte"),
}


def spaced(text: str) -> str:
    """``text`` with a no-break space before French : and ; read as a space."""
    return text.replace("\u00a0:", " :").replace("\u00a0;", " ;")


@pytest.fixture(scope="module")
def blunder() -> Game:
    """Deal 13 with a first move after which it can no longer be cleared."""
    game = Game(RULES, DEAL)
    move = next(m for m in game.position.legal_moves()
                if search_deal(game.position.apply(m), frontier=False).status == "unsolvable")
    game.push(move)
    return game


def reviewed(game: Game, lang: str) -> Review:
    with using(lang):
        return review_game(game, max_seconds=None, cache=ValueCache(None))


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_review_label_better_move_and_summary(blunder: Game, lang: str) -> None:
    label, better, summary, after = WORDS[lang]
    got = reviewed(blunder, lang)
    move = got.moves[0]
    assert move.label == "blunder" and move.best_move == Move.parse("j>r")
    score = move.value_after.best_score
    assert score is not None and score < 52
    with using(lang):
        assert move.label_text == label
        said = move.better_text
        assert said is not None and spaced(said).startswith(better)
        # the better move is explained with the hint's words, in the same language
        assert said.endswith(move.text)
        assert spaced(got.summary()) == summary
        assert str(move.value_after) == after.format(score=score)
        data = got.to_json()
    entry = data["moves"][0]  # type: ignore[index]
    # identifiers stay English; the words sit beside them
    assert (entry["label"], entry["label_text"]) == ("blunder", label)
    assert entry["better_text"] == said and spaced(data["summary"]) == summary
    # the move played and the best move in words, beside their notation
    assert entry["move"] == str(blunder.moves[0]) and entry["move_text"] == move.move_text
    assert entry["best_move"] == "j>r" and move.best_text is not None
    assert move.best_text.startswith("3♠") and move.move_text[:2] in ("10", "9♦")
    assert data["labels"] == {"best": 0, "good": 0, "inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert entry["value_after"]["kind"] == "exact"


def test_the_hint_words_follow_the_review_language(blunder: Game) -> None:
    english = reviewed(blunder, "en").moves[0].text
    german = reviewed(blunder, "de").moves[0].text
    assert "safe: 4♠ is alone in fan r" in english
    assert "sicher: 4♠ liegt allein in Fächer r" in german


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_label_and_difficulty_is_translated(lang: str) -> None:
    with using("en"):
        english = [label_name(x) for x in LABELS]
        english += [difficulty_name(d) for d in DIFFICULTIES]
        english += [difficulty_description(d) for d in DIFFICULTIES]
    assert english[:5] == list(LABELS) and english[5:9] == list(DIFFICULTIES)
    with using(lang):
        words = [label_name(x) for x in LABELS]
        words += [difficulty_name(d) for d in DIFFICULTIES]
        words += [difficulty_description(d) for d in DIFFICULTIES]
    # "blunder" is also Dutch; every other word is the language's own
    assert sum(w != e for w, e in zip(words, english, strict=True)) >= len(words) - 1
    assert len(set(words)) == len(words)


@pytest.mark.parametrize(("lang", "names", "sentence"), [
    ("en", ("easy", "medium", "hard", "clearable"),
     "This deal is easy, clearable without a redeal (winning chance 100%)."),
    ("fr", ("facile", "moyenne", "difficile", "gagnable sans redistribution"),
     "Difficulté de cette donne\u00a0: facile, gagnable sans redistribution "
         "(chances de gain 100\u00a0%)."),
    ("nl", ("makkelijk", "gemiddeld", "moeilijk", "zonder herdeling uit te spelen"),
     "Deze gift is makkelijk en zonder herdeling uit te spelen (winkans 100%)."),
    ("de", ("leicht", "mittelschwer", "schwer", "ohne Neuverteilung lösbar"),
     "Diese Austeilung ist leicht und ohne Neuverteilung lösbar (Gewinnchance 100\u00a0%)."),
])
def test_a_deals_difficulty(lang: str, names: tuple[str, ...], sentence: str) -> None:
    with using(lang):
        assert tuple(difficulty_name(d) for d in ("easy", "medium", "hard", "clearable")) == names
        rated = deal_difficulty(RULES, DEAL, max_seconds=30.0)
        assert rated.text() == sentence
        data = rated.to_json()
    assert (data["difficulty"], data["difficulty_text"]) == ("easy", names[0])
    assert data["clearable"] is True and data["text"] == sentence


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "La Belle Lucie, no redeal: no hard deal found in 0 s (0 deals tried, "
           "0 undecided)"),
    ("fr", "La Belle Lucie, sans redistribution\u00a0: aucune donne «\u00a0difficile\u00a0» "
           "trouvée en 0 s (0 donne essayée, "
           "indécises\u00a0: 0)"),
    ("nl", "La Belle Lucie, zonder herdeling: geen gift met moeilijkheid ‘moeilijk’ "
           "gevonden in 0 s "
           "(0 giften geprobeerd, 0 onbeslist)"),
    ("de", "La Belle Lucie, ohne Neuverteilung: keine Austeilung mit Schwierigkeit „schwer“ "
           "in 0\u00a0s gefunden "
           "(0 Austeilungen versucht, 0 unentschieden)"),
])
def test_a_pick_out_of_time_says_so(lang: str, words: str) -> None:
    with using(lang), pytest.raises(LucieError) as caught:
        pick_deal(RULES, "hard", max_seconds=0.0, seed=1)
    assert str(caught.value).startswith(words), caught.value


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "This deal's difficulty could not be settled in time."),
    ("fr", "La difficulté de cette donne n'a pas pu être établie à temps."),
    ("de", "Die Schwierigkeit dieser Austeilung ließ sich nicht rechtzeitig bestimmen."),
])
def test_an_unsettled_difficulty(lang: str, words: str) -> None:
    from lucie.analysis.difficulty import Rated

    with using(lang):
        assert Rated(None, None, Value.unknown(), None).text() == words
