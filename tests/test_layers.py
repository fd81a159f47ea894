"""The three layers hold: the core is pure, services never touch the web, views stand alone, and nothing cycles.

    app/core      the rules: pairing, results, standings, brackets, clock, names, round checks. No Flask, no SQL.
    app/services  the database <-> core glue (with app/models/ and app/extensions.py). No request, no session,
                  no response.
    app/web       blueprints, forms, access policy, page cache, player sessions, template helpers. No database
                  write: a view parses, calls a service (which writes, commits or rolls back) and renders.

Every import statement counts, the ones inside functions too (a lazy import is still a dependency); so does every
session call that writes, wherever it sits in a web module.
See docs/architecture.md.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

# What a pure module may not import, whatever it is called from.
IMPURE = ("flask", "flask_login", "flask_wtf", "flask_sqlalchemy", "flask_migrate", "flask_limiter", "werkzeug",
          "sqlalchemy", "jinja2", "markupsafe", "wtforms")
# Flask names that belong to a request: a service that imports one is doing the web layer's job.
REQUEST_BOUND = {"request", "session", "g", "make_response", "Response", "jsonify", "render_template",
                 "render_template_string", "redirect", "abort", "flash", "after_this_request", "send_file"}
DATA = ("app.models", "app.extensions")
# A session's calls that write (or end a write's transaction); rollback is not among them: the web layer may clear a
# failed request's transaction (app/web/errors.py, app/web/db_retry.py).
SESSION_WRITES = {"add", "add_all", "delete", "commit", "flush", "merge", "bulk_save_objects",
                  "bulk_insert_mappings", "bulk_update_mappings"}
# A statement that writes, built with SQLAlchemy (sa.update(...), insert(...), delete(...)) or spelt as text
STATEMENT_WRITES = {"update", "insert", "delete"}


@dataclass(frozen=True)
class Import:
    module: str  # absolute module name ("app.core.results", "flask")
    names: tuple[str, ...] = ()  # what a `from module import ...` takes


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_in(source: str, module: str, is_package: bool, known: set[str]) -> list[Import]:
    """The imports of one module's source, made absolute the way Python resolves them. `from pkg import x`
    counts as importing the module pkg.x when that is a module of the app, else as importing pkg."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [Import(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            stem = ".".join(base + ([node.module] if node.module else []))
            names = tuple(alias.name for alias in node.names)
            subs = [f"{stem}.{n}" for n in names if f"{stem}.{n}" in known]
            found += [Import(s) for s in subs]
            if len(subs) < len(names):
                found.append(Import(stem, tuple(n for n in names if f"{stem}.{n}" not in known)))
    return found


def app_modules(root: Path = ROOT) -> dict[str, list[Import]]:
    paths = {module_name(p, root): p for p in (root / "app").rglob("*.py")}
    known = set(paths)
    return {name: imports_in(path.read_text(), name, path.name == "__init__.py", known)
            for name, path in paths.items()}


def top(module: str) -> str:
    return module.split(".")[0]


