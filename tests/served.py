"""A real server for race tests: real parallel requests, as phones and TOs make them."""
from __future__ import annotations

import threading
from contextlib import contextmanager

from werkzeug.serving import make_server

from app.extensions import db


@contextmanager
def served(flask_app):
    """`flask_app` on 127.0.0.1 (a port chosen by the OS), answering requests in parallel threads, for race tests:
    yields its base URL; stops the server and closes the app's connections afterwards."""
    server = make_server("127.0.0.1", 0, flask_app, threaded=True)
    server.daemon_threads = False  # server_close() waits for the requests still running (socketserver's block_on_close)
    # a short poll: shutting down waits for the next one (0.5 s by default, paid by every test that serves)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()  # no request of this test still writing when the next test empties the tables
        with flask_app.app_context():
            db.engine.dispose()
