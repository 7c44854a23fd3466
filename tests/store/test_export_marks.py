"""Exports carry the fair-play marks and the links of each game (issue 41),
on both backends: the JSON and CSV exports tell each game's origin, help
asked and undos, the day whose deal of the day it played and whether it is
in a challenge or a duel; an import keeps the help and undos but makes
every game ``loaded``, so that an imported game never counts for a table;
and an import rewrites no recorded game."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lucie.daily import daily_deal, today
from lucie.rules import Rules
from lucie.session import Session
from lucie.standings import daily_table
from lucie.store import Marks, Store, StoreError

Where = Path | str


def _step(session: Session, n: int = 1) -> None:
    for _ in range(n):
        move = next(m for m in session.game.legal_moves if not m.is_redeal)
        session.play(move)


def _daily_games(store: Store) -> tuple[int, int, int]:
    """ann's daily game with a hint and two undos, bob's fair one (both
    resigned, bob's in a challenge), and cy's game of another deal."""
    deal = daily_deal(Rules())
    ann = Session.new(store, "ann", Rules(), deal)
    _step(ann, 3)
    ann.hint_asked()
    ann.undo()
    ann.undo()
    ann.resign()
    bob = Session.new(store, "bob", Rules(), deal)
    _step(bob, 2)
    bob.resign()
    assert bob.game_id is not None and ann.game_id is not None
    store.new_challenge("a-token-of-the-test", bob.game_id)
    cy = Session.new(store, "cy", Rules(), deal % 1000 + 1)
    _step(cy)
    assert cy.game_id is not None
    for s in (ann, bob, cy):
        s.close()
    return ann.game_id, bob.game_id, cy.game_id


def test_the_export_tells_the_marks_and_links(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as a:
        _daily_games(a)
        text = a.export("json")
        games = {g["player"]: g for g in json.loads(text)["games"]}
        rows = {r["player"]: r for r in csv.DictReader(io.StringIO(a.export("csv")))}
    assert "a-token-of-the-test" not in text  # a challenge's key stays in its store
    assert games["ann"]["marks"] == {"origin": "start", "hints": 1, "undos": 2}
    assert games["bob"]["marks"] == {"origin": "start", "hints": 0, "undos": 0}
    assert games["ann"]["daily"] == games["bob"]["daily"] == str(today())
    assert games["cy"]["daily"] is None
    assert [games[p]["challenge"] for p in ("ann", "bob", "cy")] == [False, True, False]
    assert not any(games[p]["duel"] for p in games)
    assert (rows["ann"]["origin"], rows["ann"]["hints"], rows["ann"]["undos"]) == \
        ("start", "1", "2")
    assert (rows["bob"]["daily"], rows["bob"]["challenge"], rows["cy"]["daily"]) == \
        (str(today()), "1", "")


def test_an_import_keeps_the_marks_and_never_counts(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        ann, bob, _cy = _daily_games(a)
        text = a.export("json")
        assert b.import_games(text).added == 3
        ranked = daily_table(a, Rules())
        assert [(e.record.player, e.rank) for e in ranked.entries] == [("bob", 1), ("ann", None)]
        table = daily_table(b, Rules())  # the same games, imported: none ranked
        assert {e.record.player: e.rank for e in table.entries} == {"ann": None, "bob": None}
        marks = {e.record.player: e.marks for e in table.entries}
        assert marks == {"ann": Marks("loaded", 1, 2), "bob": Marks("loaded", 0, 0)}
        again = {g["player"]: g for g in json.loads(b.export("json"))["games"]}
        assert again["ann"]["marks"] == {"origin": "loaded", "hints": 1, "undos": 2}
        assert again["bob"]["daily"] == str(today()) and again["bob"]["challenge"] is False
        # imported into the store it came from: nothing added, nothing rewritten
        assert a.import_games(text).added == 0
        assert a.marks(ann) == Marks("start", 1, 2) and a.marks(bob).fair


def test_an_export_without_marks_imports_them_as_not_known(fresh: Callable[[], Where]) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        _daily_games(a)
        data = json.loads(a.export("json"))
        for game in data["games"]:  # as a lucie before the marks wrote it
            for key in ("marks", "daily", "challenge", "duel"):
                del game[key]
        assert b.import_games(json.dumps(data)).added == 3
        table = daily_table(b, Rules())
        assert {e.marks for e in table.entries} == {Marks("loaded", None, None)}
        assert all(e.rank is None for e in table.entries)


@pytest.mark.parametrize("marks, why", [
    ({"origin": "start", "hints": -1, "undos": 0}, "hints is -1"),
    ({"origin": "start", "hints": 0, "undos": "two"}, "undos is"),
    ({"origin": "fair", "hints": 0, "undos": 0}, "origin is"),
    ("start", "marks is not an object"),
])
def test_an_import_refuses_damaged_marks(fresh: Callable[[], Where], marks: object,
                                         why: str) -> None:
    with Store(fresh()) as a, Store(fresh()) as b:
        _daily_games(a)
        data = json.loads(a.export("json"))
        data["games"][1]["marks"] = marks
        with pytest.raises(StoreError, match=f"game 2 of the export is damaged: {why}"):
            b.import_games(json.dumps(data))
        assert b.history() == []
