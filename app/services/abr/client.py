"""The one HTTP request to ABR: POST {ABR_URL}/api/nrtm with the file as multipart field `jsonresults`, as Cobra
sends it, with HTTP basic auth when a login is configured (ABR's web server asks for one there). A redirect is
never followed: its Location goes to the words (app/services/abr/contract.py `redirected`). It never raises and
never waits past its budget: a connection refused, a hang, a slow drip or a huge answer all come back as an Answer
(app/services/abr/contract.py). The credential goes only into the Authorization header; no message names it."""
from __future__ import annotations

import time
from typing import Optional

import requests
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import ReadTimeoutError

from .contract import RETRY, Answer, interpret

CONNECT_SECONDS = 5  # ABR's address answers at once, or the venue is offline


def post(base_url: str, body: bytes, timeout: float, cap: int, user: str = "",
         password: str = "", filename: str = "results.json") -> Answer:
    """Send `body`; read at most `cap` bytes of the answer; give up after `timeout` seconds in all."""
    deadline = time.monotonic() + timeout
    auth = (user, password) if has_login(user, password) else None
    try:
        with requests.Session() as session:
            session.trust_env = False  # no proxy or .netrc from the environment: ABR_URL says where it goes
            response = session.post(f"{base_url}/api/nrtm",
                                    files={"jsonresults": (filename, body, "application/json")},
                                    auth=auth, timeout=(min(CONNECT_SECONDS, timeout), timeout),
                                    allow_redirects=False, stream=True)
            with response:
                data, complete = _read(response, deadline, cap)
                if data is None:
                    return _late(timeout)
                return interpret(response.status_code, data, complete, credential=auth is not None,
                                 location=response.headers.get("Location", ""))
    except (requests.exceptions.Timeout, ReadTimeoutError, TimeoutError):
        return _late(timeout)
    except requests.exceptions.ConnectionError:
        return Answer(RETRY, "ABR could not be reached (no connection to it: this computer may be offline).")
    except (requests.exceptions.RequestException, Urllib3Error, OSError) as e:  # broken headers, a dropped line
        return Answer(RETRY, f"The connection to ABR failed ({type(e).__name__}).")


def has_login(user: str, password: str) -> bool:
    """A login for ABR's upload address is configured: both ABR_USER and ABR_PASSWORD (ABR's web server asks for
    HTTP basic auth there; its admins give the login, as they gave Cobra its own)."""
    return bool(user and password)


def _read(response: requests.Response, deadline: float, cap: int) -> tuple[Optional[bytes], bool]:
    """The answer's bytes and whether they are all of it (not beyond `cap`); None past the deadline. One socket
    read at a time (read1), each allowed only the time left, so a server dripping a byte a second or going silent
    still meets the deadline."""
    chunks, size = [], 0
    sock = getattr(getattr(response.raw, "_connection", None), "sock", None)
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, False
        if sock is not None:
            sock.settimeout(left)
        chunk = response.raw.read1(8192)
        if not chunk:
            return b"".join(chunks), True
        size += len(chunk)
        if size > cap:
            return b"", False
        chunks.append(chunk)


def _late(timeout: float) -> Answer:
    return Answer(RETRY, f"ABR did not answer within {timeout:g} s.")
