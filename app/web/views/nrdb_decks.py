"""Decks from NetrunnerDB: a player (through their link) or the TO pastes a NetrunnerDB deck's address, and the deck
is fetched and stored as that side's list, judged as a pasted one. The pages with the form are the decklist pages
(templates/decklists/); the fetch is app/services/nrdb/decks.py."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, url_for
from flask_login import current_user, login_required

from ...core.decklists import Side
from ...services import decklists
from ...services.nrdb import decks as service
from ..access import ORGANIZE, OWNER, linked_player, managed_player, role
from ..forms.nrdb_decks import NrdbDeckForm

bp = Blueprint("nrdb_decks", __name__)


def _errors(form: NrdbDeckForm) -> str:
    return " ".join(e for errors in form.errors.values() for e in errors) or "The form expired. Try again."


def _saved(who: str, side: str, checked, fetched) -> None:
    name = f" (“{fetched.name}”)" if fetched.name else ""
    if checked.valid:
        flash(f"{who} {Side(side).label} list is in from NetrunnerDB{name} and legal.", "success")
    else:
        n = len(checked.problems)
        flash(f"{who} {Side(side).label} list is in from NetrunnerDB{name}, with {n} problem{'s' * (n != 1)} shown "
              "below.", "warning")


@bp.post("/t/<slug>/p/<token>/decklists/nrdb")
def mine(slug: str, token: str):
    """A player's own list from NetrunnerDB; back to their decklists page either way, the outcome flashed."""
    t, player = linked_player(slug, token)
    form = NrdbDeckForm()
    side = form.side.data if form.side.data in {s.value for s in Side} else "corp"
    back = url_for("decklists.mine", slug=slug, token=token) + f"#{side}"
    if not form.validate():
        flash(f"{_errors(form)} Nothing was saved.", "error")
        return redirect(back, 303)
    try:
        _, checked, fetched = service.submit(t, player, side, form.address.data, "player")
    except (service.FetchError, decklists.DecklistError) as e:
        flash(f"{e} Nothing was saved.", "error")
        return redirect(back, 303)
    _saved("Your", side, checked, fetched)
    return redirect(back, 303)


@bp.post("/tournaments/<int:tid>/decklists/<int:pid>/<side>/nrdb")
@login_required
def enter(tid: int, pid: int, side: str):
    """The TO fetches a player's list from NetrunnerDB, at any time (the lock is for players)."""
    t, player = managed_player(tid, pid, ORGANIZE)
    if side not in {s.value for s in Side}:
        abort(404)
    form = NrdbDeckForm()
    form.side.data = side
    if not form.validate():
        flash(f"{_errors(form)} Nothing was saved.", "error")
        return redirect(url_for("decklists.enter", tid=tid, pid=pid, side=side), 303)
    try:
        _, checked, fetched = service.submit(t, player, side, form.address.data,
                                             "organizer" if role(current_user, t) == OWNER else "staff")
    except (service.FetchError, decklists.DecklistError) as e:
        flash(f"{e} Nothing was saved.", "error")
        return redirect(url_for("decklists.enter", tid=tid, pid=pid, side=side), 303)
    _saved(f"{player.name}'s", side, checked, fetched)
    return redirect(url_for("decklists.review", tid=tid) + f"#player-{pid}", 303)
