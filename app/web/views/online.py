"""Online events on jinteki.net: the event's one report address (/t/<slug>/report), which jinteki.net's round panel
can give every player, and the handles pairings show (template globals).

At the report address a phone this device's player session remembers (app/web/player_session.py) lands on its own
page; anyone else gives their name (or jinteki.net username) and the short code from their registration
(app/services/online/report_codes.py). A right code remembers the player on this device and opens their page; a
wrong one says so and names nobody. Guesses are throttled (app/web/throttle.py).
"""
from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for

from ...models import Player, Tournament
from ...services.players import player_links
from ...services.online import handles, report_codes
from .. import player_session
from ..access import public_tournament
from ..forms.online import ReportForm

bp = Blueprint("online", __name__)

NOT_ONLINE = ("This event is not played online: open the player link the organizer gave you (or scan its QR "
              "code) to report your results.")
WRONG = ("That code does not match {who}. Check the 6 characters on your registration page (the organizer's "
         "player list shows them too) and try again.")
NOBODY = "No player of this event is called “{who}”. Type your name as you registered it, or your jinteki.net username."


@bp.app_template_global("online_handles")
def online_handles(t: Tournament) -> dict:
    """Every player's handles by player id ({} unless the event is online), read once per request however many
    rows a page draws."""
    cache = g.setdefault("online_handles", {})
    key = (t.id, t.version, t.online)
    if key not in cache:
        cache[key] = handles.of_event(t)
    return cache[key]


@bp.app_template_global("online_handle")
def online_handle(t: Tournament, name: str | None):
    """One player's handles by their name (a player's page knows only the opponent's name)."""
    return handles.named(t, name)


@bp.app_template_global("online_missing")
def online_missing(t: Tournament) -> int:
    """Active players of an online event without a jinteki.net username (the dashboard says how many)."""
    return handles.missing(t)


@bp.app_template_global("report_code")
def report_code(player: Player) -> str:
    """The player's code, grouped for reading; shown to the player (their pages) and the TO (the player list)."""
    return report_codes.shown(player)


def _page(t: Tournament, form: ReportForm, status: int = 200, error: str = ""):
    form.code.data = ""  # a refused code is not shown again
    return render_template("online/report.html", t=t, form=form, error=error, names=report_codes.names(t),
                           not_online=NOT_ONLINE if not t.online else ""), status


@bp.get("/t/<slug>/report")
def report(slug: str):
    """The report address: a remembered phone goes to its own page; anyone else proves who they are."""
    t = public_tournament(slug)
    player = player_session.current_player(t) if player_session.holds_link(t) else None
    if player is not None and not request.args.get("other"):
        return redirect(url_for("player.link", slug=slug, token=player_links.token(player)), 303)
    return _page(t, ReportForm())


@bp.post("/t/<slug>/report")
def prove(slug: str):
    t = public_tournament(slug)
    form = ReportForm()
    if not t.online:
        return _page(t, form, 422)
    if not form.validate() or not form.who.data or not form.code.data:
        return _page(t, form, 422, "" if form.errors else "Give your name and your code.")
    try:
        player = report_codes.prove(t, form.who.data, form.code.data)
    except report_codes.NoSuchPlayer:
        return _page(t, form, 422, NOBODY.format(who=form.who.data))
    except report_codes.WrongCode:
        return _page(t, form, 422, WRONG.format(who=form.who.data))
    player_session.remember(t, player)
    return redirect(url_for("player.link", slug=slug, token=player_links.token(player)), 303)
