"""CSV exports of a tournament: the standings and every game, safe to open in a spreadsheet."""
from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from fractions import Fraction

import sqlalchemy as sa
from sqlalchemy.orm import aliased

from ...extensions import db
from ...models import Match, Player, Round, Seat, Tournament
from ...core.cards import card
from ...core.decklists import title
from ...core.results import BYE, label, side_scores
from .. import cut as cut_service
from ..decklists import all_lists
from ..nrdb import accounts as nrdb_accounts
from ..results.standings import standings
from ..state import first_seat, second_seat

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
CSV_DECIMALS = 12  # places for a tiebreaker whose decimal expansion does not end (1/3)


NUMBER = re.compile(r"-?\d+(\.\d+)?")


def safe_cell(value):
    """Text a spreadsheet would run as a formula gets a leading apostrophe (OWASP CSV injection);
    a plain number such as -3 stays a number."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(value):
        return "'" + value
    return value


def exact_decimal(value: Fraction) -> str:
    """A Fraction as decimal text: exact when it terminates (1.5, 0.375), else rounded to CSV_DECIMALS places."""
    value = Fraction(value)
    twos = fives = 0
    den = value.denominator
    while den % 2 == 0:
        den, twos = den // 2, twos + 1
    while den % 5 == 0:
        den, fives = den // 5, fives + 1
    if den == 1:
        places = max(twos, fives)
        text = format(Decimal(value.numerator * 10 ** places // value.denominator).scaleb(-places), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    rounded = round(value * 10 ** CSV_DECIMALS)
    return format(Decimal(rounded).scaleb(-CSV_DECIMALS), "f")


def filename(t: Tournament, what: str) -> str:
    """A file name from the tournament's name: its letters and digits in any script ("Wörlds-2026"), every other
    run of characters a hyphen (app/web/downloads.py puts it in the header, with an ASCII spelling)."""
    base = re.sub(r"[\W_]+", "-", t.name).strip("-")[:60].strip("-") or "tournament"
    return f"{base}-{what}.csv"


def _write(header: list, rows) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([safe_cell(c) for c in row] for row in rows)
    return out.getvalue()


def standings_csv(t: Tournament) -> str:
    """The TO's standings: the players who played (one out before their first round is in no results), a
    disqualified one last; `status` in the staff's words (app/core/player_state.py)."""
    table = standings(t)
    header = ["rank", "name", "corp identity", "runner identity", "points", *table.tiebreakers,
              "wins", "losses", "ties", "record (W-L-T)"]
    if table.single_sided:
        header += ["corp games", "runner games", "side balance"]
    header += ["dropped", "status", "nrdb username"]
    linked = nrdb_accounts.usernames(t.id)  # the NetrunnerDB account each linked entry names
    rows = []
    for s in table.rows:
        corp, runner = table.identities.get(s.player, ("", ""))
        row = [s.rank, s.name, corp, runner, s.points, *(exact_decimal(v) for v in s.tiebreakers),
               s.wins, s.losses, s.ties, f"{s.wins}-{s.losses}-{s.ties}"]
        if table.single_sided:
            row += [s.corp, s.runner, s.side_label]
        row += ["yes" if s.dropped else "", table.words.get(s.player, ""), linked.get(s.player, "")]
        rows.append(row)
    return _write(header, rows)


def games_csv(t: Tournament) -> str:
    """One line per table of every round (byes included), then the top cut's games; points empty until reported.

    15,000 lines for a 2,000-player, 15-round event: names come from one dict, labels are worked out once
    per distinct result, and only the text cells (names) need formula escaping.
    """
    one, two = aliased(Seat), aliased(Seat)
    query = (
        sa.select(Round.number, Match.table, Match.result, one.player_id, one.side, one.points, one.games_won,
                  two.player_id, two.side, two.points, two.games_won)
        .join(Match, Match.round_id == Round.id)
        .join(one, sa.and_(one.match_id == Match.id, first_seat(one)))
        .outerjoin(two, sa.and_(two.match_id == Match.id, second_seat(two)))
        .where(Round.tournament_id == t.id)
        .order_by(Round.number, Match.table)
    )
    fmt = t.fmt
    plain = fmt.counts_games
    double = fmt.both_sides
    names = {pid: safe_cell(name) for pid, name in
             db.session.execute(sa.select(Player.id, Player.name).where(Player.tournament_id == t.id))}
    labels: dict = {}
    header = ["round", "table", "player 1", "player 1 side", "player 1 points", "player 2", "player 2 side",
              "player 2 points", "result"]
    if plain:
        header[5:5] = ["player 1 games won"]
        header[9:9] = ["player 2 games won"]
    if double:  # each player's points in the game they played as Corp and as Runner
        header[5:5] = ["player 1 as corp", "player 1 as runner"]
        header[10:10] = ["player 2 as corp", "player 2 as runner"]
    sides: dict = {}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*header, "stage"])
    for number, table, result, a, a_side, a_points, a_games, b, b_side, b_points, b_games in \
            db.session.execute(query):
        if result not in labels:
            labels[result] = label(fmt, result)
        second = names[b] if b is not None else ("BYE" if result else "")
        row = [number, table, names[a], a_side or "", _num(a_points), second, b_side or "", _num(b_points),
               labels[result]]
        if plain:
            row[5:5] = [a_games if a_points is not None else ""]
            row[9:9] = [b_games if b_points is not None else ""]
        if double:
            if result not in sides:
                sides[result] = side_scores(result) if result and result != BYE else (("", ""), ("", ""))
            row[5:5] = sides[result][0]
            row[10:10] = sides[result][1] if b is not None else ("", "")
        writer.writerow([*row, "swiss"])
    writer.writerows(_cut_rows(t, header, names))
    return out.getvalue()


def _cut_rows(t: Tournament, header: list, names: dict) -> list[list]:
    """The top cut's games with both players known, after the swiss (stage "cut", round: the cut's round, table:
    its game); the result names the winner, sides where the game recorded them; no points (a cut game gives none)."""
    cut = cut_service.load(t)
    if cut is None:
        return []
    rows = []
    for game in cut.bracket.games:
        if not game.ready:
            continue
        row = dict.fromkeys(header, "")
        row.update({"round": game.round, "table": cut.table(game), "player 1": names[game.player1],
                    "player 2": names[game.player2]})
        if game.corp is not None:
            row["player 1 side"], row["player 2 side"] = (
                ("corp", "runner") if game.corp == game.player1 else ("runner", "corp"))
        if game.reported:
            row["result"] = f"{names[game.winner]} won"
        rows.append([*row.values(), "cut"])
    return rows


def _num(value):
    return "" if value is None else value


def decklists_csv(t: Tournament) -> str:
    """One line per card of every stored list (a list without cards still has one line): player, side, identity,
    legal, the list's problems (on its first line), card, count, type, faction, last changed."""
    header = ["player", "side", "identity", "legal", "problems", "card", "count", "type", "faction", "updated at"]
    rows = []
    for player, decks in all_lists(t):
        for deck in decks:
            base = [player.name, deck.side, title(deck.identity), "yes" if deck.valid else "no"]
            problems = " | ".join(p["message"] for p in deck.problems or [])
            lines = [(title(cid), n, (card(cid) or {}).get("type", ""), (card(cid) or {}).get("faction", ""))
                     for cid, n in deck.cards or []] or [("", "", "", "")]
            for i, line in enumerate(lines):
                rows.append([*base, problems if i == 0 else "", *line, deck.updated_at.isoformat(timespec="seconds")])
    return _write(header, rows)
