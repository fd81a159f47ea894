"""Server-side authorization: the one place that decides who may do what to a tournament.

Organizer routes name the capability they need; players act through their player link
(app/services/players/player_links.py, kept on a device by app/web/player_session.py), never through these checks.

Roles in one event: its owner (everything), staff added by the owner as "organizer" (everything but deleting
the event and managing staff) or "scorekeeper" (results, disputes, the timer). The site admin sees and exports
every event (GET requests) but changes only the events where they hold a role themselves.
"""
from __future__ import annotations

import sqlalchemy as sa
from flask import abort, request
from flask_login import current_user
from werkzeug.exceptions import Forbidden

from ..extensions import db
from ..models import EventGroup, Player, Series, SeriesStaff, Staff, Tournament
from ..services import event_stats
from ..services.players import player_links

# Capabilities, from the narrowest to the widest.
SCORE = "score"        # results, disputes, the round timer (a scorekeeper's work)
ORGANIZE = "organize"  # everything a TO does, except what only the owner may
OWN = "own"            # delete the event, manage its staff

OWNER, ORGANIZER, SCOREKEEPER = "owner", "organizer", "scorekeeper"
GRANTS = {OWNER: {SCORE, ORGANIZE, OWN}, ORGANIZER: {SCORE, ORGANIZE}, SCOREKEEPER: {SCORE}}

READ_METHODS = {"GET", "HEAD", "OPTIONS"}

# Who holds each capability, as a refusal names them.
HOLDERS = {SCORE: "the event's scorekeepers and organizers", ORGANIZE: "the event's organizers",
           OWN: "the event's owner"}


class Refused(Forbidden):
    """A 403 that says what the page needs and what the caller is here; the error page links back to the event
    when they hold a role in it (app/web/errors.py)."""

    def __init__(self, tournament: Tournament, capability: str, held: str | None, admin: bool):
        self.tournament_id = tournament.id if held else None
        if held:
            you = f"you are {'its' if held == OWNER else 'a'} {held} here"
        elif admin:
            you = "as the site admin you may read it but change nothing"
        else:
            you = "you have no role in this event"
        super().__init__(f"This is for {HOLDERS[capability]}; {you}.")


def role(user, tournament: Tournament) -> str | None:
    """The user's role in this event: "owner", "organizer", "scorekeeper" or None. Read from the database on
    every call, so removing someone from the staff takes effect on their next request."""
    if not user.is_authenticated:
        return None
    if tournament.owner_id == user.id:
        return OWNER
    return db.session.scalar(sa.select(Staff.role).filter_by(tournament_id=tournament.id, user_id=user.id))


def may(user, tournament: Tournament, capability: str = ORGANIZE) -> bool:
    """Whether `user` holds `capability` in `tournament` (to change it; see may_read for the admin's reading)."""
    return capability in GRANTS.get(role(user, tournament), ())


def may_read(user, tournament: Tournament, capability: str = ORGANIZE) -> bool:
    """Whether `user` may open the pages of `capability` without changing anything: its holders, and the site
    admin for every event."""
    return user.is_authenticated and user.is_admin or may(user, tournament, capability)


def managed_tournament(tournament_id: int, capability: str = ORGANIZE) -> Tournament:
    """The tournament, if the logged-in user holds `capability` in it; 404 or 403 otherwise.

    GET requests also let the site admin in (read-only). Routes using it must also be wrapped in
    @login_required, which answers anonymous users first.
    """
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        abort(404)
    check = may_read if request.method in READ_METHODS else may
    if not check(current_user, tournament, capability):
        raise Refused(tournament, capability, role(current_user, tournament),
                      current_user.is_authenticated and current_user.is_admin)
    return tournament


def stats_tournament(slug: str) -> tuple[Tournament, bool]:
    """The tournament whose statistics (page and API) are asked for, and whether the public sees them yet: once
    the swiss is over (services/event_stats.public) for everyone, before that for its staff (SCORE) and the site
    admin only; 404 for anyone else."""
    tournament = public_tournament(slug)
    shown = event_stats.public(tournament)
    if not shown and not may_read(current_user, tournament, SCORE):
        abort(404, "The statistics are published when the swiss rounds are over.")
    return tournament, shown


def public_tournament(slug: str) -> Tournament:
    tournament = db.session.execute(db.select(Tournament).filter_by(slug=slug)).scalar_one_or_none()
    if tournament is None:
        abort(404)
    return tournament


BAD_LINK = ("This player link does not work: it is mistyped, or the organizer has replaced it with a new one. "
            "Ask the organizer for your link.")


def linked_player(slug: str, token: str) -> tuple[Tournament, Player]:
    """The event and the player a player link grants, and nothing else; 404 for a link that is not (or no longer)
    theirs."""
    t, player = player_links.linked(slug, token)
    if t is None:
        abort(404)
    if player is None:
        abort(404, BAD_LINK)
    return t, player


def managed_player(tid: int, pid: int, capability: str) -> tuple[Tournament, Player]:
    """A player of an event where the logged-in user holds `capability` (managed_tournament); 404 otherwise."""
    t = managed_tournament(tid, capability)
    player = db.session.get(Player, pid)
    if player is None or player.tournament_id != t.id:
        abort(404)
    return t, player



# Series (app/models/series.py): its owner does everything; its staff manage it (rules, events, players,
# invitations) but neither delete it nor change its staff. The site admin reads every series (GET). The public sees
# the standings and the series players' pages; the name suggestions and the TO's notes stay with the managers.
SERIES_MANAGE = "series manage"
SERIES_OWN = "series own"
SERIES_GRANTS = {OWNER: {SERIES_MANAGE, SERIES_OWN}, ORGANIZER: {SERIES_MANAGE}}


def series_role(user, series) -> str | None:
    if not user.is_authenticated:
        return None
    if series.owner_id == user.id:
        return OWNER
    return db.session.scalar(sa.select(SeriesStaff.role).filter_by(series_id=series.id, user_id=user.id))


def may_series(user, series, capability: str = SERIES_MANAGE) -> bool:
    return capability in SERIES_GRANTS.get(series_role(user, series), ())


def managed_series(series_id: int, capability: str = SERIES_MANAGE) -> Series:
    """The series, if the logged-in user holds `capability` in it (GET: the site admin too); 404 or 403 otherwise.
    Routes using it are also wrapped in @login_required."""
    series = db.session.get(Series, series_id)
    if series is None:
        abort(404)
    admin_reads = request.method in READ_METHODS and current_user.is_authenticated and current_user.is_admin
    if not (admin_reads or may_series(current_user, series, capability)):
        who = "the series' owner" if capability == SERIES_OWN else "the series' owner and staff"
        raise Forbidden(f"This is for {who}.")
    return series


def public_series(slug: str) -> Series:
    series = db.session.execute(db.select(Series).filter_by(slug=slug)).scalar_one_or_none()
    if series is None:
        abort(404)
    return series
def owned_group(group_id: int) -> EventGroup:
    """An event group, for the account that made it; the site admin reads it (GET) too. Anyone else, the staff of
    its events included, gets a 404: a group is its owner's, not its events' (app/services/groups.py)."""
    group = db.session.get(EventGroup, group_id)
    if group is None or not current_user.is_authenticated:
        abort(404)
    if group.owner_id != current_user.id and not (current_user.is_admin and request.method in READ_METHODS):
        abort(404)
    return group
