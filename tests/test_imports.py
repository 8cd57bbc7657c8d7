"""The walk of a command goes one way: no module imports back into one that imports it, even for types only,
in the Python package or in the pages' scripts, nor any folder of the package into one that imports it; and no test
module imports another (what tests share lives in helper modules and tests/conftest.py)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "partyrummy"
SCRIPTS = ROOT / "static" / "js"
TESTS = ROOT / "tests"


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def python_imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports (`if TYPE_CHECKING:` ones included)."""
    modules = {module_of(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")
                base = base[: len(base) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:  # `from . import seats`: the module seats; else the module imported from
                    edges.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source)
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def imported_test_modules(path: Path) -> set[str]:
    """The test modules (tests/test_*.py) a file imports, anywhere in it (inside functions too)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            names = [source] + [f"{source}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {name.rsplit(".", 1)[-1] for name in names if re.search(r"(^|\.)test_\w+$", name)}
    return {name for name in found if (TESTS / f"{name}.py").exists()}


def script_imports() -> dict[str, set[str]]:
    """Each page script and the scripts it imports, at once or when first needed (`import("./x.js")`)."""
    graph = {}
    for path in SCRIPTS.glob("*.js"):
        text = path.read_text()
        named = re.findall(r'^import [^;]*? from "\./([\w-]+\.js)";', text, re.M)
        named += re.findall(r'\bimport\("\./([\w-]+\.js)"\)', text)
        graph[path.name] = set(named)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_the_walk_finds_what_it_looks_for() -> None:
    assert "partyrummy.server.room.game_part" in python_imports()["partyrummy.server.room.room"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_python_module_imports_back_into_one_that_imports_it() -> None:
    assert cycles(python_imports()) == []


def folders(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same imports between the package's folders (a folder: the package a module is in): what is in one folder
    may import what is in another only if nothing there imports back, however roundabout. The modules at the top
    (the command, the words, where the files are) are each their own."""

    def folder_of(name: str) -> str:
        if (PACKAGE / Path(*name.split(".")[1:]) / "__init__.py").exists():
            return name
        parent = name.rsplit(".", 1)[0]
        return name if parent == PACKAGE.name else parent

    folder = {name: folder_of(name) for name in graph}
    out: dict[str, set[str]] = {}
    for name, imported in graph.items():
        out.setdefault(folder[name], set()).update(folder[other] for other in imported if folder[other] != folder[name])
    return out


def test_no_folder_of_the_package_imports_back_into_one_that_imports_it() -> None:
    graph = folders(python_imports())
    assert "partyrummy.server.room" in graph["partyrummy.server.transport"]  # the walk sees folders
    assert cycles(graph) == []


def test_no_page_script_imports_back_into_one_that_imports_it() -> None:
    assert cycles(script_imports()) == []


def test_the_test_walk_finds_a_test_module_however_it_is_imported(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from . import test_screens as screens\nfrom .test_browser import Watch\nimport tests.test_server\n"
        "from tests.test_seats import you\nfrom .night import Night\nfrom . import screens\n"
        "def f():\n    from .test_background import close_together\n"
    )
    assert imported_test_modules(sample) == {"test_screens", "test_browser", "test_server", "test_seats",
                                             "test_background"}


def test_no_test_module_imports_another() -> None:
    found = {path.name: imported_test_modules(path) for path in TESTS.glob("*.py")}
    assert {name: sorted(imported) for name, imported in found.items() if imported} == {}
