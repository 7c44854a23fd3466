"""The one opener of the files a user names: every path option goes here.

``--db``, ``--layout``, ``--load``, ``--cache``, the settings file,
``--output``, ``--save`` and ``lucie import`` all look at their path with
:func:`examine` before anything is opened, and read through
:func:`read_bytes`, so that

- a named pipe (FIFO), a device (``/dev/zero``), a socket or a directory
  is refused with a message naming what it is, and nothing hangs (the
  check is made with :func:`os.stat`, and the file is then opened with
  ``O_NONBLOCK`` and checked again with :func:`os.fstat`, so a file
  swapped in between cannot hang a read either);
- a symbolic-link loop and a dangling symbolic link are named as such;
- nothing larger than the caller's limit is read into memory.

:func:`describe` names the kind of a file found where lucie expected its
own (a SQLite database, a JSON document, a text file...), and
:func:`check_target` refuses to write over a file that is not one of
lucie's own of the kind asked for: lucie never renames, replaces or
overwrites a file it did not create.  An empty file is taken as free
(nothing in it can be lost).

This module sits at the bottom of lucie (it imports only the errors and
the translations), so every layer can use it.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> examine(folder / "missing", what="layout") is None
True
>>> examine(folder, what="layout")
Traceback (most recent call last):
...
lucie.errors.FileKindError: ... is a directory, not a file
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Final

from lucie.errors import FileKindError
from lucie.i18n import _

#: The first bytes of every SQLite database.
SQLITE_HEADER: Final = b"SQLite format 3\x00"


def examine(path: Path | str, *, what: str) -> os.stat_result | None:
    """The ``stat`` of the regular file at *path* (symbolic links
    followed), or None when nothing is there.  Anything else raises
    :class:`~lucie.errors.FileKindError` naming it: a directory, a named
    pipe, a device, a socket, a symbolic-link loop, a dangling symbolic
    link, a path under a file.  *what* names the file for messages
    (``"--layout"``, ``"the settings file"``), in the language in use."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            raise FileKindError(_(
                "{what} {path} is a dangling symbolic link (it points to {target}, "
                "which does not exist)"
            ).format(what=what, path=path, target=_link_target(path))) from None
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FileKindError(_(
                "{what} {path} is a symbolic-link loop (the links point at each other)"
            ).format(what=what, path=path)) from None
        if exc.errno == errno.ENOTDIR:
            raise FileKindError(_("{what} {path}: a part of the path is a file, not a "
                                  "directory").format(what=what, path=path)) from None
        raise FileKindError(f"{what} {path}: {exc.strerror or exc}") from None
    _check_mode(path, st.st_mode, what)
    return st


def _link_target(path: Path) -> str:
    try:
        return os.readlink(path)
    except OSError:  # pragma: no cover - it was a link a moment ago
        return "?"


def _check_mode(path: Path, mode: int, what: str) -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        message = _("{what} {path} is a directory, not a file")
    elif stat.S_ISFIFO(mode):
        message = _("{what} {path} is a named pipe (FIFO), not a file; lucie does not "
                    "read or write pipes by name (use '-' for standard input)")
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        message = _("{what} {path} is a device, not a file")
    elif stat.S_ISSOCK(mode):
        message = _("{what} {path} is a socket, not a file")
    else:  # pragma: no cover - no other kind on the systems lucie runs on
        message = _("{what} {path} is not a regular file")
    raise FileKindError(message.format(what=what, path=path))


def read_bytes(path: Path | str, *, what: str, limit: int) -> bytes:
    """The bytes of the regular file at *path*, at most *limit* of them.

    Checked with :func:`examine` first; opened with ``O_NONBLOCK`` and
    checked again on the open file, so no pipe or device is ever read.
    A missing file, a file larger than *limit* and an unreadable one
    raise :class:`~lucie.errors.FileKindError` (a
    :class:`~lucie.errors.LucieError`) naming the problem."""
    path = Path(path)
    if examine(path, what=what) is None:
        raise FileKindError(_("{file}: no such file").format(file=path))
    chunks: list[bytes] = []
    size = 0
    with _opened(path, what) as fd:
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise FileKindError(_("{what} {path} is larger than {size} bytes; lucie reads "
                              "no such file").format(what=what, path=path, size=limit))
    return b"".join(chunks)


def describe(head: bytes) -> str:
    """What kind of file begins with *head* (its first bytes), in words,
    for the messages that refuse it.

    >>> describe(b'{"name": "x"}')
    'a JSON document'
    >>> describe(b"SQLite format 3\\x00" + bytes(84))
    'a SQLite database'
    """
    if not head:
        return _("an empty file")
    if head.startswith(SQLITE_HEADER):
        return _("a SQLite database")
    if b"\x00" in head[:4096]:
        return _("a binary file")
    try:
        text = head[:4096].decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        if exc.start < len(head[:4096]) - 4:
            return _("a binary file")
        text = head[: exc.start].decode("utf-8")
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return _("a JSON document")
    return _("a text file")


def check_target(
    path: Path | str,
    *,
    what: str,
    kind: str,
    ours: Callable[[bytes], bool],
    limit: int,
) -> None:
    """Refuse to write *path* unless it is free: nothing there, an empty
    file, or a file that *ours* recognises (from its first *limit*
    bytes) as one of lucie's own of *kind* (words: "saved game", "games
    export"...).  A file of another kind is left as it is and a
    :class:`~lucie.errors.FileKindError` names what it is."""
    path = Path(path)
    st = examine(path, what=what)
    if st is None:
        return
    if st.st_size == 0:
        return
    head = _head(path, what, limit)
    if ours(head):
        return
    raise FileKindError(_(
        "{what} {path} is {found}, not a lucie {kind}; lucie does not overwrite a file "
        "it did not write. It was left untouched: choose another file name."
    ).format(what=what, path=path, found=describe(head), kind=kind))


def _head(path: Path, what: str, size: int) -> bytes:
    """The first *size* bytes of a regular file (already examined)."""
    with _opened(path, what) as fd:
        return os.read(fd, size)


@contextmanager
def _opened(path: Path, what: str) -> Iterator[int]:
    """A descriptor of the regular file at *path*: opened with
    ``O_NONBLOCK`` (a pipe opened by mistake cannot block), checked again on
    the open file, then blocking; any error of the system a
    :class:`~lucie.errors.FileKindError` naming the file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileKindError(f"{what} {path}: {exc.strerror or exc}") from None
    try:
        _check_mode(path, os.fstat(fd).st_mode, what)
        os.set_blocking(fd, True)
        yield fd
    except OSError as exc:
        raise FileKindError(f"{what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether two paths name the same existing file."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


__all__ = ["SQLITE_HEADER", "FileKindError", "check_target", "describe", "examine",
           "read_bytes", "same_file"]
