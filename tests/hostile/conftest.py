"""The recorder every hostile-input test reports to.

Each case a test tries is recorded with its area and its outcome, one of
:data:`OUTCOMES`.  The tests assert the outcome themselves; the recorder
only counts, so that ``python benchmarks/run.py hostile`` can print the
reliability figures (inputs tried, clean errors, tracebacks, 5xx, hangs,
data lost).  With ``LUCIE_HOSTILE_REPORT=path`` set, every record is
appended to that file as a JSON line (safe under pytest-xdist: one short
``write`` per line in append mode).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

#: ``ok`` accepted as valid input; ``clean_error`` refused with a message
#: (exit 2, HTTP 4xx, or 503 for a full disk or a locked database); the
#: other five are failures and fail the test (``foreign_changed``: a file
#: lucie did not write was renamed, replaced or changed).
OUTCOMES = ("ok", "clean_error", "traceback", "server_error", "hang", "data_lost",
            "foreign_changed")


@dataclass
class Recorder:
    """Counts the cases of one test; see the module docstring."""

    test: str
    records: list[tuple[str, str, str]] = field(default_factory=list)

    def record(self, area: str, case: str, outcome: str) -> None:
        """Note one input of *area* (``cli``, ``store``, ``http``...) and its outcome."""
        if outcome not in OUTCOMES:
            raise ValueError(f"unknown outcome {outcome!r}")
        self.records.append((area, case[:80], outcome))
        path = os.environ.get("LUCIE_HOSTILE_REPORT")
        if path:
            line = json.dumps({"test": self.test, "area": area, "case": case[:80],
                               "outcome": outcome})
            with open(path, "a", encoding="utf-8") as out:
                out.write(line + "\n")


    def figure(self, name: str, value: float, unit: str) -> None:
        """Note a measured figure (a peak RSS...), printed by the benchmark
        beside the counts."""
        path = os.environ.get("LUCIE_HOSTILE_REPORT")
        if path:
            line = json.dumps({"test": self.test, "figure": name, "value": value,
                               "unit": unit})
            with open(path, "a", encoding="utf-8") as out:
                out.write(line + "\n")


@pytest.fixture
def hostile(request: pytest.FixtureRequest) -> Iterator[Recorder]:
    """A :class:`Recorder` for this test."""
    yield Recorder(request.node.nodeid)
