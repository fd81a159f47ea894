"""An event's entries written: what an entry says of its player (stored by one function for the TO's player form and
the player's own registration), and the TO's add, edit, removal, drop, bring-back and CSV import. Each action takes
the event's lock, checks, writes and commits in one transaction; a refusal writes nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from ...core.player_state import DropReason
from ...extensions import db
from ...models import Player, Tournament
from .. import streaming
from ..check_in import waitlist
from ..locks import lock_tournament
from ..online import handles
from . import drops
from . import players as roster
from .player_import import parse_players

CHANGED_MEANWHILE = "Another change to the player list happened at the same time; nothing was saved. Try again."
LATE_BYE = "Round 1 is paired: a bye in round 1 can no longer be given."


@dataclass(frozen=True)
class Details:
    """What an entry says of its player, whoever writes it (the TO or the player): the fields both forms share."""
    name: str
    corp_identity: str = ""
    runner_identity: str = ""
    pronouns: str = ""
    no_coverage: bool = False
    jinteki_name: str = ""
    discord: str = ""


def write_details(t: Tournament, player: Player, details: Details) -> None:
    """Store `details` on the player (the caller holds the lock, has checked the name and handle, and commits). An
    event that is not online keeps the handles it had (its forms have no such fields); a player who opts out of
    coverage comes off a featured table at once."""
    player.name = details.name
    player.corp_identity = details.corp_identity or ""
    player.runner_identity = details.runner_identity or ""
    player.pronouns = details.pronouns or ""
    player.no_coverage = bool(details.no_coverage)
    if player.no_coverage and player.id is not None:
        streaming.unfeature_player(t, player.id)
    if t.online:
        player.jinteki_name, player.discord = details.jinteki_name or "", details.discord or ""


class Refused(ValueError):
    """Nothing was saved; `problems`: the reasons by the form's field name."""

    def __init__(self, problems: dict[str, str]):
        super().__init__(" ".join(problems.values()))
        self.problems = problems


def _holder_of_table(t: Tournament, table: int, except_id: int | None) -> Player | None:
    """The active player who holds fixed table `table`, other than player `except_id`."""
    query = sa.select(Player).where(Player.tournament_id == t.id, Player.fixed_table == table,
                                    Player.dropped.is_(False))
    if except_id is not None:
        query = query.where(Player.id != except_id)
    return db.session.scalars(query.order_by(sa.func.lower(Player.name), Player.id).limit(1)).first()


def _problems(t: Tournament, player: Player | None, details: Details, first_round_bye: bool | None,
              fixed_table: int | None, started: bool) -> dict[str, str]:
    """Why the TO's form cannot be saved: a name taken (app/services/players/players.py), a fixed table another
    active player holds, a handle taken, and (only when the rest is fine) a round-1 bye changed after round 1."""
    except_id = player.id if player is not None else None
    problems = {}
    clash = roster.holder_of(t, details.name, except_id=except_id)
    if clash:
        problems["name"] = roster.taken_message(clash.name)
    holder = _holder_of_table(t, fixed_table, except_id) if fixed_table else None
    if holder:
        problems["fixed_table"] = f"Table {fixed_table} is already held by {holder.name}."
    try:
        handles.check(t, details.jinteki_name, required=False, except_id=except_id)
    except handles.HandleRefused as e:
        problems["jinteki_name"] = str(e)
    # once round 1 exists the form leaves the bye out: a request that still changes it (an old tab, a hand-made
    # POST) is refused rather than silently recorded for a round already paired
    if not problems and started and first_round_bye is not None \
            and first_round_bye != (player.first_round_bye if player is not None else False):
        problems["first_round_bye"] = LATE_BYE
    return problems


