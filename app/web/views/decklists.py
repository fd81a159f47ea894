"""Decklists: a player submits their own through their link; the TO sets the event up, reviews, enters or replaces
any list, unlocks one after the lock, and prints deck-check sheets; the public sees the lists the event's setting
opens. The rules are app/core/decklists.py, the storage app/services/decklists.py.
"""
from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_login import current_user, login_required
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from ...core.decklists import Side
from ...models import Player, Tournament
from ...services import decklists as service
from ...services import next_step
from ...services.event_files import export
from ...services.players.players import rounds_started
from .. import built_pages
from ..access import ORGANIZE, OWNER, SCORE, linked_player, managed_player, managed_tournament, public_tournament, role
from ..forms.decklists import ActionForm, DecklistForm, DecklistSettingsForm

bp = Blueprint("decklists", __name__)

SIDE = "<side>"

@bp.errorhandler(RequestEntityTooLarge)
def too_large(e):
    """A paste beyond the upload limit (2 MB) never reaches the form: say what happened, keep nothing."""
    return render_template("error.html", code=413, message="That paste is far too large for a decklist (over 2 MB; "
                           "a list is a few kilobytes). Nothing was saved: go back and paste only the list."), 413


def _sheet(deck) -> dict:
    """What a page shows of a stored list."""
    size, points = service.counts(deck)
    return {"deck": deck, "identity": service.identity_title(deck), "groups": service.groups(deck),
            "problems": service.problems(deck), "size": size, "points": points}


# ---------------------------------------------------------------- the player's own lists

@bp.route("/t/<slug>/p/<token>/decklists", methods=["GET", "POST"])
def mine(slug: str, token: str):
    t, player = linked_player(slug, token)
    form = DecklistForm()
    status = 200
    if request.method == "POST":
        if form.validate():
            try:
                deck, checked = service.submit(t, player, form.side.data, form.text.data, "player")
            except service.DecklistError as e:
                form.text.errors = [str(e)]
                status = 422
            else:
                side = Side(deck.side).label
                if checked.valid:
                    flash(f"Your {side} list is in and legal.", "success")
                else:
                    flash(f"Your {side} list is saved, with {len(checked.problems)} problem"
                          f"{'s' * (len(checked.problems) != 1)} shown below. Fix and submit again, or ask the "
                          "organizer.", "warning")
                return redirect(url_for("decklists.mine", slug=slug, token=token) + f"#{deck.side}", 303)
        else:
            status = 422
    decks = service.lists_of(t, player)
    over = service.closed_to_player(t, player)
    return render_template("decklists/mine.html", t=t, player=player, token=token, form=form,
                           settings=service.settings(t), decks={s: _sheet(d) for s, d in decks.items()}, over=over,
                           may_change={s.value: not over and service.may_change(t, decks.get(s.value)) for s in Side},
                           posted_side=form.side.data if request.method == "POST" else None,
                           started=rounds_started(t)), status


# ---------------------------------------------------------------- the TO's side

def _managed_player(tid: int, pid: int, capability: str, side: str | None = None) -> tuple[Tournament, Player]:
    t, player = managed_player(tid, pid, capability)
    if side is not None and side not in {s.value for s in Side}:
        abort(404)
    return t, player


@bp.get("/tournaments/<int:tid>/decklists")
@login_required
def review(tid: int):
    t = managed_tournament(tid, SCORE)
    form = DecklistSettingsForm(obj=t, restriction=t.restriction or "", visibility=t.decklist_visibility)
    form.set_restrictions()
    show = request.args.get("show")
    review = service.review(t, {"all": True, "attention": False}.get(show))
    return render_template("decklists/review.html", t=t, review=review, settings=service.settings(t),
                           locked=service.locked(t), started=rounds_started(t), form=form, action=ActionForm())


