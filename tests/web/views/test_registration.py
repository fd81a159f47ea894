"""Self-registration and a player's own entry through the pages: a refusal is shown beside the field it is about
and writes nothing; the entry is editable from the phone that registered it, and only from there."""
from __future__ import annotations

import re

import sqlalchemy as sa

from app.extensions import db
from app.models import Player


def _names(t) -> list[str]:
    db.session.expire_all()
    return sorted(db.session.scalars(sa.select(Player.name).filter_by(tournament_id=t.id)))


def _name_field_error(page: str) -> str:
    """The errors in the name's own field (the form marks it has-error and writes them under the input)."""
    match = re.search(r'<div class="field has-error">\s*<label for="name">.*?</div>', page, re.S)
    return " ".join(re.findall(r'<p class="error">(.*?)</p>', match.group(0))) if match else ""


def test_a_taken_name_is_refused_beside_the_name_and_writes_nothing(app, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=True)
    assert app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ana Lee"}).status_code == 303
    r = app.test_client().post(f"/t/{t.slug}/register", data={"name": "ana lee"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422
    assert "Ana Lee" in _name_field_error(page) and "already in this tournament" in _name_field_error(page)
    assert _names(t) == ["Ana Lee"]


def test_the_registering_phone_edits_its_entry_and_a_clash_changes_nothing(app, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=True)
    phone = app.test_client()
    assert phone.post(f"/t/{t.slug}/register", data={"name": "Ana"}).status_code == 303
    assert app.test_client().post(f"/t/{t.slug}/register", data={"name": "Ben"}).status_code == 303
    assert phone.post(f"/t/{t.slug}/registration", data={"name": "Ana Lee"}).status_code == 303
    assert _names(t) == ["Ana Lee", "Ben"]
    clash = phone.post(f"/t/{t.slug}/registration", data={"name": "BEN"})
    assert clash.status_code == 422 and "Ben" in _name_field_error(clash.get_data(as_text=True))
    assert _names(t) == ["Ana Lee", "Ben"]


def test_a_phone_without_an_entry_is_told_to_open_its_link(app, make_user, make_tournament):
    t = make_tournament(make_user(), registration_open=True)
    r = app.test_client().get(f"/t/{t.slug}/registration")
    assert r.status_code == 403 and "Open your player link" in r.get_data(as_text=True)
