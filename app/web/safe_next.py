"""Where to go back to: the one rule for every redirect target a request names (`?next=`, a form's `next`, what a
sign-in keeps in the session until NetrunnerDB sends the browser back).

A target is followed only when it is a path on this site, spelt so that no browser can read it as another site:
it starts with a single "/", and neither it nor its percent-decoded spelling holds a control character (below
0x20, 0x7f, or any Unicode control or format character), whitespace of any script, a backslash, or a second "/"
or "\\" right after the first. Browsers drop tabs and newlines from a URL and read "\\" as "/", so "/\\t/evil.example"
or "/\\\\evil.example" would take the user to evil.example (an open redirect lends this site's name to a phishing
page); a CR or LF would also break the Location header (a 500). Anything else is replaced by the caller's safe
default, never echoed. docs/security.md, "Redirects"."""
from __future__ import annotations

import unicodedata
from urllib.parse import unquote

MAX_LENGTH = 1000  # a path of this app is far shorter; the session cookie keeps what a sign-in goes back to


def _clean(text: str) -> bool:
    """No control, format or separator character, no whitespace, no backslash."""
    for ch in text:
        if ch == "\\" or ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7f:
            return False
        if unicodedata.category(ch)[0] in "CZ":  # controls, format (zero-width, bidi), unassigned, separators
            return False
    return True


def _same_site(text: str) -> bool:
    return text.startswith("/") and not text.startswith(("//", "/\\")) and _clean(text)


def is_safe(target: object) -> bool:
    """Whether `target` is a same-site path by the rule above (both as given and percent-decoded, twice over, so
    that "%09", "%252F" and the like are judged as what they stand for)."""
    if not isinstance(target, str) or not target or len(target) > MAX_LENGTH:
        return False
    seen = target
    for _ in range(3):
        if not _same_site(seen):
            return False
        decoded = unquote(seen)
        if decoded == seen:
            return True
        seen = decoded
    return False  # still encoded after three rounds: nothing of ours is spelt like that


def safe_next(target: object, default: str) -> str:
    """`target` when it is a same-site path, else `default` (a path the caller built with url_for)."""
    return target if is_safe(target) else default  # type: ignore[return-value]
