"""Pages that cost much to build (the NRTM file, match slips, pairings by name) are built once per event
version, shared by every worker, ETag'd, and concurrent first requests wait for one build (docs/security.md,
"Cost of a page"). Counted builds, not timings: the cost per request is measured in bench/bench_routes.py."""
from __future__ import annotations

import http.client
import json
import re
import threading

import pytest

from app.extensions import db
from app.models import Player
from app.services.event_files import nrtm_export
from app.services.swiss import printouts
from app.web import page_cache
from served import served
from tests.web.views.test_rounds import pair, report_all, setup_event


@pytest.fixture(autouse=True)
def cold_workers():
    page_cache.clear_memory()
    yield
    page_cache.clear_memory()


@pytest.fixture
def event(app, make_user, make_tournament, login):
    to, t, _ = setup_event(make_user, make_tournament, login, n=6, name="Heavy Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    return to, t


def counting(monkeypatch, module, name: str) -> list:
    calls = []
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


def test_the_nrtm_file_is_built_once_per_version(event, client, monkeypatch):
    to, t = event
    builds = counting(monkeypatch, nrtm_export, "export")
    first = client.get(f"/t/{t.slug}.json")
    assert first.status_code == 200 and first.mimetype == "application/json" and first.headers["ETag"]
    data = json.loads(first.data)
    assert data["links"][1] == {"rel": "uploadedfrom", "href": f"http://localhost/t/{t.slug}"}
    page_cache.clear_memory()  # another worker reads the shared file
    assert client.get(f"/t/{t.slug}.json").data == first.data
    assert client.get(f"/t/{t.slug}.json", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    download = client.get(f"/t/{t.slug}.json?download=1")
    assert download.data == first.data
    assert download.headers["Content-Disposition"] == f'attachment; filename="{t.slug}-nrtm.json"'
    assert len(builds) == 1
    report_all(to, t, 1, "corp")  # a new version: built again, and the old ETag no longer matches
    again = client.get(f"/t/{t.slug}.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.data != first.data and len(builds) == 2


def test_the_nrtm_files_link_follows_the_request_and_no_name_makes_a_slot(event, client):
    to, t = event
    db.session.add(Player(tournament_id=t.id, name="<!--slot:url--> Eve"))
    db.session.commit()
    data = json.loads(client.get(f"/t/{t.slug}.json").data)
    assert "<!--slot:url--> Eve" in [p["name"] for p in data["players"]], [p["name"] for p in data["players"]]
    other = json.loads(client.get(f"/t/{t.slug}.json", base_url="http://venue.example").data)
    assert other["links"][1]["href"] == f"http://venue.example/t/{t.slug}"
    assert other["players"] == data["players"]


@pytest.mark.parametrize("page", ["slips", "by-name"])
def test_printouts_are_built_once_per_version(event, monkeypatch, page):
    to, t = event
    builds = counting(monkeypatch, printouts, "slips" if page == "slips" else "by_name")
    url = f"/tournaments/{t.id}/rounds/1/{page}"
    to.get(url)  # shows the flashed "published" once: no ETag for that one
    first = to.get(url)
    assert first.status_code == 200 and first.headers["ETag"] and "private" in first.headers["Cache-Control"]
    page_cache.clear_memory()
    assert to.get(url).data == first.data
    assert to.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert len(builds) == 1
    report_all(to, t, 1, "runner")
    assert to.get(url).status_code == 200 and len(builds) == 2
    assert to.get(f"/tournaments/{t.id}/rounds/9/{page}").status_code == 404


@pytest.mark.both_backends  # real threads: PostgreSQL's parallel transactions, SQLite's one writer
def test_concurrent_first_requests_wait_for_one_build(app, database_uri, event, monkeypatch):
    """Eight devices ask at once for the NRTM file and the slips of an event nobody has asked for: one build of
    each, every answer whole and the same (the served app, real threads; PostgreSQL when TEST_DATABASE_URL)."""
    to, t = event
    cookie = "; ".join(f"{c.key}={c.value}" for c in to._cookies.values())
    builds = {"nrtm": counting(monkeypatch, nrtm_export, "export"),
              "slips": counting(monkeypatch, printouts, "slips")}
    paths = {"nrtm": f"/t/{t.slug}.json", "slips": f"/tournaments/{t.id}/rounds/1/slips"}
    with served(app) as base:
        port = int(base.rsplit(":", 1)[1])
        barrier = threading.Barrier(8)
        answers: dict = {k: [] for k in paths}

        def get(kind):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            barrier.wait()
            conn.request("GET", paths[kind], headers={"Cookie": cookie})
            response = conn.getresponse()
            answers[kind].append((response.status, response.read()))
            conn.close()

        threads = [threading.Thread(target=get, args=(kind,)) for kind in paths for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    for kind in paths:
        assert [status for status, _ in answers[kind]] == [200] * 4, kind
        assert len({re.sub(rb'value="[^"]+"', b"", body) for _, body in answers[kind]}) == 1, kind  # CSRF aside
        assert len(builds[kind]) == 1, kind


def test_the_backup_is_built_once_per_version(event, monkeypatch):
    from app.services.event_files import backup

    to, t = event
    builds = counting(monkeypatch, backup, "backup")
    first = to.get(f"/tournaments/{t.id}/backup.json")
    assert first.status_code == 200 and first.headers["ETag"] and "no-store" in first.headers["Cache-Control"]
    assert first.headers["Content-Disposition"].startswith('attachment; filename="sass-backup-')
    assert json.loads(first.data)["tournament"]["name"] == "Heavy Open"
    page_cache.clear_memory()
    assert to.get(f"/tournaments/{t.id}/backup.json").data == first.data and len(builds) == 1
    report_all(to, t, 1, "corp")
    assert to.get(f"/tournaments/{t.id}/backup.json").data != first.data and len(builds) == 2


def test_slips_are_paged_and_each_code_is_drawn_once(app, make_user, make_tournament, login, monkeypatch):
    """The audit: a 1,000-table round's slips drew 1,000 QR codes in every build (5.8 s of CPU), again after
    every result and in every worker. Now a page holds SLIPS_PER_PAGE tables, and its codes are drawn once: a
    result (a new version of the page), another worker, a second device all read them from the shared folder."""
    monkeypatch.setattr(printouts, "SLIPS_PER_PAGE", 2)
    to, t, _ = setup_event(make_user, make_tournament, login, n=10, name="Paged Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    drawn = []
    real = printouts.draw_qr

    def counted(text, **kw):
        drawn.append(text)
        return real(text, **kw)
    monkeypatch.setattr(printouts, "draw_qr", counted)
    url = f"/tournaments/{t.id}/rounds/1/slips"
    pages = [to.get(url if n == 1 else f"{url}?page={n}") for n in (1, 2, 3)]
    assert [p.status_code for p in pages] == [200, 200, 200]
    bodies = [p.get_data(as_text=True) for p in pages]
    assert [b.count('<section class="slip">') for b in bodies] == [2, 2, 1]  # 5 tables, 2 a page
    assert "Table 3</span>" in bodies[1] and "tables 3–4 of 5" in bodies[1] and 'aria-current="page"' in bodies[1]
    assert to.get(f"{url}?page=4").status_code == 404 and to.get(f"{url}?page=0").status_code == 404
    assert len(drawn) == 5
    report_all(to, t, 1, "corp")  # a new version of every page: no code drawn again
    page_cache.clear_memory()  # and another worker
    again = [to.get(f"{url}?page={n}") for n in (1, 2, 3)]
    assert [p.status_code for p in again] == [200, 200, 200] and len(drawn) == 5
    assert [a.get_data(as_text=True).count("<svg") for a in again] == [2, 2, 1]
