"""``lucie play --duel LINK``: a duel of a real ``lucie serve`` (SQLite)
played from the terminal game, driven by Textual's pilot, against a
player who uses the site's HTTP API and socket as the page does.

Nothing is mocked: the server is a process of its own, the terminal's
client talks to it over HTTP and its WebSocket."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from lucie import cli
from lucie.engine import FAN_NAMES, Move
from lucie.formats import format_layout
from lucie.tui.duel import DuelApp, DuelEndScreen
from lucie.tui.remote import DuelLink, SiteRefused, open_duel
from lucie.tui.screens import ConfirmScreen, TextScreen

websockets_sync = pytest.importorskip("websockets.sync.client")

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def _serve(where: Path, port: int = 0) -> tuple[subprocess.Popen[str], str]:
    """A real ``lucie serve`` on the SQLite file in ``where``, started, and
    its address."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "lucie", "serve", "--port", str(port), "--db",
         str(where / "site.sqlite3"), "--secret-file", str(where / "secret")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONUNBUFFERED="1"))
    assert proc.stderr is not None
    line = proc.stderr.readline()
    assert "http://" in line, line
    url = "http://" + line.split("http://", 1)[1].split()[0].rstrip("/")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.05)
    return proc, url


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:  # pragma: no cover
        proc.kill()
        proc.communicate()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``lucie serve`` on a SQLite file; its address."""
    proc, url = _serve(tmp_path_factory.mktemp("site"))
    yield url
    _stop(proc)


class Host:
    """The other side: a player of the site through its HTTP API."""

    def __init__(self, url: str, **settings: Any) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30)
        self.duel = self.ok(self.http.post("/api/duels", json={"deal": 31, **settings}))
        self.token = self.duel["token"]
        self.link = url + self.duel["link"]

    @staticmethod
    def ok(answer: httpx.Response) -> dict[str, Any]:
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def view(self) -> dict[str, Any]:
        return self.ok(self.http.get(f"/api/duels/{self.token}"))

    def play_one(self) -> dict[str, Any]:
        page = self.duel["game"]
        legal = [m for m in self.ok(self.http.get(f"/api/games/{page}"))["legal_moves"]
                 if m != "R"]
        return self.ok(self.http.post(f"/api/games/{page}/move", json={"move": legal[0]}))

    def socket(self) -> Any:
        cookie = f"lucie_player={self.http.cookies['lucie_player']}"
        return websockets_sync.connect(
            self.url.replace("http://", "ws://") + f"/api/duels/{self.token}/socket",
            additional_headers={"Cookie": cookie})


@pytest.fixture
def host(site: str) -> Iterator[Callable[..., Host]]:
    made: list[Host] = []

    def make(**settings: Any) -> Host:
        made.append(Host(site, **settings))
        return made[-1]

    yield make
    for one in made:
        one.http.close()


def keys_for(move: Move) -> list[str]:
    keys = [FAN_NAMES[move.src]]
    keys.append("enter" if move.dst_kind == "foundation" else FAN_NAMES[move.dst])
    return keys


def a_fan_move(app: DuelApp) -> Move:
    return next(m for m in app.game.legal_moves
                if m.src_kind == "fan" and m.dst_kind in ("fan", "foundation"))


async def until(pilot: Any, done: Callable[[], bool], seconds: float = 8.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "waited in vain"
        await pilot.pause(0.05)


def duel_line(app: DuelApp) -> str:
    table = app.table
    assert table is not None
    return str(table.query_one("#duel").render())


def progress_of(ws: Any, side: str, moves: int) -> dict[str, Any]:
    deadline = time.monotonic() + 8
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if message["type"] == "progress" and message["side"] == side \
                and message["progress"]["moves"] >= moves:
            progress: dict[str, Any] = message["progress"]
            return progress


async def test_each_side_sees_the_other(host: Callable[..., Host], tmp_path: Path) -> None:
    duel = host()
    start = open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json")
    assert start.view["you"] == "guest" and start.view["state"] == "playing"
    app = DuelApp(start)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.online)
        assert "Duel: " in app.message and "hints allowed" in app.message
        # the host's move shows in the terminal's header, live
        played = duel.play_one()
        moves = len(played["moves"])
        await until(pilot, lambda: (app.them or {}).get("moves") == moves)
        assert f"{moves} move" in duel_line(app) and "Duel time" in duel_line(app)
        # a move made in the terminal is the site's: the host hears of it
        with duel.socket() as ws:
            json.loads(ws.recv(timeout=10))  # the duel as it is
            move = a_fan_move(app)
            await pilot.press(*keys_for(move))
            assert str(move) in app.remote.state["moves"]
            assert progress_of(ws, "guest", 1)["moves"] >= 1
        guest = duel.view()["players"]["guest"]["progress"]
        assert guest["moves"] == len(app.game.moves) >= 1
        # the terminal's table is the site's game, which only its player reads
        state = start.client.call("GET", f"/api/games/{start.view['game']}")
        assert state["layout"] == format_layout(app.game.position)
        assert state["moves"] == [str(m) for m in app.game.moves]
        assert duel.http.get(f"/api/games/{start.view['game']}").status_code == 404
        # a hint, where hints are allowed, is the site's
        await pilot.press("t")
        await until(pilot, lambda: app.message.startswith(("Hint:", "No hint")), 30)
        assert app.message.startswith("Hint:"), app.message
        await pilot.press("ctrl+q")


async def test_a_gap_in_the_news_has_the_duel_read_again(host: Callable[..., Host],
                                                         tmp_path: Path) -> None:
    """The duel's news is numbered (``seq``): the terminal applies the next
    one only; one after a gap has the duel read again from the site (its
    whole state, at the number the site stands at), one already read is
    left."""
    duel = host()
    app = DuelApp(open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.online)
        moves = len(duel.play_one()["moves"])
        await until(pilot, lambda: (app.them or {}).get("moves") == moves)
        seq = app.order.seq
        assert isinstance(seq, int) and seq >= 1 and duel.view()["seq"] == seq
        app.them = {"moves": -1}  # as if shown wrong: the read below puts it right
        fake = {"type": "progress", "side": "host", "seq": seq + 2, "progress": {"moves": 99}}
        app.heard(fake)  # news missed: not applied, the duel is read again
        assert app.rereads == 1
        await until(pilot, lambda: (app.them or {}).get("moves") == moves)
        assert app.order.seq == seq
        app.heard(dict(fake, seq=seq))  # in the duel as read already: left
        assert (app.them or {}).get("moves") == moves and app.rereads == 1
        moves = len(duel.play_one()["moves"])  # the next news, in order: applied
        await until(pilot, lambda: (app.them or {}).get("moves") == moves)
        assert app.order.seq == seq + 1 == duel.view()["seq"] and app.rereads == 1
        await pilot.press("ctrl+q")


async def test_the_site_refuses_undo_and_hints(host: Callable[..., Host],
                                               tmp_path: Path) -> None:
    duel = host(hints=False, undo=False)
    app = DuelApp(open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert "no hints, no undo" in app.message
        move = a_fan_move(app)
        await pilot.press(*keys_for(move))
        assert len(app.game.moves) >= 1
        await pilot.press("u")
        assert "undo is not allowed in this duel" in app.message
        assert app.message_kind == "error" and len(app.game.moves) >= 1
        await pilot.press("t")
        await until(pilot, lambda: "hints are not allowed" in app.message)
        # and a restart, in any duel
        await pilot.press("f4")
        assert "cannot be dealt again" in app.message
        await pilot.press("ctrl+q")


async def test_a_resignation_ends_the_duel(host: Callable[..., Host], tmp_path: Path) -> None:
    duel = host()
    # a name that would be markup, shown as it is
    Host.ok(duel.http.post("/api/me/name", json={"name": "[/]Ann[b"}))
    app = DuelApp(open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json"))
    duel.play_one()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("f8")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, DuelEndScreen))
        screen = app.screen
        assert "[/]Ann[b won the duel" in str(screen.query_one(".title").render())
        assert "[/]Ann[b: " in duel_line(app)
        assert "You resigned" in str(screen.query_one("#why").render())
        view = duel.view()
        assert (view["state"], view["winner"], view["end_reason"]) == ("over", "host",
                                                                     "resigned")
        # both reviews, from the site
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, TextScreen), 60)
        await pilot.press("escape")
        await pilot.press("ctrl+q")


def test_the_same_side_comes_back_and_a_third_is_refused(host: Callable[..., Host],
                                                         tmp_path: Path) -> None:
    duel = host()
    first = open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json")
    again = open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json")
    assert (again.view["you"], again.view["game"]) == ("guest", first.view["game"])
    assert first.client.problem is None
    kept = json.loads((tmp_path / "sites.json").read_text())
    assert kept == {"format": "lucie-sites", "sites": {duel.url: first.client.cookie}}
    assert (tmp_path / "sites.json").stat().st_mode & 0o777 == 0o600
    with pytest.raises(SiteRefused, match="already has its two players"):
        open_duel(DuelLink.parse(duel.link), tmp_path / "other.json")
    # a file of another program where the cookies go is left as it is
    foreign = tmp_path / "foreign.json"
    foreign.write_text('{"theme": "dark"}')
    other = host()
    start = open_duel(DuelLink.parse(other.link), foreign)
    assert start.view["you"] == "guest" and "not lucie's" in str(start.client.problem)
    assert foreign.read_text() == '{"theme": "dark"}'


def _play(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = cli.main(["play", *args])
    return status, capsys.readouterr().err


def test_bad_links(site: str, host: Callable[..., Host], tmp_path: Path,
                   capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUCIE_SITES", str(tmp_path / "sites.json"))
    status, err = _play(["--duel", "lucie.example/duel/abc"], capsys)
    assert status == 2 and err.startswith("lucie: error: not a duel's link") \
        and err.count("\n") == 1
    status, err = _play(["--duel", site + "/duel/NoSuchDuel1"], capsys)
    assert status == 2 and "no duel has the link" in err and err.count("\n") == 1
    status, err = _play(["--duel", "http://127.0.0.1:9/duel/abcdEFGH"], capsys)
    assert status == 1 and "cannot be reached" in err and err.count("\n") == 1
    status, err = _play(["--duel", site + "/", "--deal", "3"], capsys)
    assert status == 2 and "leave out --variant" in err
    status, err = _play(["--duel", site + "/", "--player", "ann"], capsys)
    assert status == 2 and "leave out --variant" in err
    full = host()
    open_duel(DuelLink.parse(full.link), tmp_path / "guest.json")
    status, err = _play(["--duel", full.link], capsys)
    assert status == 2 and "already has its two players" in err and err.count("\n") == 1
    status, err = _play(["--duel", site + "/api/variants"], capsys)
    assert status == 2 and "not a duel's link" in err


async def test_the_host_waits_then_plays_and_wins_by_resignation(
        host: Callable[..., Host], tmp_path: Path) -> None:
    """The terminal as the duel's host (its cookie is the host's): it waits
    for the guest, plays once the guest joins, and wins when the guest
    resigns."""
    duel = host(minutes=30)
    sites = tmp_path / "sites.json"
    sites.write_text(json.dumps({"format": "lucie-sites",
                                 "sites": {duel.url: duel.http.cookies["lucie_player"]}}))
    start = open_duel(DuelLink.parse(duel.link), sites)
    assert (start.view["you"], start.view["state"]) == ("host", "waiting")
    app = DuelApp(start)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.online)
        assert "Waiting for your opponent" in duel_line(app)
        assert duel.link in app.message and "30 minutes" in app.message
        move = a_fan_move(app)
        await pilot.press(*keys_for(move))
        assert "has not started" in app.message and not app.game.moves
        assert not app.remote.state["clock_running"]  # the game's clock waits too
        with httpx.Client(base_url=duel.url, timeout=30) as guest:
            joined = Host.ok(guest.post(f"/api/duels/{duel.token}/join", json={}))
            await until(pilot, lambda: app.view["state"] == "playing")
            assert "The duel has started" in app.message
            assert " left" in duel_line(app)
            await pilot.press(*keys_for(move))
            assert len(app.game.moves) >= 1 and app.remote.state["clock_running"]
            Host.ok(guest.post(f"/api/games/{joined['game']}/resign", json={}))
        await until(pilot, lambda: isinstance(app.screen, DuelEndScreen))
        assert "You won the duel" in str(app.screen.query_one(".title").render())
        assert "resigned" in str(app.screen.query_one("#why").render())
        assert "r shows both reviews" in app.message
        await pilot.press("escape")
        assert "in the palette" in app.message
        app.action_duel_result()  # (the palette's Duel result)
        await pilot.pause()
        assert isinstance(app.screen, DuelEndScreen)
        await pilot.press("q")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


async def test_the_duel_survives_a_restart_of_the_site(tmp_path: Path) -> None:
    """The site goes down mid-duel: the terminal says it is offline, a move
    meanwhile is refused with the reason, and once the site is back the
    socket reconnects by itself and the game goes on where it was."""
    port = _free_port()
    started = [_serve(tmp_path, port)[0]]
    try:
        duel = Host(f"http://127.0.0.1:{port}")
        app = DuelApp(open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json"))
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.online)
            await pilot.press(*keys_for(a_fan_move(app)))
            played = [str(m) for m in app.game.moves]
            assert played
            _stop(started.pop())
            await until(pilot, lambda: not app.online)
            assert "offline" in duel_line(app)
            await pilot.press(*keys_for(a_fan_move(app)))
            assert "cannot be reached" in app.message
            assert [str(m) for m in app.game.moves] == played
            started.append(_serve(tmp_path, port)[0])
            await until(pilot, lambda: app.online, 20)
            duel.play_one()
            await until(pilot, lambda: (app.them or {}).get("moves", 0) >= 1)
            await pilot.press(*keys_for(a_fan_move(app)))
            assert len(app.game.moves) > len(played)
            await pilot.press("ctrl+q")
        duel.http.close()
    finally:
        for proc in started:
            _stop(proc)


def test_without_the_network_part_it_names_the_extra(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "websockets", None)  # as if not installed
    status, err = _play(["--duel", "http://127.0.0.1:9/duel/abcdEFGH"], capsys)
    assert status == 2 and "pip install 'lucie[tui]'" in err and "websockets" in err


async def test_a_second_window_on_the_same_side(host: Callable[..., Host],
                                                tmp_path: Path) -> None:
    """The same player's game changed elsewhere (another terminal): the
    site refuses the stale move, and the table shows the game as it is."""
    duel = host()
    start = open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json")
    other = open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json").session
    app = DuelApp(start)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        elsewhere = a_fan_move(app)
        other.play(elsewhere)
        await pilot.press(*keys_for(a_fan_move(app)))
        assert "changed in another window" in app.message
        assert [str(m) for m in app.game.moves] == other.state["moves"]
        await pilot.press("ctrl+q")


async def test_in_french_the_site_answers_in_french(host: Callable[..., Host],
                                                    tmp_path: Path) -> None:
    duel = host(undo=False)
    app = DuelApp(open_duel(DuelLink.parse(duel.link), tmp_path / "sites.json"),
                  language="fr")
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.online)
        assert "sans annuler" in app.message
        duel.play_one()
        await until(pilot, lambda: "aux fondations" in duel_line(app))
        assert "Temps du duel" in duel_line(app)
        await pilot.press(*keys_for(a_fan_move(app)))
        await pilot.press("u")
        assert app.message == "Refusé\u00a0: annuler n’est pas permis dans ce duel."
        await pilot.press("ctrl+q")
