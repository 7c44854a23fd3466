"""Layout text and saved games: round trips and every kind of bad input."""

from __future__ import annotations

import json

import pytest

from lucie.engine import Game, Position
from lucie.errors import LayoutError, SaveFileError
from lucie.formats import (
    SAVE_VERSION,
    format_layout,
    game_to_json,
    load_game,
    parse_layout,
    save_game,
)
from lucie.rules import VARIANTS, Rules


class TestLayout:
    @pytest.mark.parametrize("name", sorted(VARIANTS))
    def test_deal_layouts_round_trip(self, name: str) -> None:
        rules = VARIANTS[name].rules
        for number in (1, 2, 40000):
            p = Position.deal(rules, number)
            assert parse_layout(format_layout(p), rules) == p

    def test_reads_other_spellings_and_fcs_style(self) -> None:
        text = """# a comment
Foundations: H-Q C-9 D-K S-K
: QC 10♣
KC
:  KH
JC JC2"""
        with pytest.raises(LayoutError, match="'JC2' is not a card"):
            parse_layout(text, Rules())
        good = parse_layout(text.replace(" JC2", ""), Rules())
        assert good.foundations == (9, 13, 12, 13)
        assert [len(f) for f in good.fans[:4]] == [2, 1, 1, 1]

    def test_empty_fans_and_headers(self) -> None:
        p = parse_layout("Redeals: 1\nFoundations: C-J D-K H-K S-K\n-\nQC KC", Rules())
        assert p.fans[0] == () and p.redeals_left == 1
        assert parse_layout(format_layout(p), Rules()) == p

    def test_cells(self) -> None:
        rules = VARIANTS["reserve"].rules
        p = parse_layout("Foundations: C-J D-K H-K S-K\nCells: - QC\nKC", rules)
        assert p.cells == (None, p.cells[1], None, None) and str(p.cells[1]) == "QC"
        assert "Cells: - QC - -" in format_layout(p)
        with pytest.raises(LayoutError, match="5 cells given"):
            parse_layout("Cells: - - - - -\nFoundations: C-K D-K H-K S-Q\nKS", rules)
        with pytest.raises(LayoutError, match="a second Cells line"):
            parse_layout("Cells: -\n" + format_layout(Position.deal(rules, 1)), rules)

    @pytest.mark.parametrize(
        "text, words",
        [
            ("", "the layout is empty"),
            ("KH XX", "'XX' is not a card"),
            ("KH KH", "KH appears twice"),
            ("Foundations: C-K D-K H-K S-Q\nKC", "KC is on the table but the C foundation"),
            ("Foundations: C-Q D-K H-K S-Q", "missing cards: KC KS"),
            ("Foundations: C-Q D-K H-K X-K\nKC", "'X-K' is not like C-5"),
            ("Foundations: C-Q D-K H-K S-Z\nKC", "'Z' is not a rank"),
            ("Foundations: C-Q C-K H-K S-K\nKC", "suit C given twice"),
            ("2C KC", "the C foundation would skip 2C"),
            ("Bogus: 1\nKC", "unknown header 'Bogus'"),
            ("Redeals: 7\nKC", "redeals left 7 is out of range (0 to 2)"),
        ],
    )
    def test_bad_layouts_name_the_problem(self, text: str, words: str) -> None:
        with pytest.raises(LayoutError) as info:
            parse_layout(text, Rules())
        assert words in str(info.value)

    def test_the_game_display_is_not_a_layout_and_says_what_is(self) -> None:
        """What ``lucie show`` prints for people (a title line, fans with
        their letters) is refused with a message naming the plain layout."""
        from lucie.cli.game_cmds import render

        shown = render(Game(Rules(), 7)).splitlines()
        with pytest.raises(LayoutError, match=r"line 1: this is the title line .*"
                                              r"lucie show --plain-layout"):
            parse_layout("\n".join(shown), Rules())
        with pytest.raises(LayoutError, match=r"line 2: 'a' is a fan letter, .*"
                                              r"lucie show --plain-layout"):
            parse_layout("\n".join(shown[1:]), Rules())

    def test_too_many_fans(self) -> None:
        text = format_layout(Position.deal(Rules(), 1))
        with pytest.raises(LayoutError, match="18 fans in the layout, but Trefoil has 16"):
            parse_layout(text, VARIANTS["trefoil"].rules)


