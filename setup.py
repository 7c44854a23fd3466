"""Build step of lucie's package: compile the translation catalogues.

Everything else is declared in pyproject.toml.  Each
``src/lucie/locale/<code>/LC_MESSAGES/lucie.po`` is compiled by Babel into the
``lucie.mo`` that :mod:`gettext` reads: into the wheel for an install, next to
the ``.po`` for an editable install (``pip install -e``).
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

SOURCE = Path("src")
CATALOGUES = "lucie/locale/*/LC_MESSAGES/*.po"


class CompileCatalogues(Command):
    """Compile every .po catalogue of the package to its .mo."""

    description = "compile the gettext catalogues (.po) to .mo files with Babel"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []

    def initialize_options(self) -> None:
        self.build_lib: str | None = None
        self.editable_mode = False

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _targets(self) -> dict[str, str]:
        out = {}
        for po in sorted(SOURCE.glob(CATALOGUES)):
            relative = po.relative_to(SOURCE).with_suffix(".mo")
            if self.editable_mode or self.build_lib is None:
                out[str(po)] = str(po.with_suffix(".mo"))
            else:
                out[str(po)] = str(Path(self.build_lib) / relative)
        return out

    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po, mo in self._targets().items():
            with open(po, "rb") as source:
                catalogue = read_po(source)
            Path(mo).parent.mkdir(parents=True, exist_ok=True)
            with open(mo, "wb") as target:
                write_mo(target, catalogue)

    def get_outputs(self) -> list[str]:
        return list(self._targets().values())

    def get_source_files(self) -> list[str]:
        return list(self._targets())

    def get_output_mapping(self) -> dict[str, str]:
        return {mo: po for po, mo in self._targets().items()}


class Build(build):
    sub_commands: ClassVar = [*build.sub_commands, ("compile_catalogues", None)]


setup(cmdclass={"build": Build, "compile_catalogues": CompileCatalogues})
