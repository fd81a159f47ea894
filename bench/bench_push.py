"""Push benchmark: a published round's messages to every subscribed player, through the real outbox and sender,
to a stand-in push service on 127.0.0.1 (tests/push_standin.py: it checks each request's VAPID signature and
decrypts each message with the subscription's keys, as a browser's push service and browser do).

`python -m bench.bench_push` (or `make bench-push`). On a temporary SQLite file (or --database-url):

1. the publish's own time (app/services/swiss/rounds.py `publish_round`: the TO's wait), median of --runs, with
   nobody subscribed and with every player subscribed (the outbox's one INSERT), side by side;
2. one subscribed player in the event: publish -> the stand-in has their message (--runs times);
3. every player subscribed: publish -> the stand-in has the first and the last message.

The stand-in runs in this process, so its decryption competes with the sender for the same cores: a real push
service is elsewhere, and the figures are upper bounds.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench.bench_uploads import dumps, make_backup  # noqa: E402
from push_standin import PushStandIn  # noqa: E402


def _wait_for(standin: PushStandIn, count: int, timeout: float) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with standin.lock:
            if len(standin.received) >= count:
                return True
        time.sleep(0.005)
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()

    from flask_migrate import upgrade
    from py_vapid import Vapid02

    from app import create_app
    from app.extensions import db
    from config import database_url
    from app.models import PushEvent, PushMessage, PushSubscription, Tournament, User
    from app.services.event_files import restore
    from app.services.push import sender
    from app.services.swiss.rounds import publish_round

    folder = tempfile.mkdtemp(prefix="sass-bench-push-")
    key = Vapid02()
    key.generate_keys()
    standin = PushStandIn()
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url(args.database_url) if args.database_url
                      else f"sqlite:///{folder}/bench.db", "SECRET_KEY": "bench",
                      "PAGE_CACHE_DIR": f"{folder}/pages", "BACKUP_DIR": f"{folder}/backups",
                      "RATELIMIT_ENABLED": False, "ABR_SENDER": False, "PUSH": "on",
                      "PUSH_SERVICES": (standin.origin,), "VAPID_PRIVATE_KEY": key.private_pem().decode()})
    with app.app_context():
        upgrade()
        owner = User(email="bench@example.org")
        owner.set_password("bench password")
        db.session.add(owner)
        db.session.commit()
        t = restore.restore(dumps(make_backup(args.players, 1)), owner)
        tid, players = t.id, [p.id for p in t.players]

        def publish() -> float:
            event = db.session.get(Tournament, tid)
            start = time.perf_counter()
            publish_round(event, 1)
            return time.perf_counter() - start

        def subscribe(ids) -> list[dict]:
            subs = [standin.subscribe() for _ in ids]
            db.session.execute(sa.insert(PushSubscription), [
                {"tournament_id": tid, "player_id": pid, "endpoint": s["endpoint"], "p256dh": s["keys"]["p256dh"],
                 "auth": s["keys"]["auth"]} for pid, s in zip(ids, subs, strict=True)])
            db.session.commit()
            return subs

        def clear(subscriptions: bool) -> None:
            db.session.execute(sa.delete(PushEvent))
            db.session.execute(sa.delete(PushMessage))
            if subscriptions:
                db.session.execute(sa.delete(PushSubscription))
            db.session.commit()
            with standin.lock:
                standin.received.clear()

        nobody = [publish() for _ in range(args.runs)]
        subscribe(players)
        everyone = []
        for _ in range(args.runs):
            everyone.append(publish())
            clear(subscriptions=False)
        print(f"{args.players} players, publish (the TO's wait), median of {args.runs}: nobody subscribed "
              f"{statistics.median(nobody) * 1000:.1f} ms, everyone subscribed {statistics.median(everyone) * 1000:.1f}"
              f" ms (ratio {statistics.median(everyone) / statistics.median(nobody):.2f})")

        clear(subscriptions=True)
        sender.start(app)
        subscribe(players[:1])
        one = []
        for _ in range(args.runs):
            start = time.monotonic()
            publish()
            assert _wait_for(standin, 1, 30), "the message never arrived"
            one.append(standin.received[0].at - start)
            clear(subscriptions=False)
        print(f"one subscribed player: publish -> message at the push service, median {statistics.median(one):.3f} s,"
              f" worst {max(one):.3f} s")

        clear(subscriptions=True)
        subscribe(players)
        cpu = time.process_time()
        start = time.monotonic()
        publish()
        done = _wait_for(standin, len(players), 300)
        with standin.lock:
            times = sorted(r.at - start for r in standin.received)
        missing = "" if done else ", NOT ALL"
        print(f"{len(players)} subscribed players: publish -> first message {times[0]:.3f} s, half "
              f"{times[len(times) // 2]:.3f} s, last {times[-1]:.3f} s ({len(times)} delivered{missing}"
              f"; refused {len(standin.refused)}); CPU of this process {time.process_time() - cpu:.1f} s")
        sender.stop(app)
    standin.close()


if __name__ == "__main__":
    main()
