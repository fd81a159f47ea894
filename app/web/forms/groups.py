"""Event group forms: a group's name and public address, an event to add, a move in the list."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, InputRequired, Length, Optional

from ...models import EventGroup, max_length
from . import IntegerField, printable, strip

NAME_MAX = max_length(EventGroup.name)
SLUG_MAX = max_length(EventGroup.slug)


class GroupForm(FlaskForm):
    name = StringField("Name", filters=[strip], validators=[DataRequired(), Length(max=NAME_MAX), printable],
                       description="What players see, e.g. Worlds 2026 weekend.")
    slug = StringField("Public address", filters=[strip], validators=[Optional(), Length(max=SLUG_MAX)],
                       description="The end of the page's address, /g/…: letters, digits and dashes, e.g. "
                                   "worlds-2026. Changing it breaks printed QR codes.")


class AddEventForm(FlaskForm):
    tournament = IntegerField("Event", validators=[InputRequired(message="Choose one of your events.")])


class ButtonForm(FlaskForm):
    """CSRF only: take an event out, delete the group."""
