"""The fast matcher's work budget: counted operations, so a round stops at the same point on every machine.

A unit is about 5 us of CPU on the benchmark machine: EDGE_UNITS per pair handed to an exact matching solve
(rustworkx's blossom and the Python around it), one per LP variable when a model is built, and for every HiGHS
solve RUN_UNITS plus ITERATION_UNITS per simplex iteration (HiGHS counts them; a warm re-solve after a few new
cuts takes a handful, a re-solve after the costs change thousands). Wall-clock
time is no unit (the same round would then pair differently on a loaded machine); a CPU-time cap stands behind
the count only as a safety net, and a round stopped by it says so in its notes.
"""
from __future__ import annotations

import time

WORK_BUDGET = 500_000  # units: about 3 s of solver CPU at most
EDGE_UNITS = 2
RUN_UNITS = 3_000
ITERATION_UNITS = 60
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

    def spend_lp(self, iterations: int) -> None:
        """One HiGHS solve that took `iterations` simplex iterations."""
        self.spend(RUN_UNITS + ITERATION_UNITS * iterations)

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
