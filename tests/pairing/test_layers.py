"""The engine package reads top-down: no import cycle inside app/pairing, nothing imported from the layers above.

Every import statement counts, the ones inside functions too (a lazy import is still a dependency)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "app" / "pairing"


def imports_in(source: str) -> list[str]:
    """Module names that a module of app/pairing imports, made absolute ("app.pairing.plain", "networkx")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 2:  # above app/: certainly not the engine
                found.append("." * node.level + (node.module or ""))
                continue
            base = ["app", "pairing"][: 3 - node.level] if node.level else []  # the package has no subpackages
            stem = ".".join(base + ([node.module] if node.module else []))
            found.append(stem)
            if stem == "app.pairing":  # `from . import plain` names a module
                found += [f"{stem}.{alias.name}" for alias in node.names if (PACKAGE / f"{alias.name}.py").exists()]
    return found


def imports_of(path: Path) -> list[str]:
    return imports_in(path.read_text())


def graph() -> dict[str, set[str]]:
    """app.pairing module -> the app.pairing modules it imports (the package itself as app.pairing)."""
    modules = {("app.pairing" if p.stem == "__init__" else f"app.pairing.{p.stem}"): p
               for p in PACKAGE.glob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules} for name, path in modules.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle as a list of modules (first == last), or [] when the graph is acyclic."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> list[str]:
        state[v] = 1
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                cycle = visit(w)
                if cycle:
                    return cycle
        stack.pop()
        state[v] = 2
        return []

    for v in sorted(edges):
        if v not in state:
            cycle = visit(v)
            if cycle:
                return cycle
    return []


def test_no_import_cycle_inside_the_engine():
    assert find_cycle(graph()) == []


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_engine_imports_nothing_above_it(path):
    upward = [m for m in imports_of(path)
              if m.startswith(".") or (m.split(".")[0] == "app" and not m.startswith("app.pairing"))]
    assert upward == [], f"{path.name} imports from above the engine: {upward}"


def test_the_checks_can_fail():
    """A planted cycle is found, and relative imports resolve the way Python resolves them."""
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    source = "from ..standings import x\ndef f():\n    from .fast import y\nfrom . import plain\n"
    assert imports_in(source) == ["app.standings", "app.pairing", "app.pairing.plain", "app.pairing.fast"]
