"""The command line and line mode speak English, French, Dutch and German
(issue 29): ``--lang CODE`` before or after the command, else the locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG); argparse's own phrases too; plural
forms by the count; ``--json``, move notation and card codes unchanged."""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lucie import i18n
from lucie.cli import main
from lucie.engine import Game, Move, Position
from lucie.errors import MoveError
from lucie.i18n import TRANSLATED, _, format_number, format_percent, ngettext, pgettext, using
from lucie.rules import Rules

LANGS = TRANSLATED


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         script: str, *args: str) -> tuple[int, str, str]:
    """``lucie ARGS`` with ``script`` as standard input (line mode)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    return run(capsys, *args)


def translated(lang: str, text: str) -> str:
    """``text`` in ``lang``, checked to be a real translation."""
    with using(lang):
        found = _(text)
    assert found != text, f"{text!r} is not translated into {lang}"
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_an_illegal_move_in_line_mode(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path, lang: str) -> None:
    """The engine's refusal comes translated, line mode's own words too, the
    move is refused as in English and the game goes on."""
    db = str(tmp_path / "a.db")
    english = run_line(monkeypatch, capsys, db, "en")
    code, out, err = run_line(monkeypatch, capsys, db, lang)
    assert code == english[0] == 0 and err == english[2] == ""
    with using(lang):
        refusal = Position.deal(Rules(), 1).why_illegal(Move.parse("a>b"))
        with pytest.raises(MoveError) as refused:
            Game(Rules(), 1).play(Move.parse("a>b"))
    # the cards in symbols, as the table shows them, never their codes
    assert refusal is not None and refusal.startswith("4♠") and "10♥" in refusal
    assert "4S" not in refusal and "TH" not in refusal
    assert refusal in str(refused.value) and f"! {refused.value}\n" in out
    assert "4♠ cannot go on 10♥" not in out and "4♠ cannot go on 10♥" in english[1]
    assert translated(lang, "move> ") in out and "move> " not in out
    assert translated(lang, "Type a move (like c>g), ? for help, q to quit.") in out
    assert "undone: 7♦ from fan f onto 8♦ in fan i" in english[1]
    with using(lang):
        said = Position.deal(Rules(), 1).describe(Move.parse("f>i"))
    assert said.startswith("7♦") and "8♦" in said
    assert translated(lang, "undone: {moves}").format(moves=said) in out
    # the table: fan letters and symbols do not change, the face letters do
    face = {"fr": ("V♦ R♠ 4♠", "D♥"), "nl": ("B♦ H♠ 4♠", "V♥"),
            "de": ("B♦ K♠ 4♠", "D♥")}[lang]
    assert "  a: J♦ K♠ 4♠" in english[1] and f"  a: {face[0]}\n" in out
    assert f"  k: 9♠ {face[1]} 6♣\n" in out and "  r: 6♥" in out


def run_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             db: str, lang: str) -> tuple[int, str, str]:
    return play(monkeypatch, capsys, "a>b\nf>i\nu\nq\n", "--lang", lang, "play", "--plain",
                "--db", db, "--deal", "1", "--player", f"p{lang}")


def test_the_words_are_those_of_each_language(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """A few texts as a speaker of each language reads them."""
    words = {"fr": ("coup> ", "Tapez un coup", "annulé : 7♦ de l'éventail f sur 8♦"),
             "nl": ("zet> ", "Typ een zet", "ongedaan gemaakt: 7♦ van waaier f op 8♦"),
             "de": ("Zug> ", "Geben Sie einen Zug ein", "rückgängig gemacht: 7♦ von Fächer f")}
    for lang, expected in words.items():
        _code, out, _err = run_line(monkeypatch, capsys, str(tmp_path / "a.db"), lang)
        for text in expected:
            assert text in out.replace("\u00a0", " "), (lang, text)


@pytest.mark.parametrize("lang", LANGS)
def test_plural_forms_of_finished_games(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path, lang: str) -> None:
    """Line mode's statistics after a game: "1 game of ...", then "2 games of ..."."""
    db = str(tmp_path / "a.db")
    outs = []
    for deal in ("1", "2"):
        code, out, _err = play(monkeypatch, capsys, "resign\nq\n", "play", "--plain",
                               "--db", db, "--deal", deal, "--player", "ann", "--lang", lang)
        assert code == 0
        outs.append(out)
    with using(lang):
        name = Rules().name()
        forms = [ngettext("{player}: {games} game of {variant} finished, {wins} won "
                          "({rate}), average score {average}, streak {streak}",
                          "{player}: {games} games of {variant} finished, {wins} won "
                          "({rate}), average score {average}, streak {streak}",
                          n).format(player="ann", games=n, variant=name, wins=0,
                                    rate=format_percent(0), average=format_number(0, 1),
                                    streak=0) for n in (1, 2)]
        resigned = _("You resigned. Score {score}/52. (again, new, u to practise, "
                     "q to quit)").format(score=0)
    assert forms[0] != forms[1]
    assert forms[0] in outs[0] and forms[1] in outs[1] and resigned in outs[1]
    one, two = {"fr": ("1 partie terminée", "2 parties terminées"), "nl": ("1 spel", "2 spellen"),
                "de": ("1 Spiel", "2 Spiele")}[lang]
    assert one in outs[0] and two in outs[1]
    # the language's decimal sign and percent sign
    assert {"fr": "(0\u00a0%), score moyen 0,0", "nl": "(0%), gemiddelde score 0,0",
            "de": "(0\u00a0%), im Schnitt 0,0"}[lang] in outs[0]


