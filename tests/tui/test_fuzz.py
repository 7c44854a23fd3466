"""Random key presses and clicks never break the game: whatever happens,
the game is what its own move list replays to, and the store holds it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lucie.engine import Game
from lucie.formats import format_layout
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp

KEYS = [
    *"abcdefghijklmnopqrstuvwxy123456789.",
    "enter", "space", "escape", "ctrl+z", "ctrl+y", "f4", "f6",
]
ACTIONS = st.one_of(
    st.sampled_from(KEYS),
    st.tuples(st.sampled_from(["fan", "double"]), st.integers(0, 17), st.integers(0, 30)),
)


async def _run(db: Path, spec: str, deal: int, actions: list[object]) -> None:
    store = Store(db)
    app = LucieApp(store, "fuzz", Rules.parse(spec), deal, clock=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for action in actions:
            if app.screen is not app.table:
                # a dialog: answer it (yes to confirmations, close the rest)
                await pilot.press("y" if "Confirm" in type(app.screen).__name__ else "escape")
            if isinstance(action, str):
                await pilot.press(action)
            else:
                kind, fan, x = action  # type: ignore[misc]
                fan %= app.game.rules.num_fans
                selector = f"#fan-{'abcdefghijklmnopqr'[fan]}"
                if kind == "double":
                    await pilot.double_click(selector, offset=(x, 0))
                else:
                    await pilot.click(selector, offset=(x, 0))
        await pilot.pause()
        game = app.game
        replay = Game(game.rules, game.deal)
        replay.push_all(game.moves)
        assert replay.position == game.position
        stored = store.game(app.game_id)
        assert format_layout(stored.position) == format_layout(game.position)
        assert stored.moves == game.moves
    store.close()


@settings(
    max_examples=8, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    spec=st.sampled_from(["classic", "reserve", "merci,redeals=0", "trefoil", "shamrocks"]),
    deal=st.integers(1, 5000),
    actions=st.lists(ACTIONS, min_size=5, max_size=30),
)
def test_random_input_keeps_game_and_store_consistent(
    tmp_path: Path, spec: str, deal: int, actions: list[object],
) -> None:
    db = tmp_path / f"fuzz-{spec}-{deal}-{len(actions)}.sqlite3"
    db.unlink(missing_ok=True)
    asyncio.run(_run(db, spec, deal, actions))
