"""The fast matcher's work budget: counted operations, so a round stops at the same point on every machine.

A unit is about 5 us of CPU on the benchmark machine. Every loop of the fast matcher that grows with the field
asks for its units before it starts (`need`) and stops the search (OutOfBudget) when they do not fit: for an exact
matching solve EDGE_UNITS per pair handed to it plus one per NODE_PAIRS (pair x node), per class pair priced, per player
realised, per LP variable built;
for every HiGHS solve its start-up and its simplex iterations (HiGHS counts them, and is told to stop at the
iterations the budget has left), each priced by the LP's size. So a round spends at most its budget, plus its
first pairing (`must`: the one piece of work every round does, whatever the budget). The search is a fixed
sequence of steps that the budget only cuts short, and the best pairing found is kept: a bigger budget never
pairs worse.

Wall-clock and CPU time are no unit (the same round would then pair differently on a loaded machine). A CPU-time
cap stands far behind the count (SAFETY_SECONDS, several times the budget's worst case) as a last resort only:
a round stopped by it says so in its notes, and pairing it again on a quieter machine may pair it differently.
"""
from __future__ import annotations

import time
from contextlib import contextmanager

WORK_BUDGET = 1_000_000  # units: about 3 s of solver CPU at most (measured on the shared benchmark machine)
EDGE_UNITS = 2  # per pair handed to an exact matching solve (building it, and the Python around the solve)
NODE_PAIRS = 125  # plus a unit per this many (pair x node): the blossom's time grows with both
PRICE_UNITS = 2  # per class pair priced (the class table)
PLAYER_UNITS = 1  # per player realised from class-pair counts
RUN_UNITS = 500  # per HiGHS solve, plus a unit per RUN_VARS variables (its start-up reads the whole model)
RUN_VARS = 10
ITERATION_UNITS = 10  # per simplex iteration, plus a unit per ITERATION_VARS variables
ITERATION_VARS = 600
SAFETY_SECONDS = 30.0  # CPU seconds: a last resort, far above what the default budget ever takes (about 3 s)

_clock = time.process_time  # the CPU clock the last resort reads (a test slows it down)


class OutOfBudget(Exception):
    """The next step does not fit in what is left of the budget: the search stops with the best found."""


class Work:
    """Units spent so far against the budget."""

    EDGE_UNITS = EDGE_UNITS

    def __init__(self, budget: int = WORK_BUDGET, seconds: float = SAFETY_SECONDS):
        self.budget, self.spent = budget, 0
        self._deadline = _clock() + seconds
        self.timed_out = False
        self._must = 0

    def spend(self, units: int) -> None:
        self.spent += int(units)

    def need(self, units: int) -> None:
        """Raise OutOfBudget unless `units` more fit in the budget (never inside `must`)."""
        if not self._must and not self.affords(units):
            raise OutOfBudget

    @contextmanager
    def must(self):
        """Work that every round does whatever its budget (its first pairing): counted, never refused."""
        self._must += 1
        try:
            yield
        finally:
            self._must -= 1

    def affords(self, units: int) -> bool:
        """Whether `units` more fit in what is left (and the last-resort CPU cap has not run out)."""
        return self.spent + units <= self.budget and not self._late()

    @staticmethod
    def match_units(nodes: int, pairs: int) -> int:
        """What an exact matching solve of `pairs` possible pairs among `nodes` players costs (measured: up to
        about 40 ns per pair and node, random weights being the worst case)."""
        return pairs * EDGE_UNITS + pairs * nodes // NODE_PAIRS

    @staticmethod
    def run_units(variables: int) -> int:
        """What a HiGHS solve of an LP with this many variables costs before its first iteration."""
        return RUN_UNITS + variables // RUN_VARS

    @staticmethod
    def iteration_units(variables: int) -> int:
        return ITERATION_UNITS + variables // ITERATION_VARS

    def iterations_left(self, variables: int, after: int = 0) -> int:
        """The simplex iterations a solve may take and still fit (after its start-up, and `after` more units of
        work that must follow it), or -1 if it cannot start."""
        left = self.budget - self.spent - self.run_units(variables) - after
        if self._must:
            return 1 << 30
        if left < 0 or self._late():
            return -1
        return left // self.iteration_units(variables)

    def spend_lp(self, variables: int, iterations: int) -> None:
        """One HiGHS solve of an LP with `variables` variables that took `iterations` simplex iterations."""
        self.spend(self.run_units(variables) + self.iteration_units(variables) * iterations)

    @property
    def exhausted(self) -> bool:
        return self.spent >= self.budget or self._late()

    def _late(self) -> bool:
        if not self.timed_out and _clock() > self._deadline:
            self.timed_out = True
        return self.timed_out
