"""The site's cookies and recovery codes (issue 48): signed with an issue
time and the id of the secret that signed them; the secrets rotate without
logging anyone out; a token made up, altered, signed by a secret dropped,
or issued before its player was made, names nobody."""

from __future__ import annotations

import base64
import hashlib
import hmac
import sqlite3
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from starlette.applications import Starlette

from lucie.web.app import stop_app
from lucie.web.site import (
    PLAYER_COOKIE,
    REFRESH_AFTER,
    Signer,
    create_site,
    key_id,
    load_secret,
    load_secrets,
)
from lucie.web.store_link import StoreLink

OLD = b"the secret the site had first, long enough"
NEW = b"the secret put first later, long enough too"
OTHER = b"a secret this site never had, long enough"


@contextmanager
def site(db: Path, keys: Sequence[bytes]) -> Iterator[Starlette]:
    """A site on ``db`` with the secrets ``keys`` (the first signs)."""
    app = create_site(StoreLink.open(db), keys, solver_workers=1)
    try:
        yield app
    finally:
        stop_app(app)
        app.state.link.close()


def who(app: Starlette, cookie: str) -> tuple[int, str | None]:
    """The player a request with ``cookie`` runs as, and the cookie the
    answer sets (None: none)."""
    with TestClient(app, cookies={PLAYER_COOKIE: cookie}) as client:
        r = client.get("/api/me")
        assert r.status_code == 200, r.text
        set_cookie = r.headers.get("set-cookie")
    value = None if set_cookie is None else set_cookie.split(";")[0].split("=", 1)[1]
    return int(r.json()["id"]), value


def newcomer(app: Starlette) -> tuple[int, str, str]:
    """A new visitor: their id, cookie and recovery code."""
    with TestClient(app) as client:
        me = client.get("/api/me").json()
        return int(me["id"]), client.cookies[PLAYER_COOKIE], str(me["recovery_code"])


def recovers(app: Starlette, code: str) -> int | None:
    """The player ``code`` recovers on a new browser (None: 404)."""
    with TestClient(app) as client:
        client.get("/api/me")
        r = client.post("/api/me/recover", json={"code": code})
    if r.status_code == 404:
        return None
    assert r.status_code == 200, r.text
    return int(r.json()["id"])


def old_format(secret: bytes, purpose: str, player_id: int) -> str:
    """A token as the site signed them before issue times and key ids."""
    digest = hmac.new(secret, f"{purpose}:{player_id}".encode(), hashlib.sha256).digest()
    return f"{player_id}.{base64.urlsafe_b64encode(digest).decode().rstrip('=')}"


def test_a_cookie_names_its_player_its_issue_time_and_its_key(tmp_path: Path) -> None:
    with site(tmp_path / "s.sqlite3", [OLD]) as app:
        pid, cookie, _code = newcomer(app)
    player, issued, kid, _mac = cookie.split(".")
    assert int(player) == pid and kid == key_id(OLD)
    assert abs(int(issued) - time.time()) < 3600  # (a clock's minute or so in fact)


