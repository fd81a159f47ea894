"""What deploy/ promises between its files, checked without running them (tests/test_deployment.py runs them):
nginx drops an idle upstream connection before gunicorn does, gunicorn binds only a loaded app, private polls
bypass the cache (the players' own on the phones lane), and no shared copy is served at any age while it is updated;
the phones lane yields the CPU to the app lane, logs nothing nginx does not, and keeps its workers; push is sent
by a process of its own that yields to both."""
from __future__ import annotations

import os
import re
import runpy
from pathlib import Path

from config import Config

ROOT = Path(__file__).resolve().parent.parent
NGINX = (ROOT / "deploy/nginx-sass.conf").read_text()


def _seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def test_nginx_closes_an_idle_upstream_connection_before_gunicorn_and_gunicorn_preloads():
    gunicorn = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    for name in ("sass_app", "sass_phones"):
        upstream = re.search(rf"upstream {name} \{{(.*?)\n\}}", NGINX, re.S).group(1)
        timeout = re.search(r"^\s*keepalive_timeout (\S+);", upstream, re.M)
        assert timeout and _seconds(timeout.group(1)) < gunicorn["keepalive"]
    assert gunicorn["preload_app"] is True and callable(gunicorn["post_fork"])


def _lane(path: str) -> str | None:
    """The upstream of the private location `path` falls in (nginx tries regex locations in order), or None."""
    for pattern, body in re.findall(r"location ~ (\S+) \{(.*?)\n    \}", NGINX, re.S):
        if re.search(pattern, path):
            assert "proxy_cache " not in body
            return re.search(r"proxy_pass http://(\w+);", body).group(1)
    return None


def test_private_polls_bypass_the_cache_the_phones_on_their_lane_and_no_copy_is_served_while_updating():
    for path in ("/t/ab12/p/7.abc", "/t/ab12/p/7.abc/live", "/t/ab12/p/7.abc/judge", "/t/ab12/me.json",
                 "/t/ab12/entry.json", "/t/ab12/p/7.abc/report"):
        assert _lane(path) == "sass_phones", path
    for path in ("/tournaments/3/rounds/1/live", "/tournaments/3/players/live", "/tournaments/3/judge-calls/live",
                 "/tournaments", "/login", "/account", "/groups", "/groups/3", "/t/ab12/registration"):
        assert _lane(path) == "sass_app", path
    for path in ("/t/ab12/pairings", "/t/ab12/status.json", "/t/ab12/standings", "/api/tournaments/ab12",
                 "/t/ab12/rounds/2", "/static/app.js", "/t/ab12/p", "/t/p/me.json.x", "/t/ab12/stream.json",
                 "/g/worlds"):
        assert _lane(path) is None, path
    phones = re.search(r"upstream sass_phones \{(.*?)\n\}", NGINX, re.S).group(1)
    assert re.search(r"server \S+:8000 backup;", phones)  # a host without its phones lane answers on the app's
    stale = re.search(r"proxy_cache_use_stale ([^;]*);", NGINX).group(1).split()
    assert "updating" not in stale
    assert "gzip_proxied any;" in NGINX
    assert "application/json" in re.search(r"gzip_types ([^;]*);", NGINX).group(1)


def _unit(name: str) -> str:
    return (ROOT / "deploy/systemd" / name).read_text()


def _gunicorn(env: dict[str, str]) -> dict:
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_the_phones_lane_yields_to_the_app_lane_and_leaves_its_log_to_nginx():
    """After a publish the phones lane is busy for half a minute: the shared answers (status.json, the pairings)
    come first; its hall of checks is in nginx's access log, not written twice."""
    phones, app = _unit("sass-phones.service"), _unit("sass.service")
    nice = lambda unit: int(m.group(1)) if (m := re.search(r"^Nice=(-?\d+)$", unit, re.M)) else 0  # noqa: E731
    assert nice(phones) > nice(app)
    own = dict(line.split("=", 1) for line in re.findall(r"^Environment=(.*)$", phones, re.M))
    assert _gunicorn(own)["accesslog"] is None
    assert _gunicorn({})["accesslog"] == "-"  # the app lane logs, as before
    assert "access_log off" not in NGINX


def test_a_halls_phones_lane_replaces_a_worker_rarely():
    """A replaced worker closes its connections, and nginx, finding one closed, sends the lane's requests to the
    app lane for 10 s: at a hall's steady rate (PLAYER_CHECKS_PER_SECOND over a 2-core host's 4 workers) no worker
    is replaced within twenty minutes."""
    gunicorn = _gunicorn({})
    per_worker = Config.PLAYER_CHECKS_PER_SECOND / 4
    assert (gunicorn["max_requests"] - gunicorn["max_requests_jitter"]) / per_worker >= 20 * 60


def test_push_leaves_from_its_own_lowest_priority_process_and_the_workers_send_none():
    """A hall's messages cost seconds of CPU after a publish: the sender runs beside the lanes at a lower priority
    than either (the phones' requests first), and the workers, reading the same settings, start no sender."""
    push = _unit("sass-push.service")
    nice = lambda unit: int(m.group(1)) if (m := re.search(r"^Nice=(-?\d+)$", unit, re.M)) else 0  # noqa: E731
    assert nice(push) > nice(_unit("sass-phones.service")) > nice(_unit("sass.service"))
    assert re.search(r"^ExecStart=\S+/flask --app wsgi push-send$", push, re.M)
    assert "EnvironmentFile=/etc/sass.env" in push
    env = dict(line.split("=", 1) for line in (ROOT / "deploy/sass.env").read_text().splitlines()
               if line and not line.startswith("#"))
    assert env["PUSH_SENDER"] == "0"
