"""The browser game in English, French, Dutch and German over HTTP: the
page's language (cookie, else Accept-Language), its texts, the catalogue
the JavaScript gets, and the API's refusals and the solver's words in the
request's language (in the solver's worker processes too)."""

from __future__ import annotations

import asyncio
import html
import json
import re
from typing import Any

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_file
from babel.messages.pofile import read_po

from lucie.cards import DECK, card_name
from lucie.engine import Move, Position
from lucie.i18n import LANGUAGES, LOCALE_DIR, TRANSLATED, language, translations, using
from lucie.rules import VARIANTS, Rules
from lucie.web.app import STATIC
from lucie.web.language import COOKIE, choose, page_catalogue
from lucie.web.thinking import SolverPool

LANGS = list(LANGUAGES)
OTHERS = list(TRANSLATED)
HEADERS = {"en": "en-GB,en;q=0.9", "fr": "fr-FR,fr;q=0.9,en;q=0.5",
           "nl": "nl-BE, nl;q=0.9", "de": "de-CH, de;q=0.9, en;q=0.8"}


def _po(lang: str) -> Catalog:
    path = LOCALE_DIR / lang / "LC_MESSAGES" / "lucie.po"
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _page_catalogue_of(text: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="lucie-i18n">(.*?)</script>', text,
                      re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


class TestChoosingTheLanguage:
    @pytest.mark.parametrize("lang", LANGS)
    def test_accept_language_chooses_the_page(self, client: Any, lang: str) -> None:
        r = client.get("/", headers={"Accept-Language": HEADERS[lang]})
        assert r.status_code == 200
        assert f'<html lang="{lang}">' in r.text
        assert r.headers["content-language"] == lang
        assert "Accept-Language" in r.headers["vary"] and "Cookie" in r.headers["vary"]
        selected = re.search(r'<option value="(\w+)" lang="\w+" selected>', r.text)
        assert selected is not None and selected.group(1) == lang

    def test_the_menus_cookie_wins_over_the_header(self, client: Any) -> None:
        client.cookies.set(COOKIE, "nl")
        r = client.get("/stats", headers={"Accept-Language": "de"})
        assert '<html lang="nl">' in r.text and "Nieuw spel" in r.text
        client.cookies.set(COOKIE, "klingon")  # not a language lucie speaks: the header decides
        assert '<html lang="de">' in client.get("/", headers={"Accept-Language": "de"}).text

    def test_a_language_lucie_does_not_speak_falls_back(self, client: Any) -> None:
        assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "it, es"}).text
        assert choose(None, "it;q=1, nl;q=0.2") == "nl"
        assert choose("x" * 100, "fr") == "fr"

    @pytest.mark.parametrize(("lang", "texts"), [
        ("en", ["New game", "How to play", "Deal of the day", "Redeals left"]),
        ("fr", ["Nouvelle partie", "Comment jouer", "Donne du jour", "Redistributions restantes"]),
        ("nl", ["Nieuw spel", "Zo speel je", "Gift van de dag", "Herdelingen over"]),
        ("de", ["Neues Spiel", "So wird gespielt", "Austeilung des Tages",
                "Neuverteilungen übrig"]),
    ])
    def test_the_page_speaks_the_language(self, client: Any, lang: str,
                                          texts: list[str]) -> None:
        page = html.unescape(client.get("/", headers={"Accept-Language": lang}).text)
        for text in texts:
            assert text in page
        # the rules' markup survives translation, as markup
        assert "<b>merci</b>" in page or "<b>Merci</b>" in page


