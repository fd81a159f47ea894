"""Check-in: the roll call page (staff tick players off on a phone in a noisy hall; organizers set the deadline, drop
the no-shows, let the waitlist in), a player's own check-in through their link, and the part of the player's page
that says where their entry stands ("You are in", "Waitlist position 3")."""
from __future__ import annotations

from math import ceil

from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from ...core.check_in import NoShows, Phone, Refusal
from ...core.names import name_key
from ...models import Player, Tournament, utcnow
from ...services.check_in import phone, roll_call, settings, waitlist
from .. import live_parts
from ...services.players import states
from .. import player_session
from ..conditional import client_has
from ..access import ORGANIZE, SCORE, linked_player, managed_player, managed_tournament, may
from ..read_only import read_only
from ..forms.check_in import ButtonForm, SettingsForm

bp = Blueprint("check_in", __name__)

EXPIRED = "The form expired. Reload the page and try again."


# ---------------------------------------------------------------- the player's side

@bp.app_template_global("check_in_box")
def check_in_box(t: Tournament, player: Player, token: str, me=None) -> Markup:
    """The player page's part: their place on the waitlist or "you are in", and the check-in button. `me`: the
    page's services/players/player_page.PlayerView, whose boxes, when read with the page's facts, say the state."""
    state = me.boxes.check_in if me is not None and me.boxes is not None else phone.view(t, player)
    waiting = me.waiting_words if me is not None else ""  # the rule's words for their place in line
    extra = {} if me is None else {"csrf_token": live_parts.stand_in}  # a live part: see judge_call_box
    return Markup(render_template("check_in/_player.html", t=t, token=token, me=state, Phone=Phone,
                                  waiting=waiting, **extra))


@bp.app_template_global("on_waitlist")
def on_waitlist(player: Player) -> bool:
    """A waitlisted player is dropped (to stay out of pairings) but has not dropped: their page says so."""
    return waitlist.is_waiting(player)


@bp.app_template_global("check_in_counts")
def check_in_counts(t: Tournament) -> roll_call.Counts:
    """The dashboard's line for check-in (check_in/_dash_link.html)."""
    return roll_call.counts(t)


@bp.app_template_global("waitlist_places")
def waitlist_places(t: Tournament) -> dict[int, int]:
    """Player id -> place in line (1: next), for the TO's player list; one query."""
    return {pid: i for i, (pid, _) in enumerate(waitlist.waiting(t), 1)}


@bp.post("/t/<slug>/p/<token>/check-in")
def player_check_in(slug: str, token: str):
    t, player = linked_player(slug, token)
    back = redirect(url_for("player.link", slug=slug, token=token, _anchor="check-in"), 303)
    if not ButtonForm().validate():
        flash(EXPIRED, "error")
        return back
    try:
        new = roll_call.check_in(t, player, by_staff=False)
    except Refusal as e:
        flash(str(e), "error")
        return back
    if states.of_player(t, player).waiting:
        flash("You are checked in while you wait: the first place free goes to the first player in line who is "
              "here." if new else "You were checked in already.", "success")
    else:
        flash("You are checked in. Thanks!" if new else "You were checked in already.", "success")
    return back


@bp.post("/t/<slug>/p/<token>/waitlist/leave")
def leave_waitlist(slug: str, token: str):
    """A waitlisted player gives up their place in line; their link stops working (the entry is gone)."""
    t, player = linked_player(slug, token)
    if not ButtonForm().validate():
        flash(EXPIRED, "error")
        return redirect(url_for("player.link", slug=slug, token=token, _anchor="check-in"), 303)
    name = player.name
    if not waitlist.leave(t, player.id):
        flash("You are no longer on the waitlist: a place was given to you. To withdraw, drop from the event "
              "below.", "error")
        return redirect(url_for("player.link", slug=slug, token=token, _anchor="check-in"), 303)
    player_session.forget(t)
    flash(f"{name}, you have left the waitlist. The organizer sees the line without you.", "success")
    return redirect(url_for("public.home", slug=slug), 303)


# ---------------------------------------------------------------- the staff's roll call

def _page(t: Tournament, form: SettingsForm | None = None, status: int = 200):
    sheet = roll_call.sheet(t)
    if form is None:
        row = settings.row(t)
        left = None
        if sheet.call.deadline is not None:
            left = max(0, ceil((sheet.call.deadline - utcnow()).total_seconds() / 60))
        form = SettingsForm(enabled=sheet.call.enabled, no_shows=sheet.call.no_shows.value,
                            waitlist=bool(row and row.waitlist), closes_in=left)
    query = request.args.get("q", "")[:100]
    wanted = name_key(query)  # without JavaScript the server filters (static/check_in.js does it as you type)
    rows = [r for r in sheet.rows if wanted in r.key]
    return render_template("check_in/index.html", t=t, sheet=sheet, rows=rows, form=form, query=query,
                           organize=may(current_user, t, ORGANIZE), etag=_etag(t)), status


def _etag(t: Tournament) -> str:
    """The roll call changes only with the event's version (a check-in, a drop, a registration bump it)."""
    return f"check-in-{t.id}-{t.version}"


