"""Players act through their secret link: their own page, report / confirm / dispute their table, drop.
The TO shows, prints and replaces links, and watches reports arrive on the round page.

A player route is authorized by the token in its URL alone (app/services/players/player_links.py): it grants that
player's own actions in that event and nothing else.
"""
from __future__ import annotations


import sqlalchemy as sa
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from markupsafe import Markup

from ...core import result_wording, results, seat_lookup
from ...core import qr as qr_codes
from ...extensions import db
from ..forms.participation import ConfirmForm, PlayerReportForm
from ...models import Player, Tournament
from ...services.players import player_links, player_page, states
from ...services.push import settings as push_settings
from ...services.results import participation
from ...services.swiss import timer
from ...services.schedule import timeline as schedule_timeline
from ...services.swiss import rounds as rounds_service
from .. import live_parts, player_session
from ..access import ORGANIZE, linked_player, managed_player, may
from ..read_only import read_only
from ..conditional import client_has, names

bp = Blueprint("player", __name__)


# A player's page's parts that change while it is open, by element id, with the macro that draws each
# (templates/player/_parts.html).
LIVE_PARTS = {"me-dropped": "me_dropped", "me-clock": "me_clock", "me-card": "me_card", "me-tabs": "me_tabs",
              "me-drop": "me_drop", "judge-call": "me_judge", "check-in": "me_check_in", "me-next": "me_next"}


def _context(t: Tournament, player: Player, token: str, known: player_page.Known | None) -> dict:
    """What the page and its parts read: the player's view now (services/players/player_page.py; its boxes from `known`,
    the facts the ETag was made of), their result buttons and results worded from their seat
    (app/core/result_wording.py)."""
    me = player_page.view(t, player, known)
    seat = me.seat
    clock = timer.clock_from_row(*me.mine.timer) if me.clock_round else None
    return {"t": t, "player": player, "token": token, "me": me, "clock": clock,
            "choices": result_wording.choices(t.fmt, seat),
            "text": lambda key: result_wording.worded(t.fmt, key, seat),
            "told": lambda key: result_wording.worded(t.fmt, key, seat, result_wording.Person.YOU)}


def _parts(context: dict, ids=None) -> live_parts.Parts:
    """The page's live parts (those in `ids`, else all), drawn by player/_parts.html. The clock is digested by
    its round alone: its HTML carries the server's time, and static/countdown.js follows the timer from
    status.json."""
    def seen(part: str, html: str) -> str:
        return str(context["me"].clock_round) if part == "me-clock" else html

    return live_parts.draw("player/_parts.html", context,
                           lambda macros: {part: getattr(macros, macro) for part, macro in LIVE_PARTS.items()},
                           ids, seen)


def _known(slug: str, player_id: int, t: Tournament | None = None) -> tuple[player_page.Known | None, str | None]:
    """The player's facts (player_page.version) and the page's ETag made of them; (None, None): no such player."""
    known = player_page.version(slug, player_id)
    return known, _etag(slug, player_id, known, t) if known is not None else None


def _etag(slug: str, player_id: int, known: player_page.Known, t: Tournament | None = None) -> str:
    """The page's ETag: what the parts follow from, without drawing them (another table's report costs this page a
    304; the clock's state comes with status.json), and what the schedule's "Next:" line says this minute (kept
    per event, version and minute: no query on the poll's 304; `t`, when the caller has it, spares the first ask
    of a minute one)."""
    nxt = schedule_timeline.next_tag(slug, known.event_version, (lambda: t) if t is not None else lambda: _event(slug))
    return f"me-{player_id}-{known.tag}-{nxt}"


def _seats_url(slug: str, player_id: int) -> str:
    """Where the page reads its new table at a publish (api.seats, a shared answer), `{round}` for the round."""
    return url_for("api.seats", slug=slug, number=1, bucket=seat_lookup.bucket(player_id)).replace(
        "/rounds/1/", "/rounds/{round}/")


def _event(slug: str) -> Tournament | None:
    return db.session.scalar(sa.select(Tournament).where(Tournament.slug == slug))


@bp.get("/t/<slug>/p/<token>")
def link(slug: str, token: str):
    t, player = linked_player(slug, token)
    player_session.remember(t, player)
    known, etag = _known(slug, player.id, t)
    context = _context(t, player, token, known)
    parts = _parts(context)
    return render_template("player/me.html", **context, **push_settings.page(current_app._get_current_object()),
                           live=live_parts.htmls(parts), live_digests=live_parts.digests(parts),
                           live_url=url_for("player.live", slug=slug, token=token), live_etag=etag,
                           seats_url=_seats_url(slug, player.id),
                           pace=player_page.check_pace(t))


