"""A fresh clone migrates its database and serves its first page, with or without SECRET_KEY, on the SQLite default
(whose instance/ folder nothing has made yet) and on PostgreSQL: the steps of the README, in a copy of the code
with no instance/ folder, as `make run` runs them."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.conftest import BACKENDS
from databases import postgres_url

ROOT = Path(__file__).resolve().parent.parent
CODE = ("app", "migrations", "templates", "static", "config.py", "wsgi.py")
FIRST_PAGE = "from wsgi import app\nprint(app.test_client().get('/').status_code)\n"


def _clone(tmp_path: Path) -> Path:
    clone = tmp_path / "sass"
    clone.mkdir()
    for name in CODE:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, clone / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, clone / name)
    return clone


def _run(clone: Path, env: dict, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=clone, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("backend, key", [("sqlite", True), ("sqlite", False)]
                         + [("postgresql", True)] * ("postgresql" in BACKENDS))
def test_a_fresh_clone_migrates_and_serves_its_first_page(tmp_path, backend, key):
    clone = _clone(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "FLASK_APP")}
    if key:
        env["SECRET_KEY"] = "a fresh clone's key, the same on every host"
    if backend == "postgresql":
        env["DATABASE_URL"] = postgres_url("_fresh_clone")
    migrated = _run(clone, env, "-m", "flask", "--app", "wsgi", "db", "upgrade")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    if backend == "sqlite":
        assert (clone / "instance" / "sass.db").is_file()
        assert (clone / "instance" / "secret_key").exists() == (not key)  # a key given is never written down
    served = _run(clone, env, "-c", FIRST_PAGE)
    assert served.returncode == 0, served.stderr[-3000:]
    assert served.stdout.split()[-1] in ("200", "302"), served.stdout
