"""The site's rate window in one process (lucie.web.site.operate.SharedWindow):
a client's requests arriving together share one batch, and the store
holds what every process reserved."""

from __future__ import annotations

import asyncio
from pathlib import Path

from lucie.store import limits
from lucie.web.site.operate import SharedWindow, rate
from lucie.web.store_link import StoreLink


def test_requests_arriving_together_share_a_batch(tmp_path: Path) -> None:
    link = StoreLink.open(tmp_path / "s.sqlite3")
    window = SharedWindow(link, "player", rate("40/minute"))  # batches of 2

    async def burst(n: int, now: float) -> list[bool]:
        return list(await asyncio.gather(*(window.hit("7", now) for _i in range(n))))

    try:
        now = 6_000.0
        assert window.batch == 2
        # 30 at once: each does not reserve a batch of its own (that would
        # spend the 40 on 20 requests)
        assert asyncio.run(burst(30, now)) == [True] * 30
        assert limits.counts(link.store, "player", "7", seconds=60, now=now) == (0, 30)
        assert asyncio.run(burst(12, now)) == [True] * 10 + [False] * 2
        assert limits.counts(link.store, "player", "7", seconds=60, now=now)[1] == 40
        assert 60 < window.reset_after("7", now) <= 120  # into the next window
        # refused from memory meanwhile: nothing more is counted
        assert asyncio.run(burst(5, now + 1)) == [False] * 5
        assert limits.counts(link.store, "player", "7", seconds=60, now=now)[1] == 40
    finally:
        link.close()
