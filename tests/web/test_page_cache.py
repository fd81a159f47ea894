"""Public pages and API answers built once per tournament version (app/web/page_cache.py): every change
shows on the next request, personal parts never leak between devices, ETag/304, gzip, shared across workers."""
from __future__ import annotations

import gzip
import re
import zlib

import pytest

from app.web import page_cache
from app.services.players import player_links
from tests.web.views.test_public import live  # noqa: F401  (fixture)
from tests.web.views.test_rounds import matches, report_all

GZ = {"Accept-Encoding": "gzip"}


def text(response) -> str:
    assert response.status_code == 200, response.status_code
    if response.headers.get("Content-Encoding") == "gzip":
        return gzip.decompress(response.data).decode()
    return response.get_data(as_text=True)


def pairing_items(page: str) -> list[str]:
    return page.split('id="pairings">', 1)[1].split("</ul>", 1)[0].split("<li")[1:]


def standings_rows(page: str) -> list[str]:
    return page.split('<tbody id="standings-rows">', 1)[1].split("</tbody>", 1)[0].split("<tr")[1:]


def you_line(page: str) -> str:
    return page.split('<p class="you-banner">', 1)[1].split("</p>", 1)[0] if "you-banner" in page else ""


def same_but_the_clock(body: bytes) -> bytes:
    return re.sub(rb'data-server-now="\d+"', b"", body)


def device(app, t, player):
    c = app.test_client()
    assert c.get(f"/t/{t.slug}/p/{player_links.token(player)}").status_code == 200
    return c


@pytest.fixture(autouse=True)
def cold_workers():
    page_cache.clear_memory()
    yield
    page_cache.clear_memory()


def test_every_change_shows_on_the_next_request(live):
    """Results, publishing, drops, renames, hand edits and undo each bump the version the pages are kept by."""
    to, anon, t, players = live
    base = f"/t/{t.slug}"
    first = text(anon.get(f"{base}/standings"))
    assert "after round 1" in first and text(anon.get(f"{base}/pairings")).count("Round 1") >= 1

    (m, seats), *_ = [(m, s) for m, s in matches(t, 1) if not m.is_bye]
    to.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "runner", "past": "1"})  # round 2 is paired: round 1 is a past round
    runner = next(s for s in seats if s.side == "runner")
    row = next(r for r in standings_rows(text(anon.get(f"{base}/standings"))) if runner.player.name in r)
    assert '<strong>3</strong>' in row  # the runner's win, at once

    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    assert "<h2>Round 2</h2>" in text(anon.get(f"{base}/pairings"))
    assert anon.get(f"{base}/rounds/2").status_code == 200

    dropped = players[0]
    to.post(f"/tournaments/{t.id}/players/{dropped.id}/drop")
    row = next(r for r in standings_rows(text(anon.get(f"{base}/standings"))) if dropped.name in r)
    assert 'class="dropped"' in row and "badge" in row

    renamed = players[1]
    assert to.post(f"/tournaments/{t.id}/players/{renamed.id}/edit",
                   data={"name": "Zora Renamed"}).status_code in (302, 303)
    for path in ("/pairings", "/rounds/1", "/standings"):
        assert "Zora Renamed" in text(anon.get(base + path)), path
    assert "Zora Renamed" in text(anon.get(f"/api/tournaments/{t.slug}/rounds/2"))
    assert "Zora Renamed" in text(anon.get(f"/api/tournaments/{t.slug}/standings"))

    (_, (a, _)), (_, (c, _)) = [(m, s) for m, s in matches(t, 2) if not m.is_bye][:2]
    before = pairing_items(text(anon.get(f"{base}/pairings")))
    to.post(f"/tournaments/{t.id}/rounds/2/edit", data={"action": "swap", "first": a.player_id,
                                                        "second": c.player_id})
    assert pairing_items(text(anon.get(f"{base}/pairings"))) != before

    to.post(f"/tournaments/{t.id}/rounds/2/undo")
    page = text(anon.get(f"{base}/pairings"))
    assert "<h2>Round 1</h2>" in page and "Round 2" not in page
    assert anon.get(f"{base}/rounds/2").status_code == 404
    assert anon.get(f"/api/tournaments/{t.slug}/rounds/2").status_code == 404


def test_draft_rounds_never_show_and_a_404_is_not_kept(live):
    to, anon, t, players = live
    assert anon.get(f"/t/{t.slug}/rounds/2").status_code == 404
    assert anon.get(f"/api/tournaments/{t.slug}/rounds/2").status_code == 404
    draft = {s.player.name for m, ss in matches(t, 2) for s in ss if not m.is_bye}
    page = text(anon.get(f"/t/{t.slug}/pairings"))
    assert "Round 2" not in page and draft
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    assert anon.get(f"/t/{t.slug}/rounds/2").status_code == 200
    assert anon.get(f"/api/tournaments/{t.slug}/rounds/2").status_code == 200


