"""Forms of check-in: the TO's settings, and the one-button forms (a tick, an undo, the no-show drop, a player's own
check-in) that carry only their CSRF token."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField
from wtforms.validators import NumberRange, Optional

from ...core.check_in import MAX_CLOSE_MINUTES, NoShows
from . import IntegerField


class SettingsForm(FlaskForm):
    enabled = BooleanField("Players check in before the round",
                           description="On their phone (their player link) or ticked off by the staff on this page.")
    closes_in = IntegerField("Phones check in for another … minutes",
                             validators=[Optional(), NumberRange(min=0, max=MAX_CLOSE_MINUTES)],
                             description="The deadline, counted from now (0: phones stop now). Empty: until the "
                                         "round is paired. The staff can still tick late arrivals.")
    no_shows = RadioField("After the deadline, players not checked in are", default=NoShows.DROP.value,
                          choices=[(NoShows.DROP.value, "dropped when the round is paired"),
                                   (NoShows.DECIDE.value, "left in: I decide (\"Drop the no-shows now\" drops them)")])
    waitlist = BooleanField("Keep a waitlist when the event is full",
                            description="With a player cap: registrations beyond it wait in line; a place freed "
                                        "before round 1 goes to the next one, whose phone says so.")


class ButtonForm(FlaskForm):
    """A one-button form: only the CSRF token (the URL names the player)."""
