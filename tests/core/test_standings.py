"""Standings and tiebreakers: hand-computed events for each system, and a naive reference on random events."""
from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from app.core.pairing import Entrant, Format, Game, Side
from app.core.standings import (TIEBREAKERS, compute_standings, counted_games, default_tiebreakers,
                                recommended_rounds)

CORP, RUNNER = Side.CORP, Side.RUNNER


def by_player(rows):
    return {s.player: s for s in rows}


# ---- Netrunner (Cobra) ----------------------------------------------------------------------------------------

def test_cobra_worked_example_double_sided():
    """Cobra's test: Laurie (bye + 6-0) 12 pts SoS 1.5; Dan (3-3 + bye) 9 pts SoS 1.5; Johno 3 pts SoS 5.25."""
    entrants = [Entrant("Laurie"), Entrant("Dan"), Entrant("Johno")]
    games = [
        Game(1, "Laurie", None, 6),
        Game(1, "Dan", "Johno", 3, 3),
        Game(2, "Laurie", "Johno", 6, 0),
        Game(2, "Dan", None, 6),
    ]
    rows = compute_standings(Format.DOUBLE_SIDED, entrants, games)
    assert [s.player for s in rows] == ["Laurie", "Dan", "Johno"]
    s = by_player(rows)
    assert (s["Laurie"].points, s["Dan"].points, s["Johno"].points) == (12, 9, 3)
    assert s["Laurie"].tiebreakers[0] == F(3, 2)
    assert s["Dan"].tiebreakers[0] == F(3, 2)
    assert s["Johno"].tiebreakers[0] == F(21, 4)
    # ESoS: mean of the opponents' SoS
    assert s["Laurie"].tiebreakers[1] == F(21, 4)
    assert s["Dan"].tiebreakers[1] == F(21, 4)
    assert s["Johno"].tiebreakers[1] == F(3, 2)
    assert (s["Laurie"].rounds, s["Laurie"].games, s["Laurie"].byes) == (2, 1, 1)
    assert (s["Dan"].wins, s["Dan"].ties, s["Johno"].losses) == (1, 1, 1)


def single_sided_event_with_drop():
    entrants = [Entrant("A"), Entrant("B"), Entrant("C"), Entrant("D", dropped=True)]
    games = [
        Game(1, "A", "B", 3, 0, player_side=CORP),
        Game(1, "C", "D", 3, 0, player_side=RUNNER),
        Game(2, "A", "C", 3, 0, player_side=CORP),
        Game(2, "B", None, 3),  # D dropped after round 1
    ]
    return entrants, games


def test_netrunner_byes_and_dropped_opponents():
    rows = compute_standings(Format.SINGLE_SIDED, *single_sided_event_with_drop())
    assert [(s.rank, s.player) for s in rows] == [(1, "A"), (2, "B"), (3, "C"), (4, "D")]
    s = by_player(rows)
    # points per round played: A 6/2, B 3/2 (bye counts), C 3/2, D 0/1 (dropped, still an opponent)
    assert s["A"].tiebreakers == (F(3, 2), F(9, 4))
    assert s["B"].tiebreakers == (F(3), F(3, 2))  # the bye is not an opponent
    assert s["C"].tiebreakers == (F(3, 2), F(3, 2))
    assert s["D"].tiebreakers == (F(3, 2), F(3, 2))
    assert s["D"].dropped and not s["A"].dropped
    assert [s[p].side_label for p in "ABCD"] == ["Corp +2", "Runner +1", "Runner +2", "Corp +1"]
    assert (s["A"].corp, s["A"].runner, s["A"].side_bias) == (2, 0, 2)


