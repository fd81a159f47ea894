"""The forms of an event as a file: an upload, an NRTM import's second step, a restore."""
from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import HiddenField, RadioField
from wtforms.validators import DataRequired


class UploadForm(FlaskForm):
    file = FileField("File", validators=[FileRequired("Choose a file to upload.")])


class ImportAnywayForm(FlaskForm):
    """The second step of an NRTM import whose file contradicts itself: the file itself, signed, travels in the
    page (any worker can finish the import; nothing is kept on the server in between)."""

    token = HiddenField(validators=[DataRequired()])


class RestoreForm(UploadForm):
    how = RadioField("Restore as", default="copy", choices=[
        ("copy", "A new event: a copy with a new address and new player links"),
        ("move", "Move this event here: it keeps its address and every player link, so printed QR codes and slips "
                 "keep working (refused if the address is taken here)")])
