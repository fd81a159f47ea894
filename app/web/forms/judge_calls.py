"""Forms of judge calls: the player's call (an optional one-line reason) and the staff's one-button steps."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length, Optional

from ...services.judge_calls import REASON_LENGTH
from . import printable, strip


REASON_LABEL = "What is it about? (optional)"  # the player's box shows it without building the form


class CallForm(FlaskForm):
    reason = StringField(REASON_LABEL, filters=[strip],
                         validators=[Optional(), Length(max=REASON_LENGTH), printable])


class StepForm(FlaskForm):
    """Claim, resolve, cancel: only the CSRF token (the URL names the call)."""