def test_secrets_rotate_without_logging_anyone_out(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    with site(db, [OLD]) as app:
        pid, cookie, code = newcomer(app)
    with site(db, [NEW, OLD]) as app:  # a new secret put first
        again, reissued = who(app, cookie)
        assert again == pid and reissued is not None  # signed again, by the new secret
        assert reissued.split(".")[2] == key_id(NEW)
        assert who(app, reissued) == (pid, None)  # current: not signed again
        assert recovers(app, code) == pid  # the code shown before still works
        other, new_cookie, new_code = newcomer(app)
    with site(db, [NEW]) as app:  # the old secret dropped
        assert who(app, reissued)[0] == pid
        stranger, made = who(app, cookie)
        assert stranger != pid and made is not None  # a new player
        assert recovers(app, code) is None
        assert recovers(app, new_code) == other
        assert who(app, new_cookie)[0] == other


def test_a_forged_key_id_or_a_changed_issue_time_names_nobody(tmp_path: Path) -> None:
    with site(tmp_path / "s.sqlite3", [NEW, OLD]) as app:
        pid, cookie, code = newcomer(app)
        player, issued, kid, mac = cookie.split(".")
        forged = [
            f"{player}.{issued}.{key_id(OLD)}.{mac}",  # another known key's id
            f"{player}.{issued}.{key_id(OTHER)}.{mac}",  # an unknown key's id
            f"{player}.{issued}.AAAAAAAA.{mac}",
            f"{player}.{issued}..{mac}",
            f"{player}.{int(issued) + 1}.{kid}.{mac}",  # issued later
            f"{player}.{int(issued) - 1}.{kid}.{mac}",
            f"{player}.0{issued}.{kid}.{mac}",
            f"{player}.{issued}.{kid}.{mac}.{mac}",
            # signed by a secret the site does not have, naming one it has
            Signer(OTHER).sign("cookie", pid).replace(key_id(OTHER), key_id(NEW)),
            old_format(OTHER, "cookie", pid),
            old_format(NEW, "recover", pid),  # a code's signature is not a cookie's
            Signer(NEW).sign("recover", pid),
        ]
        for value in forged:
            stranger, made = who(app, value)
            assert stranger != pid and made is not None, value
        for value in (code.replace(code.split(".")[1], str(int(code.split(".")[1]) - 1)),
                      Signer(NEW).sign("cookie", pid)):
            assert recovers(app, value) is None, value
        assert who(app, cookie) == (pid, None)


def test_a_token_issued_before_its_player_was_made_names_nobody(tmp_path: Path) -> None:
    """The second guard against an id given again: whatever its signature,
    a cookie or recovery code older than the player it names is not theirs."""
    with site(tmp_path / "s.sqlite3", [NEW]) as app:
        pid, _cookie, _code = newcomer(app)
        created = app.state.link.store.player(pid).created
        made = int(datetime.fromisoformat(created).timestamp())
        signer = Signer(NEW)
        stranger, _made = who(app, signer.sign("cookie", pid, made - 1))
        assert stranger != pid
        assert who(app, signer.sign("cookie", pid, made))[0] == pid
        assert recovers(app, signer.sign("recover", pid, made - 1)) is None
        assert recovers(app, signer.sign("recover", pid, made)) == pid


def test_a_cookie_of_the_format_before_is_believed_and_signed_again(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    with site(db, [NEW, OLD]) as app:
        pid, _cookie, _code = newcomer(app)
        for secret in (OLD, NEW):
            again, reissued = who(app, old_format(secret, "cookie", pid))
            assert again == pid and reissued is not None
            assert reissued.split(".")[2] == key_id(NEW)
            assert recovers(app, old_format(secret, "recover", pid)) == pid
    with site(db, [NEW]) as app:  # (recovered above: a player again on this browser)
        assert who(app, old_format(OLD, "cookie", pid))[0] != pid


def test_an_old_cookie_is_signed_again_so_that_it_is_kept(tmp_path: Path) -> None:
    """A cookie issued more than REFRESH_AFTER ago is set again (the browser
    keeps it a year from then)."""
    db = tmp_path / "s.sqlite3"
    with site(db, [NEW]) as app:
        pid, _cookie, _code = newcomer(app)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE players SET created = '2000-01-01T00:00:00+00:00' WHERE id = ?",
                  (pid,))
    conn.commit()
    conn.close()
    with site(db, [NEW]) as app:
        long_ago = Signer(NEW).sign("cookie", pid, int(time.time() - REFRESH_AFTER - 60))
        again, reissued = who(app, long_ago)
        assert again == pid and reissued is not None
        assert who(app, reissued) == (pid, None)


def test_the_secret_file_holds_secrets_one_a_line(tmp_path: Path) -> None:
    path = tmp_path / "secret"
    path.write_text(f"# rotated\n{NEW.decode()}\n\n  {OLD.decode()}  \n")
    assert load_secrets(path) == (NEW, OLD)
    assert load_secret(path) == NEW
    path.write_text(f"{NEW.decode()}\nshort\n")
    with pytest.raises(ValueError, match="line 2"):
        load_secrets(path)
    path.write_text("# nothing here yet\n")
    with pytest.raises(ValueError, match="no secret"):
        load_secrets(path)
    assert path.read_text() == "# nothing here yet\n"  # never replaced
    with pytest.raises(ValueError):
        Signer([NEW, b"short"])
    with pytest.raises(ValueError):
        Signer([])
