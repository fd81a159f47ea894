"""Exact minimum-LexCost perfect matchings for plain swiss: compiled (rustworkx, `lex_matching`) where the weights
fit, networkx with B**rank Python integers otherwise and for the reference solve of the whole field."""
from __future__ import annotations

from typing import Callable, Optional

import networkx as nx

from .lex_matching import NotPerfect, lex_matching, lex_matching_arrays
from .plain_field import Field, Infeasible


class ExactSolver:
    """Solves exact blocks of one field and counts those whose decided types outgrew rustworkx's weights."""

    def __init__(self, field: Field):
        self.field = field
        self.big_int_solves = 0

    def solve(self, nodes: list, edges: list, counted: Optional[set] = None, reference: bool = False) -> list:
        """Minimum-LexCost perfect matching of `edges` [(u, v, type or None)]: rustworkx a chunk of types at a time
        (`lex_matching`), or, for the reference (and should the decided types outgrow 128-bit weights), networkx
        with B**rank Python-int weights. Only types whose higher pod is in `counted` cost anything (all types when
        None). Raises Infeasible."""
        if counted is not None:
            edges = [(u, v, t if t and t[0] in counted else None) for u, v, t in edges]
        if not reference:
            try:
                found = lex_matching(nodes, edges, self.field.pod_of)
            except NotPerfect as failure:
                raise Infeasible(failure.unmatched) from None
            if found is not None:
                return found
            self.big_int_solves += 1
        return big_int_matching(nodes, edges)

    def solve_arrays(self, nodes: list, arrays: tuple, edges: Callable[[], list]) -> list:
        """`solve` of an exact block given as arrays (`lex_matching_arrays`: pods, ends and types by position in
        `nodes`); `edges()` lists them as tuples, should the networkx fallback be needed. Raises Infeasible."""
        try:
            found = lex_matching_arrays(*arrays)
        except NotPerfect as failure:
            raise Infeasible(nodes[i] for i in failure.unmatched) from None
        if found is not None:
            return [(nodes[u], nodes[v]) for u, v in found]
        self.big_int_solves += 1
        return big_int_matching(nodes, edges())


def big_int_matching(nodes: list, edges: list) -> list:
    """networkx's blossom with weights B**rank (B = pairs + 1), exact in Python integers. Raises Infeasible."""
    types = sorted({t for _, _, t in edges if t}, key=lambda t: (-t[0], t[1]))  # least expensive first
    base = len(nodes) // 2 + 1
    weight = {t: base**r for r, t in enumerate(types)}
    big = base ** len(types)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((u, v, big - weight.get(t, 0)) for u, v, t in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) < len(nodes):
        covered = {v for e in matching for v in e}
        raise Infeasible(v for v in nodes if v not in covered)
    return [tuple(e) for e in matching]


def solve_reference(field: Field) -> list:
    """The reference: every legal edge of the whole field, one networkx max-weight max-cardinality matching."""
    nodes = list(range(field.n)) + ([field.bye] if field.bye is not None else [])
    edges = [(u, v, field.type_of(u, v)) for u in nodes for v in nodes if u < v and field.allowed(u, v)]
    return big_int_matching(nodes, edges)
