"""A move to a spare laptop keeps everything (issue 30): printed slips, the round in progress (backups follow
results), its clock, the staff who sign up afterwards, the rounds' proofs and each phone's "You:" line."""
from __future__ import annotations

import gzip
import hashlib
import hmac
import io
import json
import re
import time

import sqlalchemy as sa

from app.extensions import db
from app.models import PendingStaff, Round, Staff, Tournament, User, as_utc
from app.services.event_files import backup
from app.services.players import player_links
from app.services.results import slip_codes
from app.services.swiss import timer
from app.services.organizers import staff as staff_service
from tests.web.views.test_rounds import matches, pair, setup_event

SPARE_KEY = "the spare laptop's own key"


def _post(client, payload: bytes, how: str | None = "move", name: str = "backup.json.gz"):
    data = {"file": (io.BytesIO(payload), name)}
    if how:
        data["how"] = how
    return client.post("/tournaments/restore", data=data, content_type="multipart/form-data")


def _round_one(make_user, make_tournament, login, n=8):
    to, t, players = setup_event(make_user, make_tournament, login, n=n)
    assert pair(to, t, 1).status_code == 303
    assert to.post(f"/tournaments/{t.id}/rounds/1/publish").status_code == 303
    return to, t, players


def _codes(app, t) -> dict[int, str]:
    """table -> the code its printed slip holds (as the slips page draws it)."""
    rnd = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one()
    with app.test_request_context():
        return {m.table: slip_codes.code(t, rnd.slip_ref, m.table, [s.player.name for s in seats])
                for m, seats in matches(t, 1) if not m.is_bye}


def _backup(to, t) -> bytes:
    packed = to.get(f"/tournaments/{t.id}/backup.json?gzip=1")
    assert packed.status_code == 200
    return packed.data


def _lose_the_laptop(app, t, login) -> None:
    """The event is gone from here, and the server now has another SECRET_KEY (the spare laptop's)."""
    db.session.delete(db.session.get(Tournament, t.id))
    db.session.commit()
    app.config["SECRET_KEY"] = SPARE_KEY


def test_a_move_and_a_restore_keep_every_printed_slip(app, make_user, make_tournament, login):
    to, t, _ = _round_one(make_user, make_tournament, login)
    slug = t.slug
    codes = _codes(app, t)
    slips = to.get(f"/tournaments/{t.id}/rounds/1/slips").get_data(as_text=True)
    assert slips.count("<svg") == len(codes)
    packed = _backup(to, t)
    _lose_the_laptop(app, t, login)
    to = login()
    moved = _post(to, packed)
    assert moved.status_code in (302, 303), moved.get_data(as_text=True)[-800:]
    for table, code in codes.items():  # every slip printed on the dead laptop opens its table here
        page = to.get(f"/t/{slug}/s/{code}")
        assert page.status_code == 200 and f"Table {table}" in page.get_data(as_text=True), table
    first = min(codes)
    assert app.test_client().post(f"/t/{slug}/s/{codes[first]}/report", data={"result": "corp"}).status_code == 303
    t2 = db.session.scalars(sa.select(Tournament).filter_by(slug=slug)).one()
    assert [m.result for m, _ in matches(t2, 1) if m.table == first] == ["corp"]
    head, mac = codes[first].rsplit(".", 1)  # a forged first half (what proves the code genuine): no such slip
    assert to.get(f"/t/{slug}/s/{head}.{'1' if mac[0] != '1' else '2'}{mac[1:]}").status_code == 404

    # a plain restore (a copy at a new address) takes the same slips at its own address
    copy = _post(to, packed, how=None)
    assert copy.status_code in (302, 303)
    restored = db.session.scalars(sa.select(Tournament).where(Tournament.slug != slug)).one()
    second = sorted(codes)[1]
    assert to.get(f"/t/{restored.slug}/s/{codes[second]}").status_code == 200
    assert to.get(f"/t/{restored.slug}/s/{codes[second]}").status_code == 200


