"""The command line against hostile input (issue 25): layouts, moves, saved
games, ``--variant`` specs, ``--deal`` numbers, limits, line-mode input and
database paths.

Every case runs ``lucie.cli.main`` in-process (a few run as subprocesses,
for standard input as bytes and for the console script itself) and checks
three things: the exit status is the one expected (0 accepted, 2 refused,
1/3 solver verdicts), no traceback escaped, and nothing saved changed (the
input files, a save target, the store's rows).  Each case is recorded with
the ``hostile`` fixture.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lucie.cli import main
from lucie.engine import Game, Position
from lucie.errors import LucieError
from lucie.formats import format_layout, save_game
from lucie.rules import Rules
from lucie.store import Store

AREA = "cli"
SETTINGS = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow,
                                           HealthCheck.function_scoped_fixture])


@dataclass
class Run:
    code: int | None
    out: str
    err: str
    crashed: str | None = None  # the exception that escaped main, if any

    @property
    def outcome(self) -> str:
        if self.crashed is not None or "Traceback" in self.out + self.err:
            return "traceback"
        if self.code == 2:
            return "clean_error"
        if self.code in (0, 1, 3):
            return "ok"
        return "traceback"


def run_cli(args: list[str], stdin: str = "") -> Run:
    """``lucie ARGS`` in-process, with ``stdin`` as standard input."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    code: int | None
    crashed = None
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # what must never happen
        code, crashed = None, f"{type(exc).__name__}: {exc}"[:300]
    finally:
        sys.stdin = old_stdin
    return Run(code, out.getvalue(), err.getvalue(), crashed)


def check(hostile: object, case: str, run: Run, allowed: tuple[str, ...],
          *, codes: tuple[int, ...] | None = None, lost: bool = False) -> None:
    """Record the case and assert its outcome (and exit status)."""
    outcome = "data_lost" if lost else run.outcome
    hostile.record(AREA, case, outcome)  # type: ignore[attr-defined]
    detail = f"{case[:200]!r}: {outcome}, exit {run.code}, {run.crashed or run.err[-500:]}"
    assert outcome in allowed, detail
    if codes is not None:
        assert run.code in codes, detail
    if outcome == "clean_error":
        assert "error:" in run.err and run.err.strip(), detail


@pytest.fixture(autouse=True, scope="module")
def private_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """No case may touch the user's database or odds cache."""
    home = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LUCIE_DB", str(home / "default.sqlite3"))
        mp.setenv("LUCIE_CACHE", "off")
        mp.setenv("LUCIE_PLAYER", "fuzz")
        yield home


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile-cli")


def write(folder: Path, name: str, data: str | bytes) -> Path:
    path = folder / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8", newline="")
    else:
        path.write_bytes(data)
    return path


# ---------------------------------------------------------------------------
# Layouts
# ---------------------------------------------------------------------------

DEAL5 = format_layout(Position.deal(Rules(), 5))
CELLS = Rules.parse("classic,cells=2")

