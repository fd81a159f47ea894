"""The schedule page's forms: the whole plan in one form (the time zone, the days, the items in order, a few blank
rows to add), and the CSRF-only buttons (the standard day, clearing it)."""
from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, Form, FieldList, FormField, SelectField, StringField, TimeField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ...core import schedule as rule
from ...models import ScheduleItem, max_length
from ...services.schedule import plan as plans
from . import IntegerField

BLANK_ITEMS = 3  # empty item rows under the plan, to add to it
KINDS = [("", "(empty row)"), (rule.Kind.ROUND.value, "Swiss round"), (rule.Kind.BREAK.value, "Break"),
         (rule.Kind.CUT.value, "Top cut")]


class DayForm(Form):
    date = DateField("Date", validators=[Optional()])
    start = TimeField("Starts at", validators=[Optional()])
    turnaround = IntegerField("Minutes between rounds", default=10, validators=[
        Optional(), NumberRange(0, rule.MAX_TURNAROUND, message=f"From 0 to {rule.MAX_TURNAROUND} minutes.")])
    remove = BooleanField("Remove this day")


class ItemForm(Form):
    order = IntegerField("Order", validators=[Optional(), NumberRange(0, 10_000)])
    day = IntegerField("Day", default=1, validators=[Optional(), NumberRange(1, rule.MAX_DAYS,
                                                                             message="A day from 1 to 7.")])
    kind = SelectField("What", choices=KINDS, default="")
    minutes = IntegerField("Minutes", validators=[Optional(), NumberRange(1, rule.MAX_MINUTES,
                                                                          message="From 1 to 600 minutes.")])
    label = StringField("Name (breaks, the cut)", validators=[Length(max=max_length(ScheduleItem.label))])
    fixed_end = BooleanField("Ends on time even if it starts late")
    remove = BooleanField("Remove")


class ScheduleForm(FlaskForm):
    time_zone = SelectField("Time zone", validators=[DataRequired()], validate_choice=True)
    days = FieldList(FormField(DayForm), min_entries=1, max_entries=rule.MAX_DAYS + 1)
    items = FieldList(FormField(ItemForm), max_entries=rule.MAX_ITEMS + BLANK_ITEMS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.time_zone.choices = plans.zones()

    def fill(self, t, plan: plans.Plan) -> None:
        """The form for a saved plan (or a template), with one blank day and BLANK_ITEMS blank item rows."""
        self.time_zone.data = t.time_zone
        while self.days.entries:
            self.days.pop_entry()
        while self.items.entries:
            self.items.pop_entry()
        for d in plan.days:
            moment = plans.local(t, d.starts_at)
            self.days.append_entry({"date": moment.date(), "start": moment.time(), "turnaround": d.turnaround})
        if len(plan.days) < rule.MAX_DAYS:
            self.days.append_entry({"turnaround": plan.days[-1].turnaround if plan.days else 10})
        for i, it in enumerate(plan.items, 1):
            self.items.append_entry({"order": 10 * i, "day": it.day, "kind": it.kind.value, "minutes": it.minutes,
                                     "label": it.label, "fixed_end": it.fixed_end})
        last_day = plan.items[-1].day if plan.items else 1
        for k in range(BLANK_ITEMS):
            self.items.append_entry({"order": 10 * (len(plan.items) + k + 1), "day": last_day,
                                     "minutes": t.round_minutes})

    def plan(self, t) -> tuple[list[rule.Day], list[rule.Item]]:
        """The submitted plan as the rule's values: blank and removed rows left out, days numbered in date order,
        items sorted by day then order. A half-filled row is a field error (ValueError)."""
        days = []
        for entry in self.days:
            f = entry.form
            if f.remove.data or (f.date.data is None and f.start.data is None):
                continue
            if f.date.data is None or f.start.data is None:
                (f.date if f.date.data is None else f.start).errors.append("Give the day's date and start.")
                raise ValueError
            days.append((plans.at(self.time_zone.data, f.date.data, f.start.data), f.turnaround.data or 0))
        days.sort()
        out_days = [rule.Day(i, start, turnaround) for i, (start, turnaround) in enumerate(days, 1)]
        rows = []
        for n, entry in enumerate(self.items):
            f = entry.form
            if f.remove.data or not f.kind.data:
                continue
            minutes = f.minutes.data or (t.round_minutes if f.kind.data == rule.Kind.ROUND.value else None)
            if minutes is None:
                f.minutes.errors.append("How long does it last?")
                raise ValueError
            it = rule.Item(f.day.data or 1, rule.Kind(f.kind.data), minutes, (f.label.data or "").strip(),
                           bool(f.fixed_end.data) and f.kind.data == rule.Kind.BREAK.value)
            rows.append(((it.day, f.order.data if f.order.data is not None else 10_000 + n, n), it))
        rows.sort(key=lambda r: r[0])
        return out_days, [it for _, it in rows]


class ButtonForm(FlaskForm):
    """CSRF only: fill in the standard day; clear the schedule."""
