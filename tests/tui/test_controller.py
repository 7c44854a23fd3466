"""The table's interaction without Textual: what each key and click does."""

from __future__ import annotations

from lucie.cards import Card, card_label
from lucie.engine import REDEAL, Game, Move
from lucie.rules import Rules
from lucie.tui.controller import Selection, TableController


def table(spec: str = "classic", deal: int = 1, *, auto: bool = False) -> TableController:
    return TableController(Game(Rules.parse(spec), deal), autoplay=auto)


def test_picking_a_card_lists_its_targets_and_the_board_marks_them() -> None:
    t = table()
    reply = t.fan_key(5)
    assert reply.text == "7♦ from fan f: it can go to fan i.  Esc drops it."
    board = t.board()
    assert board.selection == Selection("fan", 5)
    assert [str(m) for m in board.targets] == ["f>i"]
    assert board.selected_card() == (5, 2)
    assert not reply.changed and t.game.moves == ()


def test_choosing_a_target_plays_the_move_and_drops_the_pick() -> None:
    t = table()
    t.fan_key(5)
    reply = t.fan_key(8)
    assert reply.step is not None and str(reply.step.move) == "f>i"
    assert reply.text == "7♦ from fan f onto 8♦ in fan i."
    assert t.selection is None and [str(m) for m in t.game.moves] == ["f>i"]


def test_an_illegal_target_says_why_and_keeps_the_pick() -> None:
    t = table()
    t.fan_key(0)
    reply = t.fan_key(1)
    assert reply.kind == "error" and not reply.changed
    assert reply.text == ("Not allowed: 4♠ cannot go on 10♥ (fans build down in suit).  "
                          "(Esc drops the picked card.)")
    assert t.selection == Selection("fan", 0) and t.game.moves == ()


def test_the_same_letter_twice_with_several_fans_keeps_the_card_picked() -> None:
    t = table("classic,build=alternate")
    t.fan_key(5)
    reply = t.fan_key(5)
    assert reply.text == "It can go to several fans: pick one with its letter."
    assert t.selection == Selection("fan", 5) and t.game.moves == ()
    assert t.fan_key(7).step is not None  # then a letter plays it


def test_the_same_letter_twice_sends_home_or_to_the_only_place() -> None:
    t = table("classic", 2)
    t.fan_key(7)  # AD
    assert str(t.fan_key(7).step.move) == "h>f"  # type: ignore[union-attr]
    t = table()
    t.fan_key(5)
    assert str(t.fan_key(5).step.move) == "f>i"  # type: ignore[union-attr]
    t.fan_key(0)  # 4S has nowhere to go: dropped
    assert t.fan_key(0).text == "Card put back." and t.selection is None


def test_autoplay_makes_one_step_that_undo_takes_back_whole() -> None:
    t = table("classic", 2, auto=True)
    start = t.game.position
    t.fan_key(7)
    reply = t.home_key()
    assert reply.step is not None and len(reply.step.moves) == 4
    assert reply.text == ("A♦ from fan h to the foundation; "
                          "autoplay sent 3 cards home: A♠ 2♠ 3♠.")
    undone = t.undo()
    assert undone.undone == reply.step and t.game.position == start
    assert undone.text == ("Undone: A♦ from fan h to the foundation; "
                           "autoplay sent 3 cards home: A♠ 2♠ 3♠.")
    assert t.redo().step == reply.step and t.game.score == 4
    assert t.redo().text == "Nothing to redo."


def test_send_home_is_one_step() -> None:
    t = table("classic", 2)
    reply = t.send_home()
    assert reply.step is not None and len(t.game.moves) == 4
    t.undo()
    assert t.game.moves == ()
    assert table().send_home().kind == "error"


def test_keys_are_the_tables_or_not() -> None:
    t = table()
    assert t.key("f", "f") is not None and t.selection == Selection("fan", 5)
    assert t.key("escape", None).text == "Card put back."  # type: ignore[union-attr]
    assert t.key("u", "u") is None  # a binding of the app, not a table key
    assert t.key("s", "s") is None  # the redeal, a binding too
    assert t.key("ctrl+a", "a") is None  # autoplay on/off, not fan a
    reply = table("trefoil").key("q", "q")  # 16 fans, a to p
    assert reply is not None and reply.kind == "error"
    assert reply.text == "There is no fan q in Trefoil (fans a to p)."
    assert t.key("enter", None).kind == "error"  # type: ignore[union-attr]
    assert t.key("1", "1").text == "This variant has no free cells."  # type: ignore[union-attr]