def _save(t: Tournament, player: Player | None, details: Details, first_round_bye: bool | None,
          fixed_table: int | None) -> Player:
    t = lock_tournament(t)  # pairing and registrations wait, then see the entry as saved
    if player is not None:
        db.session.refresh(player)
    started = roster.rounds_started(t)
    problems = _problems(t, player, details, first_round_bye, fixed_table, started)
    if problems:
        db.session.rollback()
        raise Refused(problems)
    if player is None:
        player = Player(tournament_id=t.id)
        db.session.add(player)
    write_details(t, player, details)
    if not started:  # afterwards the request stays as it was
        player.first_round_bye = bool(first_round_bye)
    player.fixed_table = fixed_table
    try:
        db.session.commit()
    except IntegrityError as e:  # a name taken by a simultaneous request: the same words as one taken before
        db.session.rollback()
        clash = roster.is_name_clash(e) and roster.holder_of(t, details.name, except_id=player.id)
        raise Refused({"name": roster.taken_message(clash.name) if clash else CHANGED_MEANWHILE}) from None
    return player


def add(t: Tournament, details: Details, first_round_bye: bool | None = None,
        fixed_table: int | None = None) -> Player:
    """The TO adds a player (after round 1: a late entry, who joins the next pairing). `first_round_bye`: None when
    the form did not ask (no bye)."""
    return _save(t, None, details, first_round_bye, fixed_table)


def change(t: Tournament, player: Player, details: Details, first_round_bye: bool | None = None,
           fixed_table: int | None = None) -> Player:
    """The TO's edit of a player. `first_round_bye`: None when the form did not ask (the request stays)."""
    return _save(t, player, details, first_round_bye, fixed_table)


def remove(t: Tournament, player: Player) -> list[str]:
    """The TO removes a player before round 1 (pairing waits, then sees the player gone); the names the freed place
    let in from the waitlist. Refused once round 1 exists: their games count for their opponents."""
    t = lock_tournament(t)
    if roster.rounds_started(t):
        db.session.rollback()
        raise Refused({"player": f"{player.name} cannot be removed once round 1 exists: their games count for "
                                 "their opponents. Drop them instead; they will not be paired again."})
    db.session.delete(player)
    db.session.flush()
    let_in = waitlist.fill(t)
    db.session.commit()
    return let_in


def drop(t: Tournament, player: Player) -> list[str]:
    """The TO drops a player; the names the freed place let in. drops.Refused (nothing written) if already out."""
    try:
        let_in = drops.drop(t, player, DropReason.ORGANIZER)
    except drops.Refused:
        db.session.rollback()
        raise
    db.session.commit()
    return let_in


def bring_back(t: Tournament, player: Player) -> None:
    """The TO brings a dropped (or waiting) player back in. drops.Refused (nothing written) for a standing
    disqualification."""
    try:
        drops.bring_back(t, player)
    except drops.Refused:
        db.session.rollback()
        raise
    db.session.commit()


class ImportRefused(ValueError):
    """Nothing was imported; `errors`: the file's problems, a line each."""

    def __init__(self, errors: list[str]):
        super().__init__("\n".join(errors))
        self.errors = errors


def _names(t: Tournament) -> list[str]:
    return list(db.session.scalars(sa.select(Player.name).where(Player.tournament_id == t.id)))


def import_players(t: Tournament, text: str) -> int:
    """A CSV list of players added in one transaction (app/services/players/player_import.py reads it); how many.
    ImportRefused with every problem when any row has one: a name already in (before, or added meanwhile), a
    handle taken."""
    t = lock_tournament(t)
    result = parse_players(text, _names(t), t.online)
    errors = result.errors or handles.import_problems(t, result.rows)
    if errors:
        db.session.rollback()
        raise ImportRefused(errors)
    db.session.add_all(Player(tournament_id=t.id, name=row.name, corp_identity=row.corp_identity,
                              runner_identity=row.runner_identity, pronouns=row.pronouns,
                              jinteki_name=row.jinteki_name, discord=row.discord)
                       for row in result.rows)
    try:
        db.session.commit()
    except IntegrityError as e:
        db.session.rollback()
        # a name added meanwhile: the rows that clash now, as if it had been there before
        errors = parse_players(text, _names(t), t.online).errors if roster.is_name_clash(e) else []
        raise ImportRefused(errors or [CHANGED_MEANWHILE]) from None
    return len(result.rows)