def test_plural_forms_in_english(monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    _c, first, _e = play(monkeypatch, capsys, "resign\nq\n", "play", "--plain", "--db", db,
                         "--deal", "1", "--player", "ann")
    _c, second, _e = play(monkeypatch, capsys, "resign\nq\n", "play", "--plain", "--db", db,
                          "--deal", "2", "--player", "ann")
    assert "ann: 1 game of La Belle Lucie finished, 0 won (0%)" in first
    assert "ann: 2 games of La Belle Lucie finished, 0 won (0%)" in second


@pytest.mark.parametrize("lang", LANGS)
def test_stats_and_history_tables(monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str],
                                  tmp_path: Path, lang: str) -> None:
    db = str(tmp_path / "a.db")
    play(monkeypatch, capsys, "resign\nq\n", "play", "--plain", "--db", db, "--deal", "1",
         "--player", "ann")
    code, out, err = run(capsys, "stats", "--db", db, "--player", "ann", "--lang", lang)
    assert code == 0 and err == ""
    with using(lang):
        lines = [_("{player}, {variant}").format(player="ann", variant=_("all variants")),
                 _("  games {games}, won {wins} ({rate})").format(
                     games=1, wins=0, rate=format_percent(0, 1)),
                 _("  best streak {best}, current streak {current}").format(best=0,
                                                                           current=0)]
        empty = _("  no finished game yet")
        heads = [pgettext("history column", "result"), pgettext("history column", "player")]
        resigned = pgettext("game status", "resigned")
    assert out.splitlines()[:3] == [lines[0], lines[1], out.splitlines()[2]]
    assert lines[1].endswith({"fr": "(0,0\u00a0%)", "nl": "(0,0%)", "de": "(0,0\u00a0%)"}[lang])
    assert lines[2] in out and "games 1" not in out
    _c, nobody, _e = run(capsys, "--lang", lang, "stats", "--db", db, "--player", "bob")
    assert empty in nobody
    code, table, _e = run(capsys, "--lang", lang, "history", "--db", db)
    assert code == 0
    head, row = table.splitlines()
    assert all(h in head for h in heads) and "result" not in head
    assert resigned in row and "resigned" not in row and " ann " in row
    # the columns line up: the row's deal number ends under the heading "deal"
    with using(lang):
        deal_head = pgettext("history column", "deal")
    assert head.index(deal_head) + len(deal_head) == row.index(f"1  {resigned}") + 1


