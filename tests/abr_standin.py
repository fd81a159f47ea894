"""A stand-in for AlwaysBeRunning's POST /api/nrtm on 127.0.0.1, answering as ABR's public source does
(docs/api.md, "AlwaysBeRunning"), plus the ways a network or a broken site answers instead; and the TO's side on
ABR (`conclude`, `revert`, `clear_imported`), so a test can see what a code does to an event there. For the tests
and bench/bench_abr.py; no traffic leaves the machine.

Each behaviour names the file of ABR's public repository it follows (from that repository's root):
- basic auth on the upload address (401 without the login or with a wrong one): ABR's Apache vhost, abr.conf;
- a redirect from an address that is not ABR's own (http://, www.): abr.conf too (mode "moved" here);
- every upload kept as a new file under a new six-digit code, never replacing one: /app/Http/Controllers/
  TournamentsController.php, NRTMEndpoint;
- a file naming an event (`abrTournamentId`) from a server: kept under a code nobody is told, then refused with
  403, as the event's conclusion is authorized against a logged-in ABR user (NRTMEndpoint, and
  /app/Policies/TournamentPolicy.php);
- a code entered in an event's Conclude form adds the file's players as claims beside the ones already there,
  removing none, skipping only a rank whose first claim has the same identities (concludeNRTM, processNRTMjson,
  assessNewClaimNeed); reverting a conclusion keeps the claims (revertConclusion); clearing the import's claims
  removes them (clearAnonym)."""
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
MODES = ("abr", "500", "html", "huge", "hang", "slow", "drip", "redirect", "moved")
USER, PASSWORD = "sass-uploads", "standin-password"  # the stand-in's login unless a test gives another


class StandIn:
    """`with StandIn() as abr:` serves on abr.url; abr.received holds each upload's file (parsed) and headers."""

    def __init__(self, events=(), password: str = PASSWORD, user: str = USER):
        self.mode = "abr"
        self.delay = 1.0  # "slow": seconds before the answer
        self.location = "https://alwaysberunning.net/api/nrtm"  # "moved": where the redirect points
        self.events = set(events)  # ABR event ids that exist
        self.user, self.password = user, password  # the upload address's login (abr.conf): 401 without it
        self.received: list[dict] = []  # every file ABR kept, with its code and the request's headers
        self.stored: dict[int, dict] = {}  # code -> the file kept under it (tjsons/nrtm/import_<code>.json)
        self.claims: dict[int, list[dict]] = {}  # event id -> its claims (ABR's entries)
        self.concluded: set[int] = set()
        self.requests = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"

    def __enter__(self) -> "StandIn":
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
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
                if mode in ("redirect", "moved"):  # a captive portal; abr.conf's redirect to its own address
                    self.send_response(302 if mode == "redirect" else 301)
                    self.send_header("Location", "http://login.example/portal" if mode == "redirect"
                                     else standin.location)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode == "huge":
                    return self._send(200, b"{" + b" " * (4 * 1024 * 1024) + b"}", "application/json")
                # abr.conf: basic auth in front of /api/nrtm, before ABR's code sees the request
                if self.headers.get("Authorization") != "Basic " + base64.b64encode(
                        f"{standin.user}:{standin.password}".encode()).decode():
                    return self._send(401, b"<h1>Unauthorized</h1>", "text/html",
                                      {"WWW-Authenticate": 'Basic realm="NRTM upload"'})
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

            def _send(self, status, data, kind, extra=None):
                self.send_response(status)
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
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
        (an error page). Otherwise the file is kept under a new code, unique among the kept ones; a file naming an
        event (`abrTournamentId`) is refused with 403 after that (a server is no logged-in ABR user: the code is
        never told), else the code is the answer."""
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
            code = random.randint(100000, 999999)
            while code in self.stored:  # NRTMEndpoint: a new code for every upload, never one in use
                code = random.randint(100000, 999999)
            self.stored[code] = data
            self.received.append({"file": data, "headers": headers, "code": code})
        if "abrTournamentId" in data:
            return 403, b"<html><body>This action is unauthorized.</body></html>"
        return 200, {"code": code, "status": "JSON successfully stored."}

    # --- the TO on ABR, logged in (what a test does by hand there) -------------------------------------------

    def conclude(self, event: int, code: int) -> list[str]:
        """The event's Conclude form with a conclusion code (concludeNRTM, then processNRTMjson): the file's
        players become claims beside those already there (none removed; a rank whose first claim has the same
        identities is skipped, assessNewClaimNeed). ABR's errors, if any."""
        data = self.stored.pop(int(code))  # the file moves from the kept uploads to the event
        players = data.get("players")
        if not players:
            return ["There was an error with the uploaded file. Please update your NRTM app."]
        for p in players:
            if "corpIdentity" not in p or "runnerIdentity" not in p:
                return [f"Player '{p.get('name')}' has no corp or runner identity."]
        claims = self.claims.setdefault(event, [])
        for p in players:
            first = next((c for c in claims if c["rank"] == p["rank"]), None)
            if first and (first["corp"], first["runner"]) == (p["corpIdentity"], p["runnerIdentity"]):
                continue
            claims.append({"rank": p["rank"], "name": p["name"], "corp": p["corpIdentity"],
                           "runner": p["runnerIdentity"], "imported": True})
        self.concluded.add(event)
        return []

    def revert(self, event: int) -> None:
        """Revert the event's conclusion (revertConclusion): no longer concluded; its claims stay."""
        self.concluded.discard(event)

    def clear_imported(self, event: int) -> None:
        """Clear the claims an NRTM import made (clearAnonym)."""
        self.claims[event] = [c for c in self.claims.get(event, []) if not c["imported"]]
