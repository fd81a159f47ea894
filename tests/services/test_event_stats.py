"""An event's statistics from the database (app/services/event_stats.py): only published rounds' reported tables
count, byes included; the public waits for the swiss to end."""
from __future__ import annotations

from app.services import event_stats
from tests.cut_helpers import add_players, add_round


def test_tables_are_the_published_reported_ones_with_their_byes(make_user, make_tournament):
    t = make_tournament(make_user(), planned_rounds=2)
    a, b, c = add_players(t, "abc")
    add_round(t, 1, [(a, b, "corp"), (c, None, None)])
    add_round(t, 2, [(a, c, None), (b, None, None)], published=False)
    tables = event_stats.tables(t)
    assert [(x.round, x.result, x.seats) for x in tables] == [
        (1, "corp", ((a.id, "corp"), (b.id, "runner"))), (1, "bye", ((c.id, None),))]
    assert not event_stats.public(t)  # round 2 is not published yet


def test_entries_carry_both_identities(make_user, make_tournament):
    t = make_tournament(make_user())
    (a,) = add_players(t, ["Ana"])
    assert [(e.player, e.corp_identity, e.runner_identity) for e in event_stats.entries(t)] == [(a.id, "Ana Corp", "Ana Runner")]
