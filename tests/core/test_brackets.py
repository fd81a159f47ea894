"""Top cut brackets: layouts, random simulations of every size, corrections, resets, seeding and cut sides."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from app.core.bracket_games import LAYOUTS, SIZES
from app.core.brackets import Bracket, BracketError, cut_sides, recommended_cut, seed_cut
from app.core.pairing import Entrant, Format, Game, Side
from app.core.standings import compute_standings

ALL = sorted(LAYOUTS)


def players(n):
    return [f"p{i}" for i in range(1, n + 1)]


@pytest.mark.parametrize("size, opening", [
    (4, [(1, 4), (2, 3)]),
    (8, [(1, 8), (4, 5), (2, 7), (3, 6)]),
    (16, [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]),
])
@pytest.mark.parametrize("kind", ["double", "single"])
def test_opening_round_layouts(kind, size, opening):
    b = Bracket(kind, players(size))
    first = [(b.seed_of(g.player1), b.seed_of(g.player2)) for g in b.games if g.round == 1]
    assert first == opening
    assert all(g.first_cut_game for g in b.games if g.round == 1)


def test_top3_seed_one_has_a_bye():
    b = Bracket("double", ["a", "b", "c"])
    assert [g.players for g in b.ready_games()] == [("b", "c")]
    b.report(1, "c")
    assert [(g.id, g.players) for g in b.ready_games()] == [(2, ("a", "c"))]
    assert not b.game(2).first_cut_game  # c has played a cut game already


def test_single_elimination_top3_is_cobras():
    """Cobra's single-elimination top 3: seeds 2 v 3, the winner meets seed 1 in the final."""
    b = Bracket("single", ["a", "b", "c"])
    assert [(g.id, g.round, g.players) for g in b.ready_games()] == [(1, 1, ("b", "c"))]
    b.report(1, "c")
    assert [(g.id, g.round, g.section, g.players) for g in b.ready_games()] == [(2, 2, "final", ("a", "c"))]
    b.report(2, "c")
    # Cobra's standings: winner of the final, its loser, then the loser of 2 v 3
    assert b.champion() == "c" and b.final_standings() == ["c", "a", "b"]
    assert [g.id for g in b.games] == [1, 2]  # no reset in single elimination


def test_single_elimination_top2_is_one_final():
    b = Bracket("single", ["a", "b"])
    assert [(g.id, g.section, g.players, g.first_cut_game) for g in b.games] == [(1, "final", ("a", "b"), True)]
    assert b.final_standings() == ["a", "b"] and b.champion() is None
    b.report(1, "b", corp="a")
    assert b.champion() == "b" and b.final_standings() == ["b", "a"] and b.is_complete()


# ---- random simulation of every size --------------------------------------------------------------------------

def simulate(kind, seeds, rng):
    """Play the bracket to the end with random winners, checking the elimination rules on the way."""
    b = Bracket(kind, seeds)
    limit = 2 if kind == "double" else 1
    losses = Counter()
    played = []
    while not b.is_complete():
        ready = b.ready_games()
        assert ready, "an incomplete bracket always has a game to play"
        game = rng.choice(ready)
        for p in game.players:
            assert losses[p] < limit, f"{p} plays game {game.id} after being eliminated"
        winner = rng.choice(game.players)
        b.report(game.id, winner, corp=rng.choice(game.players))
        losses[b.game(game.id).loser] += 1
        played.append(game.id)
    return b, losses, played


@pytest.mark.slow
@pytest.mark.parametrize("kind, size", ALL)
def test_random_brackets(kind, size):
    rng = random.Random(size * 7 + len(kind))
    seeds = players(size)
    limit = 2 if kind == "double" else 1
    reached = set()
    final_id = next(g.id for g in LAYOUTS[kind, size] if g.section == "final")
    for _ in range(150):
        b, losses, played = simulate(kind, seeds, rng)
        reached |= set(played)
        assert len(played) == len(set(played)) == len(b.games)
        alive = [p for p in seeds if losses[p] < limit]
        assert len(alive) == 1 and b.champion() == alive[0]
        standings = b.final_standings()
        assert sorted(standings) == sorted(seeds) and standings[0] == alive[0]
        final = b.game(final_id)
        has_reset = any(g.section == "reset" for g in b.games)
        if kind == "double":
            # reset only when the lower-bracket player (one loss already) wins the first final
            assert has_reset == (final.winner == final.player2)
            assert losses[final.player2] >= 1 and losses[standings[1]] == 2
        else:
            assert not has_reset and standings[1] == final.loser
        # a bracket rebuilt from its persisted results is the same bracket
        again = Bracket.from_results(kind, seeds, reversed(b.results()))
        assert again.games == b.games and again.final_standings() == standings
    assert reached == {g.id for g in LAYOUTS[kind, size]}  # every game, the reset included, was reached


