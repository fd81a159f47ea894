"""The event's schedule: the TO's plan (plan.py), its estimate from the real rounds (timeline.py), and its place in
the backup (carry.py). The rule itself is app/core/schedule.py."""
