"""Check-in and the waitlist (docs/domain.md 19; the rules: app/core/check_in.py): the event's settings
(`settings`), the waitlist and its promotions (`waitlist`), the roll call and its no-show drop (`roll_call`), and
what a player's phone shows of both (`phone`). Every write takes the event's lock (app/services/locks.py) first.
"""
