"""Read-only JSON API for stream overlays, chat bots and phones (docs/api.md).

Public data only (names, identities, pairings, results; never e-mail addresses), by the tournament's public slug.
Every answer carries an ETag; a client that sends it back in If-None-Match gets an empty 304 while nothing
changed, so hundreds of phones polling cost little bandwidth. CORS is open: any site may read.
"""
from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, request, url_for
from sqlalchemy.orm import selectinload

from .. import results
from ..extensions import db
from ..models import Match, Player, Round
from ..pairing import Format
from ..services import cut as cut_service
from ..services import participation, registration
from ..services import state
from ..services import timer
from .access import public_tournament

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_AGE = 10  # seconds a client may reuse an answer without asking again


@bp.after_request
def open_cors(response):
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers.setdefault("Cache-Control", "no-store")  # errors are not cached
    return response


def _json(data):
    """The JSON answer with an ETag from its bytes; 304 when the client already has it."""
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = f"public, max-age={MAX_AGE}, must-revalidate"
    response.vary.add("Accept-Encoding")
    return response.make_conditional(request)


def _number(value) -> float:
    """Tiebreakers are exact Fractions inside SASS; JSON readers get a float."""
    return round(float(value), 6)


def _published_rounds(t) -> list[Round]:
    return db.session.scalars(sa.select(Round).filter_by(tournament_id=t.id, published=True)
                              .order_by(Round.number)).all()


@bp.get("/tournaments/<slug>")
def tournament(slug: str):
    t = public_tournament(slug)
    players = db.session.scalar(sa.select(sa.func.count(Player.id)).filter_by(tournament_id=t.id))
    rounds = _published_rounds(t)
    return _json({
        "name": t.name, "slug": t.slug, "date": t.date.isoformat(), "format": t.format,
        "format_label": t.fmt.label, "planned_rounds": t.planned_rounds, "players": players,
        "published_rounds": [r.number for r in rounds], "cut": t.cut_kind,
        "timer": timer.as_api(timer.current(t)[1]),
        "registration": registration.status(t).label,
        "links": {
            "rounds": url_for("api.rounds", slug=t.slug, _external=True),
            "standings": url_for("api.standings", slug=t.slug, _external=True),
            "bracket": url_for("api.bracket", slug=t.slug, _external=True),
            "nrtm": url_for("cut.nrtm", slug=t.slug, _external=True),
        },
    })


@bp.get("/tournaments/<slug>/rounds")
def rounds(slug: str):
    t = public_tournament(slug)
    rows = db.session.execute(
        sa.select(Round.number, sa.func.count(Match.id), sa.func.count(Match.result))
        .join(Match, Match.round_id == Round.id, isouter=True)
        .where(Round.tournament_id == t.id, Round.published.is_(True))
        .group_by(Round.number).order_by(Round.number)).all()
    return _json({"rounds": [
        {"number": n, "tables": tables, "reported": reported, "complete": tables == reported,
         "url": url_for("api.pairings", slug=t.slug, number=n, _external=True)}
        for n, tables, reported in rows
    ]})


@bp.get("/tournaments/<slug>/rounds/<int:number>")
def pairings(slug: str, number: int):
    t = public_tournament(slug)
    rnd = db.session.scalar(sa.select(Round).filter_by(tournament_id=t.id, number=number, published=True)
                            .options(selectinload(Round.matches).selectinload(Match.seats)))
    if rnd is None:
        abort(404, f"round {number} is not published")
    names = dict(db.session.execute(sa.select(Player.id, Player.name).filter_by(tournament_id=t.id)).all())
    single = t.fmt is Format.SINGLE_SIDED
    reports = participation.api_states(t, rnd.id)
    pairings = []
    for m in rnd.matches:
        seats = []
        for s in m.seats:
            seat = {"player": s.player_id, "name": names.get(s.player_id), "points": s.points}
            if single and not m.is_bye:
                seat["side"] = s.side or ("corp" if s.position == 1 else "runner")
            if t.fmt is Format.PLAIN:
                seat["games_won"] = s.games_won
            seats.append(seat)
        if t.fmt is Format.DOUBLE_SIDED and not m.is_bye and m.result is not None and len(seats) == 2:
            for seat, (corp, runner) in zip(seats, results.side_scores(m.result)):  # seats are in seat order
                seat.update(corp_points=corp, runner_points=runner)
        pairings.append({"table": m.table, "bye": m.is_bye, "result": m.result,
                         "intentional_draw": m.intentional_draw,
                         "report": reports.get(m.id), "seats": seats})
    return _json({"round": number, "pairings": pairings})


@bp.get("/tournaments/<slug>/standings")
def standings(slug: str):
    t = public_tournament(slug)
    from ..standings import TIEBREAKERS, default_tiebreakers

    system = t.tiebreakers or default_tiebreakers(t.fmt)
    rows = []
    for s in state.standings(t, published_only=True):  # as the public page shows
        row = {"rank": s.rank, "player": s.player, "name": s.name, "points": s.points, "wins": s.wins,
               "losses": s.losses, "ties": s.ties, "byes": s.byes, "dropped": s.dropped,
               "tiebreakers": {name: _number(v) for name, v in zip(TIEBREAKERS[system], s.tiebreakers)}}
        if t.fmt is Format.SINGLE_SIDED:
            row.update(corp=s.corp, runner=s.runner, side_balance=s.side_bias, side_label=s.side_label)
        rows.append(row)
    return _json({"tiebreakers": list(TIEBREAKERS[system]), "standings": rows})


@bp.get("/tournaments/<slug>/bracket")
def bracket(slug: str):
    t = public_tournament(slug)
    cut = cut_service.load(t)
    if cut is None:
        return _json({"kind": None, "size": 0, "games": [], "standings": []})
    games = []
    for g in cut.bracket.games:
        sides = cut.sides(g) if g.ready else None
        games.append({
            "game": g.id, "round": g.round, "section": g.section,
            "players": [
                {"player": p, "name": cut.name(p) if p is not None else None, "seed": seed,
                 "from": slot.label,
                 "side": None if not sides else ("corp" if p == sides[0] else "runner")}
                for p, seed, slot in zip(g.players, (g.seed1, g.seed2), g.slots)
            ],
            "winner": g.winner,
        })
    return _json({
        "kind": t.cut_kind, "size": len(cut.bracket.seeds), "complete": cut.bracket.is_complete(),
        "champion": cut.bracket.champion(), "games": games,
        "standings": cut.final_standings(),
    })
