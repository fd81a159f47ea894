"""The event statistics page and API (app/web/views/stats.py, api.stats): who sees them when, and numbers that
follow from the stored games, recomputed here from the games CSV (and the cut from the bracket API)."""
from __future__ import annotations

import csv
import io
import random
from collections import Counter, defaultdict

import pytest
import sqlalchemy as sa

from app.core import results
from app.extensions import db
from app.models import Match, Player, Round
from app.services import cut as cut_service
from app.services.event_files import export
from app.services.results import participation
from app.services.swiss import rounds as rounds_service
from app.services.results.match_results import Actor, report_result
from cut_helpers import play_cut

IDENTITIES = [  # (corp, runner): known ones, a name SASS does not know, an empty field, odd spelling
    ("Haas-Bioroid: Engineering the Future", "Andromeda: Dispossessed Ristie"),
    ("haas-bioroid: engineering the future", "Kate \"Mac\" McCaffrey: Digital Tinker"),
    ("Jinteki: Personal Evolution", "Andromeda: Dispossessed Ristie"),
    ("NBN: Making News", "Gabriel Santiago: Consummate Professional"),
    ("Weyland Consortium: Building a Better World", "Noise: Hacker Extraordinaire"),
    ("Homebrew Megacorp", ""),
    ("", "Noise: Hacker Extraordinaire"),
]
LABEL_WINNER = {"Corp win": "corp", "Runner win": "runner", "Tie": None, "Intentional draw": None}


def simulate(t, players: int, rounds: int, seed: int = 7) -> list[Player]:
    """An event played through the services: the engine pairs, the TO publishes and reports every table (one
    intentional draw in single-sided), two players drop after round 2, an odd field gives byes."""
    rng = random.Random(seed)
    people = [Player(tournament_id=t.id, name=f"P{i:02d}", corp_identity=IDENTITIES[i % len(IDENTITIES)][0],
                     runner_identity=IDENTITIES[(i * 3) % len(IDENTITIES)][1]) for i in range(players)]
    db.session.add_all(people)
    db.session.commit()
    actor = Actor("organizer", user_id=t.owner_id)
    keys = [k for k, _ in results.buttons(t.fmt)]
    for number in range(1, rounds + 1):
        rounds_service.pair_next_round(t, number)
        rounds_service.publish_round(t, number)
        matches = db.session.scalars(sa.select(Match).join(Round, Round.id == Match.round_id)
                                     .where(Round.tournament_id == t.id, Round.number == number,
                                            Match.is_bye.is_(False)).order_by(Match.table)).all()
        for i, m in enumerate(matches):
            key = "id" if (number, i) == (1, 0) and "id" in keys else rng.choice(keys)
            report_result(t, m.id, results.outcome(t.fmt, key), actor)
        if number == 2:
            for p in people[:2]:
                participation.drop(t, p)
    return people


def swiss_rows(t) -> list[dict]:
    """The games CSV's swiss rows (its cut games follow, marked `cut` in the `stage` column)."""
    return [r for r in csv.DictReader(io.StringIO(export.games_csv(t))) if r["stage"] == "swiss"]


