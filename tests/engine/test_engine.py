"""The engine: moves, legality under every setting, games, outcome, autoplay."""

from __future__ import annotations

import pytest

from lucie.cards import Card
from lucie.engine import REDEAL, Game, LegalMoves, Move, Outcome, Position, autoplay_moves
from lucie.errors import MoveError
from lucie.formats import format_layout, parse_layout
from lucie.rules import VARIANTS, Rules

C = Card.parse


def pos(text: str, spec: str = "classic") -> Position:
    return parse_layout(text, Rules.parse(spec))


def legal(p: Position) -> set[str]:
    return {str(m) for m in p.legal_moves()}


# A small end-game: foundations nearly full, a few cards on the table.
ENDGAME = """Foundations: C-9 D-J H-Q S-T
JS TC
QD JC
KH QC
KC
KD JS2"""


class TestMoveText:
    @pytest.mark.parametrize("text", ["c>g", "c>f", "c>1", "1>g", "1>f", "R", "7H>g", "a>F"])
    def test_round_trip(self, text: str) -> None:
        assert str(Move.parse(text)) == text

    def test_fan_f_as_target_is_capital(self) -> None:
        assert Move.parse("d>F") == Move.build(3, 5)
        assert Move.parse("d>f") == Move.to_foundation(3)
        assert Move.parse("f>f") == Move.to_foundation(5)
        assert str(Move.build(0, 5)) == "a>F"

    @pytest.mark.parametrize(
        "bad, words",
        [("", "is not a move"), ("c", "is not a move"), ("c>", "is not a move"),
         ("c>z9", "neither a fan letter"), ("zz>c", "neither a fan letter"),
         ("7H>f", "only go onto a fan"), ("1>2", "cell to cell"), ("0>a", "from 1")],
    )
    def test_malformed(self, bad: str, words: str) -> None:
        with pytest.raises(MoveError) as info:
            Move.parse(bad)
        assert words in str(info.value)


class TestClassicMoves:
    def test_builds_down_in_suit_and_to_foundation(self) -> None:
        p = pos("Foundations: C-Q D-J H-K S-K\nKC\nQD\nKD")
        assert legal(p) == {"a>f", "b>f", "b>c", "R"}

    def test_reasons(self) -> None:
        p = pos("Foundations: C-9 D-J H-K S-K\nJC\nQC KD\nQD TC KC")
        assert p.why_illegal(Move.parse("a>b")) == "J♣ cannot go on K♦ (fans build down in suit)"
        assert "needs 10♣ next" in str(p.why_illegal(Move.parse("a>f")))
        assert p.why_illegal(Move.parse("a>d")) == "fan d is empty, and an empty fan stays empty"
        assert p.why_illegal(Move.parse("e>a")) == "fan e is empty"
        assert p.why_illegal(Move.parse("a>a")) == "a card cannot move onto its own fan"
        assert p.why_illegal(Move.parse("a>1")) == "this variant has no cells"
        assert "buried" in str(p.why_illegal(Move.parse("QC>a")))
        assert p.why_illegal(Move.parse("KD>a")) is not None
        assert p.why_illegal(Move.parse("z>a")) == "there is no fan z"

    def test_a_king_never_goes_onto_a_fan(self) -> None:
        p = pos("Foundations: C-J D-K H-K S-K\nQC\nKC")
        assert p.why_illegal(Move.parse("b>a")) == "K♣: a king never goes onto a fan"

    def test_empty_fans_stay_empty(self) -> None:
        p = pos("Foundations: C-J D-K H-K S-K\nQC\nKC\n-")
        assert not any(m.dst == 2 for m in p.legal_moves() if m.dst_kind == "fan")


