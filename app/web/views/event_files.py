"""An event as a file, out and in (app/services/event_files/): the backup's download, a restore, an NRTM file's
import (a file that contradicts itself reviewed first) and the public NRTM file for the results site."""
from __future__ import annotations

import json
import secrets

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ..forms.event_files import ImportAnywayForm, RestoreForm, UploadForm
from ...services.event_files import backup as backup_service
from ...services.event_files import nrtm_export, nrtm_import
from ...services.event_files import restore as restore_service
from ...services.event_files.jsonfile import FileError
from ...services.event_files.upload_slots import Busy, upload_slot
from .. import page_cache
from ..access import ORGANIZE, managed_tournament, public_tournament
from ..downloads import attachment

bp = Blueprint("event_files", __name__)


@bp.get("/tournaments/<int:tid>/backup.json")
@login_required
def backup(tid: int):
    """The event's backup, built once per event version and shared by every worker and every organizer of the
    event (it names no one who asks), ETag'd; ?gzip=1 compressed (a tenth of the size: what a big event's restore
    needs)."""
    t = managed_tournament(tid, ORGANIZE)
    name = f"sass-backup-{t.slug}-{t.date.isoformat()}.json"
    if request.args.get("gzip") == "1":
        response = current_app.response_class(backup_service.packed(backup_service.backup(t)),
                                              mimetype="application/gzip")
        response.headers["Content-Disposition"] = attachment(f"{name}.gz")
        response.headers["Cache-Control"] = "private, no-store"
        return response
    page = page_cache.get(t, "backup", lambda: (json.dumps(backup_service.backup(t), indent=2, ensure_ascii=False)
                                                + "\n", {"plain": True, "mimetype": "application/json"}))
    response = page_cache.respond(page, cache_control="private, no-store")
    response.headers["Content-Disposition"] = attachment(name)
    return response


def _upload(template: str, store, done, form_class=UploadForm):
    """A restore: at most UPLOAD_SLOTS at once site-wide (503 beyond), every refusal said once.
    `store(data, user, form)` writes the file; `done` says so (a text naming {name}, or a function of the event)."""
    form = form_class()
    if request.method == "GET":
        return render_template(template, form=form)
    if form.validate_on_submit():
        try:
            with upload_slot():
                t = store(form.file.data.read(), current_user, form)
        except (FileError, Busy) as e:
            return _refused(template, form, e)
        flash(done(t) if callable(done) else done.format(name=t.name), "success")
        return redirect(url_for("cut.index", tid=t.id) if t.cut_kind else _tournament_page(t))
    return render_template(template, form=form), 400


def _tournament_page(t) -> str:
    if "tournaments.show" in current_app.view_functions:
        return url_for("tournaments.show", tid=t.id)
    return url_for("cut.index", tid=t.id)


@bp.route("/tournaments/restore", methods=["GET", "POST"])
@login_required
def restore():
    def store(data, user, form):
        return (restore_service.move if form.how.data == "move" else restore_service.restore)(data, user)

    return _upload("event_files/restore.html", store, lambda t: f"Restored {t.name}. {restore_service.holds(t)}",
                   RestoreForm)


REVIEW_SECONDS = 3600  # how long the warnings page's "Import anyway" stays good
MAX_TOKEN = 400_000  # characters; the form limit (MAX_FORM_MEMORY_SIZE) is 500 kB


def _signer() -> URLSafeTimedSerializer:
    """Signs the file carried by the warnings page, for this user only (compressed: a 2 MB Cobra file of 235
    players is a token of a few tens of kB)."""
    return URLSafeTimedSerializer(current_app.secret_key, salt=f"nrtm-import:{current_user.get_id()}")


@bp.route("/tournaments/import", methods=["GET", "POST"])
@login_required
def import_nrtm():
    """Step 1: a clean file is imported at once; a file that contradicts itself gets its warnings listed first,
    with the choice to import it as it says or not (nothing is written before that)."""
    form = UploadForm()
    if request.method == "GET":
        return render_template("event_files/import.html", form=form)
    if not form.validate_on_submit():
        return render_template("event_files/import.html", form=form), 400
    data = form.file.data.read()
    try:
        with upload_slot():
            plan = nrtm_import.check(data)
            if not plan.warnings:
                return _imported(nrtm_import.store(plan, current_user))
    except (FileError, Busy) as e:
        return _refused("event_files/import.html", form, e)
    token = _signer().dumps(data.decode("utf-8-sig"))
    if len(token) > MAX_TOKEN:
        form.file.errors.append("The file contradicts itself (below) and is too large to keep for a second step. "
                                "Nothing was created.")
        return render_template("event_files/import.html", form=form, plan=plan), 400
    return render_template("event_files/import.html", form=UploadForm(formdata=None), plan=plan,
                           review=ImportAnywayForm(token=token))


@bp.post("/tournaments/import/confirm")
@login_required
def import_confirm():
    """Step 2: the TO read the warnings and imports the file as it says."""
    review = ImportAnywayForm()
    form = UploadForm(formdata=None)
    if not review.validate_on_submit():
        return render_template("event_files/import.html", form=form), 400
    try:
        data = _signer().loads(review.token.data, max_age=REVIEW_SECONDS).encode()
    except BadSignature:
        form.file.errors = ["That review has expired or was not made for this account: upload the file again. "
                            "Nothing was created."]
        return render_template("event_files/import.html", form=form), 400
    try:
        with upload_slot():
            return _imported(nrtm_import.import_file(data, current_user))
    except (FileError, Busy) as e:
        return _refused("event_files/import.html", form, e)


def _imported(t) -> Response:
    flash(f"Imported {t.name}.", "success")
    return redirect(url_for("cut.index", tid=t.id) if t.cut_kind else _tournament_page(t))


def _refused(template: str, form, e: Exception):
    busy = isinstance(e, Busy)
    reason = Busy.message if busy else str(e)
    form.file.errors = [*form.file.errors, f"{reason[:1].upper()}{reason[1:]}. Nothing was created."]
    return render_template(template, form=form), 503 if busy else 400, {"Retry-After": "5"} if busy else {}


# ---- the NRTM file, public ---------------------------------------------------------------------------------

def public_url(t) -> str:
    if "public.home" in current_app.view_functions:
        return url_for("public.home", slug=t.slug, _external=True)
    return url_for("cut.public_bracket", slug=t.slug, _external=True)


@bp.get("/t/<slug>.json")
def nrtm(slug: str):
    """The NRTM file for the results site; ?download=1 saves it as a file. A 2,000-player file is megabytes and
    a second of CPU to build: built once per event version and shared (app/web/page_cache.py); the event's
    address, which depends on the request, is a slot."""
    t = public_tournament(slug)
    page = page_cache.get(t, "nrtm", lambda: _nrtm_text(t))
    response = page_cache.respond(page, {"url": json.dumps(public_url(t)).replace("<", "\\u003c")[1:-1]})
    if request.args.get("download") == "1":
        response.headers["Content-Disposition"] = attachment(f"{t.slug}-nrtm.json")
    return response


def _nrtm_text(t) -> tuple[str, dict]:
    """The file with its link as a slot. Every `<` in it is written \\u003c (the same JSON), so no name can
    make a slot, and the link is marked with a random word no name holds."""
    mark = secrets.token_hex(16)
    data = nrtm_export.export(t, mark, current_app.config.get("APP_NAME", "SASS"))
    text = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").replace("<", "\\u003c")
    return text.replace(f'"{mark}"', f'"{page_cache.slot("url")}"'), {"mimetype": "application/json"}
