"""A series' forms: its settings (the points rules), its events, its staff, the TO's decisions about players."""
from __future__ import annotations


from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, FieldList, HiddenField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ...core.series import TIE_BREAKS, UnknownTieBreak
from ...core.series.tie_breaks import named
from ...models import Series, SeriesEvent, SeriesKind, SeriesPlayer, SeriesRejection, max_length
from ...services.series.manage import Settings, stored_tie_breaks
from .tournaments import EventBasics
from . import IntegerField, printable, strip
from .auth import _email

TIE_BREAK_SLOTS = len(TIE_BREAKS)
TIER_MAX = max_length(SeriesEvent.tier)


class SeriesForm(FlaskForm):
    name = StringField("Name", filters=[strip],
                       validators=[DataRequired(), Length(max=max_length(Series.name)), printable])
    kind = SelectField("Kind", default=SeriesKind.LEAGUE.value,
                       choices=[SelectChoice(k.value, k.label) for k in SeriesKind])
    points_table = StringField(
        "Points per placing", default="1st 10, 2nd 8, 3rd-4th 6, 5th-8th 4", filters=[strip],
        validators=[DataRequired(), Length(max=max_length(Series.points_table)), printable],
        description="Each placing or range of placings with its points, e.g. 1st 10, 2nd 8, 3rd-4th 6. Points may "
                    "be decimals (2.5). An event's placing is its final one: the cut's, then the swiss rank.")
    participation = StringField("Participation points", default="0", filters=[strip],
                                validators=[Length(max=max_length(Series.participation)), printable],
                                description="Every player placed in an event gets these on top (never scaled).")
    best_n = IntegerField("Results that count", validators=[Optional(), NumberRange(min=1, max=1000)],
                          description="Each player's best N events count; leave empty to count every event.")
    field_reference = IntegerField(
        "Scale by field size", validators=[Optional(), NumberRange(min=1, max=100_000)],
        description="A field size whose points stand as written: an event of twice as many players gives twice "
                    "the placing points. Leave empty not to scale.")
    tiers = StringField("Event tiers", filters=[strip], validators=[Length(max=max_length(Series.tiers)), printable],
                        description="Names and multipliers, e.g. Store: 1, Regional: 2, National: 3; then give each "
                                    "event its tier. An event without one counts once.")
    tie_breaks = FieldList(SelectField(choices=[SelectChoice("", "—")] +
                                       [SelectChoice(tb.name, tb.label) for tb in TIE_BREAKS.values()],
                                       validate_choice=False),  # validate_tie_breaks: the registry's words
                           min_entries=TIE_BREAK_SLOTS, max_entries=TIE_BREAK_SLOTS)
    invite_top = IntegerField("Invite the top", default=0, validators=[Optional(), NumberRange(min=0, max=1000)],
                              description="Players of the standings marked invited (0: none).")
    invite_winners = BooleanField("Invite each finished event's winner")
    link_identical = BooleanField(
        "Link identical names by themselves",
        description="Entries whose names are the same but for case, accents and spacing count as one player at "
                    "once, in every event of the series (never when two NetrunnerDB accounts share the name). "
                    "Each link is listed on the players page, where you can keep any two apart.")

    def validate_tie_breaks(self, field) -> None:
        try:
            named([entry.data for entry in field.entries if entry.data])
        except UnknownTieBreak as e:
            raise ValidationError(str(e)) from None

    def settings(self) -> Settings:
        return Settings(
            name=self.name.data, kind=self.kind.data, points_table=self.points_table.data,
            participation=self.participation.data or "0", best_n=self.best_n.data,
            field_reference=self.field_reference.data, tiers=self.tiers.data or "",
            tie_breaks=tuple(entry.data for entry in self.tie_breaks.entries if entry.data),
            invite_top=self.invite_top.data or 0, invite_winners=bool(self.invite_winners.data),
            link_identical=bool(self.link_identical.data))

    def fill(self, series) -> None:
        """The series' stored settings, for the edit page; a stored tie-break SASS does not know is left out and
        said under the tie-breaks, so the TO sees why the standings are refused and chooses again."""
        for name in ("name", "kind", "points_table", "participation", "best_n", "field_reference", "tiers",
                     "invite_top", "invite_winners", "link_identical"):
            getattr(self, name).data = getattr(series, name)
        stored = stored_tie_breaks(series)
        chosen = [t for t in stored if t in TIE_BREAKS]
        self.tie_breaks.errors = [f"The stored tie-break {t!r} is not one SASS knows: choose the tie-breaks again."
                                  for t in stored if t not in TIE_BREAKS]
        for i, entry in enumerate(self.tie_breaks.entries):
            entry.data = chosen[i] if i < len(chosen) else ""


class AddEventForm(FlaskForm):
    event = SelectField("Event", coerce=int, validate_choice=False, validators=[InputRequired("Choose an event.")])
    tier = StringField("Tier", filters=[strip], validators=[Length(max=TIER_MAX), printable])


class NewEventForm(EventBasics):
    tier = StringField("Tier", filters=[strip], validators=[Length(max=TIER_MAX), printable])


class TierForm(FlaskForm):
    tier = StringField("Tier", filters=[strip], validators=[Length(max=TIER_MAX), printable])


class MatchForm(FlaskForm):
    """A suggested match: the entry, and the series player it may be."""
    player = IntegerField(validators=[InputRequired()])
    target = HiddenField(validators=[DataRequired(), Length(max=max_length(SeriesRejection.target))])


class UndoForm(FlaskForm):
    player = IntegerField(validators=[InputRequired()])


class LinkAllForm(FlaskForm):
    """"Link all identical names"; `event`: the event's dashboard to go back to (its id), else the players page."""
    event = IntegerField(validators=[Optional()])


class NameForm(FlaskForm):
    name = StringField("Public name", filters=[strip],
                       validators=[Length(max=max_length(SeriesPlayer.name)), printable],
                       description="Empty: their NetrunnerDB username, else their most used spelling.")


class DecisionForm(FlaskForm):
    holds_invitation = BooleanField("Holds an invitation from elsewhere")
    declined = BooleanField("Declined the invitation")
    note = StringField("Private note", filters=[strip],
                       validators=[Length(max=max_length(SeriesPlayer.note)), printable])


class SeriesStaffForm(FlaskForm):
    email = EmailField("Organizer's account e-mail", filters=[strip], validators=_email,
                       description="They must have signed up already. Staff manage the series' rules, events, "
                                   "players and invitations; only you delete it or change its staff.")


class ConfirmDeleteForm(FlaskForm):
    confirm = BooleanField("Yes, delete this series (its events stay)", validators=[DataRequired()])


class CsrfForm(FlaskForm):
    """CSRF only."""
