"""Organizer accounts (app/services/organizers/accounts.py): an address found whatever its case and spaces, one
password check, sessions by token, the public name that the NRTM files show."""
from __future__ import annotations

from app.extensions import db
from app.models import Tournament
from app.services.organizers import accounts


def test_an_address_is_found_whatever_its_case_and_spaces(make_user):
    user = make_user(email="to@example.com")
    assert accounts.find("  TO@Example.com ") == user
    assert accounts.find("other@example.com") is None


def test_authenticate_needs_the_right_password_of_a_known_address(make_user):
    user = make_user(email="to@example.com", password="correct horse")
    assert accounts.authenticate("to@example.com", "correct horse") == user
    assert accounts.authenticate("to@example.com", "wrong horse") is None
    assert accounts.authenticate("nobody@example.com", "correct horse") is None


def test_a_session_token_names_its_account_and_an_empty_one_none(make_user):
    user = make_user()
    assert accounts.for_session(user.session_token) == user
    assert accounts.for_session("") is None and accounts.for_session("forged") is None


def test_a_new_public_name_changes_the_organizers_events_versions(make_user, make_tournament):
    user = make_user()
    t = make_tournament(user)
    before = t.version
    accounts.set_public_name(user, "Ana the TO", "ana_to")
    db.session.expire_all()
    assert (user.display_name, user.nrdb_username) == ("Ana the TO", "ana_to")
    assert db.session.get(Tournament, t.id).version > before
