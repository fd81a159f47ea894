"""Hand edits of a round's pairings in the database, and the warnings the TO's round page shows.

The edit itself is app/core/pairing_edits.py and the rules app/core/round_check.py; this module locks, loads,
writes the changed seats and asks the checker about the result."""
from __future__ import annotations

from typing import Optional

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.pairing_edits import EditRefused, apply_edit
from ...core.round_check import PairingWarning, RoundCheck
from ...extensions import db
from ...models import Match, Player, ResultClaim, Round, Seat, Tournament, touch
from .. import state
from ..locks import lock_tournament
from .rounds import NotFound, RoundError, RoundView, latest_number, load_round, match_row, seat_rows, write_matches


def edit_pairings(t: Tournament, number: int, action: str, first: int,
                  second: Optional[int] = None) -> list[PairingWarning]:
    """Apply one manual edit to the latest round before any result is in; returns the warnings after it.

    The rules may be broken on purpose (a TO knows the room); the warnings say which. Simultaneous edits run one
    after the other (tournament lock), each on the pairings the previous one left.
    """
    t = lock_tournament(t)
    rnd = load_round(t, number)
    if rnd is None:
        raise NotFound(f"There is no round {number}.")
    if number != latest_number(t):
        raise RoundError("Only the latest round can be edited.")
    if any(m.result is not None and not m.is_bye for m in rnd.matches):
        raise RoundError("Pairings can only be edited before any result is in.")
    tables = {m.id: [s.player_id for s in m.seats] for m in rnd.matches}
    if action == "add":
        _check_addable(t, first, {p for players in tables.values() for p in players})
    try:
        edit = apply_edit(tables, action, first, second, sided_tables=t.fmt.sided_tables)
    except EditRefused as e:
        raise RoundError(str(e)) from e
    _rewrite(t, rnd, edit.tables, edit.changed, edit.new_bye)
    return pairing_warnings(t, load_round(t, number))


def pairing_warnings(t: Tournament, rnd: RoundView) -> list[PairingWarning]:
    """What the rules forbid in a loaded round as it stands (empty when it is clean), each with its fix."""
    check = RoundCheck(t.fmt, rnd.number, state.entrants(t), state.completed_games(t, before_round=rnd.number))
    tables = [(m.table, [s.player_id for s in m.seats]) for m in rnd.matches]
    return check.with_fixes(tables, check.round(tables))


def _check_addable(t: Tournament, player_id: int, seated: set[int]) -> None:
    player = db.session.get(Player, player_id)
    if player is None or player.tournament_id != t.id:
        raise RoundError("Choose a player of this tournament.")
    if player.dropped:
        raise RoundError(f"{player.name} has dropped; reinstate them before adding them to a round.")
    if player_id in seated:
        raise RoundError(f"{player.name} is in this round already.")


def _rewrite(t: Tournament, rnd: RoundView, tables: dict[int, list[int]], changed: set[int],
             new_bye: list[int]) -> None:
    """Replace the seats of the changed matches (delete, then insert: a player stays once per round)."""
    try:
        _replace_seats(t, rnd, tables, changed, new_bye)
        # the engine's proof was about its own pairing, not this one: the round page stops quoting it
        db.session.execute(sa.update(Round).where(Round.id == rnd.id).values(certified=None, gap=None))
        touch(db.session, [t.id])
        db.session.commit()
    except IntegrityError as e:  # a backstop: the lock already orders edits
        db.session.rollback()
        raise RoundError("The pairings changed while this edit was being saved; nothing was changed. "
                         "Check the round and try again.") from e
    db.session.expire_all()


def _replace_seats(t: Tournament, rnd: RoundView, tables: dict[int, list[int]], changed: set[int],
                   new_bye: list[int]) -> None:
    db.session.execute(sa.delete(Seat).where(Seat.match_id.in_(changed)),
                       execution_options={"synchronize_session": False})
    db.session.execute(sa.delete(ResultClaim).where(ResultClaim.match_id.in_(changed)),
                       execution_options={"synchronize_session": False})
    gone = changed - tables.keys()
    if gone:
        db.session.execute(sa.delete(Match).where(Match.id.in_(gone)),
                           execution_options={"synchronize_session": False})
    rows = []
    for mid in changed & tables.keys():
        values = match_row(t, rnd.id, 0, tables[mid])
        del values["table"]
        db.session.execute(sa.update(Match).where(Match.id == mid).values(**values),
                           execution_options={"synchronize_session": False})
        rows += seat_rows(t, rnd.id, mid, tables[mid])
    if rows:
        db.session.execute(sa.insert(Seat), rows)
    if new_bye:
        last = max(m.table for m in rnd.matches)
        write_matches(t, rnd.id, [(last + 1, new_bye)])
