"""Read-only JSON API for stream overlays, chat bots and phones (docs/api.md).

Public data only (names, identities, pairings, results; never e-mail addresses), by the tournament's public slug.
Every answer carries an ETag; a client that sends it back in If-None-Match gets an empty 304 while nothing
changed, so hundreds of phones polling cost little bandwidth. CORS is open: any site may read.
"""
from __future__ import annotations

import hashlib

import sqlalchemy as sa
from flask import Blueprint, abort, current_app, request, url_for

from ...core import results
from ...extensions import db
from ...models import Match, Player, Round, Seat
from ...services import cut as cut_service
from ...services import event_stats
from .. import page_cache, seat_answers, shared_answers
from ...services.players import registration
from ...services.results import participation
from ...services.results import standings as standings_service
from ...services import state
from ...services.swiss import timer
from ...services.check_in import waitlist
from ...services.schedule import timeline as schedule_timeline
from ..access import public_tournament, stats_tournament

bp = Blueprint("api", __name__, url_prefix="/api")

@bp.after_request
def open_cors(response):
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers.setdefault("Cache-Control", "no-store")  # errors are not cached
    return response


def _json(data):
    """The JSON answer with an ETag from its bytes; 304 when the client already has it."""
    body = page_cache.json_text(data)
    response = current_app.response_class(body, mimetype="application/json")
    response.set_etag(hashlib.sha256(body.encode()).hexdigest()[:32])
    response.headers["Cache-Control"] = shared_answers.SHARED  # one answer for every client: a proxy keeps it
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
    players, waiting = waitlist.public_counts(t)
    rounds = _published_rounds(t)
    if _paired(t):  # the waitlist only matters before round 1; after, the field is who played
        players -= sum(1 for ps in state.out_states(t).values() if ps.did_not_play)
        waiting = None
    return _json({
        "name": t.name, "slug": t.slug, "date": t.date.isoformat(), "format": t.format,
        "format_label": t.fmt.label, "planned_rounds": t.planned_rounds, "players": players,
        "waitlist": waiting,
        "published_rounds": [r.number for r in rounds], "cut": t.cut_kind,
        "timer": timer.as_api(timer.current(t)[1]),
        "registration": registration.status(t).label,
        "links": {
            "rounds": url_for("api.rounds", slug=t.slug, _external=True),
            "standings": url_for("api.standings", slug=t.slug, _external=True),
            "bracket": url_for("api.bracket", slug=t.slug, _external=True),
            "stats": url_for("api.stats", slug=t.slug, _external=True),
            "nrtm": url_for("event_files.nrtm", slug=t.slug, _external=True),
            "schedule": url_for("api.schedule", slug=t.slug, _external=True),
        },
    })


def _paired(t) -> bool:
    """Round 1 is paired (published or not): the waitlist's line is over."""
    return db.session.scalar(sa.select(Round.id).where(Round.tournament_id == t.id).limit(1)) is not None


@bp.get("/tournaments/<slug>/schedule")
def schedule(slug: str):
    """The schedule with its estimate (app/core/schedule.py), the same for a minute."""
    t = public_tournament(slug)
    return _json(schedule_timeline.as_api(t, schedule_timeline.for_event(t, schedule_timeline.minute_now())))


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
    page = page_cache.get(t, f"api-round-{number}", lambda: page_cache.json_document(_pairings(t, number)))
    if page is None:
        abort(404, f"round {number} is not published")
    return _cached(page)


@bp.get("/tournaments/<slug>/rounds/<int:number>/seats/<int:bucket>")
def seats(slug: str, number: int, bucket: int):
    """One bucket of players' tables in a published round (app/core/seat_lookup.py): what a player's page reads
    its new table from at a publish, from the proxy's copy, before its own check."""
    t = public_tournament(slug)
    page = seat_answers.page(t, number, bucket)
    if page is None:
        abort(404, f"round {number} is not published")
    return _cached(page)


