"""The nesting depth lucie.parsing measures before reading JSON (its guard
against deep nesting) is the one a character-by-character scan gives."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from lucie.parsing import _depth


def _scanned(text: str) -> int:
    """The deepest nesting of ``[``/``{`` outside strings, a character at a time."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


@given(st.text(alphabet='[]{}"a ,:\n', max_size=200))
def test_the_depth_is_a_scans(text: str) -> None:
    assert _depth(text) == _scanned(text)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\\n\ta\u00e9'),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=4), inner, max_size=4),
    max_leaves=30)


@given(_JSON)
def test_the_depth_of_json_with_escapes_is_a_scans(value: object) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False),
                 json.dumps(value, indent=1)):
        assert _depth(text) == _scanned(text)
        assert _depth(text[:len(text) // 2]) == _scanned(text[:len(text) // 2])


def test_deep_texts() -> None:
    assert _depth("[" * 10_000 + "]" * 10_000) == 10_000
    assert _depth('"' + "[" * 100 + '"' + "{}") == 1
