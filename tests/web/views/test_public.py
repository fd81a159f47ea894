"""Public pages: no login, published rounds only, find my name, status.json for polling, few queries."""
from __future__ import annotations

import pytest
from sqlalchemy import event as sa_event

from app.extensions import db
from tests.web.views.test_rounds import matches, pair, report_all, setup_event


@pytest.fixture
def live(make_user, make_tournament, login, app):
    """An event with round 1 published and reported, round 2 paired but not published; plus a logged-out client."""
    to, t, players = setup_event(make_user, make_tournament, login, n=6, name="Regional Open")
    pair(to, t, 1)
    to.post(f"/tournaments/{t.id}/rounds/1/publish")
    report_all(to, t, 1, "corp")
    pair(to, t, 2)
    return to, app.test_client(), t, players


def names_on(page: str, players) -> set:
    return {p.name for p in players if f"{p.name}" in page}


def test_landing(client, live):
    _, anon, t, _ = live
    page = anon.get("/").get_data(as_text=True)
    assert "Side Aware Swiss System" in page and "/signup" in page and "/login" in page
    assert f"/t/{t.slug}" in page and "Regional Open" in page


def test_landing_lists_only_events_with_a_published_round(client, make_user, make_tournament):
    make_tournament(make_user(), name="Secret Draft")
    assert "Secret Draft" not in client.get("/").get_data(as_text=True)


def test_home(live):
    _, anon, t, _ = live
    page = anon.get(f"/t/{t.slug}").get_data(as_text=True)
    assert "Regional Open" in page and f"/t/{t.slug}/rounds/1" in page
    assert f"/t/{t.slug}/rounds/2" not in page
    assert 'name="viewport"' in page


def test_pairings_show_latest_published_round_only(live):
    to, anon, t, players = live
    page = anon.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    assert "Round 1" in page and "Round 2" not in page
    assert names_on(page, players) == {p.name for p in players}
    assert "poll.js" in page and f"/t/{t.slug}/status.json" in page
    assert anon.get(f"/t/{t.slug}/rounds/2").status_code == 404
    assert anon.get(f"/t/{t.slug}/rounds/1").status_code == 200
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    assert "Round 2" in anon.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    assert anon.get(f"/t/{t.slug}/rounds/2").status_code == 200


def test_nothing_published_yet(make_user, make_tournament, login, app):
    to, t, _ = setup_event(make_user, make_tournament, login, n=4)
    pair(to, t, 1)
    anon = app.test_client()
    page = anon.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    assert "No pairings yet" in page and "Ann" not in page
    assert anon.get(f"/t/{t.slug}/rounds/1").status_code == 404
    assert anon.get(f"/t/{t.slug}/status.json").get_json() == {"round": None, "version": "0", "timer": None}
    assert "No standings yet" in anon.get(f"/t/{t.slug}/standings").get_data(as_text=True)


def test_find_my_name_works_without_javascript(live):
    _, anon, t, players = live
    page = anon.get(f"/t/{t.slug}/pairings?q=ann").get_data(as_text=True)
    (ann_match, ann_seats), = [(m, s) for m, s in matches(t, 1) if any(x.player.name == "Ann" for x in s)]
    items = page.split('<ul class="pairing-list" id="pairings">', 1)[1].split("</ul>", 1)[0].split("<li")[1:]
    visible = [li for li in items if " hidden>" not in li.split(">", 1)[0] + ">"]
    assert len(visible) == 1 and "Ann" in visible[0] and f"Table {ann_match.table}" in visible[0]
    assert len(items) == 3  # the others are there for the live filter, hidden
    assert 'id="no-match" hidden' in page
    nobody = anon.get(f"/t/{t.slug}/pairings?q=zzz").get_data(as_text=True)
    assert 'id="no-match" hidden' not in nobody
    assert anon.get(f"/t/{t.slug}/pairings?q=" + "x" * 10_000).status_code == 200


