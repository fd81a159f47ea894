"""The rule of which database a test runs on (docs/development.md, "Which database a test runs on"), applied by
tests/conftest.py to collected tests: checked here on stand-in items, so it holds whatever databases this run has."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


from tests import conftest

HERE = Path(__file__).resolve().parent


@dataclass
class _CallSpec:
    params: dict


@dataclass
class _Mark:
    args: tuple


@dataclass
class _Item:
    nodeid: str
    callspec: _CallSpec
    marks: dict = field(default_factory=dict)

    @property
    def fspath(self) -> Path:
        return HERE.parent / self.nodeid.split("::")[0]

    def get_closest_marker(self, name):
        return self.marks.get(name)

    def add_marker(self, mark):
        self.marks[mark.name] = mark


@dataclass
class _Config:
    deselected: list = field(default_factory=list)

    @property
    def hook(self):
        return self

    def pytest_deselected(self, items):
        self.deselected.extend(items)


def _items(path: str, marks: dict | None = None, extra: str = "") -> list[_Item]:
    return [_Item(f"{path}::test_x[{backend}{extra}]", _CallSpec({"database_uri": backend}), dict(marks or {}))
            for backend in ("sqlite", "postgresql")]


def _kept(items: list[_Item], backends: list[str], monkeypatch) -> list[str]:
    monkeypatch.setattr(conftest, "BACKENDS", backends)
    items = [i for i in items if i.callspec.params["database_uri"] in backends]
    conftest.pytest_collection_modifyitems(_Config(), items)
    return [i.callspec.params["database_uri"] for i in items if "skip" not in i.marks]


def test_services_run_on_both_databases_and_request_tests_on_the_one_their_name_picks(monkeypatch):
    both = ["sqlite", "postgresql"]
    assert _kept(_items("tests/services/players/test_x.py"), both, monkeypatch) == both
    picked = {name: _kept(_items(f"tests/web/views/test_{name}.py"), both, monkeypatch) for name in "abcdefgh"}
    assert all(len(kept) == 1 for kept in picked.values())
    assert {kept[0] for kept in picked.values()} == set(both), "every request test on one database"
    again = {name: _kept(_items(f"tests/web/views/test_{name}.py"), both, monkeypatch) for name in "abcdefgh"}
    assert again == picked
    params = [_kept(_items("tests/web/test_x.py", extra=f"-{role}"), both, monkeypatch) for role in ("owner", "staff")]
    assert all(len(kept) == 1 for kept in params)
    assert _kept(_items("tests/web/test_x.py", {"both_backends": _Mark(())}), both, monkeypatch) == both


def test_a_test_of_one_database_runs_there_or_is_skipped(monkeypatch):
    pg = {"database": _Mark(("postgresql",))}
    assert _kept(_items("tests/web/test_x.py", pg), ["sqlite", "postgresql"], monkeypatch) == ["postgresql"]
    assert _kept(_items("tests/web/test_x.py", {"database": _Mark(("sqlite",))}), ["sqlite", "postgresql"],
                 monkeypatch) == ["sqlite"]
    only_sqlite = _items("tests/web/test_x.py", pg)[:1]
    assert _kept(only_sqlite, ["sqlite"], monkeypatch) == []
    assert "TEST_DATABASE_URL" in only_sqlite[0].marks["skip"].kwargs["reason"]


def test_without_postgresql_every_test_runs_on_sqlite(monkeypatch):
    assert _kept(_items("tests/web/test_x.py"), ["sqlite"], monkeypatch) == ["sqlite"]


def test_the_one_backend_folder_is_the_request_tests():
    assert conftest._ONE_BACKEND == ("web",)