def test_cells_by_digits() -> None:
    t = table("reserve", 3)
    top = t.game.position.fans[0][-1]
    t.fan_key(0)
    assert str(t.digit_key(2).step.move) == "a>2"  # type: ignore[union-attr]
    assert t.cell_key(0).text == "Cell 1 is empty."
    assert t.cell_key(7).text == "There is no cell 8 (cells 1 to 4)."
    t.cell_key(1)
    assert t.selection == Selection("cell", 1)
    assert t.board().position.cells[1] == top


def test_merci_messages_come_from_the_engine() -> None:
    assert table().merci().text == "Not allowed: this variant has no merci."
    t = table("merci", 3)
    assert t.merci().text == (
        "Not allowed: the merci is only allowed in the last deal (2 redeals left)."
    )
    t.game.push(REDEAL)
    t.game.push(REDEAL)
    assert t.merci().kind == "hint" and t.merci_mode
    assert t.board().merci_marks(0)
    p = t.game.position
    src = next(i for i, f in enumerate(p.fans) if len(f) >= 3)
    dst = next(i for i, f in enumerate(p.fans) if f and i != src)
    card = p.fans[src][1]
    assert t.fan_key(src).text is not None and t.merci_fan == src
    assert t.digit_key(9).kind == "error"
    reply = t.digit_key(2)
    assert reply.text is not None and card_label(card) in reply.text
    assert str(card) not in reply.text
    assert t.selection == Selection("card", int(card))
    played = t.fan_key(dst)
    assert played.step is not None and played.step.move == Move.card_to_fan(card, dst)
    assert t.merci().text == "Not allowed: the merci has already been used."


def test_merci_by_click_on_a_buried_card() -> None:
    t = table("merci,redeals=0", 5)
    card = t.game.position.fans[0][0]
    t.merci()
    t.fan_clicked(0, 0, 1)
    assert t.selection == Selection("card", int(card))
    assert t.fan_clicked(2, None, 1).step is not None
    assert t.game.position.fans[2][-1] == card


def test_double_click_sends_home_and_a_click_on_the_picked_fan_drops() -> None:
    t = table("classic", 2)
    assert str(t.fan_clicked(7, 2, 2).step.move) == "h>f"  # type: ignore[union-attr]
    t.fan_clicked(5, None, 1)
    assert t.fan_clicked(5, None, 1).text == "Card put back."
    assert t.foundation_clicked(0).kind == "error"


def test_redeal_asks_while_moves_remain() -> None:
    t = table()
    reply = t.redeal()
    assert reply.confirm is not None and reply.pending == REDEAL and not reply.changed
    assert "still possible" in reply.confirm and "(2 redeals left)" in reply.confirm
    assert t.play(REDEAL).step is not None
    assert t.game.position.redeals_left == 1
    none_left = table("noredeal")
    assert none_left.redeal().text == "Not allowed: this variant has no redeal."


def test_hint_applies_only_to_its_position_and_names_the_keys() -> None:
    t = table()
    p = t.game.position
    move = Move.parse("f>i")
    reply = t.show_hint(p, move, "")
    assert reply is not None and reply.kind == "hint"
    assert reply.text == "Hint: 7♦ from fan f onto 8♦ in fan i.  Keys: f i"
    assert t.board().hint == move
    t.play(move)
    assert t.show_hint(p, move, "") is None  # the player moved meanwhile
    assert t.hint_move is None


def test_keys_for_a_merci_and_a_cell_move() -> None:
    t = table("merci,redeals=0", 5)
    card: Card = t.game.position.fans[0][0]
    assert t.keys_for(Move.card_to_fan(card, 2)) == "w a 1 c"
    assert t.keys_for(REDEAL) == "s"
    assert table("reserve", 3).keys_for(Move.parse("1>f")) == "1 Enter"


def test_restart_goes_back_and_reports_a_change() -> None:
    t = table("classic", 2)
    t.send_home()
    reply = t.restart()
    assert reply.changed and t.game.moves == () and t.game.can_redo