def test_name_key_answers_the_servers_key(client, live):
    """The live filters' one rule: the server's name_key of the typed text, with no database and cacheable."""
    from app.core.names import name_key

    _, _, t, _ = live
    queries = []
    listener = lambda *args: queries.append(args[2])  # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        for typed, key in (("Ελύτης", "ελυτησ"), ("ΟΔΥΣΣΕΑΣ", "οδυσσεασ"), ("STRAUß", "strauss"),
                           ("  Zoë   KOVAČ ", "zoe kovac"), ("ﬁnn", "finn"), ("", "")):
            r = client.get("/name-key.json", query_string={"q": typed})
            assert r.status_code == 200 and r.mimetype == "application/json"
            assert r.get_json() == {"q": typed.strip(), "key": key} and key == name_key(typed)
        assert queries == []
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    r = client.get("/name-key.json?q=Ana")
    assert r.headers["Cache-Control"] == "public, max-age=86400" and r.headers["ETag"]
    assert client.get("/name-key.json?q=Ana", headers={"If-None-Match": r.headers["ETag"]}).status_code == 304
    assert client.get("/name-key.json?q=" + "x" * 10_000).get_json()["key"] == "x" * 100  # as the search box keeps
    assert client.get("/name-key.json").get_json() == {"q": "", "key": ""}
    # The rows the typed key is compared with carry the server's keys.
    page = client.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    assert 'data-key-url="/name-key.json"' in page and 'data-names="' in page


def test_public_standings_count_published_rounds_only(live):
    to, anon, t, _ = live
    report_all(to, t, 2, "runner")
    page = anon.get(f"/t/{t.slug}/standings").get_data(as_text=True)
    assert "after round 1" in page
    two_wins = '<td class="num" data-label="Points"><strong>6</strong>'
    assert two_wins not in page  # round 2's wins are not public yet
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    page = anon.get(f"/t/{t.slug}/standings").get_data(as_text=True)
    assert "after round 2" in page and two_wins in page and "SoS" in page


def test_status_json_changes_on_publish_and_on_edit(live):
    to, anon, t, _ = live
    first = anon.get(f"/t/{t.slug}/status.json")
    assert first.status_code == 200 and first.get_json()["round"] == 1
    assert first.headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=2"
    to.post(f"/tournaments/{t.id}/rounds/2/publish")
    second = anon.get(f"/t/{t.slug}/status.json").get_json()
    assert second["round"] == 2 and second["version"] != first.get_json()["version"]
    (_, (a, _)), (_, (c, _)) = matches(t, 2)[:2]
    to.post(f"/tournaments/{t.id}/rounds/2/edit", data={"action": "swap", "first": a.player_id, "second": c.player_id})
    third = anon.get(f"/t/{t.slug}/status.json").get_json()
    assert third["round"] == 2 and third["version"] != second["version"]
    to.post(f"/tournaments/{t.id}/rounds/2/undo")
    assert anon.get(f"/t/{t.slug}/status.json").get_json()["round"] == 1


def test_unknown_slugs_and_rounds(client):
    for path in ("/t/nope", "/t/nope/pairings", "/t/nope/standings", "/t/nope/status.json", "/t/nope/rounds/1",
                 "/t/" + "x" * 10_000):
        assert client.get(path).status_code == 404


def test_round_garbage(live):
    _, anon, t, _ = live
    assert anon.get(f"/t/{t.slug}/rounds/{2**40}").status_code == 404
    assert anon.get(f"/t/{t.slug}/rounds/0").status_code == 404
    assert anon.get(f"/t/{t.slug}/rounds/x").status_code == 404


def test_poll_script_is_served(client):
    response = client.get("/static/poll.js")
    assert response.status_code == 200 and b"status" in response.data


def _queries(fn) -> int:
    seen = []
    listener = lambda *args: seen.append(args[2])  # noqa: E731
    sa_event.listen(db.engine, "before_cursor_execute", listener)
    try:
        assert fn().status_code == 200
    finally:
        sa_event.remove(db.engine, "before_cursor_execute", listener)
    return len(seen)


