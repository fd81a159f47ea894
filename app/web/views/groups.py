"""Event groups: the organizer's pages to make and arrange a group, the group's public page (/g/<slug>) with its QR
code, and each event's small "your entry" answer the public page asks for from the browser.

The public page reads no player cookie: a player link's cookie goes only to its event's own addresses (/t/<slug>,
app/web/player_session.py). So the page's script asks each event's /t/<slug>/entry.json, to which the browser sends
that event's cookie, and shows the answers (static/group_entries.js; docs/security.md, "Event groups")."""
from __future__ import annotations

import json

from flask import Blueprint, abort, current_app, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from ...services import groups as service
from ...core import qr
from ...services.players import player_links
from .. import player_session, shared_answers
from ..access import owned_group, public_tournament
from ..read_only import read_only
from ..forms.groups import AddEventForm, ButtonForm, GroupForm

bp = Blueprint("groups", __name__)


@bp.app_template_global()
def group_of(t):
    """For an event's public home: the group it belongs to, if any."""
    return service.group_of(t)


@bp.get("/groups")
@login_required
def index():
    return render_template("groups/index.html", groups=service.owned(current_user.id), form=GroupForm())


@bp.post("/groups")
@login_required
def create():
    form = GroupForm()
    if form.validate_on_submit():
        try:
            group = service.create(current_user.id, form.name.data, form.slug.data or "")
        except service.GroupError as e:
            form.slug.errors.append(str(e))
        else:
            flash(f"Group {group.name} made: add your events to it.", "success")
            return redirect(url_for("groups.manage", gid=group.id), 303)
    return render_template("groups/index.html", groups=service.owned(current_user.id), form=form), 422


def _manage_page(group, form=None, add_form=None, status: int = 200):
    return render_template("groups/manage.html", group=group, lines=service.lines(group),
                           form=form or GroupForm(obj=group), add_form=add_form or AddEventForm(),
                           addable=service.addable(group), buttons=ButtonForm(), qr=_qr(group)), status


@bp.get("/groups/<int:gid>")
@login_required
def manage(gid: int):
    return _manage_page(owned_group(gid))


@bp.post("/groups/<int:gid>")
@login_required
def update(gid: int):
    group = owned_group(gid)
    form = GroupForm()
    if form.validate_on_submit():
        try:
            service.update(group, form.name.data, form.slug.data or group.slug)
        except service.GroupError as e:
            form.slug.errors.append(str(e))
        else:
            flash("Saved.", "success")
            return redirect(url_for("groups.manage", gid=gid), 303)
    return _manage_page(owned_group(gid), form=form, status=422)


@bp.post("/groups/<int:gid>/delete")
@login_required
def delete(gid: int):
    service.delete(owned_group(gid))  # the form's token is checked app-wide (CSRFProtect)
    flash("The group is deleted; its events are as they were.", "success")
    return redirect(url_for("groups.index"), 303)


@bp.post("/groups/<int:gid>/events")
@login_required
def add(gid: int):
    group = owned_group(gid)
    form = AddEventForm()
    if form.validate_on_submit():
        try:
            t = service.add(group, form.tournament.data)
        except service.GroupError as e:
            form.tournament.errors.append(str(e))
        else:
            flash(f"{t.name} is in the group.", "success")
            return redirect(url_for("groups.manage", gid=gid), 303)
    return _manage_page(group, add_form=form, status=422)


@bp.post("/groups/<int:gid>/events/<int:tid>/remove")
@login_required
def remove(gid: int, tid: int):
    group = owned_group(gid)
    try:
        service.remove(group, tid)
    except service.GroupError as e:
        abort(404, str(e))
    flash("The event left the group.", "success")
    return redirect(url_for("groups.manage", gid=gid), 303)


def _qr(group) -> Markup:
    url = url_for("groups.page", gslug=group.slug, _external=True)
    return Markup(qr.svg(url, qr.ON_PAGE, title=f"QR code of {group.name}'s page"))


@bp.get("/g/<gslug>")
def page(gslug: str):
    """The group's public page: every event with its format, state and date, and this browser's entries."""
    group = service.by_slug(gslug)
    if group is None:
        abort(404)
    return render_template("groups/page.html", group=group, lines=service.lines(group), qr=_qr(group),
                           url=url_for("groups.page", gslug=group.slug, _external=True))


@bp.get("/t/<slug>/entry.json")
@read_only
def entry(slug: str):
    """This browser's entry in one event, as the group page shows it: {"entry": html, "profile": {...}} when it
    holds a valid player link of the event (the event's own cookie comes with this address), else {}. The profile
    (name, identities, pronouns) prefills the registration of the group's other events on this device. Private
    and never kept."""
    t = public_tournament(slug)
    answer = {}
    player = player_session.current_player(t) if player_session.holds_link(t) else None
    if player is not None:
        # what the group's other events' registration forms start from (static/registration_prefill.js)
        answer["profile"] = {"event": t.name, "name": player.name, "corp_identity": player.corp_identity or "",
                             "runner_identity": player.runner_identity or "", "pronouns": player.pronouns or ""}
        answer["entry"] = render_template("groups/_entry.html", t=t, player=player,
                                          final=service.final_place(t, player),
                                          mine=url_for("player.link", slug=t.slug,
                                                       token=player_links.token(player))).strip()
    response = current_app.response_class(json.dumps(answer, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = shared_answers.OWN
    return response
