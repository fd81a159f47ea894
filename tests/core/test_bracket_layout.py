"""The bracket drawing's geometry (app/core/bracket_layout.py) for every layout app/core/brackets.py knows: a game sits
level with the middle of the games feeding it, so the lines drawn as borders meet."""
from __future__ import annotations

import pytest

from app.core.bracket_layout import draw
from app.core.bracket_games import LAYOUTS
from app.core.brackets import Bracket


def _complete(kind: str, size: int) -> Bracket:
    """Every game reported, the lower bracket's player winning the grand final so the reset exists too."""
    bracket = Bracket(kind, list(range(1, size + 1)))
    while bracket.ready_games():
        game = bracket.ready_games()[0]
        winner = game.player2 if game.section == "final" else game.player1
        bracket.report(game.id, winner)
    return bracket


@pytest.mark.parametrize("kind, size", sorted(LAYOUTS))
def test_every_game_drawn_once_level_with_its_feeders(kind, size):
    bracket = _complete(kind, size)
    parts = draw(bracket.games)
    drawn = [gid for p in parts for gid in p.cells]
    assert sorted(drawn) == sorted(g.id for g in bracket.games)
    assert [p.key for p in parts] == (["winners", "losers", "final"] if kind == "double" else ["bracket"])
    games = {g.id: g for g in bracket.games}
    for part in parts:
        taken = set()
        for gid, cell in part.cells.items():
            assert part.rounds[cell.column - 1] == games[gid].round
            units = {(cell.column, r) for r in range(cell.row, cell.row + cell.span)}
            assert not units & taken, f"game {gid} overlaps another game"
            taken |= units
            feeders = [s.ref for s in games[gid].slots if s.kind != "seed" and s.ref in part.cells]
            feeders = list(dict.fromkeys(feeders))
            assert cell.fed == bool(feeders)
            if len(feeders) == 2:
                a, b = (part.cells[f] for f in feeders)
                assert (a.out, b.out) == ("top", "bottom")
                assert a.row + a.span == b.row, "the two feeders meet where the game's middle is"
                assert (cell.row, cell.span) == (a.row, a.span + b.span)
                assert a.column == b.column == cell.column - 1
            elif len(feeders) == 1:
                f = part.cells[feeders[0]]
                assert f.out == "straight" and (f.row, f.span) == (cell.row, cell.span)
                assert f.column == cell.column - 1
        assert max(c.row + c.span - 1 for c in part.cells.values()) == part.rows


def test_double_eight_parts_and_classes():
    parts = {p.key: p for p in draw(Bracket("double", list(range(1, 9))).games)}
    assert parts["winners"].rounds == [1, 2, 3] and parts["losers"].rounds == [2, 3, 4, 5]
    assert parts["final"].rounds == [6]  # the reset is drawn only once it is needed
    assert parts["winners"].cells[9].classes == "gc-3 gr-1 gs-4 in"
    assert parts["winners"].cells[1].classes == "gc-1 gr-1 gs-1 out-top"
    assert parts["losers"].cells[10].classes == "gc-2 gr-1 gs-1 in out-top"  # fed by game 7, and by game 6's loser
    assert parts["final"].cells[14].classes == "gc-1 gr-1 gs-1"
    reset = _complete("double", 8)
    final = {p.key: p for p in draw(reset.games)}["final"]
    assert final.rounds == [6, 7] and final.cells[14].out == "straight" and final.cells[15].fed