def test_only_byes_gives_sos_zero_and_repeat_opponents_count_twice():
    entrants = [Entrant("A"), Entrant("B"), Entrant("Z")]
    games = [
        Game(1, "A", "B", 3, 0, player_side=CORP), Game(1, "Z", None, 3),
        Game(2, "B", "A", 3, 0, player_side=CORP), Game(2, "Z", None, 3),  # rematch, reversed sides
        Game(3, "A", None, 3),
    ]
    s = by_player(compute_standings(Format.SINGLE_SIDED, entrants, games))
    assert s["Z"].tiebreakers == (0, 0)
    assert s["Z"].side_label == "Balanced" and s["Z"].games == 0 and s["Z"].rounds == 2
    # B met A twice: both games count A's 6 points over 3 rounds
    assert s["B"].tiebreakers[0] == F(2)
    assert s["A"].tiebreakers[0] == F(3, 2)
    assert s["B"].tiebreakers[1] == F(3, 2)


# ---- Magic (MTR) -----------------------------------------------------------------------------------------------

def magic_event():
    entrants = [Entrant(p) for p in "ABCDE"]
    games = [
        Game(1, "A", "B", 3, 0, player_games=2, opponent_games=0),
        Game(1, "C", "D", 3, 0, player_games=2, opponent_games=1),
        Game(1, "E", None, 3),
        Game(2, "A", "E", 3, 0, player_games=2, opponent_games=1),
        Game(2, "C", "B", 1, 1, player_games=1, opponent_games=1, drawn_games=1),
        Game(2, "D", None, 3),
    ]
    return entrants, games


def test_magic_tiebreakers_by_hand():
    rows = compute_standings(Format.PLAIN, *magic_event())
    assert default_tiebreakers(Format.PLAIN) == "magic"
    # D and E both have 3 points; E's only opponent A (MW 1) beats D's only opponent C (MW 2/3)
    assert [s.player for s in rows] == ["A", "C", "E", "D", "B"]
    s = by_player(rows)
    floor = F(33, 100)
    # match-win %: A 6/6, B 1/6 -> floored 0.33, C 4/6, D 3/6 (bye counts), E 3/6
    assert s["A"].tiebreakers[0] == (floor + F(1, 2)) / 2  # opponents B (floored) and E; E's bye is no opponent
    assert s["B"].tiebreakers[0] == (1 + F(2, 3)) / 2
    assert s["C"].tiebreakers[0] == (F(1, 2) + floor) / 2
    assert s["D"].tiebreakers[0] == F(2, 3)
    assert s["E"].tiebreakers[0] == 1
    # game-win %: A 12/15; B (1 win, 1 draw of 5 games) 4/15 -> 0.33; C 10/18; D 9/15 and E 9/15 (bye = 2-0)
    gw = {"A": F(4, 5), "B": floor, "C": F(5, 9), "D": F(3, 5), "E": F(3, 5)}
    assert {p: s[p].tiebreakers[1] for p in gw} == gw
    assert s["A"].tiebreakers[2] == (floor + F(3, 5)) / 2
    assert s["B"].tiebreakers[2] == (F(4, 5) + F(5, 9)) / 2
    assert s["C"].tiebreakers[2] == (F(3, 5) + floor) / 2
    assert s["D"].tiebreakers[2] == F(5, 9)
    assert s["E"].tiebreakers[2] == F(4, 5)
    assert (s["C"].ties, s["B"].ties, s["D"].byes) == (1, 1, 1)


def test_magic_floor_is_033_not_one_third():
    """A 0-3 opponent counts 33/100 exactly (the MTR's figure), not 1/3."""
    entrants = [Entrant(p) for p in "ABCD"]
    games = [Game(r, "A", "B", 3, 0, player_games=2) for r in (1, 2, 3)]
    games += [Game(r, "C", "D", 3, 0, player_games=2) for r in (1, 2, 3)]
    s = by_player(compute_standings(Format.PLAIN, entrants, games))
    assert s["A"].tiebreakers[0] == F(33, 100) != F(1, 3)
    assert s["B"].tiebreakers[1] == F(33, 100)


# ---- WoW / MANTIS ----------------------------------------------------------------------------------------------

