"""Tests mirror the source (docs/development.md, "Where tests live"): app/<path>/<module>.py is tested in
tests/<path>/test_<module>.py, so a module's tests are found without searching. The share of modules with their
mirrored file may only grow; the cross-cutting tests keep the few homes named here.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"
TESTS = ROOT / "tests"
MINIMUM_SHARE = 0.70
# Homes of the tests that follow no single module: flows through several packages, real browsers.
CROSS_CUTTING = {"browser", "flows"}


def modules() -> list[Path]:
    """Every module of the app, relative to app/; a package's __init__.py (its re-exports, the factory, the
    models' one file) is tested in the package's folder under whatever name its subject has, so it is not counted."""
    return sorted(p.relative_to(APP) for p in APP.rglob("*.py")
                  if p.name != "__init__.py" and "__pycache__" not in p.parts)


def mirrored(module: Path) -> Path:
    """app/services/players/states.py -> tests/services/players/test_states.py."""
    return TESTS / module.parent / f"test_{module.name}"


def without_mirror() -> list[str]:
    return [f"app/{m}" for m in modules() if not mirrored(m).is_file()]


def test_mirror_rule_maps_a_module_to_its_test_path():
    assert mirrored(Path("core/pairing/costs.py")) == TESTS / "core" / "pairing" / "test_costs.py"
    assert mirrored(Path("cli.py")) == TESTS / "test_cli.py"


def test_most_modules_have_a_test_at_the_mirrored_path():
    missing = without_mirror()
    share = 1 - len(missing) / len(modules())
    assert share >= MINIMUM_SHARE, (f"{share:.0%} of app modules have a mirrored test (at least "
                                    f"{MINIMUM_SHARE:.0%} expected); without one:\n" + "\n".join(missing))


def test_every_test_folder_mirrors_an_app_package_or_is_a_cross_cutting_home():
    """A test file in a folder that mirrors no package of app/ would be found by no one."""
    strays = []
    for test in TESTS.rglob("test_*.py"):
        folder = test.parent.relative_to(TESTS)
        if folder.parts and folder.parts[0] in CROSS_CUTTING:
            continue
        if not (APP / folder).is_dir():
            strays.append(str(test.relative_to(ROOT)))
    assert not strays, "test files outside a mirrored folder or a cross-cutting home: " + ", ".join(strays)
