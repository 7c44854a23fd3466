"""Run every benchmark (``benchmarks/bench_*.py``) and print its figures.

Usage: ``make bench`` or ``python benchmarks/run.py [NAME ...]`` where NAME
selects benchmarks by file name (``engine`` runs ``bench_engine.py``).
Each benchmark module has a ``main() -> None`` that prints its figures.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    here = Path(__file__).resolve().parent
    files = sorted(here.glob("bench_*.py"))
    if argv:
        # each name is one benchmark's, whole: ``ab`` is bench_ab.py, not
        # bench_session_ab.py too
        files = [f for f in files if f.stem.removeprefix("bench_") in argv]
        if not files:
            print(f"no benchmark named {' '.join(argv)}", file=sys.stderr)
            return 2
    for path in files:
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module  # dataclasses look their module up
        spec.loader.exec_module(module)
        print(f"== {path.stem} ==", flush=True)
        start = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - start:.1f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
