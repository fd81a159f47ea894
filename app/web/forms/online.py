"""An online event's fields on the player forms (the TO's and self-registration): the jinteki.net username and
an optional Discord handle. Shown and stored only when the event is online (app/services/online/)."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length

from ...models import Player, max_length
from ...services.online.handles import HANDLE_MAX
from . import printable, strip


class HandleFields:
    """Mixed into a player form (WTForms collects fields from every base class)."""
    jinteki_name = StringField("jinteki.net username", filters=[strip],
                               validators=[Length(max=HANDLE_MAX), printable],
                               description="Your opponents invite you by it on jinteki.net.")
    discord = StringField("Discord handle (optional)", filters=[strip], validators=[Length(max=HANDLE_MAX), printable])


class ReportForm(FlaskForm):
    """The report address: who you are, and your code."""
    who = StringField("Your name or jinteki.net username", filters=[strip],
                      validators=[Length(max=max_length(Player.name)), printable])
    code = StringField("Your code", filters=[strip], validators=[Length(max=20)],
                       description="6 characters, on your registration page (the organizer has it too).")
