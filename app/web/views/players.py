"""Players of a tournament: add (late entry too), edit, remove before round 1, drop/undrop, CSV import."""
from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, abort, flash, jsonify, make_response, redirect, render_template, request, url_for
from flask_login import login_required
from sqlalchemy.exc import IntegrityError

from ...extensions import db
from ..forms.players import ImportForm, PlayerForm
from ...core.identities import identities
from ...models import Player, Tournament
from ...services.players import players as roster
from ...services import streaming
from ...services.check_in import waitlist
from ...services.online import handles
from ...services.locks import lock_tournament
from ...core.player_state import DropReason
from ...services.players import drops
from ...services.players.player_import import UnreadableFile, decode, parse_players
from ..access import ORGANIZE, managed_tournament
from ..read_only import read_only
from ..conditional import client_has
from ...services.players.players import rounds_started

bp = Blueprint("players", __name__, url_prefix="/tournaments/<int:tid>/players")

CHANGED_MEANWHILE = "Another change to the player list happened at the same time; nothing was saved. Try again."


def _player(tournament: Tournament, pid: int) -> Player:
    """The player of this tournament; another tournament's player id is simply not found."""
    player = db.session.get(Player, pid)
    if player is None or player.tournament_id != tournament.id:
        abort(404)
    return player


def _players(tournament: Tournament) -> list[Player]:
    return db.session.scalars(sa.select(Player).filter_by(tournament_id=tournament.id)
                              .order_by(Player.dropped, sa.func.lower(Player.name), Player.id)).all()


def _check_unique(form: PlayerForm, tournament: Tournament, player: Player | None = None) -> bool:
    """Names are unique per tournament (app/services/players/players.py); a fixed table belongs to one active player."""
    clash = roster.holder_of(tournament, form.name.data, except_id=player.id if player else None)
    if clash:
        form.name.errors.append(roster.taken_message(clash.name))
    table = form.fixed_table.data
    holder = None
    if table:
        holder = next((p for p in _players(tournament)
                       if p.fixed_table == table and not p.dropped and (player is None or p.id != player.id)), None)
    if holder:
        form.fixed_table.errors.append(f"Table {table} is already held by {holder.name}.")
    refused = False
    try:
        handles.check(tournament, form.jinteki_name.data, required=False, except_id=player.id if player else None)
    except handles.HandleRefused as e:
        form.jinteki_name.errors.append(str(e))
        refused = True
    return not (clash or holder or refused)


LATE_BYE = "Round 1 is paired: a bye in round 1 can no longer be given."


def _check_bye(form: PlayerForm, tournament: Tournament, player: Player | None = None) -> bool:
    """Once round 1 exists the form leaves the round-1 bye out; a request that still asks to change it (an old
    tab, a hand-made POST) is refused rather than silently recorded for a round already paired."""
    if not rounds_started(tournament) or "first_round_bye" not in request.form:
        return True
    if bool(form.first_round_bye.data) != (player.first_round_bye if player else False):
        form.first_round_bye.errors.append(LATE_BYE)
        return False
    return True


def _apply(form: PlayerForm, player: Player, started: bool, online: bool) -> None:
    player.name = form.name.data
    player.corp_identity = form.corp_identity.data or ""
    player.runner_identity = form.runner_identity.data or ""
    player.pronouns = form.pronouns.data or ""
    player.no_coverage = bool(form.no_coverage.data)
    if player.no_coverage and player.id is not None:
        streaming.unfeature_player(player.tournament, player.id)
    if not started:  # afterwards the field is not on the form: the recorded request stays as it was
        player.first_round_bye = bool(form.first_round_bye.data)
    player.fixed_table = form.fixed_table.data
    if online:  # an event that is not online keeps the handles it had (the fields are not on its form)
        player.jinteki_name = form.jinteki_name.data or ""
        player.discord = form.discord.data or ""


def _flash_bye_note(tournament: Tournament, player: Player) -> None:
    """After saving a player with a requested bye: say so if the field now gives someone an unasked bye."""
    if player.first_round_bye and not player.dropped and not rounds_started(tournament):
        note = roster.bye_note(*roster.field_and_byes(tournament))
        if note:
            flash(note, "warning")


