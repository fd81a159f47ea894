"""A match slip's QR code: its table's own page, where whoever holds the slip reports that table's result in
that round, once (app/services/results/slip_codes.py). It grants nothing else: no player's page, no other table."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for

from ...core import results
from ..forms.participation import SlipReportForm
from ...services.results import slip_codes
from ...services.swiss.rounds import RoundError
from ..access import public_tournament

bp = Blueprint("slips", __name__)

BAD_CODE = "This match slip's code does not work: it is mistyped or from another event. Hand the slip to the organizer."


def _slip(slug: str, code: str):
    t = public_tournament(slug)
    try:
        slip = slip_codes.table_for(t, code)
    except slip_codes.SlipChanged as e:
        abort(410, str(e))
    if slip is None:
        abort(404, BAD_CODE)
    return t, slip


@bp.get("/t/<slug>/s/<code>")
def show(slug: str, code: str):
    t, slip = _slip(slug, code)
    return render_template("slips/show.html", t=t, slip=slip, code=code, closed=slip_codes.closed_reason(t, slip),
                           buttons=results.buttons(t.fmt), label=results.label, form=SlipReportForm())


@bp.post("/t/<slug>/s/<code>/report")
def report(slug: str, code: str):
    t, slip = _slip(slug, code)
    form = SlipReportForm()
    back = redirect(url_for("slips.show", slug=slug, code=code), 303)
    if not form.validate():
        flash("That report was incomplete. Tap a result button again.", "error")
        return back
    try:
        slip_codes.report(t, slip, results.outcome(t.fmt, form.result.data))
    except (results.ResultError, RoundError) as e:
        flash(str(e), "error")
        return back
    flash("Thanks, the result is in.", "success")
    return back
