"""Sign-up and log-in forms."""
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, StringField
from wtforms.validators import DataRequired, EqualTo, Length, Regexp

from ...models import User, max_length
from . import printable, strip

MIN_PASSWORD = 8

# A light check on purpose: the address is a login name; we never send mail to it.
_email = [DataRequired(), Length(max=max_length(User.email)), printable,
          Regexp(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", message="Enter an email address.")]

_new_password = [DataRequired(), Length(min=MIN_PASSWORD, max=200,
                                        message=f"Use at least {MIN_PASSWORD} characters (at most 200).")]
_repeat_password = [DataRequired(), EqualTo("password", message="The passwords differ.")]


class SignupForm(FlaskForm):
    email = EmailField("Email", filters=[strip], validators=_email)
    password = PasswordField("Password", description=f"At least {MIN_PASSWORD} characters.",
                             validators=_new_password)
    confirm = PasswordField("Repeat password", validators=_repeat_password)


class LoginForm(FlaskForm):
    email = EmailField("Email", filters=[strip], validators=_email)
    password = PasswordField("Password", validators=[DataRequired(), Length(max=200)])
    remember = BooleanField("Keep me logged in")


class PasswordChangeForm(FlaskForm):
    current = PasswordField("Current password", validators=[DataRequired(), Length(max=200)])
    password = PasswordField(
        "New password", description=f"At least {MIN_PASSWORD} characters. Every other device is logged out.",
        validators=_new_password)
    confirm = PasswordField("Repeat new password", validators=_repeat_password)


class ProfileForm(FlaskForm):
    """What the public NRTM export says of the organizer (tournamentOrganiser); the e-mail address stays private."""

    display_name = StringField("Display name", filters=[strip],
                               validators=[Length(max=max_length(User.display_name)), printable],
                               description="Shown as the organizer of your events in their NRTM export.")
    nrdb_username = StringField(
        "NetrunnerDB username", filters=[strip], description="Optional; results sites match it to your account.",
        validators=[Length(max=max_length(User.nrdb_username)),
                    Regexp(r"^[\w.\-]*$", message="Letters, digits, dots, dashes and _ only.")])
