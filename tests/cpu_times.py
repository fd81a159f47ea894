"""A pytest plugin that lists each test's CPU time, its children's (subprocesses it waited for) included: what
decides the `slow` mark, the same on a busy machine as on a quiet one (docs/development.md).

    .venv/bin/python -m pytest -p cpu_times -p no:xdist -m "not slow and not browser" -q
"""
from __future__ import annotations

import resource

import pytest

_TIMES: dict[str, float] = {}
SLOW_SECONDS = 2.0


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start = _cpu()
    yield
    _TIMES[item.nodeid] = _cpu() - start


def pytest_terminal_summary(terminalreporter):
    over = sorted(((t, n) for n, t in _TIMES.items() if t > SLOW_SECONDS / 4), reverse=True)
    terminalreporter.section(f"CPU seconds a test (over {SLOW_SECONDS / 4:g} s; mark `slow` over {SLOW_SECONDS:g} s)")
    for seconds, nodeid in over:
        terminalreporter.write_line(f"{seconds:7.2f}  {nodeid}")
    terminalreporter.write_line(f"{sum(_TIMES.values()):7.1f}  in all, {len(_TIMES)} tests")