def recount_from_csv(t) -> dict:
    """Per (side, identity as NetrunnerDB spells it): players, games, wins, losses, draws, intentional draws,
    from the games CSV alone (and the players' identities)."""
    from app.core.identities import canonical

    ident = {p.name: (canonical(p.corp_identity) or "Not given", canonical(p.runner_identity) or "Not given")
             for p in db.session.scalars(sa.select(Player).filter_by(tournament_id=t.id))}
    rows = swiss_rows(t)
    counts: dict = defaultdict(Counter)
    seen, byes = set(), 0
    for row in rows:
        seen.add(row["player 1"])
        if row["result"] == "Bye":
            byes += 1
            continue
        seen.add(row["player 2"])
        if t.format == "single":
            corp, runner = ((row["player 1"], row["player 2"]) if row["player 1 side"] == "corp"
                            else (row["player 2"], row["player 1"]))
            games = [(corp, runner, LABEL_WINNER[row["result"]], row["result"] == "Intentional draw")]
        else:  # double: game 1 seat 1 Corp, game 2 seat 2 Corp; each side's points from the CSV's columns
            def game(corp, runner, corp_points, runner_points):
                a, b = int(corp_points), int(runner_points)
                return corp, runner, None if a == b else "corp" if a > b else "runner", False
            games = [game(row["player 1"], row["player 2"], row["player 1 as corp"], row["player 2 as runner"]),
                     game(row["player 2"], row["player 1"], row["player 2 as corp"], row["player 1 as runner"])]
        for corp, runner, winner, intentional in games:
            for side, name in (("corp", corp), ("runner", runner)):
                c = counts[side, ident[name][side == "runner"]]
                if intentional:
                    c["intentional_draws"] += 1
                elif winner is None:
                    c["draws"] += 1
                else:
                    c["wins" if winner == side else "losses"] += 1
    for name in seen:
        for i, side in enumerate(("corp", "runner")):
            counts[side, ident[name][i]]["players"] += 1
    for c in counts.values():
        c["games"] = c["wins"] + c["losses"] + c["draws"]
    return {"counts": counts, "players": len(seen), "byes": byes}


FIELDS = ("players", "games", "wins", "losses", "draws", "intentional_draws")


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["single", "double"])
def test_numbers_follow_from_the_games_csv(client, make_user, make_tournament, login, fmt):
    owner = make_user()
    t = make_tournament(owner, format=fmt, planned_rounds=4)
    simulate(t, players=11, rounds=4)
    cut_service.create(t, 4, "double")
    play_cut(t, lambda g: g.higher_seed if g.round % 2 else g.player2)
    api = client.get(f"/api/tournaments/{t.slug}/stats")
    assert api.status_code == 200
    data = api.get_json()
    expected = recount_from_csv(t)
    assert data["swiss"]["players"] == expected["players"] == 11 and data["byes"] == expected["byes"] > 0
    got = {(row["side"], row["identity"]): {f: row[f] for f in FIELDS} for row in data["swiss"]["identities"]}
    want = {key: {f: c[f] for f in FIELDS} for key, c in expected["counts"].items()}
    assert got == want
    assert ("corp", "Haas-Bioroid: Engineering the Future") in got  # two spellings, one identity
    side_games = {side: sum(c["games"] for (s, _), c in expected["counts"].items() if s == side)
                  for side in ("corp", "runner")}
    assert data["swiss"]["sides"]["corp"]["games"] == side_games["corp"] == data["swiss"]["games"]
    assert data["swiss"]["sides"]["corp"]["wins"] == data["swiss"]["sides"]["runner"]["losses"]
    if fmt == "single":  # listed apart, in no game count; round 1's first table at least
        ids = sum(1 for r in swiss_rows(t) if r["result"] == "Intentional draw")
        assert data["swiss"]["intentional_draws"] == ids >= 1
        assert data["swiss"]["games"] + ids + expected["byes"] == len(swiss_rows(t))
    # the cut, from the public bracket: one game each, the recorded Corp against the Runner
    bracket = client.get(f"/api/tournaments/{t.slug}/bracket").get_json()
    corp_wins = sum(1 for g in bracket["games"] if g["winner"] is not None and
                    next(p["side"] for p in g["players"] if p["player"] == g["winner"]) == "corp")
    played = sum(1 for g in bracket["games"] if g["winner"] is not None)
    assert data["cut"]["players"] == 4 and data["cut"]["games"] == played > 0
    assert data["cut"]["sides"]["corp"]["wins"] == corp_wins
    # the page shows the same numbers, to everyone now that the swiss is over
    page = client.get(f"/t/{t.slug}/stats").get_data(as_text=True)
    corp = data["swiss"]["sides"]["corp"]
    assert (f'<td class="num">{corp["games"]}</td>\n    <td class="num">{corp["wins"]}-{corp["losses"]}-'
            f'{corp["draws"]}</td><td class="num">{corp["intentional_draws"]}</td>') in page
    assert "<svg" in page and "Haas-Bioroid: Engineering the Future" in page


