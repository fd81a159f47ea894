"""Judge calls: a player calls from their own page (their link authorizes it); the event's staff see the call on
their round pages and the dashboard at once (static/judge_calls.js polls `live`), one of them claims it, then
resolves it; the player sees each step (static/judge_call_player.js polls `mine`) and may cancel."""
from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from ...models import Player, Tournament
from ...services import judge_calls as service
from ...services.players import states
from .. import live_parts
from ..access import SCORE, linked_player, managed_tournament, may, may_read
from ..read_only import read_only
from ..conditional import client_has
from ..forms.judge_calls import REASON_LABEL, CallForm, StepForm

bp = Blueprint("judge_calls", __name__)

NO_CACHE = "private, no-cache"


# ---------------------------------------------------------------- the player's side

def _player_box(t: Tournament, player: Player, token: str, mine=service.ASK, newest=service.ASK, state=None,
                **extra) -> str:
    return render_template("judge_calls/_player.html", t=t, token=token, call=service.latest_call(t, player, newest),
                           closed=service.closed(t, player, mine, state), reason_label=REASON_LABEL,
                           states=service.CallState, **extra)


@bp.app_template_global("judge_call_box")
def judge_call_box(t: Tournament, player: Player, token: str, me=None) -> Markup:
    """The player page's part: the call button, or their call's state with a cancel button. `me`: the page's
    services/players/player_page.PlayerView, whose swiss table (and newest call, when read with the page's facts) the
    box reads rather than asking again."""
    if me is None:
        return Markup(_player_box(t, player, token))
    # drawn as a live part of the page: the form token's stand-in, so that its digest does not change with the
    # token's timestamp (app/web/live_parts.py puts the real token in)
    return Markup(_player_box(t, player, token, me.mine, service.ASK if me.boxes is None else me.boxes.judge_call,
                              me.state, csrf_token=live_parts.stand_in))


@bp.post("/t/<slug>/p/<token>/judge")
def call(slug: str, token: str):
    t, player = linked_player(slug, token)
    form = CallForm()
    if not form.validate():
        flash(" ".join(e for errors in form.errors.values() for e in errors) or "The form expired. Try again.",
              "error")
    else:
        cooldown = timedelta(seconds=current_app.config["JUDGE_CALL_COOLDOWN_SECONDS"])
        try:
            made = service.call(t, player, form.reason.data or "", cooldown)
        except states.PartOver as e:  # a disqualified player's link: refused outright
            return render_template("error.html", code=403, message=str(e),
                                   own_page=url_for("player.link", slug=slug, token=token)), 403
        except service.CallRefused as e:
            flash(str(e), "error")
        else:
            flash(f"A judge is called to {made.where}. Stay at your table.", "success")
    return redirect(url_for("player.link", slug=slug, token=token, _anchor="judge-call"), 303)


@bp.post("/t/<slug>/p/<token>/judge/cancel")
def cancel(slug: str, token: str):
    t, player = linked_player(slug, token)
    if not StepForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    if service.cancel(t, player):
        flash("Your judge call is cancelled.", "success")
    else:
        flash("You had no call open; nothing changed.", "error")
    return redirect(url_for("player.link", slug=slug, token=token, _anchor="judge-call"), 303)


@bp.get("/t/<slug>/p/<token>/judge")
@read_only
def mine(slug: str, token: str):
    """The player's call box as the page draws it, ETag'd by the call's id and step: the page's poll while a
    call is open."""
    t, player = linked_player(slug, token)
    latest = service.latest_call(t, player)
    etag = f"call-{latest.id}-{latest.state.value}" if latest else "call-none"
    if client_has(etag):
        return "", 304, {"ETag": f'"{etag}"', "Cache-Control": NO_CACHE}
    response = jsonify(html=_player_box(t, player, token), live=bool(latest and latest.live))
    response.set_etag(etag)
    response.headers["Cache-Control"] = NO_CACHE
    return response


# ---------------------------------------------------------------- the staff's side

def _panel_context(t: Tournament) -> dict:
    stamp, calls = service.panel(t)
    return dict(t=t, stamp=stamp, calls=calls, act=may(current_user, t, SCORE), me=current_user.id,
                step_form=StepForm(), states=service.CallState)


@bp.app_template_global("judge_calls_panel")
def judge_calls_panel(t: Tournament) -> Markup:
    """The staff pages' part (round pages, the dashboard): open calls with claim and resolve buttons, a badge
    with their number, the sound switch. Empty for anyone who may not read the event's scoring pages."""
    if not current_user.is_authenticated or not may_read(current_user, t, SCORE):
        return Markup("")
    return Markup(render_template("judge_calls/_panel.html", **_panel_context(t)))


def _live_etag(t: Tournament) -> str:
    return f"calls-{service.stamp(t)}-{current_user.id}-{int(may(current_user, t, SCORE))}"


@bp.get("/tournaments/<int:tid>/judge-calls/live")
@read_only
@login_required
def live(tid: int):
    """What the staff pages poll: the open calls' list as the panel draws it, and their number. ETag'd by the
    calls' stamp: nothing new costs one small query and a 304."""
    t = managed_tournament(tid, SCORE)
    etag = _live_etag(t)
    if client_has(etag):
        return "", 304, {"ETag": f'"{etag}"', "Cache-Control": NO_CACHE}
    response = jsonify(_live_body(t))
    response.set_etag(etag)
    response.headers["Cache-Control"] = NO_CACHE
    return response


def _live_body(t: Tournament) -> dict:
    context = _panel_context(t)
    html = render_template("judge_calls/_list.html", **context)
    return {"html": html, "open": sum(c.state is service.CallState.OPEN for c in context["calls"]),
            "calls": len(context["calls"])}


@bp.get("/tournaments/<int:tid>/judge-calls")
@login_required
def index(tid: int):
    """Every call of the event: who called, when, who claimed it, when it was resolved or cancelled."""
    t = managed_tournament(tid, SCORE)
    return render_template("judge_calls/index.html", log=service.call_log(t), **_panel_context(t))


def _step(tid: int, cid: int, step):
    t = managed_tournament(tid, SCORE)
    if not StepForm().validate():
        return _answer(t, 400, "The form expired. Reload the page and try again.")
    try:
        done = step(t, cid, current_user)
    except LookupError:
        return _answer(t, 404, "That judge call is not part of this event.")
    except service.CallRefused as e:
        return _answer(t, 409, str(e))
    verb = "is yours" if done.state is service.CallState.CLAIMED else "is resolved"
    return _answer(t, 200, f"The call from {done.player} ({done.where}) {verb}.")


def _answer(t: Tournament, status: int, message: str):
    """JSON for the panel's script (the message and the fresh list), else a flash and the calls' page."""
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json":
        body = {"message": message, **_live_body(t)}
        if status != 200:
            body["error"] = message
        return jsonify(body), status
    if status in (400, 404):
        abort(status, message)
    flash(message, "success" if status == 200 else "error")
    return redirect(url_for("judge_calls.index", tid=t.id), 303)


@bp.post("/tournaments/<int:tid>/judge-calls/<int:cid>/claim")
@login_required
def claim(tid: int, cid: int):
    return _step(tid, cid, service.claim)


@bp.post("/tournaments/<int:tid>/judge-calls/<int:cid>/resolve")
@login_required
def resolve(tid: int, cid: int):
    return _step(tid, cid, service.resolve)
