"""Build step of lucie's package: compile the translation catalogues.

Everything else is declared in pyproject.toml.  Each
``src/lucie/locale/<code>/LC_MESSAGES/lucie.po`` is compiled by Babel into the
``lucie.mo`` that :mod:`gettext` reads, and into the ``page.json`` the
browser page is given (its texts only, with their plural forms:
``scripts/page_catalogues.py``): into the wheel for an install, next to
the ``.po`` for an editable install (``pip install -e``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

SOURCE = Path("src")
CATALOGUES = "lucie/locale/*/LC_MESSAGES/*.po"
PAGE_CATALOGUES = Path(__file__).resolve().with_name("scripts") / "page_catalogues.py"


def _page_catalogues() -> ModuleType:
    """``scripts/page_catalogues.py`` (a build tool, not in the package)."""
    spec = importlib.util.spec_from_file_location("page_catalogues", PAGE_CATALOGUES)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class CompileCatalogues(Command):
    """Compile every .po catalogue of the package to its .mo and the page's .json."""

    description = "compile the gettext catalogues (.po) to .mo files and the page's JSON"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _targets(self) -> dict[str, tuple[str, str]]:
        """Each .po to its .mo and its page catalogue."""
        out = {}
        for po in sorted(SOURCE.glob(CATALOGUES)):
            base = po if self.editable_mode or self.build_lib is None else (
                Path(self.build_lib) / po.relative_to(SOURCE))
            out[str(po)] = (str(base.with_suffix(".mo")), str(base.with_name("page.json")))
        return out

    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        pages = _page_catalogues()
        for po, (mo, page) in self._targets().items():
            with open(po, "rb") as source:
                catalogue = read_po(source)
            Path(mo).parent.mkdir(parents=True, exist_ok=True)
            with open(mo, "wb") as target:
                write_mo(target, catalogue)
            pages.write(Path(po), Path(page), SOURCE / "lucie" / "web" / "static")

    def get_outputs(self) -> list[str]:
        return [path for built in self._targets().values() for path in built]

    def get_source_files(self) -> list[str]:
        return list(self._targets())

    def get_output_mapping(self) -> dict[str, str]:
        return {path: po for po, built in self._targets().items() for path in built}


class Build(build):
    sub_commands: ClassVar = [*build.sub_commands, ("compile_catalogues", None)]


setup(cmdclass={"build": Build, "compile_catalogues": CompileCatalogues})
