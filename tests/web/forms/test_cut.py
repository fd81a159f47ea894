"""The cut's forms (app/web/forms/cut.py): only the brackets the field allows, only the invitable players."""
from __future__ import annotations

from app.web.forms.cut import CreateCutForm, PlayerChoiceForm


def test_create_offers_only_the_given_kinds_and_candidates(submit):
    form = submit(CreateCutForm, ("single",), [(7, "Ana"), (9, "Bo")], kind="single", size="4", exclude="9")
    assert form.ok and form.exclude.data == [9] and form.size.data == 4
    assert [c[0] for c in form.kind.choices] == ["single"]


def test_create_refuses_a_kind_or_player_not_offered(submit):
    assert not submit(CreateCutForm, ("single",), [(7, "Ana")], kind="double", size="4").ok
    assert not submit(CreateCutForm, ("single",), [(7, "Ana")], kind="single", size="4", exclude="8").ok


def test_player_choice_is_a_positive_id(submit):
    assert submit(PlayerChoiceForm, player="3").ok
    assert not submit(PlayerChoiceForm, player="0").ok
    assert not submit(PlayerChoiceForm).ok
