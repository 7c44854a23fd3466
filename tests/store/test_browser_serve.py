"""``lucie serve`` in a real browser, on each backend: two players in two
browser contexts on ``--workers 2``, and a second ``lucie serve`` on the
same database (a second machine behind a load balancer, where the test can
choose which process answers).  Skipped when /usr/bin/chromium is absent,
unless ``LUCIE_REQUIRE_BROWSER=1``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from tests.chromium import ARGS, CHROMIUM, sync_api
from tests.serving import healthy, wait_for

pytestmark = pytest.mark.browser

#: Autoplay off: a move is one move.
SETTINGS = 'localStorage.setItem("lucie.autoplay", "0");'
#: Plays a move through the page's own code (the version it shows sent with it).
SEND_MOVE = """async (move) => {
  const hold = await import("/static/hold.js");
  await hold.sendMove(move);
  return window.lucie.state.moves;
}"""
#: The page's answer to a 409 "changed elsewhere" that carries no game (a
#: change lost to another process between its check and its write).
STALE_WITHOUT_STATE = """async () => {
  const commands = await import("/static/commands.js");
  return commands.staleAnswer({ status: 409, data: { stale: true }, message: "" });
}"""


@dataclass
class Site:
    workers: str  # lucie serve --workers 2
    other: str  # a second lucie serve on the same database


@pytest.fixture
def site(serve_site: Any, where: Any) -> Site:
    _proc, workers = serve_site(str(where), "--workers", "2")
    _proc, other = serve_site(str(where))
    wait_for("both servers", lambda: healthy(workers) and healthy(other))
    return Site(workers, other)


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


def _open(context: Any, url: str, errors: list[str]) -> Any:
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url + "/")
    page.wait_for_selector("body.ready")
    return page


def _state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.lucie.state")
    return state


def _a_move(page: Any) -> str:
    return str(next(m for m in _state(page)["legal_moves"] if m != "redeal"))


def _fetch(page: Any, path: str) -> Any:
    return page.evaluate(
        "async (p) => { const r = await fetch(p); return [r.status, await r.json()]; }", path)


def _post(page: Any, path: str) -> int:
    status: int = page.evaluate(
        "(p) => fetch(p, {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: '{}'}).then(r => r.status)", path)
    return status


def test_two_players_on_two_workers_and_two_servers(site: Site, browser: Any) -> None:
    errors: list[str] = []
    contexts = [browser.new_context(bypass_csp=True) for _who in range(2)]
    for c in contexts:
        c.add_init_script(SETTINGS)
    anne, bob = (_open(c, site.workers, errors) for c in contexts)
    a_id, b_id = _state(anne)["id"], _state(bob)["id"]
    assert a_id != b_id
    played = anne.evaluate(SEND_MOVE, _a_move(anne))
    assert len(played) == 1
    # each sees only their own games and statistics
    assert _fetch(bob, f"/api/games/{a_id}")[0] == 404
    assert _fetch(anne, f"/api/games/{b_id}")[0] == 404
    assert _post(anne, f"/api/games/{a_id}/resign") == 200
    assert _fetch(anne, "/api/stats")[1]["games"] == 1
    assert _fetch(bob, "/api/stats")[1]["games"] == 0
    assert [g["status"] for g in _fetch(bob, "/api/history")[1]["games"]] == ["playing"]
    assert [g["status"] for g in _fetch(anne, "/api/history")[1]["games"]] == ["resigned"]
    # Bob's game, on the other server (the cookie is the host's, whatever
    # the port; the page's memory of its game is the origin's: given here)
    contexts[1].add_init_script(f'localStorage.setItem("lucie.game", "{b_id}");')
    bob_there = _open(contexts[1], site.other, errors)
    assert _state(bob_there)["id"] == b_id
    moves = bob_there.evaluate(SEND_MOVE, _a_move(bob_there))
    assert len(moves) == 1
    bob.reload()
    bob.wait_for_selector("body.ready")
    assert _state(bob)["moves"] == moves  # the move made on one server, on the other
    assert errors == []


def test_a_page_behind_the_game_draws_it_again_at_once(site: Site, browser: Any) -> None:
    """A 409 "changed elsewhere": the page shows the game as it is now at
    once, and says why."""
    errors: list[str] = []
    context = browser.new_context(bypass_csp=True)
    context.add_init_script(SETTINGS)
    here = _open(context, site.workers, errors)
    gid = _state(here)["id"]
    context.add_init_script(f'localStorage.setItem("lucie.game", "{gid}");')
    there = _open(context, site.other, errors)
    first = there.evaluate(SEND_MOVE, _a_move(there))
    assert _state(here)["moves"] == []  # behind: the other server played
    # a move sent with the version the page shows: refused, the game drawn as it is
    here.evaluate(SEND_MOVE, _a_move(here))
    assert _state(here)["moves"] == first
    assert "another tab" in here.locator("#status").inner_text()
    assert here.locator("#status").get_attribute("class") == "error"
    # the same when the refusal carries no game (lost to another process
    # between its check and its write): the page reads the game again
    second = there.evaluate(SEND_MOVE, _a_move(there))
    here.evaluate("document.getElementById('status').textContent = ''")
    assert here.evaluate(STALE_WITHOUT_STATE) is True
    assert _state(here)["moves"] == second and len(second) == 2
    assert "another tab" in here.locator("#status").inner_text()
    assert errors == []