def test_wow_tiebreakers_by_hand():
    entrants = [Entrant(p) for p in "ABCDE"]
    games = [
        Game(1, "A", "E", 3, 0, player_side=CORP), Game(1, "B", "C", 3, 0, player_side=CORP), Game(1, "D", None, 3),
        Game(2, "B", "E", 3, 0, player_side=CORP), Game(2, "C", "D", 3, 0, player_side=CORP), Game(2, "A", None, 3),
        Game(3, "C", "E", 3, 0, player_side=CORP), Game(3, "D", "A", 1, 1, player_side=CORP), Game(3, "B", None, 3),
        Game(4, "D", "E", 3, 0, player_side=CORP), Game(4, "A", "B", 3, 0, player_side=CORP), Game(4, "C", None, 3),
    ]
    rows = compute_standings(Format.SINGLE_SIDED, entrants, games, tiebreakers="wow")
    s = by_player(rows)
    # own wins - losses (byes are wins): A 3, B 2, C 2, D 1, E -4 -> floored at -3 as an opponent
    expected = {
        "A": (0, 12, 0),  # opponents E, D, B: -3 + 1 + 2
        "B": (2, 8, 16),  # opponents C, E, A; lost in round 4
        "C": (0, 12, 1),
        "D": (2, 8, 4),
        "E": (8, 4, 30),  # lost rounds 1..4: 1 + 4 + 9 + 16
    }
    assert {p: s[p].tiebreakers for p in expected} == expected
    assert [x.player for x in rows] == ["A", "B", "C", "D", "E"]
    assert [x.points for x in rows] == [10, 9, 9, 7, 0]


def test_wow_losing_later_ranks_higher():
    entrants = [Entrant(p) for p in "ABCD"]
    games = [Game(1, "A", "B", 3, 0), Game(1, "C", "D", 3, 0), Game(2, "A", "C", 3, 0), Game(2, "B", "D", 3, 0)]
    rows = compute_standings(Format.PLAIN, entrants, games, tiebreakers="wow")
    s = by_player(rows)
    assert s["B"].tiebreakers == (0, 0, 1) and s["C"].tiebreakers == (0, 0, 4)
    assert [x.player for x in rows] == ["A", "C", "B", "D"]


# ---- the rest --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n, rounds", [(0, 0), (1, 0), (2, 1), (3, 2), (4, 2), (5, 3), (45, 6), (64, 6), (65, 7)])
def test_recommended_rounds(n, rounds):
    assert recommended_rounds(n) == rounds


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="unknown tiebreaker"):
        compute_standings(Format.PLAIN, [Entrant(1)], [], tiebreakers="chess")
    with pytest.raises(ValueError, match="not entrants: 9"):
        compute_standings(Format.PLAIN, [Entrant(1)], [Game(1, 1, 9, 3, 0)])
    with pytest.raises(ValueError, match="duplicate"):
        compute_standings(Format.PLAIN, [Entrant(1), Entrant(1)], [])


def test_equal_records_fall_back_to_player_id_order():
    rows = compute_standings(Format.SINGLE_SIDED, [Entrant("b"), Entrant("c"), Entrant("a")], [])
    assert [(s.rank, s.player) for s in rows] == [(1, "a"), (2, "b"), (3, "c")]
    assert all(s.tiebreakers == (0, 0) for s in rows)


# ---- property: a naive reference and the invariants -------------------------------------------------------------