class TestSettings:
    def test_alternate_build(self) -> None:
        rest = "9C TC JC QC KC 9D TD JD QD KD"
        p = pos(f"Foundations: C-5 D-5 H-K S-K\n6D 7C\n8C 8D\n7D 6C\n{rest}", "alternate")
        assert "a>b" in legal(p)  # 7C on 8D
        assert "c>a" not in legal(p)  # 6C on 7C: same colour
        assert "alternate colours" in str(p.why_illegal(Move.parse("c>a")))
        assert "a>b" not in legal(pos(f"Foundations: C-5 D-5 H-K S-K\n6D 7C\n8C 8D\n7D 6C\n{rest}"))

    def test_any_suit_build(self) -> None:
        text = ("Foundations: C-6 D-6 H-6 S-K\nTC 9C 8D\n8H 7H\n8C 7C\n"
                "7D JC QC KC 9D TD JD QD KD 9H TH JH QH KH")
        assert {"b>a", "c>a"} <= legal(pos(text, "flower"))
        assert not {"b>a", "c>a"} & legal(pos(text))

    def test_updown_and_max_fan(self) -> None:
        p = pos("Foundations: C-6 D-6 H-6 S-8\n7C 8D 9S\n7D\n8H 7H\n8C\n9C TC JC\n"
                "QC KC 9D\nTD JD QD\nKD 9H TH\nJH QH KH\nTS JS QS\nKS", "shamrocks")
        got = legal(p)
        assert "d>b" in got  # 8C up onto 7D
        assert "b>d" in got  # 7D down onto 8C
        assert "b>c" not in got  # 7D on 7H
        assert "b>a" not in got  # fan a is full (3 cards)
        reason = p.why_illegal(Move.parse("d>a"))
        assert reason == "fan a is full (3 cards at most)"

    def test_king_fill_and_any_fill(self) -> None:
        text = "Foundations: C-J D-K H-K S-K\nKC\nQC\n-"
        fan = pos(text, "fan")
        assert "a>c" in legal(fan) and "b>c" not in legal(fan)
        assert fan.why_illegal(Move.parse("b>c")) == "only a king may fill the empty fan c"
        anyfill = pos(text, "classic,empty_fill=any")
        assert {"a>c", "b>c"} <= legal(anyfill)

    def test_cells(self) -> None:
        p = pos("Foundations: C-J D-K H-K S-K\nCells: QC - - -\nKC", "reserve")
        got = legal(p)
        assert {"1>f", "1>a", "a>2", "a>3", "a>4"} <= got
        after = p.play(Move.parse("a>2"))
        assert after.cells == (C("QC"), C("KC"), None, None)
        assert after.play(Move.parse("1>f")).cells[0] is None
        assert p.why_illegal(Move.parse("a>1")) == "cell 1 is taken"
        assert p.why_illegal(Move.parse("a>5")) == "there is no cell 5 (cells 1 to 4)"

    def test_cells_are_gathered_at_a_redeal(self) -> None:
        p = pos("Foundations: C-9 D-K H-K S-K\nCells: TC - - -\nJC QC KC", "reserve")
        game = Game(p.rules, position=p, seed=5)
        game.push("R")
        assert game.position.cells == (None,) * 4
        assert sorted(c for f in game.position.fans for c in f) == sorted(
            [C("TC"), C("JC"), C("QC"), C("KC")])

    def test_foundation_takeback(self) -> None:
        p = pos("Foundations: C-5 D-K H-K S-K\n6C 7C\n8C 9C TC\nJC QC KC",
                "classic,foundation_takeback=on")
        assert "5C>a" not in legal(p)
        p2 = pos("Foundations: C-5 D-K H-K S-K\nKC 6C\n8C 7C\n9C TC JC QC",
                 "classic,foundation_takeback=on")
        assert "5C>a" in legal(p2)
        after = p2.play(Move.parse("5C>a"))
        assert after.foundations[0] == 4 and after.fans[0][-1] == C("5C")
        plain = pos("Foundations: C-5 D-K H-K S-K\nKC 6C\n8C 7C\n9C TC JC QC")
        assert "never come back" in str(plain.why_illegal(Move.parse("5C>a")))
        assert "not the top of its foundation" in str(p2.why_illegal(Move.parse("4C>a")))