@bp.get("/t/<slug>/p/<token>/live")
@read_only
def live(slug: str, token: str):
    """What a player's page polls (static/player_live.js): every live part's digest and HTML, drawn as the page
    draws them (only the parts named in ?parts=a,b when asked so, as pages from before did): the opponent's
    report, a new round, the cut and the final place show without a reload, in one answer after a publish (the
    parts are drawn for their digests anyway). ETag'd (_etag): an unchanged table costs a 304, which
    app/web/player_checks.py answers before this view for a current link (`unchanged`); a moved link's gets it
    here."""
    t, player = linked_player(slug, token)
    pid, known, etag = request.environ.get(_READ, (None, None, None))
    if pid != player.id:  # not read before the view, or a moved link (which names another id)
        known, etag = _known(slug, player.id, t)
    if client_has(etag):
        return live_parts.unchanged(etag)
    parts = _parts(_context(t, player, token, known), live_parts.asked())
    return live_parts.answer(parts, set(parts), etag)


_READ = "sass.player_check"  # the request's environ: (player id, facts, ETag) read by `unchanged`


def unchanged(environ: dict, slug: str, token: str) -> str | None:
    """The check's ETag when its If-None-Match names it and `token` is the player's current link (a 304 answers
    the check), else None, in one statement, which also reads the link's key; the facts are left in `environ` for
    the view, which answers the check in full (or checks a moved or bad link)."""
    pid = player_links.named_player(token)
    if pid is None:
        return None
    known, etag = _known(slug, pid)
    if known is None:
        return None
    if player_links.is_valid(token, pid, known.link_key) and names(environ.get("HTTP_IF_NONE_MATCH"), etag):
        return etag
    environ[_READ] = (pid, known, etag)
    return None


def _refused(slug: str, token: str, e: states.PartOver):
    """A player's action their state no longer allows (a disqualified player's report, drop...): 403, what
    happened in words, and the way back to their page; nothing was changed."""
    return render_template("error.html", code=403, message=str(e),
                           own_page=url_for("player.link", slug=slug, token=token)), 403


@bp.post("/t/<slug>/p/<token>/report")
def report(slug: str, token: str):
    t, player = linked_player(slug, token)
    form = PlayerReportForm()
    back = redirect(url_for("player.link", slug=slug, token=token), 303)
    if not form.validate():
        flash("That report was incomplete. Tap a result button again.", "error")
        return back
    try:
        state = participation.report(t, player, form.match.data, form.result.data)
    except states.PartOver as e:
        return _refused(slug, token, e)
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
    t, player = linked_player(slug, token)
    if not ConfirmForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    try:
        done = participation.drop(t, player)
    except states.PartOver as e:
        return _refused(slug, token, e)
    if done:
        flash("You have dropped. You will not be paired in later rounds; your results stay.", "success")
    else:
        flash("You had dropped already; nothing changed. Only the organizer can bring you back in.", "error")
    return redirect(url_for("player.link", slug=slug, token=token), 303)


# ---------------------------------------------------------------- the TO's side

@bp.get("/tournaments/<int:tid>/players/<int:pid>/link")
@login_required
def show_link(tid: int, pid: int):
    """A player's link is the player: shown only to those who may reissue it (organizers), never to the site
    admin reading the event (who reports nothing) nor to a scorekeeper."""
    t, player = managed_player(tid, pid, ORGANIZE)
    if not may(current_user, t, ORGANIZE):
        abort(403)
    url = player_links.url(player, t)
    qr = Markup(qr_codes.svg(url, qr_codes.HANDED_OVER, title=f"Player link of {player.name}"))
    return render_template("player/link.html", t=t, player=player, url=url, qr=qr, form=ConfirmForm())


@bp.post("/tournaments/<int:tid>/players/<int:pid>/link/reissue")
@login_required
def reissue(tid: int, pid: int):
    t, player = managed_player(tid, pid, ORGANIZE)
    if not ConfirmForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    player_links.reissue(player)
    flash(f"{player.name} has a new link; the old one no longer works.", "success")
    return redirect(url_for("player.show_link", tid=tid, pid=pid), 303)
