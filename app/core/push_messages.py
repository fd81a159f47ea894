"""What a push message to a player's phone says, and where a subscription may make the server post.

A message is read on a lock screen: short, in the player's words, naming what they must do or where they must go.
Each kind has a topic (RFC 8030 section 5.4): a push service that still holds an undelivered message of the same
topic for a subscription replaces it, so a phone asleep through round 3 wakes to round 4 only. Its time to live
bounds how late it may arrive (a "time called" is worthless after the round). Disqualifications and drops are
never pushed: the player hears those from a judge.

Pure: no Flask, no network; the services compose and send.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from typing import Optional, Sequence
from urllib.parse import urlsplit

MINUTE = 60
HOUR = 60 * MINUTE


@dataclass(frozen=True)
class Message:
    title: str  # the event's name: a phone may hold messages of several events
    body: str
    topic: str  # at most 32 characters of the URL-safe base64 alphabet (RFC 8030)
    ttl: int  # seconds the push service may hold it for a phone that is away

    def payload(self, url: str) -> dict:
        """What the service worker receives (static/push_worker.js shows it and opens `url` on a tap)."""
        return {"title": self.title, "body": self.body, "url": url, "tag": self.topic}


def round_published(event: str, number: int, table: Optional[int], side: Optional[str],
                    opponent: Optional[str], round_minutes: Optional[int]) -> Message:
    """"Round 3: table 12, Corp against Ana", or the bye; held at most the round's length (else two hours)."""
    if opponent is None:
        body = f"Round {number}: you have a bye."
    else:
        where = f"table {table}" if table is not None else "your table"
        as_side = f", {side}" if side else ""
        body = f"Round {number}: {where}{as_side} against {opponent}."
    ttl = (round_minutes * MINUTE) if round_minutes else 2 * HOUR
    return Message(event, body, "round", ttl)


def report_waiting(event: str, number: int, opponent: str) -> Message:
    return Message(event, f"Round {number}: {opponent} reported your game. Confirm or dispute it.", "report", HOUR)


def time_called(event: str, number: int) -> Message:
    return Message(event, f"Round {number}: time is called. Finish your turn as the judges say.", "time",
                   15 * MINUTE)


def judge_on_the_way(event: str, judge: Optional[str], table: Optional[int]) -> Message:
    who = judge or "A judge"
    where = f" to table {table}" if table is not None else ""
    return Message(event, f"{who} is on the way{where}.", "judge", 15 * MINUTE)


def place_freed(event: str) -> Message:
    return Message(event, "A place is free: you are in the event now (off the waitlist).", "waitlist", 12 * HOUR)


def cut_published(event: str, seed: int, cut_size: int, table: Optional[int], opponent: Optional[str]) -> Message:
    first = f" First game: table {table} against {opponent}." if opponent and table is not None else (
        f" First game against {opponent}." if opponent else "")
    return Message(event, f"You made the top {cut_size}, seed {seed}.{first}", "cut", 2 * HOUR)


def allowed_endpoint(endpoint: str, services: Sequence[str]) -> bool:
    """Whether a subscription's endpoint is on one of `services` (origins, `*.` for any subdomain: the setting
    PUSH_SERVICES), so a player's subscription can never make the server post to an address of the player's
    choosing (an internal one above all). The scheme and port must be the origin's; user info is refused."""
    try:
        parts = urlsplit(endpoint)
        port = parts.port
    except ValueError:
        return False
    if parts.username or parts.password or not parts.hostname or parts.scheme not in ("https", "http"):
        return False
    host = parts.hostname.lower().rstrip(".")
    port = port or (443 if parts.scheme == "https" else 80)
    for service in services:
        allowed = urlsplit(service.strip())
        if allowed.scheme != parts.scheme or not allowed.hostname:
            continue
        if (allowed.port or (443 if allowed.scheme == "https" else 80)) != port:
            continue
        name = allowed.hostname.lower()
        if name.startswith("*."):
            suffix = name[1:]
            if host.endswith(suffix) and len(host) > len(suffix) and not _is_ip(host):
                return True
        elif host == name:
            return True
    return False


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True
