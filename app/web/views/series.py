"""Series (leagues, seasons, circuits): the organizer's pages (rules, events, players, staff) and the public
standings and player pages. Thin: access (app/web/access.py), then app/services/series/."""
from __future__ import annotations

import hashlib

from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ...core.series import PointsError
from ...core.series.points import figure
from ...services.series import exports, manage, people, seeding
from ...services.series import series_ratings
from ...services.series import standings as series_standings
from ...services.series.games import record_by_side, series_games
from .. import built_pages, page_cache
from ..access import ORGANIZE, SERIES_OWN, managed_series, may, may_series, public_series
from ..downloads import attachment
from ..forms.series import (AddEventForm, ConfirmDeleteForm, CsrfForm, DecisionForm, LinkAllForm, MatchForm,
                            NameForm, NewEventForm, SeriesForm, SeriesStaffForm, TierForm, UndoForm)

bp = Blueprint("series", __name__)


@bp.app_template_global("event_series")
def event_series(tournament_id: int):
    """The series an event counts in (templates/series/_event_series.html, on its dashboard and home page)."""
    return manage.series_of_event(tournament_id)


@bp.app_template_global("seeding_notice")
def seeding_notice(t):
    """An event seeding by rating: who has a rating and who not, and whether this organizer may link the series'
    identical names from here (templates/series/_seeding_notice.html, on the dashboard and the rounds page)."""
    found = seeding.notice(t)
    if found is None:
        return None
    return {"notice": found, "form": LinkAllForm(),
            "may_link": found.series is not None and may_series(current_user, found.series)}


@bp.app_template_filter("points")
def points_filter(value) -> str:
    """An exact Fraction as the series pages write it: 10, 12.5, 25/3."""
    return figure(value)


# --- the organizer's pages ---------------------------------------------------------------------------------------

@bp.get("/series")
@login_required
def index():
    return render_template("series/index.html", series=manage.of_user(current_user))


@bp.route("/series/new", methods=["GET", "POST"])
@login_required
def new():
    form = SeriesForm()
    if form.validate_on_submit():
        try:
            series = manage.create(current_user, form.settings())
        except PointsError as e:
            form.points_table.errors.append(str(e))
        else:
            flash(f"Created {series.name}. Add its events next.", "success")
            return redirect(url_for("series.show", series_id=series.id), 303)
    return render_template("series/form.html", form=form, series=None), 422 if form.errors else 200


def _show(series, add_form=None, new_form=None, status=200):
    table = series_standings.table(series)
    suggestions = len(people.roster(series, suggest=True).people.suggestions)
    return render_template(
        "series/show.html", series=series, table=table, rows=manage.events(series), suggestions=suggestions,
        candidates=manage.candidates(series, current_user), add_form=add_form or AddEventForm(),
        new_form=new_form or NewEventForm(), tier_form=TierForm(), remove_form=CsrfForm(),
        owner=may_series(current_user, series, SERIES_OWN), ratings=series_ratings.shown(series, table)), status


@bp.get("/series/<int:series_id>")
@login_required
def show(series_id: int):
    return _show(managed_series(series_id))


@bp.route("/series/<int:series_id>/edit", methods=["GET", "POST"])
@login_required
def edit(series_id: int):
    series = managed_series(series_id)
    form = SeriesForm()
    if not form.is_submitted():
        form.fill(series)
    if form.validate_on_submit():
        try:
            manage.update(series, form.settings())
        except PointsError as e:
            form.points_table.errors.append(str(e))
        else:
            flash("Series saved.", "success")
            return redirect(url_for("series.show", series_id=series.id), 303)
    return render_template("series/form.html", form=form, series=series, delete_form=ConfirmDeleteForm(),
                           owner=may_series(current_user, series, SERIES_OWN)), 422 if form.errors else 200


@bp.post("/series/<int:series_id>/delete")
@login_required
def delete(series_id: int):
    series = managed_series(series_id, SERIES_OWN)
    if not ConfirmDeleteForm().validate_on_submit():
        flash("Tick the confirmation box to delete the series.", "error")
        return redirect(url_for("series.edit", series_id=series_id), 303)
    name = series.name
    manage.delete(series)
    flash(f"Deleted the series {name}; its events stay as they were.", "success")
    return redirect(url_for("series.index"), 303)