def _commit_or_error(form: PlayerForm, tournament: Tournament, player: Player | None = None) -> bool:
    """Commit; a name taken by a simultaneous request gets the same form error as one taken before."""
    try:
        db.session.commit()
    except IntegrityError as e:
        db.session.rollback()
        clash = None
        if roster.is_name_clash(e):
            clash = roster.holder_of(tournament, form.name.data, except_id=player.id if player else None)
        form.name.errors.append(roster.taken_message(clash.name) if clash else CHANGED_MEANWHILE)
        return False
    return True


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
    if form.validate_on_submit() and _check_unique(form, lock_tournament(tournament)) \
            and _check_bye(form, tournament):
        started = rounds_started(tournament)
        player = Player(tournament_id=tournament.id)
        _apply(form, player, started, tournament.online)
        db.session.add(player)
        if _commit_or_error(form, tournament):
            late = " They join the next pairing." if started else ""
            flash(f"Added {player.name}.{late}", "success")
            _flash_bye_note(tournament, player)
            return redirect(url_for("players.index", tid=tid))
    return _render_index(tournament, form, 422)


@bp.route("/<int:pid>/edit", methods=["GET", "POST"])
@login_required
def edit(tid: int, pid: int):
    tournament = managed_tournament(tid, ORGANIZE)
    if request.method == "POST":
        lock_tournament(tournament)
    player = _player(tournament, pid)
    form = PlayerForm(obj=player)
    started = rounds_started(tournament)
    if form.validate_on_submit() and _check_unique(form, tournament, player) \
            and _check_bye(form, tournament, player):
        _apply(form, player, started, tournament.online)
        if _commit_or_error(form, tournament, player):
            flash(f"Saved {player.name}.", "success")
            _flash_bye_note(tournament, player)
            return redirect(url_for("players.index", tid=tid))
    return render_template("players/edit.html", tournament=tournament, player=player, form=form,
                           started=started, identities=identities(),
                           bye_note=roster.first_round_bye_note(tournament, player)), \
        422 if form.errors else 200


@bp.post("/<int:pid>/delete")
@login_required
def delete(tid: int, pid: int):
    tournament = lock_tournament(managed_tournament(tid, ORGANIZE))  # pairing waits, then sees the player gone
    player = _player(tournament, pid)
    if rounds_started(tournament):
        flash(f"{player.name} cannot be removed once round 1 exists: their games count for their opponents. "
              "Drop them instead; they will not be paired again.", "error")
        return redirect(url_for("players.index", tid=tid))
    name = player.name
    db.session.delete(player)
    db.session.flush()
    let_in = waitlist.fill(tournament)
    db.session.commit()
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
            let_in = drops.drop(tournament, player, DropReason.ORGANIZER)
        else:
            drops.bring_back(tournament, player)
    except drops.Refused as e:
        db.session.rollback()
        flash(str(e), "error")
        return redirect(url_for("players.index", tid=tid))
    db.session.commit()
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
            result = parse_players(text, [p.name for p in _players(lock_tournament(tournament))], tournament.online)
        except UnreadableFile as e:
            errors = [str(e)]
        else:
            errors = result.errors or handles.import_problems(tournament, result.rows)
            if not errors:
                db.session.add_all(Player(tournament_id=tournament.id, name=row.name,
                                          corp_identity=row.corp_identity, runner_identity=row.runner_identity,
                                          pronouns=row.pronouns, jinteki_name=row.jinteki_name,
                                          discord=row.discord)
                                   for row in result.rows)
                try:
                    db.session.commit()
                except IntegrityError as e:
                    db.session.rollback()
                    # a name added meanwhile: the rows that clash now, as if it had been there before
                    errors = []
                    if roster.is_name_clash(e):
                        errors = parse_players(text, [p.name for p in _players(tournament)], tournament.online).errors
                    errors = errors or [CHANGED_MEANWHILE]
                else:
                    flash(f"Imported {len(result.rows)} player{'' if len(result.rows) == 1 else 's'}.", "success")
                    return redirect(url_for("players.index", tid=tid))
    return render_template("players/import.html", tournament=tournament, form=form, errors=errors), \
        422 if errors else 200
