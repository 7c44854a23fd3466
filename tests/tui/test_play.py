"""The terminal game played through Textual's Pilot: keys and clicks."""

from __future__ import annotations

from pathlib import Path

import pytest

from lucie.engine import FAN_NAMES, REDEAL, Game, Move
from lucie.formats import format_layout
from lucie.rules import VARIANTS, Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.screens import ConfirmScreen, EndScreen, VariantScreen
from lucie.tui.widgets import FanView

pytestmark = pytest.mark.anyio


def keys_for(move: Move) -> list[str]:
    """The key presses that play ``move`` (fan letters, cell digits, Enter)."""
    if move.src_kind == "fan":
        keys = [FAN_NAMES[move.src]]
    elif move.src_kind == "cell":
        keys = [str(move.src + 1)]
    else:
        raise AssertionError(f"no key sequence for {move}")
    if move.dst_kind == "foundation":
        keys.append("enter")
    elif move.dst_kind == "cell":
        keys.append(str(move.dst + 1))
    else:
        keys.append(FAN_NAMES[move.dst])
    return keys


def status_text(app: LucieApp) -> str:
    return app.message


async def test_win_a_deal_by_keys(store: Store, classic_win: tuple[int, list[Move]]) -> None:
    deal, line = classic_win
    app = LucieApp(store, "kim", Rules(), deal, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for move in line:
            await pilot.press(*keys_for(move))
        await pilot.pause()
        assert app.game.position.is_won
        assert [str(m) for m in app.game.moves] == [str(m) for m in line]
        assert isinstance(app.screen, EndScreen)
        assert "You won" in str(app.screen.query_one(".title").render())
        record = store.record(app.game_id)
        assert (record.status, record.score, record.moves) == ("won", 52, len(line))
        stats = store.stats("kim", "classic")
        assert (stats.games, stats.wins, stats.current_streak) == (1, 1, 1)
        # "next deal" starts the following deal number
        await pilot.press("n")
        await pilot.pause()
        assert app.game.deal == deal + 1 and not app.game.moves


async def test_win_a_deal_by_clicks(store: Store, classic_win: tuple[int, list[Move]]) -> None:
    deal, line = classic_win
    app = LucieApp(store, "kim", Rules(), deal, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for move in line:
            src = f"#fan-{FAN_NAMES[move.src]}"
            if move.dst_kind == "foundation":
                # every other foundation move by a double click, the rest
                # by a click on the fan then on the foundations
                if len(app.game.moves) % 2:
                    await pilot.double_click(src)
                else:
                    await pilot.click(src)
                    await pilot.click("#foundations", offset=(6, 0))
            else:
                await pilot.click(src)
                await pilot.click(f"#fan-{FAN_NAMES[move.dst]}")
        await pilot.pause()
        assert app.game.position.is_won
        assert len(app.game.moves) == len(line)
        assert store.record(app.game_id).status == "won"
        assert isinstance(app.screen, EndScreen)


async def test_selection_highlights_legal_targets(store: Store) -> None:
    game = Game(Rules(), 1)
    # pick a source with a fan target in deal 1
    move = next(m for m in game.legal_moves if m.dst_kind == "fan")
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(FAN_NAMES[move.src])
        await pilot.pause()
        targets = {v.index for v in app.screen.query(FanView) if v.has_class("target")}
        expected = {
            m.dst for m in game.legal_moves
            if m.src_kind == "fan" and m.src == move.src and m.dst_kind == "fan"
        }
        assert targets == expected and move.dst in targets
        await pilot.press("escape")
        await pilot.pause()
        assert not any(v.has_class("target") for v in app.screen.query(FanView))


async def test_illegal_move_is_refused_with_the_reason(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = app.game.position
        move = Move.parse("a>b")
        why = before.why_illegal(move)
        assert why is not None
        await pilot.press("a", "b")
        await pilot.pause()
        assert app.game.position == before and not app.game.moves
        assert app.message_kind == "error"
        assert "4♠ cannot go on 10♥" in status_text(app)
        # the foundation key too
        await pilot.press("enter")
        await pilot.pause()
        assert "the spades foundation" in status_text(app)
        assert not app.game.moves
        assert store.game(app.game_id).moves == ()


async def test_undo_and_redo(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.game.position
        first = next(m for m in app.game.legal_moves if m.dst_kind == "fan")
        await pilot.press(*keys_for(first))
        await pilot.pause()
        after = app.game.position
        assert after != start and list(store.game(app.game_id).moves) == [first]
        await pilot.press("u")
        await pilot.pause()
        assert app.game.position == start and store.game(app.game_id).moves == ()
        await pilot.press("y")
        await pilot.pause()
        assert app.game.position == after
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.game.position == start
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert app.game.position == after and list(store.game(app.game_id).moves) == [first]
        await pilot.press("y")
        await pilot.pause()
        assert app.message_kind == "error" and "Nothing to redo" in app.message


async def test_redeal_asks_while_moves_remain(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        expected = Game(Rules(), 1)
        expected.push(REDEAL)
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert app.game.position.redeals_left == 2 and not app.game.moves
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.game.position == expected.position
        assert format_layout(store.game(app.game_id).position) == format_layout(
            expected.position
        )
        # undo takes the redeal back, redo deals the same cards again
        await pilot.press("u", "y")
        await pilot.pause()
        assert app.game.position == expected.position


async def test_merci_lifts_a_buried_card(store: Store) -> None:
    rules = Rules.parse("merci")
    app = LucieApp(store, "kim", rules, 3, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert app.message_kind == "error" and "last deal" in app.message
        for _ in range(2):
            await pilot.press("s")
            await pilot.pause()
            if isinstance(app.screen, ConfirmScreen):
                await pilot.press("y")
                await pilot.pause()
        p = app.game.position
        assert p.redeals_left == 0 and p.merci_available
        src = next(i for i, f in enumerate(p.fans) if len(f) >= 3)
        dst = next(i for i, f in enumerate(p.fans) if f and i != src)
        card = p.fans[src][1]
        await pilot.press("w", FAN_NAMES[src], "2", FAN_NAMES[dst])
        await pilot.pause()
        q = app.game.position
        assert q.merci_used and q.fans[dst][-1] == card
        assert card not in q.fans[src]
        assert str(app.game.moves[-1]) == str(Move.card_to_fan(card, dst))
        await pilot.press("w")
        await pilot.pause()
        assert "already been used" in app.message


async def test_merci_by_clicks(store: Store) -> None:
    rules = Rules.parse("merci,redeals=0")
    app = LucieApp(store, "kim", rules, 5, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        p = app.game.position
        src = 0
        card = p.fans[src][0]
        await pilot.press("w")
        view = app.screen.query_one(f"#fan-{FAN_NAMES[src]}", FanView)
        await pilot.pause()
        # the bottom card of fan a is drawn right after the label
        assert view.card_at(3, 0) == 0
        await pilot.click(view, offset=(4, 0))
        await pilot.pause()
        assert app.selection is not None and app.selection.kind == "card"
        await pilot.click("#fan-c")
        await pilot.pause()
        assert app.game.position.fans[2][-1] == card and app.game.position.merci_used


async def test_variant_picker_offers_every_variant(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VariantScreen)
        from textual.widgets import OptionList

        options = app.screen.query_one(OptionList)
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        assert ids == list(VARIANTS)
        await pilot.press("down", "down", "enter")  # classic -> merci -> trefoil
        await pilot.pause()
        assert app.game.rules == VARIANTS["trefoil"].rules
        assert len(app.screen.query(FanView)) == 16
        assert app.game.position.foundations == (1, 1, 1, 1)
        # the untouched classic game was dropped, the trefoil one is stored
        assert [r.variant for r in store.history("kim")] == ["trefoil"]


async def test_leaving_a_played_game_asks_and_counts_it(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = next(m for m in app.game.legal_moves if m.dst_kind == "fan")
        await pilot.press(*keys_for(first))
        old_id = app.game_id
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press(*"4242", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.game.deal == 4242
        assert store.record(old_id).status == "resigned"
        assert store.stats("kim", "classic").games == 1


async def test_autoplay_moves_are_undone_as_one_step(store: Store) -> None:
    """x sends the safe cards home as one step: u takes them all back, y
    sends them again (as PySolFC undoes an autoplay)."""
    app = LucieApp(store, "kim", Rules(), 2, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        sent = app.game.moves
        assert len(sent) > 1 and all(m.dst_kind == "foundation" for m in sent)
        await pilot.press("u")
        await pilot.pause()
        assert app.game.moves == () and store.game(app.game_id).moves == ()
        assert "Undone: AD from fan h to the foundation" in app.message.replace("A♦", "AD")
        await pilot.press("y")
        await pilot.pause()
        assert app.game.moves == sent


async def test_a_move_and_its_autoplay_are_undone_together(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 2, clock=False, autoplay=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.game.position
        await pilot.press("h", "enter")
        await pilot.pause()
        assert [str(m) for m in app.game.moves] == ["h>f", "o>f", "b>f", "c>f"]
        assert "autoplay sent 3 cards home" in app.message
        await pilot.press("u")
        await pilot.pause()
        assert app.game.position == start
        await pilot.press("y")
        await pilot.pause()
        assert len(app.game.moves) == 4
    # a resumed game undoes by the same steps
    again = LucieApp(store, "kim", clock=False)
    assert again.resumed and len(again.game.moves) == 4
    assert len(again.controller.undo().undone.moves) == 4  # type: ignore[union-attr]
    assert again.game.position == start


async def test_resume_where_it_was_left(store: Store) -> None:
    app = LucieApp(store, "kim", Rules.parse("trefoil"), 9, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        first = next(m for m in app.game.legal_moves if m.dst_kind == "fan")
        await pilot.press(*keys_for(first))
        await pilot.pause()
        position = app.game.position
    again = LucieApp(store, "kim", clock=False)
    assert again.resumed and again.game.position == position


async def test_help_screen_lists_the_keys(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 1, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        from textual.widgets import Markdown

        text = app.screen.query_one(Markdown).source
        assert "Ctrl+Z" in text and "merci" in text and "Enter" in text
        await pilot.press("escape")
        await pilot.pause()
        assert app.table is app.screen


async def test_a_lost_game_ends_and_undo_goes_on_as_practice(store: Store) -> None:
    app = LucieApp(store, "kim", Rules.parse("noredeal"), 3, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        while not app.game.outcome.finished:
            move = next(iter(app.game.legal_moves))
            await pilot.press(*keys_for(move))
        await pilot.pause()
        assert app.game.outcome.status == "lost"
        assert isinstance(app.screen, EndScreen)
        assert "No move left" in str(app.screen.query_one(".title").render())
        assert store.record(app.game_id).status == "lost"
        assert store.stats("kim", "noredeal").games == 1
        await pilot.press("u")
        await pilot.pause()
        assert not app.game.outcome.finished
        # the loss stays recorded; the game goes on as practice, said on screen
        assert store.record(app.game_id).status == "lost"
        assert store.stats("kim", "noredeal").games == 1
        assert app.session.practice and "Practice" in app.message


async def test_restart_goes_back_to_the_deal(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 2, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        start = app.game.position
        await pilot.press("x")
        await pilot.pause()
        played = app.game.position
        assert played != start
        await pilot.press("f4")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        assert app.game.position == start and store.game(app.game_id).moves == ()
        await pilot.press(*["y"] * len(app.game.redo_moves))
        await pilot.pause()
        assert app.game.position == played


async def test_cells_by_clicks(store: Store) -> None:
    app = LucieApp(store, "kim", Rules.parse("reserve"), 3, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        top = app.game.position.fans[0][-1]
        await pilot.click("#fan-a")
        await pilot.pause()  # picked (under load the next click came first)
        # cells are drawn "cells 1xx 2xx ...": click the second one
        await pilot.click("#cells", offset=(6 + 6 + 2, 0))
        await pilot.pause()
        assert app.game.position.cells[1] == top
        assert str(app.game.moves[-1]) == "a>2"
        await pilot.click("#cells", offset=(6 + 6 + 2, 0))
        await pilot.pause()
        assert app.selection is not None and app.selection.kind == "cell"
        await pilot.press("escape", "u")
        await pilot.pause()
        assert app.game.position.cells[1] is None and app.game.position.fans[0][-1] == top


async def test_merci_click_on_tall_cards(store: Store) -> None:
    """At 160x50 cards are three lines tall in framed fans; a click on any
    line of a buried card picks that card."""
    app = LucieApp(store, "kim", Rules.parse("merci,redeals=0"), 5, clock=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        view = app.screen.query_one("#fan-b", FanView)
        assert view.tall and app.screen.has_class("roomy")
        card = app.game.position.fans[1][1]
        tw, th, gap, _ = view.geometry(view.content_size.width)
        assert th == 3
        dx = view.content_region.x - view.region.x
        dy = view.content_region.y - view.region.y
        await pilot.press("w")
        await pilot.click(view, offset=(dx + 3 + (tw + gap) + 1, dy + 2))
        await pilot.pause()
        assert app.selection is not None and app.selection.index == int(card)
        await pilot.click("#fan-d")
        await pilot.pause()
        assert app.game.position.fans[3][-1] == card


def test_run_refuses_a_damaged_database(tmp_path: Path) -> None:
    import argparse

    from lucie.store import StoreError
    from lucie.tui import run

    db = tmp_path / "bad.sqlite3"
    db.write_bytes(b"not a database" * 500)
    args = argparse.Namespace(db=str(db), player="kim", variant=None, deal=None, plain=False)
    with pytest.raises(StoreError, match="damaged"):
        run(args)
    assert db.read_bytes() == b"not a database" * 500


async def test_hint_is_shown_and_highlighted(store: Store) -> None:
    app = LucieApp(store, "kim", Rules(), 2, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        move = app.hint_move
        assert move is not None and app.game.position.is_legal(move)
        assert app.message.startswith("Hint:") and "Keys:" in app.message
        if move.src_kind == "fan":
            assert app.screen.query_one(f"#fan-{FAN_NAMES[move.src]}", FanView).has_class("hint")
        if move.is_redeal or move.src_kind == "card":
            return
        # playing the hinted keys plays the hinted move
        keys = app.message.split("Keys:")[1].split()
        await pilot.press(*[k.lower() if k != "Enter" else "enter" for k in keys])
        await pilot.pause()
        assert app.game.moves[-1] == move and app.hint_move is None