@bp.post("/series/<int:series_id>/events")
@login_required
def add_event(series_id: int):
    """An existing (or imported) event the user organizes joins the series."""
    series = managed_series(series_id)
    form = AddEventForm()
    if form.validate_on_submit():
        tournament = manage.tournament(form.event.data)
        if tournament is None or not may(current_user, tournament, ORGANIZE):
            form.event.errors.append("Choose one of your events: you must organize an event to add it.")
        else:
            try:
                manage.add_event(series, tournament, form.tier.data)
            except manage.SeriesError as e:
                form.tier.errors.append(str(e))
            else:
                flash(f"{tournament.name} now counts in {series.name}.", "success")
                return redirect(url_for("series.show", series_id=series_id), 303)
    return _show(series, add_form=form, status=422)


@bp.post("/series/<int:series_id>/events/new")
@login_required
def new_event(series_id: int):
    series = managed_series(series_id)
    form = NewEventForm()
    if form.validate_on_submit():
        try:
            t = manage.new_event(series, current_user, form.name.data, form.date.data, form.format.data,
                                 form.tier.data)
        except manage.SeriesError as e:
            form.tier.errors.append(str(e))
        else:
            flash(f"Created {t.name} in {series.name}. Add the players next.", "success")
            return redirect(url_for("tournaments.show", tid=t.id), 303)
    return _show(series, new_form=form, status=422)


def _row(series, series_event_id: int):
    row = manage.event_row(series, series_event_id)
    if row is None:
        abort(404)
    return row


@bp.post("/series/<int:series_id>/events/<int:series_event_id>/tier")
@login_required
def set_tier(series_id: int, series_event_id: int):
    series = managed_series(series_id)
    row = _row(series, series_event_id)
    form = TierForm()
    back = redirect(url_for("series.show", series_id=series_id, _anchor="events"), 303)
    if not form.validate_on_submit():
        flash("The tier is too long (40 characters at most).", "error")
        return back
    try:
        manage.set_tier(series, row, form.tier.data)
    except manage.SeriesError as e:
        flash(str(e), "error")
    else:
        flash(f"{row.tournament.name}: tier {form.tier.data or 'none'}.", "success")
    return back


@bp.post("/series/<int:series_id>/events/<int:series_event_id>/remove")
@login_required
def remove_event(series_id: int, series_event_id: int):
    series = managed_series(series_id)
    row = _row(series, series_event_id)
    if not CsrfForm().validate_on_submit():
        abort(400)
    name = manage.remove_event(series, row)
    flash(f"{name} no longer counts in {series.name}; the event itself is unchanged.", "success")
    return redirect(url_for("series.show", series_id=series_id, _anchor="events"), 303)


# --- players across events (private: the suggestions, the notes) -----------------------------------------------

@bp.get("/series/<int:series_id>/players")
@login_required
def players(series_id: int):
    """Paged (people.PER_PAGE a page): the players, found by a search on any page (?q=, ?page=), and each long
    list by its own page (?suggestions=, ?matched=, ?joined=); the forms come back to the same pages."""
    series = managed_series(series_id)
    table = series_standings.table(series)
    roster = people.roster(series, suggest=True)
    query = request.args.get("q", "", type=str).strip()[:100]
    number = lambda name: request.args.get(name, 1, type=int)  # noqa: E731
    links = [(pid, target) for pid, target in people.links(series) if pid in roster.entries]
    return render_template("series/players.html", series=series, table=table, roster=roster,
                           shown=people.paged(people.found(table.lines, roster, query), number("page")),
                           query=query, args=_page_args(), page_url=_page_url(series_id),
                           suggested=people.paged(roster.people.suggestions, number("suggestions")),
                           matched=people.paged(links, number("matched")),
                           joined=people.paged(roster.people.identical, number("joined")),
                           notes=people.decisions(series, roster),
                           event_names={e.id: f"{e.name}, {e.date.isoformat()}" for e in table.events},
                           match_form=MatchForm(), undo_form=UndoForm(), decision_form=DecisionForm(),
                           link_all_form=LinkAllForm(), name_form=NameForm())


