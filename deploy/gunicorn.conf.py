"""gunicorn settings for one SASS app host behind nginx (deploy/nginx-sass.conf): `gunicorn -c deploy/gunicorn.conf.py
wsgi:app`. Sync-style threads are enough because nginx buffers every request and answer."""
import gc
import multiprocessing
import os

bind = os.environ.get("SASS_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SASS_WORKERS", multiprocessing.cpu_count() * 2))
threads = int(os.environ.get("SASS_THREADS", 4))
worker_class = "gthread"
timeout = 30              # a silent worker; a gthread worker stays heard while a thread runs a long request
                          # (the longest, a 10,000 x 10 restore, takes 10-40 s)
graceful_timeout = 20
keepalive = 5             # nginx keeps connections to the app open (upstream keepalive), and drops an idle one
                          # after 4 s (keepalive_timeout in deploy/nginx-sass.conf): always before gunicorn does
preload_app = True        # the app is loaded before the port is bound: a restarting host refuses connections
                          # (nginx asks the other host) until its workers can answer. New code needs a restart
                          # (systemctl restart sass), not a HUP: a HUP forks the app already loaded.
max_requests = 100_000    # a worker is replaced now and then, rarely: a replaced worker closes its connections,
max_requests_jitter = 10_000  # and nginx, finding one closed, counts its host as failed and sends that lane's
                          # requests to the others for 10 s (at 5,000 a hall's phones lane, 250 checks a second
                          # over 4 workers, replaced one every 80 s)
accesslog = os.environ.get("SASS_ACCESS_LOG", "-") or None  # nginx logs every request too; the phones lane
                          # (deploy/systemd/sass-phones.service) leaves its hall of checks to nginx's log alone
control_socket_disable = True


GC_THRESHOLD = (20_000, 20, 20)  # a collection per 20,000 new objects (Python's default: 700)


def pre_fork(server, worker):
    """The preloaded app's objects (modules, SQLAlchemy's and Jinja's caches) leave the collector's reach before a
    worker is forked (Python's advice for gc.freeze): a big request no longer pays for walking them in every full
    collection (a result entered on a 5,000-table round page: 140 ms of CPU, 46 ms so), and the workers keep
    sharing their pages with the parent."""
    gc.freeze()


def post_fork(server, worker):
    """A worker forked from the preloaded app opens its own database connections, never the parent's, and
    collects garbage less often: a 5,000-table page makes tens of thousands of short-lived rows each time."""
    from app.extensions import db
    from wsgi import app

    gc.set_threshold(*GC_THRESHOLD)
    with app.app_context():
        db.engine.dispose(close=False)
