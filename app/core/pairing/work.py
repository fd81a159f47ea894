"""The fast matcher's work budget: counted operations, so a round stops at the same point on every machine.

Units: one per LP variable each time HiGHS re-solves, EDGE_UNITS per pair handed to an exact matching solve
(about what each costs: a warm HiGHS re-solve takes some 5 us a variable, rustworkx's blossom some 10 us a pair). Wall-clock
time is no unit (the same round would then pair differently on a loaded machine); a CPU-time cap stands behind
the count only as a safety net, and a round stopped by it says so in its notes.
"""
from __future__ import annotations

import time

WORK_BUDGET = 1_000_000  # units: a few seconds of solver CPU at most; the standard benchmark's rounds need < 0.9M
EDGE_UNITS = 2
SAFETY_SECONDS = 3.5  # CPU seconds after which no new work starts, whatever the count says


class Work:
    """Units spent so far against the budget; `exhausted` once either the count or the safety net runs out."""

    EDGE_UNITS = EDGE_UNITS

    def __init__(self, budget: int = WORK_BUDGET, seconds: float = SAFETY_SECONDS):
        self.budget, self.spent = budget, 0
        self._deadline = time.process_time() + seconds
        self.timed_out = False

    def spend(self, units: int) -> None:
        self.spent += int(units)

    def affords(self, units: int) -> bool:
        """Whether `units` more fit in what is left (and the safety net has not run out)."""
        return self.spent + units <= self.budget and not self._late()

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.budget or self._late()

    def _late(self) -> bool:
        if not self.timed_out and time.process_time() > self._deadline:
            self.timed_out = True
        return self.timed_out
