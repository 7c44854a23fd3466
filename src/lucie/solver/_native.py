"""Loading the optional compiled build of the one-deal search.

The search's modules (:data:`MODULES`: ``lucie/solver/deal.py`` and the
parts it was split into) are plain Python and always the reference.  They
are also valid mypyc input: ``scripts/native.py build`` (``make compiled``;
``make pure`` removes the build) compiles them together with mypyc and
leaves the extensions next to the sources (one per module, and the group's
shared library ``native__mypyc``), with a stamp file recording the SHA-256
of each source they were built from.  This module is only what loading
needs: at import, :func:`load` uses the extensions only when the stamp
matches every source (an edited module is never shadowed by an old build)
and ``LUCIE_PURE`` is not set; otherwise every one of these modules is
loaded from its source.  Every test passes either way; CI runs them on the
pure build and checks the compiled one against it.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Final

from lucie import environment

HERE: Final = Path(__file__).resolve().parent
#: The compiled modules of ``lucie.solver``, by file stem.
MODULES: Final = (
    "caps_merci", "caps_reach", "caps_room", "children", "deal", "encoding", "forced",
    "frontier", "lines", "move_order", "order", "restarts", "results", "search", "tables",
)
STAMP: Final = HERE / "_compiled.json"
PACKAGE: Final = "lucie.solver"
MODULE: Final = "lucie.solver.deal"
#: The group's shared library (mypyc's ``group_name`` + ``__mypyc``).
GROUP: Final = "native"
#: ``LUCIE_PURE=1`` ignores any compiled build.
ENV_VAR: Final = environment.PURE


def source_hashes(package: Path = HERE) -> dict[str, str]:
    """The SHA-256 of each compiled module's source, by file name."""
    return {f"{m}.py": hashlib.sha256((package / f"{m}.py").read_bytes()).hexdigest()
            for m in MODULES}


def _is_build_file(name: str) -> bool:
    stem = name.split(".", 1)[0]
    return stem in MODULES or stem.endswith("__mypyc")


def extensions(package: Path = HERE) -> list[Path]:
    """The compiled files of a build (the modules and mypyc's shared library),
    and those of older builds."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(p for p in package.iterdir()
                  if _is_build_file(p.name) and p.name.endswith(suffixes))


def usable() -> bool:
    """Whether a compiled build is present, current and wanted."""
    if environment.flag(ENV_VAR):
        return False
    present = {p.name.split(".", 1)[0] for p in extensions()}
    if not present >= {*MODULES, f"{GROUP}__mypyc"} or not STAMP.is_file():
        return False
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("sources") == source_hashes()


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' sources, so that an extension lying
    beside a source it was not built from is never imported."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def load() -> ModuleType:
    """Import :mod:`lucie.solver.deal` (and so every compiled module):
    compiled when :func:`usable`, else from the sources even if extensions
    lie beside them."""
    existing = sys.modules.get(MODULE)
    if existing is not None:
        return existing
    stale = not usable() and extensions()
    if stale and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return importlib.import_module(MODULE)


def is_compiled() -> bool:
    """Whether the loaded one-deal search is the compiled build."""
    module = load()
    return not (getattr(module, "__file__", "") or "").endswith(".py")
