"""A backup's rounds read (app/services/event_files/restore.py reads the rest): each round's matches and seats, their
results checked by the result rules, the players' claims and the result log, and the round's proof and clock.
"""
from __future__ import annotations

from fractions import Fraction

from ...core import results as result_rules
from ...core.pairing import Format
from ...models import Match, ResultChange, ResultClaim, Round, max_length
from . import jsonfile as j
from ..results import participation
from .event_writer import ChangeRow, ClaimRow, MatchRow, SeatRow
from .jsonfile import FileError
from ..results.match_results import check_log
from ..swiss.rounds import RoundError

from .backup import ACTORS


SIDES = ("corp", "runner")


def read_proof(raw: dict, number: int) -> tuple:
    """A round's (certified, gap) as Round keeps them: both null (not paired by an engine), proven optimal (no
    gap), or not proven, with its gap a fraction of at least 0 or unknown."""
    certified = raw.get("certified")
    if certified is not None:
        certified = j.boolean(certified, f"round {number} certified")
    gap = j.text(raw.get("gap"), f"round {number} gap", max_length(Round.gap), null=True)
    if gap is not None:
        try:
            ok = Fraction(gap) >= 0 and certified is False
        except (ValueError, ZeroDivisionError):
            ok = False
        if not ok:
            raise FileError(f"round {number} gap should be a number of at least 0, for a round not proven optimal")
    return certified, gap


def read_clock(raw, number: int) -> tuple:
    """A round's clock as Round keeps it (the timer CHECK in app/models/): none, running to a time, paused with
    the time left, or called."""
    if raw is None:
        return None, None, None
    raw = j.obj(raw, f"round {number} timer")
    state = j.choice(raw.get("state"), f"round {number} timer state", ("running", "paused", "called"))
    ends_at = None if raw.get("ends_at") is None else j.iso_time(raw.get("ends_at"), f"round {number} timer ends_at")
    remaining = j.integer(raw.get("remaining_ms"), f"round {number} timer remaining_ms", 0, 36_000_000, null=True)
    if (ends_at is not None) != (state == "running") or (remaining is not None) != (state == "paused"):
        raise FileError(f"round {number} timer: a running clock has an end time, a paused one its time left, "
                        "and nothing else")
    return state, ends_at, remaining


def read_matches(raw_matches, number: int, ids: set, fmt: Format, version: int) -> list:
    """A round's matches, every value checked; results, points and games by the rules that make them."""
    matches, tables, seen = [], set(), set()
    results = {None: None, result_rules.BYE: result_rules.BYE}  # a result as written -> as stored

    def stored(result, where):
        if result not in results:  # each distinct result is checked once, not once per table
            try:
                results[result] = result_rules.outcome(fmt, result).key  # a version 1 total: both games
                if version >= 2 and fmt.both_sides and not result_rules.games_known(result):
                    results[result] = result  # an imported file's total that does not say its games stays so
            except result_rules.ResultError as e:
                raise FileError(f"{where}: {e}") from None
        return results[result]

    scores = set()  # the (is_bye, result, seats, drawn games) already found to follow the rules: checked once
    for k, m in enumerate(j.array(raw_matches, f"round {number} matches"), 1):
        # Each value is checked where it is read; the common, well-formed value passes a plain test first, and
        # only another value takes the full check (jsonfile), which accepts it or names it in its error. 10,000 x
        # 10 restored spent most of its time writing those names for values that were fine.
        table = m.get("table") if type(m) is dict else None
        if not (type(table) is int and 1 <= table <= 100000):
            m = j.obj(m, f"round {number} match {k}")
            table = j.integer(m.get("table"), f"round {number} match {k} table", 1, 100000)
        where = f"round {number} table {table}"
        if table in tables:
            raise FileError(f"round {number} has table {table} twice")
        tables.add(table)
        is_bye = m.get("is_bye")
        if type(is_bye) is not bool:
            is_bye = j.boolean(is_bye, f"{where} is_bye")
        result = m.get("result")
        if not (result is None or type(result) is str and result in results):
            result = j.text(result, f"{where} result", max_length(Match.result), null=True)
        result = stored(result, f"{where} result")
        seats, positions = [], set()
        raw_seats = m.get("seats")
        for s in raw_seats if type(raw_seats) is list else j.array(raw_seats, f"{where} seats"):
            if type(s) is dict:
                player, position, side = s.get("player"), s.get("position"), s.get("side")
                points, games_won, penalty = s.get("points"), s.get("games_won"), s.get("penalty", 0)
            if not (type(s) is dict and type(player) is int and type(position) is int and position in (1, 2)
                    and (side is None or side in SIDES) and (points is None or type(points) is int
                                                            and 0 <= points <= 1000)
                    and type(games_won) is int and 0 <= games_won <= 100
                    and type(penalty) is int and 0 <= penalty <= 1000):
                s = j.obj(s, f"{where} seat")
                player = j.integer(s.get("player"), f"{where} seat player")
                position = side = points = games_won = penalty = None  # checked below, after the player
            if player not in ids:
                raise FileError(f"{where} names player {player}, who is not in the file's players")
            if player in seen:
                raise FileError(f"player {player} plays twice in round {number}")
            seen.add(player)
            if position is None:
                position = j.choice(s.get("position"), f"{where} seat position", (1, 2))
                side = j.choice(s.get("side"), f"{where} seat side", SIDES, null=True)
                points = j.integer(s.get("points"), f"{where} seat points", 0, 1000, null=True)
                games_won = j.integer(s.get("games_won"), f"{where} seat games_won", 0, 100)
                penalty = j.integer(s.get("penalty", 0), f"{where} seat penalty", 0, 1000)
            if position in positions:
                raise FileError(f"{where} has two seats at position {position}")
            positions.add(position)
            seats.append(SeatRow(player=player, position=position, side=side, points=points, games_won=games_won,
                                 penalty=penalty))
        if len(seats) != (1 if is_bye else 2):
            raise FileError(f"{where} should have {'one seat (a bye)' if is_bye else 'two seats'}")
        drawn_games = m.get("drawn_games")
        if not (type(drawn_games) is int and 0 <= drawn_games <= 100):
            drawn_games = j.integer(drawn_games, f"{where} drawn_games", 0, 100)
        score = (is_bye, result, tuple((s.position, s.side, s.points, s.games_won) for s in seats), drawn_games)
        if score not in scores:
            try:  # points and games follow from the result, as if it had been entered here
                result_rules.check_scores(fmt, is_bye, result, list(score[2]), drawn_games)
            except result_rules.ResultError as e:
                raise FileError(f"{where}: {e}") from None
            scores.add(score)
        claims, changes = _check_reports(m, where, result, is_bye, {s.player for s in seats}, fmt, version, stored)
        intentional_draw, two_for_one = m.get("intentional_draw"), m.get("two_for_one", False)
        if type(intentional_draw) is not bool:
            intentional_draw = j.boolean(intentional_draw, f"{where} intentional_draw")
        if type(two_for_one) is not bool:
            two_for_one = j.boolean(two_for_one, f"{where} two_for_one")
        matches.append(MatchRow(
            table=table, is_bye=is_bye, result=result, intentional_draw=intentional_draw, two_for_one=two_for_one,
            drawn_games=drawn_games, seats=seats, claims=claims, changes=changes,
        ))
    return matches