@bp.post("/tournaments/<int:tid>/decklists/settings")
@login_required
def save_settings(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = DecklistSettingsForm()
    form.set_restrictions()
    if not form.validate():
        flash("Those settings were incomplete: " + "; ".join(e for errs in form.errors.values() for e in errs),
              "error")
        return redirect(url_for("decklists.review", tid=tid), 303)
    try:
        judged = service.save_settings(t, form.decklists.data, form.card_format.data, form.restriction.data,
                                       form.visibility.data)
    except service.DecklistError as e:
        flash(str(e), "error")
        return redirect(url_for("decklists.review", tid=tid), 303)
    flash("Decklist settings saved." + (f" {judged} list{'s' * (judged != 1)} checked again under the new rules."
                                        if judged else ""), "success")
    return redirect(url_for("decklists.review", tid=tid), 303)


@bp.route(f"/tournaments/<int:tid>/decklists/<int:pid>/{SIDE}", methods=["GET", "POST"])
@login_required
def enter(tid: int, pid: int, side: str):
    """The TO enters or replaces a player's list, at any time (the lock is for players)."""
    t, player = _managed_player(tid, pid, ORGANIZE, side)
    deck = service.lists_of(t, player).get(side)
    form = DecklistForm(side=side, text=deck.text if deck and request.method == "GET" else None)
    status = 200
    if request.method == "POST":
        form.side.data = side
        if form.validate():
            try:
                deck, checked = service.submit(t, player, side, form.text.data,
                                               "organizer" if role(current_user, t) == OWNER else "staff")
            except service.DecklistError as e:
                form.text.errors = [str(e)]
                status = 422
            else:
                flash(f"{player.name}'s {Side(side).label} list is saved"
                      + (" and legal." if checked.valid else f", with {len(checked.problems)} problem"
                         f"{'s' * (len(checked.problems) != 1)}."), "success" if checked.valid else "warning")
                return redirect(url_for("decklists.review", tid=tid) + f"#player-{pid}", 303)
        else:
            status = 422
    return render_template("decklists/enter.html", t=t, player=player, side=Side(side), form=form,
                           current=_sheet(deck) if deck else None, settings=service.settings(t)), status


@bp.post(f"/tournaments/<int:tid>/decklists/<int:pid>/{SIDE}/unlock")
@login_required
def unlock(tid: int, pid: int, side: str):
    t, player = _managed_player(tid, pid, ORGANIZE, side)
    if not ActionForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    if service.unlock(t, player, side):
        flash(f"{player.name} may change their {Side(side).label} list once more.", "success")
    else:
        flash(f"{player.name} has no {Side(side).label} list to unlock; enter it for them instead.", "error")
    return redirect(url_for("decklists.review", tid=tid) + f"#player-{pid}", 303)


@bp.post("/tournaments/<int:tid>/decklists/lock")
@login_required
def lock(tid: int):
    """Lock the lists now, before round 1 (the dashboard's choice beside pairing, and the review page's button)."""
    t = managed_tournament(tid, ORGANIZE)
    if not ActionForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    if service.lock(t):
        flash("The decklists are locked: players can no longer submit or change them. Unlock one player's list "
              "from the review if it must change.", "success")
    else:
        flash("The decklists were locked already.", "warning")
    back = "decklists.review" if request.form.get("next") == "review" else "tournaments.show"
    return redirect(url_for(back, tid=tid), 303)


@bp.post("/tournaments/<int:tid>/decklists/reopen")
@login_required
def reopen(tid: int):
    """Undo the lock before round 1: players may submit again."""
    t = managed_tournament(tid, ORGANIZE)
    if not ActionForm().validate():
        abort(400, "The form expired. Reload the page and try again.")
    try:
        service.reopen(t)
    except service.DecklistError as e:
        flash(str(e), "error")
    else:
        flash("The decklists are open again: players may submit until you lock them or pair round 1.", "success")
    return redirect(url_for("decklists.review", tid=tid), 303)


@bp.get("/tournaments/<int:tid>/decklists/<int:pid>/sheet")
@login_required
def sheet(tid: int, pid: int):
    """One player's deck-check sheet, both sides, laid out for paper."""
    t, player = _managed_player(tid, pid, SCORE)
    decks = service.lists_of(t, player)
    body = render_template("decklists/_sheets.html", t=t, settings=service.settings(t),
                           players=[(player, [_sheet(decks[s.value]) for s in Side if s.value in decks])])
    return render_template("decklists/print.html", t=t, title=f"Deck check · {player.name}", body=Markup(body))


@bp.get("/tournaments/<int:tid>/decklists/print")
@login_required
def print_all(tid: int):
    """Every list as one printout, a player per page: built once per event version (app/web/built_pages.py), as
    a GP's 4,000 lists cost a second to lay out."""
    t = managed_tournament(tid, SCORE)

    def build():
        players = [(p, [_sheet(d) for d in decks]) for p, decks in service.all_lists(t)]
        return render_template("decklists/_sheets.html", t=t, settings=service.settings(t), players=players), {}
    return built_pages.respond(t, "decklists-print", build,
                               lambda body, meta: render_template("decklists/print.html", t=t, title="All decklists",
                                                                  body=body))


@bp.get("/tournaments/<int:tid>/decklists.csv")
@login_required
def export_csv(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    return Response(export.decklists_csv(t), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{export.filename(t, "decklists")}"'})


# ---------------------------------------------------------------- public lists

@bp.get("/t/<slug>/decklists")
def public(slug: str):
    """The lists the event's setting opens (the cut's once it is made, or everyone's after the event)."""
    t = public_tournament(slug)
    shown = service.public_lists(t, next_step.event_over(t))
    return render_template("decklists/public.html", t=t, settings=service.settings(t),
                           players=[(p, [_sheet(d) for d in decks]) for p, decks in shown])
