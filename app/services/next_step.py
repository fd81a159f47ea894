"""The one thing a TO should do next, and the other choices open at that point: the main button of the
dashboard, the rounds page and the round page (templates/_next_step.html draws it on all three).

`decide` is pure (facts in, a Step out) so every state is tested without a database; `for_tournament` reads
the facts in a few small queries.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Optional

import sqlalchemy as sa

from ..core.brackets import recommended_cut
from ..extensions import db
from ..models import Player, Tournament, utcnow
from ..core.standings import recommended_rounds
from . import cut as cut_service
from . import decklists
from .check_in import roll_call
from .check_in import settings as check_in_settings
from .swiss.rounds import round_summaries
from .schedule import plan as schedule_plan

ADD_PLAYERS, PAIR, PUBLISH, RESULTS, CUT, CUT_RESULTS, FINISHED = (
    "add_players", "pair", "publish", "results", "cut", "cut_results", "finished")
REVIEW_LISTS, LOCK_LISTS = "review_lists", "lock_lists"  # before round 1, in an event collecting decklists
ROLL_CALL = "roll_call"  # before the round a roll call is for, while players are still to check in


@dataclass(frozen=True)
class Facts:
    active: int  # players not dropped
    requested_byes: int  # active players who asked for a round-1 bye
    latest: int  # latest round's number, 0 before round 1
    latest_published: bool
    unreported: int  # tables of the latest round without a result
    planned_rounds: Optional[int]
    cut: Optional[str]  # None, "running" or "complete"
    cut_recommended: int  # app.core.brackets.recommended_cut of the field (as the cut page counts it); 0: no cut
    # Before round 1 in an event collecting decklists (app/services/decklists.py review and lock), else 0 / False:
    collects_lists: bool = False
    lists_missing: int = 0  # active players with a side unsubmitted
    lists_invalid: int = 0  # lists with problems
    lists_locked: bool = False  # the TO locked them already
    # A roll call running (app/core/check_in.py RollCall.running) before this round, else 0; its counts of active
    # players, its deadline (aware, UTC; None: phones check in until the pairing) and whether it has passed, and
    # whether pairing the round then drops the no-shows (the TO's choice, NoShows.DROP):
    roll_call_round: int = 0
    checked_in: int = 0
    not_checked_in: int = 0
    deadline: Optional[datetime] = None
    deadline_passed: bool = False
    drops_no_shows: bool = False
    # What pairing that round does first (app/core/check_in.py pairing_plan), counted: the no-shows it drops, those
    # it leaves in (NoShows.DECIDE), the waiting players it lets in. Any of them: pairing shows its plan first.
    plan_drops: int = 0
    plan_left_in: int = 0
    plan_let_in: int = 0


@dataclass(frozen=True)
class Step:
    kind: str  # one of the constants above
    label: str  # the main button's text
    why: str  # one line under it
    round: int = 0  # the round it is about (pair, publish, results)
    capability: str = "organize"  # who may do it: app.web.access SCORE or ORGANIZE
    others: tuple[Step, ...] = ()  # the TO's other choices now (one more swiss round instead of the cut)
    preview: bool = False  # PAIR: pairing changes the field first (a roll call's plan): the button shows it first


def swiss_rounds(facts: Facts) -> int:
    """The swiss length the event aims at: the planned rounds, else ⌈log₂ n⌉."""
    return facts.planned_rounds or recommended_rounds(facts.active)


def decide(facts: Facts) -> Step:
    return _with_roll_call(facts, _decide(facts))


def _decide(facts: Facts) -> Step:
    if facts.cut == "complete":
        return Step(FINISHED, "See the results", "The top cut is decided: champion and final standings.",
                    capability="score")
    if facts.cut == "running":
        return Step(CUT_RESULTS, "Enter top cut results", "The top cut is under way.", capability="score")
    if facts.latest == 0:
        if facts.active < 2:
            return Step(ADD_PLAYERS, "Add players",
                        "Add them one by one or import a CSV list; round 1 needs at least two.")
        return _before_round_one(facts)
    if not facts.latest_published:
        return Step(PUBLISH, f"Check and publish round {facts.latest}",
                    "Its pairings are made; players see them once published.", round=facts.latest)
    if facts.unreported:
        return Step(RESULTS, f"Enter results of round {facts.latest}",
                    f"{facts.unreported} table{'s' * (facts.unreported != 1)} still without a result.",
                    round=facts.latest, capability="score")
    target = swiss_rounds(facts)
    if facts.latest < target:
        return Step(PAIR, f"Pair round {facts.latest + 1}",
                    f"Round {facts.latest} is complete; {target} swiss rounds "
                    f"{'planned' if facts.planned_rounds else 'recommended'}.", round=facts.latest + 1)
    # The planned swiss is played: the cut (or the end) is advised, one more round stays the TO's choice.
    more = (Step(PAIR, f"Pair one more round ({facts.latest + 1})", "An extra swiss round before deciding.",
                 round=facts.latest + 1),)
    if facts.cut_recommended:
        return Step(CUT, f"Cut to the top {facts.cut_recommended}",
                    f"All {facts.latest} swiss rounds are played.", others=more)
    return Step(FINISHED, "See the final standings",
                f"All {facts.latest} swiss rounds are played; fewer than 16 players usually play no cut.",
                capability="score", others=more)


def _before_round_one(facts: Facts) -> Step:
    """Round 1 is next. Where the event collects lists, missing or invalid ones are shown first: the TO waits
    (reviews them) or pairs anyway (which locks them); locking them now is a choice of its own."""
    pair = Step(PAIR, "Pair round 1", f"{facts.active} active players are in.", round=1)
    if not facts.collects_lists:
        return pair
    lock = () if facts.lists_locked else (
        Step(LOCK_LISTS, "Lock the lists now", "Players can no longer submit or change a list; pairing round 1 "
                                               "locks them anyway."),)
    if not (facts.lists_missing or facts.lists_invalid):
        return Step(PAIR, pair.label, f"{pair.why} Every active player's lists are in and legal.", round=1,
                    others=lock)
    gaps = [f"{n} player{'s' * (n != 1)} still missing a list" for n in (facts.lists_missing,) if n] + \
           [f"{n} invalid list{'s' * (n != 1)}" for n in (facts.lists_invalid,) if n]
    wait = ("The lists are locked: enter or unlock them from the review" if facts.lists_locked
            else "Wait for them")
    return Step(REVIEW_LISTS, "Review the decklists",
                f"{' and '.join(gaps)}. {wait}, or pair round 1 anyway: pairing locks the lists as they are.",
                others=(Step(PAIR, "Pair round 1 anyway", pair.why, round=1),) + lock)


def _plan_words(facts: Facts) -> str:
    """What pairing the roll call's round does first, in a few words ("" when nothing)."""
    n = lambda k: f"{k} player{'s' * (k != 1)}"  # noqa: E731
    parts = []
    if facts.plan_drops:
        parts.append(f"drops the {n(facts.plan_drops)} not checked in")
    if facts.plan_left_in:
        parts.append(f"pairs the {n(facts.plan_left_in)} not checked in (left in: your choice)")
    if facts.plan_let_in:
        parts.append(f"lets in {facts.plan_let_in} from the waitlist")
    text = "; ".join(parts)
    return f"Pairing {text}: you see who first." if text else ""


