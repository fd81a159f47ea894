"""Carrying an event to another machine: compact (gzip) backups, and a restore that moves the event, keeping its
address, its player links (printed QR codes keep working) and its staff."""
from __future__ import annotations

import gzip
import io
import json

import pytest
import sqlalchemy as sa

from app.extensions import db
from app.models import Player, Staff, Tournament
from app.services.event_files import restore as restore_service
from app.services.event_files import event_writer
from app.services.players import player_links
from app.services.organizers import staff as staff_service
from app.services.event_files.jsonfile import MAX_UNPACKED
from bench.bench_uploads import make_backup
from cut_helpers import add_players, add_round
from tests.web.views.test_rounds import matches, pair, setup_event


def _post(client, payload: bytes, how: str | None = None, name: str = "backup.json"):
    data = {"file": (io.BytesIO(payload), name)}
    if how:
        data["how"] = how
    return client.post("/tournaments/restore", data=data, content_type="multipart/form-data")


def _event(make_user, make_tournament):
    owner = make_user()
    t = make_tournament(owner, name="Moving Open")
    a, b, c, d = add_players(t, ["Ann", "Ben", "Cat", "Dan"])
    add_round(t, 1, [(a, b, "corp"), (c, d, None)])
    return owner, t


def test_a_moved_event_keeps_its_address_links_and_staff(app, client, make_user, make_tournament, login):
    owner, t = _event(make_user, make_tournament)
    make_user("scorer@example.com")
    staff_service.add(t, "scorer@example.com", "scorekeeper")
    make_user("gone@example.com")
    staff_service.add(t, "gone@example.com", "organizer")
    login()
    packed = client.get(f"/tournaments/{t.id}/backup.json?gzip=1")
    assert packed.status_code == 200 and packed.mimetype == "application/gzip"
    assert packed.headers["Content-Disposition"].endswith('.json.gz"')
    assert json.loads(gzip.decompress(packed.data)) == json.loads(client.get(f"/tournaments/{t.id}/backup.json").data)
    slug = t.slug
    links = {p.name: f"/t/{slug}/p/{player_links.token(p)}" for p in t.players}  # on the QR codes already printed
    assert client.get(links["Ann"]).status_code == 200

    # The laptop dies. A spare one: another key, and not every staff account exists there.
    db.session.delete(t)
    db.session.commit()
    db.session.execute(sa.delete(Staff))
    db.session.execute(sa.text("DELETE FROM users WHERE email = 'gone@example.com'"))
    db.session.commit()
    app.config["SECRET_KEY"] = "the spare laptop's own key"
    login()
    response = _post(client, packed.data, "move", "sass-backup.json.gz")
    assert response.status_code in (302, 303), response.get_data(as_text=True)[-1500:]
    moved = db.session.scalars(sa.select(Tournament)).one()
    assert (moved.slug, moved.name) == (slug, "Moving Open")
    for name, old in links.items():  # every old QR code opens that player's own page
        page = client.get(old)
        assert page.status_code == 200 and name in page.get_data(as_text=True), name
    assert client.get(f"/t/{slug}/p/1.{'0' * 32}").status_code == 404
    roles = {s.user.email: s.role for s in db.session.scalars(sa.select(Staff).filter_by(tournament_id=moved.id))}
    assert roles == {"scorer@example.com": "scorekeeper"}  # the owner restored it; gone@ has no account here

    # New links work too; a reissued link ends the old QR code's power.
    ann = db.session.scalars(sa.select(Player).filter_by(tournament_id=moved.id, name="Ann")).one()
    assert client.get(f"/t/{slug}/p/{player_links.token(ann)}").status_code == 200
    player_links.reissue(ann)
    db.session.commit()
    assert client.get(links["Ann"]).status_code == 404

    # Moved once, it cannot be moved in again over itself: the address is taken. Nothing is written.
    again = _post(client, packed.data, "move")
    assert again.status_code == 400 and f"/t/{slug} is taken" in again.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 1
    copy = _post(client, packed.data)  # as a new event it still restores
    assert copy.status_code in (302, 303)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 2


