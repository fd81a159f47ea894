"""NRTM JSON export: the file the Netrunner results site takes (docs/domain.md 9), from an event.

Player ids in an exported file are the players' numbers within the event (1..n in the order they were added), so
the file names no database ids and an export -> import (app/services/event_files/nrtm_import.py) -> export round trip
gives the same file.
"""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa

from ...core import results as result_rules
from ...extensions import db
from ...core.cards import nrtm_faction
from ...core.identities import canonical, player_faction
from ...models import Round, Tournament, User
from ...core.pairing import Format
from .. import cut as cut_service
from .. import state
from ..swiss import round_tables

SCHEMA_LINK = {"rel": "schemaderivedfrom", "href": "http://steffens.org/nrtm/nrtm-schema.json"}


def _number(value) -> float:
    """Tiebreakers are exact Fractions inside SASS; the file carries the nearest double, as Cobra writes them."""
    return float(value)


def export(tournament: Tournament, url: str, app_name: str = "SASS") -> dict:
    """The event as the public sees it, as an NRTM document: published swiss rounds and the standings they
    give, then the cut rounds. Never with `abrTournamentId`: AlwaysBeRunning takes a file naming its event only
    from a TO logged in there (app/services/abr/uploads.py `build`, docs/api.md)."""
    single = tournament.fmt.sided_tables
    standings = state.standings(tournament, published_only=True, cut_first=False)  # ranks: the swiss placings
    # numbered among the players the file holds: a player still on the waitlist or out before round 1 never
    # played and is not in it (ABR would show them as having played), a disqualified one is last
    # (state.swiss_standings); the numbers stay 1..n for the round trip
    ranked = {s.player for s in standings}
    players = sorted((p for p in tournament.players if p.id in ranked), key=lambda p: p.id)
    number = {p.id: i for i, p in enumerate(players, 1)}
    by_id = {p.id: p for p in players}
    cut = cut_service.load(tournament)
    rounds = _swiss_rounds(tournament)
    tables = round_tables.by_round(r.id for r in rounds)

    player_rows = []
    for s in standings:
        p = by_id[s.player]
        corp_id, runner_id = canonical(p.corp_identity) or None, canonical(p.runner_identity) or None
        row = {
            "id": number[p.id], "name": p.name, "rank": s.rank,
            "corpIdentity": corp_id, "corpFaction": nrtm_faction(player_faction(corp_id, "corp", p.corp_faction)),
            "runnerIdentity": runner_id,
            "runnerFaction": nrtm_faction(player_faction(runner_id, "runner", p.runner_faction)),
            "matchPoints": s.points,
            "strengthOfSchedule": _number(s.tiebreakers[0]) if s.tiebreakers else 0,
            "extendedStrengthOfSchedule": _number(s.tiebreakers[1]) if len(s.tiebreakers) > 1 else 0,
        }
        if single:
            row["sideBalance"] = s.side_bias
        row["pronouns"] = p.pronouns or ""
        player_rows.append(row)

    elimination = []
    cut_rounds = []
    if cut is not None:
        cut_rows = [r for r in cut.final_standings() if r["seed"] is not None]  # a disqualified one last
        for rank, r in enumerate(cut_rows, 1):
            elimination.append({"id": number[r["player"]], "name": r["name"], "rank": rank, "seed": r["seed"]})
        cut_rounds = _cut_rounds(cut, number)

    document = {
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "cutToTop": len(cut.bracket.seeds) if cut else 0,
        # the swiss rounds the file holds; an event not started yet says how many it plans
        "preliminaryRounds": len(rounds) or tournament.planned_rounds or 0,
        "tournamentOrganiser": organiser(tournament),
        "players": player_rows,
        "eliminationPlayers": elimination,
        "rounds": [[_swiss_pairing(m, number, tournament.fmt) for m in tables[r.id]] for r in rounds] + cut_rounds,
        "uploadedFrom": app_name,
        "links": [SCHEMA_LINK, {"rel": "uploadedfrom", "href": url}],
    }
    return document


