"""Cuts kept as played (app/core/played_bracket.py): a re-seeded or imported bracket's games as they happened,
checked for games that cannot have happened, and the same cut as a fixed bracket played alike."""
from __future__ import annotations

import random

import pytest

from app.core.brackets import Bracket, BracketError
from app.core.played_bracket import PlayedBracket, PlayedGame
from tests.core.test_brackets import ALL, players, simulate


def cobra_single_elimination(seeds, rng):
    """Cobra's single elimination as documented: round 1 pairs seed k with seed n+1-k, then every round pairs
    the best remaining seed with the worst, the second with the second worst...; with an odd number left the best
    seed waits (top 3: 2 v 3, the winner meets seed 1). Games numbered 1.. in order."""
    seed = {p: i for i, p in enumerate(seeds, 1)}
    alive, games, number, rnd = list(seeds), [], 0, 0
    while len(alive) > 1:
        rnd += 1
        alive.sort(key=seed.get)
        winners = alive[:len(alive) % 2]
        paired = alive[len(alive) % 2:]
        for k in range(len(paired) // 2):
            a, b = paired[k], paired[-1 - k]
            number += 1
            winner = rng.choice((a, b))
            games.append(PlayedGame(number, rnd, a, b, winner, rng.choice((a, b))))
            winners.append(winner)
        alive = winners
    return games


def test_a_reseeded_single_elimination_is_kept_as_played():
    seeds = players(8)
    games = [PlayedGame(*g) for g in [
        (1, 1, "p1", "p8", "p8"), (2, 1, "p2", "p7", "p2"), (3, 1, "p3", "p6", "p3"), (4, 1, "p4", "p5", "p5"),
        (5, 2, "p2", "p8", "p8", "p2"), (6, 2, "p3", "p5", "p3"), (7, 3, "p3", "p8", "p3", "p8")]]
    fixed = Bracket.from_results("single", seeds, [(1, "p8"), (2, "p5"), (3, "p2"), (4, "p3")])
    # the fixed bracket has p8 meet the winner of p4 v p5; Cobra re-seeds: best left (p2) v worst left (p8)
    assert {g.players for g in fixed.ready_games()} == {("p8", "p5"), ("p2", "p3")}
    b = PlayedBracket("single", seeds, games)
    assert b.is_complete() and b.champion() == "p3"
    # out in the final, then round 2 by seed, then round 1 by seed (Cobra's standings)
    assert b.final_standings() == ["p3", "p8", "p2", "p5", "p1", "p4", "p6", "p7"]
    assert [g.section for g in b.games] == ["upper"] * 6 + ["final"]
    assert [s.label for s in b.game(5).slots] == ["Winner of game 2", "Winner of game 1"]
    assert b.game(1).first_cut_game and not b.game(7).first_cut_game
    assert b.game(5).corp == "p2" and b.game(5).runner == "p8"
    assert b.cut_side_counts() == ({"p2": 1, "p8": 1}, {"p8": 1, "p3": 1})
    assert b.results()[-1] == (7, "p3", "p8") and b.ready_games() == []


def test_played_bracket_reports_and_corrects_its_own_games_only():
    seeds = players(4)
    b = PlayedBracket("single", seeds, [(1, 1, "p1", "p4", "p4"), (2, 1, "p2", "p3", "p2"), (3, 2, "p2", "p4")])
    assert [g.id for g in b.ready_games()] == [3] and not b.is_complete() and b.champion() is None
    with pytest.raises(BracketError, match="game 1 cannot be corrected: game 3"):
        b.correct(1, "p1")
    with pytest.raises(BracketError, match="p1 does not play in game 3"):
        b.report(3, "p1")
    b.report(3, "p4", corp="p2")
    assert b.champion() == "p4" and b.final_standings() == ["p4", "p2", "p1", "p3"]
    b.correct(3, "p2", corp="p2")
    assert b.champion() == "p2" and b.game(3).corp == "p2"
    with pytest.raises(BracketError, match="no game 9"):
        b.game(9)


@pytest.mark.parametrize("games, message", [
    ([(1, 1, "p1", "p9", "p1")], "p9, who is not in the cut"),
    ([(1, 1, "p1", "p1", "p1")], "with themselves"),
    ([(1, 1, "p1", "p4", "p2")], "the winner of game 1, p2, does not play in it"),
    ([(1, 1, "p1", "p4", "p1", "p2")], "cannot be its Corp"),
    ([(1, 1, "p1", "p4", "p1"), (2, 1, "p1", "p2", "p2")], "p1 plays twice in cut round 1"),
    ([(1, 1, "p1", "p4", "p1"), (2, 2, "p4", "p2", "p2")], "p4 plays game 2 after going out"),
    ([(1, 1, "p1", "p4"), (2, 2, "p1", "p2", "p2")], "p1 plays game 2 before game 1 has a result"),
    ([(1, 1, "p1", "p4", "p1"), (1, 2, "p2", "p3", "p2")], "game 1 appears twice"),
    ([(1, 0, "p1", "p4", "p1")], "no cut round"),
])
def test_played_games_that_cannot_have_happened(games, message):
    with pytest.raises(BracketError, match=message):
        PlayedBracket("single", players(4), games)


def test_played_double_elimination_allows_one_loss():
    seeds = players(4)
    games = [(1, 1, "p1", "p4", "p4"), (2, 1, "p2", "p3", "p2"), (3, 2, "p4", "p2", "p4"),
             (4, 2, "p1", "p3", "p1"), (5, 3, "p2", "p1", "p1"), (6, 4, "p4", "p1", "p1"), (7, 5, "p4", "p1", "p4")]
    with pytest.raises(BracketError, match="p1 plays game 4 after going out"):
        PlayedBracket("single", seeds, games)
    b = PlayedBracket("double", seeds, games)
    assert [g.section for g in b.games] == ["upper", "upper", "upper", "lower", "lower", "final", "reset"]
    assert b.champion() == "p4" and b.final_standings() == ["p4", "p1", "p2", "p3"]


@pytest.mark.parametrize("kind, size", ALL)
def test_every_fixed_bracket_kept_as_played_is_the_same_cut(kind, size):
    """A bracket's games stored as played give the same standings, champion, sections and slots."""
    rng = random.Random(size * 11 + len(kind))
    for _ in range(40):
        b, _, _ = simulate(kind, players(size), rng)
        played = PlayedBracket(kind, b.seeds, [(g.id, g.round, g.player1, g.player2, g.winner, g.corp)
                                                for g in b.games])
        assert played.champion() == b.champion() and played.final_standings() == b.final_standings()
        assert [(g.id, g.section, g.players, g.winner, g.corp) for g in played.games] == \
            [(g.id, g.section, g.players, g.winner, g.corp) for g in b.games]
        for g in played.games:
            assert [s.kind for s in g.slots] == [s.kind for s in b.game(g.id).slots]


@pytest.mark.parametrize("size", [2, 3, 4, 8, 16])
def test_cobra_reseeded_single_elimination_played_out(size):
    rng = random.Random(size)
    for _ in range(60):
        seeds = players(size)
        games = cobra_single_elimination(seeds, rng)
        b = PlayedBracket("single", seeds, games)
        assert b.is_complete() and b.champion() == games[-1].winner
        standings = b.final_standings()
        assert standings[:2] == [games[-1].winner, b.game(games[-1].id).loser]
        # later rounds' losers ahead of earlier rounds', each round's by seed
        out = b.out_rounds()
        keys = [(-out.get(p, 99), b.seed_of(p)) for p in standings]
        assert keys == sorted(keys)

