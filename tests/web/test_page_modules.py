"""The page's ES modules hold together: each import names a module of the
page and a name it exports, every module is used, and no two modules
import each other, even through others (the page's modules form layers, as
the Python packages do under the import-linter)."""

from __future__ import annotations

import re

from lucie.web.app import MODULES, STATIC

IMPORT = re.compile(r'^import \{ ([^}]*) \} from "\./([\w.]+)";$', re.M)
EXPORT = re.compile(r"^export (?:async function|function|const|let) ([\w$]+)", re.M)


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    exports = {p.name: set(EXPORT.findall(p.read_text(encoding="utf-8")))
               for p in STATIC.glob("*.js")}
    for path in sorted(STATIC.glob("*.js")):
        text = path.read_text(encoding="utf-8")
        graph[path.name] = set()
        for names, module in IMPORT.findall(text):
            assert module in exports, f"{path.name} imports {module}, which is not in static/"
            for name in (n.strip() for n in names.split(",")):
                assert name in exports[module], f"{path.name}: {module} exports no {name}"
            graph[path.name].add(module)
        # the only imports are of the page's own modules, in the form above
        assert len(re.findall(r"^import ", text, re.M)) == len(IMPORT.findall(text)), path.name
    return graph


def test_every_import_is_of_a_name_a_module_exports() -> None:
    graph = _graph()
    assert "lucie.js" in graph and len(graph) >= 10
    imported = set().union(*graph.values())
    assert imported == set(graph) - {"lucie.js"}  # every module but the entry is used
    assert set(MODULES) == imported  # and preloaded by the page


def test_the_modules_import_each_other_without_a_cycle() -> None:
    graph = _graph()
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, "import cycle: " + " -> ".join((*path, module))
        if module in done:
            return
        for imported in sorted(graph[module]):
            visit(imported, (*path, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())
