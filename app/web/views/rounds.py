"""The TO's rounds: pair, edit, publish, undo, report results, standings and the CSV exports."""
from __future__ import annotations


from flask import Blueprint, Response, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required

from ...core import check_in as check_in_rules
from ...core import results
from ..forms.rounds import EditPairingsForm, PairForm, ResultForm
from ...core.names import name_key
from ...core.pairing import Format
from ...services import next_step
from ...services.check_in import roll_call
from ...services.event_files import export
from ...services.results import participation
from ...core.pairing_edits import EDIT_ACTIONS
from ...models import PairingJob
from ...services.results import match_results
from ...services.swiss import pairing_edits, pairing_jobs
from ...services.results import standings as standings_service
from ...services.swiss import rounds as service
from ...services.swiss import timer
from .. import live_parts, page_cache
from ..access import ORGANIZE, SCORE, managed_tournament, may
from ..read_only import read_only
from ..conditional import client_has
from ..downloads import attachment
from ..numbers import whole_number

bp = Blueprint("rounds", __name__)


def _form_errors(form) -> str:
    return " ".join(f"{getattr(form, name).label.text}: {' '.join(errs)}" for name, errs in form.errors.items())


@bp.get("/tournaments/<int:tid>/rounds")
@login_required
def index(tid: int):
    t = managed_tournament(tid, SCORE)
    summaries = service.round_summaries(t)
    return render_template("rounds/index.html", t=t, summaries=summaries,
                           step=next_step.for_tournament(t, summaries)[0])


@bp.get("/tournaments/<int:tid>/rounds/<int:number>")
@login_required
def show(tid: int, number: int):
    """The TO's page for one round. ?find=12 or ?find=name jumps to that table (the page's finder without
    JavaScript); ?edit=results opens a past round's results for changes, ?edit=pairings keeps the edit form open."""
    t = managed_tournament(tid, SCORE)
    rnd = service.load_round(t, number)
    if rnd is None:
        abort(404)
    if "find" in request.args:
        return _find(t, rnd, request.args.get("find", ""))
    context = _page(t, rnd, request.args.get("edit"))
    return render_template("rounds/show.html", **context, **_live_page(t, rnd, context))


def _page(t, rnd, mode, rows=None) -> dict:
    """The round page's context; `mode` is ?edit= (results: a past round's results open for changes). `rows`: the
    only tables whose rows will be drawn (a saved result's), whose players' points and log alone are read."""
    reports = participation.round_reports(t, rnd)
    summaries = service.round_summaries(t)
    latest = summaries[-1].number
    number = rnd.number
    editable = number == latest and not any(m.result and not m.is_bye for m in rnd.matches)
    past = number < latest
    buttons = results.buttons(t.fmt)
    warnings = pairing_edits.pairing_warnings(t, rnd) if editable and not rnd.published else []
    flagged: dict[int, list] = {}
    for w in warnings:
        if w.table is not None:
            flagged.setdefault(w.table, []).append(w)
    editing_results = past and mode == "results"
    score = may(current_user, t, SCORE)
    after_cut = t.cut_kind is not None  # swiss results change only through after_cut, by an organizer
    return dict(
        t=t, rnd=rnd, summaries=summaries, latest=latest, editable=editable, after_cut=after_cut,
        organize=may(current_user, t, ORGANIZE), score=score,
        entry=score and not after_cut and (not past or editing_results),
        past=past, editing_results=editing_results, editing_pairings=editable and mode == "pairings",
        unreported=sum(1 for m in rnd.matches if m.result is None),
        warnings=warnings, flagged=flagged, round_warnings=[w for w in warnings if w.table is None],
        before=service.points_before(t, number, None if rows is None else
                                     [s.player_id for m in rows for s in m.seats]),
        buttons=buttons, label=results.label, labels={**dict(buttons), results.BYE: results.label(t.fmt, results.BYE)},
        reports=reports, counts=participation.counts(rnd, reports), describe=participation.describe,
        disputed=[m for m in rnd.matches if reports[m.id].state == participation.DISPUTED],
        log=match_results.result_log(t, rnd.id, None if rows is None else [m.id for m in rows]),
        edit_form=EditPairingsForm(), actions=EDIT_ACTIONS, pair_form=PairForm(),
        round_clock=timer.round_clock(t, number), report_url=_report_url(t.id),
        step=next_step.for_tournament(t, summaries)[0] if number == latest else None,
        game_choices=_game_choices)


# The round page's parts that change while it is open, by element id, with the macro that draws each
# (templates/rounds/_parts.html); every table's row ("t12", match_row) besides.
LIVE_PARTS = {"unreported-line": "progress_line", "report-counts": "report_counts", "disputes": "disputes",
              "round-actions": "round_actions", "pairing-tools": "pairing_tools"}


