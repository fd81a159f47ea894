"""Push, end to end at the protocol level (app/services/push/outbox.py with the sender): the services queue what
happens, the sender turns it into messages encrypted for each subscription and signed with VAPID, and a stand-in
push service (tests/push_standin.py) decrypts them with the subscription's own keys, as a browser does."""
from __future__ import annotations

import time
from datetime import timedelta

import sqlalchemy as sa

from app.extensions import db
from app.models import Player, PushEvent, PushMessage, PushSubscription, Round, Seat, utcnow
from app.services.push import outbox, sender
from tests.services.push.conftest import event, page, publish, seating, subscribe


def test_a_published_round_reaches_each_subscribed_phone_in_the_players_words(push_app, standin, make_user,
                                                                              make_tournament, login):
    client, t, players = event(make_user, make_tournament, login, n=5)
    subs = {p.id: standin.subscribe() for p in players[:3]}
    for p in players[:3]:
        answer = subscribe(push_app.test_client(), t, p, subs[p.id])
        assert answer.status_code == 201 and answer.get_json() == {"subscribed": 1}
    publish(client, t)
    counts = sender.send_due(push_app)
    assert counts[outbox.SENT] == 3
    names = {p.id: p.name for p in players}
    for p in players[:3]:
        table, side, other = seating(t)[p.id]
        (message,) = standin.texts(subs[p.id]["endpoint"])
        if other is None:
            assert message["body"] == "Round 1: you have a bye."
        else:
            assert message["body"] == f"Round 1: table {table}, {side.title()} against {names[other]}."
        assert message["title"] == t.name and message["url"] == page(t, p)
    # the request carried what RFC 8030 asks: a time to live within the round, the topic, high urgency
    headers = standin.received[-1].headers
    assert 0 < int(headers["ttl"]) <= t.round_minutes * 60 and headers["topic"] == "round"
    assert headers["urgency"] == "high"
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PushMessage)) == 0  # all taken: none kept
    assert sender.send_due(push_app)[outbox.SENT] == 0  # never sent twice


def test_nothing_is_queued_where_nobody_subscribed(push_app, make_user, make_tournament, login):
    client, t, _ = event(make_user, make_tournament, login)
    publish(client, t)
    assert db.session.scalar(sa.select(sa.func.count()).select_from(PushEvent)) == 0


