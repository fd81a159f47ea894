"""The reference nginx site (deploy/nginx-sass.conf) run for real on loopback, by tests/test_deployment.py and the
proxy benchmark (bench/bench_proxy_load.py): the same file, with only its addresses, ports and folders changed."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def site(upstreams: list[str], port: int, folder: Path, phones: list[str] | None = None) -> str:
    """deploy/nginx-sass.conf for `upstreams` ("127.0.0.2:8000", ...) and their phones lanes (`phones`; none: the
    app lanes take the phones), listening on 127.0.0.1:`port` without TLS, its cache in `folder`."""
    text = (ROOT / "deploy/nginx-sass.conf").read_text()
    app = "".join(f"    server {u};\n" for u in upstreams)
    text = re.sub(r"    server 127\.0\.0\.1:8000;\n    server 10\.0\.0\.12:8000;\n", app, text, count=1)
    text = re.sub(r"    server 127\.0\.0\.1:8001;\n    server 10\.0\.0\.12:8001;\n"
                  r"    server 127\.0\.0\.1:8000 backup;\n    server 10\.0\.0\.12:8000 backup;\n",
                  "".join(f"    server {u};\n" for u in phones) + app.replace(";\n", " backup;\n") if phones
                  else app, text, count=1)
    text = text.replace("/var/cache/nginx/sass", str(folder / "nginx-cache"))
    text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{port};")
    text = re.sub(r"    ssl_certificate.*\n", "", text)
    text = text[:text.index("server {\n    listen 80;")]
    assert "10.0.0.12" not in text and "listen 443" not in text and "ssl_" not in text  # (a free port may hold 443)
    return text


def start(upstreams: list[str], port: int, folder: Path, workers: int = 1, log: bool = True,
          connections: int = 4096, phones: list[str] | None = None) -> subprocess.Popen:
    """nginx in the foreground with `site(...)` as its only site, everything it writes in `folder`; `connections`
    per worker (each phone's, and nginx's own to the app)."""
    (folder / "sass.conf").write_text(site(upstreams, port, folder, phones))
    (folder / "nginx.conf").write_text(f"""
user root;
worker_processes {workers};
worker_rlimit_nofile {connections * 2};
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log;
events {{ worker_connections {connections}; }}
http {{
    access_log {f'{folder}/nginx-access.log' if log else 'off'};
    client_body_temp_path {folder}/nginx-body;
    proxy_temp_path {folder}/nginx-proxy;
    fastcgi_temp_path {folder}/nginx-fastcgi;
    uwsgi_temp_path {folder}/nginx-uwsgi;
    scgi_temp_path {folder}/nginx-scgi;
    include {folder}/sass.conf;
}}
""")
    return subprocess.Popen([NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)


def finish(publisher, procs: list[subprocess.Popen], drop) -> None:
    """A proxy benchmark's end, whatever happened: its database connections closed, its processes stopped, its
    database dropped (`drop()`)."""
    if publisher is not None:
        publisher.close()
    stop(procs)
    drop()


def stop(procs: list[subprocess.Popen]) -> None:
    """Every process a benchmark or the deployment test started (each its own session: its children too), politely, then not."""
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