@pytest.mark.parametrize("lang", LANGS)
def test_help_in_each_language(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    code, out, _e = run(capsys, "--lang", lang, "--help")
    assert code == 0
    assert out.startswith(translated(lang, "usage: ") + "lucie ")
    assert translated(lang, "show this help message and exit") in out
    assert translated(lang, "print a player's statistics") in out
    assert "usage:" not in out and "show this help message" not in out
    code, out, _e = run(capsys, "stats", "--help", "--lang", lang)
    with using(lang):
        assert code == 0 and _("options") + ":" in out
    assert translated(lang, "player name (default: your login name)") in out
    # line mode's help
    code, out, _e = run(capsys, "replay", "--lang", lang, "--help")
    assert translated(lang, "moves to apply, in order") in out


@pytest.mark.parametrize("lang", LANGS)
def test_argparse_errors_in_each_language(capsys: pytest.CaptureFixture[str],
                                          lang: str) -> None:
    code, out, err = run(capsys, "--lang", lang, "study")
    required = translated(lang, "the following arguments are required: %s") % "--games/-n"
    assert code == 2 and out == "" and required in err
    assert err.startswith(translated(lang, "usage: "))
    error = translated(lang, "%(prog)s: error: %(message)s\n")
    assert error % {"prog": "lucie study", "message": required} in err
    code, _o, err = run(capsys, "--lang", lang, "export", "--format", "xml")
    assert code == 2 and "invalid choice" not in err and "'xml'" in err
    # argparse is left as it was
    assert getattr(argparse, "_")("usage: ") == "usage: "  # noqa: B009


@pytest.mark.parametrize("lang", LANGS)
def test_lucie_errors_in_each_language(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path, lang: str) -> None:
    code, out, err = run(capsys, "--lang", lang, "solve", "--deal", "1",
                         str(tmp_path / "x.txt"))
    with using(lang):
        expected = _("lucie: error: {message}").format(
            message=_("give either a layout {file} or --deal N, not both").format(
                file=pgettext("command-line placeholder", "FILE")))
    assert code == 2 and out == "" and err == expected + "\n"
    assert "lucie: error:" not in err
    code, _o, err = run(capsys, "--lang", lang, "replay", "--load", str(tmp_path / "none"))
    assert code == 2 and translated(lang, "{file}: no such file").format(
        file=tmp_path / "none") in err


def test_unknown_language_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    for code_given, args in (("xx", ["--lang", "xx", "stats"]), ("xx", ["stats", "--lang=xx"]),
                             ("it", ["--lang", "it"])):
        code, out, err = run(capsys, *args)
        assert code == 2 and out == ""
        assert f"argument --lang: unknown language '{code_given}': choose one of" in err
        assert all(f"{c} ({n})" in err for c, n in i18n.LANGUAGES.items())
        assert err.rstrip().splitlines()[-1].startswith("lucie")
    code, _o, err = run(capsys, "stats", "--lang")
    assert code == 2 and "--lang" in err and "expected one argument" in err
    assert i18n.language() == "en"


def test_lang_before_or_after_the_command(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    db = str(tmp_path / "a.db")
    outputs = set()
    for args in (["--lang", "de", "stats"], ["stats", "--lang", "de"],
                 ["--lang=de", "stats"], ["--lang", "fr", "stats", "--lang", "de"]):
        code, out, _e = run(capsys, *args, "--db", db, "--player", "bob")
        assert code == 0
        outputs.add(out)
    assert outputs == {"bob, alle Varianten\n  noch kein beendetes Spiel\n"}
    # `lucie --lang fr --deal 1` plays deal 1 (the default command), in French
    code, out, _e = play(monkeypatch, capsys, "q\n", "--lang", "fr", "--deal", "1", "--plain",
                         "--db", db)
    assert code == 0 and "coup> " in out and ("deal 1" in out or "donne 1" in out)
    assert i18n.language() == "en"  # main() leaves the process as it found it


def test_the_language_of_the_environment(tmp_path: Path) -> None:
    """``LANG=de_DE.UTF-8 lucie ...`` speaks German; LANGUAGE comes first,
    --lang before all; LC_ALL=C is English."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    db = str(tmp_path / "a.db")

    def lucie(env: dict[str, str], *args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "lucie", *args, "--db", db,
                               "--player", "bob"], env={**base, **env},
                              capture_output=True, text=True, timeout=120, check=True)
        return done.stdout

    assert lucie({"LANG": "de_DE.UTF-8"}, "stats") == ("bob, alle Varianten\n"
                                                       "  noch kein beendetes Spiel\n")
    assert "toutes les variantes" in lucie({"LANG": "de_DE.UTF-8", "LANGUAGE": "fr"}, "stats")
    assert "alle varianten" in lucie({"LC_MESSAGES": "nl_NL.UTF-8"}, "stats")
    assert "all variants" in lucie({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, "stats")
    assert "all variants" in lucie({"LANG": "de_DE.UTF-8"}, "stats", "--lang", "en")
    assert "all variants" in lucie({}, "stats")


@pytest.mark.parametrize("lang", LANGS)
def test_json_and_notation_do_not_change(capsys: pytest.CaptureFixture[str],
                                         lang: str) -> None:
    for args in (["show", "--deal", "3", "--json"], ["variants", "--json"],
                 ["solve", "--deal", "1", "--verdict-only", "--json"],
                 ["replay", "--deal", "1", "f>i", "b>e", "--json"]):
        _c, english, _e = run(capsys, *args)
        _c, other, _e = run(capsys, "--lang", lang, *args)
        a, b = json.loads(english), json.loads(other)
        if isinstance(a, dict):
            a.pop("seconds", None)
            b.pop("seconds", None)
        assert a == b
    _c, english, _e = run(capsys, "show", "--deal", "3", "--plain-layout")
    _c, other, _e = run(capsys, "--lang", lang, "show", "--deal", "3", "--plain-layout")
    assert english == other


@pytest.mark.parametrize("lang", LANGS)
def test_variants_and_solve_in_each_language(capsys: pytest.CaptureFixture[str],
                                             lang: str) -> None:
    from lucie.rules import VARIANTS

    _c, out, _e = run(capsys, "--lang", lang, "variants")
    # Trefoil keeps its English name in every language (the glossary); the
    # fan variant's name and every summary are translated
    trefoil, fan = VARIANTS["trefoil"], VARIANTS["fan"]
    with using(lang):
        title, summary = trefoil.display_title(), trefoil.display_summary()
        fan_title = fan.display_title()
    assert title == trefoil.title and summary != trefoil.summary
    assert fan_title != fan.title
    assert f"trefoil     {title}" in out and summary in out and f"fan         {fan_title}" in out
    code, out, _e = run(capsys, "--lang", lang, "solve", "--deal", "1", "--verdict-only")
    assert code == 1
    with using(lang):
        never = _("cannot be cleared without a redeal")
        best = _("best score: {score}/52").partition("{score}")[0]
    assert never != "cannot be cleared without a redeal" and never in out and best in out


@pytest.mark.parametrize("lang", LANGS)
def test_a_hint_and_an_autoplay_report_name_cards_in_symbols(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path,
    lang: str,
) -> None:
    """``lucie hint`` and line mode's autoplay report in each language: the
    cards in symbols with the language's words, the notation only as what
    to type; never a card code or a [kind] tag."""
    code, out, _err = run(capsys, "--lang", lang, "hint", "--deal", "2", "--cache", "off")
    assert code == 0
    with using(lang):
        to_type = _("{hint} (type {move})")
    typed = to_type.split("{move}")[0].split("{hint}")[1]  # " (type " in the language
    assert typed in out and "[" not in out
    said = out.split(typed)[0]
    assert re.search(r"(10|[2-9AJQKVDRHB])[♣♦♥♠]", said) and ">" not in said
    assert not re.search(r"(?<![A-Za-z0-9])[A2-9TJQK][CDHS](?![A-Za-z0-9])", out)
    # line mode: h>f sends the ace of diamonds home, then "a" sends three spades
    code, out, _err = play(monkeypatch, capsys, "h>f\na\nq\n", "--lang", lang, "play",
                           "--plain", "--db", str(tmp_path / "a.db"), "--deal", "2")
    assert code == 0
    with using(lang):
        report = _("autoplay: {moves}").format(moves="A♠ 2♠ 3♠")
    assert report in out and "o>f" not in out
