"""The API's JSON answers (lucie.web.answers, written with orjson) are the
text the standard library writes, for every answer a game gives."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from lucie.engine import Game
from lucie.formats import position_json
from lucie.rules import Rules
from lucie.web.answers import json_bytes
from lucie.web.views import deals_as_text, table_json


def _stdlib(content: object) -> bytes:
    # what Starlette's JSONResponse wrote before
    return json.dumps(content, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(1, 10**6), steps=st.integers(0, 60),
       variant=st.sampled_from(["classic", "merci", "trefoil", "fan", "reserve"]))
def test_a_games_answer_is_the_standard_librarys_text(deal: int, steps: int,
                                                      variant: str) -> None:
    game = Game(Rules.parse(variant), deal)
    for i in range(steps):
        legal = list(game.legal_moves)
        if not legal:
            break
        game.play(legal[i % len(legal)], autoplay=False)
    data = deals_as_text(position_json(game))
    data.update(table_json(game))
    data["messages"] = ["10♥ sur le V♠ — « déplacé »"]
    assert json_bytes(data) == _stdlib(data)


def test_keys_that_are_not_text_are_written_as_text() -> None:
    data = {1: "a", "b": {2: [None, True, 1.5]}, "é": "\u2028"}
    assert json_bytes(data) == _stdlib(data)
    assert json.loads(json_bytes(data)) == {"1": "a", "b": {"2": [None, True, 1.5]},
                                            "é": "\u2028"}