def test_final_standings_follow_the_round_out_then_seed():
    b = Bracket("double", players(4))
    for game, winner in [(1, "p1"), (2, "p3"), (3, "p1"), (4, "p4"), (5, "p4"), (6, "p4")]:
        b.report(game, winner)
    assert [g.id for g in b.ready_games()] == [7]  # p4 came up the lower bracket and won: reset
    assert b.final_standings()[:2] == ["p1", "p4"] and b.champion() is None
    b.report(7, "p4")
    # p2 lost game 4 (round 2), p3 lost game 5 (round 3), p1 lost the reset (round 5)
    assert b.final_standings() == ["p4", "p1", "p3", "p2"]
    single = Bracket("single", players(8))
    for g in single.ready_games():
        single.report(g.id, g.player1)
    for g in single.ready_games():
        single.report(g.id, g.player2)
    single.report(7, "p4")
    # p4 beat p3 in the final; p1 and p2 went out in round 2, then the round 1 losers, each by seed
    assert single.final_standings() == ["p4", "p3", "p1", "p2", "p5", "p6", "p7", "p8"]


# ---- reporting and correcting ---------------------------------------------------------------------------------

def test_correction_refused_while_dependents_reported_and_names_them():
    b = Bracket("double", players(8))
    for g in b.ready_games():
        b.report(g.id, g.player1)
    b.correct(1, "p8")  # nothing depends on it yet
    assert b.game(5).player1 == "p8" and b.game(7).player1 == "p1"
    b.report(5, "p8")
    b.report(7, "p1")
    with pytest.raises(BracketError, match=r"game 1 cannot be corrected: game 5, game 7 already reported"):
        b.correct(1, "p1")
    assert b.game(1).winner == "p8"  # unchanged
    b.correct(1, "p8", corp="p1")  # same winner, only the Corp: allowed
    assert b.game(1).corp == "p1" and b.game(1).runner == "p8"
    with pytest.raises(BracketError, match="game 6 has not been reported"):
        b.correct(6, "p2")


def test_reset_appears_and_disappears_with_the_final_result():
    b = Bracket("double", players(4))
    for game, winner in [(1, "p1"), (2, "p2"), (3, "p1"), (4, "p4"), (5, "p2")]:
        b.report(game, winner)
    with pytest.raises(BracketError, match="no game 7"):
        b.report(7, "p1")
    b.report(6, "p1")
    assert b.is_complete() and b.champion() == "p1" and len(b.games) == 6
    b.correct(6, "p2")
    assert not b.is_complete() and [g.id for g in b.ready_games()] == [7]
    b.report(7, "p2")
    with pytest.raises(BracketError, match="game 6 cannot be corrected: game 7"):
        b.correct(6, "p1")
    assert b.champion() == "p2"


def test_bad_reports_change_nothing():
    b = Bracket("single", players(4))
    with pytest.raises(BracketError, match="game 3 has no players yet"):
        b.report(3, "p1")
    with pytest.raises(BracketError, match="p2 does not play in game 1"):
        b.report(1, "p2")
    with pytest.raises(BracketError, match="cannot be its Corp"):
        b.report(1, "p1", corp="p3")
    with pytest.raises(BracketError, match="no game 9"):
        b.report(9, "p1")
    assert b.results() == []
    b.report(1, "p4", corp="p1")
    with pytest.raises(BracketError, match="already reported"):
        b.report(1, "p1")
    assert b.results() == [(1, "p4", "p1")]
    with pytest.raises(BracketError, match="no game 9"):
        Bracket.from_results("single", players(4), [(1, "p1", None), (9, "p1", None)])


@pytest.mark.parametrize("kind, seeds, message", [
    ("triple", players(4), "unknown bracket kind"),
    ("single", players(5), "has 2, 3, 4, 8, 16 players, not 5"),
    ("double", players(5), "has 3, 4, 8, 16 players, not 5"),
    ("double", ["a", "b", "a", "c"], "seeded twice"),
])
def test_bad_brackets(kind, seeds, message):
    with pytest.raises(BracketError, match=message):
        Bracket(kind, seeds)
    assert SIZES == {"double": (3, 4, 8, 16), "single": (2, 3, 4, 8, 16)}


# ---- seeding ---------------------------------------------------------------------------------------------------

def test_seed_cut_skips_dropped_and_excluded():
    entrants = [Entrant(i, dropped=(i == 2)) for i in range(1, 8)]
    games = [Game(1, i, i + 1, 3, 0) for i in (1, 3, 5)] + [Game(1, 7, None, 3)]
    standings = compute_standings(Format.PLAIN, entrants, games)
    ranked = [s.player for s in standings]
    assert seed_cut(standings, 4) == [p for p in ranked if p != 2][:4]
    assert seed_cut(standings, 4, excluded={ranked[0]}) == [p for p in ranked if p not in (2, ranked[0])][:4]
    assert seed_cut(["a", "b", "c", "d", "e"], 3, dropped={"a"}, excluded={"c"}) == ["b", "d", "e"]
    with pytest.raises(BracketError, match="top 4 cut needs 4 eligible players; only 3"):
        seed_cut(["a", "b", "c", "d"], 4, excluded={"b"})


