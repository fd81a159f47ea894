"""Event statistics from stored tables (app/core/event_stats.py): what a game, a bye and an intentional draw count."""
from __future__ import annotations

import pytest
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from app.core import factions
from app.core.brackets import Bracket
from app.core.event_stats import (NOT_GIVEN, Entry, PlainMatch, SideGame, Table, cut_games, event_stats,
                                  table_games)
from app.core.pairing import Format, Side

HB, NOVA = "Haas-Bioroid: Engineering the Future", "Nova Initiative: Jeitinho Brasileiro"
ANDY, KATE = "Andromeda: Dispossessed Ristie", "Kate \"Mac\" McCaffrey: Digital Tinker"


def single(rnd, corp, runner, key, draw=False):
    return Table(rnd, key, draw, ((corp, "corp"), (runner, "runner")))


def bye(rnd, player):
    return Table(rnd, "bye", False, ((player, None),))


ENTRIES = [Entry(1, HB, ANDY), Entry(2, HB, KATE), Entry(3, "Unheard Of Corp", ANDY), Entry(4, "", "")]


def test_single_sided_counts_each_side_identity_and_faction():
    tables = [single(1, 1, 2, "corp"), single(1, 3, 4, "runner"), bye(1, 5),
              single(2, 2, 1, "tie"), single(2, 4, 3, "id"), bye(2, 5)]
    stats = event_stats(Format.SINGLE_SIDED, ENTRIES + [Entry(5, HB, KATE)], tables)
    swiss = stats.swiss
    assert (swiss.players, swiss.games, swiss.draws, swiss.intentional_draws, stats.byes) == (5, 3, 1, 1, 2)
    corp, runner = swiss.sides[Side.CORP], swiss.sides[Side.RUNNER]
    assert (corp.wins, corp.losses, corp.draws, corp.intentional_draws) == (1, 1, 1, 1)
    assert (runner.wins, runner.losses, runner.draws) == (1, 1, 1)
    assert corp.win_rate == Fraction(1, 3)
    by_name = {line.name: line for line in swiss.identities[Side.CORP]}
    hb = by_name[HB].tally
    assert (hb.players, hb.wins, hb.losses, hb.draws, hb.intentional_draws) == (3, 1, 0, 1, 0)
    assert by_name[HB].faction == "haas_bioroid"
    assert by_name["Unheard Of Corp"].faction is None and by_name["Unheard Of Corp"].tally.losses == 1
    assert by_name[NOT_GIVEN].tally.intentional_draws == 1
    assert swiss.identities[Side.CORP][0].name == HB  # most players first
    andy = next(line for line in swiss.identities[Side.RUNNER] if line.name == ANDY).tally
    assert (andy.players, andy.wins, andy.losses, andy.draws, andy.intentional_draws) == (2, 0, 0, 1, 1)
    corp_factions = {line.faction: line for line in swiss.factions[Side.CORP]}
    assert corp_factions["haas_bioroid"].tally.games == 2 and corp_factions["haas_bioroid"].name == "Haas-Bioroid"
    assert corp_factions[None].name == factions.UNKNOWN_NAME and corp_factions[None].tally.players == 2
    # 1 and 3 played Corp, then Runner; 2 and 4 the other way; 5 had two byes
    assert stats.side_balance == [(0, 5)]


def test_side_balance_counts_players_by_difference():
    tables = [single(1, 1, 2, "corp"), single(2, 1, 3, "runner"), single(3, 2, 3, "corp"), bye(3, 1)]
    stats = event_stats(Format.SINGLE_SIDED, [Entry(p) for p in (1, 2, 3)], tables)
    # 1: two Corp games; 2: Runner then Corp; 3: Runner twice
    assert stats.side_balance == [(0, 1), (2, 2)]


def test_identities_are_counted_by_their_canonical_name():
    tables = [single(1, 1, 2, "corp")]
    stats = event_stats(Format.SINGLE_SIDED, [Entry(1, HB.upper()), Entry(2, HB)], tables)
    assert [(line.name, line.tally.players) for line in stats.swiss.identities[Side.CORP]] == [(HB, 2)]


def test_double_sided_table_is_two_games_one_per_side():
    # seat 1 won as Corp (game 1), seat 2 won as Corp (game 2): "each won as Corp"
    games = table_games(Format.DOUBLE_SIDED, Table(1, "3-0/0-3", False, ((1, None), (2, None))))
    assert games == [SideGame(1, 2, Side.CORP), SideGame(2, 1, Side.CORP)]
    games = table_games(Format.DOUBLE_SIDED, Table(1, "1-1/3-0", False, ((1, None), (2, None))))
    assert games == [SideGame(1, 2, None), SideGame(2, 1, Side.RUNNER)]
    stats = event_stats(Format.DOUBLE_SIDED, ENTRIES, [Table(1, "1-1/3-0", False, ((1, None), (2, None)))])
    assert stats.swiss.games == 2 and stats.side_balance == []
    assert stats.swiss.sides[Side.RUNNER].wins == 1 and stats.swiss.sides[Side.CORP].draws == 1


