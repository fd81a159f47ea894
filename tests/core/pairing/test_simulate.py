"""The simulator's command (app/core/pairing/simulate.py): the sweep and its chart, reproducible output, the
target's baselines."""
from __future__ import annotations

import re

from app.core.pairing.simulate import main


def test_sweep_prints_a_table_and_writes_a_png(tmp_path, capsys):
    chart = tmp_path / "sweep.png"
    assert main(["--events", "2", "--players", "6", "--rounds", "3", "--sweep", "1,2.5",
                 "--chart", str(chart), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "| 6/3 | sass x1 |" in out and "| 6/3 | sass x2.5 |" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_summary_and_per_event_output_are_reproducible(capsys):
    argv = ["--events", "3", "--players", "6", "--rounds", "2", "--jobs", "1"]
    main(argv)
    first = capsys.readouterr().out
    main(argv + ["--jobs", "2"])
    second = capsys.readouterr().out
    strip = lambda text: [line.rsplit("|", 2)[0] for line in text.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(strip(first)) == 3 and strip(first) == strip(second)  # ms/round (last column) aside
    main(argv + ["--summary"])
    assert "| uneven players |" in capsys.readouterr().out


def test_target_runs_the_baselines_on_the_same_events(capsys):
    assert main(["--events", "2", "--target", "--scenarios", "6x2", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert [line.split(" | ")[1] for line in out.splitlines() if line.startswith("| 6/2 |")] == [
        "sass", "deployed", "cobra"]
    assert sum(line.startswith("6/2: ") for line in out.splitlines()) == 3
