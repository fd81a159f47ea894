"""Tournaments: the organizer's list, create, edit, delete, and the TO dashboard."""
from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from ...extensions import db
from ..forms.tournaments import DeleteTournamentForm, TournamentForm, default_score_factor
from ...models import Player, Round, Staff, Tournament, User
from ...core.round_advice import top8_recall
from ...core.standings import recommended_rounds
from ...services import cut as cut_service
from ...services import next_step
from ...services.organizers import staff as staff_service
from ...services import tournaments as service
from ...services.check_in import settings as check_in_settings
from ...services.players.players import bye_note, rounds_started
from ..access import ORGANIZE, OWN, SCORE, managed_tournament

bp = Blueprint("tournaments", __name__)

def _player_counts(tournament_ids: list[int]) -> dict[int, tuple[int, int]]:
    """(players, dropped) per tournament, in one query."""
    rows = db.session.execute(
        sa.select(Player.tournament_id, sa.func.count(), sa.func.sum(sa.case((Player.dropped, 1), else_=0)))
        .where(Player.tournament_id.in_(tournament_ids)).group_by(Player.tournament_id))
    return {tid: (total, int(dropped or 0)) for tid, total, dropped in rows}


@bp.get("/tournaments")
@login_required
def index():
    """The user's events (owned, or on their staff, marked with the role); the site admin sees every event."""
    staff_roles = dict(db.session.execute(sa.select(Staff.tournament_id, Staff.role)
                                          .filter_by(user_id=current_user.id)).all())
    query = sa.select(Tournament).order_by(Tournament.date.desc(), Tournament.id.desc())
    if not current_user.is_admin:
        query = query.where(sa.or_(Tournament.owner_id == current_user.id, Tournament.id.in_(staff_roles)))
    tournaments = db.session.scalars(query).all()
    ids = [t.id for t in tournaments]
    rounds = dict(db.session.execute(
        sa.select(Round.tournament_id, sa.func.max(Round.number)).where(Round.tournament_id.in_(ids))
        .group_by(Round.tournament_id)).all()) if ids else {}
    owners = dict(db.session.execute(sa.select(User.id, User.email)).all()) if current_user.is_admin else {}
    return render_template("tournaments/index.html", tournaments=tournaments, counts=_player_counts(ids),
                           rounds=rounds, owners=owners, staff_roles=staff_roles,
                           champions=cut_service.champions(tournaments))


@bp.route("/tournaments/new", methods=["GET", "POST"], endpoint="new")
@login_required
def create():
    form = TournamentForm()
    if form.validate_on_submit():
        tournament = service.create(current_user._get_current_object(), form.settings())
        flash(f"Created {tournament.name}. Add the players next.", "success")
        return redirect(url_for("tournaments.show", tid=tournament.id))
    return render_template("tournaments/form.html", form=form, tournament=None, started=False), \
        422 if form.errors else 200


bp.add_url_rule("/tournaments/new", "create", create, methods=["POST"])  # the contract names it both ways


@bp.get("/tournaments/<int:tid>")
@login_required
def show(tid: int):
    tournament = managed_tournament(tid, SCORE)
    total, dropped = _player_counts([tid]).get(tid, (0, 0))
    latest = db.session.scalars(sa.select(Round).filter_by(tournament_id=tid).order_by(Round.number.desc())
                                .limit(1)).first()
    step, facts = next_step.for_tournament(tournament)
    active = total - dropped
    recommended = recommended_rounds(active)
    return render_template("tournaments/show.html", tournament=tournament, players=total, dropped=dropped,
                           latest=latest, recommended=recommended, step=step,
                           recall=top8_recall(tournament.fmt, active, recommended),
                           default_score_factor=default_score_factor(),
                           bye_note=bye_note(facts.active, facts.requested_byes)
                           if facts.latest == 0 and step.kind in (next_step.PAIR, next_step.REVIEW_LISTS,
                                                                  next_step.ROLL_CALL) else None,
                           missing_staff=staff_service.pending(tournament))


@bp.route("/tournaments/<int:tid>/edit", methods=["GET", "POST"])
@login_required
def edit(tid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    started = rounds_started(tournament)
    form = TournamentForm(obj=tournament, tiebreakers=tournament.tiebreakers or "magic",
                          waitlist=check_in_settings.keeps_waitlist(tournament))
    if form.validate_on_submit():
        try:
            changed = service.change(tournament, form.settings())
        except service.Refused as e:
            form[e.field].errors.append(str(e))
        else:
            if changed.let_in:
                flash("In from the waitlist: " + ", ".join(changed.let_in) + ".", "success")
            judged = changed.judged
            flash("Settings saved." + (f" {judged} decklist{'s' * (judged != 1)} checked again under the rules of "
                                       "the new date." if judged else ""), "success")
            return redirect(url_for("tournaments.show", tid=tid))
    active = db.session.scalar(sa.select(sa.func.count()).where(Player.tournament_id == tid,
                                                                  Player.dropped.is_(False)))
    recommended = recommended_rounds(active)
    return render_template("tournaments/form.html", form=form, tournament=tournament, started=started,
                           active=active, recommended=recommended,
                           recall=top8_recall(tournament.fmt, active, recommended),
                           planned_recall=top8_recall(tournament.fmt, active, tournament.planned_rounds or 0),
                           delete_form=DeleteTournamentForm()), 422 if form.errors else 200


@bp.post("/tournaments/<int:tid>/delete")
@login_required
def delete(tid: int):
    tournament = managed_tournament(tid, OWN)
    if not DeleteTournamentForm().validate_on_submit():
        flash("Tick the confirmation box to delete the tournament.", "error")
        return redirect(url_for("tournaments.edit", tid=tid))
    name = tournament.name
    service.delete(tournament)
    flash(f"Deleted {name}.", "success")
    return redirect(url_for("tournaments.index"))
