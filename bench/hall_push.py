"""bench_hall's push: a share of the hall's players subscribed, a stand-in push service as a process of its own on
127.0.0.1 (tests/push_standin.py, counting every message and decrypting and checking a sample: decrypting all of
them would take the cores the hall is measured on), the publish queueing its push event in its own transaction as
app/services/swiss/rounds.py does, and the sender as deploy/ runs it (`flask push-send` at its unit's Nice, the
workers' sender threads off) or in the workers' threads (--push-sender workers)."""
from __future__ import annotations

import multiprocessing
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from bench.bench_proxy_load import ROUNDS, SECRET, Publisher  # noqa: E402
import push_standin  # noqa: E402

PUSH_UNIT = ROOT / "deploy/systemd/sass-push.service"


class HallPush:
    def __init__(self, share: float, verify_every: int, where: str, seed: int) -> None:
        self.share, self.verify_every, self.where, self.seed = share, verify_every, where, seed
        self.standin = self.sender = None
        self.player_of: dict[str, str] = {}  # the stand-in's subscription id -> the player's id
        self.refused: list = []
        self.decrypted = 0

    def start(self, uri: str, tid: int, players: list[str]) -> None:
        """The stand-in, its subscriptions for `share` of `players` (ids) stored, and the app's push settings in
        this process's environment (bench_proxy_load.serve passes it to gunicorn)."""
        chosen = random.Random(self.seed).sample(players, round(self.share * len(players)))
        self.conn, there = multiprocessing.Pipe()
        self.standin = multiprocessing.get_context("fork").Process(
            target=push_standin.serve, args=(there, len(chosen), self.verify_every), daemon=True)
        self.standin.start()
        origin, subscriptions = self.conn.recv()
        engine = sa.create_engine(uri)
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO push_subscriptions (tournament_id, player_id, endpoint, p256dh, auth, "
                                 "created_at) VALUES (:t, :p, :e, :k, :a, now())"),
                         [{"t": tid, "p": int(p), "e": s["endpoint"], "k": s["keys"]["p256dh"],
                           "a": s["keys"]["auth"]} for p, s in zip(chosen, subscriptions, strict=True)])
        engine.dispose()
        self.player_of = {s["endpoint"].rsplit("/", 1)[1]: p for p, s in zip(chosen, subscriptions, strict=True)}
        from py_vapid import Vapid02
        key = Vapid02()
        key.generate_keys()
        os.environ.update(PUSH="on", PUSH_SERVICES=origin, VAPID_PRIVATE_KEY=key.private_pem().decode(),
                          PUSH_SENDER="0" if self.where == "process" else "1")

    def start_sender(self, uri: str, folder: Path) -> None:
        """`flask push-send` as its unit runs it (its Nice, on top of this process's)."""
        if self.where != "process":
            return
        nice = int(re.search(r"^Nice=(-?\d+)$", PUSH_UNIT.read_text(), re.M).group(1))
        env = {**os.environ, "DATABASE_URL": uri, "SECRET_KEY": SECRET, "PAGE_CACHE_DIR": str(folder / "pages"),
               "BACKUP_DIR": str(folder / "backups")}
        self.sender = subprocess.Popen([str(ROOT / ".venv/bin/flask"), "--app", "wsgi", "push-send"], cwd=ROOT,
                                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True, preexec_fn=lambda: os.nice(nice))

    def pids(self) -> dict[int, str]:
        """The processes cpu_by_program names apart."""
        out = {}
        if self.standin is not None:
            out[self.standin.pid] = "push stand-in"
        if self.sender is not None:
            out[self.sender.pid] = "push-send"
        return out

    def taken(self) -> dict[str, float]:
        """Each player's first message the stand-in accepted since the last call: player id -> monotonic time."""
        self.conn.send("report")
        fresh, self.decrypted, self.refused = self.conn.recv()
        out: dict[str, float] = {}
        for sid, at in fresh:
            player = self.player_of.get(sid)
            if player is not None and player not in out:
                out[player] = at
        return out

    def stop(self) -> None:
        if self.sender is not None and self.sender.poll() is None:
            self.sender.terminate()
            self.sender.wait(timeout=30)
        if self.standin is not None:
            self.conn.send(None)
            self.standin.join(timeout=30)


class PushPublisher(Publisher):
    """The bench's publish, queueing the round's push event in the same transaction as
    app/services/push/outbox.py `queue` does (a withdrawal pushes nothing); times each commit."""

    def __init__(self, uri: str):
        super().__init__(uri)
        self.seconds: list[float] = []

    def set(self, tid: int, published: bool) -> None:
        start = time.perf_counter()
        with self.engine.begin() as conn:
            conn.execute(sa.text("UPDATE rounds SET published = :p WHERE tournament_id = :t AND number = :n"),
                         {"p": published, "t": tid, "n": ROUNDS})
            conn.execute(sa.text("UPDATE tournaments SET version = version + 1 WHERE id = :t"), {"t": tid})
            if published:
                conn.execute(sa.text("INSERT INTO push_events (tournament_id, kind, round, created_at) SELECT :t, "
                                     "'round', :n, now() WHERE EXISTS (SELECT 1 FROM push_subscriptions WHERE "
                                     "tournament_id = :t)"), {"t": tid, "n": ROUNDS})
        self.seconds.append(time.perf_counter() - start)
