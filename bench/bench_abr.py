"""ABR send benchmark: a finished 300-player, 9-round swiss sent to a stand-in of AlwaysBeRunning on 127.0.0.1
(tests/abr_standin.py, which parses the multipart upload and answers as ABR does).

`python -m bench.bench_abr` (or `make bench-abr`). On a temporary SQLite file, the median and worst over --runs of:

1. build: the NRTM file for ABR (app/services/abr/uploads.py `build`), and its size;
2. click: the TO's POST through the real route (Flask test client: lock, build, queue, redirect): what the TO waits;
3. send: one sender pass (claim, POST to the stand-in, record the answer), i.e. the time the upload is on the wire;
4. click to sent: the click, then the sender thread (woken by it) until the row says sent, as the dashboard sees it;
5. the cost of the bad cases on the sender (never on a request): ABR unreachable (a closed port), and an ABR that
   hangs (the whole budget, ABR_TIMEOUT_SECONDS, here 2 s).

CPU seconds of this process are printed beside the wall times (the machine is shared: CPU time is steadier).
"""
from __future__ import annotations

import argparse
import json
import socket
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

from abr_standin import PASSWORD as ABR_PASSWORD, USER as ABR_USER, StandIn  # noqa: E402
from bench.bench_uploads import dumps, make_backup  # noqa: E402

PASSWORD = "bench password"


def _timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _line(name: str, walls: list[float], cpus: list[float], extra: str = "") -> None:
    print(f"{name:<26} median {statistics.median(walls) * 1000:8.1f} ms   worst {max(walls) * 1000:8.1f} ms   "
          f"CPU median {statistics.median(cpus) * 1000:7.1f} ms  {extra}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    from flask_migrate import upgrade

    from app import create_app
    from app.extensions import db
    from app.models import AbrUpload, User
    from app.services.event_files import restore
    from app.services.abr import sender, uploads

    folder = tempfile.mkdtemp(prefix="sass-bench-abr-")
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.db", "WTF_CSRF_ENABLED": False,
                      "PAGE_CACHE_DIR": f"{folder}/pages", "BACKUP_DIR": f"{folder}/backups",
                      "RATELIMIT_ENABLED": False, "ABR_SENDER": False, "ABR_TIMEOUT_SECONDS": 2})
    with app.app_context(), StandIn(events={4321}) as abr:
        upgrade()
        app.config.update(ABR_URL=abr.url, ABR_USER=ABR_USER, ABR_PASSWORD=ABR_PASSWORD)
        owner = User(email="bench@example.org")
        owner.set_password(PASSWORD)
        db.session.add(owner)
        db.session.commit()
        t = restore.restore(dumps(make_backup(args.players, args.rounds)), owner)
        t.abr_id = 4321
        db.session.commit()
        tid = t.id
        assert uploads.ready(t), "the event should be over"
        client = app.test_client()
        client.post("/login", data={"email": owner.email, "password": PASSWORD})
        print(f"{args.players} players x {args.rounds} rounds, {args.runs} runs; stand-in ABR at {abr.url}")

        def fresh():
            db.session.execute(sa.delete(AbrUpload))
            db.session.commit()
            db.session.expire_all()
            return db.session.get(type(t), tid)

        walls, cpus, size = [], [], 0
        for _ in range(args.runs):
            body, wall, cpu = _timed(lambda: uploads.build(fresh(), "https://sass.example/t/benchopn", "SASS"))
            walls.append(wall), cpus.append(cpu)
            size = len(body.encode())
        _line("1. build the file", walls, cpus, f"({size / 1024:.0f} KB)")

        clicks, click_cpu, sends, send_cpu = [], [], [], []
        for _ in range(args.runs):
            fresh()
            response, wall, cpu = _timed(lambda: client.post(f"/tournaments/{tid}/abr"))
            assert response.status_code == 303
            clicks.append(wall), click_cpu.append(cpu)
            sent, wall, cpu = _timed(lambda: sender.send_due(app))
            assert sent == 1
            sends.append(wall), send_cpu.append(cpu)
        _line("2. click (queue)", clicks, click_cpu)
        _line("3. send (on the wire)", sends, send_cpu)
        assert "abrTournamentId" not in json.loads(db.session.scalar(sa.select(AbrUpload.body)))  # a link only

        app.config["ABR_SENDER"] = True
        thread = sender.start(app)
        totals, total_cpu = [], []
        try:
            for _ in range(args.runs):
                fresh()

                def click_to_sent():
                    client.post(f"/tournaments/{tid}/abr")
                    while db.session.scalar(sa.select(AbrUpload.state).execution_options(
                            populate_existing=True)) != "sent":
                        db.session.commit()
                        time.sleep(0.005)

                _, wall, cpu = _timed(click_to_sent)
                totals.append(wall), total_cpu.append(cpu)
        finally:
            sender.stop(app)
            app.config["ABR_SENDER"] = False  # the next clicks must not start a thread racing the timed passes
        assert not thread.is_alive()
        _line("4. click to sent (thread)", totals, total_cpu)
        print(f"   the stand-in received {len(abr.received)} files for {args.runs * 2} queued uploads")

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            dead = f"http://127.0.0.1:{s.getsockname()[1]}"
        for name, setup in (("5a. ABR unreachable", lambda: app.config.update(ABR_URL=dead)),
                            ("5b. ABR hangs (2 s budget)", lambda: (app.config.update(ABR_URL=abr.url),
                                                                   setattr(abr, "mode", "hang")))):
            setup()
            walls, cpus = [], []
            for _ in range(3):
                fresh()
                client.post(f"/tournaments/{tid}/abr")
                _, wall, cpu = _timed(lambda: sender.send_due(app))
                walls.append(wall), cpus.append(cpu)
                db.session.commit()  # this session's snapshot ends: read what the sender wrote
                state = db.session.scalar(sa.select(AbrUpload.state))
                assert state == "queued", state
            _line(name, walls, cpus, "(the upload stays queued)")
        abr.mode = "abr"
        db.engine.dispose()


if __name__ == "__main__":
    main()
