"""Pages for players, no login: an event's home, pairings, past rounds, standings, and a tiny status feed.

Only published rounds are shown; standings count the published rounds only.
"""
from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from types import SimpleNamespace

from flask import Blueprint, abort, current_app, render_template, request, session, url_for
from flask_login import AnonymousUserMixin, current_user
from markupsafe import escape

from ...extensions import db
from ...models import Round, Tournament, utcnow
from ...core.names import name_key
from .. import page_cache
from ...services.players import player_links
from ...services.swiss import rounds as service
from ...services.results import standings as standings_service
from ...services.swiss import timer
from ...services.status import poll
from .. import player_session, seat_answers, shared_answers, template_helpers
from ..access import public_tournament
from ..read_only import read_only
from ..home import render_home

bp = Blueprint("public", __name__)

RECENT_EVENTS = 10


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page links: the site's icon (an SVG), not a 404."""
    return current_app.send_static_file("favicon.svg"), 200, {"Cache-Control": "public, max-age=86400"}


@bp.get("/")
def landing():
    recent = db.session.scalars(
        sa.select(Tournament)
        .where(sa.exists().where(Round.tournament_id == Tournament.id, Round.published))
        .order_by(Tournament.date.desc(), Tournament.id.desc()).limit(RECENT_EVENTS)).all()
    return render_template("public/landing.html", recent=recent)


@bp.get("/t/<slug>")
def home(slug: str):
    return render_home(public_tournament(slug))


_LATEST = (sa.select(Round.id).where(Round.tournament_id == Tournament.id, Round.published)
           .order_by(Round.number.desc()).limit(1).correlate(Tournament).scalar_subquery())


@bp.get("/t/<slug>/pairings")
def pairings(slug: str):
    """What every phone in the hall loads when a round goes up: one query (the event and its round's clock)
    and the shared page."""
    row = db.session.execute(
        sa.select(Tournament, Round.number, Round.timer_state, Round.timer_ends_at, Round.timer_remaining_ms)
        .outerjoin(Round, Round.id == _LATEST).where(Tournament.slug == slug)).first()
    if row is None:
        abort(404)
    t, number, *clock = row
    return _respond(t, _page(t, "pairings"), (number, timer.clock_from_row(*clock)) if number else None)


@bp.get("/t/<slug>/rounds/<int:number>")
def round(slug: str, number: int):  # noqa: A001 - the endpoint is public.round
    t = public_tournament(slug)
    page = _page(t, f"round-{number}")
    if page is None:
        abort(404)
    return _respond(t, page)


@bp.get("/t/<slug>/standings")
def standings(slug: str):
    t = public_tournament(slug)
    return _respond(t, _page(t, "standings"))


@bp.get("/t/<slug>/me.json")
@read_only
def me(slug: str):
    """This device's own parts of a shared public page (?page=pairings, standings or round-N), which the page
    asks for and shows (static/me.js): the player's "You" line and the row to mark (its position in the page
    and its names, so a page a publish made stale is never marked wrongly), an organizer's menu, flashed
    messages. Private and never kept: the shared page itself is the same for everyone (app/web/shared_answers.py)."""
    t = public_tournament(slug)
    answer: dict = {}
    env = current_app.jinja_env
    if current_user.is_authenticated:
        base = env.get_template("base.html")
        context = {"t": t}
        current_app.update_template_context(context)
        answer["nav"] = "".join(base.blocks["site_nav"](base.new_context(context))).strip()
    if session.get("_flashes"):
        base = env.get_template("base.html")
        answer["flashes"] = "".join(base.blocks["flashes"](base.new_context({}))).strip()
    player = player_session.current_player(t) if player_session.holds_link(t) else None
    if player is not None:
        you = _you(t, player, _page(t, "pairings").meta)  # the latest round's table, as every page says it
        answer["you"] = env.get_template("public/_you.html").render(
            {"t": t, "you_in": (lambda _t: you) if you is not None else template_helpers.you_in}).strip()
        page = _page(t, request.args.get("page", "", type=str))
        meta = page.meta if page is not None else {}
        row = meta.get("rows", {}).get(str(player.id))
        if row is not None and page.rows is not None and row < len(page.rows.keys):
            answer.update(row=row, names=page.rows.keys[row])
    response = current_app.response_class(json.dumps(answer, separators=(",", ":")), mimetype="application/json")
    response.headers["Cache-Control"] = shared_answers.OWN
    return response


def _page(t: Tournament, name: str) -> page_cache.Page | None:
    """A shared public page by its name (pairings, standings, round-N); None for no such page."""
    if name == "pairings":
        return page_cache.get(t, name, lambda: _build_round(t, service.latest_published(t), current=True))
    if name == "standings":
        return page_cache.get(t, name, lambda: _build_standings(t))
    number = name.removeprefix("round-")
    if name.startswith("round-") and number.isascii() and number.isdigit() and len(number) < 6:  # not "²"
        return page_cache.get(t, f"round-{int(number)}", lambda: _build_round(t, int(number), current=False))
    return None