class TestMerci:
    TEXT = "Foundations: C-8 D-K H-K S-K\nTC 9C JC\nKC QC"

    def test_only_in_the_last_deal_and_once(self) -> None:
        rules = VARIANTS["merci"].rules
        p = parse_layout(self.TEXT, rules)
        assert not p.merci_available
        assert p.why_illegal(Move.parse("9C>a")) == "the merci is only allowed in the last deal"
        last = parse_layout("Redeals: 0\n" + self.TEXT, rules)
        assert last.merci_available
        assert "9C>a" in legal(last) and "9C>b" in legal(last) and "TC>a" in legal(last)
        after = last.play(Move.parse("9C>b"))
        assert after.fans[1][-1] == C("9C") and after.merci_used and not after.merci_available
        assert after.why_illegal(Move.parse("TC>b")) == "the merci has already been used"
        assert not any(m.src_kind == "card" for m in after.legal_moves())

    def test_on_its_own_fan_and_not_on_tops_or_empty_fans(self) -> None:
        last = parse_layout("Redeals: 0\n" + self.TEXT, VARIANTS["merci"].rules)
        own = last.play(Move.parse("9C>a"))
        assert own.fans[0] == (C("TC"), C("JC"), C("9C"))
        assert "top of fan a" in str(last.why_illegal(Move.parse("JC>b")))
        assert "is empty" in str(last.why_illegal(Move.parse("9C>c")))

    def test_classic_has_no_merci(self) -> None:
        last = pos("Redeals: 0\n" + self.TEXT)
        assert "buried" in str(last.why_illegal(Move.parse("9C>a")))

    def test_strict_rule(self) -> None:
        rules = Rules.parse("merci,redeal_only_when_stuck=on")
        stuck = parse_layout("Redeals: 0\nFoundations: C-8 D-K H-K S-K\n9C JC TC\nQC KC", rules)
        assert "9C>a" in legal(stuck)  # nothing else to do
        free = parse_layout("Redeals: 0\nFoundations: C-8 D-K H-K S-Q\n9C JC TC\nQC KC\nKS",
                            rules)
        assert "c>f" in legal(free) and "9C>a" not in legal(free)
        assert "strict" in str(free.why_illegal(Move.parse("9C>a")))

    def test_a_full_fan_takes_no_merci_card(self) -> None:
        """``max_fan`` holds for the merci too: the lifted card goes back on
        its own fan (same size) or onto a fan with room, never past the limit
        (a fan of five under max_fan=4 is not a layout lucie could read)."""
        rules = Rules.parse("merci,max_fan=3")
        last = parse_layout("Redeals: 0\nFoundations: C-8 D-K H-K S-K\nTC 9C JC\nKC QC", rules)
        assert "9C>a" in legal(last) and "9C>b" in legal(last)
        full = parse_layout("Redeals: 0\nFoundations: C-7 D-K H-K S-K\nTC 9C JC\nKC QC 8C", rules)
        assert "9C>a" in legal(full) and "9C>b" not in legal(full)
        assert full.why_illegal(Move.parse("9C>b")) == "fan b is full (3 cards at most)"
        after = full.play(Move.parse("9C>a"))
        assert parse_layout(format_layout(after), rules) == after


class TestRedealRules:
    def test_two_redeals_then_none(self) -> None:
        game = Game(Rules(), 3)
        game.push("R")
        game.push("R")
        assert REDEAL not in game.legal_moves
        with pytest.raises(MoveError, match="no redeal left"):
            game.push("R")

    def test_strict_redeal_only_when_stuck(self) -> None:
        game = Game(Rules.parse("classic,redeal_only_when_stuck=on"), 1)
        assert REDEAL not in game.legal_moves
        with pytest.raises(MoveError, match="strict"):
            game.push("R")

    def test_no_redeal_variant(self) -> None:
        assert REDEAL not in Game(VARIANTS["noredeal"].rules, 1).legal_moves