def test_an_old_backup_cannot_be_moved_and_says_so(client, make_user, make_tournament, login):
    owner, t = _event(make_user, make_tournament)
    login()
    doc = json.loads(client.get(f"/tournaments/{t.id}/backup.json").data)
    doc["version"] = 3
    for p in doc["players"]:
        p.pop("link")
    db.session.delete(t)
    db.session.commit()
    response = _post(client, json.dumps(doc).encode(), "move")
    assert response.status_code == 400 and "restore it as a new event" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 0


@pytest.mark.slow
def test_the_biggest_event_restores_from_its_own_compact_backup(app, client, make_user, login):
    """10,000 players x 10 rounds, the largest event the README promises a restore of: as JSON far over the 2 MB
    upload limit; about 1.1 MB gzipped (14.5 MB unpacked, within the 32 MB allowed)."""
    players, rounds = 10000, 10
    owner = make_user()
    login()
    plan = restore_service.read(make_backup(players, rounds))
    t = event_writer.write(plan, owner, "backup")
    assert len(client.get(f"/tournaments/{t.id}/backup.json").data) > app.config["MAX_CONTENT_LENGTH"]
    packed = client.get(f"/tournaments/{t.id}/backup.json?gzip=1").data
    assert len(packed) < app.config["MAX_CONTENT_LENGTH"]
    response = _post(client, packed, name="big.json.gz")
    assert response.status_code in (302, 303), response.get_data(as_text=True)[-1500:]
    copy = db.session.scalars(sa.select(Tournament).where(Tournament.id != t.id)).one()
    count = db.session.scalar(sa.select(sa.func.count()).select_from(Player).filter_by(tournament_id=copy.id))
    assert count == players and [r.number for r in copy.rounds] == list(range(1, rounds + 1))


def test_a_gzip_bomb_or_a_broken_gzip_is_refused(client, make_user, login):
    make_user()
    login()
    bomb = gzip.compress(b" " * (MAX_UNPACKED + 1))
    response = _post(client, bomb)
    assert response.status_code == 400 and "unpacks to more than 32 MB" in response.get_data(as_text=True)
    cut = gzip.compress(b'{"kind": "sass-backup"}')[:-6]
    response = _post(client, cut)
    assert response.status_code == 400 and "gzip" in response.get_data(as_text=True)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Tournament)) == 0


def test_every_publish_keeps_a_backup_and_the_newest_moves_the_event(app, make_user, make_tournament, login,
                                                                      tmp_path, caplog):
    app.config.update(BACKUP_DIR=str(tmp_path), BACKUPS_KEPT=2)
    to, t, _ = setup_event(make_user, make_tournament, login, n=6)
    slug = t.slug
    for number in (1, 2, 3):
        assert pair(to, t, number).status_code == 303
        for m, seats in matches(t, number):  # every table's result, so the next round can be paired
            if not m.is_bye:
                assert to.post(f"/tournaments/{t.id}/matches/{m.id}/result", data={"result": "corp"}).status_code < 400
        assert to.post(f"/tournaments/{t.id}/rounds/{number}/publish").status_code == 303
    kept = sorted((tmp_path / slug).iterdir())
    assert [p.name.split("-", 1)[1].rsplit("-v", 1)[0] for p in kept] == [f"{slug}-round2", f"{slug}-round3"]
    assert kept[-1].name.endswith(f"-v{db.session.get(Tournament, t.id).version}.json.gz")  # its event version
    newest = json.loads(gzip.decompress(kept[-1].read_bytes()))
    assert [r["number"] for r in newest["rounds"] if r["published"]] == [1, 2, 3]

    # a folder that cannot be written: the publish still happens, the failure is logged
    app.config["BACKUP_DIR"] = str(kept[-1])  # a file, not a folder
    assert pair(to, t, 4).status_code == 303
    assert to.post(f"/tournaments/{t.id}/rounds/4/publish").status_code == 303
    assert all(r.published for r in db.session.get(Tournament, t.id).rounds)
    assert "automatic backup of event" in caplog.text

    db.session.delete(db.session.get(Tournament, t.id))
    db.session.commit()
    response = _post(to, kept[-1].read_bytes(), "move", kept[-1].name)
    assert response.status_code in (302, 303), response.get_data(as_text=True)[-1500:]
    moved = db.session.scalars(sa.select(Tournament)).one()
    assert moved.slug == slug and len(moved.rounds) == 3
