"""The code base held to its linter, its type checker and its module size, so `make test` (what CI runs) fails on
any of them. ruff and mypy read their settings from pyproject.toml."""
import pytest
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINES = 500  # a module longer than this holds more than one concept: split it by concept


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing_in_app():
    done = _run("ruff", "check", "app", "--no-cache")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing_in_the_core():
    done = _run("mypy")  # the files and settings: pyproject.toml's [tool.mypy]
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_the_checkers_see_a_planted_fault(tmp_path):
    """Both checkers fail on what they exist to catch, so the two tests above cannot pass by checking nothing."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f(x: int) -> str:\n    return x\n")
    assert _run("ruff", "check", "--no-cache", str(bad)).returncode == 1
    typed = _run("mypy", "--no-incremental", "--config-file", str(ROOT / "pyproject.toml"), str(bad))
    assert typed.returncode == 1 and "return-value" in typed.stdout, typed.stdout


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_in_app_is_over_500_lines():
    modules = sorted((ROOT / "app").rglob("*.py"))
    assert len(modules) > 100
    too_long = {str(p.relative_to(ROOT)): n for p in modules if (n := _lines(p)) > MAX_LINES}
    assert too_long == {}
