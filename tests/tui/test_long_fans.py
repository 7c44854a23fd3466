"""Long fans stay on the screen at every supported size (issue 38).

Fans that grow long (any-suit or alternate-colour builds) once pushed the
last row of fans off a 120x40 terminal behind a scrollbar.  The table now
takes a plainer look (short cards, touching cards, no frames) until every
fan fits.
"""

from __future__ import annotations

import pytest

from lucie.engine import Game
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp
from lucie.tui.widgets import FanView

pytestmark = pytest.mark.anyio

SIZES = [(80, 24), (100, 30), (120, 40), (160, 50), (200, 60)]


def grown(variant: str, deal: int) -> Game:
    """The deal played by always building on the longest fan it can."""
    game = Game(Rules.parse(variant), deal)
    for _ in range(300):
        p = game.position
        moves = [m for m in game.legal_moves if m.src_kind == "fan" and m.dst_kind == "fan"
                 and len(p.fans[m.dst]) >= len(p.fans[m.src]) - 1]
        if not moves:
            break
        game.push(max(moves, key=lambda m: (len(p.fans[m.dst]), -len(p.fans[m.src]))))
    return game


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("variant", "deal"), [("flower", 6), ("alternate", 6)])
async def test_every_fan_is_on_the_screen(
    store: Store, variant: str, deal: int, size: tuple[int, int],
) -> None:
    played = grown(variant, deal)
    lengths = sorted((len(f) for f in played.position.fans), reverse=True)
    assert lengths[:3] >= [10, 8, 7]  # long fans in several rows
    app = LucieApp(store, "kim", Rules.parse(variant), deal, clock=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.game.push_all(played.moves)
        app.refresh_board()
        # the table lays itself out again over a few refreshes (more on a
        # busy machine): wait until it has, then check it
        for _ in range(200):
            await pilot.pause()
            if every_fan_shown(app):
                break
        fans = app.screen.query_one("#fans")
        assert fans.max_scroll_y == 0
        for view in app.screen.query(FanView):
            assert view.region.height > 0
            assert view.region.bottom <= fans.region.bottom, view.id
            assert view.content_size.height >= lines_needed(view), view.id


def lines_needed(view: FanView) -> int:
    """The lines a fan needs to show all its cards at its width."""
    _tw, th, _gap, per = view.geometry(view.content_size.width)
    return th * -(-max(1, len(view.cards)) // per)


def every_fan_shown(app: LucieApp) -> bool:
    fans = app.screen.query_one("#fans")
    return fans.max_scroll_y == 0 and all(
        v.region.height > 0 and v.region.bottom <= fans.region.bottom
        and v.content_size.height >= lines_needed(v)
        for v in app.screen.query(FanView))
