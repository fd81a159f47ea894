"""Decklist forms: a pasted list (the player's own, or any player's by the TO), the event's decklist settings, and
the TO's one-button unlock."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, RadioField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import AnyOf, InputRequired, ValidationError

from ...core.decklists import Side, Visibility, formats, restriction_choices


def no_nul(form, field) -> None:
    """A NUL is in no decklist, and PostgreSQL refuses it in text."""
    if isinstance(field.data, str) and "\x00" in field.data:
        raise ValidationError("The list contains a NUL character; paste it again as plain text.")


class DecklistForm(FlaskForm):
    side = StringField("Side", validators=[AnyOf([s.value for s in Side],
                                                 message="A list is for the Corp or the Runner side.")])
    text = TextAreaField("Decklist", validators=[InputRequired(message="Paste your decklist."), no_nul],
                         description="Paste the list as NetrunnerDB or jinteki.net exports it, or one card per "
                                     "line: “3x Hedge Fund”. Name your identity on a line of its own.")


class DecklistSettingsForm(FlaskForm):
    decklists = BooleanField("Collect decklists: players submit a Corp and a Runner list through their link")
    card_format = SelectField("Card format", choices=[SelectChoice(fid, name) for fid, name in formats()])
    restriction = SelectField("Restriction list in force", validate_choice=False,
                              description="Empty: the list in force on the event's date. The card pool is "
                                          "always the one in force on the event's date.")
    visibility = RadioField("Who sees the lists", choices=[SelectChoice(v.value, v.label) for v in Visibility],
                            default=Visibility.CLOSED.value)

    def set_restrictions(self) -> None:
        """The lists of every format (the page shows those of the chosen one); the service checks the pair."""
        self.restriction.choices = {"Default": [SelectChoice("", "The list in force on the event's date")]}
        for fid, name in formats():
            self.restriction.choices[name] = [SelectChoice(rid, label) for rid, label in restriction_choices(fid)]


class ActionForm(FlaskForm):
    """A one-button form (unlock): only the CSRF token."""
