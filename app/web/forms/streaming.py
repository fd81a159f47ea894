"""Streaming forms: the event's stream link, a round's featured table."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import Length, NumberRange, Optional

from ...models import Tournament
from . import IntegerField, strip

URL_MAX = Tournament.__table__.c.stream_url.type.length


class StreamForm(FlaskForm):
    stream_url = StringField("Stream address", filters=[strip], validators=[Length(max=URL_MAX)],
                             description="Shown on the event's page, e.g. https://twitch.tv/yourchannel. Leave "
                                         "empty for none.")


class FeatureForm(FlaskForm):
    table = IntegerField("Featured table", validators=[Optional(), NumberRange(min=1, max=100_000)],
                         description="Leave empty to feature none.")
