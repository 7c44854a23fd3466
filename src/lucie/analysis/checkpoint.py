"""The checkpoint of a study: the games it has played, kept as they finish.

``lucie study`` writes one (a file beside its value cache, or
``--checkpoint FILE``) so that an interrupted study loses at most the games
in play, and ``--resume`` goes on from it.  The file is JSON lines:

- the first line names the study: ``{"lucie": "study checkpoint",
  "version": 1, "variant": ..., "policy": ..., "seed": ..., "games": ...,
  "chunk": ..., "target": ..., "hint_seconds": ..., "solve_seconds": ...,
  "sample_seconds": ...}`` (everything a game's result depends on, and the
  size of the chunks the deals are played in);
- then one line per chunk played: ``{"chunk": K, "records": [[deal, won,
  score, first_deal_clear, unknown, score_capped], ...], "seconds": T}``
  (``T``: the study's time so far, over every run), written at once and
  synced to disk when the chunk is done.

A last line cut short (the process killed while writing it) is dropped when
the file is read back; anything else that does not read as above is an
error that names the file, and the file is left as it is: lucie never
overwrites a file it did not write.  While a study runs it holds a lock on
its checkpoint, so that two studies never write one file.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final

from lucie.errors import LucieError
from lucie.i18n import _

MARK: Final = "study checkpoint"
VERSION: Final = 1
#: The longest line read back (a chunk of 25 records is about 1 KB).
MAX_LINE: Final = 1 << 20
#: The fields of the first line that must match for ``--resume``.
IDENTITY: Final = ("variant", "policy", "seed", "games", "target", "hint_seconds",
                   "solve_seconds", "sample_seconds")

Row = tuple[int, bool, int, "bool | None", int, int]

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]


@dataclass(slots=True)
class Saved:
    """What a checkpoint file holds: its first line and the chunks played."""

    header: dict[str, Any]
    chunks: dict[int, list[Row]] = field(default_factory=dict)
    #: where the last complete line ends (a torn line after it is dropped)
    end: int = 0
    #: the study's time when its last chunk was written
    seconds: float = 0.0

    @property
    def games_done(self) -> int:
        return sum(len(rows) for rows in self.chunks.values())

    @property
    def finished(self) -> bool:
        return self.games_done >= int(self.header["games"])


def _not_ours(path: Path, why: str) -> LucieError:
    return LucieError(_(
        "{file} is not a lucie study checkpoint ({why}); it is left as it is: give "
        "another file with --checkpoint").format(file=path, why=why))


def _check_kind(path: Path) -> bool:
    """Whether a file is at ``path`` (a regular one; anything else is refused)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):
            raise LucieError(_("{file}: a symbolic link to nothing").format(file=path)) from None
        return False
    except OSError as exc:
        raise LucieError(_("{file}: cannot read the checkpoint ({error})").format(
            file=path, error=exc.strerror or exc)) from None
    if not stat.S_ISREG(info.st_mode):
        raise _not_ours(path, _("not a regular file"))
    return True


def read(path: Path) -> Saved | None:
    """The checkpoint at ``path`` (None when there is none); raises
    :class:`LucieError` for a file that is not one."""
    if not _check_kind(path):
        return None
    try:
        with open(path, "rb") as f:
            return _parse(path, f)
    except OSError as exc:
        raise LucieError(_("{file}: cannot read the checkpoint ({error})").format(
            file=path, error=exc.strerror or exc)) from None


def _parse(path: Path, f: IO[bytes]) -> Saved:
    first = f.readline(MAX_LINE)
    try:
        header = json.loads(first) if first.endswith(b"\n") else None
    except ValueError:
        header = None
    if not isinstance(header, dict) or header.get("lucie") != MARK:
        raise _not_ours(path, _("its first line does not say so"))
    if header.get("version") != VERSION or not all(k in header for k in (*IDENTITY, "chunk")):
        raise _not_ours(path, _("a version or fields this lucie does not know"))
    saved = Saved(header, end=len(first))
    number = 1
    while line := f.readline(MAX_LINE):
        number += 1
        if not line.endswith(b"\n"):
            break  # torn by a kill while it was written: dropped
        try:
            entry = json.loads(line)
            chunk = int(entry["chunk"])
            rows = [_row(r) for r in entry["records"]]
            float(entry.get("seconds", 0.0))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise _not_ours(path, _("line {number} is damaged").format(number=number)) from None
        saved.chunks[chunk] = rows
        saved.seconds = max(saved.seconds, float(entry.get("seconds", 0.0)))
        saved.end += len(line)
    return saved


def _row(raw: Any) -> Row:
    deal, won, score, first, unknown, capped = raw
    if not (isinstance(won, bool) and (first is None or isinstance(first, bool))):
        raise ValueError(raw)
    return (int(deal), won, int(score), first, int(unknown), int(capped))


class Writer:
    """A checkpoint open for writing, locked against other studies."""

    def __init__(self, path: Path, saved: Saved | None, header: dict[str, Any]) -> None:
        self.path = path
        if saved is None:  # a new file (or a finished study's, replaced)
            self._create(header)
        try:
            self._file: IO[str] = open(path, "r+", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise self._failed(exc) from None
        if fcntl is not None:
            try:
                fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self._file.close()
                raise LucieError(_("{file}: another study is writing this checkpoint; give "
                                   "another file with --checkpoint").format(file=path)) from None
        if saved is not None:
            self._file.truncate(saved.end)  # a torn last line goes
        self._file.seek(0, os.SEEK_END)

    def _create(self, header: dict[str, Any]) -> None:
        """Write the first line to a new file, then put it in place."""
        tmp: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=self.path.name, suffix=".new",
                                       dir=self.path.parent)
            with open(fd, "w", encoding="utf-8") as f:
                f.write(json.dumps({"lucie": MARK, "version": VERSION, **header}) + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise self._failed(exc) from None

    def _failed(self, exc: OSError) -> LucieError:
        return LucieError(_("{file}: cannot write the checkpoint ({error})").format(
            file=self.path, error=exc.strerror or exc))

    def add(self, chunk: int, rows: list[Row], seconds: float) -> None:
        """Append one chunk's records, synced to disk; ``seconds``: the
        study's time so far, over every run."""
        line = json.dumps({"chunk": chunk, "records": [list(r) for r in rows],
                           "seconds": round(seconds, 3)}) + "\n"
        try:
            self._file.write(line)
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        self._file.close()


def settings_differ(header: dict[str, Any], wanted: dict[str, Any]) -> list[str]:
    """The identity fields where a checkpoint's study is not the one asked
    for, as ``name: theirs, not ours`` texts."""
    return [f"{k}: {header.get(k)!r}, not {wanted[k]!r}" for k in IDENTITY
            if header.get(k) != wanted[k]]


__all__ = ["IDENTITY", "MARK", "Saved", "Writer", "read", "settings_differ"]
