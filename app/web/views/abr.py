"""Results to AlwaysBeRunning: the NRTM file for ABR's Conclude form (the way every TO has), the send button when
the server has a login for ABR's upload address, and the uploads' state (app/services/abr/). A click only queues:
the sender thread of a worker process posts to ABR, so no request ever waits on ABR or on the venue's internet."""
from __future__ import annotations

from flask import Blueprint, Response, current_app, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ...services.abr import sender, uploads
from ...services.abr.client import has_login
from ..access import ORGANIZE, managed_tournament
from ..downloads import attachment
from ..forms.abr import SendForm

bp = Blueprint("abr", __name__)

REFRESH_SECONDS = 5  # the ABR page asks again this often while an upload waits (a Refresh header: no script)


def _login() -> bool:
    return has_login(current_app.config.get("ABR_USER", ""), current_app.config.get("ABR_PASSWORD", ""))


@bp.app_template_global("abr_state")
def abr_state(t):
    """The dashboard's ABR panel asks this (templates/abr/_panel.html)."""
    return uploads.state(t, current_app.config["ABR_URL"], _login())


@bp.app_template_global("abr_form")
def abr_form() -> SendForm:
    return SendForm()


@bp.get("/tournaments/<int:tid>/abr")
@login_required
def index(tid: int):
    """Every upload of the event with ABR's answers; asks again while one waits."""
    t = managed_tournament(tid, ORGANIZE)
    state = abr_state(t)
    page = render_template("abr/index.html", t=t, state=state, history=uploads.history(t), form=SendForm())
    headers = {"Cache-Control": "no-store"}
    if state.kind in uploads.WAITING:
        headers["Refresh"] = str(REFRESH_SECONDS)
    return page, 200, headers


@bp.get("/tournaments/<int:tid>/abr/file.json")
@login_required
def download(tid: int):
    """The NRTM file for ABR's Conclude form, named after the event; once the event is over."""
    t = managed_tournament(tid, ORGANIZE)
    if not uploads.ready(t):
        flash(uploads.NOT_OVER, "error")
        return redirect(url_for("tournaments.show", tid=tid, _anchor="abr"), 303)
    body = uploads.build(t, public_link(t), current_app.config.get("APP_NAME", "SASS"))
    return Response(body, mimetype="application/json",
                    headers={"Content-Disposition": attachment(uploads.file_name(t)), "Cache-Control": "no-store"})


@bp.post("/tournaments/<int:tid>/abr")
@login_required
def send(tid: int):
    """Queue the results as they are now and wake this process's sender; back to the dashboard's ABR panel."""
    t = managed_tournament(tid, ORGANIZE)
    back = redirect(url_for("tournaments.show", tid=tid, _anchor="abr"), 303)
    if not SendForm().validate_on_submit():
        flash("The form expired: send again.", "error")
        return back
    try:
        queued = uploads.queue(t, public_link(t), current_app.config.get("APP_NAME", "SASS"), current_user.id,
                               login=_login())
    except uploads.AbrError as e:
        flash(str(e), "error")
        return back
    upload = queued.upload
    if not queued.new:
        flash("These results were already sent to ABR: nothing changed since." if upload.state == uploads.DONE
              else "These results are already queued for ABR.", "info")
    else:
        sender.wake()
        flash("Queued for ABR: SASS sends them now, and keeps trying by itself if ABR cannot be reached. ABR's "
              "code appears here once it answers."
              + (f" ABR will keep them as a new file beside the upload of {upload.replaces.sent_at:%Y-%m-%d %H:%M}"
                 f" UTC (code {upload.replaces.code}), replacing nothing on ABR." if upload.replaces else ""),
              "success")
    return back


def public_link(t) -> str:
    """The event's public page, which the file names as where it came from."""
    if "public.home" in current_app.view_functions:
        return url_for("public.home", slug=t.slug, _external=True)
    return url_for("tournaments.show", tid=t.id, _external=True)