def _you(t: Tournament, player, meta: dict):
    """The "You" line's facts from the current round's page, without asking the database again; None where
    the page has no round or the event has a cut (template_helpers.you_in then says it)."""
    if "seats" not in meta or t.cut_kind is not None:
        return None
    seat = meta["seats"].get(str(player.id))
    table = None if seat is None else SimpleNamespace(
        round_number=meta["clock"], table=seat[0], is_bye=seat[1], side=seat[2], opponent=seat[3])
    return {"player": player, "table": table, "status": template_helpers.you_status(t, player),
            "url": url_for("player.link", slug=t.slug, token=player_links.token(player))}


# The pages every phone loads are built once per tournament version for everyone (app/web/page_cache.py):
# built as nobody in particular, with slots where a request puts its own part.
def _shared_context(name: str) -> dict:
    return {"slot": page_cache.slot, "you_in": lambda _t: None, "current_user": AnonymousUserMixin(), "query": "",
            "me_page": name}


def _build_round(t: Tournament, number: int, current: bool):
    rnd = service.load_round(t, number, published_only=True) if number else None
    if rnd is None and not current:
        return None
    text = render_template("public/pairings.html", t=t, rnd=rnd, current=current, clock=None,
                           summaries=service.round_summaries(t, published_only=True),
                           status=service.status(t) if current else None,
                           **_shared_context("pairings" if current else f"round-{number}"))
    rows = {s.player_id: i for i, m in enumerate(rnd.matches) for s in m.seats} if rnd else {}
    meta = {"rows": rows, "clock": rnd.number if rnd is not None and current else None}
    if current and rnd is not None:  # each player's "You" line, as participation.my_table would say it
        meta["seats"] = {s.player_id: [m.table, m.is_bye, s.side, next((o.name for o in m.seats if o is not s), None)]
                         for m in rnd.matches for s in m.seats}
    return text, meta


def _build_standings(t: Tournament):
    latest = service.latest_published(t)
    table = standings_service.standings(t, published_only=True) if latest else None
    text = render_template("public/standings.html", t=t, latest=latest, table=table,
                           progress=service.standings_progress(service.round_summaries(t, published_only=True)),
                           **_shared_context("standings"))
    return text, {"rows": {s.player: i for i, s in enumerate(table.rows)} if table else {}, "clock": None}


_NAV: dict = {}


def _respond(t: Tournament, page: page_cache.Page, clock_now=None):
    """The shared page with what every request of this address has in common: the anonymous header, the
    round's clock, a search (?q=, for phones without JavaScript). Neither the session nor the account is
    read: the answer is the same for every visitor, and a proxy may keep it (app/web/shared_answers.py)."""
    context = {"t": t}  # the slots below need only the templates' globals
    env = current_app.jinja_env
    nav = _NAV.get((current_app.name, request.script_root))
    if nav is None:  # the same for every phone: drawn once
        base = env.get_template("base.html")
        nav = "".join(base.blocks["site_nav"](base.new_context({**context, "current_user": AnonymousUserMixin()})))
        _NAV[(current_app.name, request.script_root)] = nav
    slots = {"nav": nav}
    if "schedule" in page.parts:  # the schedule's "Next:" line moves with the time, not with the event's version
        slots["schedule"] = env.get_template("schedule/_next.html").render(context)
    clock_state = ""
    if page.meta.get("clock"):
        number = page.meta["clock"]
        clock = clock_now[1] if clock_now and clock_now[0] == number else timer.round_clock(t, number)
        slots["clock"] = env.get_template("timer/_countdown.html").render(
            {**context, "number": number, "clock": clock, "idle_hidden": True})
        clock_state = repr(clock)  # a 304 while the clock only ticks; countdown.js keeps the seconds
    query = request.args.get("q", "", type=str).strip()[:100]
    query_key = name_key(query)
    slots["q"] = str(escape(query))
    hits = page.hits(query_key) if query_key else len(page.rows.rows) if page.rows else 0
    slots["no-match"] = " hidden" if hits else ""
    return page_cache.respond(page, slots, None, query_key, ticking=("clock",), vary_on=clock_state,
                              cache_control=shared_answers.SHARED)


@bp.get("/t/<slug>/status.json")
@read_only
def status(slug: str):
    """What phones poll: the round, a pairings version and the timer. Nothing in the body changes while the
    clock just ticks, so the ETag holds (a 304 costs a few bytes); the server's clock is in a header, on 304s
    too, for the browser to correct its own."""
    data = poll(slug)
    if data is None:
        abort(404)
    seat_answers.ready(slug, data)  # a newly named round's seats answers made before the hall hears of it
    body = json.dumps(data, separators=(",", ":"), sort_keys=True)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:24])
    response.headers["Cache-Control"] = shared_answers.SHARED
    response = response.make_conditional(request)
    response.headers["X-Server-Time"] = str(int(utcnow().timestamp() * 1000))
    return response


@bp.get("/name-key.json")
def name_key_of():
    """A typed search as the server compares names (app/core/names.py): the search boxes ask here instead of
    folding names again in JavaScript, so the browser finds what ?q= finds (a Greek final sigma, "ß", accents).
    No database; the answer depends on the text alone, so browsers and proxies keep it for a day."""
    query = request.args.get("q", "", type=str).strip()[:100]
    response = current_app.response_class(json.dumps({"q": query, "key": name_key(query)}, ensure_ascii=False),
                                          mimetype="application/json")
    response.set_etag(hashlib.sha256(response.get_data()).hexdigest()[:24])
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response.make_conditional(request)
