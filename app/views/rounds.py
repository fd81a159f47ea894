"""The TO's rounds: pair, edit, publish, undo, report results, standings and the CSV exports."""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from .. import results
from ..forms.rounds import EditPairingsForm, PairForm, ResultForm
from ..pairing import Format
from ..services import export, participation
from ..services import rounds as service
from ..services import timer
from .access import ORGANIZE, SCORE, managed_tournament

bp = Blueprint("rounds", __name__)


@bp.app_template_filter("tiebreak")
def tiebreak(value: Fraction, name: str = "") -> str:
    """A tiebreaker on a page: a percentage one (its name ends in %, as OMW%) as a percentage with one decimal;
    others whole numbers as they are, else with three decimals. The API and the CSV keep the exact value."""
    value = Fraction(value)
    if name.endswith("%"):
        return f"{_decimal(value * 100, '0.1')}%"
    if value.denominator == 1:
        return str(value.numerator)
    return str(_decimal(value, "0.001"))


def _decimal(value: Fraction, places: str) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(places), ROUND_HALF_UP)


def _form_errors(form) -> str:
    return " ".join(f"{getattr(form, name).label.text}: {' '.join(errs)}" for name, errs in form.errors.items())


@bp.get("/tournaments/<int:tid>/rounds")
@login_required
def index(tid: int):
    t = managed_tournament(tid, SCORE)
    summaries = service.round_summaries(t)
    return render_template("rounds/index.html", t=t, summaries=summaries, pair_form=PairForm(),
                           next_number=(summaries[-1].number if summaries else 0) + 1)


@bp.get("/tournaments/<int:tid>/rounds/<int:number>")
@login_required
def show(tid: int, number: int):
    t = managed_tournament(tid, SCORE)
    rnd = service.load_round(t, number)
    if rnd is None:
        abort(404)
    reports = participation.round_reports(t, rnd)
    summaries = service.round_summaries(t)
    latest = summaries[-1].number
    editable = number == latest and not any(m.result and not m.is_bye for m in rnd.matches)
    return render_template(
        "rounds/show.html", t=t, rnd=rnd, summaries=summaries, latest=latest, editable=editable,
        unreported=sum(1 for m in rnd.matches if m.result is None),
        warnings=service.pairing_warnings(t, rnd) if editable and not rnd.published else [],
        buttons=results.buttons(t.fmt), label=results.label,
        reports=reports, counts=participation.counts(rnd, reports), describe=participation.describe,
        log=service.result_log(t, rnd.id),
        edit_form=EditPairingsForm(), actions=service.EDIT_ACTIONS, pair_form=PairForm(),
        round_clock=timer.round_clock(t, number), game_choices=_game_choices)


def _game_choices(corp: str, runner: str, game: int) -> list[tuple[int, str]]:
    """The custom double-sided entry's choices for one game, valued as seat 1's points (seat 1 is Corp in game 1,
    Runner in game 2): what results.double_from_seat1 takes."""
    s = Format.DOUBLE_SIDED.scoring
    corp_win, runner_win = (s.win, s.loss) if game == 1 else (s.loss, s.win)
    return [(corp_win, f"{corp} won as Corp"), (s.tie, "Tie"), (runner_win, f"{runner} won as Runner")]


@bp.post("/tournaments/<int:tid>/rounds/pair")
@login_required
def pair(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    form = PairForm()
    if not form.validate():
        abort(400, _form_errors(form) or "Which round should be paired?")
    try:
        rnd = service.pair_next_round(t, form.number.data)
    except service.RoundError as e:
        flash(str(e), "error")
        return redirect(url_for("rounds.index", tid=tid), 303)
    flash(f"Round {rnd.number} is paired. Check it, then publish it.", "success")
    for w in service.pairing_warnings(t, service.load_round(t, rnd.number)):
        flash(w, "warning")
    return redirect(url_for("rounds.show", tid=tid, number=rnd.number), 303)


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/publish")
@login_required
def publish(tid: int, number: int):
    t = managed_tournament(tid, ORGANIZE)
    try:
        service.publish_round(t, number)
    except service.NotFound as e:
        abort(404, str(e))
    flash(f"Round {number} is published: players can see it now.", "success")
    return redirect(url_for("rounds.show", tid=tid, number=number), 303)


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/undo")
@login_required
def undo(tid: int, number: int):
    t = managed_tournament(tid, ORGANIZE)
    try:
        service.undo_round(t, number)
    except service.RoundError as e:
        flash(str(e), "error")
        return redirect(url_for("rounds.index", tid=tid), 303)
    flash(f"Round {number} is deleted with its pairings and results.", "success")
    return redirect(url_for("rounds.index", tid=tid), 303)


@bp.post("/tournaments/<int:tid>/matches/<int:mid>/result")
@login_required
def report(tid: int, mid: int):
    t = managed_tournament(tid, SCORE)
    form = ResultForm()
    if not form.validate():
        abort(400, _form_errors(form))
    try:
        outcome = _outcome(t, form)
        number = service.report_result(t, mid, outcome, service.Actor.account(current_user, t))
    except service.NotFound as e:
        abort(404, str(e))
    except (results.ResultError, service.RoundError) as e:
        abort(400, str(e))
    return redirect(url_for("rounds.show", tid=tid, number=number, _anchor=f"m{mid}"), 303)


def _outcome(t, form: ResultForm) -> results.Outcome:
    if form.result.data != "custom":
        return results.outcome(t.fmt, form.result.data)
    first, second = form.first.data, form.second.data
    if first is None or second is None:
        raise results.ResultError("Enter both numbers of the custom result.")
    if t.fmt is Format.DOUBLE_SIDED:  # seat 1's points in game 1 (as Corp) and game 2 (as Runner)
        return results.double_from_seat1(first, second)
    if t.fmt is Format.PLAIN:
        return results.plain(first, second, form.drawn.data or 0)
    raise results.ResultError("Single-sided results are Corp win, Runner win, Tie or Intentional draw.")


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/edit")
@login_required
def edit_pairings(tid: int, number: int):
    t = managed_tournament(tid, ORGANIZE)
    form = EditPairingsForm()
    if not form.validate():
        flash(_form_errors(form), "error")
        return redirect(url_for("rounds.show", tid=tid, number=number), 303)
    try:
        warnings = service.edit_pairings(t, number, form.action.data, form.first.data, form.second.data)
    except service.NotFound as e:
        abort(404, str(e))
    except service.RoundError as e:
        flash(str(e), "error")
        return redirect(url_for("rounds.show", tid=tid, number=number), 303)
    flash("Pairings changed.", "success")
    for w in warnings:
        flash(w, "warning")
    return redirect(url_for("rounds.show", tid=tid, number=number), 303)


@bp.get("/tournaments/<int:tid>/standings")
@login_required
def standings(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    return render_template("rounds/standings.html", t=t, table=service.standings(t),
                           progress=service.standings_progress(service.round_summaries(t)))


def _csv(text: str, name: str) -> Response:
    return Response(text, mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/tournaments/<int:tid>/standings.csv")
@login_required
def export_standings(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    return _csv(export.standings_csv(t), export.filename(t, "standings"))


@bp.get("/tournaments/<int:tid>/games.csv")
@login_required
def export_games(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    return _csv(export.games_csv(t), export.filename(t, "games"))
