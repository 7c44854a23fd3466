"""Numbers as each language writes them (issue 37), and the engine and the
solver free of Babel.

``lucie.i18n.format_number``, ``format_percent`` and ``format_seconds`` go
through Babel's number formatting: a decimal comma in French, Dutch and
German, a no-break space before ``%`` in French and German.  The command
line, the terminal and the page's server texts use them; ``--json`` output
stays machine-readable.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from lucie.i18n import LANGUAGES, format_number, format_percent, format_seconds, using

NBSP = "\u00a0"


@pytest.mark.parametrize(("lang", "percent", "number", "seconds"), [
    ("en", "9.8%", "1,234.5", "2.5" + NBSP + "s"),
    ("fr", "9,8" + NBSP + "%", "1\u202f234,5", "2,5" + NBSP + "s"),
    ("nl", "9,8%", "1.234,5", "2,5" + NBSP + "s"),
    ("de", "9,8" + NBSP + "%", "1.234,5", "2,5" + NBSP + "s"),
])
def test_numbers_follow_the_language(lang: str, percent: str, number: str,
                                     seconds: str) -> None:
    with using(lang):
        assert format_percent(0.098, 1) == percent
        assert format_number(1234.5, 1) == number
        assert format_seconds(2.5) == seconds
        assert format_percent(1.0) == percent.replace("9,8", "100").replace("9.8", "100")


def test_digits_are_exact() -> None:
    assert format_percent(0.12346, 2) == "12.35%"
    assert format_percent(0.5) == "50%"
    assert format_number(3.0, 0) == "3"
    assert format_number(0.05, 2) == "0.05"


def test_the_command_line_speaks_the_language_s_numbers_and_json_does_not(
    tmp_path: object,
) -> None:
    """``lucie odds`` in each language: the win rate with the language's
    decimal sign; with ``--json`` the same figures as plain numbers."""
    base = [sys.executable, "-m", "lucie", "odds", "-v", "noredeal", "-d", "13",
            "--samples", "5", "--cache", "off"]
    texts = {}
    for lang in LANGUAGES:
        proc = subprocess.run([*base, "--lang", lang], capture_output=True, text=True,
                              timeout=120, check=True)
        texts[lang] = proc.stdout
    assert "100.0%" in texts["en"]
    assert "100,0" + NBSP + "%" in texts["fr"] and "100,0" + NBSP + "%" in texts["de"]
    assert "100,0%" in texts["nl"] and "100.0" not in texts["nl"]
    data = json.loads(subprocess.run([*base, "--lang", "fr", "--json"], capture_output=True,
                                     text=True, timeout=120, check=True).stdout)
    assert data["win_rate"] == 1.0


def test_the_engine_and_the_solver_play_and_search_without_babel() -> None:
    """Playing, refusing a move, describing it and searching a deal load no
    Babel module: only a number shown to a person does."""
    script = """
import sys
from lucie.engine import Game, Move
from lucie.i18n import using
from lucie.rules import Rules
from lucie.solver import solve_deal
from lucie.analysis.hints import hint
with using("fr"):
    game = Game(Rules(), deal=1)
    game.position.why_illegal(Move.parse("a>b"))
    game.position.describe(Move.parse("f>i"))
    game.play("f>i")
    solve_deal(game.position)
    hint(game.position, max_seconds=2.0)
assert not any(name.split(".")[0] == "babel" for name in sys.modules), "babel loaded"
"""
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
