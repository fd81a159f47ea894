"""A series' ratings rated on from the changed event (app/services/series/series_ratings.py): after random results in
random events, and a new link between players, the ratings equal the series' games rated from the first game; a
result in one of the last events rates that event and the later ones only."""
from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
import sqlalchemy as sa

from app.core import ratings as core
from app.core import results
from app.extensions import db
from app.models import Match, Series, Tournament
from app.services.results import match_results
from app.services.results.match_results import Actor
from app.services.series import people
from app.services.series import series_ratings
from app.services.series import standings as series_standings
from app.services.series.games import series_games
from app.services.series.rating_games import rating_games
from tests.cut_helpers import add_players, add_round

RULES = {"name": "Club League", "kind": "league", "points_table": "1st 10, 2nd 8", "participation": "1",
         "best_n": "2", "field_reference": "", "tiers": "", "tie_breaks-0": "countback", "tie_breaks-1": "",
         "tie_breaks-2": "", "tie_breaks-3": "", "invite_top": "2", "invite_winners": ""}
NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
EVENTS = 5


def _from_scratch(series: Series) -> core.Ratings:
    table = series_standings.table(series)
    return core.rate(rating_games(series_games(series, table.roster)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ratings_rated_on_from_a_changed_event_equal_ratings_from_scratch(client, make_user, make_tournament,
                                                                         login, monkeypatch, seed):
    rnd = random.Random(seed)
    owner = make_user()
    login()
    assert client.post("/series/new", data=RULES).status_code == 303
    series = db.session.scalars(sa.select(Series)).one()
    events = []
    for week in range(EVENTS):
        t = make_tournament(owner, name=f"Week {week}", date=date(2026, 1, 5) + timedelta(days=7 * week))
        players = add_players(t, rnd.sample(NAMES, 4))
        for number in (1, 2):
            a, b, c, d = rnd.sample(players, 4)
            add_round(t, number, [(a, b, rnd.choice(["corp", "runner"])), (c, d, rnd.choice(["corp", "runner"]))])
        assert client.post(f"/series/{series.id}/events", data={"event": t.id}).status_code == 303
        events.append(t.id)
    series_ratings.forget_cached()
    rated = []
    games_of = series_ratings.event_games
    monkeypatch.setattr(series_ratings, "event_games", lambda t, roster: rated.append(t.id) or games_of(t, roster))

    def current():
        db.session.expire_all()
        s = db.session.get(Series, series.id)
        return series_ratings.current(s, series_standings.table(s)), _from_scratch(s)

    incremental, scratch = current()
    assert rated == events and incremental == scratch and incremental.ratings
    for _ in range(8):
        k = rnd.randrange(EVENTS)
        match = rnd.choice(db.session.scalars(sa.select(Match).filter_by(tournament_id=events[k])).all())
        rated.clear()
        t = db.session.get(Tournament, events[k])
        key = rnd.choice([r for r in ("corp", "runner", "tie") if r != match.result])
        match_results.report_result(t, match.id, results.outcome(t.fmt, key), Actor.account(owner, t), past=True)
        incremental, scratch = current()
        assert incremental == scratch
        kept_before = k == 0 or k - 1 >= EVENTS - series_ratings.KEEP_AFTER
        assert rated == (events[k:] if kept_before else events)
    # the TO links two entries: the players' keys change, so every event is rated again, and the same as from scratch
    rated.clear()
    s = db.session.get(Series, series.id)
    suggestion = people.roster(s, suggest=True).people.suggestions[0]  # a name met again in a later event
    assert client.post(f"/series/{series.id}/players/confirm",
                       data={"player": suggestion.player_id, "target": suggestion.target}).status_code == 303
    incremental, scratch = current()
    assert incremental == scratch and rated == events
