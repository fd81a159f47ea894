"""The database itself keeps the data honest, whatever the code above it does."""
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from app.extensions import db
from app.models import Match, Player, Round, Seat


def _event(make_user, make_tournament, email="to@example.com"):
    owner = make_user(email=email)
    t = make_tournament(owner)
    players = [Player(tournament=t, name=f"P{i}") for i in range(4)]
    rnd = Round(tournament=t, number=1)
    db.session.add_all(players + [rnd])
    db.session.commit()
    return t, players, rnd


def _match(t, rnd, table, *players):
    m = Match(tournament_id=t.id, round_id=rnd.id, table=table, is_bye=len(players) == 1)
    db.session.add(m)
    db.session.flush()
    for pos, p in enumerate(players, start=1):
        db.session.add(Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=p.id, position=pos))
    return m


def test_migrations_built_every_table(app):
    names = set(sa.inspect(db.engine).get_table_names())
    assert {"users", "tournaments", "players", "rounds", "matches", "seats", "cut_entries", "cut_results",
            "alembic_version"} <= names


def test_player_appears_once_per_round(app, make_user, make_tournament):
    t, (a, b, c, d), rnd = _event(make_user, make_tournament)
    _match(t, rnd, 1, a, b)
    db.session.commit()
    with pytest.raises(IntegrityError):
        _match(t, rnd, 2, a, c)
        db.session.commit()


def test_one_round_number_per_tournament(app, make_user, make_tournament):
    t, _, _ = _event(make_user, make_tournament)
    db.session.add(Round(tournament=t, number=1))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_seat_cannot_name_another_tournaments_player(app, make_user, make_tournament):
    t, (a, *_), rnd = _event(make_user, make_tournament)
    other, (stranger, *_), _ = _event(make_user, make_tournament, email="other@example.com")
    m = _match(t, rnd, 1, a)
    db.session.commit()
    db.session.add(Seat(tournament_id=t.id, round_id=rnd.id, match_id=m.id, player_id=stranger.id, position=2))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_match_cannot_hang_off_another_tournaments_round(app, make_user, make_tournament):
    t, _, rnd = _event(make_user, make_tournament)
    other, _, _ = _event(make_user, make_tournament, email="other@example.com")
    db.session.add(Match(tournament_id=other.id, round_id=rnd.id, table=1))
    with pytest.raises(IntegrityError):
        db.session.commit()


def test_deleting_a_round_deletes_its_matches_and_seats(app, make_user, make_tournament):
    t, (a, b, *_), rnd = _event(make_user, make_tournament)
    _match(t, rnd, 1, a, b)
    db.session.commit()
    db.session.delete(rnd)
    db.session.commit()
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Seat)) == 0
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 0


@pytest.mark.parametrize("columns", [
    {"player1_id": 0, "round": 1},  # a played game names both players
    {"player1_id": 0, "player2_id": 0, "round": 1},  # two different players
    {"player1_id": 0, "player2_id": 1},  # and its cut round
    {"round": 1},  # a bracket game's row has no round
    {"table": 0},
    {"player1_id": 0, "player2_id": "other"},  # players of this event only
])
def test_a_played_cut_game_is_whole(app, make_user, make_tournament, columns):
    from app.models import CutResult
    t, players, _ = _event(make_user, make_tournament)
    other, (stranger, *_), _ = _event(make_user, make_tournament, email="other@example.com")
    ids = {0: players[0].id, 1: players[1].id, "other": stranger.id}
    values = {k: ids[v] if k.endswith("_id") else v for k, v in columns.items()}
    db.session.add(CutResult(tournament_id=t.id, game=1, **values))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()
    db.session.add(CutResult(tournament_id=t.id, game=1, table=3, round=2, player1_id=players[0].id,
                             player2_id=players[1].id))
    db.session.commit()