def reference(fmt, entrants, games, system):
    """Straight from the definitions, re-scanning all games per player (quadratic, obviously right)."""
    s = fmt.scoring
    ids = [e.id for e in entrants]

    def mine(p):
        return [g for g in games if p in g.players()]

    def opps(p):
        return [g.opponent if g.player == p else g.player for g in mine(p) if not g.is_bye]

    def pts(p):
        return sum(g.player_points if g.player == p else g.opponent_points for g in mine(p))

    def result(p, g):  # +1 win, 0 tie, -1 loss
        if g.is_bye:
            return 1
        a, b = (g.player_points, g.opponent_points) if g.player == p else (g.opponent_points, g.player_points)
        return (a > b) - (a < b)

    def mean(xs):
        return F(sum(xs), len(xs)) if xs else F(0)

    if system == "netrunner":
        sos = {p: mean([F(pts(o), len(mine(o))) for o in opps(p)]) for p in ids}
        return {p: (sos[p], mean([sos[o] for o in opps(p)])) for p in ids}
    if system == "magic":
        def mw(p):
            return max(F(33, 100), F(pts(p), s.round_points * len(mine(p)))) if mine(p) else F(0)

        def gw(p):
            won = drawn = played = 0
            for g in mine(p):
                if g.is_bye:
                    won, played = won + s.bye_game_wins, played + s.bye_game_wins
                    continue
                w, l = (g.player_games, g.opponent_games) if g.player == p else (g.opponent_games, g.player_games)
                won, drawn, played = won + w, drawn + g.drawn_games, played + w + l + g.drawn_games
            return max(F(33, 100), F(s.win * won + s.tie * drawn, s.win * played)) if played else F(0)
        return {p: (mean([mw(o) for o in opps(p)]), gw(p), mean([gw(o) for o in opps(p)])) for p in ids}
    own = {p: max(-3, sum(result(p, g) for g in mine(p))) for p in ids}
    tb1 = {p: sum(own[o] for o in opps(p)) for p in ids}
    lost = {p: sum(g.round ** 2 for g in mine(p) if result(p, g) < 0) for p in ids}
    return {p: (tb1[p], sum(tb1[o] for o in opps(p)), lost[p]) for p in ids}


@st.composite
def events(draw):
    fmt = draw(st.sampled_from(list(Format)))
    n = draw(st.integers(0, 9))
    entrants = [Entrant(i, dropped=draw(st.booleans())) for i in range(n)]
    games = []
    for rnd in range(1, draw(st.integers(0, 5)) + 1):
        order = draw(st.permutations(range(n)))
        order = order[: draw(st.integers(0, n))]  # some sit out (late entry, drop)
        if len(order) % 2:
            games.append(Game(rnd, order[-1], None, fmt.scoring.bye))
        for a, b in zip(order[0:-1:2], order[1::2]):
            if fmt is Format.DOUBLE_SIDED:
                pa = draw(st.sampled_from([6, 4, 3, 2, 1, 0]))
                pb = {6: 0, 4: 1, 3: 3, 2: 2, 1: 4, 0: 6}[pa]
                games.append(Game(rnd, a, b, pa, pb))
            elif fmt is Format.SINGLE_SIDED:
                pa, pb = draw(st.sampled_from([(3, 0), (0, 3), (1, 1)]))
                games.append(Game(rnd, a, b, pa, pb, player_side=draw(st.sampled_from([CORP, RUNNER]))))
            else:
                ga, gb, gd = draw(st.sampled_from([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (1, 0, 1),
                                                   (0, 0, 3)]))
                pa, pb = (3, 0) if ga > gb else (0, 3) if gb > ga else (1, 1)
                games.append(Game(rnd, a, b, pa, pb, player_games=ga, opponent_games=gb, drawn_games=gd))
    return fmt, entrants, games


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(events(), st.sampled_from(sorted(TIEBREAKERS)))
def test_standings_match_reference_and_are_a_ranked_permutation(event, system):
    fmt, entrants, games = event
    if system == "magic" and fmt is not Format.PLAIN:
        system = "netrunner"  # GW% needs game counts, which only plain swiss records
    rows = compute_standings(fmt, entrants, games, tiebreakers=system)
    assert sorted(s.player for s in rows) == sorted(e.id for e in entrants)
    assert [s.rank for s in rows] == list(range(1, len(entrants) + 1))
    keys = [(s.points, s.tiebreakers) for s in rows]
    assert keys == sorted(keys, reverse=True)
    for a, b in zip(rows, rows[1:]):
        if (a.points, a.tiebreakers) == (b.points, b.tiebreakers):
            assert str(a.player) < str(b.player)
    ref = reference(fmt, entrants, games, system)
    assert {s.player: s.tiebreakers for s in rows} == ref
    assert all(len(s.tiebreakers) == len(TIEBREAKERS[system]) for s in rows)
    dropped = {e.id for e in entrants if e.dropped}
    assert {s.player for s in rows if s.dropped} == dropped
    for s in rows:
        assert s.rounds == s.games + s.byes and s.wins + s.losses + s.ties == s.rounds
        assert s.points == sum(g.player_points if g.player == s.player else g.opponent_points
                               for g in games if s.player in g.players())


