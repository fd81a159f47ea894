"""Server-side authorization: the one place that decides who may change a tournament."""
from __future__ import annotations

from flask import abort
from flask_login import current_user

from ..extensions import db
from ..models import Tournament


def managed_tournament(tournament_id: int) -> Tournament:
    """The tournament, if the logged-in user owns it (or is a site admin); 404 or 403 otherwise.

    Routes using it must also be wrapped in @login_required, which answers anonymous users first.
    """
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        abort(404)
    if not current_user.is_authenticated or not current_user.can_manage(tournament):
        abort(403)
    return tournament


def public_tournament(slug: str) -> Tournament:
    tournament = db.session.execute(db.select(Tournament).filter_by(slug=slug)).scalar_one_or_none()
    if tournament is None:
        abort(404)
    return tournament
