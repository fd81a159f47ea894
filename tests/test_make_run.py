"""`make run` serves on PORT (5000 unless set): a second checkout, or a port already taken, needs another."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("port", [None, "5001"])
def test_make_run_takes_its_port_from_PORT(port):
    env = {k: v for k, v in os.environ.items() if k not in ("PORT", "MAKEFLAGS")}
    if port:
        env["PORT"] = port
    out = subprocess.run(["make", "-n", "run"], cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    assert f"flask run --host 127.0.0.1 --port {port or 5000}" in out
