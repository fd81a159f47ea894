"""Streaming forms: the event's stream link, a round's featured table."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import RadioField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from ...models import Tournament, max_length
from . import IntegerField, strip

URL_MAX = max_length(Tournament.stream_url)


class StreamForm(FlaskForm):
    stream_url = StringField("Stream address", filters=[strip], validators=[Length(max=URL_MAX)],
                             description="Shown on the event's page, e.g. https://twitch.tv/yourchannel. Leave "
                                         "empty for none.")


class FeatureForm(FlaskForm):
    table = IntegerField("Featured table", validators=[Optional(), NumberRange(min=1, max=100_000)],
                         description="Leave empty to feature none.")


class CoverageForm(FlaskForm):
    """A player's own coverage choice, from their entry page (any time, round 1 paired or not)."""
    coverage = RadioField("Stream coverage", choices=[("off", "Don't show me on stream"),
                                                      ("on", "The organizer may show my table on stream")],
                          validators=[InputRequired(message="Choose whether you may be shown on stream.")])
