"""Random deck checks: the event's staff (SCORE) draw players to check (weighted away from those checked already,
or from the current round's top tables), open their lists (the decklists' deck-check sheets) and mark each one
checked. Private to the staff, like the penalty log."""
from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ...core.deck_checks import FRESH_WEIGHT, Pool
from ...services.penalties import deck_checks as service
from ...services.penalties.record import NotFound, Refused
from ..access import SCORE, managed_player, managed_tournament, may
from ..forms.penalties import CheckForm, DrawForm
from ..numbers import whole_number

bp = Blueprint("deck_checks", __name__, url_prefix="/tournaments/<int:tid>/deck-checks")


def _page(t, form: DrawForm, status: int = 200):
    return render_template("penalties/deck_checks.html", t=t, form=form, check_form=CheckForm(),
                           draws=service.draws(t), checks=service.checks(t), round_number=service.current_round(t),
                           fresh_weight=FRESH_WEIGHT, act=may(current_user, t, SCORE)), status


@bp.get("")
@login_required
def index(tid: int):
    """The draw form, the newest draws (each picked player with a link to their lists, a flag if checked before,
    and a button to mark them checked), and every check made."""
    return _page(managed_tournament(tid, SCORE), DrawForm())


@bp.post("/draw")
@login_required
def draw(tid: int):
    t = managed_tournament(tid, SCORE)
    form = DrawForm()
    if not form.validate():
        return _page(t, form, 400)
    try:
        row = service.draw(t, current_user, form.count.data, Pool(form.pool.data), form.top_tables.data)
    except Refused as e:
        form.count.errors.append(str(e))
        return _page(t, form, 409)
    flash(f"Picked {len(row.picked)} player{'s' if len(row.picked) != 1 else ''} for a deck check.", "success")
    return redirect(url_for("deck_checks.index", tid=t.id, _anchor=f"draw-{row.id}"), 303)


@bp.post("/<int:pid>/check")
@login_required
def check(tid: int, pid: int):
    t, player = managed_player(tid, pid, SCORE)
    form = CheckForm()
    if not form.validate():
        abort(400, "The form expired. Reload the page and try again.")
    draw_id = whole_number(form.draw.data)
    try:
        done = service.mark(t, current_user, player.id, draw_id)
    except NotFound:
        abort(404)
    if done:
        flash(f"{player.name}'s lists are marked checked.", "success")
    else:
        flash(f"{player.name}'s lists were already checked in this round; nothing changed.", "error")
    return redirect(url_for("deck_checks.index", tid=t.id), 303)
