"""What deploy/ promises between its files, checked without running them (tests/test_deployment.py runs them):
nginx drops an idle upstream connection before gunicorn does, gunicorn binds only a loaded app, private polls
bypass the cache, and no shared copy is served at any age while it is updated."""
from __future__ import annotations

import re
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = (ROOT / "deploy/nginx-sass.conf").read_text()


def _seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m)?", value).groups()
    return int(number) * {"ms": 0.001, "s": 1, "m": 60, None: 1}[unit]


def test_nginx_closes_an_idle_upstream_connection_before_gunicorn_and_gunicorn_preloads():
    gunicorn = runpy.run_path(str(ROOT / "deploy/gunicorn.conf.py"))
    upstream = re.search(r"upstream sass_app \{(.*?)\n\}", NGINX, re.S).group(1)
    timeout = re.search(r"^\s*keepalive_timeout (\S+);", upstream, re.M)
    assert timeout and _seconds(timeout.group(1)) < gunicorn["keepalive"]
    assert gunicorn["preload_app"] is True and callable(gunicorn["post_fork"])


def test_private_polls_bypass_the_cache_and_no_copy_is_served_at_any_age_while_updating():
    private = re.search(r"location ~ (\S+) \{(.*?)\n    \}", NGINX, re.S)
    pattern, body = re.compile(private.group(1)), private.group(2)
    assert "proxy_cache " not in body
    for path in ("/t/ab12/p/7.abc", "/t/ab12/p/7.abc/live", "/t/ab12/p/7.abc/judge", "/t/ab12/me.json",
                 "/tournaments/3/rounds/1/live", "/tournaments/3/players/live", "/tournaments/3/judge-calls/live",
                 "/tournaments", "/login", "/account", "/t/ab12/entry.json", "/groups", "/groups/3"):
        assert pattern.search(path), path
    for path in ("/t/ab12/pairings", "/t/ab12/status.json", "/t/ab12/standings", "/api/tournaments/ab12",
                 "/t/ab12/rounds/2", "/static/app.js", "/t/ab12/p", "/t/p/me.json.x", "/t/ab12/stream.json",
                 "/g/worlds"):
        assert not pattern.search(path), path
    stale = re.search(r"proxy_cache_use_stale ([^;]*);", NGINX).group(1).split()
    assert "updating" not in stale
    assert "gzip_proxied any;" in NGINX
    assert "application/json" in re.search(r"gzip_types ([^;]*);", NGINX).group(1)