def mine(app, phone, t, page: str) -> dict:
    answer = phone.get(f"/t/{t.slug}/me.json", query_string={"page": page})
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "private, no-store"
    return answer.get_json()


def test_two_players_see_their_own_you_lines(live, app):
    """The page is shared; each device's "You" line and the row to mark come from its own answer (me.json), and
    name the row the shared page holds, in any order of requests."""
    to, anon, t, players = live
    ann, ben = players[0], players[1]
    phones = {p.id: device(app, t, p) for p in (ann, ben)}
    tables = {s.player_id: m.table for m, ss in matches(t, 1) for s in ss}
    shared = text(anon.get(f"/t/{t.slug}/pairings", headers=GZ))
    clockless = same_but_the_clock(shared.encode())
    table = text(anon.get(f"/t/{t.slug}/standings"))
    for order in ((ann, ben), (ben, ann)):
        for p in order:
            assert same_but_the_clock(text(phones[p.id].get(f"/t/{t.slug}/pairings", headers=GZ)).encode()) == clockless
            me = mine(app, phones[p.id], t, "pairings")
            assert f"table {tables[p.id]}," in me["you"] and player_links.token(p) in me["you"]
            item = pairing_items(shared)[me["row"]]
            assert p.name in item and f"Table {tables[p.id]}<" in item and f'data-names="{me["names"]}"' in item
            me = mine(app, phones[p.id], t, "standings")
            row = standings_rows(table)[me["row"]]
            assert p.name in row and f'data-names="{me["names"]}"' in row and "You:" in me["you"]
            me = mine(app, phones[p.id], t, "round-1")
            assert p.name in pairing_items(text(anon.get(f"/t/{t.slug}/rounds/1")))[me["row"]]
        assert "you-banner" not in shared and 'class="me"' not in shared
        assert mine(app, anon, t, "pairings") == {}
    assert "row" not in mine(app, phones[ann.id], t, "no-such-page")
    for nonsense in ("round-99", "round-²", "round-", "round-1e9", "round-99999999999"):
        assert "row" not in mine(app, phones[ann.id], t, nonsense)


def test_the_header_is_each_visitors_own(live):
    """The public page's header is the anonymous one for everyone; a TO gets their own menu and form token from
    their own answer, a phone gets none."""
    to, anon, t, _ = live
    theirs = text(anon.get(f"/t/{t.slug}/pairings"))
    assert same_but_the_clock(text(to.get(f"/t/{t.slug}/pairings")).encode()) == same_but_the_clock(theirs.encode())
    assert "Log out" not in theirs and "csrf_token" not in theirs and "Organizer log-in" in theirs
    nav = to.get(f"/t/{t.slug}/me.json?page=pairings").get_json()["nav"]
    assert "Log out" in nav and 'name="csrf_token"' in nav
    assert "nav" not in anon.get(f"/t/{t.slug}/me.json?page=pairings").get_json()


def test_search_without_javascript_is_escaped(live):
    _, anon, t, _ = live
    page = text(anon.get(f"/t/{t.slug}/pairings", query_string={"q": '"><script>x</script>'}))
    assert "<script>x" not in page and "&#34;&gt;&lt;script&gt;" in page
    assert 'id="no-match">' in page  # nothing matched: the notice shows


def test_the_clock_is_drawn_per_request(live):
    """Starting the timer changes no pairing, yet the page shows it at once."""
    to, anon, t, _ = live
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    assert 'data-state=""' in text(anon.get(f"/t/{t.slug}/pairings"))
    tag = anon.get(f"/t/{t.slug}/pairings").headers["ETag"]
    assert to.post(f"/tournaments/{t.id}/rounds/2/timer/start", data={"minutes": 50}).status_code in (302, 303)
    page = anon.get(f"/t/{t.slug}/pairings", headers={"If-None-Match": tag})
    assert 'data-state="running"' in text(page) and "Time left in round 2" in text(page)
    assert "49:5" in text(page) or "50:00" in text(page)


