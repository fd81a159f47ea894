"""Account forms (app/web/forms/auth.py): a plausible address, a long enough password typed twice the same."""
from __future__ import annotations

from app.web.forms.auth import MIN_PASSWORD, ProfileForm, SignupForm


def test_signup_takes_a_trimmed_address_and_a_repeated_password(submit):
    form = submit(SignupForm, email="  to@example.com ", password="x" * MIN_PASSWORD, confirm="x" * MIN_PASSWORD)
    assert form.ok and form.email.data == "to@example.com"


def test_signup_refuses_a_short_password_a_typo_and_a_non_address(submit):
    form = submit(SignupForm, email="to@example", password="short", confirm="shorts")
    assert not form.ok
    assert form.email.errors == ["Enter an email address."]
    assert f"at least {MIN_PASSWORD} characters" in form.password.errors[0]
    assert form.confirm.errors == ["The passwords differ."]


def test_profile_username_is_letters_digits_dots_dashes(submit):
    assert submit(ProfileForm, display_name="Ana", nrdb_username="ana.b-1_x").ok
    form = submit(ProfileForm, display_name="Ana", nrdb_username="ana b")
    assert not form.ok and "Letters, digits" in form.nrdb_username.errors[0]
