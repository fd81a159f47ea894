"""Benchmarks that measure memory run each case in a process of its own, so that one case's peak RSS is its own."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def worker_rows(module: str, *args) -> list[dict]:
    """Run `python -m module --worker args...` and return the JSON lines it printed; if it failed, an HTML comment
    saying so is printed and nothing is returned (so the caller counts the failure)."""
    args = [str(a) for a in args]
    out = subprocess.run([sys.executable, "-m", module, "--worker", *args], cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        print(f"<!-- {' '.join(args)}: failed: {out.stderr.strip().splitlines()[-1:]} -->", flush=True)
        return []
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