class TestSavedGames:
    def game(self) -> Game:
        game = Game(VARIANTS["merci"].rules, 4)
        for move in ["R", "R"]:
            game.push(move)
        merci = next(m for m in game.legal_moves if m.src_kind == "card")
        game.push(merci)
        return game

    def test_round_trip(self) -> None:
        game = self.game()
        again = load_game(save_game(game))
        assert again.position == game.position and again.moves == game.moves
        assert again.deal == 4 and again.rules == game.rules

    def test_custom_layout_game_round_trip(self) -> None:
        p = parse_layout("Foundations: C-9 D-K H-K S-K\nJC TC\nKC QC", Rules())
        game = Game(Rules(), position=p, seed=77)
        game.push("R")
        again = load_game(save_game(game))
        assert again.position == game.position and again.seed == 77 and again.deal is None

    def test_truncated(self) -> None:
        text = save_game(self.game())
        with pytest.raises(SaveFileError, match="not valid JSON"):
            load_game(text[: len(text) // 2])

    def test_newer_format(self) -> None:
        data = game_to_json(self.game())
        data["version"] = SAVE_VERSION + 1
        with pytest.raises(SaveFileError, match="newer than this lucie"):
            load_game(json.dumps(data))

    def test_edited_moves(self) -> None:
        data = game_to_json(self.game())
        data["moves"][2] = "a>b"
        with pytest.raises(SaveFileError, match="does not replay: move 3"):
            load_game(json.dumps(data))

    def test_edited_final_position(self) -> None:
        data = game_to_json(self.game())
        data["moves"] = data["moves"][:1]
        with pytest.raises(SaveFileError, match="was edited"):
            load_game(json.dumps(data))

    @pytest.mark.parametrize(
        "change, words",
        [
            (lambda d: d.pop("settings"), "no field 'settings'"),
            (lambda d: d.update(format="other"), "not a lucie saved game"),
            (lambda d: d.update(settings={"colour": 1}), "unknown setting 'colour'"),
            (lambda d: d.update(deal=0), "deal number 0"),
            (lambda d: d.update(moves="a>f"), "'moves' is not a list"),
            (lambda d: d.pop("version"), "no format version"),
        ],
    )
    def test_damaged_fields(self, change: object, words: str) -> None:
        data = game_to_json(self.game())
        change(data)  # type: ignore[operator]
        with pytest.raises(SaveFileError) as info:
            load_game(json.dumps(data))
        assert words in str(info.value)

    def test_not_an_object(self) -> None:
        with pytest.raises(SaveFileError, match="expected a JSON object"):
            load_game("[1, 2]")


class TestHostileFiles:
    """Issue 25.4: a byte-order mark is accepted; an empty table, deep JSON
    and unknown format versions are refused with a message."""

    def test_a_bom_before_a_layout_is_skipped(self) -> None:
        text = format_layout(Position.deal(Rules(), 5))
        assert parse_layout("\ufeff" + text, Rules()) == parse_layout(text, Rules())

    def test_a_bom_before_a_saved_game_is_skipped(self) -> None:
        game = Game(Rules(), 1)
        game.push_all(["f>i", "b>e"])
        text = save_game(game)
        assert load_game("\ufeff" + text).moves == game.moves
        assert load_game(("\ufeff" + text).encode()).moves == game.moves

    @pytest.mark.parametrize("text", [
        "Foundations: C-K D-K H-K S-K",
        "Foundations: C-K D-K H-K S-K\n-\n-",
        "Cells: - - - -\nFoundations: C-K D-K H-K S-K",
    ])
    def test_a_won_layout_is_the_won_position(self, text: str) -> None:
        """Every card home, said by the Foundations line: the won position,
        written back as its header lines alone."""
        rules = Rules.parse("classic,cells=4")
        position = parse_layout(text, rules)
        assert position.is_won and not position.legal_moves()
        assert format_layout(position).splitlines() == ["Foundations: C-K D-K H-K S-K",
                                                        "Cells: - - - -"]
        assert parse_layout(format_layout(position), rules) == position

    @pytest.mark.parametrize("text", ["-", "-\n-\n-", "Cells: - - - -\n-"])
    def test_a_layout_without_any_card_or_foundations_is_refused(self, text: str) -> None:
        with pytest.raises(LayoutError, match="no card on the table"):
            parse_layout(text, Rules.parse("classic,cells=4"))

    def test_a_game_won_by_autoplay_round_trips(self) -> None:
        """The example Hypothesis found: two-card fans, aces first, kings at
        the bottom, deal 115, where autoplay alone wins."""
        rules = Rules(fan_size=2, aces_first=True, kings_bottom=True, redeals=0)
        game = Game(rules, 115)
        for _step in game.autoplay():
            pass
        assert game.position.is_won
        assert parse_layout(format_layout(game.position), rules) == game.position

    @pytest.mark.parametrize("depth", [33, 1000, 100_000])
    def test_deep_json_is_a_clear_error(self, depth: int) -> None:
        with pytest.raises(SaveFileError, match="nests deeper than 32 levels"):
            load_game("[" * depth + "]" * depth)

    @pytest.mark.parametrize("version", [-1, 0, 2, 10**30, "1", 1.0, None, True])
    def test_unknown_versions_are_refused(self, version: object) -> None:
        data = json.loads(save_game(Game(Rules(), 1)))
        data["version"] = version
        with pytest.raises(SaveFileError, match="version"):
            load_game(json.dumps(data))

    def test_version_1_loads(self) -> None:
        data = json.loads(save_game(Game(Rules(), 1)))
        assert data["version"] == 1
        assert load_game(json.dumps(data)).deal == 1

    @pytest.mark.parametrize("move", ["²>a", "a>²", "9" * 5000 + ">a", "a>" + "1" * 5000])
    def test_odd_digits_in_a_saved_move_are_a_clear_error(self, move: str) -> None:
        data = json.loads(save_game(Game(Rules(), 1)))
        data["moves"] = [move]
        with pytest.raises(SaveFileError, match="does not replay"):
            load_game(json.dumps(data))
