"""The generated SECRET_KEY: one key for all processes that start together, never empty, private (0600)."""
from __future__ import annotations

import multiprocessing
import os
import stat

import pytest

import config

PROCESSES = 8
TRIALS = 30


def _start_together(barrier, instance_dir, out):
    barrier.wait()
    try:
        out.put(config.secret_key({}, instance_dir))
    except Exception as e:  # noqa: BLE001 - reported to the parent
        out.put(f"error: {e!r}")


@pytest.mark.slow
def test_eight_processes_starting_at_once_agree_on_one_key(tmp_path):
    """The audit's trial: 8 workers without SECRET_KEY start at the same moment, 30 times over."""
    ctx = multiprocessing.get_context("fork")
    for trial in range(TRIALS):
        instance_dir = tmp_path / f"trial{trial}"
        barrier, out = ctx.Barrier(PROCESSES), ctx.Queue()
        procs = [ctx.Process(target=_start_together, args=(barrier, instance_dir, out)) for _ in range(PROCESSES)]
        for p in procs:
            p.start()
        keys = [out.get(timeout=30) for _ in procs]
        for p in procs:
            p.join(timeout=30)
        assert len(set(keys)) == 1, f"trial {trial}: {len(set(keys))} different keys"
        (key,) = set(keys)
        assert len(key) == 64 and not key.startswith("error"), key
        assert (instance_dir / "secret_key").read_text() == key
        assert stat.S_IMODE((instance_dir / "secret_key").stat().st_mode) == 0o600
        assert sorted(os.listdir(instance_dir)) == ["secret_key"]  # no temporary file left behind


def test_the_key_is_kept_across_restarts(tmp_path):
    first = config.secret_key({}, tmp_path)
    assert config.secret_key({}, tmp_path) == first


@pytest.mark.parametrize("content", ["", "\n", "short"])
def test_an_empty_or_short_key_file_stops_the_app(tmp_path, content):
    (tmp_path / "secret_key").write_text(content)
    with pytest.raises(RuntimeError, match="delete it"):
        config.secret_key({}, tmp_path)


def test_an_old_world_readable_key_file_is_made_private_and_kept(tmp_path):
    path = tmp_path / "secret_key"
    path.write_text("a" * 64)
    path.chmod(0o644)
    assert config.secret_key({}, tmp_path) == "a" * 64
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_environment_wins_and_writes_nothing(tmp_path):
    assert config.secret_key({"SECRET_KEY": "from the environment"}, tmp_path / "instance") == "from the environment"
    assert not (tmp_path / "instance").exists()
    assert len(config.secret_key({"SECRET_KEY": "  "}, tmp_path)) == 64  # blank is not a key


def test_postgresql_without_a_secret_key_refuses_to_start(monkeypatch):
    """Several hosts on one PostgreSQL: a key each made for itself would log the TO out at every hop and break
    every player link made on another host. No database is reached: the app stops before."""
    from app import create_app

    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(RuntimeError, match="SECRET_KEY is not set.*same random value on each host"):
        create_app({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg2://sass@127.0.0.1/sass"})
    monkeypatch.setenv("SECRET_KEY", "k" * 64)
    assert create_app({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg2://sass@127.0.0.1/sass"})
    monkeypatch.delenv("SECRET_KEY")
    assert create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://"})  # one machine: the generated key is fine


@pytest.mark.slow
def test_a_given_key_still_gets_the_sqlite_files_folder(tmp_path):
    """A fresh clone with SECRET_KEY set makes no instance/ for a key: the app makes the SQLite file's folder, so
    the first migration and the first page work."""
    from app import create_app
    from app.extensions import db
    from flask_migrate import upgrade

    folder = tmp_path / "not-yet" / "instance"
    app = create_app({"SECRET_KEY": "given", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'sass.db'}",
                      "PAGE_CACHE_DIR": str(tmp_path / "cache")})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    assert (folder / "sass.db").is_file()
    assert app.test_client().get("/").status_code == 200
