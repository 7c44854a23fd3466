"""Terminal game: key press to redrawn screen latency.

Runs the app headless (Textual's ``run_test``) on a classic deal, sends
key events to its driver as a terminal would, and times each one until the
next frame reaches the display (``App._display``, where Textual writes the
update to the terminal; the frame is also rendered to terminal escape
sequences here so that cost counts).  Keys: pick a fan, move the card,
undo, redo, drop a selection; every move is saved to the store as in play.
Prints the median, the 95th percentile and the maximum in milliseconds at
80x24 and 160x50.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from textual import events

from lucie.engine import FAN_NAMES
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp


async def _measure(size: tuple[int, int], presses: int) -> list[float]:
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite3")
        app = LucieApp(store, "bench", Rules(), 1, clock=False)
        frame = asyncio.Event()
        original = app._display

        def display(screen: Any, renderable: Any) -> None:
            original(screen, renderable)
            if renderable is not None:
                if hasattr(renderable, "render_segments"):
                    renderable.render_segments(app.console)
                frame.set()

        app._display = display  # type: ignore[method-assign]
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            legal = [m for m in app.game.legal_moves if m.dst_kind == "fan"]
            seqs = [[FAN_NAMES[m.src], FAN_NAMES[m.dst], "u", "y", "u"] for m in legal]
            seqs += [[FAN_NAMES[i], "escape"] for i in range(app.game.rules.num_fans)]
            driver = app._driver
            assert driver is not None
            k = 0
            while len(times) < presses:
                for key in seqs[k % len(seqs)]:
                    await pilot.pause(0.02)
                    frame.clear()
                    event = events.Key(key, key if len(key) == 1 else None)
                    event.set_sender(app)
                    start = time.perf_counter()
                    driver.send_message(event)
                    await asyncio.wait_for(frame.wait(), timeout=2)
                    times.append(time.perf_counter() - start)
                k += 1
        store.close()
    return times


def main() -> None:
    for size in ((80, 24), (160, 50)):
        ms = sorted(t * 1000 for t in asyncio.run(_measure(size, 200)))
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(f"key press to redrawn screen at {size[0]}x{size[1]}: "
              f"median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, "
              f"max {ms[-1]:.1f} ms ({len(ms)} presses)")


if __name__ == "__main__":
    main()