def test_side_balance_matches_the_standings(client, make_user, make_tournament):
    t = make_tournament(make_user(), format="single", planned_rounds=3)
    simulate(t, players=9, rounds=3)
    data = client.get(f"/api/tournaments/{t.slug}/stats").get_json()
    rows = list(csv.DictReader(io.StringIO(export.standings_csv(t))))
    spread = Counter(abs(int(r["corp games"]) - int(r["runner games"])) for r in rows)
    assert {row["difference"]: row["players"] for row in data["side_balance"]} == dict(spread)


def test_plain_swiss_counts_matches_and_hides_identities(client, make_user, make_tournament):
    t = make_tournament(make_user(), format="plain", planned_rounds=2)
    simulate(t, players=7, rounds=2)
    data = client.get(f"/api/tournaments/{t.slug}/stats").get_json()
    rows = swiss_rows(t)
    matches = [r for r in rows if r["result"] != "Bye"]
    assert data["swiss"]["games"] == len(matches) and data["byes"] == len(rows) - len(matches)
    assert data["swiss"]["draws"] == sum(1 for r in matches if r["player 1 points"] == r["player 2 points"])
    assert "identities" not in data["swiss"] and data["side_balance"] == []
    page = client.get(f"/t/{t.slug}/stats").get_data(as_text=True)
    assert "Matches played" in page and "identities" not in page.lower().split("<main>")[1].split("</main>")[0]


def test_before_the_swiss_ends_only_staff_see_them(client, make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner, format="single", planned_rounds=3)
    simulate(t, players=6, rounds=1)
    for url in (f"/t/{t.slug}/stats", f"/api/tournaments/{t.slug}/stats"):
        response = client.get(url)
        assert response.status_code == 404 and b"swiss rounds are over" in response.data
    assert b"/stats" not in client.get(f"/t/{t.slug}/standings").data  # no link to a page that refuses
    login()
    page = client.get(f"/t/{t.slug}/stats")
    assert page.status_code == 200 and b"Only the organizers see this page" in page.data
    api = client.get(f"/api/tournaments/{t.slug}/stats")
    assert api.status_code == 200 and api.headers["Cache-Control"] == "private, no-cache"
    assert b"/stats" in client.get(f"/tournaments/{t.id}").data  # the dashboard links it


def test_only_published_rounds_count(client, make_user, make_tournament, login):
    owner = make_user()
    t = make_tournament(owner, format="single", planned_rounds=2)
    simulate(t, players=6, rounds=1)
    login()
    before = client.get(f"/api/tournaments/{t.slug}/stats").get_json()["swiss"]
    rounds_service.pair_next_round(t, 2)  # paired and reported, not published
    actor = Actor("organizer", user_id=owner.id)
    for m in db.session.scalars(sa.select(Match).join(Round, Round.id == Match.round_id)
                                .where(Round.tournament_id == t.id, Round.number == 2, Match.is_bye.is_(False))):
        report_result(t, m.id, results.outcome(t.fmt, "corp"), actor)
    assert client.get(f"/api/tournaments/{t.slug}/stats").get_json()["swiss"] == before
    rounds_service.publish_round(t, 2)
    after = client.get(f"/api/tournaments/{t.slug}/stats").get_json()
    assert after["swiss"]["games"] == before["games"] + 3 and after["swiss"]["sides"]["corp"]["wins"] >= 3
    # the swiss is over now: the public sees them, and the event pages link them
    client.post("/logout")
    assert client.get(f"/t/{t.slug}/stats").status_code == 200
    assert f'href="/t/{t.slug}/stats"'.encode() in client.get(f"/t/{t.slug}/standings").data


def test_no_rounds_yet_and_unknown_event(client, make_user, make_tournament, login):
    t = make_tournament(make_user())
    login()
    assert b"No statistics yet" in client.get(f"/t/{t.slug}/stats").data
    assert client.get(f"/api/tournaments/{t.slug}/stats").get_json()["swiss"]["games"] == 0
    assert client.get("/t/nosuchevent/stats").status_code == 404
    assert client.get("/api/tournaments/nosuchevent/stats").status_code == 404
