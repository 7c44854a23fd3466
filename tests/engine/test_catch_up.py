"""A stored game read again over an earlier copy of it (a site's process
whose copy another process played on): only the moves made since are
replayed, and the game is the one a whole replay gives (moves, positions,
redeals, outcome; the undo steps of the moves the copy had are the
copy's)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lucie.engine import Game
from lucie.errors import SaveFileError
from lucie.formats import format_layout, game_from_json, game_to_json, move_texts
from lucie.rules import VARIANTS, Rules


def _played(rules: Rules, deal: int, steps: int, pick: int) -> Game:
    """A game of ``deal`` after up to ``steps`` moves (redeals included),
    each the ``pick``-th legal one, some with autoplay."""
    game = Game(rules, deal)
    for i in range(steps):
        legal = list(game.legal_moves)
        if not legal:
            break
        game.play(legal[(pick + i) % len(legal)], autoplay=i % 3 == 0)
    return game


def _same(a: Game, b: Game) -> None:
    assert move_texts(a.moves) == move_texts(b.moves)
    assert a.position == b.position
    assert a.outcome == b.outcome
    assert (a.can_undo, a.can_redo, a.resigned) == (b.can_undo, b.can_redo, b.resigned)
    assert format_layout(a.position, foundations=True) == format_layout(b.position,
                                                                       foundations=True)


class Counting:
    """Counts the moves a replay plays."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.pushed = 0
        apply = Game._apply

        def counted(game: Game, move: object) -> None:
            self.pushed += 1
            apply(game, move)  # type: ignore[arg-type]

        monkeypatch.setattr(Game, "_apply", counted)


@settings(max_examples=60, deadline=None)
@given(variant=st.sampled_from(sorted(VARIANTS)), deal=st.integers(1, 10**6),
       steps=st.integers(0, 80), pick=st.integers(0, 9), cut=st.floats(0, 1))
def test_the_game_read_over_a_copy_is_the_whole_replays(variant: str, deal: int, steps: int,
                                                         pick: int, cut: float) -> None:
    rules = VARIANTS[variant].rules
    later = _played(rules, deal, steps, pick)
    data = game_to_json(later)
    base = Game(rules, deal)
    base.push_all(later.moves[: int(cut * len(later.moves))])
    kept = move_texts(base.moves)
    read = game_from_json(data, base)
    _same(read, game_from_json(data))
    assert move_texts(base.moves) == kept  # the copy is left as it was
    # the moves made since are steps of their own, and the copy's moves
    # are undone step by step as the copy undid them
    read = game_from_json(data, base)
    while len(read.moves) > len(kept):
        read.undo_step()
    assert move_texts(read.moves) == kept
    mine = base.copy()
    while mine.can_undo:
        mine.undo_step()
        read.undo_step()
        assert move_texts(read.moves) == move_texts(mine.moves)


def test_only_the_moves_made_since_are_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    later = _played(Rules(), 7, 40, 1)
    base = Game(Rules(), 7)
    base.push_all(later.moves[:-3])
    data = game_to_json(later)
    counting = Counting(monkeypatch)
    game_from_json(data, base)
    assert counting.pushed == 3
    counting.pushed = 0
    game_from_json(data)
    assert counting.pushed == len(later.moves)


@pytest.mark.parametrize("how", ["undone", "redo", "resigned", "other deal", "other rules"])
def test_a_copy_the_game_does_not_go_on_from_is_not_used(
        how: str, monkeypatch: pytest.MonkeyPatch) -> None:
    later = _played(Rules(), 7, 40, 1)
    data = game_to_json(later)
    rules, deal = (VARIANTS["trefoil"].rules, 7) if how == "other rules" else (Rules(), 7)
    base = Game(rules, 8 if how == "other deal" else deal)
    base.push_all(later.moves[:10] if how not in ("other deal", "other rules") else [])
    if how == "undone":  # the copy has a move the stored game took back
        base = Game(Rules(), 7)
        base.push_all(later.moves[:10])
        base.push_all([m for m in base.legal_moves if m != later.moves[10]][:1])
    elif how == "redo":
        base.undo()
    elif how == "resigned":
        base.resign()
    counting = Counting(monkeypatch)
    read = game_from_json(data, base)
    assert counting.pushed == len(later.moves)  # the whole game replayed
    _same(read, game_from_json(data))


def test_a_damaged_saved_game_is_refused_over_a_copy_too() -> None:
    later = _played(Rules(), 7, 30, 1)
    base = Game(Rules(), 7)
    base.push_all(later.moves[:20])
    data = game_to_json(later)
    data["moves"] = [*data["moves"][:25], "zz", *data["moves"][26:]]
    with pytest.raises(SaveFileError, match="move 26"):
        game_from_json(data, base)
    data = game_to_json(later)
    data["final"]["layout"] = format_layout(Game(Rules(), 7).position, foundations=True)
    with pytest.raises(SaveFileError, match="edited"):
        game_from_json(data, base)
    data = game_to_json(later)
    data["moves"] = [*data["moves"][:25], 3]
    with pytest.raises(SaveFileError, match="not a list of moves"):
        game_from_json(data, base)
