"""The engine's library example (the first ```python block of docs/engine.md, linked from the README) runs as
written."""
import re
from pathlib import Path

ENGINE_DOC = Path(__file__).resolve().parent.parent / "docs" / "engine.md"


def test_library_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", ENGINE_DOC.read_text(), re.S).group(1)
    exec(compile(code, "docs/engine.md", "exec"), {})
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 5 and lines[0].startswith("1 ")
