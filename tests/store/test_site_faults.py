"""The fault test of issue 48: 50 paced players on ``lucie serve --workers
2`` while a worker is killed with ``kill -9`` every few seconds for a
minute.  The players make moves, say whether their page shows the game,
resign, Restart after the end and start new games leaving the old one;
a request whose worker died under it is sent again after reading the game
(as in tests/store/test_serve_workers.py).  Afterwards every acknowledged
move (answered 200), every acknowledged result and every acknowledged
second of shown time is in the store, and every page shows its own game:
the last one it was given (after a Restart the new one, of its deal),
through the site and as the store has it.  On SQLite and on PostgreSQL."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.serving import healthy, wait_for
from tests.store.test_serve_workers import workers

from lucie.errors import LucieError
from lucie.store import Store

#: the ``serve_site`` fixture (tests/store/conftest.py)
Start = Callable[..., tuple[subprocess.Popen[str], str]]

#: Players, each with its own client and cookie.
PLAYERS = 50
#: How long workers are killed (seconds).
KILLING = 60.0
#: Seconds between two kills (the next waits for both workers to be up).
KILL_EVERY = 3.0
#: Seconds a player waits between two requests, at least and at most.
PACE = (0.2, 0.5)
#: A game this long is resigned.
LONGEST = 40
#: No rate limit in the way: a killed worker's reserved part of a client's
#: limit (a twentieth) is lost until the window ends, so a limit by the
#: minute (the fixture's) is spent by twenty kills; by the second, never.
LIMITS = ("--address-limit", "1000000/second", "--player-limit", "1000000/second")


def _client(url: str, cookies: httpx.Cookies) -> httpx.Client:
    """A client whose every request is a new connection: each one lands on
    either worker (a kept connection stays with one)."""
    return httpx.Client(base_url=url, timeout=30, cookies=cookies,
                        limits=httpx.Limits(max_keepalive_connections=0))


@dataclass
class Era:
    """One game a page named (a Restart after its end begins the next),
    as the last answers 200 gave it."""

    deal: str
    #: the game's id in the store (read when the page was given it)
    store_id: int | None
    #: when the request that may have made it was sent (``time.monotonic``)
    began: float
    #: when the last answer 200 about it came
    last: float = 0.0
    moves: list[str] = field(default_factory=list)
    status: str = "playing"
    #: the most seconds of shown time an answer gave
    seconds: float = 0.0
    #: a resign of it was answered 200
    resigned: bool = False


@dataclass
class Page:
    """A page the player was given (its token), and its games."""

    token: str
    eras: list[Era]
    #: a new game left it (answered 200): the status its game must keep,
    #: "gone" for a game without a move (forgotten)
    left: str | None = None


class Lookup:
    """The store, read by the test itself (one connection, shared)."""

    def __init__(self, db: str) -> None:
        self.store = Store(db)
        self.lock = threading.Lock()

    def token_game(self, token: str) -> int | None:
        with self.lock:
            return self.store.token_game(token)

    def close(self) -> None:
        self.store.close()


@dataclass
class Player:
    """A player on one page at a time, a request every ``PACE`` seconds."""

    url: str
    lookup: Lookup
    rng: random.Random
    pages: list[Page] = field(default_factory=list)
    #: the current page's game as the last answer 200 gave it; None: to be read
    state: dict[str, Any] | None = None
    #: the page a new game is leaving (sent, not yet answered)
    leaving: str | None = None
    #: when the first request since the last answer 200 was sent (None:
    #: none since), and that time for the last answer 200 (where a game
    #: that answer gave may have begun)
    waiting: float | None = None
    began: float = 0.0
    answered: int = 0
    failed: int = 0
    results: int = 0
    restarts: int = 0
    problems: list[str] = field(default_factory=list)
    cookies: httpx.Cookies = field(default_factory=httpx.Cookies)

    def _client(self) -> httpx.Client:
        return _client(self.url, self.cookies)

    def play(self, stop: threading.Event) -> None:
        client = self._client()
        try:
            while not stop.wait(self.rng.uniform(*PACE)):
                try:
                    self._step(client)
                except (httpx.TransportError, ValueError):
                    self.failed += 1  # its worker died: read the game again
                    client.close()
                    self.cookies = client.cookies
                    client = self._client()
                    self.state = None
            self._settle(client)
        finally:
            self.cookies = client.cookies
            client.close()

    def _settle(self, client: httpx.Client) -> None:
        """The last read of the page's game and a last word that the page
        is hidden (each answered: nobody is killed now)."""
        for _attempt in range(10):
            try:
                if self.state is None:
                    self._step(client)
                if self.state is not None:
                    self._ping(client, False)
                    return
            except (httpx.TransportError, ValueError):
                self.state = None
        self.problems.append("the page's game could not be read after the kills")

    @property
    def page(self) -> Page:
        return self.pages[-1]

    def _step(self, client: httpx.Client) -> None:
        if self.waiting is None:
            self.waiting = time.monotonic()
        if self.state is None:
            if not self.pages or self.page.left == "gone":
                self._new(client, None)
            else:
                self._read(client)
            return
        if self.state["status"] != "playing":
            if self.rng.random() < 0.7:
                if self._game(client.post(f"/api/games/{self.page.token}/restart", json={})):
                    self.restarts += 1
            else:
                self._new(client, self.page.token)
            return
        draw = self.rng.random()
        legal = [m for m in self.state["legal_moves"] if m != "redeal"]
        if draw < 0.12:
            self._ping(client, self.rng.random() < 0.7)
        elif draw < 0.16 or not legal or len(self.state["moves"]) >= LONGEST:
            self._resign(client)
        elif draw < 0.19:
            self._new(client, self.page.token)
        else:
            move = self.rng.choice(legal)
            self._game(client.post(f"/api/games/{self.page.token}/move", json={"move": move}))

    def _read(self, client: httpx.Client) -> None:
        answer = client.get(f"/api/games/{self.page.token}")
        era = self.page.eras[-1]
        if (answer.status_code == 404 and self.leaving == self.page.token
                and not era.moves and era.status == "playing"):
            self.page.left = "gone"  # a new game left it, its answer lost
            self.leaving = None
            return
        self._game(answer)

    def _resign(self, client: httpx.Client) -> None:
        if self._game(client.post(f"/api/games/{self.page.token}/resign", json={})):
            self.page.eras[-1].resigned = True
            self.results += 1

    def _ping(self, client: httpx.Client, visible: bool) -> None:
        answer = client.post(f"/api/games/{self.page.token}/visibility",
                             json={"visible": visible})
        if not self._ok(answer):
            return
        era = self.page.eras[-1]
        data = answer.json()
        if era.status == "playing" and data["running"] is not visible:
            # (a ping counted on another game than the page's)
            self.problems.append(f"page {self.page.token}: shown {visible}, "
                                 f"the clock answered {data}")
        era.seconds = max(era.seconds, float(data["seconds"]))

    def _new(self, client: httpx.Client, leaving: str | None) -> None:
        self.leaving = leaving
        answer = client.post("/api/games", json={} if leaving is None else {"abandon": leaving})
        if answer.status_code != 200:
            self._ok(answer)
            return
        data = answer.json()
        if leaving is not None:
            era = self.page.eras[-1]
            era.last = time.monotonic()
            self.page.left = era.status if era.status != "playing" else (
                "resigned" if era.moves else "gone")
        self.leaving = None
        token = str(data["id"])
        began = self.waiting if self.waiting is not None else self.began
        self.pages.append(Page(token, [Era(data["deal"], self.lookup.token_game(token), began)]))
        self._game(answer)

    def _ok(self, answer: httpx.Response) -> bool:
        if answer.status_code != 200:
            self.problems.append(f"{answer.request.method} {answer.request.url.path}: "
                                 f"{answer.status_code} {answer.text[:200]}")
            self.state = None
            return False
        self.answered += 1
        if self.waiting is not None:
            self.began, self.waiting = self.waiting, None
        if self.pages:
            self.page.eras[-1].last = time.monotonic()
        return True

    def _game(self, answer: httpx.Response) -> bool:
        """Take an answer giving the page's game: checked against what was
        acknowledged before (a Restart after the end begins a new era)."""
        if not self._ok(answer):
            return False
        data: dict[str, Any] = answer.json()
        page = self.page
        era = page.eras[-1]
        moves = list(data["moves"])
        if data["id"] != page.token or data["deal"] != era.deal:
            self.problems.append(f"page {page.token} (deal {era.deal}) shows "
                                 f"{data['id']} (deal {data['deal']})")
        if era.status != "playing" and data["status"] == "playing":  # restarted
            if moves:
                self.problems.append(f"page {page.token}: restarted with moves {moves}")
            era = Era(era.deal, self.lookup.token_game(page.token), self.began)
            page.eras.append(era)
        if moves[:len(era.moves)] != era.moves or (
                era.status != "playing" and data["status"] != era.status):
            self.problems.append(f"page {page.token}: {era.moves} ({era.status}) "
                                 f"acknowledged, now {moves} ({data['status']})")
        era.moves, era.status = moves, str(data["status"])
        era.seconds = max(era.seconds, float(data["seconds"]))
        self.state = data
        return True


def _kill_workers(proc: subprocess.Popen[str], players: list[Player]) -> int:
    """Kill a worker every ``KILL_EVERY`` seconds for ``KILLING`` seconds
    (each once both workers serve, the players' moves going on); how many
    were killed."""
    rng = random.Random(48)
    killed = 0
    end = time.monotonic() + KILLING
    while time.monotonic() < end:
        wait_for("both workers", lambda: len(workers(proc.pid)) == 2, 60)
        # (the new worker serves before the next kill)
        wait_for("answers", _more_answers(players, 20), 60)
        os.kill(rng.choice(sorted(workers(proc.pid))), signal.SIGKILL)
        killed += 1
        wait_for("the next kill", _after(KILL_EVERY), KILL_EVERY + 5)
    return killed


def _more_answers(players: list[Player], more: int) -> Callable[[], bool]:
    """Whether the players had ``more`` answers since this was called."""
    answered = sum(p.answered for p in players)
    return lambda: sum(p.answered for p in players) >= answered + more


def _after(seconds: float) -> Callable[[], bool]:
    """Whether ``seconds`` have passed since this was called."""
    then = time.monotonic() + seconds
    return lambda: time.monotonic() >= then


def _faults(serve_site: Start, db: str) -> None:
    proc, url = serve_site(db, "--workers", "2", *LIMITS)
    wait_for("two workers", lambda: len(workers(proc.pid)) == 2 and healthy(url))
    lookup = Lookup(db)
    players = [Player(url, lookup, random.Random(n)) for n in range(PLAYERS)]
    stop = threading.Event()
    threads = [threading.Thread(target=p.play, args=(stop,)) for p in players]
    for t in threads:
        t.start()
    try:
        wait_for("every player's first game", lambda: all(p.pages for p in players), 120)
        killed = _kill_workers(proc, players)
    finally:
        stop.set()
        for t in threads:
            t.join(120)
    try:
        assert proc.poll() is None and killed >= 10
        assert sum(p.failed for p in players) > 0  # (the kills were felt)
        assert sum(p.results for p in players) > 0 and sum(p.restarts for p in players) > 0
        problems = [f"player {n}: {text}" for n, p in enumerate(players) for text in p.problems]
        assert problems == [], "\n".join(problems[:40])
        _check_store(players, url, lookup.store)
    finally:
        lookup.close()


def _check_store(players: list[Player], url: str, store: Store) -> None:
    """Every page shows its own game (read several times: both workers
    answer) and the store holds every era's acknowledged moves, result and
    seconds."""
    for n, p in enumerate(players):
        owners: set[int] = set()
        with _client(url, p.cookies) as client:
            for page in p.pages:
                where = f"player {n}, page {page.token}"
                for _read in range(4):
                    seen = client.get(f"/api/games/{page.token}")
                    if page.left == "gone":
                        assert seen.status_code == 404, (where, seen.text)
                        continue
                    assert seen.status_code == 200, (where, seen.text)
                    last = page.eras[-1]
                    data = seen.json()
                    assert (data["deal"], data["moves"], data["status"]) == (
                        last.deal, last.moves, page.left or last.status), (where, data)
                if page.left == "gone":
                    continue
                assert store.token_game(page.token) == page.eras[-1].store_id, where
                if page.left is not None:
                    page.eras[-1].status = page.left
                for era in page.eras:
                    _check_era(store, era, where)
                    owners.add(store.record(era.store_id or 0).player_id)
            assert len(owners) == 1, (n, owners)  # every result is the player's own
    # no game in play with moves is lost to its page: each is a page's game;
    # one without a move may be left by a request whose worker died after
    # it made a new game (at most one a request: the tidying takes them)
    held = {page.eras[-1].store_id for p in players for page in p.pages if page.left is None}
    lost = [(r.id, r.moves) for r in store.history() if r.status == "playing"
            and r.id not in held]
    assert [game for game in lost if game[1]] == []
    assert len(lost) <= sum(p.failed for p in players), lost


def _check_era(store: Store, era: Era, where: str) -> None:
    assert era.store_id is not None, where
    try:
        record = store.record(era.store_id)
        moves = [str(m) for m in store.game(era.store_id).moves]
    except LucieError as exc:
        raise AssertionError(f"{where}: game {era.store_id}: {exc}") from None
    assert str(record.deal) == era.deal, (where, record)
    assert moves == era.moves, (where, era, moves)
    assert record.status == era.status, (where, era, record)
    assert not era.resigned or record.status == "resigned", (where, era, record)
    assert record.seconds >= era.seconds, (where, era, record)
    # and no time counted twice: never more than passed while it was played
    assert record.seconds <= era.last - era.began + 0.1, (where, era, record)


@pytest.mark.slow
def test_workers_killed_under_50_players_on_sqlite(serve_site: Start, tmp_path: Path) -> None:
    _faults(serve_site, str(tmp_path / "site.sqlite3"))


@pytest.mark.slow
def test_workers_killed_under_50_players_on_postgresql(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _faults(serve_site, pg_fresh())