class TestTheJavaScriptsCatalogue:
    def test_the_texts_given_are_what_babel_extracts(self) -> None:
        """The page is given exactly the texts its modules mark, as Babel's
        JavaScript extractor finds them (the keywords of make translations)."""
        keywords = {**DEFAULT_KEYWORDS, "N_": None, "pgettext": ((1, "c"), 2),
                    "ngettext": (1, 2)}
        babel_messages: set[str] = set()
        babel_plurals: set[str] = set()
        for path in sorted(STATIC.glob("*.js")):
            for _lineno, message, _comments, context in extract_from_file(
                    "javascript", path, keywords=keywords):
                if isinstance(message, tuple):
                    babel_plurals.add(message[0])
                else:
                    babel_messages.add(message if context is None else f"{context}\x04{message}")
        assert len(babel_messages) > 100 and len(babel_plurals) > 5
        for lang in OTHERS:
            data = page_catalogue(lang)
            assert set(data["messages"]) == babel_messages
            assert set(data["plurals"]) == babel_plurals

    @pytest.mark.parametrize("lang", OTHERS)
    def test_every_text_of_the_javascript_is_translated(self, client: Any, lang: str) -> None:
        data = _page_catalogue_of(client.get("/", headers={"Accept-Language": lang}).text)
        catalogue = translations(lang)
        assert data["language"] == lang and data["languages"] == LANGUAGES
        assert data == page_catalogue(lang)
        for key, text in data["messages"].items():
            context, _sep, msgid = key.rpartition("\x04")
            expected = catalogue.pgettext(context, msgid) if context else catalogue.gettext(msgid)
            assert text == expected and text
        english = {m.id[0]: m.id[1] for m in _po(lang) if isinstance(m.id, tuple)}
        for singular, forms in data["plurals"].items():
            assert len(forms) == data["nplurals"]
            assert forms == [catalogue.ngettext(singular, english[singular], n)
                             for n in {"fr": (1, 1_000_000, 2)}.get(lang, (1, 2))]
        assert data["nplurals"] == (3 if lang == "fr" else 2)
        with using(lang):
            assert data["cards"] == {str(c): card_name(c) for c in DECK}

    def test_the_english_page_has_no_translations_to_carry(self) -> None:
        data = page_catalogue("en")
        assert data["messages"] == {} and data["plurals"] == {}
        assert data["plural_index"] == {"one": 0, "other": 1}
        assert data["cards"]["KH"] == "king of hearts"

    @pytest.mark.parametrize(("lang", "index"), [
        ("fr", {"one": 0, "many": 1, "other": 2}),  # 0 and 1 singular, millions apart
        ("nl", {"one": 0, "other": 1}),
        ("de", {"one": 0, "other": 1}),
    ])
    def test_the_plural_categories_map_to_the_catalogues_forms(
            self, lang: str, index: dict[str, int]) -> None:
        """Each Intl.PluralRules category names the form gettext's rule of
        the catalogue chooses for its numbers."""
        data = page_catalogue(lang)
        assert data["plural_index"] == index
        cldr = Locale.parse(lang).plural_form
        plural = translations(lang).plural  # type: ignore[attr-defined]
        for n in (*range(200), 1_000_000, 1_000_001, 2_000_000, 10**9):
            assert index[cldr(n)] == plural(n)

    def test_the_cards_and_suits_in_words(self) -> None:
        assert page_catalogue("fr")["cards"]["KH"] == "roi de cœur"
        assert page_catalogue("en")["suits"] == {"C": "clubs", "D": "diamonds", "H": "hearts",
                                                 "S": "spades"}
        assert page_catalogue("nl")["suits"]["S"] == "schoppen"
        assert page_catalogue("de")["suits"]["S"] == "Pik"
        assert page_catalogue("de")["cards"]["KH"] == "Herzkönig"
        assert page_catalogue("nl")["cards"]["KH"] == "hartenheer"


