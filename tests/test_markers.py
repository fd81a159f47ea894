"""The test markers a newcomer relies on: declared in pytest.ini (its --strict-markers refuses any other) and
explained, with the fast run's command, in docs/development.md."""
from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _ini() -> configparser.ConfigParser:
    ini = configparser.ConfigParser(interpolation=None)
    ini.read(ROOT / "pytest.ini")
    return ini


def declared() -> set[str]:
    lines = _ini()["pytest"]["markers"].strip().splitlines()
    return {line.split(":", 1)[0].strip() for line in lines}


def test_the_markers_are_declared_and_strict():
    assert {"slow", "browser", "own_app"} <= declared()
    assert "--strict-markers" in _ini()["pytest"]["addopts"].split()


def test_the_development_guide_explains_every_marker_and_the_fast_run():
    guide = (ROOT / "docs" / "development.md").read_text()
    assert all(f"`{marker}`" in guide for marker in declared())
    assert '-m "not slow and not browser"' in guide
