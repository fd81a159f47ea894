"""Forms of penalties and deck checks: a judge's penalty (player, round, infraction, penalty, notes; a
double-sided game loss's game), a random deck check's draw, and marking one player's lists checked."""
from __future__ import annotations

import re

from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ...core.deck_checks import MAX_PICK, MAX_TOP_TABLES, Pool
from ...core.penalties import NOTES_LENGTH, Kind, grouped
from ...models.penalties import VOID_REASON_LENGTH
from . import IntegerField

NOT_A_LINE_BREAK = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
OTHER_GAME = [("", "not played yet / as entered"), ("win", "won by this player"), ("tie", "tied"),
              ("loss", "lost by this player")]


def _notes(value):
    """Line breaks kept as one kind (\\n), surrounding spaces dropped."""
    return value.replace("\r\n", "\n").replace("\r", "\n").strip() if isinstance(value, str) else value


def _no_control(form, field) -> None:
    if isinstance(field.data, str) and NOT_A_LINE_BREAK.search(field.data):
        raise ValidationError("Remove the control characters (tabs, NUL...); line breaks are fine.")


def _round_number(value):
    return int(value) if value not in (None, "") else None


class PenaltyForm(FlaskForm):
    player = SelectField("Player", coerce=int, validators=[InputRequired("Choose the player.")])
    round = SelectField("Round", coerce=_round_number, validate_choice=True)
    infraction = SelectField("Infraction", choices=[SelectChoice(i.value, i.label, optgroup=c.label)
                                                    for c, infractions in grouped() for i in infractions],
                             validators=[DataRequired("Choose the infraction.")])
    kind = RadioField("Penalty", choices=[(k.value, k.label) for k in Kind], default=Kind.WARNING.value,
                      validators=[DataRequired("Choose the penalty.")])
    game = SelectField("Which game (double-sided game loss)", coerce=int, default=0,
                       choices=[(0, "the round"), (1, "game 1"), (2, "game 2")])
    other_game = SelectField("The other game, if the result is not in yet", choices=OTHER_GAME, default="")
    notes = TextAreaField("Notes", filters=[_notes], validators=[Optional(), Length(max=NOTES_LENGTH), _no_control],
                          description="What happened, what the players said, anything the head judge should know.")
    past = BooleanField("Change a finished round's result (later rounds keep their pairings)")


class VoidForm(FlaskForm):
    """Void a mistaken penalty: why, in a line (the log shows it)."""

    reason = StringField("Why void it", filters=[_notes],
                         validators=[DataRequired("Say why the penalty is voided."), Length(max=VOID_REASON_LENGTH),
                                     _no_control])

    def validate_reason(self, field) -> None:
        if isinstance(field.data, str) and "\n" in field.data:
            raise ValidationError("One line, please.")


class DrawForm(FlaskForm):
    count = IntegerField("How many players", default=2,
                         validators=[InputRequired("Say how many players."), NumberRange(1, MAX_PICK)])
    pool = RadioField("Pick from", choices=[(p.value, f"{p.label.capitalize()}"
                                             + (" (fewer picks for players already checked)"
                                                if p is Pool.FIELD else ""))
                                            for p in Pool], default=Pool.FIELD.value,
                      validators=[DataRequired("Choose where to pick from.")])
    top_tables = IntegerField("Top tables (when picking from them)", default=4,
                              validators=[InputRequired("Say how many top tables."), NumberRange(1, MAX_TOP_TABLES)])


class CheckForm(FlaskForm):
    """Mark one player's lists checked (the URL names the player; `draw` the draw that picked them, if one did)."""

    draw = HiddenField()
