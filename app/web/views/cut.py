"""Top cut pages: the organizer's and the public bracket. (An event as a file, out and in: views/event_files.py.)"""
from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, url_for
from flask_login import login_required

from ...core import bracket_layout
from ...core.player_state import Reader
from ..forms.cut import ConfirmForm, CreateCutForm, PlayerChoiceForm
from ...services import cut as cut_service
from ...services.results import standings as standings_service
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
            "names": [cut.name(p) if p is not None else slot.label for p, slot in zip(g.players, g.slots, strict=True)],
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
                           words=standings_service.state_words(t, Reader.STAFF),
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


# ---- public ------------------------------------------------------------------------------------------------

@bp.get("/t/<slug>/bracket")
def public_bracket(slug: str):
    t = public_tournament(slug)
    cut = cut_service.load(t)
    games = _games(cut) if cut else []
    return render_template("cut/public_bracket.html", tournament=t, cut=cut, games=games,
                           drawing=_drawing(games),
                           standings=cut.final_standings() if cut else [],
                           words=standings_service.state_words(t, Reader.PUBLIC) if cut else {})