def test_slips_printed_before_events_had_their_own_key_keep_working_here(app, make_user, make_tournament, login):
    """The migration keeps each round's id as its slip reference: the codes printed then, signed with the site's
    key, still open their table on this server."""
    to, t, _ = _round_one(make_user, make_tournament, login)
    rnd = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one()
    rnd.slip_ref = rnd.id  # as migration f24f0a3e1506 leaves a round from before it
    db.session.commit()
    m = next(m for m, _ in matches(t, 1) if not m.is_bye)
    mac = hmac.new(app.config["SECRET_KEY"].encode(), f"match-slip:{t.id}:{t.seed}:{rnd.id}:{m.table}".encode(),
                   hashlib.sha256).hexdigest()[:32]
    assert to.get(f"/t/{t.slug}/s/{rnd.id}.{m.table}.{mac}").status_code == 200
    other = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id)).one()
    other.slip_ref = rnd.id + 1  # a round from after it: only its own key's codes
    db.session.commit()
    assert to.get(f"/t/{t.slug}/s/{rnd.id + 1}.{m.table}.{mac}").status_code == 404


def test_backups_follow_results_coalesced_and_the_move_says_what_it_holds(app, make_user, make_tournament, login,
                                                                          tmp_path):
    interval = 1.5
    app.config.update(BACKUP_DIR=str(tmp_path), BACKUP_FOLLOW_SECONDS=interval, BACKUPS_KEPT=10)
    to, t, _ = _round_one(make_user, make_tournament, login)
    folder = tmp_path / t.slug
    assert len(list(folder.iterdir())) == 1  # the publish's
    tables = [m for m, _ in matches(t, 1) if not m.is_bye]
    started = time.monotonic()
    for m in tables[:3]:  # results in quick succession: they coalesce into one write per interval
        assert to.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"}).status_code == 303
    elapsed = time.monotonic() - started
    deadline = time.monotonic() + 10
    while backup._due and time.monotonic() < deadline:
        time.sleep(0.05)  # every write owed is written
    kept = sorted(folder.iterdir())
    assert 2 <= len(kept) <= 2 + int(elapsed // interval), (elapsed, [p.name for p in kept])
    assert kept[-1].name.endswith(f"-results-v{db.session.get(Tournament, t.id).version}.json.gz")
    doc = json.loads(gzip.decompress(kept[-1].read_bytes()))
    assert sum(1 for m in doc["rounds"][0]["matches"] if m["result"] == "corp") == 3
    stamps = [p.stat().st_mtime for p in kept]
    assert all(b - a >= interval - 0.05 for a, b in zip(stamps, stamps[1:])), stamps  # the bound per event

    # the last result (after the interval) is not lost: a timer writes it
    count = len(list(folder.iterdir()))
    assert to.post(f"/tournaments/{t.id}/matches/{tables[3].id}/result", data={"result": "runner"}).status_code == 303
    deadline = time.monotonic() + 10
    while len(list(folder.iterdir())) <= count and time.monotonic() < deadline:
        time.sleep(0.05)
    newest = sorted(folder.iterdir())[-1]
    packed = newest.read_bytes()
    assert json.loads(gzip.decompress(packed))["rounds"][0]["matches"][3]["result"] == "runner"

    app.config["BACKUP_FOLLOW_SECONDS"] = 0
    _lose_the_laptop(app, t, login)
    to = login()
    moved = _post(to, packed, name=newest.name)
    assert moved.status_code in (302, 303)
    page = to.get(moved.headers["Location"]).get_data(as_text=True)
    assert f"It holds round 1: 4 of its {len(tables)} results in." in page


def test_staff_who_sign_up_after_the_move_get_their_roles_and_the_to_sees_who_is_missing(
        app, make_user, make_tournament, login):
    to, t, _ = _round_one(make_user, make_tournament, login)
    make_user("here@example.com")
    make_user("later@example.com")
    staff_service.add(t, "here@example.com", "organizer")
    staff_service.add(t, "later@example.com", "scorekeeper")
    packed = _backup(to, t)
    _lose_the_laptop(app, t, login)
    db.session.execute(sa.delete(User).where(User.email == "later@example.com"))  # no account on the spare laptop
    db.session.commit()
    to = login()
    moved = _post(to, packed)
    assert moved.status_code in (302, 303)
    flashed = to.get(moved.headers["Location"]).get_data(as_text=True)
    assert "get their role when they sign up here: later@example.com (scorekeeper)" in flashed
    t2 = db.session.scalars(sa.select(Tournament)).one()
    dashboard = to.get(f"/tournaments/{t2.id}").get_data(as_text=True)
    assert "Staff not here yet: later@example.com (scorekeeper)" in dashboard
    assert "later@example.com" in to.get(f"/tournaments/{t2.id}/staff").get_data(as_text=True)
    assert "later@example.com" in json.dumps(json.loads(gzip.decompress(_backup(to, t2)))["staff"])  # a 2nd move

    scorer = app.test_client()
    signup = scorer.post("/signup", data={"email": "Later@Example.com", "password": "correct horse",
                                          "confirm": "correct horse"}, follow_redirects=True)
    assert f"You are scorekeeper of {t2.name}" in signup.get_data(as_text=True)
    roles = {s.user.email: s.role for s in db.session.scalars(sa.select(Staff).filter_by(tournament_id=t2.id))}
    assert roles == {"here@example.com": "organizer", "later@example.com": "scorekeeper"}
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PendingStaff)) == 0
    assert scorer.get(f"/tournaments/{t2.id}/rounds/1").status_code == 200
    assert "Staff not here yet" not in to.get(f"/tournaments/{t2.id}").get_data(as_text=True)


