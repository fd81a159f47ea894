"""Server-side authorization: the one place that decides who may do what to a tournament.

Organizer routes name the capability they need; players act through their player link
(app/services/player_links.py), never through these checks.
"""
from __future__ import annotations

from flask import abort
from flask_login import current_user

from ..extensions import db
from ..models import Tournament

# Capabilities, from the narrowest to the widest.
SCORE = "score"        # results, disputes, the round timer (a scorekeeper's work)
ORGANIZE = "organize"  # everything a TO does, except what only the owner may
OWN = "own"            # delete the event, manage its staff


def may(user, tournament: Tournament, capability: str = ORGANIZE) -> bool:
    """Whether `user` holds `capability` in `tournament`."""
    if not user.is_authenticated:
        return False
    return user.is_admin or tournament.owner_id == user.id


def managed_tournament(tournament_id: int, capability: str = ORGANIZE) -> Tournament:
    """The tournament, if the logged-in user holds `capability` in it; 404 or 403 otherwise.

    Routes using it must also be wrapped in @login_required, which answers anonymous users first.
    """
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        abort(404)
    if not may(current_user, tournament, capability):
        abort(403)
    return tournament


def public_tournament(slug: str) -> Tournament:
    tournament = db.session.execute(db.select(Tournament).filter_by(slug=slug)).scalar_one_or_none()
    if tournament is None:
        abort(404)
    return tournament
