"""A deal's rating (:class:`Rated`) read back from its JSON, as the store
keeps a picked deal's rating (issue 35)."""

from __future__ import annotations

import json

import pytest

from lucie.analysis.difficulty import TABLE, Rated, Thresholds
from lucie.analysis.review import Value
from lucie.i18n import using

_ON_DEMAND = Thresholds("noredeal fan", (0.0, 31), (0.0, 45), 12, "on demand", "2026-12-04",
                        measured=False)

RATINGS = {
    "picked estimate, undecided, with a later exact figure": Rated(
        "hard", False, Value(0.1172, "estimate", 0.0817, 0.1651, 384, False, None),
        TABLE["classic"], False, True,
        later=Rated("medium", False, Value.exact(0.15, clears=False), TABLE["classic"], True)),
    "exact, clearable, decided": Rated("clearable", True, Value.exact(1.0, clears=True),
                                       None, True, True),
    "a last deal's best score, thresholds on demand": Rated(
        "hard", False, Value.exact(0.0, clears=False, best_score=37), _ON_DEMAND, True),
    "not settled in time": Rated(None, None, Value.unknown(), TABLE["classic"]),
    "a bound": Rated("easy", None, Value(0.5, "bound", 0.5, 1.0, 96), TABLE["classic"]),
}


@pytest.mark.parametrize("rated", RATINGS.values(), ids=RATINGS.keys())
def test_a_rating_round_trips_through_json(rated: Rated) -> None:
    data = rated.to_json()
    back = Rated.from_json(json.loads(json.dumps(data)))
    assert back == rated
    assert back.to_json() == data
    with using("de"):  # the sentence is made again, in the language in use
        assert Rated.from_json(data).text() == rated.text()


@pytest.mark.parametrize("change", [
    lambda d: d.pop("value"),
    lambda d: d.update(difficulty="brutal"),
    lambda d: d.update(clearable="yes"),
    lambda d: d["value"].update(kind="guess"),
    lambda d: d["value"].update(low="low"),
    lambda d: d["thresholds"].update(hard_below=[0.1]),
    lambda d: d.update(later=[]),
], ids=["no value", "unknown difficulty", "clearable not a flag", "unknown kind",
        "low not a number", "short threshold", "later not an object"])
def test_anything_else_is_refused(change: object) -> None:
    data = json.loads(json.dumps(next(iter(RATINGS.values())).to_json()))
    change(data)  # type: ignore[operator]
    with pytest.raises(ValueError):
        Rated.from_json(data)
