"""The round timer: the TO's controls and the projector page. The clock itself is app/core/clock.py, its storage
app/services/swiss/timer.py; every browser counts down from the server's end time (static/countdown.js)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import login_required

from ..forms.timer import AdjustForm, TimerForm
from ...core.names import name_key
from ...services.swiss import rounds as rounds_service
from ...services.swiss import timer as service
from ..access import SCORE, managed_tournament, public_tournament

bp = Blueprint("timer", __name__)


@bp.get("/tournaments/<int:tid>/timer")
@login_required
def current(tid: int):
    """The current round's timer, from the dashboard."""
    t = managed_tournament(tid, SCORE)
    number = rounds_service.latest_number(t)
    if not number:
        flash("Pair and publish round 1 first; then its timer can start.", "error")
        return redirect(url_for("tournaments.show", tid=tid), 303)
    return redirect(url_for("timer.show", tid=tid, number=number), 303)


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/timer")
@login_required
def show(tid: int, number: int):
    t = managed_tournament(tid, SCORE)
    c = service.round_clock(t, number)
    if c is None:
        abort(404, f"There is no round {number}.")
    latest = rounds_service.latest_number(t)
    published = rounds_service.latest_published(t) >= number
    return render_template("timer/show.html", t=t, number=number, clock=c, latest=latest, published=published)


def _act(tid: int, number: int, action: str, form_class=TimerForm):
    t = managed_tournament(tid, SCORE)
    form = form_class()
    if not form.validate():
        flash(" ".join(e for errs in form.errors.values() for e in errs), "error")
    else:
        try:
            service.act(t, number, action, form.minutes.data)
        except service.NotFound as e:
            abort(404, str(e))
        except service.TimerError as e:
            flash(str(e), "error")
    if form.back.data == "round":
        return redirect(url_for("rounds.show", tid=tid, number=number, _anchor="timer"), 303)
    return redirect(url_for("timer.show", tid=tid, number=number), 303)


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/timer/start")
@login_required
def start(tid: int, number: int):
    return _act(tid, number, "start")


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/timer/pause")
@login_required
def pause(tid: int, number: int):
    return _act(tid, number, "pause")


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/timer/resume")
@login_required
def resume(tid: int, number: int):
    return _act(tid, number, "resume")


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/timer/adjust")
@login_required
def adjust(tid: int, number: int):
    return _act(tid, number, "adjust", AdjustForm)


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/timer/call")
@login_required
def call(tid: int, number: int):
    return _act(tid, number, "call")


@bp.get("/t/<slug>/projector")
def projector(slug: str):
    """For a screen in the hall: the timer, the event's QR code and every player's table, big, no navigation."""
    t = public_tournament(slug)
    number, c = service.current(t)
    rnd = rounds_service.load_round(t, number, published_only=True) if number else None
    seats = sorted(((s.name, m.table) for m in rnd.matches for s in m.seats), key=lambda r: name_key(r[0])) \
        if rnd else []
    return render_template("timer/projector.html", t=t, number=number, clock=c, seats=seats, name_key=name_key,
                           status=rounds_service.status(t))
