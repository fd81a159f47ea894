"""Players of a tournament: add (late entry too), edit, remove before round 1, drop/undrop, CSV import."""
from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, url_for
from flask_login import login_required

from ...extensions import db
from ..forms.players import ImportForm, PlayerForm
from ...core.identities import identities
from ...models import Player, Tournament
from ...services.players import players as roster
from ...services.players import drops, entries
from ...services.players.player_import import UnreadableFile, decode
from ..access import ORGANIZE, managed_tournament
from ..read_only import read_only
from ..conditional import client_has
from ...services.players.players import rounds_started

bp = Blueprint("players", __name__, url_prefix="/tournaments/<int:tid>/players")

def _player(tournament: Tournament, pid: int) -> Player:
    """The player of this tournament; another tournament's player id is simply not found."""
    player = db.session.get(Player, pid)
    if player is None or player.tournament_id != tournament.id:
        abort(404)
    return player


def _players(tournament: Tournament) -> list[Player]:
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=tournament.id)
                              .order_by(Player.dropped, sa.func.lower(Player.name), Player.id)).all()


def _save(form: PlayerForm, action, tournament: Tournament, *player: Player) -> Player | None:
    """The form's entry saved by `action` (entries.add, or entries.change with the player); None, with the
    refusals on their fields, when nothing was. The round-1 bye counts as asked only when the request names it
    or round 1 is still to come: once it exists the form leaves the box out."""
    details = entries.Details(name=form.name.data, corp_identity=form.corp_identity.data or "",
                              runner_identity=form.runner_identity.data or "", pronouns=form.pronouns.data or "",
                              no_coverage=bool(form.no_coverage.data), jinteki_name=form.jinteki_name.data or "",
                              discord=form.discord.data or "")
    asked = "first_round_bye" in request.form or not rounds_started(tournament)
    try:
        return action(tournament, *player, details, bool(form.first_round_bye.data) if asked else None,
                      form.fixed_table.data)
    except entries.Refused as e:
        for field, problem in e.problems.items():
            form[field].errors.append(problem)
        return None


def _flash_bye_note(tournament: Tournament, player: Player) -> None:
    """After saving a player with a requested bye: say so if the field now gives someone an unasked bye."""
    if player.first_round_bye and not player.dropped and not rounds_started(tournament):
        note = roster.bye_note(*roster.field_and_byes(tournament))
        if note:
            flash(note, "warning")


def _list_etag(tournament: Tournament) -> str:
    """The player list changes only with the tournament's version (bumped by every change)."""
    return f"players-{tournament.id}-{tournament.version}"


def _list_context(tournament: Tournament) -> dict:
    players = _players(tournament)
    return {"tournament": tournament, "players": players, "started": rounds_started(tournament),
            "active": sum(not p.dropped for p in players), "etag": _list_etag(tournament)}


def _render_index(tournament: Tournament, form: PlayerForm, status: int = 200):
    return render_template("players/index.html", form=form, identities=identities(),
                           bye_note=roster.first_round_bye_note(tournament), **_list_context(tournament)), status


@bp.get("")
@login_required
def index(tid: int):
    return _render_index(managed_tournament(tid, ORGANIZE), PlayerForm())


@bp.get("/live")
@read_only
@login_required
def live(tid: int):
    """The player table for the open list page to swap in (self-registrations appear without a reload);
    304 while nothing changed."""
    tournament = managed_tournament(tid, ORGANIZE)
    etag = _list_etag(tournament)
    if client_has(etag):
        response = make_response("", 304)
    else:
        context = _list_context(tournament)
        response = jsonify(html=render_template("players/_table.html", **context),
                           count=render_template("players/_count.html", **context))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.post("")
@login_required
def create(tid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    form = PlayerForm()
    player = _save(form, entries.add, tournament) if form.validate_on_submit() else None
    if player is not None:
        late = " They join the next pairing." if rounds_started(tournament) else ""
        flash(f"Added {player.name}.{late}", "success")
        _flash_bye_note(tournament, player)
        return redirect(url_for("players.index", tid=tid))
    return _render_index(tournament, form, 422)


@bp.route("/<int:pid>/edit", methods=["GET", "POST"])
@login_required
def edit(tid: int, pid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    player = _player(tournament, pid)
    form = PlayerForm(obj=player)
    if form.validate_on_submit() and _save(form, entries.change, tournament, player) is not None:
        flash(f"Saved {player.name}.", "success")
        _flash_bye_note(tournament, player)
        return redirect(url_for("players.index", tid=tid))
    started = rounds_started(tournament)
    return render_template("players/edit.html", tournament=tournament, player=player, form=form,
                           started=started, identities=identities(),
                           bye_note=roster.first_round_bye_note(tournament, player)), \
        422 if form.errors else 200


@bp.post("/<int:pid>/delete")
@login_required
def delete(tid: int, pid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    player = _player(tournament, pid)
    name = player.name
    try:
        let_in = entries.remove(tournament, player)
    except entries.Refused as e:
        flash(str(e), "error")
        return redirect(url_for("players.index", tid=tid))
    flash(f"Removed {name}.", "success")
    _flash_let_in(let_in)
    return redirect(url_for("players.index", tid=tid))


def _flash_let_in(names: list[str]) -> None:
    if names:
        flash("In from the waitlist: " + ", ".join(names) + ".", "success")


def _set_dropped(tid: int, pid: int, dropped: bool, message: str):
    tournament = managed_tournament(tid, ORGANIZE)
    player = _player(tournament, pid)
    name, let_in = player.name, []
    try:
        if dropped:
            let_in = entries.drop(tournament, player)
        else:
            entries.bring_back(tournament, player)
    except drops.Refused as e:
        flash(str(e), "error")
        return redirect(url_for("players.index", tid=tid))
    flash(message.format(name=name), "success")
    _flash_let_in(let_in)
    return redirect(url_for("players.index", tid=tid))


@bp.post("/<int:pid>/drop")
@login_required
def drop(tid: int, pid: int):
    return _set_dropped(tid, pid, True, "Dropped {name}: not paired in later rounds; their results stay.")


@bp.post("/<int:pid>/undrop")
@login_required
def undrop(tid: int, pid: int):
    return _set_dropped(tid, pid, False, "{name} is back in: paired again from the next round.")


@bp.route("/import", methods=["GET", "POST"])
@login_required
def import_csv(tid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    form = ImportForm()
    errors: list[str] = []
    if form.validate_on_submit():
        upload = form.file.data
        try:
            text = decode(upload.read()) if upload and upload.filename else (form.text.data or "")
            count = entries.import_players(tournament, text)
        except UnreadableFile as e:
            errors = [str(e)]
        except entries.ImportRefused as e:
            errors = e.errors
        else:
            flash(f"Imported {count} player{'' if count == 1 else 's'}.", "success")
            return redirect(url_for("players.index", tid=tid))
    return render_template("players/import.html", tournament=tournament, form=form, errors=errors), \
        422 if errors else 200