def test_a_gone_subscription_is_deleted_and_a_busy_service_is_tried_again(push_app, standin, make_user,
                                                                          make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    gone, busy = standin.subscribe(), standin.subscribe()
    assert subscribe(push_app.test_client(), t, players[0], gone).status_code == 201
    assert subscribe(push_app.test_client(), t, players[1], busy).status_code == 201
    standin.answer_next(gone["endpoint"], 410)
    standin.answer_next(busy["endpoint"], 429)
    publish(client, t)
    counts = sender.send_due(push_app)
    assert counts[outbox.GONE] == 1 and counts[outbox.RETRY] == 1
    assert db.session.scalars(sa.select(PushSubscription.endpoint)).all() == [busy["endpoint"]]
    waiting = db.session.scalars(sa.select(PushMessage)).one()
    assert waiting.attempts == 1 and waiting.claim is None  # Retry-After: 1 s
    assert sender.send_due(push_app)[outbox.SENT] == 0  # not due yet
    time.sleep(1.1)
    assert sender.send_due(push_app)[outbox.SENT] == 1
    assert len(standin.texts(busy["endpoint"])) == 1 and standin.texts(gone["endpoint"]) == []


def test_a_stale_round_is_never_sent_once_the_next_is_out(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    sub = standin.subscribe()
    assert subscribe(push_app.test_client(), t, players[0], sub).status_code == 201
    publish(client, t)
    outbox.expand()
    db.session.commit()
    # round 1's results, then round 2 before the phone got round 1
    from app.models import Match
    for match in db.session.scalars(sa.select(Match).where(Match.tournament_id == t.id)):
        if not match.is_bye:
            assert client.post(f"/tournaments/{t.id}/matches/{match.id}/result", data={"result": "corp"}
                               ).status_code in (302, 303)
    publish(client, t, 2)
    sender.send_due(push_app)
    bodies = [m["body"] for m in standin.texts(sub["endpoint"])]
    assert len(bodies) == 1 and bodies[0].startswith("Round 2:")


def test_an_expired_message_is_dropped_unsent(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    sub = standin.subscribe()
    assert subscribe(push_app.test_client(), t, players[0], sub).status_code == 201
    publish(client, t)
    outbox.expand()
    db.session.execute(sa.update(PushMessage).values(expires_at=utcnow() - timedelta(seconds=1)))
    db.session.commit()
    assert sender.send_due(push_app)[outbox.SENT] == 0
    assert standin.texts(sub["endpoint"]) == []


def test_the_opponent_is_asked_to_confirm_and_a_judge_call_taken_is_announced(push_app, standin, make_user,
                                                                             make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    publish(client, t)
    seats = seating(t)
    reporter = next(p for p in players if seats[p.id][2] is not None)
    opponent = next(p for p in players if p.id == seats[reporter.id][2])
    sub = standin.subscribe()
    assert subscribe(push_app.test_client(), t, opponent, sub).status_code == 201
    match_id = db.session.scalar(sa.select(Seat.match_id).join(Round).where(Round.tournament_id == t.id,
                                                                          Seat.player_id == reporter.id))
    answer = push_app.test_client().post(page(t, reporter) + "/report", data={"match": match_id,
                                                                              "result": "corp"})
    assert answer.status_code in (302, 303)
    sender.send_due(push_app)
    (message,) = standin.texts(sub["endpoint"])
    assert message["body"] == f"Round 1: {reporter.name} reported your game. Confirm or dispute it."


def test_two_workers_never_claim_the_same_message(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login, n=5)
    for p in players:
        assert subscribe(push_app.test_client(), t, p, standin.subscribe()).status_code == 201
    publish(client, t)
    outbox.expand()
    first = outbox.claim(limit=3)
    second = outbox.claim(limit=10)
    assert len(first) == 3 and len(second) == 2
    assert not {m.id for m in first} & {m.id for m in second}
    assert outbox.claim() == []


def test_time_called_reaches_only_the_tables_still_playing(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    publish(client, t)
    subs = {p.id: standin.subscribe() for p in players}
    for p in players:
        assert subscribe(push_app.test_client(), t, p, subs[p.id]).status_code == 201
    sender.send_due(push_app)
    from app.models import Match
    first = db.session.scalars(sa.select(Match).where(Match.tournament_id == t.id).order_by(Match.table)).first()
    assert client.post(f"/tournaments/{t.id}/matches/{first.id}/result", data={"result": "corp"}
                       ).status_code in (302, 303)
    done = set(db.session.scalars(sa.select(Seat.player_id).where(Seat.match_id == first.id)))
    assert client.post(f"/tournaments/{t.id}/rounds/1/timer/start").status_code in (302, 303)
    assert client.post(f"/tournaments/{t.id}/rounds/1/timer/call").status_code in (302, 303)
    sender.send_due(push_app)
    for p in players:
        called = [m for m in standin.texts(subs[p.id]["endpoint"]) if "time is called" in m["body"]]
        assert len(called) == (0 if p.id in done else 1)


def test_a_cut_tells_each_seed_their_first_game(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    subs = {p.id: standin.subscribe() for p in players}
    for p in players:
        assert subscribe(push_app.test_client(), t, p, subs[p.id]).status_code == 201
    from app.models import CutEntry, Match
    for number in (1, 2):
        publish(client, t, number)
        for match in db.session.scalars(sa.select(Match).join(Round).where(Round.tournament_id == t.id,
                                                                        Round.number == number)):
            if not match.is_bye:
                assert client.post(f"/tournaments/{t.id}/matches/{match.id}/result", data={"result": "corp"}
                                   ).status_code in (302, 303)
    answer = client.post(f"/tournaments/{t.id}/cut", data={"size": 4, "kind": "single"})
    assert answer.status_code in (302, 303)
    sender.send_due(push_app)
    seeds = dict(db.session.execute(sa.select(CutEntry.player_id, CutEntry.seed)
                                    .where(CutEntry.tournament_id == t.id)).all())
    assert len(seeds) == 4
    names = {p.id: p.name for p in players}
    by_seed = {s: pid for pid, s in seeds.items()}
    for pid, seed in seeds.items():
        (message,) = [m for m in standin.texts(subs[pid]["endpoint"]) if "top 4" in m["body"]]
        opponent = names[by_seed[5 - seed]]  # a top 4: 1 v 4, 2 v 3
        assert message["body"].startswith(f"You made the top 4, seed {seed}. First game: table ")
        assert message["body"].endswith(f" against {opponent}.")


def test_a_drop_or_disqualification_is_never_pushed(push_app, standin, make_user, make_tournament, login):
    client, t, players = event(make_user, make_tournament, login)
    sub = standin.subscribe()
    assert subscribe(push_app.test_client(), t, players[0], sub).status_code == 201
    assert push_app.test_client().post(page(t, players[0]) + "/drop").status_code in (302, 303)
    publish(client, t)  # the dropped player is not seated: nothing for them
    sender.send_due(push_app)
    assert standin.texts(sub["endpoint"]) == []


def test_a_judge_taking_the_call_and_a_freed_place_reach_the_player(push_app, standin, make_user, make_tournament,
                                                                    login):
    from app.models import JudgeCall, User, WaitlistEntry
    from app.services.check_in import waitlist

    client, t, players = event(make_user, make_tournament, login)
    publish(client, t)
    caller = players[0]
    sub = standin.subscribe()
    phone = push_app.test_client()
    assert subscribe(phone, t, caller, sub).status_code == 201
    assert phone.post(page(t, caller) + "/judge", data={"reason": "a ruling"}).status_code in (302, 303)
    owner = db.session.scalar(sa.select(User).where(User.email == "to@example.com"))
    owner.display_name = "Jo"
    db.session.commit()
    call_id = db.session.scalar(sa.select(JudgeCall.id).where(JudgeCall.player_id == caller.id))
    assert client.post(f"/tournaments/{t.id}/judge-calls/{call_id}/claim").status_code in (302, 303)
    sender.send_due(push_app)
    table = seating(t)[caller.id][0]
    bodies = [m["body"] for m in standin.texts(sub["endpoint"])]
    expected = f"Jo is on the way to table {table}." if seating(t)[caller.id][2] is not None else "Jo is on the way"
    assert any(b.startswith(expected.rstrip(".")) for b in bodies), bodies

    waiting = Player(tournament_id=t.id, name="Waiting Wu", dropped=True)
    db.session.add(waiting)
    db.session.flush()
    db.session.add(WaitlistEntry(tournament_id=t.id, player_id=waiting.id, position=1))
    db.session.commit()
    later = standin.subscribe()
    assert subscribe(phone, t, waiting, later).status_code == 201
    assert waitlist.let_in(t, waiting.id)
    db.session.commit()
    sender.send_due(push_app)
    assert [m["body"] for m in standin.texts(later["endpoint"])] == [
        "A place is free: you are in the event now (off the waitlist)."]