class TestTheApiSpeaksTheLanguage:
    @pytest.mark.parametrize("lang", LANGS)
    def test_a_refused_move(self, client: Any, lang: str) -> None:
        headers = {"Accept-Language": HEADERS[lang]}
        gid = client.post("/api/games", json={"variant": "classic", "deal": 1},
                          headers=headers).json()["id"]
        r = client.post(f"/api/games/{gid}/move", json={"move": "a>b"}, headers=headers)
        assert r.status_code == 409
        position = Position.deal(Rules(), 1)
        with using(lang):
            why = position.why_illegal(Move.parse("a>b"))
        with using("en"):
            english = position.why_illegal(Move.parse("a>b"))
        assert why is not None and english is not None
        assert r.json()["reason"] == why and r.json()["error"] == f"a>b: {why}"
        assert r.json()["move"] == "a>b"  # machine values stay as they are
        assert (why != english) == (lang != "en")
        # the cards as the page shows them, never their codes
        assert why.startswith("4♠") and "10♥" in why and "4S" not in why and "TH" not in why

    @pytest.mark.parametrize(("lang", "face"), [
        ("en", {"A": "A", "J": "J", "Q": "Q", "K": "K"}),
        ("fr", {"A": "A", "J": "V", "Q": "D", "K": "R"}),
        ("nl", {"A": "A", "J": "B", "Q": "V", "K": "H"}),
        ("de", {"A": "A", "J": "B", "Q": "D", "K": "K"}),
    ])
    def test_an_autoplay_report_and_the_face_letters(self, client: Any, lang: str,
                                                     face: dict[str, str]) -> None:
        """A move with autoplay and the "send home" button report the cards in
        symbols, in the language's words; the page's cards carry the
        language's face letters (the same as the terminal's)."""
        headers = {"Accept-Language": HEADERS[lang]}
        gid = client.post("/api/games", json={"variant": "classic", "deal": 2},
                          headers=headers).json()["id"]
        r = client.post(f"/api/games/{gid}/move", json={"move": "h>f", "autoplay": True},
                        headers=headers)
        assert r.status_code == 200
        data = r.json()
        assert data["applied"] == ["h>f", "o>f", "b>f", "c>f"]  # machine values
        messages = data["messages"]
        assert [m[:2] for m in messages] == ["A♦", "A♠", "2♠", "3♠"]
        assert not any(re.search(r"\b[A2-9TJQK][CDHS]\b|\w>\w", m) for m in messages)
        with using(lang):
            assert messages[1] == Position.deal(Rules(), 2).apply(
                Move.parse("h>f")).describe(Move.parse("o>f"))
        assert page_catalogue(lang)["ranks"] == face

    @pytest.mark.parametrize("lang", LANGS)
    def test_the_send_home_report(self, client: Any, lang: str) -> None:
        headers = {"Accept-Language": HEADERS[lang]}
        gid = client.post("/api/games", json={"variant": "classic", "deal": 2},
                          headers=headers).json()["id"]
        client.post(f"/api/games/{gid}/move", json={"move": "h>f"}, headers=headers)
        r = client.post(f"/api/games/{gid}/autoplay", json={}, headers=headers)
        messages = r.json()["messages"]
        assert r.status_code == 200 and [m[:2] for m in messages] == ["A♠", "2♠", "3♠"]
        assert all("f>f" not in m and "AS" not in m for m in messages)

    @pytest.mark.parametrize(("lang", "resigned", "playing"), [
        ("en", "resigned", "playing"), ("fr", "abandonnée", "en cours"),
        ("nl", "opgegeven", "bezig"), ("de", "aufgegeben", "läuft"),
    ])
    def test_the_history_names_each_status(self, client: Any, lang: str, resigned: str,
                                            playing: str) -> None:
        """The statistics page shows each game's status in the server's
        words (``status_text``); the code stays in ``status``."""
        headers = {"Accept-Language": HEADERS[lang]}
        gid = client.post("/api/games", json={"variant": "classic", "deal": 2},
                          headers=headers).json()["id"]
        client.post(f"/api/games/{gid}/move", json={"move": "h>f"}, headers=headers)
        client.post(f"/api/games/{gid}/resign", json={}, headers=headers)
        client.post("/api/games", json={"variant": "classic", "deal": 3}, headers=headers)
        games = client.get("/api/history", headers=headers).json()["games"]
        assert [(g["status"], g["status_text"]) for g in games] == [
            ("playing", playing), ("resigned", resigned)]

    @pytest.mark.parametrize(("lang", "undo", "missing"), [
        ("en", "nothing to undo", "no game with id"),
        ("fr", "rien à annuler", "aucune partie avec l'identifiant"),
        ("nl", "niets om ongedaan te maken", "geen spel met id"),
        ("de", "nichts rückgängig zu machen", "kein Spiel mit der Kennung"),
    ])
    def test_the_webs_own_refusals(self, client: Any, lang: str, undo: str,
                                   missing: str) -> None:
        headers = {"Accept-Language": lang}
        gid = client.post("/api/games", json={"deal": 5}, headers=headers).json()["id"]
        r = client.post(f"/api/games/{gid}/undo", json={}, headers=headers)
        assert r.status_code == 409 and r.json()["error"] == undo
        r = client.get("/api/games/not-a-game-at-all", headers=headers)
        assert r.status_code == 404 and r.json()["error"].startswith(missing)

    @pytest.mark.parametrize(("lang", "words"), [
        ("en", ["must be sent as application/json", "must be a JSON object",
                "field 'variant' must be a text", "parameter 'seconds' must be a number",
                "field 'difficulty' must be one of", "field 'autoplay' must be true or false",
                "field 'fan' must be a fan letter", "game number"]),
        ("fr", ["doit être envoyé en application/json", "doit être un objet JSON",
                "le champ 'variant' doit être un texte",
                "le paramètre 'seconds' doit être un nombre", "le champ 'difficulty' doit valoir",
                "le champ 'autoplay' doit valoir true ou false",
                "le champ 'fan' doit être une lettre d'éventail", "numéro de partie"]),
        ("nl", ["moet als application/json worden verstuurd", "moet een JSON-object zijn",
                "veld 'variant' moet een tekst zijn", "parameter 'seconds' moet een getal zijn",
                "veld 'difficulty' moet een van any", "veld 'autoplay' moet true of false zijn",
                "veld 'fan' moet een waaierletter zijn", "spelnummer"]),
        ("de", ["muss als application/json gesendet werden", "muss ein JSON-Objekt sein",
                "das Feld 'variant' muss ein Text", "der Parameter 'seconds' muss eine Zahl sein",
                "das Feld 'difficulty' muss any", "das Feld 'autoplay' muss true oder false sein",
                "das Feld 'fan' muss ein Fächerbuchstabe sein", "Spielnummer"]),
    ])
    def test_a_malformed_request(self, client: Any, lang: str, words: list[str]) -> None:
        """What a request itself gets wrong is refused in its language too."""
        headers = {"Accept-Language": lang}
        gid = client.post("/api/games", json={"deal": 5}, headers=headers).json()["id"]
        answers = [
            client.post("/api/games", content=b"{}", headers={**headers,
                                                               "Content-Type": "text/plain"}),
            client.post("/api/games", json=[1], headers=headers),
            client.post("/api/games", json={"variant": 7}, headers=headers),
            client.get(f"/api/games/{gid}/hint?seconds=soon", headers=headers),
            client.post("/api/games", json={"difficulty": "brutal"}, headers=headers),
            client.post(f"/api/games/{gid}/move", json={"move": "a>b", "autoplay": "yes"},
                        headers=headers),
            client.post(f"/api/games/{gid}/merci", json={"card": "AS", "fan": "?"},
                        headers=headers),
            client.get("/api/history/0/review", headers=headers),
        ]
        for r, expected in zip(answers, words, strict=True):
            assert 400 <= r.status_code < 500, (r.status_code, r.text)
            assert expected in r.json()["error"], (expected, r.json())

    def test_undone_names_the_step_in_the_language(self, client: Any) -> None:
        headers = {"Accept-Language": "de"}
        gid = client.post("/api/games", json={"variant": "classic", "deal": 1},
                          headers=headers).json()["id"]
        moved = client.post(f"/api/games/{gid}/move", json={"move": "f>i"}, headers=headers)
        assert moved.status_code == 200
        r = client.post(f"/api/games/{gid}/undo", json={}, headers=headers)
        assert r.json()["messages"][0].startswith("Rückgängig gemacht: ")

    @pytest.mark.parametrize("lang", LANGS)
    def test_variant_titles_and_summaries(self, client: Any, lang: str) -> None:
        listed = client.get("/api/variants", headers={"Accept-Language": lang}).json()
        with using(lang):
            expected = [(v.name, v.display_title(), v.display_summary())
                        for v in VARIANTS.values()]
        assert [(v["name"], v["title"], v["summary"]) for v in listed] == expected
        trefoil = next(v for v in listed if v["name"] == "trefoil")
        assert trefoil["title"] == "Trefoil"  # its name in every language (the glossary)
        fan = next(v for v in listed if v["name"] == "fan")
        assert fan["title"] == {"en": "The Fan", "fr": "Éventail", "nl": "De Waaier",
                                "de": "Der Fächer"}[lang]
        state = client.post("/api/games", json={"variant": "trefoil"},
                            headers={"Accept-Language": lang}).json()
        assert state["variant_title"] == trefoil["title"] and state["variant"] == "trefoil"

    def test_two_languages_at_once_do_not_mix(self, client: Any) -> None:
        """The language is each request's own: never the process's."""
        for lang in ["de", "fr", "en", "nl", "de"]:
            r = client.get("/api/nothing", headers={"Accept-Language": lang})
            assert r.json()["error"].startswith({
                "en": "no such API endpoint", "fr": "point d'accès d'API inexistant",
                "nl": "geen API-eindpunt", "de": "kein API-Endpunkt"}[lang])
        assert language() == "en"


