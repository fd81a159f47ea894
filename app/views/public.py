"""Pages for players, no login: an event's home, pairings, past rounds, standings, and a tiny status feed.

Only published rounds are shown; standings count the published rounds only.
"""
from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, render_template, request

from ..extensions import db
from ..models import Round, Tournament, utcnow
from ..names import name_key
from ..forms.players import EntryForm
from ..identities import identities
from ..services import cut as cut_service
from ..services import player_links
from ..services import registration as registration_service
from ..services import rounds as service
from ..services import timer
from ..services.status import poll
from .access import public_tournament
from .registration import sided

bp = Blueprint("public", __name__)
bp.add_app_template_filter(name_key, "name_key")

RECENT_EVENTS = 10


@bp.get("/")
def landing():
    recent = db.session.scalars(
        sa.select(Tournament)
        .where(sa.exists().where(Round.tournament_id == Tournament.id, Round.published))
        .order_by(Tournament.date.desc(), Tournament.id.desc()).limit(RECENT_EVENTS)).all()
    return render_template("public/landing.html", recent=recent)


@bp.get("/t/<slug>")
def home(slug: str):
    return home_page(public_tournament(slug))


def home_page(t: Tournament, form=None, status: int = 200):
    """The event's home; while registration is open, with the form to register (or this device's entry)."""
    registration = registration_service.status(t)
    me = player_links.current_player(t)
    if form is None and registration.open and me is None:
        form = EntryForm()
    return render_template("public/home.html", t=t, summaries=service.round_summaries(t, published_only=True),
                           registration=registration, me=me, form=form, sided=sided(t),
                           identities=identities(), cut=cut_state(t)), status


def cut_state(t: Tournament):
    """What the home page says once the swiss is over: the cut's size and round being played, or the champion."""
    cut = cut_service.load(t)
    if cut is None:
        return None
    champion = cut.bracket.champion()
    playing = [g.round for g in cut.bracket.ready_games()]
    return {"size": len(cut.bracket.seeds), "champion": cut.name(champion) if champion is not None else None,
            "round": min(playing) if playing else None}


@bp.get("/t/<slug>/pairings")
def pairings(slug: str):
    t = public_tournament(slug)
    return _round_page(t, service.latest_published(t), current=True)


@bp.get("/t/<slug>/rounds/<int:number>")
def round(slug: str, number: int):  # noqa: A001 - the endpoint is public.round
    t = public_tournament(slug)
    return _round_page(t, number, current=False)


def _round_page(t: Tournament, number: int, current: bool):
    rnd = service.load_round(t, number, published_only=True) if number else None
    if rnd is None and not current:
        abort(404)
    query = request.args.get("q", "", type=str).strip()[:100]
    clock = timer.round_clock(t, rnd.number) if rnd is not None and current else None
    return render_template("public/pairings.html", t=t, rnd=rnd, current=current, query=query, clock=clock,
                           summaries=service.round_summaries(t, published_only=True),
                           status=service.status(t) if current else None)


@bp.get("/t/<slug>/standings")
def standings(slug: str):
    t = public_tournament(slug)
    latest = service.latest_published(t)
    return render_template("public/standings.html", t=t, latest=latest,
                           progress=service.standings_progress(service.round_summaries(t, published_only=True)),
                           table=service.standings(t, published_only=True),
                           query=request.args.get("q", "", type=str).strip()[:100])


@bp.get("/t/<slug>/status.json")
def status(slug: str):
    """What phones poll: the round, a pairings version and the timer. Nothing in the body changes while the
    clock just ticks, so the ETag holds (a 304 costs a few bytes); the server's clock is in a header, on 304s
    too, for the browser to correct its own."""
    data = poll(slug)
    if data is None:
        abort(404)
    body = json.dumps(data, separators=(",", ":"), sort_keys=True)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:24])
    response.headers["Cache-Control"] = "no-cache"
    response = response.make_conditional(request)
    response.headers["X-Server-Time"] = str(int(utcnow().timestamp() * 1000))
    return response