class TestGame:
    def test_push_pop_redo_restart(self) -> None:
        game = Game(Rules(), 1)
        start = game.position
        game.push("f>i")
        game.push("b>e")
        assert [str(m) for m in game.moves] == ["f>i", "b>e"]
        assert game.peek() == Move.parse("b>e")
        game.pop()
        assert game.can_redo and game.redo_moves == (Move.parse("b>e"),)
        game.redo()
        assert not game.can_redo
        game.restart()
        assert game.position == start and len(game.redo_moves) == 2
        game.redo()
        game.push("m>p")  # a new move clears the rest of the redo list
        assert not game.can_redo

    def test_redo_kept_when_the_same_move_is_played(self) -> None:
        game = Game(Rules(), 1)
        game.push("f>i")
        game.push("b>e")
        game.restart()
        game.push("f>i")
        assert game.redo_moves == (Move.parse("b>e"),)

    def test_errors(self) -> None:
        game = Game(Rules(), 1)
        with pytest.raises(MoveError, match="nothing to undo"):
            game.pop()
        with pytest.raises(MoveError, match="nothing to redo"):
            game.redo()
        with pytest.raises(MoveError) as info:
            game.push_all(["f>i", "b>e", "a>b"])
        assert str(info.value).startswith("move 3 (a>b) is illegal: 4♠ cannot go on")
        assert len(game.moves) == 2

    def test_outcomes_and_score(self) -> None:
        won = Game(Rules(), position=pos("Foundations: C-Q D-K H-K S-K\nKC"), seed=1)
        assert won.outcome == Outcome("playing", 51)
        won.push("a>f")
        assert won.outcome == Outcome("won", 52) and won.outcome.finished
        lost = Game(Rules.parse("noredeal"),
                    position=pos("Foundations: C-J D-K H-K S-K\nQC KC", "noredeal"), seed=1)
        assert lost.outcome == Outcome("lost", 50)
        game = Game(Rules(), 1)
        game.resign()
        assert game.outcome.status == "resigned" and len(game.legal_moves) == 0
        with pytest.raises(MoveError, match="resigned"):
            game.push("f>i")
        game2 = Game(Rules(), 1)
        game2.push("f>i")
        game2.resign()
        game2.pop()
        assert game2.outcome.status == "playing"

    def test_legal_moves_view(self) -> None:
        game = Game(Rules(), 1)
        view = game.legal_moves
        assert isinstance(view, LegalMoves)
        assert view.count() == len(view) == 6 and view[0] == Move.parse("b>e")
        assert Move.parse("a>b") not in view and "a>b" not in view

    def test_key_ignores_fan_order(self) -> None:
        a = pos("Foundations: C-J D-K H-K S-K\nQC\nKC")
        b = pos("Foundations: C-J D-K H-K S-K\nKC\n-\nQC")
        assert a.key() == b.key() and a != b


class TestAutoplay:
    def test_suit_builds_send_everything_home(self) -> None:
        p = pos("Foundations: C-9 D-K H-K S-K\nKC QC\nJC TC")
        moves = autoplay_moves(p)
        assert [str(m) for m in moves] == ["b>f", "b>f", "a>f", "a>f"]
        assert p.score == 48  # the helper does not move anything itself

    def test_any_suit_builds_wait_for_cards_that_could_use_the_card(self) -> None:
        # 3C could hold 2D, but 2D is next in its suit: it could go home
        # instead, so 3C goes at once, then 2D
        rest = "KC QC JC TC 9C 8C 7C 6C 5C 4C KD QD JD TD 9D 8D 7D 6D 5D 4D 3D"
        p = pos(f"Foundations: C-2 D-A H-K S-K\n3C\n2D\n{rest}", "flower")
        assert [str(m) for m in autoplay_moves(p)[:2]] == ["a>f", "b>f"]
        rest2 = "KC QC JC TC 9C 8C 7C 6C 5C 4C KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D"
        p2 = pos(f"Foundations: C-2 D-0 H-K S-K\nAD 3C\n{rest2}", "flower")
        assert autoplay_moves(p2) == []
        # under suit builds only 2C could use 3C, and it is home: 3C goes
        classic = pos(f"Foundations: C-2 D-0 H-K S-K\nAD 3C\n{rest2}")
        assert [str(m) for m in autoplay_moves(classic)][:1] == ["a>f"]

    def test_game_autoplay_is_undoable_move_by_move(self) -> None:
        game = Game(Rules(), 2)
        moves = game.autoplay()
        assert len(moves) == 4 and game.score == 4
        for _ in moves:
            game.pop()
        assert game.score == 0


# ---------------------------------------------------------------------------
# Steps: a player's move with its autoplay, undone and redone whole
# ---------------------------------------------------------------------------


def test_play_records_the_move_and_its_autoplay_as_one_step() -> None:
    game = Game(Rules(), 2)
    start = game.position
    step = game.play("h>f")
    assert [str(m) for m in step.moves] == ["h>f", "o>f", "b>f", "c>f"]
    assert step.card == C("AD")
    assert step.text == "A♦ from fan h to the foundation; autoplay sent 3 cards home: A♠ 2♠ 3♠"
    assert game.score == 4 and len(game.steps) == 1
    assert step.texts == (
        "A♦ from fan h to the foundation", "A♠ from fan o to the foundation",
        "2♠ from fan b to the foundation", "3♠ from fan c to the foundation",
    )
    assert step.after == game.position
    undone = game.undo_step()
    assert undone == step and game.position == start and game.moves == ()
    assert game.redo_moves == step.moves
    assert game.redo_step() == step
    assert game.score == 4