def inside(module: str, *packages: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def violations(modules: dict[str, list[Import]]) -> list[str]:
    """Every import that crosses a layer the wrong way, as 'importer -> imported: why'."""
    out = []
    for name, imports in sorted(modules.items()):
        for imp in imports:
            target = imp.module
            if inside(name, "app.core"):
                if top(target) in IMPURE or (top(target) == "app" and not inside(target, "app.core")):
                    out.append(f"{name} -> {target}: the core is pure (no Flask, no SQL, nothing above it)")
            elif inside(name, "app.services", *DATA):
                if inside(target, "app.web") or target == "app":
                    out.append(f"{name} -> {target}: services never import the web layer")
                elif top(target) in ("flask", "flask_login") and set(imp.names) & REQUEST_BOUND:
                    bound = sorted(set(imp.names) & REQUEST_BOUND)
                    out.append(f"{name} -> {target}.{','.join(bound)}: services touch no request, session or response")
                elif inside(name, *DATA) and inside(target, "app.services"):
                    out.append(f"{name} -> {target}: the models sit below the services")
            if inside(name, "app.web.views") and name != "app.web.views" and inside(target, "app.web.views") \
                    and target != "app.web.views":
                out.append(f"{name} -> {target}: a view never imports another view (shared code lives in a "
                           "service or in app/web)")
    return out


def _writes(statement: ast.expr) -> bool:
    """Whether an executed statement writes: it calls update/insert/delete, or its text starts with one."""
    for node in ast.walk(statement):
        if isinstance(node, ast.Call):
            called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if called in STATEMENT_WRITES:
                return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.lstrip().split(" ", 1)[0].lower() in STATEMENT_WRITES:
            return True
    return False


def session_writes(source: str, module: str) -> list[str]:
    """Every database write a module makes itself, as 'module:line session.<call>': a call on a `.session` (the
    database session, `db.session`) that adds, deletes, flushes, merges or commits, or executes a writing statement."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        owner, verb = node.func.value, node.func.attr
        if not (isinstance(owner, ast.Attribute) and owner.attr == "session"):
            continue
        if verb in SESSION_WRITES or (verb == "execute" and any(_writes(a) for a in node.args)):
            found.append(f"{module}:{node.lineno} session.{verb}: the web layer writes nothing (a service does)")
    return found


def web_writes(root: Path = ROOT) -> list[str]:
    return [w for path in sorted((root / "app" / "web").rglob("*.py"))
            for w in session_writes(path.read_text(), module_name(path, root))]


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


def graph(modules: dict[str, list[Import]]) -> dict[str, set[str]]:
    return {name: {i.module for i in imports if i.module in modules and i.module != name}
            for name, imports in modules.items()}


@pytest.mark.slow
def test_every_layer_imports_the_right_way():
    assert violations(app_modules()) == []


def test_the_web_layer_writes_nothing():
    assert web_writes() == []


@pytest.mark.parametrize("source", [
    "def f(p):\n    db.session.add(p)\n",
    "db.session.add_all(players)\n",
    "def f():\n    db.session.commit()\n",
    "db.session.delete(player)\n",
    "db.session.flush()\n",
    "db.session.execute(sa.update(Player).where(Player.id == 1).values(dropped=True))\n",
    "db.session.execute(insert(Player).values(name='x'))\n",
    "db.session.execute(sa.delete(Player))\n",
    "db.session.execute(sa.text('UPDATE players SET dropped = true'))\n",
])
def test_a_planted_write_in_a_view_is_found(source, tmp_path):
    """A module planted under app/web with one write: the check names it, so it cannot pass by finding nothing."""
    views = tmp_path / "app" / "web" / "views"
    views.mkdir(parents=True)
    (views / "planted.py").write_text("from ...extensions import db\n" + source)
    found = web_writes(tmp_path)
    assert len(found) == 1 and found[0].startswith("app.web.views.planted:"), found


@pytest.mark.parametrize("source", [
    "db.session.execute(sa.select(Player).where(Player.id == 1))\n",
    "db.session.rollback()\n",
    "db.session.get(Player, 1)\n",
    "session.update(next='/')\n",  # Flask's cookie session, not the database's
])
def test_a_read_is_not_a_write(source):
    assert session_writes(source, "app.web.views.planted") == []


@pytest.mark.slow
def test_no_import_cycle_anywhere_in_the_app():
    assert find_cycle(graph(app_modules())) == []


def test_the_layers_are_folders():
    for layer in ("core", "services", "web"):
        assert (APP / layer / "__init__.py").is_file()
    loose = sorted(p.name for p in APP.glob("*.py"))
    assert loose == ["__init__.py", "cli.py", "extensions.py"], loose
    assert (APP / "models" / "__init__.py").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("source, module, expected", [
    ("from ...services import rounds\n", "app.core.pairing.x", "the core is pure"),
    ("def f():\n    from flask import current_app\n", "app.core.results", "the core is pure"),
    ("import sqlalchemy as sa\n", "app.core.clock", "the core is pure"),
    ("from flask import current_app, request\n", "app.services.swiss.rounds", "no request, session or response"),
    ("from ..web import page_cache\n", "app.services.state", "never import the web layer"),
    ("from .services import state\n", "app.models", "below the services"),
    ("from ..services import state\n", "app.models.series", "below the services"),
    ("from .public import home\n", "app.web.views.player", "never imports another view"),
])
def test_a_planted_violation_is_found(source, module, expected):
    known = set(app_modules()) | {"app.core.pairing.x", "app.web.views.public"}
    modules = {module: imports_in(source, module, False, known)}
    found = violations(modules)
    assert len(found) == 1 and expected in found[0], found


@pytest.mark.slow
def test_a_planted_cycle_is_found_and_imports_resolve_as_python_does():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    known = {"app.core.pairing.plain", "app.core.pairing.fast", "app.core.standings", "app.services.cut"}
    source = ("from ..standings import x\ndef f():\n    from .fast import y\nfrom . import plain, swiss\n"
              "from ...services import cut as c\n")
    assert [i.module for i in imports_in(source, "app.core.pairing.api", False, known)] == [
        "app.core.standings", "app.core.pairing.plain", "app.core.pairing", "app.services.cut", "app.core.pairing.fast"]
    # the app's own graph with one planted back edge has a cycle
    edges = graph(app_modules())
    edges["app.core.names"] = edges["app.core.names"] | {"app.core.identities"}
    assert find_cycle(edges)
