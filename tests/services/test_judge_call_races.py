"""Judge calls under real parallel requests (the app served on a loopback port, each request on its own
connection): staff claiming one call at once get one winner; a player's taps at once make one call. Meant for
PostgreSQL (run with TEST_DATABASE_URL); SQLite runs the same tests."""
from __future__ import annotations

import pytest
import http.cookiejar
import urllib.error
import urllib.request

import sqlalchemy as sa

from app.extensions import db
from app.models import JudgeCall, Player, Staff
from app.services.players import player_links
from cut_helpers import paired_event
from tests.services.results.test_participation_races import NoRedirect, PASSWORD, fire, player_opener, post, served  # noqa: F401, F811

KEEPERS = 6


def _event(make_user):
    owner = make_user("to@example.com", PASSWORD)
    t = paired_event(owner, "Race Judges", [f"Player {i}" for i in range(8)])
    for i in range(KEEPERS):
        keeper = make_user(f"keeper{i}@example.com", PASSWORD)
        db.session.add(Staff(tournament_id=t.id, user_id=keeper.id, role="scorekeeper"))
    db.session.commit()
    return t, db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id).order_by(Player.id)).all()


def _keeper(base, i):
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    assert post(opener, f"{base}/login", {"email": f"keeper{i}@example.com", "password": PASSWORD}) in (302, 303)
    return opener


def _claim(opener, url) -> int:
    """The panel's script's request: JSON, so the winner hears 200 and the others 409."""
    request = urllib.request.Request(url, b"", headers={"Accept": "application/json"})
    try:
        with opener.open(request, timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.slow
def test_staff_claiming_at_once_get_one_winner(app, served, make_user):  # noqa: F811
    t, players = _event(make_user)
    keepers = [_keeper(served, i) for i in range(KEEPERS)]
    for p in players:  # eight calls, each claimed by six staff members at once
        assert post(player_opener(), f"{served}/t/{t.slug}/p/{player_links.token(p)}/judge", {}) == 303
    db.session.expire_all()
    calls = db.session.scalars(sa.select(JudgeCall.id).order_by(JudgeCall.id)).all()
    assert len(calls) == len(players)
    base = f"{served}/tournaments/{t.id}/judge-calls"  # read here: the threads have no app context
    for cid in calls:
        answers = fire([lambda k=k, cid=cid: _claim(k, f"{base}/{cid}/claim")
                        for k in keepers], workers=KEEPERS)
        assert sorted(answers) == [200] + [409] * (KEEPERS - 1)
    db.session.expire_all()
    rows = db.session.execute(sa.select(JudgeCall.state, JudgeCall.claimed_by_id, JudgeCall.version)).all()
    assert all(state == "claimed" and by is not None and version == 2 for state, by, version in rows)


def test_a_players_taps_at_once_make_one_call(app, served, make_user):  # noqa: F811
    t, players = _event(make_user)
    url = f"{served}/t/{t.slug}/p/{player_links.token(players[0])}/judge"
    assert set(fire([lambda: post(player_opener(), url, {"reason": "help"}) for _ in range(12)], workers=12)) == {303}
    db.session.expire_all()
    assert db.session.scalar(sa.select(sa.func.count(JudgeCall.id))) == 1
