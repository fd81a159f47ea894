"""Players act through their secret link: their own page, report / confirm / dispute their table, drop.
The TO shows, prints and replaces links, and watches reports arrive on the round page.

A player route is authorized by the token in its URL alone (app/services/player_links.py): it grants that
player's own actions in that event and nothing else.
"""
from __future__ import annotations

import segno
from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from ...core import results
from ...extensions import db
from ..forms.participation import ConfirmForm, PlayerReportForm
from ...models import Player, Tournament
from ...core.pairing import Format
from ...services import participation, player_links
from ...services import rounds as rounds_service
from .. import player_session
from ..access import ORGANIZE, managed_tournament, may, public_tournament

bp = Blueprint("player", __name__)

BAD_LINK = ("This player link does not work: it is mistyped, or the organizer has replaced it with a new one. "
            "Ask the organizer for your link.")


def _player(slug: str, token: str) -> tuple[Tournament, Player]:
    t = public_tournament(slug)
    player = player_links.player_for(t, token)
    if player is None:
        abort(404, BAD_LINK)
    return t, player


def result_text(fmt: Format, key: str, mine: participation.MyTable | None = None) -> str:
    """A result as a player reads it: single-sided keys as they are; numbers with the names they belong to."""
    text = results.label(fmt, key)
    if mine is None or Format(fmt) is Format.SINGLE_SIDED or key == results.BYE:
        return text
    if Format(fmt) is Format.DOUBLE_SIDED:
        return results.double_story(key, mine.first_name, mine.second_name)
    return f"{mine.first_name} {text} {mine.second_name}"


@bp.get("/t/<slug>/p/<token>")
def link(slug: str, token: str):
    t, player = _player(slug, token)
    player_session.remember(t, player)
    mine = participation.my_table(t, player)
    return render_template("player/me.html", t=t, player=player, mine=mine, token=token,
                           buttons=results.buttons(t.fmt), text=lambda key: result_text(t.fmt, key, mine),
                           form=PlayerReportForm(), confirm_form=ConfirmForm())


@bp.post("/t/<slug>/p/<token>/report")
def report(slug: str, token: str):
    t, player = _player(slug, token)
    form = PlayerReportForm()
    back = redirect(url_for("player.link", slug=slug, token=token), 303)
    if not form.validate():
        flash("That report was incomplete. Tap a result button again.", "error")
        return back
    try:
        state = participation.report(t, player, form.match.data, form.result.data)
    except rounds_service.NotFound:
        flash("That table is not part of this event.", "error")
        return back
    except (results.ResultError, rounds_service.RoundError) as e:
        flash(str(e), "error")
        return back
    flash({participation.CONFIRMED: "Thanks, the result is in.",
           participation.WAITING: "Reported. Your opponent confirms it on their phone.",
           participation.DISPUTED: "Your opponent reported something else. The organizer will settle it."}[state],
          "success" if state != participation.DISPUTED else "warning")
    return back


@bp.post("/t/<slug>/p/<token>/drop")
def drop(slug: str, token: str):
    t, player = _player(slug, token)
    if not ConfirmForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    if participation.drop(t, player):
        flash("You have dropped. You will not be paired in later rounds; your results stay.", "success")
    else:
        flash("You had dropped already; nothing changed. Only the organizer can bring you back in.", "error")
    return redirect(url_for("player.link", slug=slug, token=token), 303)


# ---------------------------------------------------------------- the TO's side

def _managed_player(tid: int, pid: int, capability: str) -> tuple[Tournament, Player]:
    t = managed_tournament(tid, capability)
    player = db.session.get(Player, pid)
    if player is None or player.tournament_id != t.id:
        abort(404)
    return t, player


@bp.get("/tournaments/<int:tid>/players/<int:pid>/link")
@login_required
def show_link(tid: int, pid: int):
    """A player's link is the player: shown only to those who may reissue it (organizers), never to the site
    admin reading the event (who reports nothing) nor to a scorekeeper."""
    t, player = _managed_player(tid, pid, ORGANIZE)
    if not may(current_user, t, ORGANIZE):
        abort(403)
    url = player_links.url(player, t)
    qr = Markup(segno.make(url, error="m").svg_inline(scale=6, omitsize=True, title=f"Player link of {player.name}"))
    return render_template("player/link.html", t=t, player=player, url=url, qr=qr, form=ConfirmForm())


@bp.post("/tournaments/<int:tid>/players/<int:pid>/link/reissue")
@login_required
def reissue(tid: int, pid: int):
    t, player = _managed_player(tid, pid, ORGANIZE)
    if not ConfirmForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    player_links.reissue(player)
    db.session.commit()
    flash(f"{player.name} has a new link; the old one no longer works.", "success")
    return redirect(url_for("player.show_link", tid=tid, pid=pid), 303)