def _parts(context: dict, rnd, ids=None, digests_only: bool = False) -> live_parts.Parts:
    """The round page's live parts (those in `ids`, else all), drawn by rounds/_parts.html from the page's
    context (_page). A table's row is digested from what it shows (_row_keys), so a poll that asks only the
    digests (`digests_only`) draws no row: at 5,000 tables drawing them was nine tenths of every poll's work
    after a result."""
    def drawers(macros):
        drawn = {f"t{m.table}": (lambda m=m: macros.match_row(m, live_parts.TOKEN)) for m in rnd.matches}
        drawn.update((part, getattr(macros, macro)) for part, macro in LIVE_PARTS.items())
        return drawn

    return live_parts.draw("rounds/_parts.html", context, drawers, ids, keys=_row_keys(context, rnd),
                           digests_only=digests_only)


def _row_keys(context: dict, rnd):
    """part id -> what a table's row (rounds/_parts.html match_row) shows, as a string: the page's settings it
    reads, the table, its report, its players' points before the round and its result log; None (digest the
    drawn row) for a row with pairing warnings, a part that is no row, or an online event (its handles)."""
    t = context["t"]
    if t.online:
        return lambda part: None
    page = repr((page_cache.build_id(), t.id, t.fmt, rnd.number, context["entry"], context["editing_results"],
                 context["after_cut"], context["organize"], context["buttons"]))
    by_table = {f"t{m.table}": m for m in rnd.matches}
    reports, before, log = context["reports"], context["before"], context["log"]
    flagged = context["flagged"] if context["organize"] else {}

    def key(part: str):
        m = by_table.get(part)
        if m is None or m.table in flagged:
            return None
        changes = [(c.id, c.created_at, c.actor, c.old_result, c.new_result, c.player.name if c.player else None,
                    c.user.email if c.user else None) for c in log.get(m.id, ())]
        return repr((page, m, reports[m.id], [before.get(s.player_id, 0) for s in m.seats], changes))

    return key


def _live_etag(t, number: int, mode, score: bool, organize: bool) -> str:
    """What the live parts depend on besides the round: the event's version, the page's mode, the user's rights."""
    return f"live-{number}-{t.version}-{mode}-{int(score)}{int(organize)}"


def _live_page(t, rnd, context: dict) -> dict:
    """The round page's live parts, drawn once for the page itself (it shows these very strings), with what its
    script needs to keep them up to date: their digests, and where and with which ETag to poll (live)."""
    mode = "results" if context["editing_results"] else "pairings" if context["editing_pairings"] else None
    parts = _parts(context, rnd)
    return {"live": live_parts.htmls(parts), "live_digests": live_parts.digests(parts),
            "live_url": url_for("rounds.live", tid=t.id, number=rnd.number, edit=mode),
            "live_etag": _live_etag(t, rnd.number, mode, context["score"], context["organize"])}


def _fragments(t, number: int, mid: int, past_edit: bool) -> dict[str, dict[str, str]]:
    """After a saved result, the parts of the page it changes (its row and the live parts) with their digests,
    for the page's script to swap in as its poll would."""
    rnd = service.load_round(t, number)
    m = next(m for m in rnd.matches if m.id == mid)
    parts = _parts(_page(t, rnd, "results" if past_edit else None, [m]), rnd, {f"t{m.table}", *LIVE_PARTS})
    return {"fragments": live_parts.htmls(parts), "digests": live_parts.digests(parts)}


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/live")
@read_only
@login_required
def live(tid: int, number: int):
    """What the round page polls (static/round_live.js): every live part's digest, and the parts named in
    ?parts=a,b drawn as the page draws them. The page asks for the parts whose digest changed, so another
    device's result, a player's report or a dispute shows without a reload. ?edit= as on the page. ETag'd
    (_live_etag): an unchanged round costs a 304."""
    t = managed_tournament(tid, SCORE)
    mode = request.args.get("edit") if request.args.get("edit") in ("results", "pairings") else None
    etag = _live_etag(t, number, mode, may(current_user, t, SCORE), may(current_user, t, ORGANIZE))
    if client_has(etag):
        return live_parts.unchanged(etag)
    rnd = service.load_round(t, number)
    if rnd is None:
        abort(404, f"There is no round {number}.")
    wanted = live_parts.asked()
    return live_parts.answer(_parts(_page(t, rnd, mode), rnd, wanted, digests_only=wanted is None), wanted, etag)


def _report_url(tid: int):
    """match id -> rounds.report's URL, built once per page rather than once per table (1,000 url_for calls are
    a sixth of a big round page's time)."""
    marker = "2147483647"
    head, tail = url_for("rounds.report", tid=tid, mid=int(marker)).split(marker)
    return lambda mid: f"{head}{mid}{tail}"


