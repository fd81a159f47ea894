"""The event's schedule: the TO's page to plan days, rounds, breaks and the cut; the public schedule page; and
the one-line "Next: round 4 at about 14:20" that the event's home, pairings and player pages include
(templates/schedule/_next.html). The estimate is app/core/schedule.py's; this only asks and shows it."""
from __future__ import annotations

from datetime import datetime
from typing import Optional

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import login_required

from ...core import schedule as rule
from ...models import Tournament, utcnow
from ...services.schedule import plan as plans
from ...services.schedule import timeline as timelines
from ..access import ORGANIZE, managed_tournament, public_tournament
from ..forms.schedule import ButtonForm, ScheduleForm

bp = Blueprint("schedule", __name__)


def timeline(t: Tournament) -> Optional[rule.Timeline]:
    return timelines.kept(t)  # once per event, version and minute


@bp.app_template_global("schedule_next")
def schedule_next(t: Tournament) -> Optional[rule.NextUp]:
    """What the one-line include says next; None without a schedule or once all is done."""
    found = timeline(t)
    return found.next if found is not None else None


@bp.app_template_global("schedule_today")
def schedule_today(t: Tournament) -> tuple:
    """(day number, that day's slots, how many days) for the day that runs now or comes next; (None, (), 0)
    without a schedule."""
    found = timeline(t)
    if found is None or found.current_day is None:
        return None, (), 0
    return found.current_day, found.day_slots(found.current_day), len(found.days)


@bp.app_template_global("schedule_running")
def schedule_running(t: Tournament) -> Optional[plans.Running]:
    """Whether the event is under way today, and which of its days (the organizer's list), one query a request."""
    kept = request.environ.get("sass.schedule_running")  # this request's, not the app context's (tests share one)
    if kept is None:
        kept = request.environ["sass.schedule_running"] = plans.running(utcnow())
    return kept.get(t.id)


@bp.app_template_global("schedule_on_now")
def schedule_on_now() -> list:
    """The events under way today with a published round (the site's front page): a two-day event stays there on
    day 2."""
    return plans.running_events(utcnow())


@bp.app_template_filter("event_time")
def event_time(moment: datetime, t: Tournament, with_day: bool = False) -> str:
    """14:20 in the event's time zone; with_day: Sunday 10:00."""
    local = plans.local(t, moment)
    return local.strftime("%A %H:%M") if with_day else local.strftime("%H:%M")


@bp.app_template_global("schedule_other_day")
def other_day(t: Tournament, moment: datetime) -> bool:
    """The moment falls on another local date than now: say its weekday."""
    return plans.local(t, moment).date() != plans.local(t, utcnow()).date()


@bp.get("/tournaments/<int:tid>/schedule")
@login_required
def edit(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = ScheduleForm()
    plan = plans.load(t)
    form.fill(t, plan)
    return _page(t, form, plan)


def _page(t: Tournament, form: ScheduleForm, plan: plans.Plan, status: int = 200):
    return render_template("schedule/edit.html", t=t, form=form, plan=plan, buttons=ButtonForm(),
                           # a re-shown form keeps what the TO submitted
                           browser_zone=plans.zone_unchosen(t, plan) and not form.is_submitted(),
                           planned=timelines.planned(t), live=timeline(t) if plan else None,
                           note=plans.planned_rounds_note(t, plan)), status


@bp.post("/tournaments/<int:tid>/schedule")
@login_required
def save(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = ScheduleForm()
    if form.validate_on_submit():
        try:
            days, items = form.plan(t)
            plans.save(t, form.time_zone.data, days, items)
        except plans.ScheduleError as e:
            form.form_errors.append(str(e))
        except ValueError:
            pass  # the field's own error is on the form
        else:
            flash("Schedule saved. Players see the next item on their phones.", "success")
            return redirect(url_for("schedule.edit", tid=tid), 303)
    return _page(t, form, plans.load(t), 422)


@bp.post("/tournaments/<int:tid>/schedule/standard")
@login_required
def standard(tid: int):
    """One click: a standard day (the event's rounds, its round length, 10 minutes between rounds, lunch after
    round 3), saved for the TO to edit. Refused over an existing plan."""
    t = managed_tournament(tid, ORGANIZE)
    if not ButtonForm().validate_on_submit():
        flash("The form expired: try again.", "error")
        return redirect(url_for("schedule.edit", tid=tid), 303)
    try:
        zone_name = plans.fill_standard_day(t, (request.form.get("time_zone") or "").strip()[:64])
    except plans.ScheduleError as e:
        flash(str(e), "error")
    else:
        flash(f"Filled in a standard day: saved, times in {zone_name}. Check the start, the rounds and lunch below; "
              "change what differs and save again.", "success")
    return redirect(url_for("schedule.edit", tid=tid), 303)


@bp.post("/tournaments/<int:tid>/schedule/clear")
@login_required
def clear(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    if ButtonForm().validate_on_submit():
        plans.clear(t)
        flash("Schedule cleared.", "success")
    else:
        flash("The form expired: try again.", "error")
    return redirect(url_for("schedule.edit", tid=tid), 303)


@bp.get("/t/<slug>/schedule")
def public(slug: str):
    """Every day of the schedule with its planned and estimated times."""
    t = public_tournament(slug)
    return render_template("schedule/public.html", t=t, timeline=timeline(t))
