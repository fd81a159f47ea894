"""Top cut pages (organizer and public bracket), NRTM export/import, backup download and restore."""
from __future__ import annotations

import json

from flask import (Blueprint, Response, current_app, flash, redirect, render_template, request, url_for)
from flask_login import current_user, login_required

from ...core import bracket_layout
from ..forms.cut import ConfirmForm, CreateCutForm, PlayerChoiceForm, RestoreForm, UploadForm
from ...services import backup as backup_service
from ...services import cut as cut_service
from ...services import nrtm_export, nrtm_import
from ...services.jsonfile import FileError
from ...services.upload_slots import Busy, upload_slot
from ..access import ORGANIZE, SCORE, managed_tournament, public_tournament

bp = Blueprint("cut", __name__)

def _games(cut: cut_service.Cut) -> list[dict]:
    """Each game of the bracket as the templates show it."""
    rows = []
    for g in cut.bracket.games:
        sides = cut.sides(g) if g.ready else None
        reported_deps = [d for d in cut.bracket.dependents(g.id) if cut.bracket.game(d).reported]
        rows.append({
            "game": g,
            "names": [cut.name(p) if p is not None else slot.label for p, slot in zip(g.players, g.slots)],
            "corp": sides[0] if sides else None, "runner": sides[1] if sides else None,
            "choose": cut.tournament.fmt.netrunner and g.ready and not g.reported and sides is None,
            "locked": reported_deps,
        })
    return rows


def _drawing(rows: list[dict]) -> list[dict]:
    """The bracket as drawn (app/core/bracket_layout.py): per part, its round columns and its games (the rows of
    _games) with their grid classes, column by column, top to bottom (the phone's list order)."""
    by_id = {row["game"].id: row for row in rows}
    parts = []
    for part in bracket_layout.draw([row["game"] for row in rows]):
        columns = []
        for number, rnd in enumerate(part.rounds, 1):
            cells = sorted((c.row, gid) for gid, c in part.cells.items() if c.column == number)
            columns.append({"column": number, "round": rnd,
                            "games": [(by_id[gid], part.cells[gid].classes) for _, gid in cells]})
        parts.append({"key": part.key, "title": part.title, "columns": columns})
    return parts


def _candidates(tournament) -> list[tuple]:
    standings = cut_service.swiss_standings(tournament)
    return [(s.player, f"{s.rank}. {s.name} ({s.points} pts)") for s in standings if not s.dropped][:32]


# ---- organizer ---------------------------------------------------------------------------------------------

@bp.get("/tournaments/<int:tid>/cut")
@login_required
def index(tid: int):
    return _page(managed_tournament(tid, SCORE))


def _page(t, status: int = 200):
    cut = cut_service.load(t)
    if cut is None:
        plan = cut_service.plan(t)
        form = CreateCutForm(cut_service.kinds_for(t.fmt), _candidates(t), size=plan.size)
        return _create_page(t, form, plan, status)
    games = _games(cut)
    return render_template("cut/show.html", tournament=t, cut=cut, games=games, drawing=_drawing(games),
                           standings=cut.final_standings(), choice_form=PlayerChoiceForm(),
                           confirm=ConfirmForm()), status


