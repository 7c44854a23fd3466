"""Build or remove the optional compiled (mypyc) build of lucie's one-deal
search, in the source tree: ``make compiled`` runs ``build``, ``make pure``
and ``make clean`` run ``remove``, and ``status`` says which build loads.

    python scripts/native.py build | remove | status

The runtime package keeps only what loading a build needs
(``lucie/solver/_native.py``: the list of compiled modules, the stamp and
the check that it matches every source); this tool is not installed with it.
``build`` needs mypyc (it comes with mypy), setuptools and a C compiler.
"""

from __future__ import annotations

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

#: The search's package in this source tree.
SOLVER: Final = Path(__file__).resolve().parent.parent / "src" / "lucie" / "solver"

SETUP: Final = """\
from setuptools import setup
from mypyc.build import mypycify

setup(name="lucie-solver-native", ext_modules=mypycify(
    ["--ignore-missing-imports", *{paths!r}], opt_level="3", group_name={group!r}))
"""


def loader(package: Path = SOLVER) -> ModuleType:
    """``lucie/solver/_native.py`` of ``package``, read on its own (without
    importing the package, which would load the search)."""
    spec = importlib.util.spec_from_file_location("lucie_native_loader", package / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(package: Path = SOLVER) -> Path:
    """Compile the modules of ``package`` that ``_native.MODULES`` lists
    with mypyc, as one group, next to them; returns the path of ``deal``'s
    extension."""
    native = loader(package)
    modules: tuple[str, ...] = native.MODULES
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    with tempfile.TemporaryDirectory(prefix="lucie-mypyc-") as tmp:
        work = Path(tmp)
        inner = work / "lucie" / "solver"
        inner.mkdir(parents=True)
        (work / "lucie" / "__init__.py").write_text("", encoding="utf-8")
        (inner / "__init__.py").write_text("", encoding="utf-8")
        for m in modules:
            shutil.copy2(package / f"{m}.py", inner / f"{m}.py")
        paths = [f"lucie/solver/{m}.py" for m in modules]
        (work / "setup.py").write_text(
            SETUP.format(paths=paths, group=f"{native.PACKAGE}.{native.GROUP}"), encoding="utf-8")
        env = {**os.environ, "MYPYPATH": str(package.parent.parent)}
        done = subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace"],
            cwd=work, env=env, capture_output=True, text=True, check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{done.stdout}\n{done.stderr}")
        built = [p for p in inner.iterdir() if p.name.endswith(suffixes)]
        for path in native.extensions(package):  # an older build's files
            if path.name not in {p.name for p in built}:
                path.unlink()
        for path in built:
            # a new file renamed over the old: processes still running the
            # old build keep their copy (never rewrite a loaded library)
            part = package / (path.name + ".part")
            shutil.copy2(path, part)
            os.replace(part, package / path.name)
    (package / native.STAMP.name).write_text(
        json.dumps({"sources": native.source_hashes(package)}, indent=1, sort_keys=True) + "\n",
        encoding="utf-8")
    extensions: list[Path] = native.extensions(package)
    return next(p for p in extensions if p.name.startswith("deal."))


def remove(package: Path = SOLVER) -> None:
    """Delete a compiled build (the sources stay)."""
    native = loader(package)
    for path in native.extensions(package):
        path.unlink()
    (package / native.STAMP.name).unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["build"]:
        try:
            build()
        except (RuntimeError, OSError) as exc:
            print(f"lucie: the compiled build failed: {exc}", file=sys.stderr)
            return 1
        modules = loader().MODULES
        print(f"compiled {len(modules)} modules of lucie.solver ({', '.join(modules)})")
        return 0
    if args == ["remove"]:
        remove()
        print("removed the compiled build; the pure-Python search is used")
        return 0
    if args == ["status"]:
        sys.path.insert(0, str(SOLVER.parent.parent))
        from lucie.solver._native import is_compiled

        print("compiled" if is_compiled() else "pure Python")
        return 0
    print("usage: native.py build | remove | status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
