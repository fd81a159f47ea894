"""The owner's staff form: another organizer's account, by e-mail, with a role."""
from flask_wtf import FlaskForm
from wtforms import EmailField, RadioField
from wtforms.fields.choices import SelectChoice

from .auth import _email
from . import strip


class StaffForm(FlaskForm):
    email = EmailField("Organizer's account e-mail", filters=[strip], validators=_email,
                       description="They must have signed up already.")
    role = RadioField("Role", default="scorekeeper", choices=[
        SelectChoice("scorekeeper", "Scorekeeper: results, disputes and the timer only"),
        SelectChoice("organizer", "Organizer: everything except deleting the event and managing staff"),
    ])


class RemoveStaffForm(FlaskForm):
    """CSRF only."""