#: (name, layout text or bytes, accepted?)
LAYOUTS: list[tuple[str, str | bytes, bool]] = [
    ("valid", DEAL5, True),
    ("bom", "\ufeff" + DEAL5, True),
    ("bom-bytes", b"\xef\xbb\xbf" + DEAL5.encode(), True),
    ("crlf", DEAL5.replace("\n", "\r\n"), True),
    ("comments", "# a deal\n" + DEAL5 + "\n# end\n", True),
    ("freecell-style", "\n".join(": " + line for line in DEAL5.splitlines()), True),
    ("two-boms", "\ufeff\ufeff" + DEAL5, False),
    ("bom-only", "\ufeff", False),
    ("empty", "", False),
    ("blank", "   \n\n\t\n", False),
    ("only-comments", "# nothing\n#\n", False),
    # a won position's layout is its header lines (docs/rules.md, formats.py)
    ("no-card", "Foundations: C-K D-K H-K S-K", True),
    ("no-card-empty-fans", "Foundations: C-K D-K H-K S-K\n-\n-\n-", True),
    ("duplicate", DEAL5 + "\n" + DEAL5.split()[0], False),
    ("missing", DEAL5.replace(DEAL5.split()[3], "", 1), False),
    ("garbage", "hello world\nthis is not a layout", False),
    ("bad-card", DEAL5.replace(DEAL5.split()[0], "1X", 1), False),
    ("unicode-suits", DEAL5.replace("H", "♥"), True),
    ("fullwidth", DEAL5.replace("K", "Ｋ"), False),
    ("nul", DEAL5.replace(" ", "\x00", 1), False),
    ("binary", bytes(range(256)) * 4, False),
    ("latin1", "KH 2S 8S é".encode("latin-1"), False),
    ("utf16", DEAL5.encode("utf-16"), False),
    ("too-many-fans", DEAL5 + "\n-\n-\n-\n-\n-\n-\n-\n-\n-\n-", False),
    ("one-long-fan", " ".join(DEAL5.split()), True),
    ("redeals-superscript", "Redeals: ²\n" + DEAL5, False),
    ("redeals-huge", "Redeals: " + "9" * 5000 + "\n" + DEAL5, False),
    ("redeals-negative", "Redeals: -1\n" + DEAL5, False),
    ("redeals-1e3", "Redeals: 1e3\n" + DEAL5, False),
    ("redeals-ok", "Redeals: 0\n" + DEAL5, True),
    ("merci-bad", "Merci: maybe\n" + DEAL5, False),
    ("two-foundation-lines", "Foundations: C-0\nFoundations: C-0\n" + DEAL5, False),
    ("foundation-rank-10", "Foundations: C-10 D-0 H-0 S-0\nKC", False),
    ("foundation-bad-suit", "Foundations: X-K\nKC", False),
    ("foundation-huge", "Foundations: C-" + "9" * 5000 + "\nKC", False),
    ("cells-no-cells", "Cells: 7H - - -\n" + DEAL5, False),
    ("header-unknown", "Bogus: 1\n" + DEAL5, False),
    ("fan-letter", "a: KH 2S 8S", False),
    ("display-title", "La Belle Lucie, deal 5 · score 0/52\n" + DEAL5, False),
    ("huge-line", "KH " * 300_000, False),
    ("many-lines", "-\n" * 200_000, False),
    ("too-big", "# " + "x" * (5 * 1024 * 1024), False),
    ("only-dashes", "-\n-\n-", False),
    ("colons", ":::\n:::", False),
    ("surrogate-escape", "KH \udcff", False),
    ("emoji", "🂡 🂢 🂣", False),
    ("tabs", DEAL5.replace(" ", "\t"), True),
]


@pytest.mark.parametrize("name, data, accepted", LAYOUTS, ids=[c[0] for c in LAYOUTS])
def test_layouts(hostile: object, workdir: Path, name: str, data: str | bytes,
                 accepted: bool) -> None:
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    path = write(workdir, f"layout-{name}.txt", data)
    for args in (["replay", "--layout", str(path)],
                 ["solve", str(path), "--max-nodes", "2000"]):
        run = run_cli(args)
        check(hostile, f"{args[0]} layout {name}", run,
              ("ok",) if accepted else ("clean_error",),
              codes=(0, 1, 3) if accepted else (2,),
              lost=path.read_bytes() != data)


def test_layout_with_cells(hostile: object, workdir: Path) -> None:
    text = "Cells: - 7H\n" + format_layout(Position.deal(CELLS, 2)).replace("7H", "", 1)
    path = write(workdir, "cells.txt", text)
    run = run_cli(["replay", "--variant", "classic,cells=2", "--layout", str(path)])
    check(hostile, "layout with cells", run, ("ok", "clean_error"))


CARD_TOKENS = [f"{r}{s}" for r in "A23456789TJQK" for s in "CDHS"]


@SETTINGS
@given(st.lists(
    st.one_of(
        st.sampled_from([*CARD_TOKENS, "-", ":", "#", "Foundations:", "Cells:", "Redeals:",
                         "Merci:", "C-5", "S-K", "\n", "\n", " ", "\ufeff", "10H", "²"]),
        st.text(max_size=5),
    ),
    max_size=80,
))
def test_layout_strategy(hostile: object, workdir: Path, tokens: list[str]) -> None:
    text = " ".join(tokens)
    path = write(workdir, "layout-fuzz.txt", text.encode("utf-8", "surrogatepass"))
    before = path.read_bytes()
    run = run_cli(["replay", "--layout", str(path)])
    check(hostile, f"layout fuzz {text[:60]}", run, ("ok", "clean_error"),
          lost=path.read_bytes() != before)


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------

