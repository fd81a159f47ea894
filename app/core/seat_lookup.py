"""How a phone finds its own table in a published round from a shared answer.

At a publish every phone of the hall wants its table within seconds; asking the app for its own page costs the app
a few milliseconds of CPU a phone, which at 10,000 phones is most of a minute of two cores. A player's table, side
and opponent are public facts of the published round, so they are served as shared answers the proxy keeps
(app/web/shared_answers.py), one per bucket of players: a phone fetches its bucket's (small: BUCKETS of them share
the round's seats) and reads its own line; only what is private (its report state, judge call, check-in) still
needs its own check, which comes at the page's unhurried pace. The page is given its bucket by the server.
"""
from __future__ import annotations

BUCKETS = 64  # 10,000 players: about 160 lines an answer, a few kilobytes


def bucket(player_id: int) -> int:
    return player_id % BUCKETS
