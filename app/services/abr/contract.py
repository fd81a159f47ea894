"""ABR's upload contract, as its public source behaves (docs/api.md): what the TO may give as the ABR event, what
each answer of POST /api/nrtm means for the upload, and how long to wait before trying again. Pure: no I/O."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional
from urllib.parse import urlsplit

from ..event_files import jsonfile

MAX_ID = 2**31 - 1
# An ABR event address: https://alwaysberunning.net/tournaments/1234/some-name (any host: a test or mirror site).
_ADDRESS = re.compile(r"^(?:https?://)?[^/\s]+/tournaments/(\d{1,10})(?:[/?#]\S*)?$", re.IGNORECASE)

SENT, REFUSED, RETRY = "sent", "refused", "retry"
# Waits between tries while ABR cannot be reached: quick at first (a Wi-Fi hiccup), then at most every 90 s.
BACKOFF_SECONDS = (5, 10, 20, 40, 60, 90)
MAX_WORDS = 500  # ABR's own message, as much as a dashboard shows


def event_id(text: Optional[str]) -> Optional[int]:
    """The ABR event's id from what the TO typed: its number, or its page's address. Empty: None. ValueError with
    words for the form otherwise."""
    text = (text or "").strip()
    if not text:
        return None
    match = re.fullmatch(r"(\d{1,10})", text) or _ADDRESS.match(text)
    number = int(match.group(1)) if match else 0
    if not 0 < number <= MAX_ID:
        raise ValueError("Give the ABR event's number (1234) or its address "
                         "(https://alwaysberunning.net/tournaments/1234/...).")
    return number


# What each refusal tells the TO to do instead: the way that needs no login of this server's.
BY_HAND = (" Meanwhile, download the NRTM file and give it to your event's Conclude form on ABR, logged in "
           "there.")
NO_LOGIN = ("ABR's upload address asks for a login (HTTP 401) and this server has none: ABR_USER and "
            "ABR_PASSWORD are not set.")
UNAUTHORIZED = ("ABR did not accept this server's login for its upload address (HTTP 401): ABR_USER and "
                "ABR_PASSWORD must be the upload login ABR's admins gave.")
UPLOAD_PATH = "/api/nrtm"


def redirected(status: int, location: str) -> str:
    """Words for a redirect from ABR_URL's upload address. SASS never follows one with the results (a POST
    redirected is re-sent as a GET, or to a host nobody chose): the TO or the server's admin acts instead."""
    where = " ".join((location or "").split())[:300]
    if not where:
        return (f"ABR_URL's upload address answered with a redirect (HTTP {status}) that names no address: check "
                "ABR_URL (ABR's own is https://alwaysberunning.net)." + BY_HAND)
    parts = urlsplit(where)
    if parts.scheme in ("http", "https") and parts.netloc and parts.path.rstrip("/").endswith(UPLOAD_PATH):
        base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')[:-len(UPLOAD_PATH)]}"
        return (f"ABR_URL is redirected (HTTP {status}) to {where}: SASS sends no results through a redirect. "
                f"Set ABR_URL to {base} and send again." + BY_HAND)
    return (f"ABR_URL's upload address redirected SASS (HTTP {status}) to {where}, which is not ABR's upload "
            "address: a Wi-Fi login page or a proxy may stand in the way. Log in to the network (or check "
            "ABR_URL) and send again." + BY_HAND)


@dataclass(frozen=True)
class Answer:
    """What an answer means: SENT (with ABR's code), REFUSED (ABR said no: trying again cannot help until the TO
    changes something) or RETRY (ABR or the way to it is not there now)."""
    outcome: str
    words: str = ""  # for the TO: why it failed, or ABR's remark beside a code
    code: str = ""
    url: str = ""  # the event's ABR page when ABR concluded it itself


def backoff(attempts: int) -> int:
    """Seconds before the next try after `attempts` failed ones."""
    return BACKOFF_SECONDS[min(max(attempts, 1), len(BACKOFF_SECONDS)) - 1]


def _words(value) -> str:
    """ABR's error: a sentence, or a list of them (one per problem in the file)."""
    if isinstance(value, list):
        value = "; ".join(str(v) for v in value)
    text = " ".join(str(value).split())
    return text[:MAX_WORDS - 1] + "…" if len(text) > MAX_WORDS else text


def interpret(status: int, body: bytes, complete: bool = True, *, credential: bool = True,
              location: str = "") -> Answer:
    """An HTTP answer of ABR's /api/nrtm. ABR answers 200 with JSON both for success and for a refused file; its
    web server asks for a login first (401) and redirects an address that is not its own (3xx). An error page or
    a body that is not ABR's JSON is something in the way (a Wi-Fi login page, a proxy, ABR being down), tried
    again later. `credential`: whether the request carried a login; `location`: a redirect's Location."""
    if not complete:
        return Answer(RETRY, "The answer was far longer than ABR's (a page of something else?), so SASS stopped "
                             "reading it.")
    if status == 401:
        return Answer(REFUSED, (UNAUTHORIZED if credential else NO_LOGIN) + BY_HAND)
    if status == 403:
        return Answer(REFUSED, "ABR forbade this upload (HTTP 403): it was not put on your event."
                               + BY_HAND)
    if status in (408, 429) or status >= 500:
        return Answer(RETRY, f"ABR answered with an error on its side (HTTP {status}); SASS tries again.")
    if 300 <= status < 400:
        return Answer(REFUSED, redirected(status, location))
    if status == 404:
        return Answer(REFUSED, "ABR_URL has no upload address (HTTP 404 for /api/nrtm): it must be ABR's own "
                               "address, https://alwaysberunning.net." + BY_HAND)
    if status != 200:
        return Answer(REFUSED, f"ABR refused the upload (HTTP {status})." + BY_HAND)
    try:
        data = jsonfile.loads(body, len(body))  # complete: the reader read it within its cap (client.py)
    except jsonfile.TooLarge as e:
        return Answer(RETRY, f"The answer was not ABR's ({e}).")
    except (UnicodeDecodeError, ValueError):
        return Answer(RETRY, "The answer was not ABR's (a web page instead of its JSON): a Wi-Fi login page or a "
                             "proxy may stand in the way.")
    if not isinstance(data, dict):
        return Answer(RETRY, "The answer was not ABR's (JSON of another shape).")
    code, error = data.get("code"), data.get("error")
    code_text = str(code) if isinstance(code, (int, str)) and not isinstance(code, bool) else ""
    if code_text and re.fullmatch(r"\d{1,16}", code_text):
        url = data.get("url") if isinstance(data.get("url"), str) else ""
        # ABR kept the file but could not use the event id: the code still concludes the event by hand.
        note = f"ABR said: {_words(error)} It kept the file: conclude the event on ABR with the code." \
            if error else ""
        return Answer(SENT, note, code=code_text, url=url[:300] if url.startswith(("http://", "https://")) else "")
    if error:
        return Answer(REFUSED, f"ABR refused the file: {_words(error)}")
    return Answer(REFUSED, "ABR answered without a conclusion code or an error.")