_PAGE_ARGS = ("q", "page", "suggestions", "matched", "joined")


def _page_args() -> dict:
    """The players page's search and page numbers in this request: its forms carry them back to the same pages."""
    return {name: value[:100] for name in _PAGE_ARGS if (value := request.args.get(name, "", type=str))}


def _page_url(series_id: int):
    def url(name: str, number: int, anchor: str) -> str:
        return url_for("series.players", series_id=series_id, _anchor=anchor, **{**_page_args(), name: number})
    return url


def _players_back(series_id: int, anchor: str = "suggestions"):
    return redirect(url_for("series.players", series_id=series_id, _anchor=anchor, **_page_args()), 303)


@bp.post("/series/<int:series_id>/players/confirm")
@login_required
def confirm(series_id: int):
    series = managed_series(series_id)
    form = MatchForm()
    if form.validate_on_submit():
        try:
            people.confirm(series, form.player.data, form.target.data)
        except manage.SeriesError as e:
            flash(str(e), "error")
        else:
            flash("Matched: their results now add up.", "success")
    else:
        flash("That match could not be read: reload the page.", "error")
    return _players_back(series_id)


@bp.post("/series/<int:series_id>/players/reject")
@login_required
def reject(series_id: int):
    series = managed_series(series_id)
    form = MatchForm()
    if form.validate_on_submit():
        try:
            people.reject(series, form.player.data, form.target.data)
        except manage.SeriesError as e:
            flash(str(e), "error")
        else:
            flash("Kept apart: that match is no longer suggested.", "success")
    else:
        flash("That match could not be read: reload the page.", "error")
    return _players_back(series_id)


@bp.post("/series/<int:series_id>/players/undo")
@login_required
def undo(series_id: int):
    series = managed_series(series_id)
    form = UndoForm()
    if form.validate_on_submit() and people.undo(series, form.player.data):
        flash("Undone: that entry stands alone again.", "success")
    else:
        flash("Nothing to undo for that entry.", "error")
    return _players_back(series_id, "matched")


@bp.post("/series/<int:series_id>/players/link-all")
@login_required
def link_all(series_id: int):
    """Every identical name linked at once; back to the players page, or to the event's dashboard it came from."""
    series = managed_series(series_id)
    form = LinkAllForm()
    if not form.validate_on_submit():
        flash("That request could not be read: reload the page.", "error")
        return _players_back(series_id, "matched")
    try:
        made = people.link_all(series)
    except manage.SeriesError as e:
        flash(str(e), "error")
    else:
        flash(f"Linked {made} entr{'y' if made == 1 else 'ies'} by identical name: each is listed under Confirmed "
              "matches, with an undo." if made else "No identical names left to link.", "success" if made else "info")
    event = form.event.data
    if event and any(row.tournament_id == event for row in manage.events(series)):
        return redirect(url_for("tournaments.show", tid=event, _anchor="seeding"), 303)
    return _players_back(series_id, "matched")


@bp.post("/series/<int:series_id>/players/separate")
@login_required
def separate(series_id: int):
    series = managed_series(series_id)
    form = UndoForm()
    if not form.validate_on_submit():
        flash("That request could not be read: reload the page.", "error")
        return _players_back(series_id, "by-name")
    try:
        people.separate(series, form.player.data)
    except manage.SeriesError as e:
        flash(str(e), "error")
    else:
        flash("Kept apart: that entry no longer joins by its name.", "success")
    return _players_back(series_id, "by-name")


@bp.post("/series/<int:series_id>/players/<key>/name")
@login_required
def set_name(series_id: int, key: str):
    series = managed_series(series_id)
    form = NameForm()
    if not form.validate_on_submit():
        flash("; ".join(e for errors in form.errors.values() for e in errors) or "Reload the page.", "error")
        return _players_back(series_id, "names")
    try:
        shown = people.name(series, key, form.name.data or "")
    except manage.SeriesError as e:
        flash(str(e), "error")
    else:
        flash(f"Shown as {shown}.", "success")
    return _players_back(series_id, "names")


