"""Every player's record folded from the games (app/core/pairing/history.py): points, sides, byes, meetings."""
from __future__ import annotations

from app.core.pairing import Format, Game, History, Side

SSS = Format.SINGLE_SIDED


def test_a_record_counts_points_sides_byes_and_results():
    games = [Game(1, 1, 2, 3, 0, player_side=Side.CORP), Game(1, 3, None, 3),
             Game(2, 2, 1, 1, 1, player_side=Side.CORP), Game(3, 1, 3, 0, 3, player_side=Side.CORP)]
    h = History(SSS, games, [1, 2, 3, 4])
    one = h[1]
    assert (one.points, one.rounds, one.byes, one.wins, one.ties, one.losses) == (4, 3, 0, 1, 1, 1)
    assert (one.corp, one.runner, one.bias, one.games) == (2, 1, 1, 3)
    assert h[3].byes == 1 and h.had_bye(3) and not h.had_bye(1)
    assert h[4].rounds == 0 and not h.had_bye(4)  # a player without games has an empty record


def test_meetings_and_the_sides_played_against_one_opponent():
    games = [Game(1, 1, 2, 3, 0, player_side=Side.CORP), Game(2, 2, 1, 3, 0, player_side=Side.CORP)]
    h = History(SSS, games, [1, 2, 3])
    assert h.times_met(1, 2) == h.times_met(2, 1) == 2 and h.times_met(1, 3) == 0
    assert h.sides_played_against(1, 2) == [Side.CORP, Side.RUNNER]
    assert h.sides_played_against(9, 2) == [] and h.times_met(9, 2) == 0
