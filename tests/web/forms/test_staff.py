"""The staff form (app/web/forms/staff.py): an account's address and one of the two roles."""
from __future__ import annotations

from app.web.forms.staff import StaffForm


def test_an_address_and_a_role(submit):
    form = submit(StaffForm, email=" helper@example.com", role="organizer")
    assert form.ok and form.email.data == "helper@example.com"


def test_unknown_role_or_address_is_refused(submit):
    assert not submit(StaffForm, email="helper@example.com", role="owner").ok
    assert not submit(StaffForm, email="helper", role="scorekeeper").ok
