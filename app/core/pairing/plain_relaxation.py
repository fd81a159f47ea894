"""The rematch-free relaxation of plain swiss, and its chain built with real players.

Without rematches the players of a pod differ only in bye eligibility, so the relaxation's optimum below a
committed prefix depends only on how many players each pod has left (`Remaining`). Its chain (`segment`) is a
lower bound for every pairing agreeing with the prefix; `construct` builds a segment of it with real players, and
where that succeeds the segment is proven optimal (see plain_solve.py).
"""
from __future__ import annotations

from typing import Optional

from .plain_field import Field


class Stuck(Exception):
    """The chain could not be built with real players: `pod` is where it got stuck."""

    def __init__(self, pod: int):
        self.pod = pod


class Remaining:
    """What the committed blocks above leave: players taken from pods below, and whether the bye is still free."""

    def __init__(self, field: Field):
        self.field = field
        self.avail = [len(p) for p in field.pods]
        self.taken: set = set()
        self.bye_free = field.bye is not None

    def take(self, players) -> None:
        for t in players:
            self.taken.add(t)
            self.avail[self.field.pod[t]] -= 1

    def give_back(self, players, bye_free: bool) -> None:
        for t in players:
            self.taken.discard(t)
            self.avail[self.field.pod[t]] += 1
        self.bye_free = bye_free

    def bye_pod(self) -> Optional[int]:
        """The relaxation's bye pod: the lowest pod with an untaken player and a player who may take the bye
        (whoever else agrees above may have taken other players, so any eligible player counts)."""
        if not self.bye_free:
            return None
        return next((x for x in reversed(self.field.bye_pods) if self.avail[x]), None)


def segment(rest: Remaining, start: int) -> tuple[int, Optional[int]]:
    """The relaxation's segment from pod `start` (nothing crossing above it): its last pod, and the bye pod.

    Without rematches the players of a pod differ only in bye eligibility. The bye goes to the lowest pod
    with an eligible player (any higher bye pair is a worse type of its stage); then, top down, a pod left
    odd sends one player to the next pod with a player left: each stage gets at most one down-pair, to the
    nearest possible pod, which nothing beats given the stages above. A segment ends at the first
    boundary that no pair of this chain crosses (the bye crosses every boundary below its pod)."""
    bye_pod = rest.bye_pod()
    last = rest.field.npods - 1
    if rest.bye_free and (bye_pod is None or bye_pod < start):
        return last, bye_pod  # the bye has nowhere to go: the build fails and the exact block says so
    carry = False
    for x in range(start, last + 1):
        avail = rest.avail[x] - (x == bye_pod)
        if carry and avail:
            avail -= 1
            carry = False
        if avail % 2:
            carry = True
        if not carry and (bye_pod is None or x < bye_pod):
            return x, bye_pod
    return last, bye_pod


def construct(rest: Remaining, span: tuple, bye_pod: Optional[int]) -> list:
    """The segment's part of the relaxed chain with real untaken players. Raises Stuck, naming the pod, when
    rematches (or the players taken above) get in the way."""
    field = rest.field
    met, taken = field.met, rest.taken
    pairs: list = []
    carry = None  # the player floating down, and where its own pod's pairs sit in `pairs`
    src = (0, 0)
    placed = False
    for x in range(span[0], span[1] + 1):
        avail = [v for v in field.pods[x] if v not in taken] if taken else list(field.pods[x])
        if x == bye_pod:
            taker = next((q for q in reversed(avail) if field.eligible[q]), None)
            if taker is None:
                raise Stuck(x)
            pairs.append((taker, field.bye))
            avail.remove(taker)
            placed = True
        if carry is not None and avail:
            partner = next((q for q in avail if q not in met[carry]), None)
            if partner is None:  # let someone else from the floater's pod float instead
                for k in range(*src):
                    p, q = pairs[k]
                    for stay, go in ((p, q), (q, p)):
                        if stay not in met[carry]:
                            partner = next((r for r in avail if r not in met[go]), None)
                            if partner is not None:
                                pairs[k] = (stay, carry)
                                carry = go
                                break
                    if partner is not None:
                        break
                if partner is None:
                    raise Stuck(x)
            pairs.append((carry, partner))
            avail.remove(partner)
            carry = None
        inner = pair_within(avail, met)
        if inner is None:
            raise Stuck(x)
        if inner[1] is not None:
            carry = inner[1]
            src = (len(pairs), len(pairs) + len(inner[0]))
        pairs += inner[0]
    if carry is not None or (rest.bye_free and not placed and span[1] == field.npods - 1):
        raise Stuck(x)
    return pairs


def pair_within(players: list, met: list) -> Optional[tuple[list, Optional[int]]]:
    """Pair a pod (seeded order) with no rematch, leaving one player iff the count is odd; None if stuck.

    Greedy: each player takes the latest waiting player they have not met. Leftovers that met each other are
    repaired by a swap with an existing pair (u-p, w-q instead of p-q), which nearly always exists when a pod is
    larger than the number of rounds; when it does not, the caller solves exactly."""
    pairs: list = []
    waiting: list = []
    for v in players:
        mv = met[v]
        for k in range(len(waiting) - 1, -1, -1):
            if waiting[k] not in mv:
                pairs.append((waiting.pop(k), v))
                break
        else:
            waiting.append(v)
    while len(waiting) > 1:
        u = waiting.pop()
        hit = next(((k, idx, stay_u, stay_w) for k, w in enumerate(waiting) for idx, (p, q) in enumerate(pairs)
                    for stay_u, stay_w in ((p, q), (q, p)) if stay_u not in met[u] and stay_w not in met[w]), None)
        if hit is None:
            return None
        k, idx, stay_u, stay_w = hit
        pairs[idx] = (stay_u, u)
        pairs.append((stay_w, waiting.pop(k)))
    return pairs, (waiting[0] if waiting else None)
