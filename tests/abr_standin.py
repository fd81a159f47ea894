"""A stand-in for AlwaysBeRunning's POST /api/nrtm on 127.0.0.1, answering as ABR's public source does
(docs/api.md, "AlwaysBeRunning"), plus the ways a network or a broken site answers instead. For the tests and
bench/bench_abr.py; no traffic leaves the machine."""
from __future__ import annotations

import base64
import json
import random
import threading
import time
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# What `mode` makes the stand-in do: "abr" answers as ABR; the others are what may stand in its way.
MODES = ("abr", "500", "html", "huge", "hang", "slow", "drip", "redirect")


class StandIn:
    """`with StandIn() as abr:` serves on abr.url; abr.received holds each upload's file (parsed) and headers."""

    def __init__(self, events=(), password: str = "", user: str = "sass"):
        self.mode = "abr"
        self.delay = 1.0  # "slow": seconds before the answer
        self.events = set(events)  # ABR event ids that exist
        self.user, self.password = user, password  # a credential required when set (401 otherwise)
        self.received: list[dict] = []
        self.requests = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def __enter__(self) -> "StandIn":
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()

    def _handler(self):
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with standin._lock:
                    standin.requests += 1
                if self.path != "/api/nrtm":
                    return self._send(404, b"<html>Not found</html>", "text/html")
                mode = standin.mode
                if mode == "hang":
                    standin._stop.wait(60)
                    return
                if mode == "500":
                    return self._send(500, b"<html><body>Whoops, looks like something went wrong.</body></html>",
                                      "text/html")
                if mode == "html":
                    return self._send(200, b"<!doctype html><title>Hotel Wi-Fi</title><p>Accept the terms",
                                      "text/html")
                if mode == "redirect":
                    self.send_response(302)
                    self.send_header("Location", "http://login.example/portal")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode == "huge":
                    return self._send(200, b"{" + b" " * (4 * 1024 * 1024) + b"}", "application/json")
                if standin.password and self.headers.get("Authorization") != "Basic " + base64.b64encode(
                        f"{standin.user}:{standin.password}".encode()).decode():
                    return self._send(401, b"Unauthorized.", "text/plain")
                status, answer = standin.answer(self.headers.get("Content-Type", ""), body, dict(self.headers))
                data = json.dumps(answer).encode() if isinstance(answer, dict) else answer
                if mode == "slow":
                    time.sleep(standin.delay)
                if mode == "drip":
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    for byte in data:
                        if standin._stop.wait(0.5):
                            return
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                    return
                self._send(status, data, "application/json" if isinstance(answer, dict) else "text/html")

            def _send(self, status, data, kind):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up reading: as ABR's server
                    pass

        return Handler

    def answer(self, content_type: str, body: bytes, headers: dict):
        """ABR's NRTMEndpoint: the file in field `jsonresults`, else an error; a file that is not JSON breaks it
        (an error page); abrTournamentId of an existing event concludes it (code 42 and its address) unless a
        player lacks an identity; of an unknown event keeps the file and gives a code with the error; no id: a
        six-digit code."""
        message = BytesParser(policy=HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        upload = None
        if message.is_multipart():
            for part in message.iter_parts():
                if part.get_param("name", header="content-disposition") == "jsonresults" and part.get_filename():
                    upload = part.get_payload(decode=True)
        if not upload:
            return 200, {"error": "File upload failed."}
        try:
            data = json.loads(upload)
        except ValueError:
            return 500, b"<html><body>Whoops, looks like something went wrong.</body></html>"
        if not isinstance(data, dict):
            return 500, b"<html><body>Whoops, looks like something went wrong.</body></html>"
        with self._lock:
            self.received.append({"file": data, "headers": headers})
        code = random.randint(100000, 999999)
        if "abrTournamentId" in data:
            tid = int(data["abrTournamentId"])
            if tid not in self.events:
                return 200, {"code": code, "error": f"Tournament with ID {tid} not found."}
            errors = []
            players = data.get("players")
            if not players:
                errors.append("There was an error with the uploaded file. Please update your NRTM app.")
            for p in players or []:
                if "corpIdentity" not in p:
                    errors.append(f"Player '{p.get('name')}' has no corp identity.")
                if "runnerIdentity" not in p:
                    errors.append(f"Player '{p.get('name')}' has no runner identity.")
            if errors:
                return 200, {"error": errors}
            return 200, {"url": f"{self.url}/tournaments/{tid}/concluded", "code": 42,
                         "status": "Results uploaded successfully."}
        return 200, {"code": code, "status": "JSON successfully stored."}
