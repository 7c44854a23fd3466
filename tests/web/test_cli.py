"""``lucie web``: the real command in a subprocess."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from lucie.cli import main


class Served:
    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "lucie", "web", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1", **(env or {})),
        )
        assert self.proc.stdout is not None
        self.first_line = self.proc.stdout.readline()
        self.second_line = self.proc.stdout.readline()

    @property
    def url(self) -> str:
        assert "http://" in self.first_line, self.first_line + self.stop()[1]
        return self.first_line.split("http://", 1)[1].split()[0]

    def stop(self) -> tuple[int, str]:
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            self.proc.kill()
            _, err = self.proc.communicate()
        return self.proc.returncode, err


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[type[Served]]:
    started: list[Served] = []

    class Tracked(Served):
        def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
            super().__init__([*args, "--db", str(tmp_path / "web.sqlite3")], env)
            started.append(self)

    yield Tracked
    for s in started:
        if s.proc.poll() is None:
            s.stop()


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["web", "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for option in ("--host", "--port", "--no-browser", "--db", "--variant", "--deal"):
        assert option in out


@pytest.mark.parametrize("args", [["--port", "70000"], ["--port", "x"], ["--deal", "0"],
                                  ["--variant", "nosuch"]])
def test_bad_options(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["web", *args])
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_serves_on_loopback_with_the_game_asked_for(serve: type[Served]) -> None:
    s = serve(["--no-browser", "--variant", "trefoil", "--deal", "7"])
    url = s.url
    assert url.startswith("127.0.0.1:") and url.endswith("/?variant=trefoil&deal=7")
    assert "statistics in" in s.second_line and "web.sqlite3" in s.second_line
    base = "http://" + url.split("/")[0]
    page = httpx.get(base + "/")
    assert page.status_code == 200 and "La Belle Lucie" in page.text
    game = httpx.post(base + "/api/games", json={"variant": "trefoil", "deal": 7}).json()
    assert game["deal"] == "7" and len(game["fans"]) == 16
    # another Host name (DNS rebinding) is refused on a loopback server
    assert httpx.get(base + "/api/variants", headers={"Host": "evil.example"}).status_code == 400
    _, err = s.stop()
    assert "warning" not in err


def test_other_addresses_get_a_warning(serve: type[Served]) -> None:
    s = serve(["--no-browser", "--host", "0.0.0.0"])
    assert "http://127.0.0.1:" in s.first_line
    _, err = s.stop()
    assert "warning: listening on 0.0.0.0" in err


def test_port_in_use(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        r = subprocess.run(
            [sys.executable, "-m", "lucie", "web", "--no-browser", "--port", str(port),
             "--db", str(tmp_path / "x.sqlite3")],
            capture_output=True, text=True, timeout=60,
        )
    assert r.returncode == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in r.stderr
    assert "Traceback" not in r.stderr


def test_opens_the_browser(serve: type[Served], tmp_path: Path) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "fake-browser"
    browser.write_text(f"#!/bin/sh\necho \"$1\" > {opened}\n")
    browser.chmod(browser.stat().st_mode | stat.S_IEXEC)
    s = serve([], env={"BROWSER": str(browser)})
    url = s.url
    deadline = time.monotonic() + 20
    while not opened.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened.read_text().strip() == "http://" + url


def test_the_clock_does_not_lose_time_across_a_restart(serve: type[Served]) -> None:
    """Stopping the server saves the seconds played of the games in play:
    after a restart the clock goes on from there."""
    s = serve(["--no-browser"])
    base = "http://" + s.url.split("/")[0]
    gid = httpx.post(base + "/api/games", json={"deal": 1}).json()["id"]
    httpx.post(f"{base}/api/games/{gid}/move", json={"move": "f>i"})
    time.sleep(2)  # the player thinks; then the server is stopped (SIGTERM)
    _, err = s.stop()
    assert "Traceback" not in err, err
    again = serve(["--no-browser"])
    base = "http://" + again.url.split("/")[0]
    assert httpx.get(f"{base}/api/games/{gid}").json()["seconds"] >= 2
