"""The store's messages in French, Dutch and German (issue 29), and export
files that are the same whatever the language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lucie.engine import Game
from lucie.i18n import using
from lucie.rules import Rules
from lucie.store import Store, StoreError


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "{path} is an empty file, not a lucie database; it was left untouched. "
           "Delete it (or choose another file with --db) to start a new one."),
    ("fr", "{path} est un fichier vide, pas une base de données lucie\u00a0; il n'a pas été "
           "modifié. Supprimez-le (ou choisissez un autre fichier avec --db) pour en "
           "commencer une nouvelle."),
    ("nl", "{path} is een leeg bestand, geen lucie-database; het is niet aangeraakt. "
           "Verwijder het (of kies een ander bestand met --db) om een nieuwe te beginnen."),
    ("de", "{path} ist eine leere Datei, keine lucie-Datenbank; sie wurde nicht verändert. "
           "Löschen Sie sie (oder wählen Sie mit --db eine andere Datei), um eine neue "
           "anzulegen."),
])
def test_an_empty_file_is_refused_in_each_language(
    tmp_path: Path, language: str, expected: str,
) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"")
    with using(language), pytest.raises(StoreError) as caught:
        Store(path)
    assert str(caught.value) == expected.format(path=path)
    assert path.read_bytes() == b""


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "there is no game 999 in {path}"),
    ("fr", "il n'y a pas de partie 999 dans {path}"),
    ("nl", "er is geen spel 999 in {path}"),
    ("de", "es gibt kein Spiel 999 in {path}"),
])
def test_a_missing_game(store: Store, language: str, expected: str) -> None:
    with using(language):
        with pytest.raises(StoreError) as caught:
            store.game(999)
        assert str(caught.value) == expected.format(path=store.where)
        with pytest.raises(StoreError) as caught:
            store.record(999)
        assert str(caught.value) == expected.format(path=store.where)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "not a lucie games export (format 'lucie-games' expected)"),
    ("fr", "pas un export de parties lucie (format 'lucie-games' attendu)"),
    ("nl", "geen export van lucie-spellen (formaat 'lucie-games' verwacht)"),
    ("de", "kein lucie-Spielexport (Format 'lucie-games' erwartet)"),
])
def test_importing_something_else(store: Store, language: str, expected: str) -> None:
    with using(language), pytest.raises(StoreError) as caught:
        store.import_games('{"format": "other"}')
    assert str(caught.value) == expected


def test_a_damaged_import_names_the_game_and_the_problem(store: Store) -> None:
    game = Game(Rules(), deal=1)
    gid = store.start_game(game, "ann")
    store.finish_game(gid, game, seconds=1.0)
    doc = json.loads(store.export("json"))
    doc["games"][0]["game"]["moves"] = ["a>b"]
    with using("nl"), pytest.raises(StoreError) as caught:
        store.import_games(json.dumps(doc))
    assert str(caught.value) == (
        "spel 1 van de export is beschadigd: het opgeslagen spel laat zich niet opnieuw "
        "afspelen: zet 1 (a>b) is niet toegestaan: 4♠ kan niet op 10♥ (waaiers bouwen af per "
        "kleur)"
    )
    assert store.history("ann") and len(store.history("ann")) == 1  # nothing was added


def test_variant_names_follow_the_language_but_exports_do_not(store: Store) -> None:
    game = Game(Rules.parse("fan"), deal=5)
    gid = store.start_game(game, "ann")
    record = store.record(gid)
    assert record.variant_name == "The Fan"
    with using("de"):
        assert store.record(gid).variant_name == "Der Fächer"
        assert store.record(gid).to_json()["variant_name"] == "Der Fächer"
        exported_json = store.export("json")
        exported_csv = store.export("csv")
    assert exported_json == store.export("json")
    assert exported_csv == store.export("csv")
    assert json.loads(exported_json)["games"][0]["variant_name"] == "The Fan"
    assert ",The Fan," in exported_csv