MOVES = [
    "²>a", "a>²", "1²>a", "٣>a", "a>٣", "a>" + "9" * 5000, "9" * 5000 + ">a", "0>a", "a>0",
    "-1>a", "a>-1", ">", ">>", "a>>b", "a>", ">a", "a", "R R R R", "r", "RR", "7H>g",
    "7H>f", "7H>1", "ZZ>a", "a>z", "z>a", "1>2", "\x00", "🂡>a", "a\u200b>b", "A>B",
    "a >b", "a> b", "KH>a", "1>1", "99>a", "999>a", "1000>a", "a>999", "a>f" * 1000,
    "f>i, b>e", "f>i,,b>e", "--", "-x", "a>F", "c>f", "ＡＢ", "a>ｂ",
]


@pytest.mark.parametrize("move", MOVES, ids=range(len(MOVES)))
def test_moves(hostile: object, workdir: Path, move: str) -> None:
    target = write(workdir, "replay-target.json", "keep me\n")
    run = run_cli(["replay", "--deal", "1", "--save", str(target), "--", move])
    check(hostile, f"replay move {move[:60]}", run, ("ok", "clean_error"),
          lost=run.code != 0 and target.read_text() != "keep me\n")


@SETTINGS
@given(st.lists(st.one_of(
    st.sampled_from(["a", "b", "f", "F", "R", "1", "2", ">", ">", "H", "7H", "²", " ", ","]),
    st.text(max_size=4),
), max_size=30))
def test_move_strategy(hostile: object, tokens: list[str]) -> None:
    text = "".join(tokens)
    run = run_cli(["replay", "--deal", "2", "--", text] if text else ["replay", "-d", "2"])
    check(hostile, f"replay fuzz {text[:60]}", run, ("ok", "clean_error"))


# ---------------------------------------------------------------------------
# Saved games
# ---------------------------------------------------------------------------


def _saved() -> dict[str, object]:
    game = Game(Rules.parse("merci"), 3)
    game.push_all(["R", "R"])
    data: dict[str, object] = json.loads(save_game(game))
    return data


def _with(**changes: object) -> str:
    data = _saved()
    for key, value in changes.items():
        if value is _DROP:
            data.pop(key, None)
        else:
            data[key] = value
    return json.dumps(data)


_DROP = object()
GOOD_SAVE = save_game(Game(Rules(), 1))

