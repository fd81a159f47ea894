"""The form that picks one of the signed-in player's NetrunnerDB decks: the deck's NetrunnerDB id and the side it
is for (each deck of the picker's list is one such form, a button)."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange

from ...core.decklists import Side
from . import IntegerField


class PickDeckForm(FlaskForm):
    side = StringField("Side", validators=[AnyOf([s.value for s in Side],
                                                 message="A list is for the Corp or the Runner side.")])
    deck = IntegerField("Deck", validators=[InputRequired(message="Pick one of your decks."),
                                            NumberRange(min=1, max=2**63 - 1,
                                                        message="That is not one of your NetrunnerDB decks.")])