def test_a_bye_counts_once_its_round_is_complete():
    """docs/domain.md 7: round 2's bye is scored when paired, but while table 1 is unreported the standings leave
    it out (as Cobra); the games of other rounds, and real games of the open round, count."""
    entrants = [Entrant(i, name) for i, name in enumerate(["A", "B", "C"], 1)]
    games = [Game(1, 1, 2, 6, 0), Game(1, 3, None, 6), Game(2, 2, None, 6)]
    assert counted_games(games, [2]) == games[:2] and counted_games(games, []) == games
    points = {s.name: s.points for s in compute_standings(Format.DOUBLE_SIDED, entrants, counted_games(games, [2]))}
    assert points == {"A": 6, "B": 0, "C": 6}
    reported = games + [Game(2, 1, 3, 0, 6)]
    assert counted_games(reported, [2]) == reported[:2] + reported[3:]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=2, max_value=40).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.integers(min_value=1, max_value=n), unique=True, max_size=n),
                        st.randoms(use_true_random=False))))
def test_seeds_first_keeps_everyone_and_the_brackets_order(case):
    """Once a cut exists: the seeds on top in seed order, everyone else after in swiss order, ranks 1..n, nobody
    lost or doubled; at the cut (seeds = the top of the standings) nothing moves."""
    from app.core.standings import seeds_first

    n, seeds, rng = case
    entrants = [Entrant(i, f"P{i}") for i in range(1, n + 1)]
    games = [Game(1, a, a + 1, rng.choice([3, 0]), 0) for a in range(1, n, 2)]
    rows = compute_standings(Format.PLAIN, entrants, games)
    out = seeds_first(rows, seeds)
    assert [r.rank for r in out] == list(range(1, n + 1))
    assert sorted(r.player for r in out) == list(range(1, n + 1))
    assert [r.player for r in out[:len(seeds)]] == seeds
    rest = [r.player for r in rows if r.player not in seeds]
    assert [r.player for r in out[len(seeds):]] == rest
    top = [r.player for r in rows[:len(seeds)]]
    assert [(r.player, r.rank) for r in seeds_first(rows, top)] == [(r.player, r.rank) for r in rows]


def test_an_imported_files_ranks_order_only_its_exact_ties():
    """tie_order (Player.file_rank) decides between players equal on points and every tiebreaker, before the id's
    text; it never moves a player past one with more points or a better tiebreaker."""
    entrants = [Entrant(i, f"P{i}") for i in (1, 2, 3, 4)]
    games = [Game(1, 1, 2, 3, 0, Side.CORP), Game(1, 3, 4, 3, 0, Side.CORP)]  # 1 and 3 tie exactly, 2 and 4 too
    plain = [r.player for r in compute_standings(Format.SINGLE_SIDED, entrants, games)]
    assert plain == [1, 3, 2, 4]  # the id's text
    ordered = compute_standings(Format.SINGLE_SIDED, entrants, games, tie_order={3: 1, 1: 2, 4: 3, 2: 4})
    assert [(r.player, r.rank) for r in ordered] == [(3, 1), (1, 2), (4, 3), (2, 4)]
    upside_down = compute_standings(Format.SINGLE_SIDED, entrants, games, tie_order={2: 1, 4: 2, 1: 3, 3: 4})
    assert [r.player for r in upside_down] == [1, 3, 2, 4]  # winners stay above: points first
    penalised = [Game(1, 1, 2, 3, -1, Side.CORP), Game(1, 3, 4, 3, 0, Side.CORP)]  # a penalty: below 0 points
    assert [(r.player, r.points) for r in compute_standings(Format.SINGLE_SIDED, entrants, penalised)][-1] == (2, -1)


