"""A site's rate limits counted in the store (lucie.store.limits), on both
backends: never more than the limit let through, whichever process asks,
and ``lucie serve`` processes on one database holding a client to one
limit between them."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import httpx

from lucie.store import Store
from lucie.store.limits import counts, forget_before, reserve, retry_after, room

Where = Path | str
#: starts a ``lucie serve`` on a database (tests/store/conftest.py's serve_site)
Start = Callable[..., tuple[subprocess.Popen[str], str]]


def test_reservations_from_many_processes_never_pass_the_limit(where: Where) -> None:
    # four stores on one database: four processes (or machines) of a site
    stores = [Store(where) for _i in range(4)]
    granted: list[int] = []
    lock = threading.Lock()

    def process(store: Store) -> None:
        for _i in range(30):
            got = reserve(store, "player", "42", most=50, seconds=60, want=3, now=6_000.0)
            with lock:
                granted.append(got)

    try:
        threads = [threading.Thread(target=process, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sum(granted) == 50  # every request allowed was counted once, none more
        assert counts(stores[0], "player", "42", seconds=60, now=6_000.0) == (0, 50)
        # another client, another limit: counts of their own
        assert reserve(stores[1], "player", "43", most=50, seconds=60, want=3, now=6_000.0) == 3
        assert reserve(stores[2], "address", "42", most=50, seconds=60, want=3, now=6_000.0) == 3
    finally:
        for s in stores:
            s.close()


def test_the_last_window_ages_out_and_is_forgotten(store: Store) -> None:
    assert reserve(store, "address", "1.2.3.4", most=10, seconds=60, want=10, now=120.0) == 10
    assert reserve(store, "address", "1.2.3.4", most=10, seconds=60, want=1, now=179.0) == 0
    # 15 s into the next window, 3/4 of the last one's 10 still count: 8 (rounded up)
    assert reserve(store, "address", "1.2.3.4", most=10, seconds=60, want=5, now=195.0) == 2
    assert counts(store, "address", "1.2.3.4", seconds=60, now=195.0) == (10, 2)
    assert forget_before(store, "address", 180) == 1  # the window of 120 s goes
    assert forget_before(store, "player", 10_000) == 0  # another limit's rows: none here
    assert counts(store, "address", "1.2.3.4", seconds=60, now=195.0) == (0, 2)


def test_room_and_retry_after_agree() -> None:
    # whenever no room is left, waiting retry_after seconds makes room
    for previous in (0, 3, 10, 40):
        for used in (0, 5, 10):
            for now in (0.0, 15.0, 59.0):
                if room(previous, used, most=10, seconds=60, now=now) > 0:
                    assert retry_after(previous, used, most=10, seconds=60, now=now) == 0.0
                    continue
                wait = retry_after(previous, used, most=10, seconds=60, now=now)
                assert wait > 0
                later = now + wait + 1e-6
                # a wait into the next window: this window's count is then the last one's
                last, this = (used, 0) if later >= 60 else (previous, used)
                assert room(last, this, most=10, seconds=60, now=later) > 0


def _limited_across(serve_site: Start, db: str) -> None:
    limit = ("--player-limit", "6/minute")
    _one, url1 = serve_site(db, *limit)
    _two, url2 = serve_site(db, *limit)
    with httpx.Client(base_url=url1, timeout=20) as a:
        assert a.get("/api/me").status_code == 200  # the player is made: 1 of 6
        cookie = a.cookies["lucie_player"]
        with httpx.Client(base_url=url2, timeout=20, cookies={"lucie_player": cookie}) as b:
            answers = [c.get("/api/me") for _i in range(4) for c in (a, b)]
    codes = [r.status_code for r in answers]
    assert codes.count(200) == 5 and codes.count(429) == 3, codes  # 6 in all, not 6 each
    assert all(int(r.headers["Retry-After"]) >= 1 for r in answers if r.status_code == 429)


def test_two_servers_on_one_sqlite_file_share_the_limit(serve_site: Start,
                                                        tmp_path: Path) -> None:
    _limited_across(serve_site, str(tmp_path / "site.sqlite3"))


def test_two_servers_on_one_postgresql_database_share_the_limit(
        serve_site: Start, pg_fresh: Callable[[], str]) -> None:
    _limited_across(serve_site, pg_fresh())
