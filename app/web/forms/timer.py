"""The round timer's buttons: start (with the round length), pause, resume, add or remove minutes, call time."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField
from wtforms.validators import InputRequired, NumberRange, Optional

from ...core.clock import MAX_MINUTES
from . import IntegerField

BACK = ("timer", "round")  # the page the TO pressed the button on, to return to


class TimerForm(FlaskForm):
    """`minutes`: the length for start (the event's default when empty), the signed change for adjust."""

    minutes = IntegerField("Minutes", validators=[Optional(), NumberRange(min=-MAX_MINUTES, max=MAX_MINUTES,
                                                                          message=f"Between -{MAX_MINUTES} and "
                                                                                  f"{MAX_MINUTES} minutes.")])
    back = SelectField(choices=BACK, default="timer", validate_choice=False)


class AdjustForm(TimerForm):
    minutes = IntegerField("Minutes", validators=[
        InputRequired(message="How many minutes to add (or, negative, to remove)?"),
        NumberRange(min=-MAX_MINUTES, max=MAX_MINUTES, message=f"Between -{MAX_MINUTES} and {MAX_MINUTES} minutes.")])
