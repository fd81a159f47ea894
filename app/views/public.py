"""Pages for players, no login: an event's home, pairings, past rounds, standings, and a tiny status feed.

Only published rounds are shown; standings count the published rounds only.
"""
from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort, jsonify, render_template, request

from ..extensions import db
from ..models import Round, Tournament
from ..services import rounds as service
from .access import public_tournament

bp = Blueprint("public", __name__)

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
    t = public_tournament(slug)
    return render_template("public/home.html", t=t, summaries=service.round_summaries(t, published_only=True))


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
    return render_template("public/pairings.html", t=t, rnd=rnd, current=current, query=query,
                           summaries=service.round_summaries(t, published_only=True),
                           status=service.status(t) if current else None)


@bp.get("/t/<slug>/standings")
def standings(slug: str):
    t = public_tournament(slug)
    latest = service.latest_published(t)
    return render_template("public/standings.html", t=t, latest=latest,
                           table=service.standings(t, published_only=True))


@bp.get("/t/<slug>/status.json")
def status(slug: str):
    t = public_tournament(slug)
    response = jsonify(service.status(t))
    response.headers["Cache-Control"] = "no-cache"
    return response
