"""Plain swiss solved exactly, top down: the relaxation's chain built segment by segment, a small exact block only
where it fails.

Why it is exact. Group types by their higher pod x ("stage x"); stage x comes before stage x+1 in the order, so
we certify the stages top down: a block of pods [top, b] is committed only with a proof that no pairing agreeing
with the committed blocks above it has a smaller cost on stages top..b. Pairings that agree on the stages above
`top` take the same number of players out of each pod below (those counts are types of the stages above) and the
bye or not, though maybe other players.

(i) Built blocks. The relaxation without rematches (plain_relaxation.py) depends on those counts only, so it is a
lower bound for all of them. A run of its segments built with real players ends at a boundary nothing crosses and
reproduces its stages exactly: any pairing with the same prefix splits there too. The run must reach below every
pod that lost players to an exact block above (the "zone"): below it everyone's remaining problem is the same.

(ii) Exact blocks, where a segment cannot be built (plain_exact_block.py): pods top..b, b the pod where the
built chain got stuck (any b is exact; the stuck pod keeps H small). Nothing below `top` is taken then. H
relaxes the rest of the field with sinks and counts only stages top..b, so its optimum is a lower bound; pairs of
H that reach a sink are made real with untaken players of the sink's pod (same types); the players they take form
the zone that the next built run must cover. If they cannot be made real, or the run below fails, H grows down to
the failing segment and to at least twice its players (`doubled`), or, when the players below are not many
more than that (`WHOLE_REST`), to the whole rest at once. If H has no perfect matching at all, the committed block
above could not be completed: it is taken back and solved together with H. Each round trip grows H or moves up,
so this ends (at worst with an exact solve of the whole field, which then names the players left unpaired).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from .plain_exact import ExactSolver
from .plain_exact_block import ExactBlock
from .plain_field import Field, Infeasible
from .plain_relaxation import Remaining, Stuck, construct, segment

WHOLE_REST = 2  # a block that failed once takes in every player below it if they are at most this many times its own


@dataclass
class Block:
    """Pods top..bottom committed: their pairs, the players below they took, how, and the state before."""

    top: int
    bottom: int
    pairs: list
    taken: Sequence
    exact: bool
    zone: int  # the zone when the block was committed (a built block then covered it)
    bye_free: bool  # before the block
    size: int = 0


def solve_fast(field: Field) -> tuple[list, str]:
    """The field's optimal pairing (pairs of players, the bye as node n) and a note on how it was proven.
    Raises Infeasible."""
    if field.n == 0:
        return [], "fast"
    rest = Remaining(field)
    solver = ExactSolver(field)
    npods = field.npods
    blocks: list = []  # committed, top down
    top, zone = 0, -1
    grow: Optional[tuple] = None  # (top, b) of an exact block to solve next; (top, b, False): with real players
    retry = False  # the exact block to solve next replaces one that failed (grew, or was taken back)
    slots = False  # whether the last exact block cut a pod to slots

    def undo() -> Block:
        block = blocks.pop()
        rest.give_back(block.taken, block.bye_free)
        return block

    while top < npods or grow:
        if grow is None:
            run, b, failed = [], top, None
            while b < npods and (b == top or b <= zone):
                end, bye_pod = segment(rest, b)
                try:
                    run += construct(rest, (b, end), bye_pod)
                except Stuck as stuck:
                    failed = stuck.pod
                    break
                b = end + 1
            if failed is None:
                blocks.append(Block(top, b - 1, run, (), False, zone, rest.bye_free))
                top, zone = b, -1
                continue
            if zone >= top:  # the run below an exact block failed: take that block back, solve it larger
                block = undo()
                grow, retry = (block.top, doubled(field, block.top, block.bottom, failed)), True
            else:
                grow, retry = (top, failed), False
        a, b = grow[:2]
        if retry and b < npods - 1 and players_from(rest, a) <= WHOLE_REST * players_from(rest, a, b):
            b = npods - 1  # grow to the rest at once: the next doubling would take most of it anyway
        compress = len(grow) < 3  # (a, b, False): the compressed H could not be made real
        block_h = ExactBlock(rest, a, b, compress)
        slots = block_h.slots
        try:
            made = block_h.solve(solver)
        except Infeasible as failure:  # nothing completes what is committed above: take it back
            if blocks:
                while True:  # back to a block whose top had nothing taken
                    block = undo()
                    if block.zone < block.top or not blocks:
                        break
                grow = (block.top, b)
                retry = True
            elif b < npods - 1:
                grow = (a, npods - 1)  # no pairing at all: the exact whole field names who is left
            elif compress and slots:
                grow = (a, b, False)  # name real players, not slots
            else:
                raise Infeasible(failure.unmatched) from None
            continue
        if made is None:  # H's optimum cannot be made real: without slots, or H takes in the next segment
            grow = (a, b, False) if compress and slots else (a, doubled(field, a, b, segment(rest, b + 1)[0]))
            retry = True
            continue
        real, taken, bye_used = made
        blocks.append(Block(a, b, real, taken, True, -1, rest.bye_free, block_h.size))
        rest.take(taken)
        rest.bye_free = rest.bye_free and not bye_used
        zone = max((field.pod[t] for t in taken), default=-1)
        top, grow = b + 1, None
    exact = [blk for blk in blocks if blk.exact]
    hard = sum(blk.bottom - blk.top + 1 for blk in exact)
    how = f"fast: {npods - hard} of {npods} pods built on the relaxation"
    if exact:
        how += f", {hard} in {len(exact)} exact block(s) of at most {max(blk.size for blk in exact)} nodes"
    if solver.big_int_solves:
        how += f", {solver.big_int_solves} solved by networkx"
    return [p for blk in blocks for p in blk.pairs], how


def doubled(field: Field, a: int, b: int, at_least: int) -> int:
    """The bottom of a block from pod a that replaces the failed block a..b: at least `at_least`, and with at
    least twice the players, so that a block failing again and again costs a few times its last solve."""
    want, size, x = 2 * sum(len(field.pods[y]) for y in range(a, b + 1)), 0, a
    while x < field.npods - 1 and (x < at_least or size + len(field.pods[x]) < want):
        size += len(field.pods[x])
        x += 1
    return x


def players_from(rest: Remaining, a: int, b: Optional[int] = None) -> int:
    """How many untaken players pods a..b hold (b: the last pod when None)."""
    field = rest.field
    last = field.npods - 1 if b is None else b
    return sum(1 for x in range(a, last + 1) for v in field.pods[x] if v not in rest.taken)
