"""Hypothesis: random legal play in every variant keeps the engine honest.

After every step: all 52 cards are in exactly one place, undo restores the
previous position exactly, redo restores the next one, a saved and reloaded
game equals the original, and the move generator agrees with the rule checker.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from lucie.cards import DECK
from lucie.engine import FAN_NAMES, Game, Move, Position
from lucie.errors import RulesError
from lucie.formats import format_layout, load_game, parse_layout, save_game
from lucie.rules import VARIANTS, Rules


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """A named variant, or a random combination of settings."""
    if draw(st.booleans()):
        return VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))].rules
    while True:
        try:
            return Rules(
                fan_size=draw(st.sampled_from([3, 3, 3, 4, 2])),
                build=draw(st.sampled_from(["suit", "alternate", "any"])),
                direction=draw(st.sampled_from(["down", "updown"])),
                max_fan=draw(st.sampled_from([None, None, 4, 5])),
                empty_fill=draw(st.sampled_from(["none", "king", "any"])),
                redeals=draw(st.integers(0, 3)),
                merci=draw(st.booleans()),
                cells=draw(st.sampled_from([0, 0, 1, 4])),
                aces_first=draw(st.booleans()),
                kings_bottom=draw(st.booleans()),
                foundation_takeback=draw(st.booleans()),
                redeal_only_when_stuck=draw(st.booleans()),
            )
        except RulesError:
            continue


ACTIONS = st.lists(
    st.tuples(st.sampled_from(["move", "move", "move", "move", "redeal", "merci", "undo",
                               "redo", "auto"]),
              st.integers(0, 10_000)),
    min_size=1, max_size=60,
)


def candidate_moves(p: Position) -> list[Move]:
    """A universe of moves, legal or not, to compare generator and checker."""
    n = len(p.fans)
    moves = [Move.redeal()]
    for i in range(n):
        moves.append(Move.to_foundation(i))
        moves.extend(Move.build(i, j) for j in range(n))
        moves.extend(Move.to_cell(i, c) for c in range(len(p.cells) + 1))
    for c in range(len(p.cells) + 1):
        moves.append(Move.from_cell(c, None))
        moves.extend(Move.from_cell(c, j) for j in range(n))
    for card in DECK[::5]:
        moves.extend(Move.card_to_fan(card, j) for j in range(0, n, 4))
    return moves


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules(), deal=st.integers(1, 10**6), actions=ACTIONS)
# autoplay alone wins: the won position's layout round-trips too
@example(rules=Rules(fan_size=2, aces_first=True, kings_bottom=True, redeals=0), deal=115,
         actions=[("auto", 0)])
def test_random_play_keeps_every_invariant(rules: Rules, deal: int,
                                           actions: list[tuple[str, int]]) -> None:
    game = Game(rules, deal)
    game.position.check_cards()
    for kind, pick in actions:
        before = game.position
        legal = list(game.legal_moves)
        if kind in ("move", "redeal", "merci"):
            if kind == "redeal":
                pool = [m for m in legal if m.is_redeal]
            elif kind == "merci":
                pool = [m for m in legal if m.src_kind == "card"]
            else:
                pool = [m for m in legal if not m.is_redeal and m.src_kind != "card"]
            if not pool:
                continue
            move = pool[pick % len(pool)]
            event(f"played {kind}")
            game.push(move)
            after = game.position
            after.check_cards()
            # undo restores exactly, redo restores the next
            assert game.pop() == move
            assert game.position == before
            game.redo()
            assert game.position == after
            if move.src_kind == "card" and not before.rules.foundation_takeback:
                assert after.merci_used
        elif kind == "undo" and game.can_undo:
            game.pop()
            game.position.check_cards()
        elif kind == "redo" and game.can_redo:
            game.redo()
            game.position.check_cards()
        elif kind == "auto":
            for _ in game.autoplay():
                pass
            game.position.check_cards()
        assert game.position.score == sum(game.position.foundations)
    event(f"ends {game.outcome.status}")
    # the generator agrees with the checker, on legal and illegal moves alike
    p = game.position
    legal = set(p.legal_moves())
    assert len(legal) == len(p.legal_moves())  # no duplicates
    assert p.has_moves() == bool(legal)
    for move in candidate_moves(p) + list(legal):
        assert (move in legal) == p.is_legal(move), (str(move), p.why_illegal(move))
    # save and reload replays to the same game
    again = load_game(save_game(game))
    assert again.position == game.position
    assert again.moves == game.moves
    assert again.deal == game.deal and again.rules == game.rules
    # the layout text round-trips
    assert parse_layout(format_layout(p), rules) == p


@settings(max_examples=60, deadline=None)
@given(rules=any_rules(), deal=st.integers(1, 10**6), picks=st.lists(st.integers(0, 999),
                                                                       max_size=80))
def test_moves_round_trip_through_text(rules: Rules, deal: int, picks: list[int]) -> None:
    game = Game(rules, deal)
    for pick in picks:
        legal = list(game.legal_moves)
        if not legal:
            break
        move = legal[pick % len(legal)]
        assert Move.parse(str(move)) == move
        game.push(str(move))
    replay = Game(rules, deal)
    replay.push_all([str(m) for m in game.moves])
    assert replay.position == game.position
    assert all(name in FAN_NAMES for name in "abcdefghijklmnopqr")


STEP_ACTIONS = st.lists(
    st.tuples(st.sampled_from(["play", "play", "play", "plain", "auto", "undo_step",
                               "redo_step", "pop", "redo"]),
              st.integers(0, 10_000)),
    min_size=1, max_size=50,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules(), deal=st.integers(1, 10**6), actions=STEP_ACTIONS)
def test_steps_undo_and_redo_whole(rules: Rules, deal: int,
                                   actions: list[tuple[str, int]]) -> None:
    """A step (a move and what autoplay sent home after it) is undone and
    redone whole, restoring the positions exactly; the steps always cover
    the move list; the 52 cards are always accounted for; a reloaded game
    has the same steps whenever each was played with autoplay."""
    game = Game(rules, deal)
    all_autoplayed = True
    for kind, pick in actions:
        before = game.position
        before_moves = game.moves
        if kind in ("play", "plain"):
            legal = list(game.legal_moves)
            if not legal:
                continue
            step = game.play(legal[pick % len(legal)], autoplay=kind == "play")
            all_autoplayed &= kind == "play"
            after = game.position
            after.check_cards()
            assert step.before == before and step.after == after
            assert step.positions == game.positions[-len(step.moves) - 1:]
            assert game.moves == before_moves + step.moves
            assert game.steps[-1] == step
            assert all(m.dst_kind == "foundation" for m in step.autoplayed)
            assert step.card == before.moving_card(step.move)
            # undo takes back the whole step, exactly; redo replays it
            assert game.undo_step() == step
            assert game.position == before and game.moves == before_moves
            assert game.redo_steps[0] == step
            assert game.redo_step() == step
            assert game.position == after
        elif kind == "auto":
            if game.autoplay():
                all_autoplayed = False
        elif kind == "undo_step" and game.can_undo:
            step = game.undo_step()
            assert game.moves + step.moves == before_moves
            assert game.position == step.before
        elif kind == "redo_step" and game.can_redo:
            step = game.redo_step()
            assert game.moves == before_moves + step.moves
        elif kind == "pop" and game.can_undo:
            game.pop()
            all_autoplayed = False
        elif kind == "redo" and game.can_redo:
            game.redo()
            all_autoplayed = False
        game.position.check_cards()
        steps = game.steps
        assert tuple(m for s in steps for m in s.moves) == game.moves
        assert all(s.moves for s in steps)
        assert all(len(s.positions) == len(s.moves) + 1 for s in steps + game.redo_steps)
        if game.redo_steps:
            assert game.redo_steps[0].before == game.position
        assert [s.before for s in steps] == [
            game.positions[sum(len(t.moves) for t in steps[:k])] for k in range(len(steps))
        ]
    again = load_game(save_game(game))
    assert again.position == game.position and again.moves == game.moves
    if all_autoplayed:
        assert again.steps == game.steps
