"""Penalties: the event's staff (SCORE) record an infraction and its penalty against a player and a round; a
disqualification, which drops the player, takes an organizer (ORGANIZE). The penalty log is private to the staff:
no public page, player page or export but the backup shows it (docs/features.md)."""
from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ...core.penalties import ROUND, Infraction, Kind, games
from ...extensions import db
from ...models import Player, Round, Tournament
from ...core.player_state import Reader
from ...services.penalties import record as service
from ...services.players import states
from ..access import ORGANIZE, SCORE, managed_tournament, may, may_read
from ..forms.penalties import PenaltyForm, VoidForm
from ..numbers import whole_number

bp = Blueprint("penalties", __name__, url_prefix="/tournaments/<int:tid>/penalties")


def _rounds(t: Tournament) -> list[int]:
    return list(db.session.scalars(sa.select(Round.number).filter_by(tournament_id=t.id).order_by(Round.number)))


def _players(t: Tournament) -> list[Player]:
    return list(db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id)
                                   .order_by(Player.dropped, sa.func.lower(Player.name), Player.id)))


def _int_arg(name: str):
    value = request.args.get(name, "")
    return whole_number(value)


@bp.app_template_global("disqualified")
def disqualified(t: Tournament) -> set[int]:
    """The event's disqualified players' ids, read once per request (the staff's player list marks each row);
    empty for anyone who may not read the event's scoring pages."""
    if not current_user.is_authenticated or not may_read(current_user, t, SCORE):
        return set()
    cache = g.setdefault("disqualified", {})
    if t.id not in cache:
        cache[t.id] = service.disqualified(t)
    return cache[t.id]


@bp.get("")
@login_required
def index(tid: int):
    """The penalty log, newest first; filtered by player and/or round."""
    t = managed_tournament(tid, SCORE)
    players, rounds = _players(t), _rounds(t)
    player_id = _int_arg("player")
    player_id = player_id if any(p.id == player_id for p in players) else None
    round_number = _int_arg("round")
    round_number = round_number if round_number in rounds else None
    return render_template("penalties/index.html", t=t, log=service.penalty_log(t, player_id, round_number),
                           players=players, rounds=rounds, player_id=player_id, round_number=round_number,
                           result_label=lambda key: service.result_label(t, key), act=may(current_user, t, SCORE),
                           organize=may(current_user, t, ORGANIZE), void_form=VoidForm())


@bp.post("/<int:penalty_id>/void")
@login_required
def void(tid: int, penalty_id: int):
    """Void a mistaken penalty with a reason: the staff with the right that recorded it (a disqualification:
    ORGANIZE). The result a loss gave stays; the log links to the round page to correct it."""
    t = managed_tournament(tid, SCORE)
    penalty = service.get(t, penalty_id)
    if penalty is None:
        abort(404)
    if Kind(penalty.kind).drops and not may(current_user, t, ORGANIZE):
        abort(403, "Only an organizer voids a disqualification.")
    form = VoidForm()
    back = redirect(url_for("penalties.index", tid=t.id, _anchor=f"penalty-{penalty_id}"), 303)
    if not form.validate_on_submit():
        flash("Not voided: " + " ".join(e for errors in form.errors.values() for e in errors), "error")
        return back
    try:
        service.void(t, current_user, penalty_id, form.reason.data)
    except service.AlreadyVoided as e:
        flash(str(e), "error")
        return back
    except service.NotFound:
        abort(404)
    what = f"{Kind(penalty.kind).label} voided."
    if penalty.result_after is not None and penalty.result_after != penalty.result_before:
        what += f" Round {penalty.round_number}'s result stays as it is: correct it on the round page if needed."
    if Kind(penalty.kind).drops:
        what += " The player stays dropped: bring them back on the Players page if needed."
    flash(what, "success")
    return back


@bp.route("/new", methods=["GET", "POST"])
@login_required
def new(tid: int):
    """Record a penalty. A game or match loss changes the table's result at once (its history says why)."""
    t = managed_tournament(tid, SCORE)
    rounds, players = _rounds(t), _players(t)
    form = PenaltyForm()
    latest = rounds[-1] if rounds else None
    chosen_round = form.round.data if request.method == "POST" else (_int_arg("round") or latest)
    seated = service.tables(t, chosen_round if chosen_round in rounds else latest)
    earlier = service.counts(t)
    # every player, each with their state as the staff read it (the core rule: "waitlist position 2",
    # "no-show (dropped)", "disqualified"...); those in the event first, then the waitlist, then those out
    state = states.of_event(t)
    players.sort(key=lambda p: (state[p.id].out, state[p.id].waiting))
    form.player.choices = [(p.id, p.name + (f" · table {seated[p.id]}" if p.id in seated else "")
                            + (f" · {state[p.id].words(Reader.STAFF)}" if state[p.id].words(Reader.STAFF) else "")
                            + (f" · {earlier[p.id]} earlier" if earlier.get(p.id) else "")) for p in players]
    form.round.choices = [(n, f"Round {n}") for n in reversed(rounds)] + [("", "Outside a swiss round")]
    double = games(t.fmt, Kind.GAME_LOSS) != (ROUND,)  # a game loss names its game
    if not double:
        del form.game, form.other_game
    if request.method == "GET":
        form.round.data = chosen_round if chosen_round in rounds else latest
        if _int_arg("player") in {p.id for p in players}:
            form.player.data = _int_arg("player")
    status = 200
    if form.validate_on_submit():
        kind = Kind(form.kind.data)
        game = form.game.data if double and kind is Kind.GAME_LOSS else ROUND
        if kind.drops and not may(current_user, t, ORGANIZE):
            form.kind.errors.append("A disqualification drops the player: only an organizer records one. "
                                    "Call the head judge or the organizer.")
            status = 403
        elif game not in games(t.fmt, kind):
            form.game.errors.append("Choose which game the game loss takes: game 1 or game 2.")
            status = 400
        else:
            try:
                penalty = service.record(
                    t, current_user, form.player.data, form.round.data, Infraction(form.infraction.data), kind,
                    form.notes.data or "", game,
                    (form.other_game.data or None) if double else None, form.past.data)
            except service.NotFound as e:
                form.player.errors.append(str(e))
                status = 404
            except service.AlreadyRecorded as e:
                form.kind.errors.append(str(e))
                status = 409
            except service.Refused as e:
                form.kind.errors.append(str(e))
                status = 409
            except ValueError as e:  # the core's PenaltyError: this table cannot take this penalty
                form.kind.errors.append(str(e))
                status = 409
            else:
                name = next(p.name for p in players if p.id == penalty.player_id)
                what = f"{kind.label} for {name} recorded"
                if penalty.result_after is not None and penalty.result_after != penalty.result_before:
                    what += (f"; round {penalty.round_number}'s result is now "
                             f"{service.result_label(t, penalty.result_after)}")
                if kind.drops:
                    what += f"; {name} is dropped"
                flash(what + ".", "success")
                return redirect(url_for("penalties.index", tid=t.id, round=penalty.round_number or None), 303)
    elif request.method == "POST":
        status = 400
    return render_template("penalties/new.html", t=t, form=form, organize=may(current_user, t, ORGANIZE),
                           double=double), status
