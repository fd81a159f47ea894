"""Forms of the top cut pages, the NRTM import and the backup restore."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectField, SelectMultipleField
from wtforms.validators import InputRequired, NumberRange
from wtforms.widgets import CheckboxInput, ListWidget

from ...core.bracket_games import SIZES
from ...models import MAX_INT
from . import IntegerField


class CreateCutForm(FlaskForm):
    kind = SelectField("Bracket", choices=[("double", "Double elimination"), ("single", "Single elimination")])
    size = SelectField("Cut to the top", coerce=int,
                       choices=[(n, str(n)) for n in sorted(set(SIZES["double"]) | set(SIZES["single"]))])
    exclude = SelectMultipleField(
        "Declined their invitation", coerce=int, choices=[],
        option_widget=CheckboxInput(), widget=ListWidget(prefix_label=False),
        description="Ticked players are skipped and the next player in the standings moves up.")

    def __init__(self, kinds: tuple, candidates: list, *args, **kwargs):
        """`candidates`: (player id, label) of the players who could be invited, best first."""
        super().__init__(*args, **kwargs)
        self.kind.choices = [c for c in self.kind.choices if c[0] in kinds]
        self.exclude.choices = candidates


class PlayerChoiceForm(FlaskForm):
    """One button: the player who won a game, or who plays Corp in it."""

    player = IntegerField(validators=[InputRequired(), NumberRange(min=1, max=MAX_INT)])


class ConfirmForm(FlaskForm):
    """A button with nothing but its CSRF token."""
