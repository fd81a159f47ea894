"""The fixed brackets' layouts (app/core/bracket_games.py): every game fed by earlier rounds, each seed once, a
loser out or dropped to the lower bracket as the kind says."""
from __future__ import annotations

from collections import Counter

import pytest

from app.core.bracket_games import LAYOUTS

ALL = sorted(LAYOUTS)


@pytest.mark.parametrize("kind, size", ALL)
def test_layout_is_well_formed(kind, size):
    specs = LAYOUTS[kind, size]
    by_id = {g.id: g for g in specs}
    assert len(by_id) == len(specs) and sorted(by_id) == list(range(1, len(specs) + 1))
    seeds = [s.ref for g in specs for s in g.slots if s.kind == "seed"]
    assert sorted(seeds) == list(range(1, size + 1))
    uses = Counter((s.kind, s.ref) for g in specs for s in g.slots if s.kind != "seed")
    for g in specs:
        for s in g.slots:
            if s.kind != "seed":
                assert by_id[s.ref].round < g.round  # feeders are played in earlier rounds
        if kind == "single":
            expected = (0, 0) if g.section == "final" else (1, 0)  # a loser is out
        else:
            # an upper-bracket loser drops to the lower bracket, a lower-bracket loser is out;
            # both players of the grand final go on to the (possible) reset
            expected = {"upper": (1, 1), "lower": (1, 0), "final": (1, 1), "reset": (0, 0)}[g.section]
        assert (uses["winner", g.id], uses["loser", g.id]) == expected, g
    if kind == "double":
        final = next(g for g in specs if g.section == "final")
        assert by_id[final.slots[0].ref].section == "upper" and by_id[final.slots[1].ref].section == "lower"
    assert sum(g.section == "reset" for g in specs) == (1 if kind == "double" else 0)
