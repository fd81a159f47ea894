"""Player forms: one player, and a CSV list."""
from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import BooleanField, StringField, TextAreaField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ...models import Player, max_length
from . import IntegerField, printable, strip
from .online import HandleFields

NAME_MAX = max_length(Player.name)
MAX_TABLE = 100_000


PRONOUNS_MAX = max_length(Player.pronouns)


class EntryForm(HandleFields, FlaskForm):
    """What a player tells about themselves: the TO's form and self-registration share it (an online event's
    handles too, forms/online.py)."""
    name = StringField("Name", filters=[strip], validators=[DataRequired(), Length(max=NAME_MAX), printable])
    corp_identity = StringField("Corp identity", filters=[strip], validators=[Length(max=NAME_MAX), printable])
    runner_identity = StringField("Runner identity", filters=[strip], validators=[Length(max=NAME_MAX), printable])
    pronouns = StringField("Pronouns (optional)", filters=[strip], validators=[Length(max=PRONOUNS_MAX), printable],
                           description="Shown beside the name, e.g. she/her, they/them.")
    no_coverage = BooleanField("Don't show me on stream",
                               description="The organizer will never feature your table on the event's stream.")


class PlayerForm(EntryForm):
    no_coverage = BooleanField("No stream coverage", description="The player opted out: never featured on stream.")
    first_round_bye = BooleanField("Bye in round 1", description="For example a prize from a qualifier.")
    fixed_table = IntegerField("Fixed table", validators=[Optional(), NumberRange(min=1, max=MAX_TABLE)],
                               description="Always seat this player at this table (accessibility). Leave empty "
                                           "for none.")


class ImportForm(FlaskForm):
    file = FileField("CSV file")
    text = TextAreaField("…or paste the list", description="One player a line: name, corp identity, runner "
                                                            "identity, pronouns, and in an online event jinteki.net "
                                                            "username and Discord. A header row is optional.")