@bp.post("/tournaments/<int:tid>/cut")
@login_required
def create(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = CreateCutForm(cut_service.kinds_for(t.fmt), _candidates(t))
    if form.validate_on_submit():
        try:
            cut_service.create(t, form.size.data, form.kind.data, form.exclude.data)
        except cut_service.CutError as e:
            form.size.errors.append(f"{str(e)[:1].upper()}{str(e)[1:]}.")
        else:
            flash(f"Top {form.size.data} cut created.", "success")
            return redirect(url_for("cut.index", tid=t.id))
    size = form.size.data if form.size.data in dict(form.size.choices) else None
    return _create_page(t, form, cut_service.plan(t, size), 400)


def _create_page(t, form, plan, status: int):
    return render_template("cut/create.html", tournament=t, form=form, plan=plan,
                           unreported=cut_service.unreported_swiss_tables(t)), status


@bp.post("/tournaments/<int:tid>/cut/delete")
@login_required
def delete(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    if ConfirmForm().validate_on_submit():
        cut_service.delete(t)
        flash("The cut is deleted; the swiss standings are as they were.", "success")
    return redirect(url_for("cut.index", tid=t.id))


def _player_action(tid: int, game: int, action) -> Response:
    """Cut results and side choices: a scorekeeper's work."""
    t = managed_tournament(tid, SCORE)
    form = PlayerChoiceForm()
    if not form.validate_on_submit():
        flash("Choose a player.", "error")
        return _page(t, 400)
    try:
        message = action(t, game, form.player.data)
    except cut_service.CutError as e:
        flash(f"{str(e)[:1].upper()}{str(e)[1:]}.", "error")
        return _page(t, 400)
    flash(message, "success")
    return redirect(url_for("cut.index", tid=t.id, _anchor=f"game-{game}"))


@bp.post("/tournaments/<int:tid>/cut/games/<int:game>/corp")
@login_required
def corp(tid: int, game: int):
    """The higher seed's side choice, or the TO swapping sides, before the game is played."""
    def record(t, g, player):
        cut_service.set_corp(t, g, player)
        return f"Game {g}: sides recorded."
    return _player_action(tid, game, record)


@bp.post("/tournaments/<int:tid>/cut/games/<int:game>/winner")
@login_required
def winner(tid: int, game: int):
    def record(t, g, player):
        cut_service.report(t, g, player)
        return f"Game {g}: result saved."
    return _player_action(tid, game, record)


# ---- backup and restore, NRTM import -------------------------------------------------------------------------

def _download(data: dict, filename: str, attachment: bool = True) -> Response:
    response = current_app.response_class(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                          mimetype="application/json")
    if attachment:
        response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.get("/tournaments/<int:tid>/backup.json")
@login_required
def backup(tid: int):
    """The event's backup; ?gzip=1 compressed (a tenth of the size: what a big event's restore needs)."""
    t = managed_tournament(tid, ORGANIZE)
    name = f"sass-backup-{t.slug}-{t.date.isoformat()}.json"
    if request.args.get("gzip") == "1":
        response = current_app.response_class(backup_service.packed(backup_service.backup(t)),
                                              mimetype="application/gzip")
        response.headers["Content-Disposition"] = f'attachment; filename="{name}.gz"'
    else:
        response = _download(backup_service.backup(t), name)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _upload(template: str, store, done: str, form_class=UploadForm):
    """A restore or import: at most UPLOAD_SLOTS at once site-wide (503 beyond), every refusal said once.
    `store(data, user, form)` writes the file."""
    form = form_class()
    if request.method == "GET":
        return render_template(template, form=form)
    status = 400
    if form.validate_on_submit():
        try:
            with upload_slot():
                t = store(form.file.data.read(), current_user, form)
        except (FileError, Busy) as e:
            status = 503 if isinstance(e, Busy) else 400
            reason = Busy.message if isinstance(e, Busy) else str(e)
            form.file.errors.append(f"{reason[:1].upper()}{reason[1:]}. Nothing was created.")
        else:
            flash(done.format(name=t.name), "success")
            return redirect(url_for("cut.index", tid=t.id) if t.cut_kind else _tournament_page(t))
    headers = {"Retry-After": "5"} if status == 503 else {}
    return render_template(template, form=form), status, headers


def _tournament_page(t) -> str:
    if "tournaments.show" in current_app.view_functions:
        return url_for("tournaments.show", tid=t.id)
    return url_for("cut.index", tid=t.id)


@bp.route("/tournaments/restore", methods=["GET", "POST"])
@login_required
def restore():
    def store(data, user, form):
        return (backup_service.move if form.how.data == "move" else backup_service.restore)(data, user)

    return _upload("cut/restore.html", store, "Restored {name}.", RestoreForm)


@bp.route("/tournaments/import", methods=["GET", "POST"])
@login_required
def import_nrtm():
    return _upload("cut/import.html", lambda data, user, _form: nrtm_import.import_file(data, user),
                   "Imported {name}.")


# ---- public ------------------------------------------------------------------------------------------------

def public_url(t) -> str:
    if "public.home" in current_app.view_functions:
        return url_for("public.home", slug=t.slug, _external=True)
    return url_for("cut.public_bracket", slug=t.slug, _external=True)


@bp.get("/t/<slug>.json")
def nrtm(slug: str):
    """The NRTM file for the results site; ?download=1 saves it as a file."""
    t = public_tournament(slug)
    data = nrtm_export.export(t, public_url(t), current_app.config.get("APP_NAME", "SASS"))
    return _download(data, f"{t.slug}-nrtm.json", attachment=request.args.get("download") == "1")


@bp.get("/t/<slug>/bracket")
def public_bracket(slug: str):
    t = public_tournament(slug)
    cut = cut_service.load(t)
    games = _games(cut) if cut else []
    return render_template("cut/public_bracket.html", tournament=t, cut=cut, games=games,
                           drawing=_drawing(games),
                           standings=cut.final_standings() if cut else [])