def test_plain_swiss_counts_matches_without_identities():
    tables = [Table(1, "2-1", False, ((1, None), (2, None))), Table(1, "1-1", False, ((3, None), (4, None))),
              Table(2, "0-2", False, ((1, None), (3, None))), Table(2, "bye", False, ((2, None),))]
    assert table_games(Format.PLAIN, tables[2]) == [PlainMatch((1, 3), 3)]
    stats = event_stats(Format.PLAIN, ENTRIES, tables)
    assert (stats.swiss.games, stats.swiss.draws, stats.byes, stats.swiss.players) == (3, 1, 1, 4)
    assert stats.swiss.identities == {} and stats.swiss.sides == {} and stats.side_balance == []


def test_cut_games_have_the_recorded_corp():
    bracket = Bracket.from_results("single", [1, 2, 3, 4], [(1, 1, 4), (2, 3, 2)])
    games = cut_games(Format.SINGLE_SIDED, bracket.games)
    assert sorted(games, key=lambda g: g.corp) == [SideGame(2, 3, Side.RUNNER), SideGame(4, 1, Side.RUNNER)]
    stats = event_stats(Format.SINGLE_SIDED, ENTRIES, [single(1, 1, 2, "corp")], (bracket.seeds, games))
    assert stats.cut.players == 4 and stats.cut.games == 2
    assert stats.cut.sides[Side.RUNNER].wins == 2 and stats.swiss.sides[Side.CORP].wins == 1
    assert cut_games(Format.PLAIN, bracket.games) == [PlainMatch((1, 4), 1), PlainMatch((2, 3), 3)]


KEYS = {Format.SINGLE_SIDED: ["corp", "runner", "tie", "id"],
        Format.DOUBLE_SIDED: ["6-0", "2-2", "0-6", "3-0/0-3", "0-3/3-0", "1-1/1-1", "3-0/1-1", "0-3/1-1"],
        Format.PLAIN: ["2-0", "2-1", "1-2", "0-2", "1-1", "1-1-1"]}


@st.composite
def events(draw):
    """A format, up to 12 players with identities from a small pool, and up to 40 tables (byes among them)."""
    fmt = draw(st.sampled_from(list(Format)))
    n = draw(st.integers(2, 12))
    corp_pool, runner_pool = [HB, NOVA, "", "Homebrew"], [ANDY, KATE, ""]
    entries = [Entry(p, draw(st.sampled_from(corp_pool)), draw(st.sampled_from(runner_pool))) for p in range(n)]
    tables = []
    for rnd in range(draw(st.integers(0, 40))):
        a, b = draw(st.lists(st.integers(0, n - 1), min_size=2, max_size=2, unique=True))
        if draw(st.integers(0, 9)) == 0:
            tables.append(bye(rnd, a))
            continue
        sides = ("corp", "runner") if fmt is Format.SINGLE_SIDED else (None, None)
        if draw(st.booleans()) and fmt is Format.SINGLE_SIDED:
            a, b = b, a
        tables.append(Table(rnd, draw(st.sampled_from(KEYS[fmt])), draw(st.integers(0, 19)) == 0,
                            ((a, sides[0]), (b, sides[1]))))
    return fmt, entries, tables


@pytest.mark.slow
@given(events())
def test_every_game_is_counted_once_on_each_side(event):
    """Invariants: a side's wins are the other's losses; each side's identity lines and faction lines add up to
    the side (players and every result); side balance counts every player once; byes are counted apart."""
    fmt, entries, tables = event
    stats = event_stats(fmt, entries, tables)
    swiss = stats.swiss
    assert stats.byes == sum(1 for t in tables if t.result == "bye")
    assert swiss.players == len({p for t in tables for p, _ in t.seats})
    per_table = 2 if fmt is Format.DOUBLE_SIDED else 1
    assert swiss.games + swiss.intentional_draws == per_table * (len(tables) - stats.byes)
    if not fmt.netrunner:
        return
    corp, runner = swiss.sides[Side.CORP], swiss.sides[Side.RUNNER]
    assert (corp.wins, corp.losses, corp.draws) == (runner.losses, runner.wins, runner.draws)
    assert corp.games == runner.games == swiss.games and corp.draws == swiss.draws
    for side in (Side.CORP, Side.RUNNER):
        for lines in (swiss.identities[side], swiss.factions[side]):
            for field in ("players", "wins", "losses", "draws", "intentional_draws"):
                assert sum(getattr(x.tally, field) for x in lines) == getattr(swiss.sides[side], field)
    if fmt.sided_tables:
        assert sum(n for _, n in stats.side_balance) == swiss.players


def test_a_total_that_does_not_say_its_games_counts_no_game():
    """An imported file's 3-3 or 4-1 without side scores (results.games_known): no side won anything SASS could
    count, so the table is left out rather than guessed; 6-0 says its games and counts."""
    for total in ("3-3", "4-1", "1-4"):
        assert table_games(Format.DOUBLE_SIDED, Table(1, total, False, ((1, None), (2, None)))) == []
    assert len(table_games(Format.DOUBLE_SIDED, Table(1, "6-0", False, ((1, None), (2, None))))) == 2
