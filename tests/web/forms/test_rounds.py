"""The round forms (app/web/forms/rounds.py): the round meant, a known plan digest, known edits."""
from __future__ import annotations

from app.web.forms.rounds import MAX_ROUND, EditPairingsForm, PairForm, ResultForm


def test_pair_names_a_round_and_optionally_a_plan(submit):
    assert submit(PairForm, number="2", plan="0123456789abcdef").ok
    assert not submit(PairForm, number="2", plan="not-a-digest").ok
    assert not submit(PairForm, number=str(MAX_ROUND + 1)).ok


def test_custom_result_numbers_are_bounded(submit):
    assert submit(ResultForm, result="custom", first="2", second="1").ok
    assert not submit(ResultForm, result="custom", first="100").ok
    assert not submit(ResultForm, result="win", past="yes").ok


def test_an_edit_is_one_of_the_known_actions(submit):
    form = submit(EditPairingsForm, action="teleport", first="1")
    assert form.action.errors == ["Unknown edit."]