def _with_roll_call(facts: Facts, step: Step) -> Step:
    """Pairing the round a roll call is for: a pairing that changes the field first (drops no-shows, lets the
    waitlist in, pairs absent players left in) shows its plan before it pairs (`preview`); with players still to
    check in the roll call comes first (the staff tick arrivals off there), and pairing stays the TO's choice."""
    number = facts.roll_call_round
    pairs_it = (step.kind == PAIR and step.round == number) or (step.kind == REVIEW_LISTS and number == 1)
    if not number or not pairs_it:
        return step
    plan = _plan_words(facts)
    if plan:
        def shown(s: Step) -> Step:
            return replace(s, why=f"{s.why} {plan}", preview=True) if s.kind == PAIR and s.round == number else s
        step = replace(shown(step), others=tuple(shown(s) for s in step.others))
    if not facts.not_checked_in:
        return step
    missing, total = facts.not_checked_in, facts.checked_in + facts.not_checked_in
    them = f"{missing} player{'s' * (missing != 1)}"
    at = f"{facts.deadline:%H:%M} UTC" if facts.deadline else None
    if not facts.deadline_passed:
        why = (f"{them} not checked in yet; phones check in until "
               + (at if at else f"round {number} is paired") + ".")
        if facts.drops_no_shows:
            why += f" Pairing round {number} drops whoever is not checked in then."
    elif facts.drops_no_shows:
        why = f"{them} not checked in by {at}: pairing round {number} drops them. Tick late arrivals first."
    else:
        why = f"{them} not checked in by {at}: drop them on the roll call page, or pair them in."
    return Step(ROLL_CALL, f"Roll call: {facts.checked_in} of {total} checked in", why, round=number,
                capability="score", others=(step,) + step.others)