def _pairings(t, number: int):
    """A round's tables as plain rows: one query for the round, one for its seats with their names."""
    round_id = db.session.scalar(sa.select(Round.id).filter_by(tournament_id=t.id, number=number, published=True))
    if round_id is None:
        return None
    single = t.fmt.sided_tables
    reports = participation.api_states(t, round_id)
    pairings = []
    for mid, table, bye, result, draw, player, name, position, side, points, games_won in db.session.execute(
            sa.select(Match.id, Match.table, Match.is_bye, Match.result, Match.intentional_draw, Seat.player_id,
                      Player.name, Seat.position, Seat.side, Seat.points, Seat.games_won)
            .join(Seat, Seat.match_id == Match.id).join(Player, Player.id == Seat.player_id)
            .where(Match.round_id == round_id).order_by(Match.table, Seat.position)):
        if not pairings or pairings[-1]["table"] != table:
            pairings.append({"table": table, "bye": bye, "result": result, "intentional_draw": draw,
                             "report": reports.get(mid), "seats": []})
        seat = {"player": player, "name": name, "points": points}
        if single and not bye:
            seat["side"] = side or ("corp" if position == 1 else "runner")
        if t.fmt.counts_games:
            seat["games_won"] = games_won
        pairings[-1]["seats"].append(seat)
    if t.fmt.both_sides:
        for row in pairings:
            if not row["bye"] and row["result"] is not None and len(row["seats"]) == 2:
                scores = results.side_scores(row["result"])  # in seat order
                for seat, (corp, runner) in zip(row["seats"], scores, strict=True):
                    seat.update(corp_points=corp, runner_points=runner)
    return {"round": number, "pairings": pairings}


@bp.get("/tournaments/<slug>/standings")
def standings(slug: str):
    t = public_tournament(slug)
    return _cached(page_cache.get(t, "api-standings", lambda: page_cache.json_document(_standings(t))))


def _standings(t):
    from ...core.standings import TIEBREAKERS, default_tiebreakers

    system = t.tiebreakers or default_tiebreakers(t.fmt)
    table = standings_service.standings(t, published_only=True)  # as the public page shows, in its words
    rows = []
    for s in table.rows:  # never a player who did not play; a disqualified one last, "dropped" to the public
        row = {"rank": s.rank, "player": s.player, "name": s.name, "points": s.points, "wins": s.wins,
               "losses": s.losses, "ties": s.ties, "byes": s.byes, "dropped": s.dropped,
               "status": table.words.get(s.player, ""),
               "tiebreakers": {name: _number(v) for name, v in zip(TIEBREAKERS[system], s.tiebreakers, strict=True)}}
        if t.fmt.sided_tables:
            row.update(corp=s.corp, runner=s.runner, side_balance=s.side_bias, side_label=s.side_label)
        rows.append(row)
    return {"tiebreakers": list(TIEBREAKERS[system]), "standings": rows}


@bp.get("/tournaments/<slug>/stats")
def stats(slug: str):
    """The event statistics page's numbers (docs/api.md), under the page's rule: public once the swiss is over,
    for the event's staff before (then never kept by a shared cache)."""
    t, public = stats_tournament(slug)
    page = page_cache.get(t, "api-stats", lambda: page_cache.json_document(_stats(t)))
    return page_cache.respond(page, cache_control=shared_answers.SHARED if public
                              else "private, no-cache")


def _stats(t):
    built = event_stats.build(t)

    def tally(x) -> dict:
        return {"players": x.players, "games": x.games, "wins": x.wins, "losses": x.losses, "draws": x.draws,
                "intentional_draws": x.intentional_draws,
                "win_rate": _number(x.win_rate) if x.win_rate is not None else None}

    def part(p):
        if p is None:
            return None
        out = {"players": p.players, "games": p.games, "draws": p.draws, "intentional_draws": p.intentional_draws}
        if built.netrunner:
            out["sides"] = {side.value: tally(x) for side, x in p.sides.items()}
            out["identities"] = [{"side": line.side.value, "identity": line.name, "faction": line.faction,
                                  **tally(line.tally)} for side in p.identities for line in p.identities[side]]
            out["factions"] = [{"side": line.side.value, "faction": line.faction, "name": line.name,
                                **tally(line.tally)} for side in p.factions for line in p.factions[side]]
        return out

    return {"format": t.format, "netrunner": built.netrunner, "byes": built.byes, "swiss": part(built.swiss),
            "cut": part(built.cut),
            "side_balance": [{"difference": d, "players": n} for d, n in built.side_balance]}


def _cached(page):
    return page_cache.respond(page, cache_control=shared_answers.SHARED)


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
                for p, seed, slot in zip(g.players, (g.seed1, g.seed2), g.slots, strict=True)
            ],
            "winner": g.winner,
        })
    return _json({
        "kind": t.cut_kind, "size": len(cut.bracket.seeds), "complete": cut.bracket.is_complete(),
        "champion": cut.bracket.champion(), "games": games,
        # who was disqualified is the staff's and the player's to know: the public reads "dropped", and the
        # order (a disqualified player last) is the rest of the answer
        "standings": [{k: v for k, v in r.items() if k != "disqualified"} for r in cut.final_standings()],
    })