@bp.get("/tournaments/<int:tid>/check-in")
@login_required
def index(tid: int):
    return _page(managed_tournament(tid, SCORE))


@bp.get("/tournaments/<int:tid>/check-in/live")
@read_only
@login_required
def live(tid: int):
    """The roll call's rows (every active player: the page filters them itself), counts and plan line for the open
    page to swap in, so phones' check-ins and other staff's ticks show without a reload; 304 while nothing changed."""
    t = managed_tournament(tid, SCORE)
    etag = _etag(t)
    if client_has(etag):
        response = make_response("", 304)
    else:
        sheet = roll_call.sheet(t)
        response = jsonify(rows=render_template("check_in/_rows.html", t=t, rows=sheet.rows, query=""),
                           counts=render_template("check_in/_counts.html", sheet=sheet),
                           plan=render_template("check_in/_plan.html", sheet=sheet))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _back(t: Tournament, anchor: str | None = None):
    return redirect(url_for("check_in.index", tid=t.id, q=request.args.get("q") or None, _anchor=anchor), 303)


def _ticked(t: Tournament, player: Player, message: str, category: str = "success"):
    """A tick's answer: the row, the counts and the plan line for the page's script (static/check_in.js), else back to
    the page."""
    if request.accept_mimetypes.best == "application/json":
        sheet = roll_call.sheet(t)
        row = next((r for r in sheet.rows if r.id == player.id), None)
        return jsonify(message=message, ok=category == "success",
                       row=render_template("check_in/_row.html", t=t, r=row, query=request.args.get("q"))
                       if row else "",
                       counts=render_template("check_in/_counts.html", sheet=sheet),
                       plan=render_template("check_in/_plan.html", sheet=sheet))
    flash(message, category)
    return _back(t, f"w{player.id}" if states.of_player(t, player).waiting else f"p{player.id}")


@bp.post("/tournaments/<int:tid>/check-in/<int:pid>")
@login_required
def tick(tid: int, pid: int):
    t, player = managed_player(tid, pid, SCORE)
    if not ButtonForm().validate():
        abort(400, EXPIRED)
    try:
        new = roll_call.check_in(t, player, by_staff=True)
    except Refusal as e:
        return _ticked(t, player, f"{player.name}: {e}", "error")
    return _ticked(t, player, f"{player.name} is checked in." if new else f"{player.name} was checked in already.")


@bp.post("/tournaments/<int:tid>/check-in/<int:pid>/undo")
@login_required
def undo(tid: int, pid: int):
    t, player = managed_player(tid, pid, SCORE)
    if not ButtonForm().validate():
        abort(400, EXPIRED)
    try:
        done = roll_call.undo(t, player)
    except Refusal as e:
        return _ticked(t, player, str(e), "error")
    return _ticked(t, player, f"{player.name} is not checked in." if done else f"{player.name} was not checked in.")


@bp.post("/tournaments/<int:tid>/check-in/settings")
@login_required
def save_settings(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = SettingsForm()
    if not form.validate_on_submit():
        return _page(t, form, 422)
    let_in = roll_call.save_settings(t, enabled=bool(form.enabled.data), no_shows=NoShows(form.no_shows.data),
                                     keeps_waitlist=bool(form.waitlist.data), closes_in=form.closes_in.data)
    flash("Check-in settings saved.", "success")
    if let_in:
        flash("In from the waitlist: " + ", ".join(let_in) + ".", "success")
    return _back(t)


@bp.post("/tournaments/<int:tid>/check-in/no-shows")
@login_required
def drop_no_shows(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    if not ButtonForm().validate():
        abort(400, EXPIRED)
    # from the pairing's preview (rounds/pair_preview.html): back there, to see the plan without them
    number = settings.roll_call(t).round if request.form.get("back") == "pair" else None

    def back():
        return redirect(url_for("rounds.pair_preview", tid=t.id, number=number), 303) if number else _back(t)
    try:
        out = roll_call.drop_no_shows(t)
    except Refusal as e:
        flash(str(e), "error")
        return back()
    if out.no_shows:
        flash(f"Dropped {len(out.no_shows)} no-show{'s' * (len(out.no_shows) != 1)}: {', '.join(out.no_shows)}. "
              "Bring anyone back on the Players page, then tick them here.", "success")
    else:
        flash("Everyone is checked in: nobody dropped.", "success")
    if out.let_in:
        flash("In from the waitlist: " + ", ".join(out.let_in) + ". Their phones say so.", "success")
    return back()


@bp.post("/tournaments/<int:tid>/check-in/next")
@login_required
def next_roll_call(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    if not ButtonForm().validate():
        abort(400, EXPIRED)
    number = roll_call.start_next(t)
    flash(f"Roll call before round {number} started: players check in again.", "success")
    return _back(t)


@bp.post("/tournaments/<int:tid>/check-in/waitlist/<int:pid>/admit")
@login_required
def admit(tid: int, pid: int):
    t, player = managed_player(tid, pid, ORGANIZE)
    if not ButtonForm().validate():
        abort(400, EXPIRED)
    name = player.name
    done = waitlist.organizer_admits(t, player)
    flash(f"{name} is in: their phone says so." if done else f"{name} was not on the waitlist.",
          "success" if done else "error")
    return _back(t)
