"""The engine's library example (the first ```python block of docs/engine.md, linked from the README) runs as
written and prints exactly what the page promises, in a fresh process so that output written from C (a solver's
banner) would count too."""
import pytest
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGINE_DOC = ROOT / "docs" / "engine.md"


@pytest.mark.slow
def test_library_example_runs():
    code = re.search(r"```python\n(.*?)```", ENGINE_DOC.read_text(), re.S).group(1)
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 5 and lines[0].startswith("1 ")
