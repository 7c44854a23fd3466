"""The shared argument types of ``lucie.cli.common`` and the number readers
of ``lucie.parsing`` behind them (issue 25.4, 26.6)."""

from __future__ import annotations

import argparse
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lucie.cli import build_parser, common
from lucie.errors import LucieError
from lucie.parsing import parse_int, parse_seconds


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def test_every_typed_option_uses_a_shared_type() -> None:
    """No sub-command reads a number with its own int() or float()."""
    found = []
    for name, sub in _subparsers(build_parser()).items():
        for action in sub._actions:
            if action.type is None:
                continue
            assert getattr(action.type, "__module__", None) == common.__name__, (
                f"lucie {name} {action.option_strings}: type {action.type!r} "
                "is not one of lucie.cli.common's")
            found.append((name, action.dest))
    assert ("solve", "max_nodes") in found and ("history", "limit") in found
    assert ("odds", "samples") in found and ("web", "port") in found


@given(st.integers(min_value=1, max_value=10**12))
def test_count_reads_its_range(n: int) -> None:
    assert common.count("positions", 1, 10**12)(str(n)) == n
    assert common.count("positions", 1, 10**12)(f" {n}\n") == n


@given(st.text(max_size=30))
def test_count_accepts_only_ascii_digits(text: str) -> None:
    read = common.count("games", 0, 10**9)
    stripped = text.strip()
    if stripped.isascii() and stripped.isdigit() and int(stripped) <= 10**9:
        assert read(text) == int(stripped)
    else:
        with pytest.raises(argparse.ArgumentTypeError):
            read(text)


@pytest.mark.parametrize("text, words", [
    ("0", "games 0 is out of range: it must be at least 1"),
    ("20000000", "games 20000000 is out of range: it must be at most 10000000"),
    ("²", "games '²' is not a whole number from 1 to 10000000"),
    ("9" * 5000, "(5000 characters) is not a whole number"),
])
def test_count_messages(text: str, words: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as info:
        common.count("games", 1, 10**7)(text)
    assert words in str(info.value)
    assert len(str(info.value)) < 120


@given(st.floats(min_value=0.001, max_value=7 * 24 * 3600.0))
def test_seconds_read_plain_decimals(value: float) -> None:
    text = f"{value:.6f}"
    assert common.seconds()(text) == pytest.approx(float(text))


@pytest.mark.parametrize("text", ["1e3", "1E3", "nan", "NaN", "inf", "-inf", "-1", "+1", "0",
                                  "0.0009", "²", "1,5", ".", "", "1." + "0" * 10,
                                  "9" * 20, "0x1", "1_0", "604801"])
def test_seconds_refuse(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        common.seconds()(text)


def test_budget_takes_none() -> None:
    assert common.budget()("none") is None and common.budget()(" OFF ") is None
    assert common.budget()(".5") == 0.5


@given(st.one_of(st.floats(), st.integers(), st.booleans(), st.none(), st.text(max_size=10)))
def test_parse_seconds_never_returns_what_it_should_not(value: object) -> None:
    try:
        number = parse_seconds(value, what="s", low=0.001, high=60)
    except LucieError:
        return
    assert not isinstance(value, bool)
    assert math.isfinite(number) and 0.001 <= number <= 60


@given(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(), st.text(max_size=12)))
def test_parse_int_never_returns_what_it_should_not(value: object) -> None:
    try:
        number = parse_int(value, what="n", low=-5, high=10**6)
    except LucieError:
        return
    assert type(number) is int and -5 <= number <= 10**6
    assert isinstance(value, int | str) and not isinstance(value, bool)


@pytest.mark.parametrize("text", ["-1", "65536", "²", "٣", "80.0", "http"])
def test_port_refuses(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError):
        common.port(text)


def test_seed_bounds() -> None:
    assert common.seed("0") == 0 and common.seed(str(2**63 - 1)) == 2**63 - 1
    for bad in ("-1", str(2**63), "1e3"):
        with pytest.raises(argparse.ArgumentTypeError):
            common.seed(bad)


@pytest.mark.parametrize("args", [
    ["solve", "--deal", "1", "--max-nodes=--"],
    ["solve", "--deal", "1", "--max-seconds=--"],
    ["show", "--variant=--"],
    ["--deal=--"],
])
def test_a_double_dash_given_as_a_value_is_refused(
        args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Python 3.11's argparse turns ``--option=--`` into an empty list; the
    command line refuses it as it refuses an option without its value
    (it reached the solver as a list)."""
    from lucie.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(args)
    assert exit_.value.code == 2
    option = next(a for a in args if a.endswith("=--"))[:-3]
    assert f"argument {option}: expected one argument" in capsys.readouterr().err
