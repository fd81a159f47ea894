"""Push tests' stand-in push service, the server's VAPID key, an event with players, and the player's requests."""
from __future__ import annotations


import pytest
import sqlalchemy as sa
from py_vapid import Vapid02
from push_standin import PushStandIn

from app.extensions import db
from app.models import Player, Round, Seat
from app.services.players import player_links

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


@pytest.fixture(scope="module")
def standin():
    service = PushStandIn()
    yield service
    service.close()


@pytest.fixture(scope="module")
def vapid_key():
    key = Vapid02()
    key.generate_keys()
    return key.private_pem().decode("ascii")


@pytest.fixture
def push_app(app, standin, vapid_key):
    app.config.update(PUSH="on", PUSH_SERVICES=(standin.origin,), VAPID_PRIVATE_KEY=vapid_key)
    return app


def event(make_user, make_tournament, login, n=4, **fields):
    owner = make_user()
    t = make_tournament(owner, **fields)
    players = [Player(tournament_id=t.id, name=name) for name in NAMES[:n]]
    db.session.add_all(players)
    db.session.commit()
    return login(), t, players


def page(t, player) -> str:
    return f"/t/{t.slug}/p/{player_links.token(player)}"


def subscribe(client, t, player, subscription):
    return client.post(page(t, player) + "/push", json=subscription)


def publish(client, t, number=1):
    assert client.post(f"/tournaments/{t.id}/rounds/pair", data={"number": number}).status_code == 303
    assert client.post(f"/tournaments/{t.id}/rounds/{number}/publish").status_code == 303


def seating(t, number=1) -> dict[int, tuple]:
    """player id -> (table, side, opponent id) of a round."""
    rows = db.session.execute(sa.select(Seat.player_id, Seat.side, Seat.match_id, Round.number)
                              .join(Round, Round.id == Seat.round_id).where(Round.tournament_id == t.id,
                                                                            Round.number == number)).all()
    by_match: dict[int, list] = {}
    for pid, side, match_id, _ in rows:
        by_match.setdefault(match_id, []).append((pid, side))
    from app.models import Match
    tables = dict(db.session.execute(sa.select(Match.id, Match.table).where(Match.id.in_(by_match))).all())
    out = {}
    for match_id, seats in by_match.items():
        for pid, side in seats:
            other = next((o for o, _ in seats if o != pid), None)
            out[pid] = (tables[match_id], side, other)
    return out


