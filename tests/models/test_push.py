"""Push's tables (app/models/push.py): a subscription belongs to one player, once per endpoint, and goes with them
and their messages with it."""
from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from app.extensions import db
from app.models import Player, PushMessage, PushSubscription, utcnow


def _subscription(t, player, endpoint="https://fcm.googleapis.com/fcm/send/a"):
    return PushSubscription(tournament_id=t.id, player_id=player.id, endpoint=endpoint, p256dh="k", auth="a")


def test_one_subscription_per_player_and_endpoint(app, make_user, make_tournament):
    t = make_tournament(make_user())
    ana = Player(tournament_id=t.id, name="Ana")
    db.session.add(ana)
    db.session.commit()
    db.session.add(_subscription(t, ana))
    db.session.commit()
    db.session.add(_subscription(t, ana))
    with pytest.raises(IntegrityError):
        db.session.commit()
    db.session.rollback()


def test_a_deleted_player_takes_their_subscriptions_and_messages(app, make_user, make_tournament):
    t = make_tournament(make_user())
    ana, bo = Player(tournament_id=t.id, name="Ana"), Player(tournament_id=t.id, name="Bo")
    db.session.add_all([ana, bo])
    db.session.commit()
    mine, theirs = _subscription(t, ana), _subscription(t, bo)
    db.session.add_all([mine, theirs])
    db.session.commit()
    db.session.add_all(PushMessage(subscription_id=s.id, payload="{}", topic="round", expires_at=utcnow(),
                                   due_at=utcnow()) for s in (mine, theirs))
    db.session.commit()
    db.session.execute(sa.delete(Player).where(Player.id == ana.id))
    db.session.commit()
    assert db.session.scalars(sa.select(PushSubscription.player_id)).all() == [bo.id]
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PushMessage)) == 1