# ---- who is in the results: players who never played, disqualified players (docs/domain.md 7) ------------------

def _sixteen_with_no_shows_and_a_dq():
    """16 players who played two rounds (player 1 best), 2 no-shows (17, 18: dropped before round 1, no game), and
    player 3 disqualified after winning both rounds."""
    entrants = [Entrant(i, f"P{i}", dropped=i in (3, 17, 18)) for i in range(1, 19)]
    games = [Game(1, a, a + 8, 3, 0, player_side=CORP) for a in range(1, 9)]
    games += [Game(2, a, a + 1, 3, 0, player_side=RUNNER) for a in range(1, 9, 2)]
    games += [Game(2, a, a + 1, 3, 0, player_side=RUNNER) for a in range(9, 17, 2)]
    return entrants, games


def test_players_who_never_played_have_no_row_and_the_ranks_count_only_the_others():
    entrants, games = _sixteen_with_no_shows_and_a_dq()
    every = compute_standings(Format.SINGLE_SIDED, entrants, games)
    rows = compute_standings(Format.SINGLE_SIDED, entrants, games, left_out={17, 18})
    assert {17, 18} <= {r.player for r in every}  # the old answer ranked the no-shows 17th and 18th
    assert {r.player for r in rows} == set(range(1, 17))
    assert [r.rank for r in rows] == list(range(1, 17))
    # the others' order and tiebreakers do not move: the no-shows were nobody's opponent
    assert [(r.player, r.tiebreakers) for r in rows] == [(r.player, r.tiebreakers) for r in every
                                                         if r.player not in (17, 18)]


def test_a_disqualified_player_is_listed_after_everyone_without_a_placing():
    entrants, games = _sixteen_with_no_shows_and_a_dq()
    before = compute_standings(Format.SINGLE_SIDED, entrants, games, left_out={17, 18})
    assert before[0].player in (1, 3) and by_player(before)[3].rank <= 2  # 6 points: near the top
    rows = compute_standings(Format.SINGLE_SIDED, entrants, games, left_out={17, 18}, disqualified={3})
    assert rows[-1].player == 3 and rows[-1].rank == 16
    assert rows[-1].disqualified and not rows[-1].placed
    assert all(r.placed and not r.disqualified for r in rows[:-1])
    assert [r.player for r in rows[:-1]] == [r.player for r in before if r.player != 3]
    assert [r.rank for r in rows] == list(range(1, 17))
    # a disqualified player still counts as the opponent they were for the others' tiebreakers
    assert {r.player: r.tiebreakers for r in rows} == {r.player: r.tiebreakers for r in before}


def test_two_disqualified_players_keep_their_order_among_themselves():
    entrants = [Entrant(i, f"P{i}") for i in (1, 2, 3, 4)]
    games = [Game(1, 1, 2, 3, 0), Game(1, 3, 4, 3, 0), Game(2, 1, 3, 3, 0), Game(2, 2, 4, 3, 0)]
    rows = compute_standings(Format.PLAIN, entrants, games, disqualified={1, 3})
    assert [r.player for r in rows] == [2, 4, 1, 3]


def test_seeds_first_keeps_a_disqualified_seed_last():
    from app.core.standings import seeds_first

    entrants = [Entrant(i, f"P{i}") for i in (1, 2, 3, 4, 5, 6)]
    games = [Game(1, 1, 2, 3, 0), Game(1, 3, 4, 3, 0), Game(1, 5, 6, 3, 0)]
    rows = compute_standings(Format.PLAIN, entrants, games, disqualified={3})
    out = seeds_first(rows, [1, 3, 5, 2])
    assert [r.player for r in out] == [1, 5, 2, 4, 6, 3]
    assert [r.rank for r in out] == [1, 2, 3, 4, 5, 6]