def _check_reports(m: dict, where: str, result, is_bye: bool, seated: set, fmt: Format, version: int, stored):
    """A match's claims and result log (version 3), checked by the rules that make them (participation.report,
    match_results.write_result)."""
    if version < 3:
        return [], []
    raw_claims, raw_changes = m.get("claims"), m.get("changes")
    claims = []
    for k, c in enumerate(raw_claims if type(raw_claims) is list else j.array(raw_claims, f"{where} claims"), 1):
        c = j.obj(c, f"{where} claim {k}")
        key = j.text(c.get("result"), f"{where} claim {k} result", max_length(ResultClaim.result))
        try:
            participation.check_claim(fmt, key)
        except result_rules.ResultError as e:
            raise FileError(f"{where} claim {k} result {key!r}: {e}") from None
        claims.append(ClaimRow(j.integer(c.get("player"), f"{where} claim {k} player"), key,
                               j.iso_time(c.get("at"), f"{where} claim {k} at")))
    changes = []
    for k, c in enumerate(raw_changes if type(raw_changes) is list else j.array(raw_changes, f"{where} changes"),
                          1):
        c = j.obj(c, f"{where} change {k}")
        changes.append(ChangeRow(
            actor=j.choice(c.get("actor"), f"{where} change {k} actor", ACTORS),
            player=j.integer(c.get("player"), f"{where} change {k} player", null=True),
            old=stored(j.text(c.get("old"), f"{where} change {k} old", max_length(ResultChange.old_result), null=True),
                       f"{where} change {k} old"),
            new=stored(j.text(c.get("new"), f"{where} change {k} new", max_length(ResultChange.new_result)),
                       f"{where} change {k} new"),
            at=j.iso_time(c.get("at"), f"{where} change {k} at"),
            reason=j.text(c.get("reason"), f"{where} change {k} reason", 200, null=True),  # absent: none
        ))
    last = changes[-1] if changes else None
    try:
        check_log(result, is_bye, seated, [(c.actor, c.player, c.old, c.new) for c in changes])
        participation.check_claims(result, is_bye, seated, [participation.Claim(c.player, "", c.result)
                                                            for c in claims],
                                   last.player if last and last.actor == "player" else None)
    except RoundError as e:
        raise FileError(f"{where}: {e}") from None
    return claims, changes