def test_the_owner_may_stop_expecting_a_missing_staff_member(app, make_user, make_tournament, login):
    to, t, _ = _round_one(make_user, make_tournament, login)
    make_user("later@example.com")
    staff_service.add(t, "later@example.com", "organizer")
    packed = _backup(to, t)
    _lose_the_laptop(app, t, login)
    db.session.execute(sa.delete(User).where(User.email == "later@example.com"))
    db.session.commit()
    to = login()
    assert _post(to, packed).status_code in (302, 303)
    t2 = db.session.scalars(sa.select(Tournament)).one()
    row = db.session.scalars(sa.select(PendingStaff)).one()
    assert to.post(f"/tournaments/{t2.id}/staff/pending/{row.id}/delete").status_code == 303
    scorer = app.test_client()
    scorer.post("/signup", data={"email": "later@example.com", "password": "correct horse",
                                 "confirm": "correct horse"})
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Staff)) == 0


def test_the_dashboard_offers_only_backups_that_restore(app, make_user, make_tournament, login):
    to, t, _ = _round_one(make_user, make_tournament, login)
    pages = [f"/tournaments/{t.id}", f"/tournaments/{t.id}/cut"]
    links = [href for page in pages
             for href in re.findall(r'href="([^"]*backup\.json[^"]*)"', to.get(page).get_data(as_text=True))]
    assert links and all(href.endswith("gzip=1") for href in links), links


def test_a_move_keeps_the_rounds_proofs_and_each_phones_you_line(app, make_user, make_tournament, login):
    to, t, players = _round_one(make_user, make_tournament, login)
    rnd = db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, number=1)).one()
    assert rnd.certified is True
    assert "certified optimal" in to.get(f"/tournaments/{t.id}/rounds/1").get_data(as_text=True)
    phone = app.test_client()
    ann = players[0]
    assert phone.get(f"/t/{t.slug}/p/{player_links.token(ann)}").status_code == 200
    assert "you" in phone.get(f"/t/{t.slug}/me.json?page=pairings").get_json()
    timer.act(t, 1, "start")
    db.session.expire_all()
    ends = db.session.get(Round, rnd.id).timer_ends_at
    packed = _backup(to, t)
    slug = t.slug
    _lose_the_laptop(app, t, login)
    to = login()
    assert _post(to, packed).status_code in (302, 303)
    t2 = db.session.scalars(sa.select(Tournament)).one()
    assert "certified optimal" in to.get(f"/tournaments/{t2.id}/rounds/1").get_data(as_text=True)
    moved = db.session.scalars(sa.select(Round).filter_by(tournament_id=t2.id)).one()
    assert (moved.timer_state, as_utc(moved.timer_ends_at)) == ("running", as_utc(ends))  # the clock runs on
    me = phone.get(f"/t/{slug}/me.json?page=pairings").get_json()  # the same phone, never reopened its link
    assert "Ann" not in me.get("you", "") and "You:" in me.get("you", "")
    home = phone.get(f"/t/{slug}").get_data(as_text=True)
    assert "You:" in home
