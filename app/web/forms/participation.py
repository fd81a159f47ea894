"""Forms of the player's page and the TO's player-link page (Flask-WTF: players' POSTs carry CSRF too)."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, Length, NumberRange

from ...models import MAX_INT, Match, max_length
from . import IntegerField


class PlayerReportForm(FlaskForm):
    """A result button on the player's page: the table it was shown for, and the button's key."""

    match = IntegerField("Table", validators=[InputRequired(), NumberRange(min=1, max=MAX_INT)])
    result = StringField("Result", validators=[InputRequired(), Length(max=max_length(Match.result))])


class ConfirmForm(FlaskForm):
    """A one-button form (drop, new link): only the CSRF token."""


class SlipReportForm(FlaskForm):
    """A result button on a match slip's page: the button's key (the code in the URL names the table)."""

    result = StringField("Result", validators=[InputRequired(), Length(max=max_length(Match.result))])