SWISS_OVER = (CUT, CUT_RESULTS, FINISHED)


def swiss_over(facts: Facts) -> bool:
    """The swiss is over when the next step is the cut or the end: every planned (else recommended) round
    published and complete, or a cut made. What the event statistics wait for before going public."""
    return decide(facts).kind in SWISS_OVER


def facts_for(t: Tournament, summaries=None, lists: bool = False) -> Facts:
    """The facts in a few small queries; `summaries` (rounds.round_summaries) when the caller has them. `lists`:
    with the decklists' gaps before round 1 (the pages that show the step; the statistics' "swiss over" needs
    none)."""
    not_dropped = Player.dropped.is_(False)
    field, active, requested = db.session.execute(
        sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(sa.case((not_dropped, 1), else_=0)), 0),
                  sa.func.coalesce(sa.func.sum(sa.case((sa.and_(not_dropped, Player.first_round_bye), 1),
                                                       else_=0)), 0))
        .where(Player.tournament_id == t.id)).one()
    summaries = round_summaries(t) if summaries is None else summaries
    last = summaries[-1] if summaries else None
    cut = None
    if t.cut_kind:
        cut = "complete" if cut_service.decided(t) else "running"
    list_facts = {}
    if lists and t.decklists and not summaries:  # they matter only before round 1
        gaps = decklists.gaps(t)
        list_facts = dict(collects_lists=True, lists_missing=gaps.missing, lists_invalid=gaps.invalid,
                          lists_locked=decklists.locked(t))
    if lists and not cut:
        list_facts.update(_roll_call_facts(t, last.number if last else 0))
    return Facts(active=int(active), requested_byes=int(requested), latest=last.number if last else 0,
                 latest_published=bool(last and last.published), unreported=last.unreported if last else 0,
                 planned_rounds=t.planned_rounds, cut=cut, cut_recommended=recommended_cut(field), **list_facts)


def _roll_call_facts(t: Tournament, latest: int) -> dict:
    """The roll call's facts while it runs: its settings' row, then what pairing its round would do now
    (services/check_in/roll_call.plan, from the players' states)."""
    call = check_in_settings.roll_call(t)
    if not call.running(latest):
        return {}
    now = utcnow()
    preview = roll_call.plan(t, call.round, now=now)
    plan = preview.plan
    missing = len(plan.drops) + len(plan.left_in)
    return dict(roll_call_round=call.round, checked_in=preview.active - missing, not_checked_in=missing,
                deadline=call.deadline, deadline_passed=call.closed(now),
                drops_no_shows=call.drops_at_pairing(call.round), plan_drops=len(plan.drops),
                plan_left_in=len(plan.left_in), plan_let_in=len(plan.let_in))


def for_tournament(t: Tournament, summaries=None) -> tuple[Step, Facts]:
    facts = facts_for(t, summaries, lists=True)
    return decide(facts), facts


def event_over(t: Tournament, today: Optional[date] = None) -> bool:
    """The event is over: its top cut is decided; or no cut was made, the swiss is complete (the "finished" step)
    and the event's last day has passed (its schedule's last day: a two-day event is not over after day 1). The
    end of the swiss alone is not the end: a TO may still cut (even a field too small for the usual cut), and lists set
    public "after the event" must not show before that cut is played.
    Which decklists are public after the event asks it (app/services/decklists.py public_lists)."""
    if t.cut_kind:
        return cut_service.decided(t)
    return schedule_plan.last_date(t) < (today or utcnow().date()) and decide(facts_for(t)).kind == FINISHED
