"""Streaming: the TO sets the event's stream link and a round's featured table; a stream overlay polls the
featured table's feed (/t/<slug>/stream.json, docs/api.md)."""
from __future__ import annotations

import hashlib
import json

from flask import Blueprint, current_app, flash, redirect, request, url_for
from flask_login import login_required

from ...services import streaming as service
from ...services.swiss import timer
from .. import page_cache, shared_answers
from ..access import ORGANIZE, linked_player, managed_tournament, public_tournament
from ..forms.streaming import CoverageForm, FeatureForm, StreamForm

bp = Blueprint("streaming", __name__)


@bp.after_request
def _open_cors(response):
    """Any site may read the overlay feed, and send its ETag back: a browser asks first (a CORS preflight, OPTIONS)
    before a cross-site request with If-None-Match."""
    if request.endpoint == "streaming.feed":
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = "ETag"
        if request.method == "OPTIONS":
            response.headers["Access-Control-Allow-Methods"] = "GET"
            response.headers["Access-Control-Allow-Headers"] = "If-None-Match"
            response.headers["Access-Control-Max-Age"] = "86400"
    return response


@bp.post("/t/<slug>/p/<token>/coverage")
def coverage(slug: str, token: str):
    """A player opts out of stream coverage, or back in, through their link: any time, round 1 paired or not."""
    t, player = linked_player(slug, token)
    back = url_for("registration.mine", slug=slug) if request.form.get("back") == "entry" \
        else url_for("player.link", slug=slug, token=token)
    form = CoverageForm()
    if not form.validate_on_submit():
        flash(next(iter(form.coverage.errors), "The form expired. Reload the page and try again."), "error")
        return redirect(back, 303)
    out = form.coverage.data == "off"
    changed = service.set_coverage(t, player, out)
    if out:
        flash("You will not be shown on stream." if changed else "You had opted out of stream coverage already.",
              "success")
    else:
        flash("The organizer may show your table on stream again." if changed
              else "You were not opted out: nothing changed.", "success")
    return redirect(back, 303)


@bp.app_template_global()
def stream_featured(t, number, table=...):
    """For templates: round `number`'s featured table (streaming.Featured) or None."""
    return service.featured(t, number, table)


@bp.app_template_global()
def stream_forms(t, on_stream=None):
    """The dashboard's and round page's forms, filled with what is stored (never with another form's post)."""
    return {"stream": StreamForm(formdata=None, stream_url=t.stream_url),
            "feature": FeatureForm(formdata=None, table=on_stream.table if on_stream else None)}


@bp.app_template_global()
def stream_opted_out(t):
    return service.opted_out(t)


@bp.post("/tournaments/<int:tid>/stream")
@login_required
def save(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = StreamForm()
    if form.validate_on_submit():
        try:
            service.set_stream_url(t, form.stream_url.data)
        except service.StreamingError as e:
            flash(str(e), "error")
        else:
            flash("The stream's address is saved." if t.stream_url else "No stream address now.", "success")
    else:
        flash(" ".join(e for errors in form.errors.values() for e in errors), "error")
    return redirect(url_for("tournaments.show", tid=tid) + "#streaming", 303)


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/feature")
@login_required
def feature(tid: int, number: int):
    t = managed_tournament(tid, ORGANIZE)
    form = FeatureForm()
    back = url_for("rounds.show", tid=tid, number=number) + "#on-stream"
    if not form.validate_on_submit():
        flash(" ".join(e for errors in form.errors.values() for e in errors) or "Give a table number.", "error")
        return redirect(back, 303)
    try:
        service.feature(t, number, form.table.data)
    except service.StreamingError as e:
        flash(str(e), "error")
    else:
        flash(f"Table {form.table.data} is on stream." if form.table.data else "No table is on stream now.",
              "success")
    return redirect(back, 303)


@bp.get("/t/<slug>/stream.json")
def feed(slug: str):
    """The featured table for a stream overlay: public, the same for everyone, with an ETag (a 304 while nothing
    changed) and open CORS for GET, so a browser source on any origin can poll it. Its players and records are
    built once per version of the event (app/web/page_cache.py), the clock read each time."""
    t = public_tournament(slug)
    number, clock = timer.current(t)  # the clock moves without the event's version: read on every request
    page = page_cache.get(t, "stream-feed", lambda: ("", {"plain": True, "feed": service.feed(t, number)}))
    answer = {**page.meta["feed"], "clock": timer.as_status(number, clock)}
    body = json.dumps(answer, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = shared_answers.SHARED
    response.vary.add("Accept-Encoding")
    return response.make_conditional(request)