@pytest.mark.slow
def test_pages_run_a_handful_of_queries_whatever_the_size(make_user, make_tournament, login, app):
    """Counted on a 4- and a 12-player event after two rounds: the same small number."""
    counts = []
    for n, email in ((4, "a@example.com"), (12, "b@example.com")):
        to, t, _ = setup_event(make_user, make_tournament, login, n=n, email=email, c=app.test_client())
        for number in (1, 2):
            pair(to, t, number)
            to.post(f"/tournaments/{t.id}/rounds/{number}/publish")
            report_all(to, t, number)
        anon = app.test_client()
        counts.append([_queries(lambda: anon.get(f"/t/{t.slug}{path}"))
                       for path in ("", "/pairings", "/rounds/1", "/standings", "/status.json")]
                      + [_queries(lambda: to.get(f"/tournaments/{t.id}{path}"))
                         for path in ("/rounds", "/rounds/2", "/standings")])
    assert counts[0] == counts[1], counts
    # the round page: its tables, claims, log, clock, next step, judge calls
    assert max(c for i, c in enumerate(counts[0]) if i != 3) <= 11, counts
    # the public standings, built once per version: also the players' states (who never played, who is
    # disqualified: services/state.out_states, a few queries per build, kept for the staff's page after it)
    assert counts[0][3] <= 15, counts


def _rows(page: str, tag: str = "tr") -> list[str]:
    """The opening tags of the standings rows (or pairing items) of a page."""
    return [f"<{tag} " + chunk.split(">", 1)[0] + ">" for chunk in page.split(f"<{tag} ")[1:]]


def test_standings_find_my_name_and_my_row(live, app):
    """Standings filter like pairings (case and accents ignored, without JavaScript too) and mark the row of
    the player this device remembers; the compact phone row keeps rank, name, points, first tiebreaker, record."""
    from app.services.players import player_links
    to, anon, t, players = live
    kovac = players[1]
    kovac.name = "Ana Kovač"
    db.session.commit()
    page = anon.get(f"/t/{t.slug}/standings?q=KOVAC").get_data(as_text=True)
    assert '<table class="standings compact">' in page and 'id="find"' in page and 'data-list="standings-rows"' in page
    rows = _rows(page.split('<tbody id="standings-rows">', 1)[1].split("</tbody>", 1)[0])
    assert len(rows) == len(players)
    shown = [r for r in rows if " hidden>" not in r]
    assert shown == ['<tr data-names="ana kovac">'] and 'id="no-match" hidden' in page
    assert 'id="no-match" hidden' not in anon.get(f"/t/{t.slug}/standings?q=zzz").get_data(as_text=True)
    assert page.count('class="nowrap record"') == 1 + len(players)  # the header and every row
    assert "poll.js" in page and 'class="me"' not in page

    phone = app.test_client()
    phone.get(f"/t/{t.slug}/p/{player_links.token(kovac)}")  # the player's link: the device remembers them
    shared = phone.get(f"/t/{t.slug}/standings").get_data(as_text=True)
    assert 'class="me"' not in shared  # the page is everyone's: the row to mark comes from the device's answer
    me = phone.get(f"/t/{t.slug}/me.json?page=standings").get_json()
    assert _rows(shared)[me["row"]] == '<tr data-names="ana kovac">' and me["names"] == "ana kovac"
    pairings = phone.get(f"/t/{t.slug}/pairings").get_data(as_text=True)
    me = phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()
    assert "Ana Kovač" in pairings.split('id="pairings">', 1)[1].split("</ul>", 1)[0].split("<li")[1:][me["row"]]
    # the TO's standings page has neither the search nor anyone's highlight
    to_page = to.get(f"/tournaments/{t.id}/standings").get_data(as_text=True)
    assert 'id="find"' not in to_page and 'class="me"' not in to_page and '<table class="standings compact">' in to_page