# ---- sides in single-sided cuts ----------------------------------------------------------------------------------

def test_cut_sides():
    b = Bracket("double", ["s1", "s2", "s3", "s4"])
    g1 = b.game(1)
    assert cut_sides(g1, {"s1": 5}, {"s4": 5}) is None  # first cut game: the higher seed chooses
    assert cut_sides(g1, {}, {}, Side.RUNNER) == ("s4", "s1")
    assert cut_sides(g1, {}, {}, Side.CORP) == ("s1", "s4")
    b.report(1, "s1", corp="s1")
    b.report(2, "s3", corp="s2")
    corp, runner = b.cut_side_counts()
    assert corp == {"s1": 1, "s2": 1} and runner == {"s4": 1, "s3": 1}
    g3 = b.game(3)  # s1 (corped) v s3 (ran): s1 has played Corp more often, so runs
    assert cut_sides(g3, corp, runner) == ("s3", "s1")
    # swiss counts too: s1 5-3 + 1-0 = +3, s3 3-5 + 0-1 = -3 -> s1 runs; reversed swiss -> s3 runs
    assert cut_sides(g3, {"s1": 6, "s3": 3}, {"s1": 3, "s3": 6}) == ("s3", "s1")
    assert cut_sides(g3, {"s1": 3, "s3": 6}, {"s1": 6, "s3": 3}) == ("s1", "s3")
    # equal: the higher seed (s1) chooses
    assert cut_sides(g3, {"s1": 1, "s3": 1}, {"s1": 1, "s3": 1}) is None
    assert cut_sides(g3, {"s1": 1, "s3": 1}, {"s1": 1, "s3": 1}, Side.CORP) == ("s1", "s3")
    with pytest.raises(BracketError, match="no players yet"):
        cut_sides(b.game(6), corp, runner)


def test_a_game_feeding_both_slots_of_the_reset_is_named_once():
    bracket = Bracket("double", [1, 2, 3, 4])
    for game, winner in ((1, 1), (2, 2), (3, 1), (4, 4), (5, 2), (6, 2)):
        bracket.report(game, winner)
    assert bracket.dependents(6) == [7]


@pytest.mark.parametrize("n, size", [(0, 0), (15, 0), (16, 4), (36, 4), (37, 8), (219, 8), (220, 16), (1000, 16)])
def test_recommended_cut_follows_aesops_tables(n, size):
    assert recommended_cut(n) == size
    assert size == 0 or all(size in SIZES[kind] for kind in SIZES)


def test_a_files_ranking_stands_over_the_games():
    """rank_as: an imported file's own order of the cut is the final standings (and its first the champion of a
    complete cut); the same order as the games' is no override; contradictions name who went further."""
    bracket = Bracket.from_results("single", ["a", "b", "c", "d"], [(1, "a"), (2, "c"), (3, "c")])
    assert bracket.final_standings() == ["c", "a", "b", "d"] and bracket.champion() == "c"
    assert bracket.ranking_contradictions(["c", "a", "d", "b"]) == []  # b and d went out together
    assert bracket.ranking_contradictions(["a", "c", "b", "d"]) == [("a", "c")]
    bracket.rank_as(["a", "c", "b", "d"])
    assert bracket.final_standings() == ["a", "c", "b", "d"] and bracket.champion() == "a"
    assert bracket.games_champion() == "c" and bracket.games_standings() == ["c", "a", "b", "d"]
    bracket.rank_as(["c", "a", "b", "d"])
    assert bracket.file_ranking is None
    with pytest.raises(BracketError):
        bracket.rank_as(["a", "b", "c"])
    open_cut = Bracket("single", ["a", "b", "c", "d"])
    open_cut.rank_as(["b", "a", "c", "d"])
    assert open_cut.champion() is None and open_cut.final_standings() == ["b", "a", "c", "d"]


def test_cut_games_sit_at_tables_of_their_round():
    """A cut round's games take tables 1, 2, ...: a top 8's final is at table 1, not at its game number (14)."""
    from app.core.brackets import cut_tables
    games = Bracket("double", list(range(1, 9))).games
    tables = cut_tables(games)
    assert [tables[g] for g in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert [tables[g] for g in (5, 6, 7, 8)] == [1, 2, 3, 4]
    assert [tables[g] for g in (9, 10, 11, 12, 13, 14)] == [1, 2, 3, 1, 1, 1]
    for rnd in {g.round for g in games}:
        assert sorted(tables[g.id] for g in games if g.round == rnd) == \
            list(range(1, sum(g.round == rnd for g in games) + 1))
