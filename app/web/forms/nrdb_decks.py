"""The form that fetches a deck from NetrunnerDB: its address (or id) and the side it is for."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import AnyOf, InputRequired, Length

from ...core.decklists import Side
from . import printable, strip

ADDRESS_MAX = 300  # a NetrunnerDB deck's address is about 80 characters


class NrdbDeckForm(FlaskForm):
    side = StringField("Side", validators=[AnyOf([s.value for s in Side],
                                                 message="A list is for the Corp or the Runner side.")])
    address = StringField("Or fetch it from NetrunnerDB", filters=[strip],
                          validators=[InputRequired(message="Paste the address of your deck on NetrunnerDB."),
                                      Length(max=ADDRESS_MAX, message="That is too long for a NetrunnerDB address."),
                                      printable],
                          description="The address of a NetrunnerDB deck or decklist (or its id); the deck's owner "
                                      "must publish it or share their decks.")
