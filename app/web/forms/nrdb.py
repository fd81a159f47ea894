"""Forms of the NetrunnerDB sign-in's pages (app/web/views/nrdb.py): each is a button, so only the CSRF token, and
the privacy switch's choice."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import RadioField


class NrdbButtonForm(FlaskForm):
    """Link, unlink, sign out: only the CSRF token."""


class PrivacyForm(FlaskForm):
    """Whether an account's history is public."""

    public = RadioField("Who sees your history", choices=[("no", "Only you"), ("yes", "Everyone with the address")],
                        default="no")