def _find(t, rnd, query: str):
    """A table number or part of a name -> a redirect to that table's row (the first one, by table)."""
    query = query.strip()[:100]
    key = name_key(query)
    table = None
    if (number := whole_number(query)) is not None:
        table = next((m.table for m in rnd.matches if m.table == number), None)
    elif key:
        table = next((m.table for m in rnd.matches if any(key in name_key(s.name) for s in m.seats)), None)
    if table is None:
        flash(f"No table or player matches \"{query[:60]}\" in round {rnd.number}.", "error")
        return redirect(url_for("rounds.show", tid=t.id, number=rnd.number), 303)
    return redirect(url_for("rounds.show", tid=t.id, number=rnd.number, _anchor=f"t{table}"), 303)


def _game_choices(corp: str, runner: str, game: int) -> list[tuple[int, str]]:
    """The custom double-sided entry's choices for one game, valued as seat 1's points (seat 1 is Corp in game 1,
    Runner in game 2): what results.double_from_seat1 takes."""
    s = Format.DOUBLE_SIDED.scoring
    corp_win, runner_win = (s.win, s.loss) if game == 1 else (s.loss, s.win)
    return [(corp_win, f"{corp} won as Corp"), (s.tie, "Tie"), (runner_win, f"{runner} won as Runner")]


@bp.get("/tournaments/<int:tid>/rounds/<int:number>/pair")
@login_required
def pair_preview(tid: int, number: int):
    """What pairing round `number` does first (a roll call's no-shows, the waitlist), with the one button that
    does it all and pairs."""
    t = managed_tournament(tid, ORGANIZE)
    if number <= service.latest_number(t):
        flash(f"Round {number} is already paired.", "error")
        return redirect(url_for("rounds.show", tid=tid, number=number), 303)
    return _preview(t, number, roll_call.plan(t, number))


def _preview(t, number: int, preview, status: int = 200):
    return render_template("rounds/pair_preview.html", t=t, number=number, preview=preview), status


@bp.post("/tournaments/<int:tid>/rounds/pair")
@login_required
def pair(tid: int):
    """Pair the round. `plan`: the digest of the roll call's plan the TO confirmed (rounds/pair_preview.html);
    absent, the TO pressed a one-click button that said nothing changes first. A plan other than that now is shown
    again (409), with nothing done."""
    t = managed_tournament(tid, ORGANIZE)
    form = PairForm()
    if not form.validate():
        abort(400, _form_errors(form) or "Which round should be paired?")
    number = form.number.data
    seen = form.plan.data or check_in_rules.PairingPlan(number).digest
    try:
        done = pairing_jobs.pair(t, number, seen)
    except service.PlanChanged as e:
        flash(str(e) if form.plan.data else
              f"Pairing round {number} changes the field first: check what it does, then confirm.", "error")
        return _preview(t, number, e.preview, 409)
    except service.RoundError as e:
        flash(str(e), "error")
        return redirect(url_for("rounds.index", tid=tid), 303)
    if isinstance(done, PairingJob):  # a big field: the engine works in the background, the TO's page follows it
        return redirect(url_for("pairing_jobs.follow", tid=tid, number=done.number), 303)
    flash(f"Round {done.number} is paired. Check it, then publish it.", "success")
    return redirect(url_for("rounds.show", tid=tid, number=done.number), 303)


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
    """A result from the round page. A plain form post redirects back to the table with a flash; the page's
    script asks for JSON (Accept) and gets the saved table back with the parts of the page it changed and their
    digests (_fragments), or the refusal with a 4xx."""
    t = managed_tournament(tid, SCORE)
    form = ResultForm()
    if not form.validate():
        return _refuse(400, _form_errors(form))
    after_cut = form.after_cut.data == "1"
    if after_cut and not may(current_user, t, ORGANIZE):
        return _refuse(403, "Only an organizer can change a swiss result once the cut exists.")
    fmt = t.fmt  # read before the commit expires the tournament row (the redirect runs no query after the write)
    try:
        outcome = _outcome(t, form)
        number, table = match_results.report_result(t, mid, outcome, match_results.Actor.account(current_user, t),
                                       past=form.past.data == "1" or after_cut, after_cut=after_cut)
    except service.NotFound as e:
        abort(404, str(e))
    except service.PastRound as e:
        if _wants_json():
            return jsonify(error=str(e)), 409
        flash(str(e), "error")
        return redirect(url_for("rounds.show", tid=tid, number=e.round_number), 303)
    except match_results.AfterCut as e:
        return _refuse(409 if may(current_user, t, ORGANIZE) else 403,
                       f"{e} An organizer uses \"Change after the cut\" on the table.")
    except (results.ResultError, service.RoundError) as e:
        return _refuse(400, str(e))
    label = results.label(fmt, outcome.key)
    saved = f"Saved: table {table}, {label}."
    if after_cut:
        flash(f"{saved} The swiss standings changed; the cut keeps its seeds.", "success")
        return redirect(url_for("rounds.show", tid=tid, number=number, _anchor=f"t{table}"), 303)
    if _wants_json():
        return jsonify(id=mid, table=table, round=number, result=outcome.key, label=label,
                       state=participation.CONFIRMED, message=saved,
                       **_fragments(t, number, mid, form.past.data == "1"))
    flash(saved, "success")
    args = {"edit": "results"} if form.past.data == "1" else {}
    return redirect(url_for("rounds.show", tid=tid, number=number, _anchor=f"t{table}", **args), 303)


