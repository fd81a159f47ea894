"""The reference deployment (deploy/) for real: nginx from Debian, running deploy/nginx-sass.conf, in front of two
app hosts (separate gunicorn processes with deploy/gunicorn.conf.py, on 127.0.0.2 and 127.0.0.3, each with its own
working folders), one PostgreSQL (TEST_DATABASE_URL), one Redis (127.0.0.1:6379). All traffic stays on loopback.

Through the proxy a publish on host A reaches phones within 2 s, and after a quiet spell the first phone gets the
new round, never the proxy's old copy; every private poll (a player's page, the TO's round page, the player list,
judge calls) answers 304 to its ETag with gzip on; a log-out on A ends the session on B; throttling counts exactly
across hosts; and with its Redis stopped a host still logs people in. Skipped, with the reason, when
TEST_DATABASE_URL is unset or nginx, redis-server or the running Redis is missing (CI has them all)."""
from __future__ import annotations

import gzip
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from bench import proxy

NGINX = proxy.NGINX

ROOT = Path(__file__).resolve().parent.parent
REDIS = shutil.which("redis-server")
KEY = "deployment-test-shared-key-" + "k" * 32
PASSWORD = "correct horse battery"


def _redis_up(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


pytestmark = [
    pytest.mark.skipif(not os.environ.get("TEST_DATABASE_URL"), reason="needs PostgreSQL: set TEST_DATABASE_URL"),
    pytest.mark.skipif(not os.path.exists(NGINX), reason="needs nginx (apt-get install -y nginx)"),
    pytest.mark.skipif(not REDIS, reason="needs redis-server (apt-get install -y redis-server)"),
]


def _free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def _wait(host: str, port: int, proc=None, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=1).close()
            return
        except OSError:
            assert proc is None or proc.poll() is None, f"{host}:{port} exited"
            time.sleep(0.2)
    raise AssertionError(f"nothing answers on {host}:{port}")


class Browser:
    """Cookies by name, sent to whichever host is asked (the hosts sit behind one address in real life)."""

    def __init__(self):
        self.cookies: dict[str, str] = {}

    def request(self, host: str, port: int, method: str, path: str, form: dict | None = None,
                headers: dict | None = None):
        conn = http.client.HTTPConnection(host, port, timeout=30)
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            from urllib.parse import urlencode
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        data = data.decode(errors="replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if "Expires=Thu, 01 Jan 1970" in header or not value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = value
        conn.close()
        return response.status, data, response.headers

    def csrf(self, host, port, path="/login") -> str:
        status, page, _ = self.request(host, port, "GET", path)
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)

    def log_in(self, host, port, email, password=PASSWORD) -> int:
        return self.request(host, port, "POST", "/login",
                            {"csrf_token": self.csrf(host, port), "email": email, "password": password})[0]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not _redis_up(6379):
        pytest.skip("needs the machine's Redis on 127.0.0.1:6379")
    os.environ.setdefault("SECRET_KEY", KEY)
    from databases import postgres_url
    from flask_migrate import upgrade

    from app import create_app
    from app.extensions import db

    uri = postgres_url("_deploy")
    tmp = tmp_path_factory.mktemp("deploy")
    app = create_app({"SQLALCHEMY_DATABASE_URI": uri, "SECRET_KEY": KEY})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    nginx_port = _free_port()
    public = f"http://127.0.0.1:{nginx_port}"
    prefix = f"sass-deploy-{uuid.uuid4().hex[:8]}"
    procs, hosts = [], {}

    def host(name: str, address: str, redis_uri: str, port: int | None = None):
        port = port or _free_port(address)
        work = tmp / name
        work.mkdir(exist_ok=True)
        env = {**os.environ, "DATABASE_URL": uri, "SECRET_KEY": KEY, "PUBLIC_URL": public, "TRUSTED_PROXIES": "1",
               "RATELIMIT_STORAGE_URI": redis_uri, "RATELIMIT_KEY_PREFIX": prefix, "SASS_BIND": f"{address}:{port}",
               "SASS_WORKERS": "2", "PAGE_CACHE_DIR": str(work / "pages"), "BACKUP_DIR": str(work / "backups")}
        proc = subprocess.Popen([str(ROOT / ".venv/bin/gunicorn"), "-c", str(ROOT / "deploy/gunicorn.conf.py"),
                                 "--chdir", str(ROOT), "wsgi:app"], cwd=work, env=env,
                                stdout=open(work / "log", "a"), stderr=subprocess.STDOUT, start_new_session=True)
        procs.append(proc)
        _wait(address, port, proc)
        hosts[name] = (address, port)
        return proc

    host("a", "127.0.0.2", "redis://127.0.0.1:6379")
    host("b", "127.0.0.3", "redis://127.0.0.1:6379")
    phones = host("p", "127.0.0.4", "redis://127.0.0.1:6379")  # a phones lane (deploy/systemd/sass-phones.service)

    nginx = proxy.start(["{}:{}".format(*hosts["a"]), "{}:{}".format(*hosts["b"])], nginx_port, tmp,
                        phones=["{}:{}".format(*hosts["p"])])
    procs.append(nginx)
    _wait("127.0.0.1", nginx_port, nginx)
    try:
        yield {"app": app, "uri": uri, "proxy": ("127.0.0.1", nginx_port), "hosts": hosts, "tmp": tmp,
               "host": host, "prefix": prefix, "phones": phones, "procs": procs}
    finally:
        proxy.stop(procs)
        with app.app_context():
            from app.extensions import db as _db
            _db.engine.dispose()


def _account(cluster, email: str) -> None:
    from app.extensions import db
    from app.models import User

    with cluster["app"].app_context():
        user = User(email=email)
        user.set_password(PASSWORD)
        db.session.add(user)
        db.session.commit()
        db.session.remove()


def _event(cluster, email: str) -> tuple[int, str]:
    """An event of `email` with 8 players, round 1 paired and not yet published."""
    from app.extensions import db
    from app.models import Player, Tournament, User
    from app.services.swiss import rounds

    with cluster["app"].app_context():
        owner = db.session.scalars(db.select(User).filter_by(email=email)).one()
        t = Tournament(owner=owner, name="Proxy Open", format="single")
        db.session.add(t)
        db.session.add_all([Player(tournament=t, name=f"Player {i}") for i in range(8)])
        db.session.commit()
        rounds.pair_next_round(t, 1)
        tid, slug = t.id, t.slug
        db.session.remove()
    return tid, slug


def test_a_publish_on_host_a_reaches_phones_through_the_proxy_within_2s(cluster):
    _account(cluster, "to-publish@example.com")
    tid, slug = _event(cluster, "to-publish@example.com")
    to, phone = Browser(), Browser()
    proxy, a = cluster["proxy"], cluster["hosts"]["a"]
    assert to.log_in(*proxy, "to-publish@example.com") == 302  # the form from one host, posted to either
    status, body, _ = phone.request(*proxy, "GET", f"/t/{slug}/status.json")
    assert status == 200 and '"round":null' in body.replace(" ", "")
    token = to.csrf(*a, f"/tournaments/{tid}/rounds/1")
    published = time.monotonic()
    status, _, _ = to.request(*a, "POST", f"/tournaments/{tid}/rounds/1/publish", {"csrf_token": token})
    assert status == 303
    while True:
        status, body, _ = phone.request(*proxy, "GET", f"/t/{slug}/status.json")
        if '"round":1' in body.replace(" ", ""):
            break
        assert time.monotonic() - published < 2, "phones did not see the publish within 2 s"
        time.sleep(0.1)
    status, page, _ = phone.request(*proxy, "GET", f"/t/{slug}/pairings")
    assert status == 200 and "Player 0" in page


def test_log_out_on_host_a_ends_the_session_on_host_b(cluster):
    _account(cluster, "to-logout@example.com")
    to = Browser()
    a, b = cluster["hosts"]["a"], cluster["hosts"]["b"]
    assert to.log_in(*a, "to-logout@example.com") == 302
    assert to.request(*b, "GET", "/tournaments")[0] == 200  # the session from A works on B
    kept = dict(to.cookies)  # a copy, as a thief would keep it
    token = to.csrf(*a, "/tournaments")
    assert to.request(*a, "POST", "/logout", {"csrf_token": token})[0] == 302
    thief = Browser()
    thief.cookies = kept
    assert thief.request(*b, "GET", "/tournaments")[0] == 302  # to the log-in page


def test_throttling_counts_exactly_across_hosts(cluster):
    _account(cluster, "to-throttle@example.com")
    a, b = cluster["hosts"]["a"], cluster["hosts"]["b"]
    codes = []
    for i in range(11):  # 10 failed log-ins a minute for one account, wherever they land
        codes.append(Browser().log_in(*(a if i % 2 else b), "to-throttle@example.com", "wrong password"))
    assert codes == [422] * 10 + [429]


def test_with_its_redis_stopped_a_host_still_logs_people_in(cluster):
    _account(cluster, "to-redis@example.com")
    port = _free_port()
    redis = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait("127.0.0.1", port, redis)
        cluster["host"]("c", "127.0.0.4", f"redis://127.0.0.1:{port}")
        c = cluster["hosts"]["c"]
        assert Browser().log_in(*c, "to-redis@example.com") == 302
    finally:
        os.killpg(redis.pid, signal.SIGTERM)
        redis.wait(timeout=10)
    for _ in range(3):
        assert Browser().log_in(*c, "to-redis@example.com") == 302
    assert Browser().log_in(*c, "to-redis@example.com", "wrong password") == 422
    assert " 500 " not in (cluster["tmp"] / "c" / "log").read_text()  # the access log: never a 500


def test_through_the_proxy_each_player_gets_the_shared_page_and_their_own_part(cluster):
    """Two players' phones and an anonymous one load the pairings through nginx: one shared copy (the app is asked
    once), the same bytes for all; each player's own answer (me.json, never kept by nginx) names their own table
    and link, never the other's."""
    import json

    from app.extensions import db
    from app.models import Player
    from app.services.players import player_links
    from app.services.swiss import rounds

    _account(cluster, "to-shared@example.com")
    tid, slug = _event(cluster, "to-shared@example.com")
    with cluster["app"].app_context():
        from app.models import Tournament
        t = db.session.get(Tournament, tid)
        players = db.session.scalars(db.select(Player).filter_by(tournament_id=tid).order_by(Player.id)).all()
        tables = {s.player_id: m.table for m in rounds.load_round(t, 1).matches for s in m.seats}
        phones = {p.id: (p.name, player_links.token(p)) for p in players[:2]}
        db.session.remove()
    proxy = cluster["proxy"]
    to = Browser()
    assert to.log_in(*proxy, "to-shared@example.com") == 302
    token = to.csrf(*proxy, f"/tournaments/{tid}/rounds/1")
    assert to.request(*proxy, "POST", f"/tournaments/{tid}/rounds/1/publish", {"csrf_token": token})[0] == 303
    browsers = {}
    for pid, (_, token) in phones.items():
        browsers[pid] = Browser()
        assert browsers[pid].request(*proxy, "GET", f"/t/{slug}/p/{token}")[0] == 200
        assert browsers[pid].cookies  # the device remembers its player
    anonymous = Browser()
    status, shared, headers = anonymous.request(*proxy, "GET", f"/t/{slug}/pairings")
    assert status == 200 and headers["Cache-Control"] == "public, max-age=1, stale-while-revalidate=2"
    for pid, (name, token) in phones.items():
        status, page, headers = browsers[pid].request(*proxy, "GET", f"/t/{slug}/pairings")
        # nginx's copy, fresh or (past the end of its second) handed out while a newer one is fetched
        assert status == 200 and page == shared and headers["X-Cache"] in ("HIT", "STALE", "UPDATING", "REVALIDATED")
        assert token not in page and "you-banner" not in page
        status, answer, headers = browsers[pid].request(*proxy, "GET", f"/t/{slug}/me.json?page=pairings")
        assert status == 200 and headers["Cache-Control"] == "private, no-store"
        assert headers.get("X-Cache", "MISS") != "HIT"
        me = json.loads(answer)
        assert token in me["you"] and f"table {tables[pid]}," in me["you"]
        assert name in shared.split('id="pairings">', 1)[1].split("<li")[1:][me["row"]]
        other = next(t for p, (_, t) in phones.items() if p != pid)
        assert other not in answer
    # the countdown's clock is nginx's own moment, not a kept copy's
    _, _, headers = anonymous.request(*proxy, "GET", f"/t/{slug}/status.json")
    assert abs(int(headers["X-Server-Time"]) - time.time() * 1000) < 1000
    # the players' own answers came from the phones lane, the shared ones and the TO's from the app lanes
    lane = (cluster["tmp"] / "p" / "log").read_text()
    apps = (cluster["tmp"] / "a" / "log").read_text() + (cluster["tmp"] / "b" / "log").read_text()
    for pid, (_, token) in phones.items():
        assert f"/t/{slug}/p/{token} " in lane and f"/t/{slug}/p/{token} " not in apps
    assert f"/t/{slug}/me.json?page=pairings" in lane and f"/t/{slug}/me.json" not in apps
    assert f"/t/{slug}/pairings " in apps and f"/t/{slug}/pairings " not in lane
    assert f"/tournaments/{tid}/rounds/1/publish" in apps and "/tournaments/" not in lane


def test_with_the_phones_lane_down_the_app_lanes_answer_the_players(cluster):
    """A host whose phones lane is stopped (or restarting) still answers its players: nginx falls back to the app
    lanes. Started again on its port, the lane takes them back (once nginx tries it again)."""
    from app.extensions import db
    from app.models import Player
    from app.services.players import player_links

    _account(cluster, "to-lane@example.com")
    tid, slug = _event(cluster, "to-lane@example.com")
    with cluster["app"].app_context():
        player = db.session.scalars(db.select(Player).filter_by(tournament_id=tid).limit(1)).one()
        path = f"/t/{slug}/p/{player_links.token(player)}"
        db.session.remove()
    phone = Browser()
    lane = cluster["phones"]
    os.killpg(lane.pid, signal.SIGTERM)
    lane.wait(timeout=30)
    try:
        status, page, _ = phone.request(*cluster["proxy"], "GET", path)
        assert status == 200 and "me-live" in page
        assert phone.request(*cluster["proxy"], "GET", f"{path}/live")[0] == 200
    finally:
        address, port = cluster["hosts"]["p"]
        cluster["phones"] = cluster["host"]("p", address, "redis://127.0.0.1:6379", port)
    before = len((cluster["tmp"] / "p" / "log").read_text())
    deadline = time.monotonic() + 30  # nginx tries a failed server again after fail_timeout (10 s)
    while f"{path}/live " not in (cluster["tmp"] / "p" / "log").read_text()[before:]:
        assert time.monotonic() < deadline, "the phones lane never took its players back"
        assert phone.request(*cluster["proxy"], "GET", f"{path}/live")[0] == 200
        time.sleep(0.5)


GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_through_the_proxy_with_gzip_every_private_poll_answers_304_to_its_etag(cluster):
    """The polls a phone or the TO's page repeat every few seconds pass nginx with their If-None-Match and get an
    empty 304 while nothing changed, also when nginx gzipped the first answer and weakened its ETag (W/"...").
    The TO's round page comes gzipped; a public answer is still kept by nginx and revalidated there."""
    from app.extensions import db
    from app.models import Player
    from app.services.players import player_links

    _account(cluster, "to-polls@example.com")
    tid, slug = _event(cluster, "to-polls@example.com")
    with cluster["app"].app_context():
        player = db.session.scalars(db.select(Player).filter_by(tournament_id=tid).order_by(Player.id)).first()
        token = player_links.token(player)
        db.session.remove()
    proxy = cluster["proxy"]
    to, phone = Browser(), Browser()
    assert to.log_in(*proxy, "to-polls@example.com") == 302
    csrf = to.csrf(*proxy, f"/tournaments/{tid}/rounds/1")
    assert to.request(*proxy, "POST", f"/tournaments/{tid}/rounds/1/publish", {"csrf_token": csrf})[0] == 303
    status, page, headers = to.request(*proxy, "GET", f"/tournaments/{tid}/rounds/1", headers=GZIP)
    assert status == 200 and headers["Content-Encoding"] == "gzip" and "Player 0" in page
    assert phone.request(*proxy, "GET", f"/t/{slug}/p/{token}", headers=GZIP)[0] == 200
    polls = [(to, f"/tournaments/{tid}/rounds/1/live"), (to, f"/tournaments/{tid}/rounds/1/live?edit=results"),
             (to, f"/tournaments/{tid}/players/live"), (to, f"/tournaments/{tid}/judge-calls/live"),
             (phone, f"/t/{slug}/p/{token}/live"), (phone, f"/t/{slug}/p/{token}/judge")]
    weakened = 0
    for browser, path in polls:
        status, _, headers = browser.request(*proxy, "GET", path, headers=GZIP)
        assert status == 200 and headers["ETag"], path
        weakened += headers["ETag"].startswith("W/")
        for _ in range(2):
            status, body, again = browser.request(*proxy, "GET", path,
                                                  headers={**GZIP, "If-None-Match": headers["ETag"]})
            assert status == 304 and body == "", path
            assert again.get("X-Cache", "") == "", path  # never through the cache
    assert weakened  # nginx gzipped some (the round's digests): their weak ETags still made 304s
    # a public answer: kept by nginx, and its own 304 to a phone's ETag
    _, _, first = phone.request(*proxy, "GET", f"/t/{slug}/pairings", headers=GZIP)
    status, _, second = phone.request(*proxy, "GET", f"/t/{slug}/pairings", headers=GZIP)
    assert status == 200 and second["X-Cache"] in ("HIT", "REVALIDATED", "UPDATING", "EXPIRED")
    status, body, _ = phone.request(*proxy, "GET", f"/t/{slug}/pairings",
                                    headers={**GZIP, "If-None-Match": second["ETag"]})
    assert status == 304 and body == ""


def test_a_publish_reaches_the_proxys_copy_of_the_status_within_a_second(cluster):
    """nginx counts a copy's age in whole seconds of its clock: with max-age=1 alone, a copy fetched just after a
    second began was served for almost two. The app has nginx keep it only until that second ends
    (X-Accel-Expires from nginx's own clock), so a copy filled just after a second began names a publish made at
    once by the time the second is over."""
    _account(cluster, "to-second@example.com")
    tid, slug = _event(cluster, "to-second@example.com")
    proxy, a = cluster["proxy"], cluster["hosts"]["a"]
    phone, to = Browser(), Browser()
    assert to.log_in(*a, "to-second@example.com") == 302
    csrf = to.csrf(*a, f"/tournaments/{tid}/rounds/1")
    time.sleep(1.05 - time.time() % 1)  # just after a second begins
    filled = time.time()
    status, body, headers = phone.request(*proxy, "GET", f"/t/{slug}/status.json", headers=GZIP)
    assert status == 200 and '"round":null' in body.replace(" ", "") and "X-Accel-Expires" not in headers
    assert to.request(*a, "POST", f"/tournaments/{tid}/rounds/1/publish", {"csrf_token": csrf})[0] == 303
    assert time.time() - filled < 0.8, "the publish took too long for this test's timing"
    seen = None
    while seen is None and time.time() - filled < 5:
        status, body, headers = phone.request(*proxy, "GET", f"/t/{slug}/status.json", headers=GZIP)
        if '"round":1' in body.replace(" ", ""):
            seen = time.time()
        time.sleep(0.05)
    assert seen is not None and seen - filled < 1.5, seen and seen - filled


def test_after_a_quiet_spell_the_first_phone_gets_the_new_round(cluster):
    """nginx's copy of status.json names no round; the round is published on a host, nobody asks for a few
    seconds (longer than max-age plus stale-while-revalidate); the very first phone to ask then names the round,
    never the copy from before the quiet."""
    _account(cluster, "to-quiet@example.com")
    tid, slug = _event(cluster, "to-quiet@example.com")
    proxy, a = cluster["proxy"], cluster["hosts"]["a"]
    phone, to = Browser(), Browser()
    for _ in range(3):  # a phone polling: nginx keeps the copy
        status, body, headers = phone.request(*proxy, "GET", f"/t/{slug}/status.json", headers=GZIP)
        assert status == 200 and '"round":null' in body.replace(" ", "")
        time.sleep(0.3)
    assert to.log_in(*a, "to-quiet@example.com") == 302
    csrf = to.csrf(*a, f"/tournaments/{tid}/rounds/1")
    assert to.request(*a, "POST", f"/tournaments/{tid}/rounds/1/publish", {"csrf_token": csrf})[0] == 303
    time.sleep(4)  # the quiet: past max-age=1 and stale-while-revalidate=2
    status, body, headers = Browser().request(*proxy, "GET", f"/t/{slug}/status.json", headers=GZIP)
    assert status == 200 and '"round":1' in body.replace(" ", ""), (headers.get("X-Cache"), body)
    assert headers["X-Cache"] not in ("STALE", "UPDATING")
