"""The tournament settings form."""
from __future__ import annotations

from datetime import date
from fractions import Fraction

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional, ValidationError

from ...core.clock import MAX_MINUTES
from ...core.pairing import DEFAULT_FORMAT, DEFAULT_SCORE_FACTOR, Format
from ...models import Tournament, max_length
from ...services.tournaments import Settings
from . import IntegerField, printable, strip
from .abr import abr_event_field

MAX_SCORE_FACTOR = 100
MAX_ROUNDS = 50
MAX_PLAYERS = 100_000
SCORE_FACTOR_MAX = max_length(Tournament.score_factor)  # the exact fraction as stored


def default_score_factor() -> str:
    """The engine's recommendation, as the exact string Tournament.score_factor stores."""
    return str(Fraction(DEFAULT_SCORE_FACTOR))


def parse_score_factor(text: str | None) -> Fraction:
    """'2', '2.5' or '5/2' -> an exact positive Fraction; ValueError with a readable message otherwise."""
    text = (text or "").strip()
    if not text or len(text) > SCORE_FACTOR_MAX:
        raise ValueError("Enter a number such as 2, 2.5 or 5/2.")
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError("Enter a number such as 2, 2.5 or 5/2.") from None
    if not 0 < value <= MAX_SCORE_FACTOR:
        raise ValueError(f"The score factor must be above 0 and at most {MAX_SCORE_FACTOR}.")
    if len(str(value)) > SCORE_FACTOR_MAX:
        raise ValueError("Use a simpler number, such as 2 or 5/2.")
    return value


class EventBasics(FlaskForm):
    """What every new event is asked first: here, and where a series makes one (forms/series.py NewEventForm)."""
    name = StringField("Name", filters=[strip],
                       validators=[DataRequired(), Length(max=max_length(Tournament.name)), printable])
    date = DateField("Date", default=date.today, validators=[InputRequired(message="Enter a date.")])
    format = SelectField("Format", choices=[SelectChoice(f.value, f.label) for f in Format],
                         default=DEFAULT_FORMAT.value)


class TournamentForm(EventBasics):
    score_factor = StringField(
        "Score factor (single-sided)", default=default_score_factor, render_kw={"maxlength": SCORE_FACTOR_MAX},
        description="Higher keeps equal scores together, lower balances Corp and Runner sides more. "
                    "The default suits most events.")
    planned_rounds = IntegerField("Planned swiss rounds", validators=[Optional(), NumberRange(min=1, max=MAX_ROUNDS)])
    round_minutes = IntegerField(
        "Round length (minutes)", default=65,
        description="What the round timer starts from; the TO can still add or remove minutes during a round.",
        validators=[Optional(), NumberRange(min=1, max=MAX_MINUTES, message=f"From 1 to {MAX_MINUTES} minutes.")])
    tiebreakers = SelectField("Tiebreakers (plain swiss)", default="magic", validate_choice=False, choices=[
        SelectChoice("magic", "Magic (OMW%, GW%, OGW%)"),
        SelectChoice("wow", "WoW TCG (opponents' W-L, their opponents', loss rounds²)"),
    ])
    power_pairing = BooleanField("Power pairing (plain swiss): pair strictly top-down within score groups")
    single_report = BooleanField("One player's report is enough (no confirmation by the opponent)",
                                 description="For small stores. Otherwise a result reported by a player stands "
                                             "once the opponent confirms it.")
    registration_open = BooleanField("Open registration: players register themselves on the event's public page")
    registration_cap = IntegerField("Player cap", validators=[Optional(), NumberRange(min=1, max=MAX_PLAYERS)],
                                    description="Registration closes when this many players are active. Leave "
                                                "empty for no cap.")
    waitlist = BooleanField("Keep a waitlist when the event is full",
                            description="With a player cap: registrations beyond it wait in line; a place freed "
                                        "before round 1 goes to the next one. The same switch as on the check-in "
                                        "page.")
    late_registration = BooleanField("Late registration: players may still register after round 1 (they join "
                                     "the next pairing)")
    abr_id = abr_event_field()
    online = BooleanField("Online event (jinteki.net): ask each player's jinteki.net username and show it in the "
                          "pairings; one report address for the whole event")
    seed_by_rating = BooleanField(
        "Seed by rating: among pairings that are equally good, pair the stronger half of a score group against "
        "the weaker half by the players' ratings from their series",
        description="It never changes who meets whom by score, by side or as a rematch; it only picks between "
                    "pairings those rules rate the same. Players without a rating count as average. "
                    "Off: those choices are left to the event's random seed.")

    @staticmethod
    def formats_with(trait: str) -> str:
        """The formats (values, space-separated) that have this trait: which of the page's settings go with which
        format (static/app.js shows them), decided here rather than in the page."""
        return " ".join(f.value for f in Format if getattr(f, trait))

    def _chosen(self) -> Format | None:
        """The chosen format; None while the field holds none (its own error says so)."""
        try:
            return Format(self.format.data)
        except ValueError:
            return None

    def validate_score_factor(self, field) -> None:
        """Checked for single-sided, the one format that uses it; elsewhere a bad entry falls back to the default."""
        try:
            field.parsed = parse_score_factor(field.data)
        except ValueError as e:
            if (fmt := self._chosen()) and fmt.sided_tables:
                raise ValidationError(str(e)) from None
            field.parsed = Fraction(default_score_factor())

    def validate_tiebreakers(self, field) -> None:
        """Checked only where it matters: the other formats use their own tiebreakers."""
        if (fmt := self._chosen()) and fmt.counts_games and field.data not in {c.value for c in field.choices}:
            raise ValidationError("Choose one of the tiebreaker systems.")

    def settings(self) -> Settings:
        """The validated settings for the service (a format change is checked there); the tiebreakers and power
        pairing only for plain swiss."""
        plain = self._chosen().counts_games
        return Settings(
            name=self.name.data, date=self.date.data, format=self.format.data,
            score_factor=str(self.score_factor.parsed), planned_rounds=self.planned_rounds.data,
            round_minutes=self.round_minutes.data, tiebreakers=self.tiebreakers.data if plain else None,
            power_pairing=bool(self.power_pairing.data) if plain else False,
            single_report=bool(self.single_report.data), registration_open=bool(self.registration_open.data),
            registration_cap=self.registration_cap.data, late_registration=bool(self.late_registration.data),
            abr_id=self.abr_id.data, online=bool(self.online.data), seed_by_rating=bool(self.seed_by_rating.data),
            waitlist=bool(self.waitlist.data))


class DeleteTournamentForm(FlaskForm):
    confirm = BooleanField("Yes, delete this tournament with all its players, rounds and results",
                           validators=[DataRequired(message="Tick the box to confirm.")])