@bp.route("/tournaments/<int:tid>/matches/<int:mid>/after-cut", methods=["GET", "POST"])
@login_required
def after_cut(tid: int, mid: int):
    """A swiss result change once the cut exists, an organizer's: GET chooses the result, POST shows what it
    would change (every swiss rank and points that move, who is seeded where) and asks for the confirmation
    that rounds.report needs (after_cut=1). Nothing changes before that."""
    t = managed_tournament(tid, ORGANIZE)
    table = service.load_table(t, mid)
    if table is None:
        abort(404, "That match is not part of this tournament.")
    number, m = table
    if t.cut_kind is None:
        flash("This event has no cut: change the result on the round page.", "error")
        return redirect(url_for("rounds.show", tid=tid, number=number, _anchor=f"t{m.table}"), 303)
    if m.is_bye:
        abort(404, "A bye has no result to change.")
    context = dict(t=t, number=number, m=m, buttons=results.buttons(t.fmt), label=results.label,
                   report_url=lambda _mid: url_for("rounds.after_cut", tid=tid, mid=mid),
                   game_choices=_game_choices)
    if request.method == "GET":
        return render_template("rounds/after_cut.html", **context)
    form = ResultForm()
    if not form.validate():
        abort(400, _form_errors(form))
    try:
        outcome = _outcome(t, form)
        change = match_results.after_cut_changes(t, mid, outcome)
    except service.NotFound as e:
        abort(404, str(e))
    except (results.ResultError, service.RoundError) as e:
        abort(400, str(e))
    return render_template("rounds/after_cut.html", change=change, outcome=outcome, form=form, **context)


def _wants_json() -> bool:
    return request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json"


def _refuse(status: int, message: str):
    if _wants_json():
        return jsonify(error=message), status
    abort(status, message)


def _outcome(t, form: ResultForm) -> results.Outcome:
    if form.result.data != "custom":
        return results.outcome(t.fmt, form.result.data)
    first, second = form.first.data, form.second.data
    if first is None or second is None:
        raise results.ResultError("Enter both numbers of the custom result.")
    if t.fmt.both_sides:  # seat 1's points in game 1 (as Corp) and game 2 (as Runner)
        return results.double_from_seat1(first, second)
    if t.fmt.counts_games:
        return results.plain(first, second, form.drawn.data or 0)
    raise results.ResultError("Single-sided results are Corp win, Runner win, Tie or Intentional draw.")


@bp.post("/tournaments/<int:tid>/rounds/<int:number>/edit")
@login_required
def edit_pairings(tid: int, number: int):
    """A hand edit, from the edit form or a warning's one-click fix. Back to the round with the edit form open
    (and at the fixed table for a fix); the warnings left show on the page itself, once."""
    t = managed_tournament(tid, ORGANIZE)
    form = EditPairingsForm()
    valid = form.validate()
    back = url_for("rounds.show", tid=tid, number=number, edit="pairings",
                   _anchor=form.back.data if valid and form.back.data else "edit-pairings")
    if not valid:
        flash(_form_errors(form), "error")
        return redirect(back, 303)
    try:
        pairing_edits.edit_pairings(t, number, form.action.data, form.first.data, form.second.data)
    except service.NotFound as e:
        abort(404, str(e))
    except service.RoundError as e:
        flash(str(e), "error")
        return redirect(back, 303)
    flash("Pairings changed.", "success")
    return redirect(back, 303)


@bp.get("/tournaments/<int:tid>/standings")
@login_required
def standings(tid: int):
    t = managed_tournament(tid, ORGANIZE)
    return render_template("rounds/standings.html", t=t, table=standings_service.standings(t),
                           progress=service.standings_progress(service.round_summaries(t)))


def _csv(text: str, name: str) -> Response:
    return Response(text, mimetype="text/csv", headers={"Content-Disposition": attachment(name)})


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
