"""Every path the documentation and the code's comments name exists, and nothing points outside the repository.

Scanned: README.md and docs/*.md (all of their text); the comments and docstrings of the Python files under app,
tests, bench and docs, and of config.py and wsgi.py; all the text of the templates, scripts and style sheets. A path
is a word that starts with one of ROOTS and a slash. Folders the repository ignores (its .gitignore, such as the
benchmarks' output folder) count as existing: running the code makes them.
"""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ROOTS = ("app", "tests", "bench", "docs", "static", "templates", "migrations")
# Not inside a longer path or a URL ("/static/app.js" is an address, not a file), and ending on a word character
# so that a sentence's full stop or a folder's trailing slash is not part of it.
PATH = re.compile(r"(?<![\w./-])((?:%s)/[\w./-]*\w)" % "|".join(ROOTS))
# The document the code once cited from outside the repository, spelt so that this file does not mention it.
OUTSIDE = ("DOMAIN" + ".md", "../" + "shared")
SKIP_DIRS = {".git", ".venv", "__pycache__", "instance", ".pytest_cache", ".hypothesis", "node_modules"}
LINK = re.compile(r"\]\(([^)\s]+)\)|<img [^>]*src=\"([^\"]+)\"")


def ignored_dirs() -> list[str]:
    """Folders .gitignore names by a path (bench/out/), which a fresh clone lacks until the code runs."""
    lines = (ROOT / ".gitignore").read_text().splitlines()
    return [line.strip().strip("/") for line in lines if "/" in line.strip().strip("/") and "*" not in line]


def exists(path: str) -> bool:
    return (ROOT / path).exists() or any(path == d or path.startswith(d + "/") for d in ignored_dirs())


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def python_notes(source: str) -> str:
    """The comments and docstrings of a Python file, where the prose is."""
    notes = [tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            notes.append(ast.get_docstring(node, clean=False) or "")
    return "\n".join(notes)


def walk(*folders: str, suffixes: tuple[str, ...]) -> list[Path]:
    found = []
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in suffixes and path.is_file() and not SKIP_DIRS & set(path.relative_to(ROOT).parts):
                found.append(path)
    return found


def texts() -> dict[str, str]:
    """{file relative to the repository: the text in it that may name paths}."""
    out = {}
    for path in documents():
        out[str(path.relative_to(ROOT))] = path.read_text()
    for path in walk("app", "tests", "bench", "docs", suffixes=(".py",)) + [ROOT / "config.py", ROOT / "wsgi.py"]:
        source = path.read_text()
        # tokenizing is slow: only files that name a path at all need their prose picked out
        out[str(path.relative_to(ROOT))] = python_notes(source) if PATH.search(source) else ""
    for path in walk("app", "tests", "bench", "templates", "static", suffixes=(".html", ".js", ".css")):
        out[str(path.relative_to(ROOT))] = path.read_text()
    return out


def mentioned_paths(text: str) -> list[str]:
    return PATH.findall(text)


@pytest.mark.slow
def test_every_path_mentioned_exists():
    missing = sorted({f"{name}: {path}" for name, text in texts().items() for path in mentioned_paths(text)
                      if not exists(path)})
    assert not missing, "paths that are not in the repository:\n" + "\n".join(missing)


def test_every_relative_link_in_the_docs_resolves_inside_the_repository():
    broken = []
    for doc in documents():
        for target in (a or b for a, b in LINK.findall(doc.read_text())):
            if re.match(r"[a-z]+:|#", target):  # a web address, or an anchor on the same page
                continue
            resolved = (doc.parent / target.split("#")[0]).resolve()
            if not resolved.is_relative_to(ROOT) or not resolved.exists():
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not broken, "links that go nowhere in the repository:\n" + "\n".join(broken)


def outside_references(text: str) -> list[str]:
    return [word for word in OUTSIDE if word in text]


def test_nothing_points_at_a_document_outside_the_repository():
    offenders = []
    for path in sorted(ROOT.rglob("*")):
        if not path.is_file() or SKIP_DIRS & set(path.relative_to(ROOT).parts):
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:  # images and other binary files
            continue
        offenders += [f"{path.relative_to(ROOT)}: {word}" for word in outside_references(text)]
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("text, expected", [
    ("see app/core/names.py.", ["app/core/names.py"]),
    ("`tests/fixtures/nrtm/` and docs/engine.md", ["tests/fixtures/nrtm", "docs/engine.md"]),
    ("served from /static/app.js or https://example.org/app/x", []),
    ("the app/ folder and static/*.js", []),
])
def test_paths_are_found_as_a_reader_would_read_them(text, expected):
    assert mentioned_paths(text) == expected


def test_a_missing_path_and_an_outside_reference_would_be_caught():
    assert not exists("app/core/no_such_module.py")
    assert exists("docs/domain.md") and exists("app/core")
    assert "bench/out" in ignored_dirs() and exists("bench/out/screenshot.png")
    assert outside_references("rules: see " + "DOMAIN" + ".md 4") and outside_references("../" + "shared/x")
    assert not outside_references("see docs/domain.md 4")


def test_no_merge_left_its_conflict_markers():
    """A merge's markers in a document or a source file (a conflict resolved in one file and not another)."""
    marker = re.compile(r"^(<{7}|>{7}) |^={7}$", re.M)
    files = documents() + walk("app", "tests", "bench", "docs", "templates", "static", "migrations",
                               suffixes=(".py", ".md", ".html", ".js", ".css", ".txt"))
    found = [str(p.relative_to(ROOT)) for p in files if marker.search(p.read_text(errors="replace"))]
    assert not found, found
