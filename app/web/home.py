"""The event's home page: drawn by the public view, and again by a registration that was refused (with its
errors in the form). It polls the event's status like the pairings page (static/poll.js) and reloads itself when a
round is published, so the "You:" line a QR code opened never shows an earlier round's table."""
from __future__ import annotations

from flask import render_template

from ..core.identities import identities
from ..models import Tournament
from ..services import cut as cut_service
from ..services.players import registration as registration_service
from ..services.swiss import rounds
from . import nrdb_oauth, player_session
from .forms.players import EntryForm


def render_home(t: Tournament, form: EntryForm | None = None, status: int = 200):
    """While registration is open, the page holds the form to register, or this device's entry."""
    registration = registration_service.status(t)
    me = player_session.current_player(t)
    if form is None and registration.open and me is None:
        form = EntryForm(name=nrdb_oauth.username())  # signed in with NetrunnerDB: its username to start
    summaries = rounds.round_summaries(t, published_only=True)
    return render_template("public/home.html", t=t, summaries=summaries,
                           seeded_rounds=[s.number for s in summaries if s.seeded],
                           registration=registration, me=me, form=form, identities=identities(),
                           cut=cut_service.progress(t), status=rounds.status(t)), status
