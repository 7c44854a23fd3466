"""The README is a user's guide: its examples run, it stays short, its links
lead somewhere; and the solver's proofs it points to are all written down.

The README's ``>>>`` examples are run as doctests (as ``python -m doctest
README.md`` would); relative links in the README and in ``docs/``,
``benchmarks/RESULTS.md`` and ``CHANGELOG.md`` must name existing files, and
a ``#fragment`` into a Markdown file must name one of its headings.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The README's size limit, in bytes (issue #26).
MAX_README_BYTES = 15 * 1024

#: Markdown links ``[text](target)``; images too.
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$", re.MULTILINE)
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


def documents() -> list[Path]:
    """The Markdown documents whose links are checked."""
    docs = sorted((ROOT / "docs").glob("*.md"))
    others = [ROOT / "benchmarks" / "RESULTS.md", ROOT / "CHANGELOG.md"]
    return [README, *docs, *(p for p in others if p.exists())]


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped
    (``-`` and ``_`` kept), spaces as ``-``.

    >>> anchor("The solver's own move generation")
    'the-solvers-own-move-generation'
    >>> anchor("_proof_room")
    '_proof_room'
    """
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return {anchor(h) for h in _HEADING.findall(text)}


def links(path: Path) -> list[str]:
    """The link targets of a document, outside code blocks."""
    text = _FENCE.sub("", path.read_text(encoding="utf-8"))
    return _LINK.findall(text)


def test_readme_examples_run() -> None:
    result = doctest.testfile(
        str(README), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False,
    )
    assert result.attempted >= 10, "the README should show the library in examples"
    assert result.failed == 0


def test_readme_is_short() -> None:
    size = README.stat().st_size
    assert size <= MAX_README_BYTES, f"README.md is {size} bytes, over {MAX_README_BYTES}"


@pytest.mark.parametrize("path", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_somewhere(path: Path) -> None:
    bad = []
    for target in links(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto: ...
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            bad.append(f"{target}: no file {dest}")
        elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
            bad.append(f"{target}: no heading #{fragment} in {dest.name}")
    assert not bad, f"{path.name}: " + "; ".join(bad)


def test_the_readme_links_the_docs() -> None:
    targets = {t.partition("#")[0] for t in links(README)}
    for name in ["docs/architecture.md", "docs/solver.md", "docs/odds.md",
                 "docs/web-api.md", "docs/terminal.md", "benchmarks/RESULTS.md",
                 "CHANGELOG.md", "LICENSE"]:
        assert name in targets, f"the README does not link {name}"


def test_every_proof_has_its_section() -> None:
    """Each ``_proof_*`` function of the solver has a section of
    ``docs/solver.md`` named after it, and every ``docs/solver.md#name``
    that the source points to exists."""
    sections = anchors(ROOT / "docs" / "solver.md")
    source = ROOT / "src" / "lucie"
    proofs: set[str] = set()
    pointers: set[str] = set()
    for path in source.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        proofs.update(re.findall(r"^def (_proof_\w+)\(", text, re.MULTILINE))
        pointers.update(re.findall(r"docs/solver\.md#([\w-]+)", text))
    assert proofs, "no _proof_* function found in src/lucie"
    assert not proofs - sections, f"proofs without a section: {sorted(proofs - sections)}"
    assert not pointers - sections, f"dangling pointers: {sorted(pointers - sections)}"