def test_play_without_autoplay_is_one_move_and_illegal_changes_nothing() -> None:
    game = Game(Rules(), 2)
    step = game.play("h>f", autoplay=False)
    assert step.moves == (Move.parse("h>f"),) and step.autoplayed == ()
    with pytest.raises(MoveError, match=r"a>b: .* cannot go on"):
        game.play("a>b")
    assert game.moves == (Move.parse("h>f"),)


def test_pop_still_takes_back_one_move_inside_a_step() -> None:
    game = Game(Rules(), 2)
    game.play("h>f")
    assert str(game.pop()) == "c>f"
    assert [len(s.moves) for s in game.steps] == [3]
    assert str(game.redo()) == "c>f"
    assert game.score == 4


def test_pushing_the_undone_move_keeps_the_rest_of_its_step_to_redo() -> None:
    game = Game(Rules(), 2)
    game.play("h>f")
    game.undo_step()
    game.push("h>f")
    assert [str(m) for m in game.redo_moves] == ["o>f", "b>f", "c>f"]
    game.push("o>f")
    game.undo_step()
    other = next(m for m in game.legal_moves if str(m) != "o>f")
    game.push(other)  # another line: the redo list is gone
    assert game.redo_moves == ()


def test_restart_undoes_every_step_and_they_can_be_redone() -> None:
    game = Game(Rules(), 2)
    game.play("h>f")
    game.play(REDEAL)
    game.restart()
    assert game.moves == () and len(game.redo_steps) == 2
    game.redo_step()
    game.redo_step()
    assert [str(m) for m in game.moves][:4] == ["h>f", "o>f", "b>f", "c>f"]
    assert game.moves[4] == REDEAL


def test_push_all_rebuilds_the_steps_of_a_saved_game() -> None:
    game = Game(Rules(), 2)
    game.play("h>f")
    game.play(next(m for m in game.legal_moves if not m.is_redeal), autoplay=False)
    replay = Game(Rules(), 2)
    replay.push_all([str(m) for m in game.moves])
    assert replay.steps == game.steps
    assert [len(s.moves) for s in replay.steps] == [4, 1]


def test_autoplay_command_is_one_step() -> None:
    game = Game(Rules(), 2)
    moves = game.autoplay()
    assert len(moves) == 4 and len(game.steps) == 1
    game.undo_step()
    assert game.score == 0
    assert game.autoplay() == moves and game.autoplay() == []


def test_moving_card_names_the_card_of_every_kind_of_move() -> None:
    p = pos("Foundations: C-Q D-K H-6 S-J\nCells: 7H -\nKS QS\nKC 8H 9H TH JH QH KH",
            "reserve,foundation_takeback=on")
    assert p.moving_card(Move.parse("a>2")) == C("QS")
    assert p.moving_card(Move.parse("1>f")) == C("7H")
    assert p.moving_card(Move.parse("JS>b")) == C("JS")
    assert p.moving_card(REDEAL) is None
    assert p.moving_card(Move.parse("2>a")) is None


def test_why_no_merci_says_why_in_each_case() -> None:
    assert Position.deal(Rules(), 1).why_no_merci() == "this variant has no merci"
    merci = Rules.parse("merci")
    game = Game(merci, 1)
    assert game.position.why_no_merci() == (
        "the merci is only allowed in the last deal (2 redeals left)"
    )
    game.push(REDEAL)
    assert game.position.why_no_merci() == (
        "the merci is only allowed in the last deal (1 redeal left)"
    )
    game.push(REDEAL)
    p = game.position
    assert p.why_no_merci() is None
    lifts = p.merci_moves()
    assert lifts and all(p.where(Card(m.src))[0] == "fan" for m in lifts)
    assert set(lifts) <= set(p.legal_moves())
    game.push(lifts[0])
    assert game.position.why_no_merci() == "the merci has already been used"
    assert game.position.merci_moves() == []
    bare = pos("KS\nKC", "merci")
    assert bare.why_no_merci() == "the merci is only allowed in the last deal (2 redeals left)"
    from dataclasses import replace
    assert replace(bare, redeals_left=0).why_no_merci() == "no buried card to lift"


def test_moves_from_lists_the_moves_of_one_picked_card() -> None:
    p = Position.deal(Rules(), 1)
    assert [str(m) for m in p.moves_from("fan", 5)] == ["f>i"]
    assert p.moves_from("fan", 0) == []
