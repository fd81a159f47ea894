"""Paper for the venue: the event's QR code, pairings by name for the wall, match slips. Print styles live in
static/style.css (@media print); these pages are laid out for A4."""
from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, url_for
from flask_login import login_required

from ...services import printouts as service
from ...services import rounds as rounds_service
from ..access import SCORE, managed_tournament, public_tournament

bp = Blueprint("printouts", __name__)


@bp.get("/t/<slug>/qr.svg")
def qr(slug: str):
    """The event page's QR code, for the dashboard, the projector and posters."""
    t = public_tournament(slug)
    svg = service.qr_svg(url_for("public.home", slug=t.slug, _external=True))
    # Built from PUBLIC_URL it is the same for everyone: a proxy may keep it. Built from this request's Host header
    # it is this visitor's alone: a shared cache must never hand it (perhaps pointing elsewhere) to phones.
    cache = "public, max-age=86400" if current_app.config["PUBLIC_URL"] else "private, no-cache"
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": cache})


def _round(tid: int, number: int):
    t = managed_tournament(tid, SCORE)
    rnd = rounds_service.load_round(t, number)
    if rnd is None:
        abort(404, f"There is no round {number}.")
    return t, rnd


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/by-name")
@login_required
def by_name(tid: int, number: int):
    t, rnd = _round(tid, number)
    return render_template("printouts/by_name.html", t=t, rnd=rnd, rows=service.by_name(t, rnd))


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/slips")
@login_required
def slips(tid: int, number: int):
    t, rnd = _round(tid, number)
    return render_template("printouts/slips.html", t=t, rnd=rnd, slips=service.slips(t, rnd))
