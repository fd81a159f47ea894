"""The history's privacy switch (app/web/forms/nrdb.py): only its two choices."""
from __future__ import annotations

from app.web.forms.nrdb import PrivacyForm


def test_only_the_two_choices(submit):
    assert submit(PrivacyForm, public="yes").public.data == "yes"
    assert not submit(PrivacyForm, public="maybe").ok