@bp.post("/series/<int:series_id>/players/<key>/decision")
@login_required
def decision(series_id: int, key: str):
    series = managed_series(series_id)
    form = DecisionForm()
    if form.validate_on_submit():
        try:
            people.record(series, key, bool(form.holds_invitation.data), bool(form.declined.data),
                          form.note.data or "")
        except manage.SeriesError as e:
            flash(str(e), "error")
        else:
            flash("Recorded; the invitations are worked out again.", "success")
    else:
        flash("; ".join(e for errors in form.errors.values() for e in errors), "error")
    return _players_back(series_id, "invitations")


# --- staff (the owner) ---------------------------------------------------------------------------------------------

def _staff_page(series, form, status=200):
    return render_template("series/staff.html", series=series, form=form, members=manage.members(series),
                           remove_form=CsrfForm()), status


@bp.get("/series/<int:series_id>/staff")
@login_required
def staff(series_id: int):
    return _staff_page(managed_series(series_id, SERIES_OWN), SeriesStaffForm())


@bp.post("/series/<int:series_id>/staff")
@login_required
def add_staff(series_id: int):
    series = managed_series(series_id, SERIES_OWN)
    form = SeriesStaffForm()
    if form.validate_on_submit():
        try:
            member = manage.add_staff(series, form.email.data)
        except manage.SeriesError as e:
            form.email.errors.append(str(e))
        else:
            flash(f"{member.user.email} now manages {series.name}.", "success")
            return redirect(url_for("series.staff", series_id=series_id), 303)
    return _staff_page(series, form, 422)


@bp.post("/series/<int:series_id>/staff/<int:series_staff_id>/delete")
@login_required
def remove_staff(series_id: int, series_staff_id: int):
    series = managed_series(series_id, SERIES_OWN)
    if not CsrfForm().validate_on_submit():
        abort(400)
    email = manage.remove_staff(series, series_staff_id)
    if email is None:
        abort(404)
    flash(f"{email} no longer manages {series.name}.", "success")
    return redirect(url_for("series.staff", series_id=series_id), 303)


# --- public ----------------------------------------------------------------------------------------------------------

def _pages_of(series, named=None) -> page_cache.Owner:
    """What the series' shared pages are kept under: a change to the series or to any of its events (a result)
    names a new edition; the other workers read the page the first one built (app/web/page_cache.py)."""
    return page_cache.Owner(f"series{series.id}", hashlib.blake2b(series.slug.encode(), digest_size=4).hexdigest(),
                            series.created_at, series_standings.edition_name(series, named))


@bp.get("/s/<series_slug>")
def public(series_slug: str):
    """The standings, built once per edition for every worker; the page around them drawn per request."""
    series = public_series(series_slug)
    named = series_standings.edition(series)

    def build():
        table = series_standings.table(series, named)
        return render_template("series/_public_body.html", series=series, table=table,
                               ratings=series_ratings.shown(series, table)), {}

    return built_pages.respond(_pages_of(series, named), "standings", build,
                               lambda body, _meta: render_template("series/public.html", series=series, body=body))


@bp.get("/s/<series_slug>/players/<key>")
def player(series_slug: str, key: str):
    series = public_series(series_slug)
    table = series_standings.table(series)
    line = table.line(key)
    if line is None:
        moved = table.roster.people.current(key)  # an old link: the entry was matched to another player since
        if moved is not None and moved != key and table.line(moved) is not None:
            return redirect(url_for("series.player", series_slug=series_slug, key=moved), 302)
        abort(404)
    games = [g for g in series_games(series, table.roster) if key in (g.player, g.opponent)]
    return render_template("series/player.html", series=series, table=table, line=line,
                           record=record_by_side(games, key),
                           rating=series_ratings.shown(series, table).get(key))


@bp.get("/s/<series_slug>/standings.csv")
def export_csv(series_slug: str):
    series = public_series(series_slug)
    text = exports.as_csv(series, series_standings.table(series))
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": attachment(f"{series.name}-standings.csv")})


@bp.get("/s/<series_slug>/standings.json")
def export_json(series_slug: str):
    series = public_series(series_slug)
    return jsonify(exports.as_json(series, series_standings.table(series)))
