"""The rough edges of issue #27.3 in the terminal game: each test failed
before its fix."""

from __future__ import annotations

import math

from lucie.engine import Game, Move
from lucie.rules import Rules


def test_hints_in_fan_with_reserve_never_park_a_card_for_one_move() -> None:
    """Reserve deal 4: the hints said ``g>4`` then ``4>k`` where ``g>k``
    was legal.  Following the hints, no card goes to a cell and straight
    on to a place it could have reached directly."""
    from lucie.analysis.hints import hint

    game = Game(Rules.parse("reserve"), 4)
    hinted: list[Move] = []
    parked_from = game.position
    for _ in range(40):
        # no time budget: each hint is the whole search's (a busy machine
        # changes how long it takes, not which move it gives)
        advice = hint(game.position, max_seconds=math.inf)
        assert not advice.budget_ran_out
        move = advice.move
        if move is None:
            break
        before = game.position
        game.play(move, autoplay=False)
        if hinted and hinted[-1].dst_kind == "cell":
            parked = hinted[-1]
            if move.src_kind == "cell" and move.src == parked.dst:
                direct = Move(parked.src_kind, parked.src, move.dst_kind, move.dst)
                assert direct not in list(parked_from.legal_moves()), (
                    f"{parked} then {move}: {direct} was legal"
                )
        hinted.append(move)
        parked_from = before
    assert len(hinted) >= 30


def test_x_sends_the_aces_home_in_shamrocks_where_no_card_is_strictly_safe() -> None:
    from lucie.engine import autoplay_moves
    from lucie.tui.controller import TableController

    t = TableController(Game(Rules.parse("shamrocks"), 2))
    p = t.game.position
    assert autoplay_moves(p) == []  # nothing is strictly safe here
    reply = t.send_home()
    assert reply.kind != "error" and reply.step is not None
    assert [str(m) for m in t.game.moves] == ["h>f", "o>f"]
    assert all(c.rank == 1 for c in _homes(t.game))
    assert "aces" in (reply.text or "")
    t.undo()
    t.undo()
    assert t.game.moves == ()


def _homes(game: Game) -> list[object]:
    p = game.position
    return [p.foundation_top(s) for s in range(4) if p.foundation_top(s) is not None]


def test_no_redeal_is_offered_or_refused_as_used_up_in_a_variant_without_one() -> None:
    from lucie.tui.controller import TableController

    t = TableController(Game(Rules.parse("noredeal"), 3))
    reply = t.redeal()
    assert reply.kind == "error"
    assert "left" not in (reply.text or "") and "has no redeal" in (reply.text or "")


def test_a_card_picked_while_the_hint_is_computed_stays_picked() -> None:
    from lucie.tui.controller import Selection, TableController

    t = TableController(Game(Rules(), 1))
    position = t.game.position
    t.fan_key(5)  # picked while the hint is being computed
    reply = t.show_hint(position, Move.parse("f>i"), "7D onto 8D")
    assert reply is not None and reply.text is not None
    assert t.selection == Selection("fan", 5)
    assert "stays picked" in reply.text
    assert str(t.fan_key(8).step.move) == "f>i"  # type: ignore[union-attr]


def test_plurals_in_the_redeal_question() -> None:
    from lucie.tui.controller import TableController, games_count, moves_count

    t = TableController(Game(Rules(), 1))
    t.game.play("R", autoplay=False)  # classic: 2 redeals, now 1 left
    reply = t.redeal()
    assert reply.confirm is not None and "(1 redeal left)" in reply.confirm
    assert games_count(1) == "1 game" and games_count(3) == "3 games"
    assert moves_count(1) == "1 move" and moves_count(0) == "0 moves"


def test_resigning_ends_the_game_and_undo_takes_it_back() -> None:
    from lucie.tui.controller import TableController

    t = TableController(Game(Rules(), 1))
    t.fan_key(5)
    t.fan_key(8)
    reply = t.resign()
    assert reply.changed and t.game.outcome.status == "resigned"
    assert t.resign().kind == "error"
    t.undo()
    assert t.game.outcome.status == "playing" and t.game.moves == ()
