"""Resume after the game's process is killed with SIGKILL (a real process)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from lucie.engine import FAN_NAMES, Game, Move
from lucie.rules import Rules
from lucie.store import Store
from lucie.tui.app import LucieApp

DRIVER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from lucie.rules import Rules
    from lucie.store import Store
    from lucie.tui.app import LucieApp

    db, deal, keys = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")

    async def main():
        store = Store(Path(db))
        app = LucieApp(store, "kim", Rules(), deal, clock=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for pair in keys:
                await pilot.press(*pair.split("+"))
                print("MOVED", len(app.game.moves), flush=True)
            print("READY", flush=True)
            await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def _keys(move: Move) -> str:
    dst = "enter" if move.dst_kind == "foundation" else FAN_NAMES[move.dst]
    return f"{FAN_NAMES[move.src]}+{dst}"


@pytest.mark.slow
@pytest.mark.parametrize("when", ["idle", "playing"])
def test_resume_after_sigkill(
    tmp_path: Path, classic_win: tuple[int, list[Move]], when: str,
) -> None:
    deal, line = classic_win
    line = line[:30]
    db = tmp_path / "games.sqlite3"
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(driver), str(db), str(deal), ",".join(_keys(m) for m in line)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    seen = 0
    try:
        for text in proc.stdout:
            if text.startswith("MOVED"):
                seen = int(text.split()[1])
                if when == "playing" and seen >= 12:
                    break  # kill it while it keeps playing
            elif text.startswith("READY"):
                break
        else:
            problem = proc.stderr.read() if proc.stderr else ""
            raise AssertionError(f"the driver stopped: {problem}")
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=30) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    with Store(db) as store:
        found = store.unfinished("kim")
        assert found is not None
        _, game = found
        stored = [str(m) for m in game.moves]
        # every move reported as made is stored; nothing else but the line
        assert len(stored) >= seen
        assert stored == [str(m) for m in line[: len(stored)]]
        if when == "idle":
            assert len(stored) == len(line)
        expected = Game(Rules(), deal)
        expected.push_all(line[: len(stored)])
        assert game.position == expected.position
        # and the app opens at that very position
        app = LucieApp(store, "kim", clock=False)
        assert app.resumed and app.game.position == expected.position
