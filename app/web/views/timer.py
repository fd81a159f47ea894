"""The round timer: the TO's controls and the projector page. The clock itself is app/core/clock.py, its storage
app/services/timer.py; every browser counts down from the server's end time (static/countdown.js)."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import login_required

from ...core import clock
from ..forms.timer import AdjustForm, TimerForm
from ...models import utcnow
from ...core.names import name_key
from ...services import rounds as rounds_service
from ...services import timer as service
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


def clock_text(seconds: int) -> str:
    """64:59, 9:05, and 1:45:00 from 100 minutes up: what a countdown shows for whole seconds left (rounds are
    spoken of in minutes; static/countdown.js does the same)."""
    seconds = max(0, seconds)
    if seconds < 100 * 60:
        return f"{seconds // 60}:{seconds % 60:02d}"
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


@bp.app_template_global()
def countdown(number, c) -> dict:
    """What a page needs to draw a round's countdown (templates/timer/_countdown.html) as the server sees it now;
    the browser takes over from there."""
    now = utcnow()
    state = c.state if c is not None else None
    left = clock.remaining_seconds(c, now) if state else None
    return {"round": number, "state": state, "text": clock_text(left) if state else "",
            "ends_at": service.iso(c.ends_at) if state == clock.RUNNING else "",
            "remaining_ms": c.remaining_ms if state == clock.PAUSED else "",
            "server_now": int(now.timestamp() * 1000), "expired": state == clock.RUNNING and left == 0}