def test_the_language_goes_with_the_job_to_the_worker() -> None:
    """A solver job runs in its caller's language in the worker process."""
    pool = SolverPool(1)

    async def ask(lang: str) -> Any:
        with using(lang):
            return await pool.run(language, budget=60)

    try:
        assert [asyncio.run(ask(lang)) for lang in ["de", "fr", "en", "nl"]] == [
            "de", "fr", "en", "nl"]
        assert pool.started == 1  # one worker, four languages
    finally:
        pool.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_hints_reason_in_the_language(client: Any, lang: str,
                                        win: tuple[int, list[Move]]) -> None:
    """The hint (worked out in a worker process) is the solver's own hint
    in the request's language."""
    from lucie.analysis import hints
    deal, line = win
    headers = {"Accept-Language": lang}
    gid = client.post("/api/games", json={"variant": "trefoil", "deal": deal},
                      headers=headers).json()["id"]
    for move in line[:-3]:
        client.post(f"/api/games/{gid}/move", json={"move": str(move)}, headers=headers)
    h = client.get(f"/api/games/{gid}/hint?seconds=5", headers=headers).json()
    position = Position.deal(Rules.parse("trefoil"), deal)
    for move in line[:-3]:
        position = position.apply(move)
    with using(lang):
        expected = hints.hint(position, max_seconds=5).to_json()
    assert h["move"] == expected["move"] and h["text"] == expected["text"]
    assert h["kind"] == expected["kind"]  # a machine value: the same in every language
    # the words name the cards in symbols, never by their codes or the notation
    assert re.search(r"(10|[2-9AJQKVDRHB])[♣♦♥♠]", h["text"]), h["text"]
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", h["text"])
    assert ">" not in h["text"]
