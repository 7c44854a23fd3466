"""The optional compiled build of the one-deal search (``make compiled``).

``lucie/solver/deal.py`` is plain Python and is always the reference.  It
is also valid mypyc input: :func:`main` ``build`` compiles
it with mypyc (which comes with mypy, plus a C compiler; ``make compiled``
runs it, ``make pure`` removes the build) and leaves the
extension next to the source, with a stamp file recording the SHA-256 of the
source it was built from.  At import, :func:`load` uses the extension only
when that stamp matches the source (an edited ``deal.py`` is never shadowed
by an old build) and ``LUCIE_PURE`` is not set; otherwise the source is
loaded.  Every test passes either way; CI runs them on the pure build and
checks the compiled one against it.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Final

HERE: Final = Path(__file__).resolve().parent
SOURCE: Final = HERE / "deal.py"
STAMP: Final = HERE / "_compiled.json"
MODULE: Final = "lucie.solver.deal"
#: ``LUCIE_PURE=1`` ignores any compiled build.
ENV_VAR: Final = "LUCIE_PURE"


def source_hash(package: Path = HERE) -> str:
    return hashlib.sha256((package / SOURCE.name).read_bytes()).hexdigest()


def extensions(package: Path = HERE) -> list[Path]:
    """The compiled files of a build (the module and mypyc's runtime)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(p for p in package.iterdir()
                  if p.name.startswith("deal") and p.name.endswith(suffixes))


def usable() -> bool:
    """Whether a compiled build is present, current and wanted."""
    if os.environ.get(ENV_VAR, "").strip() not in {"", "0"}:
        return False
    if not extensions() or not STAMP.is_file():
        return False
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(stamp, dict) and stamp.get("sha256") == source_hash()


def load() -> ModuleType:
    """Import :mod:`lucie.solver.deal`: compiled when :func:`usable`, else
    from its source even if an extension lies beside it."""
    existing = sys.modules.get(MODULE)
    if existing is not None:
        return existing
    if usable() or not extensions():
        return importlib.import_module(MODULE)
    spec = importlib.util.spec_from_file_location(MODULE, SOURCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[MODULE]
        raise
    return module


def is_compiled() -> bool:
    """Whether the loaded one-deal search is the compiled build."""
    module = load()
    return not (getattr(module, "__file__", "") or "").endswith(".py")


def build(package: Path = HERE) -> Path:
    """Compile ``deal.py`` of ``package`` (this package by default) with
    mypyc, next to it; returns the extension's path."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    with tempfile.TemporaryDirectory(prefix="lucie-mypyc-") as tmp:
        work = Path(tmp)
        inner = work / "lucie" / "solver"
        inner.mkdir(parents=True)
        (work / "lucie" / "__init__.py").write_text("", encoding="utf-8")
        (inner / "__init__.py").write_text("", encoding="utf-8")
        shutil.copy2(package / SOURCE.name, inner / SOURCE.name)
        env = {**os.environ, "MYPYPATH": str(package.parent.parent)}
        done = subprocess.run(
            [sys.executable, "-m", "mypyc", "--ignore-missing-imports", "lucie/solver/deal.py"],
            cwd=work, env=env, capture_output=True, text=True, check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout}\n{done.stderr}")
        built = [p for p in [*inner.iterdir(), *work.iterdir()]
                 if p.name.endswith(suffixes)]
        for path in built:
            # a new file renamed over the old: processes still running the
            # old build keep their copy (never rewrite a loaded library)
            part = package / (path.name + ".part")
            shutil.copy2(path, part)
            os.replace(part, package / path.name)
    (package / STAMP.name).write_text(
        json.dumps({"sha256": source_hash(package)}) + "\n", encoding="utf-8")
    return extensions(package)[0]


def remove(package: Path = HERE) -> None:
    """Delete a compiled build (the source stays)."""
    for path in extensions(package):
        path.unlink()
    (package / STAMP.name).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["build"]:
        try:
            path = build()
        except (RuntimeError, OSError) as exc:
            print(f"lucie: the compiled build failed: {exc}", file=sys.stderr)
            return 1
        print(f"compiled {SOURCE.name} -> {path.name}")
        return 0
    if args == ["remove"]:
        remove()
        print("removed the compiled build; the pure-Python search is used")
        return 0
    if args == ["status"]:
        print("compiled" if is_compiled() else "pure Python")
        return 0
    print("usage: main(['build' | 'remove' | 'status'])", file=sys.stderr)
    return 2
