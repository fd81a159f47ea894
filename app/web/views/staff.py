"""The owner's staff page: add other organizers' accounts to one event as organizer or scorekeeper."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import login_required

from ..forms.staff import RemoveStaffForm, StaffForm
from ...services.organizers import staff as service
from ..access import OWN, managed_tournament

bp = Blueprint("staff", __name__, url_prefix="/tournaments/<int:tid>/staff")


def _render(tournament, form, status=200):
    return render_template("staff/index.html", tournament=tournament, form=form, remove_form=RemoveStaffForm(),
                           members=service.members(tournament), pending=service.pending(tournament)), status


@bp.get("")
@login_required
def index(tid: int):
    return _render(managed_tournament(tid, OWN), StaffForm())


@bp.post("")
@login_required
def add(tid: int):
    tournament = managed_tournament(tid, OWN)
    form = StaffForm()
    if form.validate_on_submit():
        try:
            member, created = service.add(tournament, form.email.data, form.role.data)
        except service.StaffError as e:
            form.email.errors.append(str(e))
        else:
            done = "added as" if created else "is now"
            flash(f"{member.user.email} {done} {member.role} of {tournament.name}.", "success")
            return redirect(url_for("staff.index", tid=tid), 303)
    return _render(tournament, form, 422)


@bp.post("/<int:staff_id>/delete")
@login_required
def remove(tid: int, staff_id: int):
    return _take_off(tid, lambda t: service.remove(t, staff_id), "{email} is no longer on the staff of {event}.")


@bp.post("/pending/<int:pending_id>/delete")
@login_required
def forget(tid: int, pending_id: int):
    """A moved event's staff member still to sign up here, no longer expected: their sign-up gives no role."""
    return _take_off(tid, lambda t: service.forget_pending(t, pending_id),
                     "{email} gets no role in {event} when they sign up.")


def _take_off(tid: int, take, done: str):
    """The owner takes someone off the staff list: `take` returns their email, or None when they are not on it."""
    tournament = managed_tournament(tid, OWN)
    if not RemoveStaffForm().validate_on_submit():
        abort(400)
    email = take(tournament)
    if email is None:
        abort(404)
    flash(done.format(email=email, event=tournament.name), "success")
    return redirect(url_for("staff.index", tid=tid), 303)
