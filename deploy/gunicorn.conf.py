"""gunicorn settings for one SASS app host behind nginx (deploy/nginx-sass.conf): `gunicorn -c deploy/gunicorn.conf.py
wsgi:app`. Sync-style threads are enough because nginx buffers every request and answer."""
import multiprocessing
import os

bind = os.environ.get("SASS_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("SASS_WORKERS", multiprocessing.cpu_count() * 2))
threads = 4
worker_class = "gthread"
timeout = 30              # a silent worker; a gthread worker stays heard while a thread runs a long request
                          # (the longest, a 10,000 x 10 restore, takes 10-40 s)
graceful_timeout = 20
keepalive = 5             # nginx keeps connections to the app open (upstream keepalive), and drops an idle one
                          # after 4 s (keepalive_timeout in deploy/nginx-sass.conf): always before gunicorn does
preload_app = True        # the app is loaded before the port is bound: a restarting host refuses connections
                          # (nginx asks the other host) until its workers can answer. New code needs a restart
                          # (systemctl restart sass), not a HUP: a HUP forks the app already loaded.
max_requests = 5000       # a worker is replaced now and then
max_requests_jitter = 500
accesslog = "-"
control_socket_disable = True


def post_fork(server, worker):
    """A worker forked from the preloaded app opens its own database connections, never the parent's."""
    from app.extensions import db
    from wsgi import app

    with app.app_context():
        db.engine.dispose(close=False)
