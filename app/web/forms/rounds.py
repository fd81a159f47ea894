"""Forms of the round pages: pair, the round buttons, result entry, manual pairing edits."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import HiddenField, StringField
from wtforms.validators import AnyOf, InputRequired, Length, NumberRange, Optional, Regexp

from ...models import MAX_INT, Match, max_length
from ...core.results import MAX_PLAIN_GAMES
from ...core.pairing_edits import EDIT_ACTIONS
from . import IntegerField

MAX_ROUND = 1000


class PairForm(FlaskForm):
    """The round the TO meant to pair, so a second click of the same button cannot pair another one."""

    number = IntegerField(widget=HiddenField.widget,
                          validators=[InputRequired(), NumberRange(min=1, max=MAX_ROUND)])
    # the digest of the roll call's plan the TO saw (app/core/check_in.py PairingPlan.digest); empty: nothing changes
    plan = StringField("Plan", validators=[Optional(), Regexp(r"^[0-9a-f]{16}$", message="Unknown plan.")])


class ResultForm(FlaskForm):
    """A one-tap button (`result` = its key) or, with result=custom, typed numbers: plain swiss, games won by seat 1
    and seat 2; double-sided, seat 1's points in game 1 (as Corp) and in game 2 (as Runner)."""

    result = StringField(validators=[InputRequired(), Length(max=max_length(Match.result))])
    first = IntegerField("First", validators=[Optional(), NumberRange(min=0, max=99)])
    second = IntegerField("Second", validators=[Optional(), NumberRange(min=0, max=99)])
    drawn = IntegerField("Drawn", validators=[Optional(), NumberRange(min=0, max=MAX_PLAIN_GAMES)])
    past = StringField("Past round", validators=[Optional(), AnyOf(["1"])])  # "1": the TO chose to edit a past round
    # "1": the organizer saw what this swiss change does to the standings once the cut exists, and confirmed it
    after_cut = StringField("After the cut", validators=[Optional(), AnyOf(["1"])])


class EditPairingsForm(FlaskForm):
    action = StringField("Edit", validators=[InputRequired(), AnyOf(list(EDIT_ACTIONS), message="Unknown edit.")])
    first = IntegerField("Player", validators=[InputRequired(), NumberRange(min=1, max=MAX_INT)])
    second = IntegerField("Other player", validators=[Optional(), NumberRange(min=1, max=MAX_INT)])
    back = StringField("Back to", validators=[Optional(), Regexp(r"^t[0-9]{1,6}$")])  # the fixed table's anchor
