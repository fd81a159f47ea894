"""The TO's page following a pairing that runs in the background (services/swiss/pairing_jobs.py)."""
from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import login_required

from ...services.swiss import pairing_jobs
from ...services.swiss import rounds as rounds_service
from ..access import ORGANIZE, managed_tournament
from ..forms.rounds import PairForm

bp = Blueprint("pairing_jobs", __name__)

REFRESH_SECONDS = 2  # the page asks again this often while the engine works (a Refresh header: no script needed)


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/pairing")
@login_required
def follow(tid: int, number: int):
    """Running: the progress, asked again every REFRESH_SECONDS. Done: on to the new round. Failed: the engine's
    message (the players it could not pair) and the button to try again."""
    t = managed_tournament(tid, ORGANIZE)
    if rounds_service.load_round(t, number) is not None:
        flash(f"Round {number} is paired. Check it, then publish it.", "success")
        return redirect(url_for("rounds.show", tid=tid, number=number), 303)
    job = pairing_jobs.find(t, number)
    if job is None:
        return redirect(url_for("rounds.index", tid=tid), 303)
    running = job.state == "running" and not pairing_jobs.stale(job)
    page = render_template("rounds/pairing.html", t=t, number=number, job=job, running=running,
                           elapsed=pairing_jobs.elapsed_seconds(job), pair_form=PairForm())
    headers = {"Cache-Control": "no-store"}
    if running or job.state == "done":
        headers["Refresh"] = str(REFRESH_SECONDS)
    return page, 200, headers