def organiser(tournament: Tournament) -> dict:
    """Cobra writes the organizer's NetrunnerDB account (nrdbId, nrdbUsername); SASS knows the display name and the
    NetrunnerDB username the organizer gave in their account settings, and never writes the e-mail address. An
    account that gives neither writes the organiser of the file the event was imported from, if any."""
    user: User = tournament.owner
    if user.display_name or user.nrdb_username or not (tournament.organiser_name
                                                       or tournament.organiser_nrdb_username):
        return {"nrdbId": None, "nrdbUsername": user.nrdb_username or None, "name": user.display_name or None}
    return {"nrdbId": tournament.organiser_nrdb_id, "nrdbUsername": tournament.organiser_nrdb_username or None,
            "name": tournament.organiser_name or None}


def _swiss_rounds(tournament: Tournament) -> list[Round]:
    """The published rounds: the file is public, and a round still being checked is nobody else's business
    (a result entered in it does not make it public)."""
    return db.session.scalars(
        sa.select(Round).filter_by(tournament_id=tournament.id, published=True).order_by(Round.number)).all()


def _swiss_pairing(match: round_tables.Table, number: dict, fmt: Format) -> dict:
    seats = list(match.seats)  # by position
    players = [_swiss_player(s, match.is_bye, number, fmt, match.result) for s in seats]
    if len(players) == 1:  # a bye: its player in the seat they have (an imported file's player2 stays there)
        empty = _swiss_player(None, True, number, fmt)
        players = players + [empty] if seats[0].position == 1 else [empty] + players
    return {
        "table": match.table, "player1": players[0], "player2": players[1],
        "intentionalDraw": match.intentional_draw, "twoForOne": match.two_for_one, "eliminationGame": False,
    }


def _swiss_player(seat: Optional[sa.Row], bye: bool, number: dict, fmt: Format,
                  match_result: Optional[str] = None) -> dict:
    """A seat's scores; a penalty (Seat.penalty) comes off them, as the file it was imported from had it: a
    negative score, on a double-sided player's side score of 0 where there is one."""
    points = seat.points if seat is not None else (None if fmt.sided_tables else 0)
    penalty = seat.penalty if seat is not None else 0
    if points is not None:
        points -= penalty
    player = {"id": number[seat.player_id] if seat is not None else None}
    if fmt.sided_tables:
        role = None if bye else (seat.side or ("corp" if seat.position == 1 else "runner"))
        player["role"] = role
        player["corpScore"] = points if role == "corp" else None
        player["runnerScore"] = points if role == "runner" else None
        player["combinedScore"] = points if seat is not None else 0
    else:
        corp = runner = None
        if seat is not None and not bye and match_result is not None and fmt.both_sides:
            corp, runner = result_rules.side_scores(match_result)[seat.position - 1]
            if penalty and corp is not None:
                corp, runner = (corp - penalty, runner) if corp == 0 or runner != 0 else (corp, runner - penalty)
        player.update(corpScore=corp, runnerScore=runner, combinedScore=points)
    return player


def _cut_rounds(cut: cut_service.Cut, number: dict) -> list[list[dict]]:
    rounds: dict[int, list] = {}
    for g in cut.bracket.games:
        if not g.ready:
            continue
        sides = cut.sides(g) if g.reported else None
        corp = sides[0] if sides else None

        def player(pid, corp=corp, g=g):
            role = None if corp is None else ("corp" if pid == corp else "runner")
            return {"id": number[pid], "role": role, "winner": None if g.winner is None else g.winner == pid}

        rounds.setdefault(g.round, []).append({
            "table": cut.file_table(g), "player1": player(g.player1), "player2": player(g.player2),
            "intentionalDraw": False, "twoForOne": False, "eliminationGame": True,
        })
    return [sorted(rounds[r], key=lambda p: p["table"]) for r in sorted(rounds)]