SAVES: list[tuple[str, str | bytes, bool]] = [
    ("valid", json.dumps(_saved()), True),
    ("bom", "\ufeff" + json.dumps(_saved()), True),
    ("bom-bytes", b"\xef\xbb\xbf" + json.dumps(_saved()).encode(), True),
    *[(f"truncated-{n}", GOOD_SAVE[: len(GOOD_SAVE) * n // 10], False) for n in range(10)],
    ("deep-array", "[" * 100_000 + "]" * 100_000, False),
    ("deep-object", '{"a":' * 50_000 + "1" + "}" * 50_000, False),
    ("deep-unclosed", "[" * 1_000_000, False),
    ("deep-in-field", _with(settings={"x": json.loads("[" * 40 + "1" + "]" * 40)}), False),
    ("array", "[1, 2, 3]", False),
    ("string", '"lucie"', False),
    ("null", "null", False),
    ("number", "1" * 5000, False),
    ("nan", _with(version=float("nan")).replace("NaN", "NaN"), False),
    ("infinity", '{"format": "lucie-saved-game", "version": Infinity}', False),
    ("huge-number", _with(deal=10**60), False),
    ("huge-number-text", _with(deal="9" * 5000), False),
    ("binary", bytes(range(256)), False),
    ("utf16", json.dumps(_saved()).encode("utf-16"), False),
    ("empty", "", False),
    ("format-wrong", _with(format="something-else"), False),
    ("format-missing", _with(format=_DROP), False),
    ("format-huge", _with(format="x" * 100_000), False),
    ("version-0", _with(version=0), False),
    ("version-negative", _with(version=-1), False),
    ("version-newer", _with(version=2), False),
    ("version-huge", _with(version=10**30), False),
    ("version-string", _with(version="1"), False),
    ("version-float", _with(version=1.0), False),
    ("version-bool", _with(version=True), False),
    ("version-missing", _with(version=_DROP), False),
    ("settings-missing", _with(settings=_DROP), False),
    ("settings-list", _with(settings=[1, 2]), False),
    ("settings-bad-cells", _with(settings=_saved()["settings"] | {"cells": "²"}), False),  # type: ignore[operator]
    ("settings-huge-redeals", _with(settings=_saved()["settings"] | {"redeals": 10**40}), False),  # type: ignore[operator]
    ("settings-unknown", _with(settings={"colour": "red"}), False),
    ("settings-bool-number", _with(settings={"cells": True}), False),
    ("deal-zero", _with(deal=0), False),
    ("deal-negative", _with(deal=-5), False),
    ("deal-2^63", _with(deal=2**63), False),
    ("deal-float", _with(deal=3.0), False),
    ("deal-bool", _with(deal=True), False),
    ("deal-list", _with(deal=[3]), False),
    ("deal-null-no-layout", _with(deal=None), False),
    ("deal-null-bad-layout", _with(deal=None, layout="KH KH"), False),
    ("deal-null-empty-layout", _with(deal=None, layout="Foundations: C-K D-K H-K S-K"), False),
    ("seed-missing", _with(seed=_DROP), False),
    ("seed-negative", _with(seed=-1), False),
    ("seed-string", _with(seed="x"), False),
    ("moves-missing", _with(moves=_DROP), False),
    ("moves-string", _with(moves="R R"), False),
    ("moves-ints", _with(moves=[1, 2]), False),
    ("moves-illegal", _with(moves=["R", "R", "R"]), False),
    ("moves-superscript", _with(moves=["²>a"]), False),
    ("moves-huge-cell", _with(moves=["a>" + "9" * 5000]), False),
    ("moves-nested", _with(moves=[["R"]]), False),
    ("moves-many", _with(moves=["a>b"] * 100_000), False),
    ("final-edited", _with(final={"layout": "KH", "score": 52, "status": "won"}), False),
    ("final-wrong-type", _with(final=[1]), True),
    ("resigned-string", _with(resigned="yes"), True),
    ("duplicate-keys", '{"version": 1, "version": 2}', False),
    ("extra-fields", _with(extra={"a": 1}), True),
    ("trailing-garbage", json.dumps(_saved()) + " x", False),
    ("lone-surrogate", _with(variant="\ud800"), True),
]


@pytest.mark.parametrize("name, data, accepted", SAVES, ids=[c[0] for c in SAVES])
def test_saved_games(hostile: object, workdir: Path, name: str, data: str | bytes,
                     accepted: bool) -> None:
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")
    path = write(workdir, f"save-{name}.json", raw)
    run = run_cli(["replay", "--load", str(path), "--json"])
    check(hostile, f"replay --load {name}", run,
          ("ok",) if accepted else ("clean_error",),
          lost=path.read_bytes() != raw)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12,
)
SAVE_KEYS = ["format", "version", "variant", "settings", "deal", "seed", "moves",
             "resigned", "final", "layout"]


@SETTINGS
@given(st.dictionaries(st.sampled_from(SAVE_KEYS), JSON_VALUES, max_size=6))
def test_saved_game_strategy(hostile: object, workdir: Path,
                             changes: dict[str, object]) -> None:
    data = _saved() | changes
    path = write(workdir, "save-fuzz.json", json.dumps(data))
    before = path.read_bytes()
    run = run_cli(["replay", "--load", str(path)])
    check(hostile, f"save fuzz {json.dumps(changes)[:60]}", run, ("ok", "clean_error"),
          lost=path.read_bytes() != before)


# ---------------------------------------------------------------------------
# --variant and --deal
# ---------------------------------------------------------------------------

SPECS: list[tuple[str, bool]] = [
    ("classic", True), ("CLASSIC", True), (" trefoil ", True), ("merci,redeals=0", True),
    ("classic,cells=4", True), ("classic,max_fan=none", True), (",", True), ("", True),
    ("nope", False), ("classic,cells=²", False), ("classic,cells=٣", False),
    ("classic,cells=--5", False), ("classic,cells=-0", False), ("classic,cells=+1", False),
    ("classic,cells=1e30", False), ("classic,cells=nan", False), ("classic,cells=inf", False),
    ("classic,redeals=" + "9" * 5000, False), ("classic,max_fan=" + "9" * 40, False),
    ("classic,fans=0", False), ("classic,fans=27", False), ("classic,fan_size=0", False),
    ("classic,fan_size=14", False), ("classic,fan_size=1", False),
    ("classic,max_fan=2", False), ("classic,cells=9", False), ("classic,redeals=11", False),
    ("classic,merci", False), ("classic,merci=maybe", False), ("classic,=", False),
    ("classic,=5", False), ("classic,cells=", False), ("classic,build=" + "x" * 5000, False),
    ("x" * 100_000, False), ("classic," * 10_000, False), ("classic,\x00=1", False),
    ("classic,cells=4,cells=5", True), ("shamrocks,build=rainbow", False),
    ("classic,colour=red", False), ("🂡", False),
]


@pytest.mark.parametrize("spec, accepted", SPECS, ids=range(len(SPECS)))
def test_variant_specs(hostile: object, spec: str, accepted: bool) -> None:
    run = run_cli(["show", "--deal", "1", f"--variant={spec}"])
    check(hostile, f"--variant {spec[:60]}", run, ("ok",) if accepted else ("clean_error",))


@SETTINGS
@given(st.lists(st.one_of(
    st.sampled_from(["classic", "merci", "shamrocks", ",", "=", "cells", "redeals", "fans",
                     "max_fan", "fan_size", "build", "merci", "on", "off", "none", "any",
                     "0", "1", "4", "9", "²", "-", "e"]),
    st.text(max_size=3),
), max_size=12))
def test_variant_strategy(hostile: object, parts: list[str]) -> None:
    spec = "".join(parts)
    run = run_cli(["show", "--deal", "1", f"--variant={spec}"])
    check(hostile, f"--variant fuzz {spec[:60]}", run, ("ok", "clean_error"))


DEALS: list[tuple[str, bool]] = [
    ("1", True), (" 7 ", True), (str(2**63 - 1), True), ("0", False), ("-1", False),
    ("--5", False), ("+5", False), ("²", False), ("٣", False), ("１", False), ("1e30", False),
    ("1.0", False), ("0x10", False), ("1_000", False), (str(2**63), False),
    ("9" * 5000, False), ("", False), ("nan", False), ("inf", False), ("1 2", False),
    ("\x00", False), ("007", True),
]


@pytest.mark.parametrize("deal, accepted", DEALS, ids=range(len(DEALS)))
def test_deal_numbers(hostile: object, deal: str, accepted: bool) -> None:
    for command in ("show", "replay", "solve"):
        args = [command, f"--deal={deal}"]
        if command == "solve":
            args += ["--max-nodes", "50"]
        run = run_cli(args)
        check(hostile, f"{command} --deal {deal[:60]}", run,
              ("ok",) if accepted else ("clean_error",),
              codes=(0, 1, 3) if accepted else (2,))


@SETTINGS
@given(st.one_of(st.text(max_size=30), st.integers().map(str),
                 st.floats().map(str), st.integers(min_value=0).map(lambda n: "9" * (n % 6000))))
def test_deal_strategy(hostile: object, text: str) -> None:
    run = run_cli(["show", f"--deal={text}"])
    check(hostile, f"--deal fuzz {text[:60]}", run, ("ok", "clean_error"))
    if run.code == 0:
        assert text.strip().isascii() and text.strip().isdigit()


# ---------------------------------------------------------------------------
# Limits
# ---------------------------------------------------------------------------

BAD_NUMBERS = ["0", "-1", "--5", "²", "٣", "1e30", "1e3", "nan", "inf", "-inf", "9" * 5000,
               "", " ", "0x10", "1_0", "+3", "1,5", "three", "\x00", "１"]
BAD_SECONDS = ["0", "0.0", "-1", "--5", "²", "1e30", "nan", "inf", "NaN", "9" * 5000,
               "1." + "5" * 100, "", "1,5", ".", "0.0001", "1e-3", "+2", "2 s"]
#: option -> command line before it (never a valid value here: these stay cheap)
LIMITS: dict[str, tuple[list[str], list[str]]] = {
    "--max-nodes": (["solve", "--deal", "1"], BAD_NUMBERS),
    "--max-seconds": (["solve", "--deal", "1"], BAD_SECONDS),
    "--samples": (["odds", "--deal", "1"], BAD_NUMBERS),
    "--target": (["odds", "--deal", "1"], BAD_NUMBERS),
    "--sample-seed": (["odds", "--deal", "1"], [n for n in BAD_NUMBERS if n != "0"]),
    "--sample-seconds": (["odds", "--deal", "1"], BAD_SECONDS),
    "--seconds": (["hint", "--deal", "1"], BAD_SECONDS),
    "--games": (["study"], BAD_NUMBERS),
    "--jobs": (["study", "--games", "1"], BAD_NUMBERS),
    "--seed": (["study", "--games", "1"], [n for n in BAD_NUMBERS if n != "0"]),
    "--solve-seconds": (["study", "--games", "1"], BAD_SECONDS),
    "--hint-seconds": (["study", "--games", "1"], BAD_SECONDS),
    "--limit": (["history"], [n for n in BAD_NUMBERS if n != "0"]),
    "--port": (["web", "--no-browser"], ["-1", "65536", "²", "٣", "9" * 5000, "1e3", "http"]),
}


@pytest.mark.parametrize("option", list(LIMITS))
def test_limits(hostile: object, option: str) -> None:
    before, values = LIMITS[option]
    for value in values:
        run = run_cli([*before, f"{option}={value}"])
        check(hostile, f"{before[0]} {option} {value[:40]}", run, ("clean_error",),
              codes=(2,))
        assert option in run.err, run.err


@pytest.mark.parametrize("args, codes", [
    (["solve", "--deal", "1", "--max-nodes", "5"], (1, 3)),
    (["solve", "--deal", "13", "--max-seconds", "30"], (0,)),
    (["solve", "--deal", "1", "--max-seconds", "0.5", "--max-nodes", " 7 "], (1, 3)),
    (["solve", "--deal", "1", "--whole-game", "--max-nodes", "1"], (0, 1, 3)),
    (["history", "--limit", "0"], (0,)),
])
def test_valid_limits(hostile: object, args: list[str], codes: tuple[int, ...]) -> None:
    run = run_cli(args)
    check(hostile, " ".join(args), run, ("ok",), codes=codes)


@SETTINGS
@given(st.sampled_from(["--max-nodes", "--max-seconds"]),
       st.one_of(st.text(max_size=12), st.floats().map(str), st.integers().map(str)))
def test_limit_strategy(hostile: object, option: str, value: str) -> None:
    run = run_cli(["solve", "--deal", "1", "--max-nodes", "50", f"{option}={value}"])
    check(hostile, f"solve {option} {value[:40]}", run, ("ok", "clean_error"),
          codes=(1, 2, 3))


# ---------------------------------------------------------------------------
# Line mode and the store
# ---------------------------------------------------------------------------


def _rows(db: Path) -> list[tuple[object, ...]]:
    """What a player keeps: each game's status, score, moves and saved game."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(
            "SELECT id, player_id, variant, deal, status, score, moves, saved FROM games "
            "ORDER BY id").fetchall()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def played_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with one finished and one unfinished game of player ``ann``."""
    db = tmp_path_factory.mktemp("store") / "games.sqlite3"
    with Store(db) as store:
        done = Game(Rules(), 3)
        done.resign()
        store.finish_game(store.start_game(done, "ann"), done, 10.0)
        game = Game(Rules(), 1)
        game.push_all(["f>i", "b>e"])
        gid = store.start_game(game, "ann")
        store.record_move(gid, game, 5.0)
    return db


LINES = [
    "zz", "²>a", "a>" + "9" * 5000, "9" * 5000, "\x00", "a>b", "R>a", "7H>g", "1>a", "a>1",
    "hint!", "undo undo", "uu", "🂡", "\ufeffq", "a>z", "x" * 100_000, "   ", "?",
    "m", "moves", "help", "\t", "\r", "1e30", "--5",
]


@pytest.mark.parametrize("line", LINES, ids=range(len(LINES)))
def test_line_mode_input(hostile: object, played_db: Path, line: str) -> None:
    before = _rows(played_db)
    run = run_cli(["play", "--plain", "--db", str(played_db), "--player", "ann"],
                  stdin=f"{line}\nq\n")
    check(hostile, f"play --plain line {line[:50]}", run, ("ok",), codes=(0,),
          lost=_rows(played_db) != before)
    assert "Welcome back" in run.out


@SETTINGS
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12)
                .filter(lambda s: s.strip() not in {
                    "q", "quit", "exit", "u", "undo", "y", "redo", "a", "auto", "autoplay",
                    "resign", "hint", "R", "r"}),
                max_size=8))
