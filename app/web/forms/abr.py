"""The ABR send form (CSRF only), and the ABR event field of the tournament settings."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import StringField

from ...models import AbrUpload, max_length
from ...services.abr.contract import event_id

ADDRESS_MAX = max_length(AbrUpload.abr_url)  # an ABR page's address, as long as the one stored for it


def abr_event_field() -> StringField:
    """The ABR event as the TO gives it: its number or its page's address, stored as the number."""
    return StringField(
        "AlwaysBeRunning event (optional)", filters=[lambda v: event_id(v) if isinstance(v, str) else v],
        render_kw={"maxlength": ADDRESS_MAX},
        description="Its number, or paste its address (https://alwaysberunning.net/tournaments/1234/...): the "
                    "ABR panel then links the event's page on ABR. ABR is not sent it: you conclude the event "
                    "there yourself, with the downloaded file or ABR's code.")


class SendForm(FlaskForm):
    """CSRF only: queue the results as they are now."""