def test_etag_and_304(live, app):
    to, anon, t, players = live
    for path in ("/pairings", "/rounds/1", "/standings"):
        url = f"/t/{t.slug}{path}"
        first = anon.get(url)
        tag = first.headers["ETag"]
        assert first.status_code == 200
        assert first.headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=2"
        again = anon.get(url, headers={"If-None-Match": tag})
        assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
        assert again.headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=2"
        phone = device(app, t, players[0])
        assert phone.get(url, headers={"If-None-Match": tag}).status_code == 304  # the same page for everyone
    url = f"/t/{t.slug}/standings"
    tag = anon.get(url).headers["ETag"]
    report_all(to, t, 1, "runner", past=True)
    changed = anon.get(url, headers={"If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    api = f"/api/tournaments/{t.slug}/rounds/1"
    tag = anon.get(api).headers["ETag"]
    assert anon.get(api, headers={"If-None-Match": tag}).status_code == 304


def test_gzip_is_the_same_page(live, app):
    to, anon, t, players = live
    phone = device(app, t, players[2])
    for c in (anon, phone, to):
        for path in (f"/t/{t.slug}/pairings", f"/t/{t.slug}/pairings?q=an", f"/t/{t.slug}/standings",
                     f"/t/{t.slug}/rounds/1", f"/api/tournaments/{t.slug}/rounds/1",
                     f"/api/tournaments/{t.slug}/standings"):
            c.get(path)  # shows (and so ends) the TO's flashed messages
            plain = c.get(path)
            packed = c.get(path, headers=GZ)
            assert packed.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
            assert "Accept-Encoding" in packed.headers["Vary"] and "Accept-Encoding" in plain.headers["Vary"]
            stream = zlib.decompressobj(31)  # one gzip member, nothing after it
            body = stream.decompress(packed.data)
            assert stream.eof and stream.unused_data == b""
            assert body == gzip.decompress(packed.data)
            assert same_but_the_clock(body) == same_but_the_clock(plain.data), path
    assert "gzip" not in anon.get(f"/t/{t.slug}/pairings", headers={"Accept-Encoding": "gzip;q=0"}).headers.get(
        "Content-Encoding", "")


def test_workers_share_the_bytes(live, app, monkeypatch):
    """A page another worker built is read from the shared folder, not built again; a change builds anew."""
    to, anon, t, _ = live
    first = text(anon.get(f"/t/{t.slug}/standings"))
    page_cache.clear_memory()  # another worker: nothing in its memory
    import app.web.views.public as public

    def refuse(*args, **kwargs):
        raise AssertionError("built again")

    monkeypatch.setattr(public, "_build_standings", refuse)
    assert text(anon.get(f"/t/{t.slug}/standings")) == first
    monkeypatch.undo()
    report_all(to, t, 1, "runner", past=True)
    assert text(anon.get(f"/t/{t.slug}/standings")) != first
    files = [p.name for p in page_cache.folder().glob(f"{t.id}_{t.seed}_*_standings_*.page")]
    assert len(files) == 1, files  # the older version is gone


def test_an_unreadable_file_is_built_again(live):
    _, anon, t, _ = live
    first = text(anon.get(f"/t/{t.slug}/standings"))
    page_cache.clear_memory()
    for path in page_cache.folder().glob(f"{t.id}_{t.seed}_*_standings_*.page"):
        path.write_bytes(path.read_bytes()[:-10])
    assert text(anon.get(f"/t/{t.slug}/standings")) == first



@pytest.mark.parametrize("trouble", ["not a folder", "full"])
def test_a_cache_folder_that_fails_serves_the_pages_uncached(live, app, tmp_path, monkeypatch, caplog, trouble):
    """The page-cache folder unusable (a file where the folder should be, or a full disk): public pairings,
    standings and the API's standings still answer, right, after every change; the failure is logged."""
    to, anon, t, _ = live
    base = f"/t/{t.slug}"
    pages = [f"{base}/pairings", f"{base}/standings", f"/api/tournaments/{t.slug}/standings"]
    before = [text(anon.get(p)) for p in pages]
    page_cache.clear_memory()
    if trouble == "not a folder":
        (tmp_path / "file").write_text("")
        monkeypatch.setitem(app.config, "PAGE_CACHE_DIR", str(tmp_path / "file" / "pages"))
    else:
        monkeypatch.setitem(app.config, "PAGE_CACHE_DIR", str(tmp_path / "pages"))

        def full(*args, **kwargs):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(page_cache.tempfile, "mkstemp", full)
    report_all(to, t, 1, "runner", past=True)  # a change: every page must be built again
    for path, old in zip(pages, before):
        response = anon.get(path)
        assert response.status_code == 200, path
        assert text(response) != old, path
    assert "page cache folder unusable" in caplog.text


def test_workers_that_miss_together_build_once(app):
    """Two workers asking for a page nobody has built yet: one builds it, the other waits and reads its file."""
    import threading
    import time
    from datetime import datetime, timezone
    from types import SimpleNamespace

    event = SimpleNamespace(id=987654, seed="f00d", created_at=datetime.now(timezone.utc), version=3)
    builds, pages = [], []

    def build():
        builds.append(1)
        time.sleep(0.3)
        return '<ul><!--slot:rows--><li data-names="ann">Ann</li><!--slot:end-rows--></ul>', {"rows": {"1": 0}}

    def worker():
        with app.app_context():
            pages.append(page_cache.get(event, "pairings", build))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
        page_cache.clear_memory()  # the second is another process: it cannot see the first one's memory
    for thread in threads:
        thread.join()
    assert len(builds) == 1 and len(pages) == 2 and all(p is not None for p in pages)
    assert page_cache.render(pages[1], {}, me_row=0) == b'<ul><li data-names="ann" class="me" data-server>Ann</li></ul>'