def test_line_mode_strategy(hostile: object, played_db: Path, lines: list[str]) -> None:
    """Random lines that are not commands change nothing; a line that is a
    legal move is played and saved, and then it is taken back with ``u``."""
    before = _rows(played_db)
    script = "".join(f"{line.replace(chr(10), ' ').replace(chr(13), ' ')}\n" for line in lines)
    played = []
    game = Game(Rules(), 1)
    game.push_all(["f>i", "b>e"])
    for line in script.split("\n")[:-1]:  # as readline splits it
        try:
            game.push(line.strip())
        except LucieError:  # not a legal move
            continue
        played.append(line)
    undo = "u\n" * len(played)
    run = run_cli(["play", "--plain", "--db", str(played_db), "--player", "ann"],
                  stdin=script + undo + "q\n")
    check(hostile, f"play --plain fuzz {script[:50]}", run, ("ok",), codes=(0,),
          lost=_rows(played_db) != before)


DB_CASES: list[tuple[str, str | bytes | None]] = [
    ("directory", None),
    ("text-file", "my notes\n" * 100),
    ("binary-file", bytes(range(256)) * 64),
    ("truncated-sqlite", b"SQLite format 3\x00" + b"\x00" * 50),
]


@pytest.mark.parametrize("kind, content", DB_CASES, ids=[c[0] for c in DB_CASES])
def test_unusable_database(hostile: object, tmp_path: Path, kind: str,
                           content: str | bytes | None) -> None:
    db = tmp_path / "games.db"
    if content is None:
        db.mkdir()
    else:
        write(tmp_path, "games.db", content)
    before = None if content is None else db.read_bytes()
    run = run_cli(["play", "--plain", "--db", str(db), "--deal", "1"], stdin="f>i\nq\n")
    check(hostile, f"play --plain --db {kind}", run, ("clean_error",), codes=(2,),
          lost=before is not None and db.read_bytes() != before)
    assert "move>" not in run.out


def test_database_under_a_file(hostile: object, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    run = run_cli(["play", "--plain", "--db", str(tmp_path / "file" / "a.db")], stdin="q\n")
    check(hostile, "play --plain --db under a file", run, ("clean_error",), codes=(2,),
          lost=(tmp_path / "file").read_text() != "x")


# ---------------------------------------------------------------------------
# A few real processes: bytes on standard input, the console script
# ---------------------------------------------------------------------------

STDIN_CASES: list[tuple[list[str], bytes, tuple[int, ...]]] = [
    (["replay", "--layout", "-"], b"\xff\xfe\x00garbage", (2,)),
    (["replay", "--layout", "-"], b"\xef\xbb\xbf" + DEAL5.encode(), (0,)),
    (["solve", "-", "--max-nodes", "100"], b"\xef\xbb\xbf" + DEAL5.encode(), (0, 1, 3)),
    (["solve", "-"], b"", (2,)),
    (["replay", "--load", "-"], b"[" * 200_000, (2,)),
    (["play", "--plain", "--deal", "1"], b"f>i\n\xff\xfe>a\n\x00\nq\n", (0,)),
]


@pytest.mark.slow
@pytest.mark.parametrize("args, data, codes", STDIN_CASES, ids=range(len(STDIN_CASES)))
def test_standard_input_bytes(hostile: object, tmp_path: Path, args: list[str], data: bytes,
                              codes: tuple[int, ...]) -> None:
    env = os.environ | {"LUCIE_DB": str(tmp_path / "db.sqlite3"), "LUCIE_CACHE": "off"}
    proc = subprocess.run([sys.executable, "-m", "lucie", *args], input=data,
                          capture_output=True, timeout=120, env=env)
    run = Run(proc.returncode, proc.stdout.decode(errors="replace"),
              proc.stderr.decode(errors="replace"))
    check(hostile, f"subprocess {' '.join(args)} {data[:30]!r}", run,
          ("ok", "clean_error"), codes=codes)
